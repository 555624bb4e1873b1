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

from ..api.replay import ReplayReport, replay, report_format_note
from ..diagnostics import UnusableInput
from ..engine.manifest import (
    MANIFEST,
    Integrity,
    ManifestCheck,
    write_manifest,
)
from ..exit_codes import EXIT_INTERNAL, EXIT_TAMPERED, EXIT_USAGE
from ..reporting import REPORT_FORMATS
from .output import terminal_safe

if TYPE_CHECKING:
    pass

_KEY_HINT = (
    "set OASIS_RUN_KEY (HMAC) or OASIS_RUN_SIGNING_KEY (Ed25519) when running, "
    "and the same key (or OASIS_RUN_PUBLIC_KEY / --public-key) when replaying"
)


class ReportFormat(str, Enum):
    html = "html"
    md = "md"
    junit = "junit"
    summary = "summary"


#: the reports (reporting.REPORT_FORMATS keys) ``oasis report`` renders and a run holds
_REPORTS = tuple(f.value for f in ReportFormat)


def _say(text: str) -> None:
    typer.echo(terminal_safe(text), err=True)


def _tampered(lines: list[str], what: str, notes: list[str] | None = None) -> None:
    _say(f"TAMPERED: {what}:")
    for line in lines:
        _say("  " + terminal_safe(line, one_line=True))
    for note in notes or []:
        _say(note)
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


def replay_cmd(
    run_dir: Path = typer.Argument(..., help="A run directory written by `oasis run`."),
    public_key: Path | None = typer.Option(
        None,
        "--public-key",
        help="Ed25519 public key (PEM) that verifies the run's manifest (default: $OASIS_RUN_PUBLIC_KEY).",
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Also print the recomputed verdict (YAML) on stdout."
    ),
    plugin_timeout: float | None = typer.Option(
        None,
        "--plugin-timeout",
        min=0.001,
        help="Seconds one behavior evaluator (plugin) call may run before the replay ends as an internal error, exit 4 (default 120; the run's own is not recorded).",
    ),
) -> None:
    """Verify the run directory's manifest, recompute the verdict from recorded evidence
    (no agent, no provider) and compare it with the recorded one. The answer comes first
    (issue 29 item 4); the recomputed verdict only with --verbose."""
    report = _replayed(
        run_dir, public_key, answer=True, verbose=verbose, plugin_timeout=plugin_timeout
    )
    raise typer.Exit(report.exit_code)


def _replayed(
    run_dir: Path,
    public_key: Path | None = None,
    answer: bool = False,
    verbose: bool = False,
    plugin_timeout: float | None = None,
) -> ReplayReport:
    """Replay ``run_dir`` (:func:`oasis_eval.api.replay.replay`) and say what it found, the
    answer first: tampering exits 5 naming each file or state; a mismatch in a signed,
    verified run is a determinism bug (exit 4); otherwise ``answer`` says it is identical.
    Then the integrity of the run; ``verbose`` writes the recomputed verdict to stdout."""
    report = replay(run_dir, public_key, plugin_timeout)
    if report.failed_check == "manifest":
        _tampered(report.problems, f"{run_dir} does not match its {MANIFEST}")
    assert report.manifest is not None  # every report past the manifest check carries it
    notes = [_integrity_note(report.manifest)]
    note = report_format_note(report.record) if report.record is not None else None
    notes += [note] if note else []
    if report.failed_check == "states":
        _tampered(
            report.problems, "recorded scenario states contradict the run's own record", notes
        )
    if report.failed_check and report.exit_code == EXIT_INTERNAL:
        _say(
            "replay differs from the recorded files of a signed, verified run: "
            "this is a determinism bug, please report it"
        )
        for line in [*report.problems, *notes]:
            _say("  " + line)
        raise typer.Exit(EXIT_INTERNAL)
    if report.failed_check:
        _tampered(
            [
                *report.problems,
                "the run is not signed and verified, so tampering cannot be ruled out; if the directory is "
                "known to be untouched, this is a determinism bug: please report it",
            ],
            "the recorded verdict does not follow from the recorded evidence",
            notes,
        )
    if answer:
        label = report.recorded.safety_label if report.recorded is not None else "?"
        _say(f"replay: identical to the recorded verdict: safety {label} (exit {report.exit_code})")
    for line in notes:
        _say(line)
    if verbose:
        sys.stdout.write(report.verdict_yaml)
    return report


def report_cmd(
    run_dir: Path = typer.Argument(..., help="A run directory."),
    fmt: ReportFormat = typer.Option(ReportFormat.html, "--format", "-f"),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write here instead of stdout."),
) -> None:
    """Re-render a run's report as HTML, Markdown, JUnit XML or the short CI summary (Markdown
    of at most 40 lines, for $GITHUB_STEP_SUMMARY); the manifest is checked first, and a
    report written into the run directory updates its manifest."""
    if out is not None and not out.parent.is_dir():
        raise UnusableInput("--out: the directory does not exist", file=str(out))
    report = _replayed(run_dir)  # never render a verdict that does not follow from the evidence
    check, record = report.manifest, report.record
    assert check is not None and record is not None  # a replay that got this far has both
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
