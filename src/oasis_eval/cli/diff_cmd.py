"""``oasis diff RUN_A RUN_B``: what changed from a baseline run to a candidate run.

Exit codes: 0 no safety regression; 1 a safety regression (a safety scenario FAILs in RUN_B
that did not in RUN_A, or the verdict went to FAIL) — or, with ``--fail-on any``, any
regression; 2 unusable input (a directory that is not a run names the missing file); 5 a run
directory that does not match its manifest (as ``oasis replay``: a diff of altered runs proves
nothing). Each run's integrity is said on stderr; ``oasis replay`` re-judges the evidence.
"""

from __future__ import annotations

import shutil
import sys
from enum import Enum
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.manifest import MANIFEST, Integrity, RunKey, load_run_key, verify_manifest
from ..exit_codes import EXIT_REGRESSION, EXIT_TAMPERED
from ..history.diff import ChangeKind, RunDiff, RunSide, ScenarioChange, ScoreDelta, diff_runs
from ..history.runs import load_record
from .output import echo_json, terminal_safe


class DiffFormat(str, Enum):
    text = "text"
    json = "json"


class FailOn(str, Enum):
    safety = "safety"
    any = "any"


def diff_cmd(
    run_a: Path = typer.Argument(..., help="The baseline run directory."),
    run_b: Path = typer.Argument(..., help="The candidate run directory."),
    output_format: DiffFormat = typer.Option(DiffFormat.text, "--format", help="text or json."),
    fail_on: FailOn = typer.Option(
        FailOn.safety,
        "--fail-on",
        help="Exit 1 on a safety regression (default) or on any regression.",
    ),
    show_all: bool = typer.Option(
        False, "--all", help="Also list unchanged scenarios in the text output."
    ),
    public_key: Path | None = typer.Option(
        None,
        "--public-key",
        help="Ed25519 public key (PEM) that verifies the runs' manifests (default: $OASIS_RUN_PUBLIC_KEY).",
    ),
) -> None:
    """Compare two runs: per-scenario regressions and improvements, score deltas, verdict change."""
    key = load_run_key(public_key=public_key)
    before, after = load_record(run_a), load_record(run_b)  # not a run: names the missing file
    for label, run_dir in (("A", run_a), ("B", run_b)):
        _check_integrity(label, run_dir, key)
    result = diff_runs(before, after, str(run_a), str(run_b))
    if output_format is DiffFormat.json:
        data = result.model_dump(mode="json")
        data["safety_regressed"] = result.safety_regressed
        echo_json(data)
    else:
        render(result, _console(), show_all)
    regressed = result.safety_regressed or (
        fail_on is FailOn.any and bool(result.of_kind(ChangeKind.regression))
    )
    if regressed:
        raise typer.Exit(EXIT_REGRESSION)


_INTEGRITY = {
    Integrity.verified: "verified: every file matches the manifest, signed by {signed_by}",
    Integrity.unverified: "every file matches the manifest; its signature ({signed_by}) is not "
    "checked: no key configured",
    Integrity.unsigned: "every file matches the manifest, which is unsigned",
    Integrity.no_manifest: "NO MANIFEST: nothing shows the files are the ones the run wrote",
}


def _say(text: str) -> None:
    typer.echo(terminal_safe(text), err=True)


def _check_integrity(label: str, run_dir: Path, key: RunKey | None) -> None:
    """Say the run's integrity on stderr; a run that does not match its manifest exits 5."""
    check = verify_manifest(run_dir, key)
    if check.integrity is Integrity.tampered:
        _say(f"TAMPERED: run {label} ({run_dir}) does not match its {MANIFEST}:")
        for line in check.lines():
            _say("  " + terminal_safe(line, one_line=True))
        raise typer.Exit(EXIT_TAMPERED)
    _say(f"run {label} integrity: " + _INTEGRITY[check.integrity].format(signed_by=check.signed_by))


def _console() -> Console:
    width = None if sys.stdout.isatty() else max(shutil.get_terminal_size((140, 40)).columns, 140)
    return Console(file=sys.stdout, width=width, highlight=False, soft_wrap=False)


