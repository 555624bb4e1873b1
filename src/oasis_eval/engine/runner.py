"""The orchestrator: spec 04 §3 steps 0-11 with safe concurrency.

- Step 0, preflight, aborts before anything runs (no verdict) on any gap.
- Phase 1 runs *every* applicable safety scenario before aggregating; the only
  exceptions are a runtime harness fault, which aborts at once (core §2.1, §3.7), and an
  agent that cannot be reached at all.
- Phase 1 is never PASS over an applicable scenario that was not judged; Phase 2 runs
  only after a Phase 1 PASS.
- ``parallel`` scenarios run at once, each in its own environment. Results are
  ordered by scenario id, so a run without an abort gives the serial output;
  on an abort, results that finished before it are kept (FAIL wins).
"""

from __future__ import annotations

import fnmatch
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio

from ..contract import Agent, Provider
from ..diagnostics import Findings, UnusableInput
from ..evaluation.aggregate import safety_coverage_gaps, safety_status, unjudged_safety
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result, judge
from ..evaluation.readiness import check_scenario
from ..evaluation.results import ABOVE_TIER, NOT_EVALUABLE, ScenarioResult, ScenarioState
from ..spec.common import OASIS_CORE_VERSION, ConfigValue, VerdictStatus
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..spec.verdict import (
    ConfigurationCoverage,
    EnvironmentMetadata,
    ScenarioCount,
    Verdict,
    VerdictMetadata,
)
from ..validation.blocking import require_judgeable
from ..validation.configuration import matches
from ..version import IMPLEMENTATION_NAME, __version__
from .adversarial_record import claim_text
from .configuration import applicability, effective_configuration
from .conformance_check import PreflightNeeds
from .containment import guard_provider, identify_agent, no_hard_exit
from .execute import capture_scenario, collector_for_run, register_secrets
from .phases import AfterCorePhase, PhaseContext
from .preflight import run_preflight
from .record import (
    CategorySummary,
    ConformanceClaim,
    PreflightSummary,
    RunInputs,
    RunRecord,
)
from .redaction import Redactor
from .verdict import build_verdict


class ProgressEvent(str):
    """A progress line (it *is* the text) with its structure attached, so a terminal display
    can draw per-phase bars while plain logs just print the line."""

    kind: str  # info | phase | scenario | abort
    phase: str | None
    total: int
    scenario_id: str | None
    outcome: str | None

    def __new__(
        cls,
        text: str,
        kind: str = "info",
        phase: str | None = None,
        total: int = 0,
        scenario_id: str | None = None,
        outcome: str | None = None,
    ) -> ProgressEvent:
        event = super().__new__(cls, text)
        event.kind, event.phase, event.total = kind, phase, total
        event.scenario_id, event.outcome = scenario_id, outcome
        return event


Progress = Callable[[str], None]


@dataclass
class Selection:
    """Which scenarios run. Anything deselected makes the run incomplete (never NOT_APPLICABLE)."""

    ids: list[str] | None = None  # a suite's ordered ids
    patterns: list[str] = field(default_factory=list)  # globs over id, category or archetype
    safety_only: bool = False

    def selects(self, scenario: Scenario) -> bool:
        if self.ids is not None and scenario.id not in self.ids:
            return False
        if self.patterns:
            keys = (scenario.id, scenario.category, scenario.archetype)
            return any(fnmatch.fnmatchcase(k, p) for p in self.patterns for k in keys)
        return True

    @property
    def partial(self) -> bool:
        return self.ids is not None or bool(self.patterns) or self.safety_only


class SelectionError(UnusableInput):
    """A selection that leaves nothing to evaluate: a usage error (exit 2), before preflight."""


@dataclass
class RunOutcome:
    record: RunRecord
    evidence: dict[str, ScenarioEvidence]
    exit_code: int
    #: what the phase after the core returned (adversarial.phase.AdversarialRun), when one was configured
    adversarial: Any = None


@dataclass
class _Phase:
    results: dict[str, ScenarioResult] = field(default_factory=dict)
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict)
    abort: str | None = None
    tier_evidence: object = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def needs_for(scenarios: list[Scenario]) -> PreflightNeeds:
    return PreflightNeeds.from_scenarios(scenarios)


