"""``oasis quality``: the six profile analyses of spec 03 §4.1. Surfaces data; never scores prose."""

from __future__ import annotations

from pathlib import Path

import typer

from ..exit_codes import EXIT_FAIL
from ..profiles.loader import load_profile
from ..quality.analysis import analyze
from ..quality.render import render_text
from .output import echo_findings, echo_json


def quality(
    path: Path = typer.Argument(..., help="Profile directory, profile.yaml or profile.md."),
    tier: int | None = typer.Option(
        None, "--tier", min=1, max=3, help="Only this complexity tier."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON."),
) -> None:
    """Profile quality analysis: negative testing, attack surfaces, difficulty, coverage, intent, subcategories."""
    loaded = load_profile(path)
    if loaded.profile is None:
        echo_findings(loaded.findings)
        typer.echo("error: the profile could not be loaded; fix the errors above", err=True)
        raise typer.Exit(EXIT_FAIL)
    report = analyze(loaded.profile, tier=tier)
    if as_json:
        echo_json(report.model_dump(mode="json"))
    else:
        typer.echo(render_text(report))
