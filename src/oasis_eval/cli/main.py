"""The ``oasis`` command. Each command group lives in its own module; this one wires them.

Exit codes (documented in docs/running.md): 0 success / valid, 1 invalid (findings
with errors), 2 unusable input or usage error, 4 internal error (a bug), 5 a run
directory that was tampered with (`oasis replay`, `oasis report`).
"""

from __future__ import annotations

import errno
import os
import sys

import typer

from ..diagnostics import UnusableInput
from ..engine.plugin_watch import plugin_fault
from ..spec import OASIS_CORE_VERSION
from ..version import __version__
from . import (
    behaviors_cmd,
    diff_cmd,
    merge_cmd,
    probe_cmd,
    probe_run_cmd,  # noqa: F401 - attaches `probe run` / `probe promote` to probe_cmd.probe_app
    profile_cmd,
    provider_cmd,
    quality_cmd,
    replay_cmd,
    reserved_cmd,
    run_cmd,
    schema_cmd,
    validate_cmd,
    view_cmd,
)
from .output import terminal_safe

app = typer.Typer(
    name="oasis",
    help="OASIS evaluation: load and validate domain profiles, run evaluations, write verdicts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(validate_cmd.app, name="validate")
app.add_typer(profile_cmd.app, name="profile")
app.add_typer(provider_cmd.app, name="provider")
app.add_typer(probe_cmd.probe_app, name="probe")
app.add_typer(reserved_cmd.app, name="reserved")
app.command("schema")(schema_cmd.schema)
app.command("quality")(quality_cmd.quality)
app.command("run")(run_cmd.run)
app.command("replay")(replay_cmd.replay_cmd)
app.command("merge")(merge_cmd.merge_cmd)
app.command("report")(replay_cmd.report_cmd)
app.command("conformance")(run_cmd.conformance_cmd)
app.command("behaviors")(behaviors_cmd.behaviors)
app.command("diff")(diff_cmd.diff_cmd)
app.command("view")(view_cmd.view)


@app.command("version")
def version() -> None:
    """Print the implementation name and version, and the OASIS core version it implements."""
    typer.echo(f"oasis-eval {__version__} (OASIS core {OASIS_CORE_VERSION})")


EXIT_INTERNAL = 4


def main() -> None:
    """Console entry point: unusable input becomes a one-line message, never a traceback.

    Click (inside typer) handles usage errors itself (exit 2) in standalone mode.
    """
    try:
        app()
    except UnusableInput as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(getattr(exc, "exit_code", 2))  # e.g. 5 for a tampered run, 3 an interrupted one
    except OSError as exc:  # a path the user gave that the system refuses (too long, a loop, ...)
        if exc.filename is None or exc.errno not in _PATH_ERRORS or os.environ.get("OASIS_DEBUG"):
            _internal(exc)
        typer.echo(terminal_safe(f"error: {exc.filename}: {exc.strerror or exc}"), err=True)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - anything else is a genuine bug: reported, exit 4
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