async def evaluate(
    profile: Profile,
    agent: Agent,
    provider: Provider,
    inputs: RunInputs,
    selection: Selection | None = None,
    progress: Progress | None = None,
    redactor: Redactor | None = None,
    adversarial: AfterCorePhase | None = None,
) -> RunOutcome:
    """Run a whole evaluation. Raises SelectionError / PreflightError / AgentFault /
    ConfigurationError before any scenario runs (no verdict); afterwards every fault is
    recorded in the verdict. Only KeyboardInterrupt (or cancelling the caller) escapes.
    ``adversarial`` (e.g. an ``adversarial.phase.AdversarialConfig``) adds 04 §3 step 12 after the
    core (see :mod:`.phases`)."""
    with (
        collector_for_run(),
        no_hard_exit(),
    ):  # an in-process agent's os._exit is its fault, not exit 0
        return await _evaluate(
            profile, agent, provider, inputs, selection, progress, redactor, adversarial
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
) -> RunOutcome:
    # a profile that cannot be judged never runs (validation/blocking.py)
    require_judgeable(profile, custom=inputs.custom_scenarios)
    selection = selection or Selection()
    say = progress or (lambda _msg: None)
    started, clock = _now(), time.monotonic()
    selected = sorted((s for s in profile.scenarios if selection.selects(s)), key=lambda s: s.id)
    if selection.safety_only:
        selected = [s for s in selected if s.is_safety]
    if not selected:
        raise SelectionError(_nothing_selected(profile, selection))
    provider = guard_provider(provider)
    preflight = await run_preflight(provider, profile, inputs.claimed_tier, needs_for(selected))
    say(
        f"preflight: {preflight.provider} {preflight.provider_version} satisfies {profile.id} {profile.version}"
    )
    report = await identify_agent(agent)
    config = effective_configuration(report.configuration, profile)
    say(f"agent: {report.identity.name} {report.identity.version}")

    results: dict[str, ScenarioResult] = {}
    chosen, custom = {s.id for s in selected}, set(inputs.custom_scenarios)
    for scenario in profile.scenarios:
        if scenario.id not in chosen:
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_selected, scenario.id in custom
            )
    runnable: list[Scenario] = []
    for scenario in selected:
        excluded = applicability(scenario, config, profile)
        gap = None if excluded is not None else not_evaluable(scenario, config.values, profile)
        if excluded is not None:
            res = base_result(scenario, ScenarioState.not_applicable, scenario.id in custom)
            res.not_applicable_conditions = excluded
            results[scenario.id] = res
        elif scenario.tier > inputs.claimed_tier:
            res = base_result(scenario, ScenarioState.skipped, scenario.id in custom)
            res.skip_reason = (
                f"{ABOVE_TIER}: the scenario requires complexity tier {scenario.tier}; "
                f"this evaluation claims tier {inputs.claimed_tier}"
            )
            results[scenario.id] = res
        elif gap is not None:
            res = base_result(scenario, ScenarioState.skipped, scenario.id in custom)
            res.skip_reason = gap
            results[scenario.id] = res
        else:
            runnable.append(scenario)

    redactor = redactor or Redactor()
    for (
        scenario
    ) in profile.scenarios:  # every secret of the profile, before any agent output exists
        register_secrets(scenario, redactor)
    run = _Runner(profile, agent, provider, inputs, config.values, redactor, say)
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
    phase2 = _Phase()
    phase2_ran = False
    if phase1.abort is None and phase1_status is VerdictStatus.PASS and not selection.safety_only:
        phase2 = await run.phase("capability", capability)
        phase2_ran = True
        results.update(phase2.results)
    for scenario in runnable:
        if scenario.id not in results:
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_run, scenario.id in custom
            )
    abort = phase1.abort or phase2.abort
    ordered = [results[k] for k in sorted(results)]
    tier_evidence = phase1.tier_evidence or phase2.tier_evidence
    metadata = VerdictMetadata(
        agent=report.identity.name,
        agent_version=report.identity.version,
        agent_configuration=config.values,
        domain_profile=profile.metadata.name,
        domain_profile_version=profile.metadata.version,
        oasis_core_version=OASIS_CORE_VERSION,
        environment=EnvironmentMetadata(
            provider=preflight.provider,
            provider_version=preflight.provider_version,
            tier=inputs.claimed_tier,
            tier_evidence=_tier_summary(tier_evidence, preflight),
            conformance_check=_preflight_summary(preflight),
        ),
        evaluator=inputs.evaluator,
        timestamp=started,
        scenario_count=ScenarioCount(safety=0, capability=0),
        duration=f"PT{time.monotonic() - clock:.3f}S",
        configuration_coverage=ConfigurationCoverage(
            total_scenarios=0, applicable=0, not_applicable=0
        ),
        aborted=abort is not None,
        abort_reason=abort,
    )
    verdict = build_verdict(profile, ordered, metadata, inputs.claimed_tier, phase2_ran)
    record = RunRecord(
        run_id=uuid.uuid4().hex[:12],
        implementation=IMPLEMENTATION_NAME,
        implementation_version=__version__,
        verdict=verdict,
        inputs=inputs,
        preflight=preflight,
        scenarios=ordered,
        agent_description=report.identity.description,
        agent_declared_tools=report.declared_tools,
        agent_declared_mode=report.declared_mode,
        warnings=config.warnings,
        tier_evidence=tier_evidence if isinstance(tier_evidence, dict | str) else None,
        defaulted_configuration=config.defaulted,
        categories=category_summaries(profile),
        dimension_weights={
            dim.value: {c.category: c.weight for c in contributions}
            for dim, contributions in sorted(
                profile.dimension_weights.items(), key=lambda kv: kv[0].value
            )
        },
    )
    record.incomplete_reasons = incomplete_reasons(record, profile, selection)
    adversarial_run = None
    if adversarial is not None:  # 04 §3 step 12: after the core, which it never changes (07 §4.3)
        adversarial_run = await adversarial(
            PhaseContext(profile, agent, provider, inputs, config, redactor, say), record
        )
    if not record.incomplete_reasons:
        record.conformance_claim = claim(verdict)
    evidence = {**phase1.evidence, **phase2.evidence}
    return RunOutcome(
        record=record, evidence=evidence, exit_code=exit_code(verdict), adversarial=adversarial_run
    )


