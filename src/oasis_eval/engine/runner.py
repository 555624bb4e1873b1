"""The orchestrator: spec 04 §3 steps 0-11 with safe concurrency.

- Step 0, preflight, aborts before anything runs (no verdict) on any gap.
- Phase 1 runs *every* applicable safety scenario before aggregating; the only
  exceptions are a runtime harness fault, which aborts at once (core §2.1, §3.7), and an
  agent that cannot be reached at all.
- Phase 1 is never PASS over an applicable scenario that was not judged; Phase 2 runs
  only after a Phase 1 PASS.
- A plugin fault stops one scenario's judgement only (core §3.5.3). The run is then FAIL
  if a safety scenario FAILed (aborted, the fault in ``abort_reason``: an agent never
  escapes a FAIL by reaching the harness), else it ends with no verdict (exit 4) as before.
- ``parallel`` scenarios run at once, each in its own environment. Results are
  ordered by scenario id, so a run without an abort gives the serial output;
  on an abort, results that finished before it are kept (FAIL wins).

The steps live in sibling modules: :mod:`.selection` (what runs), :mod:`.phase_runner`
(running a phase), :mod:`.conclude` (record, claim, exit code).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..contract import Agent, AgentReport, AgentUnusable, ProfileServing, Provider
from ..evaluation.aggregate import safety_status
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import ConfigValue, VerdictStatus
from ..spec.needs import PreflightNeeds
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..validation.blocking import require_judgeable
from .access import prepare_agent_access
from .collector import collector_for_run
from .conclude import claim, exit_code, incomplete_reasons, run_record, verdict_metadata
from .configuration import EffectiveConfiguration, effective_configuration
from .containment import GuardedProvider, guard_provider, identify_agent, no_hard_exit
from .execute import register_secrets
from .journal import RunJournal
from .phase_runner import PhaseResults, PhaseRunner, Progress
from .phases import AfterCorePhase, PhaseContext
from .plugin_watch import JUDGEMENT_FAULTED, JudgementFault
from .policies import gate_failed, gated_exit_code
from .preflight import run_preflight
from .record import PreflightSummary, RunInputs, RunRecord
from .redaction import Redactor
from .replay import Rejudge, judge_in_run
from .selection import (
    Selection,
    needs_for,
    select_scenarios,
    triage,
)
from .shard import carried_for, check_after, shard_record, shard_scenarios
from .verdict import build_verdict

# the names callers import from here (the CLI, the API, the adversarial phase, tests)
__all__ = [
    "RunOutcome",
    "evaluate",
]


@dataclass
class RunOutcome:
    record: RunRecord
    evidence: dict[str, ScenarioEvidence]
    exit_code: int
    #: what the phase after the core returned (adversarial.phase_output.AdversarialRun), when one was configured
    adversarial: Any = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


async def evaluate(
    profile: Profile,
    agent: Agent,
    provider: Provider,
    inputs: RunInputs,
    selection: Selection | None = None,
    progress: Progress | None = None,
    redactor: Redactor | None = None,
    adversarial: AfterCorePhase | None = None,
    journal: RunJournal | None = None,
) -> RunOutcome:
    """Run a whole evaluation. Raises SelectionError / PreflightError / AgentFault /
    ConfigurationError before any scenario runs (no verdict); afterwards every fault is
    recorded in the verdict. Only KeyboardInterrupt (or cancelling the caller) escapes.
    ``adversarial`` (e.g. an ``adversarial.phase.AdversarialConfig``) adds 04 §3 step 12 after the
    core (see :mod:`.phases`). ``journal`` (engine/journal.py) writes each scenario as it
    finishes and, resuming, supplies those that finished before: they are not run again, and
    the run keeps its id, start and duration so far."""
    with (
        collector_for_run(),
        no_hard_exit(),
    ):  # an in-process agent's os._exit is its fault, not exit 0
        return await _evaluate(
            profile, agent, provider, inputs, selection, progress, redactor, adversarial, journal
        )


async def _evaluate(
    profile: Profile,
    agent: Agent,
    provider: Provider,
    inputs: RunInputs,
    selection: Selection | None,
    progress: Progress | None,
    redactor: Redactor | None,
    adversarial: AfterCorePhase | None,
    journal: RunJournal | None = None,
) -> RunOutcome:
    # a profile that cannot be judged never runs (validation/blocking.py)
    require_judgeable(profile, custom=inputs.custom_scenarios)
    selection = selection or Selection()
    say = progress or (lambda _msg: None)
    timing = _clock(journal)
    selected = select_scenarios(profile, selection)
    # the whole selection's needs: every shard checks the provider as the unsharded run does
    needs = needs_for(selected)
    shard, selected = selection.shard, _sliced(selected, selection, inputs)
    provider, preflight = await _provider_ready(provider, profile, inputs, needs)
    say(
        f"preflight: {preflight.provider} {preflight.provider_version} satisfies {profile.id} {profile.version}"
    )
    report = await identify_agent(agent)
    await prepare_agent_access(agent, provider)  # an out-of-process agent gets a network endpoint
    config = effective_configuration(report.configuration, profile)
    say(f"agent: {report.identity.name} {report.identity.version}")
    if shard is not None:  # a capability shard carries on with the same agent only
        check_after(shard, report.identity.name, report.identity.version, config.values)

    custom = set(inputs.custom_scenarios)
    results, runnable = triage(profile, selected, config, inputs.claimed_tier, custom)
    redactor = redactor or Redactor()
    # every secret of the profile, before any agent output exists
    for scenario in profile.scenarios:
        register_secrets(scenario, redactor, short_forms=False)
    if journal is not None:  # the run directory exists from here on (issue 17 item 3)
        journal.begin(
            _identity(report, config, preflight), _rejudge(profile, inputs, config.values)
        )
    run = PhaseRunner(profile, agent, provider, inputs, config.values, redactor, say, journal)
    if shard is not None:
        run.carried = carried_for(shard, runnable)
    phase1, phase2, phase2_ran = await _run_phases(run, runnable, results, custom, selection)
    refused = phase1.refused or phase2.refused
    if refused is not None:  # the agent never worked: no verdict, as before any scenario
        if journal is not None:
            journal.abandon(refused)
        raise AgentUnusable(refused)

    ordered = [results[k] for k in sorted(results)]
    abort = _faults_over_fail(
        phase1.abort or phase2.abort,
        {**phase1.judgement_faults, **phase2.judgement_faults},
        ordered,
    )
    tier_evidence = phase1.tier_evidence or phase2.tier_evidence
    metadata = verdict_metadata(
        profile, report, config, inputs, preflight, tier_evidence, timing, abort
    )
    verdict = build_verdict(
        profile, ordered, metadata, inputs.claimed_tier, phase2_ran, not selection.capability_only
    )
    record = run_record(profile, verdict, inputs, preflight, ordered, report, config, tier_evidence)
    if journal is not None:
        record.run_id = journal.run_id
    record.incomplete_reasons = incomplete_reasons(record, profile, selection)
    adversarial_run = None
    if adversarial is not None:  # 04 §3 step 12: after the core, which it never changes (07 §4.3)
        adversarial_run = await adversarial(
            PhaseContext(profile, agent, provider, inputs, config, redactor, say), record
        )
    if not record.incomplete_reasons and not gate_failed(verdict, inputs, ordered):
        record.conformance_claim = claim(verdict)  # a run that fails a gate claims nothing
    evidence = {**phase1.evidence, **phase2.evidence}
    return RunOutcome(
        record=record,
        evidence=evidence,
        exit_code=gated_exit_code(exit_code(verdict), verdict, inputs, ordered),
        adversarial=adversarial_run,
    )


def _clock(journal: RunJournal | None) -> tuple[str, float]:
    """When the run started and the monotonic clock's start; a resumed run continues the
    interrupted one's clock."""
    if journal is not None:
        return journal.started, time.monotonic() - journal.elapsed_before
    return _now(), time.monotonic()


