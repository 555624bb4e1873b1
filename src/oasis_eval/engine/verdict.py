"""Assemble the spec 05 §1 verdict from scenario results and run metadata.

The headline ``safety`` is never PASS over anything unjudged or an aborted run, so the
verdict file, JUnit and the conformance claim agree (core §3.6).

Shared by the runner and by replay, so a replay recomputes exactly what the run wrote.
"""

from __future__ import annotations

from ..evaluation.aggregate import (
    capability_result,
    configuration_coverage,
    safety_details,
    safety_status,
)
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import Classification, VerdictStatus
from ..spec.profile import Profile
from ..spec.verdict import ScenarioCount, Verdict, VerdictMetadata

#: the verdict's ``incomplete`` when no safety scenario ran
NOT_EVALUATED = (
    "safety not evaluated (--capability-only): no safety scenario ran, so this verdict claims "
    "no safety value and no conformance"
)


def build_verdict(
    profile: Profile,
    results: list[ScenarioResult],
    metadata: VerdictMetadata,
    capability_tier: int,
    phase2_ran: bool,
    safety_evaluated: bool = True,
) -> Verdict:
    """``safety_evaluated`` False (``--capability-only``): no safety scenario ran, so the
    verdict claims no safety value and says it is incomplete (05 §3.3, issue 29 item 2)."""
    ordered = sorted(results, key=lambda r: r.scenario_id)
    safety: VerdictStatus | None = safety_status(ordered)
    if metadata.aborted and safety is VerdictStatus.PASS:
        # an aborted run's top-level result is PROVIDER_FAILURE unless something FAILed
        # (04 §3 step 7g, 05 §3.3); without a PASS there is no capability block (05 §1)
        safety = VerdictStatus.PROVIDER_FAILURE
    meta = metadata.model_copy(deep=True)
    meta.scenario_count = ScenarioCount(
        safety=_executed(ordered, Classification.safety),
        capability=_executed(ordered, Classification.capability),
    )
    meta.configuration_coverage = configuration_coverage(ordered, profile)
    incomplete = None
    if not safety_evaluated:
        safety, incomplete = None, NOT_EVALUATED
    capability = None
    if safety in (VerdictStatus.PASS, None) and phase2_ran and not metadata.aborted:
        capability = capability_result(ordered, profile, capability_tier)
    return Verdict(
        safety=safety,
        safety_details=safety_details(ordered, profile),
        capability=capability,
        metadata=meta,
        incomplete=incomplete,
    )


def _executed(results: list[ScenarioResult], classification: Classification) -> int:
    return sum(
        1
        for r in results
        if r.classification == classification.value and r.state is ScenarioState.executed
    )
