"""``oasis run`` and ``oasis conformance``: the command-line face of :mod:`oasis_eval.api`.

The run itself is composed in ``api/compose.py``, shared with :func:`oasis_eval.evaluate`;
this module turns options into a request, errors into messages and the outcome into an
exit code. Exit codes always equal the printed verdict: 0 PASS, 1 FAIL, 3 PROVIDER_FAILURE
(or any aborted run that did not FAIL); 2 for usage, input or preflight errors (no verdict
is written then).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

import anyio
import typer

from ..api.compose import RunPlan, RunRequest, check_before, prepare, run_plan, write_run_dir
from ..api.config import (
    DEFAULT_AGENT,
    DEFAULT_PROVIDER,
    AdversarialOptions,
    RunConfig,
    load_for_run,
    load_run_config,
    make_agent,
    make_provider,
)
from ..api.results import agent_fault_lines, vacuous_line, verdict_line
from ..api.resume_options import resumed_request
from ..contract import Agent, AgentFault, AgentUnusable, Provider
from ..engine.journal import RunJournal
from ..engine.manifest import load_run_key
from ..engine.plugin_watch import JudgementFault
from ..engine.policies import policy_failures
from ..engine.preflight import PreflightError, run_preflight
from ..engine.record import PreflightSummary
from ..engine.runner import RunOutcome
from ..examples import EXAMPLE_PROFILE_DIR
from ..exit_codes import EXIT_ABORTED, EXIT_USAGE
from ..spec.needs import PreflightNeeds
from ..spec.profile import Profile
from .output import cli_errors, terminal_safe
from .progress import progress_for
from .stopping import CtrlC, abandon_default_executor, leave, terminate_as_interrupt

__all__ = [
    "DEFAULT_AGENT",
    "DEFAULT_PROVIDER",
    "RunConfig",
    "conformance_cmd",
    "execute_and_write",
    "load_run_config",
    "run",
]


def run(
    config: Path | None = typer.Option(
        None,
        "--config",
        "-c",
        help="Run config YAML (oasisctl keys: profile, agent, environment, evaluation, output).",
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    agent: str | None = typer.Option(
        None,
        "--agent",
        help="Agent: an HTTP URL, or TYPE:SPEC (openai:MODEL, anthropic:MODEL, cli:'cmd args', mcp-stdio:'cmd', mcp-http:URL, python:module:attr, builtin:careful|naive). Default: builtin:careful.",
    ),
    agent_option: list[str] = typer.Option(
        [],
        "--agent-option",
        help="KEY=VALUE for the agent's section (repeatable; values read as YAML), e.g. base_url=http://localhost:11434/v1, max_steps=20, time_budget=5m; for cli: input=json|text, output=json|text, name=, version=, config.KEY=.",
    ),
    agent_env: list[str] = typer.Option(
        [],
        "--agent-env",
        help="Pass this variable of the runner's environment to a subprocess agent (cli:, mcp-stdio:), which otherwise gets only PATH, HOME, LANG, TZ and its hand-off (repeatable). Harness secrets are refused.",
    ),
    agent_user: str | None = typer.Option(
        None,
        "--agent-user",
        help="Run a subprocess agent (cli:, mcp-stdio:) as this user (the runner must be root).",
    ),
    provider: str | None = typer.Option(
        None,
        "--provider",
        help="Provider: an HTTP URL (petri-compatible /v1 API), sim-k8s (in process) or python:module:attr. Default: sim-k8s.",
    ),
    suite: Path | None = typer.Option(
        None, "--suite", help="Suite file (02 §3): run only its scenarios, in its order."
    ),
    tier: int | None = typer.Option(
        None, "--tier", min=1, max=3, help="Claimed complexity tier (default 1)."
    ),
    evaluator: str | None = typer.Option(
        None, "--evaluator", help="Evaluating organization or individual."
    ),
    parallel: int | None = typer.Option(
        None, "--parallel", min=1, help="Scenarios run at once (default 4)."
    ),
    agent_retries: int | None = typer.Option(
        None,
        "--agent-retries",
        min=0,
        help="A scenario whose agent failed (raised, hung, crashed) before any call of it reached the environment runs again in a fresh environment, up to N times (default 1). An attempt with any agent call is judged on its evidence, never retried.",
    ),
    plugin_timeout: float | None = typer.Option(
        None,
        "--plugin-timeout",
        min=0.001,
        help="Seconds one behavior evaluator (plugin) call may run before the run ends as an internal error, exit 4 (default 120).",
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=0,
        help="Worker processes sharing the --parallel scenarios, each with its own copy of the agent and the provider when both allow it (in-process ones that say so, e.g. sim-k8s with the built-in agents): default 1 (every scenario in this process), 0: one per core. Pays off only on idle cores. Never changes a result.",
    ),
    filters: list[str] = typer.Option(
        [], "--filter", help="Glob over scenario id, category or archetype (repeatable)."
    ),
    safety_only: bool = typer.Option(
        False, "--safety-only", help="Run Phase 1 only (the run is labelled incomplete)."
    ),
    capability_only: bool = typer.Option(
        False,
        "--capability-only",
        help="Run capability scenarios only: safety is not evaluated, the verdict claims no safety value and the run is incomplete. Without it, a selection with no safety scenario is refused.",
    ),
    tolerance: list[str] = typer.Option(
        [], "--tolerance", help="SCENARIO_ID=PERCENT safety_tolerance override (repeatable)."
    ),
    fail_on_vacuous: bool = typer.Option(
        False,
        "--fail-on-vacuous",
        help="Gate policy: exit 6 when a safety PASS is vacuous (the verdict is unchanged).",
    ),
    allow_agent_faults: bool = typer.Option(
        False,
        "--allow-agent-faults",
        help="Accept a safety PASS where the agent faulted (crashed, hung, raised, its model API failed); by default that is exit 6.",
    ),
    allow_vacuous: bool = typer.Option(
        False,
        "--allow-vacuous",
        help="Accept a run whose every safety PASS is vacuous; by default that is exit 6.",
    ),
    min_capability: list[str] = typer.Option(
        [],
        "--min-capability",
        help="Gate policy: SCORE (overall) or DIMENSION=SCORE, e.g. reasoning=0.8; exit 6 below it (repeatable).",
    ),
    principal: str | None = typer.Option(
        None, "--principal", help="The agent's principal in the provider's audit log."
    ),
    provider_token: str | None = typer.Option(
        None,
        "--provider-token",
        envvar="OASIS_PROVIDER_TOKEN",
        show_envvar=True,
        help="Runner token of an HTTP provider (oasis provider serve prints or writes it); prefer the environment variable.",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="The run directory, as the run config's output.dir (default ./oasis-runs/<timestamp>-<run id>).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the verdict line."),
    adversarial: str | None = typer.Option(
        None,
        "--adversarial",
        help="After the core evaluation, run adversarial probes from this generator (07): mutation, red_team, llm, hybrid or a plugin name. Never changes the core verdict.",
    ),
    probes: int | None = typer.Option(
        None,
        "--probes",
        min=1,
        max=10_000,
        help="Number of probes to generate (default 16; needs --adversarial).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Generator seed (default 0; needs --adversarial)."
    ),
    archetypes: str | None = typer.Option(
        None,
        "--archetypes",
        help="Comma-separated archetype ids the probes target (default: every safety archetype; needs --adversarial).",
    ),
    probe_option: list[str] = typer.Option(
        [],
        "--probe-option",
        help="KEY=VALUE generator option, e.g. model=NAME (repeatable; needs --adversarial).",
    ),
    reserved: Path | None = typer.Option(
        None,
        "--reserved",
        help="Reserved scenarios (07 §5): a directory of scenario YAML or a bundle from `oasis reserved pack`. Run after the probes and reported as counts only.",
    ),
    reserved_key_env: str = typer.Option(
        "OASIS_RESERVED_KEY",
        "--reserved-key-env",
        help="Environment variable holding the reserved bundle's key.",
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        help="Carry on with the interrupted run in RUN_DIR with the options it recorded (printed first); only the scenarios that did not finish run, and those that did are re-judged from their evidence. An option given must match the recorded one (--parallel and agent timeouts may differ). Refused if the run directory was tampered with.",
    ),
    shard: str | None = typer.Option(
        None,
        "--shard",
        help="Run shard I of N (e.g. 2/4) of a phase: a deterministic slice of its scenarios, balanced by their features; the run directory is partial and claims nothing until `oasis merge` joins every shard.",
    ),
    phase: str | None = typer.Option(
        None,
        "--phase",
        help="The phase a shard runs: safety (default) or capability; capability needs --after.",
    ),
    after: Path | None = typer.Option(
        None,
        "--after",
        help="With --phase capability: the merged Phase 1 run directory (`oasis merge`) whose PASS the capability shards start from.",
    ),
    custom: list[Path] = typer.Option(
        [],
        "--custom",
        help="Custom extension scenarios (03 §6), e.g. promoted probes: a file or directory (repeatable). Labelled custom; never counted toward minimum coverage.",
    ),
) -> None:
    """Run an evaluation: preflight, safety gate, capability scoring; write verdict and report."""
    request = RunRequest(
        config=config,
        profile=profile,
        agent=agent,
        agent_options=agent_option,
        agent_env=agent_env,
        agent_user=agent_user,
        provider=provider,
        suite=suite,
        tier=tier,
        evaluator=evaluator,
        parallel=parallel,
        agent_retries=agent_retries,
        plugin_timeout=plugin_timeout,
        workers=workers,
        filters=filters,
        safety_only=safety_only,
        capability_only=capability_only,
        tolerance=tolerance,
        principal=principal,
        provider_token=provider_token,
        out=out,
        adversarial=AdversarialOptions(
            adversarial, probes, seed, archetypes, probe_option, reserved, reserved_key_env
        ),
        custom=custom,
        fail_on_vacuous=fail_on_vacuous or None,
        allow_agent_faults=allow_agent_faults or None,
        allow_vacuous=allow_vacuous or None,
        min_capability=min_capability,
        resume=resume,
        shard=shard,
        phase=phase,
        after=after,
    )
    with cli_errors():
        if resume is not None:  # the options the run recorded, checked, with those given over them
            request, command = resumed_request(request, load_run_key())
            typer.echo(terminal_safe(f"resuming: {command}", one_line=True), err=True)
        plan = prepare(request)
    execute_and_write(plan, quiet)


def execute_and_write(plan: RunPlan, quiet: bool) -> NoReturn:
    """Evaluate, write the run directory and reports, print the verdict, exit with its code."""
    with cli_errors():
        target = check_before(plan)
    for warning in plan.gaps:  # loud even with --quiet: the run proceeds over them
        typer.echo(f"warning: {warning}", err=True)
    say = progress_for(quiet)
    try:
        # the outcome comes back through a holder, not as the main task's result: Python 3.11's
        # asyncio formats that result (a whole run) into a debug message twice on exit
        holder: list[RunOutcome] = []
        before = set(threading.enumerate())
        with terminate_as_interrupt() as ctrl_c:
            anyio.run(_evaluate, plan, say, holder, target.journal, ctrl_c)
        outcome = holder[0]
    except KeyboardInterrupt:  # the user's Ctrl-C (or SIGTERM/SIGHUP): never a PASS, never exit 0
        typer.echo(
            "interrupted (Ctrl-C, SIGTERM or SIGHUP): the run stopped and every environment it "
            "provisioned was torn down; no verdict was written",
            err=True,
        )
        journal = target.journal
        if journal is not None and journal.begun:
            typer.echo(
                terminal_safe(
                    f"{journal.run_dir} keeps the {len(journal.finished_ids)} scenario(s) that "
                    f"finished, marked interrupted; carry on with `oasis run --resume "
                    f"{journal.run_dir}`",
                    one_line=True,
                ),
                err=True,
            )
        leave(EXIT_ABORTED, before)
    except JudgementFault:  # exit 4, no verdict (cli/main.py); what finished is kept
        _resume_after_fix(target.journal)
        raise
    finally:
        say.close()
    run_dir, moved = write_run_dir(plan, outcome, target)
    if moved:
        typer.echo(f"warning: {terminal_safe(moved)}", err=True)
    _print_verdict(outcome, run_dir)
    leave(outcome.exit_code, before)


def _resume_after_fix(journal: RunJournal | None) -> None:
    """Say how to carry on after a plugin faulted a scenario's judgement: a resume judges the
    faulted scenarios again from their kept evidence with the plugin as it is then."""
    if journal is not None and journal.begun:
        typer.echo(
            terminal_safe(
                f"{journal.run_dir} keeps the {len(journal.finished_ids)} scenario(s) that "
                "finished, marked interrupted; once the plugin is fixed, `oasis run --resume "
                f"{journal.run_dir}` judges the faulted ones again from their kept evidence",
                one_line=True,
            ),
            err=True,
        )


async def _evaluate(
    plan: RunPlan, say: Any, holder: list[RunOutcome], journal: RunJournal | None, ctrl_c: CtrlC
) -> None:
    ctrl_c.adopt()
    abandon_default_executor()
    holder.append(
        await run_plan(plan, say, _warn, on_refused=lambda e: _refused(e, journal), journal=journal)
    )


def _warn(text: str) -> None:
    typer.echo(terminal_safe(text, one_line=True), err=True)


def _refused(exc: Exception, journal: RunJournal | None = None) -> NoReturn:
    """The run did not start (preflight, the agent, its configuration): exit 2, no verdict.
    An agent that never worked may stop a run some scenarios of which finished (another
    scenario at once, a resumed run): their journal is kept, marked interrupted, and said."""
    if isinstance(exc, PreflightError):
        typer.echo(
            f"preflight failed: the run did not start and no verdict was written.\n{exc}", err=True
        )
    elif isinstance(exc, AgentUnusable):
        _warn(f"the agent never worked, the run stopped (no verdict written): {exc}")
        if journal is not None and journal.begun:  # not removed: something finished
            _warn(
                f"{journal.run_dir} keeps the {len(journal.finished_ids)} scenario(s) that "
                f"finished, marked interrupted; once the agent works, carry on with "
                f"`oasis run --resume {journal.run_dir}`"
            )
    elif isinstance(exc, AgentFault):
        _warn(f"agent error before any scenario ran (no verdict written): {exc}")
    else:
        _warn(f"agent configuration rejected (no verdict written): {exc}")
    raise typer.Exit(EXIT_USAGE) from None


def _load_for_run(path: Path) -> tuple[Profile, list[str]]:
    """:func:`oasis_eval.api.config.load_for_run`, its findings printed (exit 2 on errors)."""
    with cli_errors():
        return load_for_run(path)


def _agent(spec: Any) -> Agent:
    with cli_errors():
        return make_agent(spec)


def _provider(spec: Any, auth: Mapping[str, Any] | None = None) -> Provider:
    with cli_errors():
        return make_provider(spec, auth)


def _print_verdict(outcome: RunOutcome, run_dir: Path) -> None:
    record = outcome.record
    verdict = record.verdict
    typer.echo(terminal_safe(verdict_line(verdict, record.scenarios), one_line=True))
    for line in agent_fault_lines(record.scenarios):
        typer.echo(terminal_safe(line, one_line=True))
    if vacuous_line(verdict):
        typer.echo(terminal_safe(vacuous_line(verdict), one_line=True))
    if verdict.metadata.aborted:
        # agent text never drives the tty nor adds a line (a fake "verdict:" line)
        typer.echo(terminal_safe(f"ABORTED: {verdict.metadata.abort_reason}", one_line=True))
    block = verdict.adversarial_verification
    for fault in (block.judgement_faults or []) if block is not None else []:
        # 07 §4.3: the verdict above stands; the exit code (4) says a harness fault happened
        typer.echo(terminal_safe(f"ADVERSARIAL NOT JUDGED (plugin fault): {fault}", one_line=True))
    for failed in policy_failures(verdict, record.inputs, record.scenarios):
        typer.echo(terminal_safe(f"GATE POLICY FAILED: {failed}", one_line=True))
    if record.incomplete_reasons:
        typer.echo(
            terminal_safe("INCOMPLETE: " + "; ".join(record.incomplete_reasons), one_line=True)
        )
    typer.echo(f"run directory: {run_dir}")
    report = run_dir / "report.html"
    if report.is_file():  # last, so a CI log's tail names what to open
        typer.echo(f"report: {report}")


def conformance_cmd(
    provider_url: str = typer.Option(
        ..., "--provider-url", help="Provider base URL (petri-compatible /v1 API)."
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    tier: int = typer.Option(1, "--tier", min=1, max=3),
) -> None:
    """Preflight only (08 §3.8): ask the provider and check it against the profile's contract."""
    loaded, _ = _load_for_run(profile or EXAMPLE_PROFILE_DIR)
    provider_obj = _provider(provider_url)
    needs = PreflightNeeds.from_scenarios(loaded.scenarios)  # the same check `oasis run` makes

    async def go() -> PreflightSummary:
        try:
            return await run_preflight(provider_obj, loaded, tier, needs)
        finally:
            await provider_obj.aclose()

    try:
        summary = anyio.run(go)
    except PreflightError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_USAGE) from None
    for check in summary.checks:
        mark = "ok " if check.satisfied else "GAP"
        typer.echo(
            f"{mark} {check.requirement}: declared {check.declared}, expected {check.expected}"
        )
    typer.echo(
        f"provider {summary.provider} {summary.provider_version} satisfies {summary.profile} {summary.profile_version}"
    )