async def _provider_ready(
    provider: Provider, profile: Profile, inputs: RunInputs, needs: PreflightNeeds
) -> tuple[GuardedProvider, PreflightSummary]:
    """The provider told which profile it serves (08 §5.2), guarded, and preflighted against
    what the selection needs (04 §3)."""
    if isinstance(provider, ProfileServing):
        provider.serve_profile(profile)
    guarded = guard_provider(provider)
    return guarded, await run_preflight(guarded, profile, inputs.claimed_tier, needs)


def _faults_over_fail(
    abort: str | None,
    faults: dict[str, str],
    ordered: list[ScenarioResult],
) -> str | None:
    """The run's abort reason with the judgements plugins faulted named, when a safety
    scenario FAILed (core §3.6: FAIL wins; 05 §1 ``abort_reason``); with no FAIL, the first
    fault in scenario order ends the run with no verdict (exit 4), as it did before."""
    if not faults:
        return abort
    ids = sorted(faults)
    if safety_status(ordered) is not VerdictStatus.FAIL:
        raise JudgementFault(ids[0], faults[ids[0]])
    named = [f"{sid}: {JUDGEMENT_FAULTED}{faults[sid]}" for sid in ids]
    return "; ".join([abort, *named] if abort else named)


def _sliced(selected: list[Scenario], selection: Selection, inputs: RunInputs) -> list[Scenario]:
    """A shard's scenarios of the selection (engine/shard.py), its slice recorded in ``inputs``;
    the whole selection when the run is not sharded."""
    if selection.shard is None:
        return selected
    inputs.shard = shard_record(selected, selection.shard, selection.chosen_partial)
    return shard_scenarios(selected, selection.shard)


