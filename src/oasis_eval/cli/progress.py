"""Run progress for people: per-phase bars and failures on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .output import terminal_safe


def _plain(text: str) -> str:
    """Agent or profile text for a rich console: controls shown as escapes, no markup."""
    return escape(terminal_safe(text, one_line=True))


class PlainProgress:
    """One line per event on stderr (CI logs, pipes)."""

    def __call__(self, message: str) -> None:
        typer.echo(
            terminal_safe(message, one_line=True), err=True
        )  # one event, one line: agent text cannot fake one

    def close(self) -> None:
        return None


class TerminalProgress:
    """A rich display: a bar per phase (scenarios done/total) and each failure as it happens."""

    def __init__(self, console: Any = None) -> None:
        self.console = console or Console(stderr=True)
        self.bars = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failures]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.tasks: dict[str, Any] = {}
        self.failures: dict[str, int] = {}
        self.bars.start()

    def __call__(self, message: str) -> None:
        kind = getattr(message, "kind", "info")
        phase = getattr(message, "phase", None)
        if kind == "phase" and phase:
            self.failures[phase] = 0
            self.tasks[phase] = self.bars.add_task(
                f"{phase:<10}", total=getattr(message, "total", 0), failures=""
            )
        elif kind == "scenario" and phase in self.tasks:
            outcome = getattr(message, "outcome", "") or ""
            if outcome in ("FAIL", "PROVIDER_FAILURE"):
                self.failures[phase] += 1
                style = "red" if outcome == "FAIL" else "yellow"
                scenario = getattr(message, "scenario_id", "") or ""
                reason = getattr(message, "reason", "") or ""
                self.console.print(
                    f"[{style}]{outcome}[/] {_plain(scenario)}"
                    + (f" [dim]({_plain(reason)})[/]" if reason else "")
                )
            label = f"{self.failures[phase]} failing" if self.failures[phase] else ""
            self.bars.update(self.tasks[phase], advance=1, failures=label)
        elif kind == "abort":
            self.console.print(f"[bold yellow]{_plain(message.strip())}[/]")
        else:
            self.console.print(
                terminal_safe(message.strip(), one_line=True), style="dim", markup=False
            )

    def close(self) -> None:
        self.bars.stop()


class QuietProgress:
    def __call__(self, message: str) -> None:
        return None

    def close(self) -> None:
        return None


def progress_for(quiet: bool) -> PlainProgress | TerminalProgress | QuietProgress:
    if quiet:
        return QuietProgress()
    if sys.stderr.isatty():
        return TerminalProgress()
    return PlainProgress()
