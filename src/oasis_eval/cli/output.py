"""Shared CLI output helpers: findings as text, JSON to stdout, the API's errors as usage errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

from ..control_chars import visible_controls

if TYPE_CHECKING:  # pydantic (~0.15 s): loaded by the commands that report findings
    from ..diagnostics import Finding


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def echo_findings(findings: list[Finding]) -> None:
    for finding in sorted(findings, key=lambda f: f.sort_key()):
        typer.echo(finding.render())


def terminal_safe(text: object, one_line: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``), so agent or
    file-name text can neither drive the terminal (ANSI sequences) nor fake output lines."""
    out = visible_controls(str(text))
    return out.replace("\n", "\\n").replace("\t", "\\t") if one_line else out


@contextmanager
def cli_errors() -> Iterator[None]:
    """The shared composition's errors as the CLI reports them: a bad option value is a usage
    error of that option; a file's findings are printed before its one-line error."""
    from ..diagnostics import UnusableInput

    try:
        yield
    except UnusableInput as exc:
        from ..api.errors import InvalidInput, OptionError  # both UnusableInput: loaded on error

        if isinstance(exc, OptionError):
            raise typer.BadParameter(exc.message, param_hint=exc.option) from None
        if isinstance(exc, InvalidInput):
            echo_findings(exc.findings)
        raise