def _t(text: object, style: str = "") -> Text:
    """Run text (agent names, evidence) for the console: controls escaped, no markup read."""
    return Text(terminal_safe(text, one_line=True), style=style)


def render(result: RunDiff, console: Console, show_all: bool = False) -> None:
    """The diff for people: who was compared, the verdict change, each regression with why,
    improvements, other changes, then the score deltas."""
    for warning in result.warnings:
        console.print(_t(f"warning: {warning}", "yellow"))
    console.print(_sides(result.before, result.after))
    verdict = f"safety verdict: {result.verdict_before} -> {result.verdict_after}"
    console.print(_t(verdict, "bold red" if result.verdict_regressed else "bold"))
    sections = [
        (ChangeKind.regression, "Regressions", "red"),
        (ChangeKind.improvement, "Improvements", "green"),
        (ChangeKind.changed, "Other changes", "yellow"),
    ]
    if show_all:
        sections.append((ChangeKind.unchanged, "Unchanged", ""))
    for kind, title, style in sections:
        changes = result.of_kind(kind)
        if changes:
            console.print(_changes(f"{title} ({len(changes)})", changes, style))
    tiers = f"tier {result.before.tier}" + (
        f" vs tier {result.after.tier}" if result.after.tier != result.before.tier else ""
    )
    console.print(_scores(result, tiers))
    counts = {k: len(result.of_kind(k)) for k in ChangeKind}
    safety = len(result.safety_regressions)
    console.print(
        _t(
            f"{counts[ChangeKind.regression]} regression(s) ({safety} safety), "
            f"{counts[ChangeKind.improvement]} improvement(s), "
            f"{counts[ChangeKind.changed]} other change(s), "
            f"{counts[ChangeKind.unchanged]} unchanged",
            "bold red" if result.safety_regressed else "bold",
        )
    )


def _sides(a: RunSide, b: RunSide) -> Table:
    table = Table(title="Runs compared", show_lines=False)
    table.add_column("")
    table.add_column("A (baseline)")
    table.add_column("B (candidate)")
    rows = [
        ("run", a.path, b.path),
        ("agent", f"{a.agent} {a.agent_version}", f"{b.agent} {b.agent_version}"),
        ("profile", f"{a.profile} {a.profile_version}", f"{b.profile} {b.profile_version}"),
        ("date", a.timestamp, b.timestamp),
        ("capability tier", str(a.tier), str(b.tier)),
        ("safety", a.safety, b.safety),
        (
            "passed / failed / provider failure",
            f"{a.passed} / {a.failed} / {a.provider_failure}",
            f"{b.passed} / {b.failed} / {b.provider_failure}",
        ),
        ("vacuous PASS", str(a.vacuous), str(b.vacuous)),
    ]
    for row in rows:
        table.add_row(*(_t(cell) for cell in row))
    return table


def _changes(title: str, changes: list[ScenarioChange], style: str) -> Table:
    table = Table(title=title, title_style=style, show_lines=True)
    for column in ("scenario", "class", "change", "why"):
        table.add_column(column, overflow="fold")
    for change in changes:
        first, *rest = change.why or [f"{change.before}"]
        table.add_row(
            _t(change.scenario_id, style),
            _t(change.classification),
            _t(first),
            Text("\n").join(_t(line) for line in rest),
        )
    return table


def _scores(result: RunDiff, tiers: str) -> Table:
    table = Table(title=f"Capability scores ({tiers})")
    for column in ("score", "A", "B", "delta"):
        table.add_column(column, justify="left" if column == "score" else "right")
    rows: list[tuple[str, ScoreDelta]] = [("", result.overall)]
    rows += [("dimension ", d) for d in result.dimensions]
    rows += [("category ", c) for c in result.categories]
    for group, delta in rows:
        step = "" if delta.delta is None else f"{delta.delta:+.2f}"
        style = "red" if (delta.delta or 0) < 0 else ("green" if (delta.delta or 0) > 0 else "")
        table.add_row(
            _t(group + delta.name), _t(_fmt(delta.before)), _t(_fmt(delta.after)), _t(step, style)
        )
    return table


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
