"""``oasis probe run`` and ``oasis probe promote``: attached to the ``probe`` group of probe_cmd.

- ``run`` executes probe or scenario files (failed probes, red-team files, promoted
  probes) as custom extensions (03 §6): labelled custom in every report and never
  counted toward minimum coverage, so such a run carries no conformance claim
  unless ``--with-core`` also runs the whole profile.
- ``promote`` turns a reviewed failed probe into a corpus scenario file (07 §7.2).
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..adversarial.promote import promote, read_probe_files
from ..api.compose import RunPlan
from ..api.config import add_custom
from ..diagnostics import Findings, UnusableInput
from ..engine.record import RunInputs
from ..engine.rundir import PROFILE
from ..engine.selection import Selection
from ..examples import EXAMPLE_PROFILE_DIR
from ..exit_codes import EXIT_FAIL
from ..files import RUN_FILE_LIMIT, read_bytes
from ..spec.profile import Profile
from .output import cli_errors, echo_findings
from .probe_cmd import probe_app
from .run_cmd import _agent, _load_for_run, _provider, execute_and_write


@probe_app.command("run")
def probe_run(
    probes_dir: list[Path] = typer.Option(
        ..., "--probes-dir", help="Probe or scenario YAML: a directory or a file (repeatable)."
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    agent: str | None = typer.Option(
        None, "--agent", help="Agent, as for `oasis run` (default builtin:careful)."
    ),
    provider: str | None = typer.Option(
        None, "--provider", help="Provider, as for `oasis run` (default sim-k8s)."
    ),
    tier: int = typer.Option(1, "--tier", min=1, max=3, help="Claimed complexity tier."),
    evaluator: str = typer.Option(
        "unspecified", "--evaluator", help="Evaluating organization or individual."
    ),
    principal: str | None = typer.Option(
        None, "--principal", help="The agent's principal in the audit log."
    ),
    parallel: int = typer.Option(4, "--parallel", min=1, help="Scenarios run at once."),
    with_core: bool = typer.Option(
        False,
        "--with-core",
        help="Also run the whole profile (the files are then added to a full evaluation).",
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Run directory (default ./oasis-runs/<timestamp>)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the verdict line."),
) -> None:
    """Run probe files as custom extension scenarios (03 §6) and write a run directory."""
    profile_path = profile or EXAMPLE_PROFILE_DIR
    loaded, gaps = _load_for_run(profile_path)
    with cli_errors():
        loaded, ids = add_custom(loaded, probes_dir)
    inputs = RunInputs(
        evaluator=evaluator, claimed_tier=tier, parallel=parallel, custom_scenarios=ids
    )
    if principal:
        inputs.agent_principal = principal
    # probes of capability archetypes alone evaluate no safety: the run says so (issue 29.2)
    only_capability = not with_core and not any(
        s.is_safety for s in loaded.scenarios if s.id in set(ids)
    )
    inputs.capability_only = only_capability
    selection = (
        Selection() if with_core else Selection(ids=sorted(ids), capability_only=only_capability)
    )
    agent_obj = _agent(agent)
    plan = RunPlan(
        profile=loaded,
        gaps=gaps,
        inputs=inputs,
        selection=selection,
        agent=agent_obj,
        provider=_provider(provider),
        out=out,
        base=Path("oasis-runs"),
        profile_path=profile_path,
    )
    execute_and_write(plan, quiet)


@probe_app.command("promote")
def probe_promote(
    failed_probe: Path = typer.Argument(
        ..., help="A serialized failed probe (e.g. RUN/probes/failed/ID.yaml)."
    ),
    out: Path = typer.Option(..., "--out", "-o", help="Directory the scenario file is written to."),
    profile: Path | None = typer.Option(
        None,
        "--profile",
        "-p",
        help="Profile promoted into (default: the profile directory holding --out, else the profile the probe's run evaluated, else the built-in example).",
    ),
) -> None:
    """Turn a reviewed failed probe into a corpus scenario file (07 §7.2): a fresh id in the
    profile's id scheme, archetype fields from its primary archetype, a provenance comment.
    Nothing is written unless the result validates against the profile it is promoted into."""
    loaded, where = _target_profile(profile, out, failed_probe)
    typer.echo(f"promoting into {loaded.id} {loaded.version} ({where})", err=True)
    findings = Findings()
    probes = read_probe_files([failed_probe], findings)
    if findings.errors or not probes:
        echo_findings(findings)
        raise UnusableInput("not a readable probe or scenario file", file=str(failed_probe))
    if out.exists() and not out.is_dir():
        raise UnusableInput("--out must be a directory", file=str(out))
    taken = {s.id for s in loaded.scenarios} | _ids_in(out)
    written = []
    for probe in probes:
        promotion = promote(probe, loaded, taken)
        if promotion.findings.errors:
            echo_findings(promotion.findings)
            typer.echo(
                f"not promoted: {probe.scenario.id} does not validate as a scenario of "
                f"{loaded.id} (fix the probe, then promote again)",
                err=True,
            )
            raise typer.Exit(EXIT_FAIL)
        taken.add(promotion.scenario.id)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{promotion.scenario.id}.yaml"
        path.write_text(promotion.text, encoding="utf-8")
        written.append(path)
    for path in written:
        typer.echo(f"promoted: {path}")


def _target_profile(given: Path | None, out: Path, probe_file: Path) -> tuple[Profile, str]:
    """The profile a probe is promoted into, which it must validate against (issue 29
    item 4), and where it came from: the profile directory that holds ``--out`` (a scenario
    file belongs to the profile it is written into; ``--profile`` must then name it); else
    ``--profile``; else the profile the probe's run evaluated (RUN/profile.json beside
    RUN/probes/); else the built-in example."""
    holder = _profile_holding(out)
    if holder is not None:
        if given is not None and given.resolve() not in (holder, *holder.glob("profile.*")):
            raise UnusableInput(
                f"--out lies in the profile at {holder}, not in --profile {given}: a promoted "
                "scenario is validated against the profile it is written into",
                file=str(out),
            )
        return _load_for_run(holder)[0], str(holder)
    if given is not None:
        return _load_for_run(given)[0], str(given)
    run_dir = probe_file.resolve().parent.parent.parent  # RUN/probes/failed/ID.yaml
    if (run_dir / PROFILE).is_file():
        try:
            profile = Profile.model_validate_json(read_bytes(run_dir / PROFILE, RUN_FILE_LIMIT))
            return profile, f"the profile {run_dir.name}/{PROFILE} evaluated"
        except (OSError, ValueError):
            pass  # not a run directory after all: the default below
    return _load_for_run(EXAMPLE_PROFILE_DIR)[0], "the built-in example profile"


def _profile_holding(path: Path) -> Path | None:
    """The profile directory ``path`` lies in (it or a parent holds profile.md/.yaml)."""
    for directory in (path.resolve(), *path.resolve().parents):
        if (directory / "profile.md").is_file() or (directory / "profile.yaml").is_file():
            return directory
    return None


def _ids_in(directory: Path) -> set[str]:
    """Scenario ids already in ``directory`` (so a second promotion gets the next number)."""
    if not directory.is_dir() or not any(directory.glob("*.y*ml")):
        return set()
    try:
        return {p.scenario.id for p in read_probe_files([directory], Findings())}
    except UnusableInput:
        return {p.stem for p in directory.glob("*.y*ml")}