def _identity(
    report: AgentReport, config: EffectiveConfiguration, preflight: PreflightSummary
) -> dict[str, Any]:
    """What a resumed run must find unchanged once it reached the agent and the provider."""
    return {
        "agent identity": report.identity.model_dump(mode="json"),
        "agent configuration": {k: config.values[k] for k in sorted(config.values)},
        "provider": {"name": preflight.provider, "version": preflight.provider_version},
    }


def _rejudge(profile: Profile, inputs: RunInputs, config: dict[str, ConfigValue]) -> Rejudge:
    """How a resume judges what the interrupted run kept: as this run would, and as replay
    does (engine/replay.py::judge_in_run)."""

    def again(sid: str, evidence: ScenarioEvidence, custom: bool) -> ScenarioResult | None:
        scenario = profile.scenario(sid)
        if scenario is None:
            return None
        return judge_in_run(scenario, evidence, profile, inputs, config, custom)

    return again


async def _run_phases(
    run: PhaseRunner,
    runnable: list[Scenario],
    results: dict[str, ScenarioResult],
    custom: set[str],
    selection: Selection,
) -> tuple[PhaseResults, PhaseResults, bool]:
    """Phase 1 (safety), then Phase 2 (capability) only after a Phase 1 PASS; every runnable
    scenario without a result is recorded as not run. (phase 1, phase 2, phase 2 ran)."""
    safety = [s for s in runnable if s.is_safety]
    capability = [s for s in runnable if not s.is_safety]
    phase1 = await run.phase("safety", safety)
    results.update(phase1.results)
    for scenario in safety:  # cut short by an abort: never run, never PASS
        if scenario.id not in results:
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_run, scenario.id in custom
            )
    phase1_status = safety_status(list(results.values()))
    phase2 = PhaseResults()
    phase2_ran = False
    if (
        phase1.abort is None
        and phase1.refused is None
        and not phase1.judgement_faults
        and phase1_status is VerdictStatus.PASS
        and not selection.safety_only
        and (selection.shard is None or selection.shard.phase == "capability")
    ):
        phase2 = await run.phase("capability", capability)
        phase2_ran = True
        results.update(phase2.results)
    for scenario in runnable:
        if scenario.id not in results:
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_run, scenario.id in custom
            )
    return phase1, phase2, phase2_ran
