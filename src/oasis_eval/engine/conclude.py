"""Concluding a run (04 §3 steps 10-11): the verdict metadata, the run record, why the run
is incomplete, the conformance claim it may make and its exit code.

Pure functions of the results the runner collected; the orchestration is :mod:`.runner`.
"""

from __future__ import annotations

import time
import uuid

from ..contract import AgentReport
from ..evaluation.aggregate import safety_coverage_gaps, unjudged_safety
from ..evaluation.results import ABOVE_TIER, NOT_EVALUABLE, ScenarioResult, ScenarioState
from ..exit_codes import EXIT_ABORTED, EXIT_FAIL, EXIT_INTERNAL, EXIT_PASS
from ..spec.common import OASIS_CORE_VERSION, VerdictStatus
from ..spec.profile import Profile
from ..spec.verdict import (
    ConfigurationCoverage,
    EnvironmentMetadata,
    ScenarioCount,
    Verdict,
    VerdictMetadata,
)
from ..version import IMPLEMENTATION_NAME, __version__
from .adversarial_record import claim_text
from .configuration import EffectiveConfiguration
from .record import (
    REPORT_FORMAT,
    CategorySummary,
    ConformanceClaim,
    PreflightSummary,
    RunInputs,
    RunRecord,
)
from .selection import Selection
from .shard import shard_reason

__all__ = [
    "category_summaries",
    "claim",
    "exit_code",
    "incomplete_reasons",
    "run_record",
    "tier_summary",
    "verdict_metadata",
]


def verdict_metadata(
    profile: Profile,
    report: AgentReport,
    config: EffectiveConfiguration,
    inputs: RunInputs,
    preflight: PreflightSummary,
    tier_evidence: object,
    timing: tuple[str, float],
    abort: str | None,
) -> VerdictMetadata:
    """The verdict's metadata; ``timing`` is (start timestamp, start of the monotonic clock).
    Counts and coverage are placeholders that ``build_verdict`` fills in."""
    started, clock = timing
    return VerdictMetadata(
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


def run_record(
    profile: Profile,
    verdict: Verdict,
    inputs: RunInputs,
    preflight: PreflightSummary,
    ordered: list[ScenarioResult],
    report: AgentReport,
    config: EffectiveConfiguration,
    tier_evidence: object,
) -> RunRecord:
    """The run record, before its incomplete reasons and claim are decided."""
    return RunRecord(
        run_id=uuid.uuid4().hex[:12],
        implementation=IMPLEMENTATION_NAME,
        implementation_version=__version__,
        report_format=REPORT_FORMAT,
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


def exit_code(verdict: Verdict) -> int:
    """0 PASS, 1 FAIL, 3 PROVIDER_FAILURE (and any aborted run that did not FAIL).
    ``build_verdict`` never gives PASS over an abort or an unjudged scenario. A plugin that
    faulted judging a probe or a reserved scenario never changes the verdict (07 §4.3), but
    a harness fault is never exit 0: 4 over anything but a FAIL, which wins as in the core
    (engine/runner.py::_faults_over_fail), and the verdict is written."""
    if verdict.safety is VerdictStatus.FAIL:
        return EXIT_FAIL
    if verdict.safety is VerdictStatus.PROVIDER_FAILURE or verdict.metadata.aborted:
        return EXIT_ABORTED
    block = verdict.adversarial_verification
    if block is not None and block.judgement_faults:
        return EXIT_INTERNAL
    return EXIT_PASS


def tier_summary(evidence: object, preflight: PreflightSummary) -> str:
    """The verdict's tier evidence line from the run's tier evidence (05 §1)."""
    return _tier_summary(evidence, preflight)


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
    if verdict.incomplete:  # no safety scenario ran (--capability-only)
        reasons.append(verdict.incomplete)
    if selection.partial:
        reasons.append("only part of the profile was selected (filters, suite or --safety-only)")
    if record.inputs.shard is not None:
        reasons.append(shard_reason(record.inputs.shard))
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
        verdict=verdict.safety_label,
        adversarial_verification=claim_text(verdict.adversarial_verification),
    )
