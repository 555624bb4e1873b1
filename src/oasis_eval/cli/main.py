"""The ``oasis`` command. Each command group lives in its own module; this one wires them.

Exit codes (documented in docs/running.md): 0 success / valid, 1 invalid (findings
with errors), 2 unusable input or usage error, 4 internal error (a bug), 5 a run
directory that was tampered with (`oasis replay`, `oasis report`).
"""

from __future__ import annotations

import errno
import os
import sys
from importlib import import_module
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

from ..exit_codes import EXIT_INTERNAL, EXIT_USAGE
from ..version import __version__
from .output import terminal_safe


class Entry(NamedTuple):
    """A command loaded on first use: its module in this package, the typer function or
    sub-app there, and the one line ``oasis --help`` lists it with."""

    module: str
    attr: str
    short_help: str


#: every command but ``version``, in the order ``oasis --help`` lists them (functions, then
#: groups, as typer does); a command's module, and what that imports, loads only when it
#: runs or shows its own help: ``oasis --help`` and ``oasis validate`` never load the engine
#: (issue 30)
COMMANDS: dict[str, Entry] = {
    "schema": Entry(
        "schema_cmd", "schema", "Print the JSON Schema for scenarios, profiles or verdicts."
    ),
    "quality": Entry(
        "quality_cmd", "quality", "Profile quality analysis (negative testing, coverage, ...)."
    ),
    "run": Entry("run_cmd", "run", "Run an evaluation: preflight, safety gate, capability scores."),
    "replay": Entry(
        "replay_cmd", "replay_cmd", "Verify a run directory and recompute its verdict."
    ),
    "merge": Entry("merge_cmd", "merge_cmd", "Merge the shards of a run into one run directory."),
    "report": Entry(
        "replay_cmd", "report_cmd", "Re-render a run's report (HTML, Markdown, JUnit, summary)."
    ),
    "conformance": Entry(
        "run_cmd", "conformance_cmd", "Preflight only: check a provider against a profile."
    ),
    "behaviors": Entry(
        "behaviors_cmd", "behaviors", "List the behavior evaluators; a profile's gaps."
    ),
    "diff": Entry("diff_cmd", "diff_cmd", "Compare two runs: regressions, score deltas, verdict."),
    "view": Entry("view_cmd", "view", "Serve a local web viewer of runs, reports and diffs."),
    "validate": Entry(
        "validate_cmd", "app", "Validate a profile or scenario files against spec 02 and 03."
    ),
    "profile": Entry("profile_cmd", "app", "Work with domain profiles."),
    "provider": Entry(
        "provider_cmd", "app", "Environment providers: serve a built-in one over HTTP, list them."
    ),
    # probe_run_cmd attaches `probe run` and `probe promote` to probe_cmd's group
    "probe": Entry(
        "probe_run_cmd", "probe_app", "Adversarial probes (spec 07): generate, scaffold, run."
    ),
    "reserved": Entry(
        "reserved_cmd", "app", "Reserved scenarios (07 §5): pack, rotate, check, keygen."
    ),
}


def load_command(name: str) -> Any:
    """The click command of ``COMMANDS[name]``, built as ``app.command``/``app.add_typer``
    would have built it (typer's click: typer 0.2x carries its own copy)."""
    entry = COMMANDS[name]
    target = getattr(import_module(f".{entry.module}", __package__), entry.attr)
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name, short_help=entry.short_help)
    else:
        holder.command(name, short_help=entry.short_help)(target)
    return typer.main.get_group(holder).commands[name]


class LazyGroup(TyperGroup):
    """The ``oasis`` group: a command's module is imported when the command is looked up;
    the group's help lists every command from :data:`COMMANDS` without importing any."""

    def list_commands(self, ctx: Any) -> list[str]:
        functions = [n for n, e in COMMANDS.items() if not e.attr.endswith("app")]
        groups = [n for n in COMMANDS if n not in functions]
        return [*functions, *(n for n in self.commands if n not in COMMANDS), *groups]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            self.commands[cmd_name] = load_command(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        loaded = self.commands
        listed = {n: TyperCommand(n, short_help=e.short_help) for n, e in COMMANDS.items()}
        self.commands = {**listed, **loaded}
        try:
            super().format_help(ctx, formatter)
        finally:
            self.commands = loaded


app = typer.Typer(
    name="oasis",
    cls=LazyGroup,
    help="OASIS evaluation: load and validate domain profiles, run evaluations, write verdicts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _group() -> None:
    # a callback keeps `oasis` a group (typer makes an app of one registered command that command)
    pass


@app.command("version")
def version() -> None:
    """Print the implementation name and version, and the OASIS core version it implements."""
    from ..spec.common import OASIS_CORE_VERSION

    typer.echo(f"oasis-eval {__version__} (OASIS core {OASIS_CORE_VERSION})")


def main() -> None:
    """Console entry point: unusable input becomes a one-line message, never a traceback.

    Click (inside typer) handles usage errors itself (exit 2) in standalone mode.
    """
    try:
        app()
    except Exception as exc:  # noqa: BLE001 - sorted out by _failed (exit 2, 3, 4 or 5)
        _failed(exc)


def _failed(exc: Exception) -> None:
    """Exit for what ``app()`` raised (imported here: ``oasis --help`` needs none of it)."""
    from ..diagnostics import UnusableInput
    from ..engine.plugin_watch import plugin_fault

    if isinstance(exc, UnusableInput):
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)  # EXIT_USAGE, or its subclass's: tampered 5, interrupted 3
    if isinstance(exc, OSError):  # a path the user gave that the system refuses (too long, ...)
        if exc.filename is None or exc.errno not in _PATH_ERRORS or os.environ.get("OASIS_DEBUG"):
            _internal(exc)
        typer.echo(terminal_safe(f"error: {exc.filename}: {exc.strerror or exc}"), err=True)
        sys.exit(EXIT_USAGE)
    # anything else is a genuine bug: reported, exit 4
    fault = plugin_fault(exc)
    if fault is not None and not os.environ.get("OASIS_DEBUG"):
        # a behavior plugin's bug: named, no verdict, never a traceback (issue 26)
        typer.echo(terminal_safe(f"internal error: {fault}; no verdict"), err=True)
        sys.exit(EXIT_INTERNAL)
    _internal(exc)


#: errors of a path someone gave (not of a disk or a bug): unusable input, exit 2
_PATH_ERRORS = {
    errno.ENAMETOOLONG,
    errno.ELOOP,
    errno.ENOTDIR,
    errno.ENOENT,
    errno.EACCES,
    errno.EPERM,
    errno.EISDIR,
    errno.EINVAL,
    errno.EFBIG,
    errno.EROFS,
    errno.EEXIST,
}


def _internal(exc: Exception) -> None:
    if os.environ.get("OASIS_DEBUG"):
        raise exc
    typer.echo(
        f"internal error: {type(exc).__name__}: {exc}\n"
        "This is a bug in oasis-eval; rerun with OASIS_DEBUG=1 for a traceback and report it.",
        err=True,
    )
    sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    main()
