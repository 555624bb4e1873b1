"""``oasis replay`` and ``oasis report``: read a run directory back, integrity first.

Replay checks the run directory against its manifest (engine/manifest.py) before it
re-judges anything, then cross-checks the recorded states it cannot re-judge, and only
then compares the recomputed verdict with the recorded one (core §3.5.4, 08 §6.3).

Exit codes of replay: the recorded verdict's code (0 PASS, 1 FAIL, 3 PROVIDER_FAILURE) when
the replay is identical; 5 when the run directory was altered (a file modified, missing or
added, a bad or missing signature with a key configured, a recorded state its own record
contradicts, or a differing verdict in a run whose integrity cannot be proven); 4 when a
signed and verified run replays differently: a determinism bug; 2 for unusable input.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..api.replay import derived_mismatches
from ..diagnostics import UnusableInput
from ..engine import replay as engine_replay
from ..engine.conclude import exit_code
from ..engine.manifest import (
    MANIFEST,
    Integrity,
    ManifestCheck,
    load_run_key,
    verify_manifest,
    write_manifest,
)
from ..engine.record import RunRecord
from ..engine.verdict_io import VerdictFileError, load_verdict
from ..files import RUN_FILE_LIMIT, read_bytes
from ..reporting import REPORT_FORMATS
from .output import terminal_safe

if TYPE_CHECKING:
    from ..spec.verdict import Verdict

EXIT_USAGE, EXIT_BUG, EXIT_TAMPERED = 2, 4, 5
_KEY_HINT = (
    "set OASIS_RUN_KEY (HMAC) or OASIS_RUN_SIGNING_KEY (Ed25519) when running, "
    "and the same key (or OASIS_RUN_PUBLIC_KEY / --public-key) when replaying"
)


class ReportFormat(str, Enum):
    html = "html"
    md = "md"
    junit = "junit"


#: the reports (reporting.REPORT_FORMATS keys) ``oasis report`` renders and a run holds
_REPORTS = tuple(f.value for f in ReportFormat)


def _say(text: str) -> None:
    typer.echo(terminal_safe(text), err=True)


def _tampered(lines: list[str], what: str) -> None:
    _say(f"TAMPERED: {what}:")
    for line in lines:
        _say("  " + terminal_safe(line, one_line=True))
    raise typer.Exit(EXIT_TAMPERED)


def _integrity_note(check: ManifestCheck) -> str:
    if check.integrity is Integrity.verified:
        return f"integrity: verified: every file matches the manifest signed by {check.signed_by}"
    if check.integrity is Integrity.unverified:
        return (
            f"integrity: NOT VERIFIED: the manifest is signed by {check.signed_by}, but no key is "
            f"configured to check the signature; every file matches its digest ({_KEY_HINT})"
        )
    if check.integrity is Integrity.unsigned:
        return (
            "integrity: UNSIGNED run: every file matches manifest.json, but an unsigned manifest can be "
            f"recomputed by anyone, so the run's integrity is not provable ({_KEY_HINT})"
        )
    return (
        "integrity: NO MANIFEST: this run directory has no manifest.json (written before oasis-eval "
        "wrote manifests, or removed): nothing shows its files are the ones the run wrote"
    )


def check_integrity(run_dir: Path, public_key: Path | None = None) -> ManifestCheck:
    """Verify ``run_dir`` against its manifest; tampering exits 5, naming each file."""
    if not run_dir.is_dir():
        raise UnusableInput("not a run directory", file=str(run_dir))
    check = verify_manifest(run_dir, load_run_key(public_key=public_key))
    if check.integrity is Integrity.tampered:
        _tampered(check.lines(), f"{run_dir} does not match its {MANIFEST}")
    _say(_integrity_note(check))
    return check


def replay_cmd(
    run_dir: Path = typer.Argument(..., help="A run directory written by `oasis run`."),
    public_key: Path | None = typer.Option(
        None,
        "--public-key",
        help="Ed25519 public key (PEM) that verifies the run's manifest (default: $OASIS_RUN_PUBLIC_KEY).",
    ),
) -> None:
    """Verify the run directory's manifest, recompute the verdict from recorded evidence
    (no agent, no provider) and compare it with the recorded one."""
    check = check_integrity(run_dir, public_key)
    recorded, _ = _replayed(run_dir, check, show=True)
    _say("replay: identical to the recorded verdict")
    raise typer.Exit(exit_code(recorded))


def _replayed(run_dir: Path, check: ManifestCheck, show: bool = False) -> tuple[Verdict, RunRecord]:
    """Replay ``run_dir`` and hold every recorded file to the recomputed verdict: the recorded
    states (engine/replay.py::inconsistencies), verdict.yaml, and the files derived from the
    verdict (:func:`derived_mismatches`). Tampering exits 5; a mismatch in a signed, verified
    run is a determinism bug (exit 4). Returns the recorded verdict and run record."""
    result = engine_replay.replay(run_dir)  # looked up at call time: tests replace it
    try:  # a missing or unreadable verdict.yaml is unusable input, not a determinism bug
        recorded = load_verdict(run_dir / "verdict.yaml")
    except VerdictFileError as exc:
        raise UnusableInput(
            f"the recorded verdict cannot be read: {exc}", file=str(run_dir)
        ) from None
    if result.inconsistencies:
        _tampered(
            result.inconsistencies, "recorded scenario states contradict the run's own record"
        )
    if show:
        sys.stdout.write(result.verdict_yaml)
    differences = (
        []
        if result.identical
        else ["verdict.yaml differs from the verdict recomputed from the recorded evidence"]
    )
    record = RunRecord.model_validate_json(read_bytes(run_dir / "run.json", RUN_FILE_LIMIT))
    assert result.verdict is not None  # engine.replay.replay always recomputes one
    differences += derived_mismatches(run_dir, record, result.verdict)
    if differences:
        if check.integrity is Integrity.verified:
            _say(
                "replay differs from the recorded files of a signed, verified run: "
                "this is a determinism bug, please report it"
            )
            for line in differences:
                _say("  " + line)
            raise typer.Exit(EXIT_BUG)
        _tampered(
            [
                *differences,
                "the run is not signed and verified, so tampering cannot be ruled out; if the directory is "
                "known to be untouched, this is a determinism bug: please report it",
            ],
            "the recorded verdict does not follow from the recorded evidence",
        )
    return recorded, record


def report_cmd(
    run_dir: Path = typer.Argument(..., help="A run directory."),
    fmt: ReportFormat = typer.Option(ReportFormat.html, "--format", "-f"),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write here instead of stdout."),
) -> None:
    """Re-render a run's report as HTML, Markdown or JUnit XML (the manifest is checked first;
    a report written into the run directory updates its manifest)."""
    if out is not None and not out.parent.is_dir():
        raise UnusableInput("--out: the directory does not exist", file=str(out))
    check = check_integrity(run_dir)
    _, record = _replayed(
        run_dir, check
    )  # never render a verdict that does not follow from the evidence
    inside = out is not None and _inside(out, run_dir)
    if out is not None and inside:
        _may_rewrite(check, out, run_dir, fmt.value)
    text = REPORT_FORMATS[fmt.value][1](record)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UnusableInput(f"--out: cannot write: {exc.strerror}", file=str(out)) from None
    if not inside:
        return
    if check.integrity is Integrity.no_manifest:
        _say(
            f"{run_dir} has no manifest; none was written (a new one would vouch for files nobody checked)"
        )
        return
    write_manifest(run_dir, check.key if check.integrity is Integrity.verified else None)
    signer = check.key if check.integrity is Integrity.verified else None
    _say(
        f"{MANIFEST} rewritten"
        + (f" and signed by {signer.key_id}" if signer is not None else " (unsigned, as before)")
    )


def _inside(path: Path, run_dir: Path) -> bool:
    return path.resolve().is_relative_to(run_dir.resolve())


def _may_rewrite(check: ManifestCheck, out: Path, run_dir: Path, fmt: str) -> None:
    """Refuse to write into a run directory whose signed manifest we cannot re-sign (it would
    then look tampered), over the manifest, or over any file the run wrote but the same
    report (a report over run.json or evidence/ would destroy the evidence and re-vouch for it)."""
    # the files of a run directory a report may replace: only the same report, re-rendered
    own_reports = {REPORT_FORMATS[f][0]: f for f in _REPORTS}
    rel = out.resolve().relative_to(run_dir.resolve()).as_posix()
    if rel == MANIFEST:
        typer.echo(f"error: --out must not be the run directory's {MANIFEST}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if (out.exists() or rel in own_reports) and own_reports.get(rel) != fmt:
        typer.echo(
            f"error: --out {rel} would overwrite a file of the run directory"
            + (f" (it holds the {own_reports[rel]} report)" if rel in own_reports else "")
            + "; write the report to a new file, or outside the run directory",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
    if check.integrity is Integrity.unverified or (
        check.integrity is Integrity.verified and not (check.key and check.key.can_sign)
    ):
        typer.echo(
            f"error: {run_dir} has a signed manifest ({check.signed_by}) and no signing key is "
            "configured: writing into it would invalidate the signature. Set the signing key, or "
            "write the report outside the run directory (or to stdout).",
            err=True,
        )
        raise typer.Exit(EXIT_USAGE)