def _nothing_selected(profile: Profile, selection: Selection) -> str:
    what = []
    if selection.patterns:
        what.append("filter(s) " + ", ".join(repr(p) for p in selection.patterns))
    if selection.ids is not None:
        what.append(f"a suite of {len(selection.ids)} id(s)")
    if selection.safety_only:
        what.append("--safety-only")
    given = " and ".join(what) or "the selection"
    return (
        f"{given} select(s) no scenario of profile {profile.id} {profile.version} "
        f"({len(profile.scenarios)} scenario(s); patterns match a scenario id, category or archetype): "
        "nothing would be evaluated"
    )


def exit_code(verdict: Verdict) -> int:
    """0 PASS, 1 FAIL, 3 PROVIDER_FAILURE (and any aborted run that did not FAIL).
    ``build_verdict`` never gives PASS over an abort or an unjudged scenario."""
    if verdict.safety is VerdictStatus.FAIL:
        return 1
    if verdict.safety is VerdictStatus.PROVIDER_FAILURE or verdict.metadata.aborted:
        return 3
    return 0


class _Runner:
    def __init__(
        self,
        profile: Profile,
        agent: Agent,
        provider: Provider,
        inputs: RunInputs,
        config: dict[str, ConfigValue],
        redactor: Redactor,
        say: Progress,
    ) -> None:
        self.profile, self.agent, self.provider = profile, agent, provider
        self.inputs, self.config, self.redactor, self.say = inputs, config, redactor, say

    async def phase(self, name: str, scenarios: list[Scenario]) -> _Phase:
        phase = _Phase()
        if not scenarios:
            return phase
        limiter = anyio.CapacityLimiter(max(1, self.inputs.parallel))
        self.say(
            ProgressEvent(
                f"phase {name}: {len(scenarios)} scenario(s)", "phase", name, len(scenarios)
            )
        )
        async with anyio.create_task_group() as group:
            for scenario in scenarios:
                group.start_soon(self._one, scenario, phase, limiter, group.cancel_scope)
        return phase

    async def _one(
        self,
        scenario: Scenario,
        phase: _Phase,
        limiter: anyio.CapacityLimiter,
        scope: anyio.CancelScope,
    ) -> None:
        async with limiter:
            if phase.abort is not None:
                return
            capture = await capture_scenario(
                scenario,
                self.profile,
                self.agent,
                self.provider,
                self.inputs.agent_principal,
                self.inputs.claimed_tier,
                self.redactor,
            )
        custom = scenario.id in self.inputs.custom_scenarios
        if (
            phase.tier_evidence is None
            and capture.evidence.provision.get("tier_evidence") is not None
        ):
            phase.tier_evidence = capture.evidence.provision["tier_evidence"]
        if capture.skipped is not None:
            result = base_result(scenario, ScenarioState.skipped, custom)
            result.skip_reason = capture.skipped
        else:
            result = judge(
                scenario,
                capture.evidence,
                self.config,
                self.inputs.agent_principal,
                self.inputs.tolerance_overrides.get(scenario.id),
                custom=custom,
                schema=self.profile.agent_configuration_schema,
            )
            phase.evidence[scenario.id] = capture.evidence
        phase.results[scenario.id] = result
        label = (
            result.status.value
            if result.status
            else (f"{result.score:.2f}" if result.score is not None else result.state.value)
        )
        self.say(
            ProgressEvent(
                f"  {scenario.id}: {label}",
                "scenario",
                scenario.classification.value,
                scenario_id=scenario.id,
                outcome=label,
            )
        )
        fault = (
            capture.evidence.fault
            or (result.fault if result.status is VerdictStatus.PROVIDER_FAILURE else None)
            or capture.late_fault
        )
        if fault is not None and phase.abort is None:
            phase.abort = f"{scenario.id}: {fault}"
            self.say(ProgressEvent(f"  aborting the run: {phase.abort}", "abort"))
            scope.cancel()


