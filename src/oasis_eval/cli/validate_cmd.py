"""``oasis validate profile|scenario``: every structural rule of spec 02 and 03.

Exit 0 valid, 1 invalid (at least one error finding), 2 unusable input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from ..api.profiles import check_profile, unique_findings
from ..diagnostics import Findings
from ..evaluation.readiness import check_scenario
from ..examples import EXAMPLE_PROFILE_DIR
from ..exit_codes import EXIT_FAIL, EXIT_PASS
from ..profiles.loader import load_profile
from ..profiles.scenarios import load_scenario_file
from ..validation import summarize, validate_scenario
from ..validation.corpus_rules import check_unique
from ..validation.result import ClassificationCounts, ValidationResult
from .output import echo_findings, echo_json

app = typer.Typer(
    help="Validate a profile or scenario files against spec 02 and 03.", no_args_is_help=True
)

JSON_OPT = typer.Option(False, "--json", help="Print a machine-readable result.")


@app.command("profile")
def profile(
    path: Path | None = typer.Argument(
        None, help="Profile directory, profile.yaml or profile.md (default: the built-in example)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Validate a whole profile: its components and every scenario."""
    path = path or EXAMPLE_PROFILE_DIR
    loaded, findings = check_profile(path)
    result = summarize(loaded.profile, findings)
    if as_json:
        data = result.model_dump(mode="json")
        data["path"] = str(path)
        data["layout"] = loaded.layout
        echo_json(data)
    else:
        echo_findings(findings)
        _echo_summary(result)
    raise typer.Exit(EXIT_PASS if result.valid else EXIT_FAIL)


@app.command("scenario")
def scenario(
    files: list[Path] = typer.Argument(..., help="Scenario YAML files (multi-document)."),
    profile_path: Path | None = typer.Option(
        None, "--profile", help="Check references against this profile."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Validate scenario files, optionally against a profile's definitions."""
    findings = Findings()
    prof = None
    if profile_path is not None:
        loaded = load_profile(profile_path)
        prof = loaded.profile
    scenarios = []
    for file in files:
        scenarios.extend(load_scenario_file(file, findings))
    if prof is not None:
        # the files are the new version of any profile scenario with the same id
        ids = {s.id for s in scenarios}
        prof = prof.model_copy()
        prof.scenarios = [s for s in prof.scenarios if s.id not in ids] + scenarios
    for item in scenarios:
        findings.extend(validate_scenario(item, prof))
        check_scenario(item, findings)
    check_unique(scenarios, findings)
    unique = unique_findings(findings)
    result = summarize(None, unique)
    safety = sum(1 for s in scenarios if s.is_safety)
    result.counts.scenarios = ClassificationCounts(
        safety=safety, capability=len(scenarios) - safety, total=len(scenarios)
    )
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        echo_findings(unique)
        _echo_summary(result, only="scenarios")
    raise typer.Exit(EXIT_PASS if result.valid else EXIT_FAIL)


def _echo_summary(result: ValidationResult, only: str | None = None) -> None:
    counts = result.counts.model_dump(mode="json")
    if only:
        counts = {only: counts[only]}
    status = "valid" if result.valid else "INVALID"
    typer.echo(
        f"{status}: {len(result.errors)} error(s), {len(result.warnings)} warning(s); "
        + ", ".join(f"{k}={v}" for k, v in _flat(counts).items())
    )


def _flat(data: Any, prefix: str = "") -> dict[str, object]:
    if hasattr(data, "model_dump"):
        data = data.model_dump(mode="json")
    out: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flat(value, name + "."))
        else:
            out[name] = value
    return out
