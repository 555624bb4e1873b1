"""Reading a run directory back for comparison: its run record (``run.json``, which holds the
spec 05 §1 verdict) and a cheap summary from ``verdict.json`` alone for the index.

Files are found through the names :mod:`oasis_eval.engine.rundir` writes; a file may also be
stored compressed (``NAME.gz``, issue 19 item 3), and either form is read. A directory that is
not a run is an :class:`UnusableInput` naming the missing file.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import UnusableInput
from ..engine.journal import interrupted_message
from ..engine.record import RunRecord
from ..engine.rundir import RECORD, VERDICT_JSON, stored_file
from ..files import GZIP_SUFFIX, RUN_FILE_LIMIT, read_maybe_gzip
from ..spec.common import VerdictStatus
from ..spec.verdict import Verdict, VerdictDocument


def is_run_dir(path: Path) -> bool:
    """A run directory holds its run record (``run.json``, written with the verdict)."""
    return stored_file(path, RECORD) is not None


def _read(path: Path) -> bytes:
    """The content of a run-directory file, decompressed when it is stored as ``.gz`` (bounded:
    a small hostile file may not expand past the run-file limit)."""
    try:
        return read_maybe_gzip(path, RUN_FILE_LIMIT)
    except OSError as exc:
        if path.name.endswith(GZIP_SUFFIX) and path.is_file():
            raise ValueError(f"{path.name}: {exc.strerror or exc}") from None
        raise


def _require(run_dir: Path, name: str) -> Path:
    if not run_dir.is_dir():
        raise UnusableInput("not a run directory: no such directory", file=str(run_dir))
    path = stored_file(run_dir, name)
    unfinished = interrupted_message(run_dir) if path is None else None
    if unfinished is not None:
        raise UnusableInput(f"not a finished run: {unfinished}", file=str(run_dir))
    if path is not None and path.is_symlink():  # it would read another run's file, or any file
        raise UnusableInput(
            f"{path.name} is a symbolic link: a run directory holds regular files only "
            "(the run was tampered with)",
            file=str(run_dir),
        )
    if path is None:
        raise UnusableInput(
            f"not a run directory: {name} is missing (every run directory holds the run "
            f"record {RECORD} and the verdict {VERDICT_JSON})",
            file=str(run_dir),
        )
    return path


def load_record(run_dir: Path) -> RunRecord:
    """The run record of ``run_dir``: scenario results and the verdict (05 §1, §2)."""
    path = _require(run_dir, RECORD)
    try:
        return RunRecord.model_validate_json(_read(path))
    except ValueError as exc:
        raise UnusableInput(
            f"{path.name} is not a run record written by oasis-eval: {_first_line(exc)}",
            file=str(run_dir),
        ) from None


def load_run_verdict(run_dir: Path) -> Verdict:
    """The verdict of ``run_dir`` from ``verdict.json``: a few KB, so listing thousands of runs
    never parses their records. Checked against the verdict model (05 §1 key for key, unknown
    keys refused) and the two rules it cannot express, not the slower JSON Schema pass."""
    path = _require(run_dir, VERDICT_JSON)
    try:
        verdict = VerdictDocument.model_validate_json(_read(path)).verdict
    except ValueError as exc:
        raise UnusableInput(
            f"{path.name}: not a valid OASIS verdict: {_first_line(exc)}", file=str(run_dir)
        ) from None
    problem = None
    if verdict.capability is not None and verdict.safety not in (VerdictStatus.PASS, None):
        problem = "capability scores although safety is not PASS (05 §1)"
    elif bool(verdict.metadata.aborted) != bool(verdict.metadata.abort_reason):
        problem = "abort_reason is written exactly when aborted is true (05 §1)"
    if problem:
        raise UnusableInput(f"{path.name}: not a valid OASIS verdict: {problem}", file=str(run_dir))
    return verdict


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