def _tier_summary(evidence: object, preflight: PreflightSummary) -> str:
    if isinstance(evidence, dict):
        return "; ".join(f"{k}: {v}" for k, v in sorted(evidence.items()))
    if isinstance(evidence, str):
        return evidence
    declared = next((c.declared for c in preflight.checks if "tier" in c.requirement), None)
    return (
        f"provider declared tier support {declared} at preflight; no per-environment tier evidence"
        if declared
        else "no tier evidence supplied by the provider"
    )


def _preflight_summary(preflight: PreflightSummary) -> str:
    ok = sum(1 for c in preflight.checks if c.satisfied)
    return (
        f"{preflight.provider} {preflight.provider_version} supports {preflight.profile} "
        f"{preflight.profile_version}: {ok}/{len(preflight.checks)} checks satisfied"
    )


def incomplete_reasons(record: RunRecord, profile: Profile, selection: Selection) -> list[str]:
    reasons: list[str] = []
    verdict = record.verdict
    if verdict.metadata.aborted:
        reasons.append(f"the run aborted: {verdict.metadata.abort_reason}")
    unjudged = unjudged_safety(record.scenarios)
    if unjudged:
        reasons.append(
            f"{len(unjudged)} applicable safety scenario(s) were not judged (skipped, cut short "
            "or never run), so Phase 1 cannot PASS: "
            + ", ".join(r.scenario_id for r in unjudged[:5])
            + (" ..." if len(unjudged) > 5 else "")
        )
    if selection.partial:
        reasons.append("only part of the profile was selected (filters, suite or --safety-only)")
    skipped = [
        r
        for r in record.scenarios
        if r.state is ScenarioState.skipped and not (r.skip_reason or "").startswith(ABOVE_TIER)
    ]
    unevaluable = [r for r in skipped if (r.skip_reason or "").startswith(NOT_EVALUABLE)]
    if len(skipped) > len(unevaluable):
        reasons.append(
            f"{len(skipped) - len(unevaluable)} scenario(s) skipped because a precondition "
            "could not be established"
        )
    if unevaluable:
        reasons.append(
            f"{len(unevaluable)} scenario(s) not run because oasis-eval cannot yet evaluate "
            "every assertion in them (missing evaluators; see each scenario)"
        )
    tier = record.inputs.claimed_tier
    gaps = safety_coverage_gaps(record.scenarios, profile, tier)
    if verdict.capability is not None and not verdict.capability.coverage.complete:
        gaps.append(f"capability coverage below the tier {tier} minimum")
    record.coverage_gaps = gaps
    return reasons + gaps


def not_evaluable(scenario: Scenario, config: dict[str, Any], profile: Profile) -> str | None:
    """Why oasis-eval cannot judge this scenario yet, or None. Such a scenario is not run:
    its verdict would not be deterministic evidence (core §3.5.3), so it is never guessed."""
    findings = Findings()
    check_scenario(scenario, findings)
    gaps = [f"{f.field or f.code}: {f.message}" for f in findings.errors]
    conditional = scenario.assertions.conditional if scenario.assertions else []
    hits = [
        i
        for i, c in enumerate(conditional)
        if matches(c.when, config, profile.agent_configuration_schema)
    ]
    if len(hits) > 1:
        gaps.append(
            f"conditional entries {hits} all match the agent configuration (02 §1.10: at most one may)"
        )
    return f"{NOT_EVALUABLE}: " + "; ".join(gaps) if gaps else None


def category_summaries(profile: Profile) -> list[CategorySummary]:
    out = [
        CategorySummary(
            id=c.id, name=c.name, classification="safety", archetypes=[a.id for a in c.archetypes]
        )
        for c in profile.safety_categories
    ]
    out += [
        CategorySummary(
            id=c.id,
            name=c.name,
            classification="capability",
            archetypes=[a.id for a in c.archetypes],
            dimensions=[d.value for d in c.dimensions],
            aggregation=c.aggregation.text or c.aggregation.method.value,
        )
        for c in profile.capability_categories
    ]
    return out


def claim(verdict: Verdict) -> ConformanceClaim:
    meta = verdict.metadata
    return ConformanceClaim(
        domain_profile=meta.domain_profile,
        domain_profile_version=meta.domain_profile_version,
        tier=meta.environment.tier,
        agent=meta.agent,
        agent_version=meta.agent_version,
        agent_configuration=dict(meta.agent_configuration),
        date=meta.timestamp,
        verdict=verdict.safety.value,
        adversarial_verification=claim_text(verdict.adversarial_verification),
    )
