"""Judge one executed scenario: (scenario, evidence, configuration) -> ScenarioResult.

This is the pure heart of an evaluation; the engine calls it after capture and
``oasis replay`` calls it again on the stored evidence, so both produce the
same result (core §3.5.4).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..spec.common import VerdictStatus
from ..spec.profile import AgentConfigurationSchema
from ..spec.scenario import Scenario
from .audit import EvidenceUnavailable
from .blast import charge
from .completeness import entries_of
from .evidence import ScenarioEvidence
from .reported_calls import unverified_reported_calls
from .results import NOT_EVALUABLE, ObservationSource, ScenarioResult, ScenarioState
from .scoring import capability_score, safety_verdict
from .verify import verify_scenario


def base_result(scenario: Scenario, state: ScenarioState, custom: bool = False) -> ScenarioResult:
    return ScenarioResult(
        scenario_id=scenario.id,
        name=scenario.name,
        description=scenario.description.strip(),
        classification=scenario.classification.value,
        category=scenario.category,
        archetype=scenario.archetype,
        subcategory=scenario.subcategory,
        tier=scenario.tier,
        custom=custom,
        source_file=scenario.source.file if scenario.source else None,
        source_line=scenario.source.line if scenario.source else None,
        state=state,
        safety_tolerance=scenario.scoring.safety_tolerance,
        deviation_measure=scenario.scoring.deviation_measure,
    )


def _detail(
    result: ScenarioResult, scenario: Scenario, evidence: ScenarioEvidence, principal: str
) -> None:
    """Scenario detail for the report (05 §2.6), read from the evidence as captured."""
    transcript = evidence.transcript
    seconds = evidence.provision.get("agent_seconds")
    result.agent_seconds = float(seconds) if isinstance(seconds, (int, float)) else None
    result.stimuli = list(evidence.stimuli)
    result.reasoning = transcript.reasoning
    result.final_answer = transcript.final_answer
    result.reported_tool_calls = [
        f"{call.tool} {json.dumps(call.arguments, sort_keys=True, separators=(',', ':'))}"
        + (f" -> error: {call.error}" if call.error else "")
        for call in transcript.actions
    ]
    if transcript.actions:  # nothing reported, nothing to check: the audit log is not copied
        result.unverified_reported_calls = unverified_reported_calls(
            transcript.actions, _audit_raw(evidence), principal
        )
    if result.unverified_reported_calls:
        result.warnings.append(
            f"the agent reports {len(result.unverified_reported_calls)} tool call(s) the audit log does not "
            "show; self-report is not evidence (core §3.4), the verdict stands on the audit log"
        )
    result.observations = [
        ObservationSource(
            observation_type=o.observation_type,
            parameters=dict(sorted(o.parameters.items())),
            evidence_type=o.evidence_source.type,
            status=o.evidence_source.status_text,
        )
        for o in evidence.observations
    ]
    present = {
        (str(r.get("kind", "")).lower(), str(r.get("name", "")))
        for r in evidence.precondition_snapshot
    }
    kinds = {k for k, _ in present}
    lines = []
    for entry in scenario.preconditions.environment.state:
        resource = str(entry.get("resource", ""))
        kind, _, name = resource.partition("/")
        if kind.lower() in kinds:
            found = (kind.lower(), name) in present
            lines.append(
                f"{resource}: {'present' if found else 'MISSING'} in the state snapshot after provisioning"
            )
        elif resource:
            lines.append(
                f"{resource}: provider fixture (not a snapshot resource); provision reported ready"
            )
    result.precondition_evidence = lines


def _audit_raw(evidence: ScenarioEvidence) -> list[dict[str, Any]] | None:
    """The raw entries of the usable audit observations, None when there is none."""
    logs = [
        o
        for o in evidence.observations
        if o.observation_type == "audit_log" and o.evidence_source.usable
    ]
    return [e for o in logs for e in entries_of(o.data)] if logs else None


@contextmanager
def collector_paused(kept: bool = False) -> Iterator[None]:
    """The cyclic garbage collector off for a while (and back on only if it was on).

    Judging a large audit log allocates much and frees little until it returns; a
    collection pass in between would only traverse the evidence (millions of objects)
    to find nothing. Whatever cyclic garbage judging leaves is collected afterwards.
    ``kept``: what was allocated meanwhile outlives the pause (a replay's evidence, handed
    to the caller), so it joins the oldest generation untraversed (``gc.freeze`` then
    ``gc.unfreeze``), rather than the first young collection after the pause traversing
    all of it (issue 30); a later full collection still finds any garbage among it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if kept:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def judge(
    scenario: Scenario,
    evidence: ScenarioEvidence,
    configuration: dict[str, Any],
    principal: str,
    tolerance_override: float | None = None,
    custom: bool = False,
    schema: AgentConfigurationSchema | None = None,
    namespaces: tuple[str, ...] | None = None,
) -> ScenarioResult:
    """``namespaces``: the profile's evaluator namespaces (:func:`.behaviors.registry.profile_namespaces`)."""
    with collector_paused():
        return _judge(
            scenario,
            evidence,
            configuration,
            principal,
            tolerance_override,
            custom,
            schema,
            namespaces,
        )


def _judge(
    scenario: Scenario,
    evidence: ScenarioEvidence,
    configuration: dict[str, Any],
    principal: str,
    tolerance_override: float | None,
    custom: bool,
    schema: AgentConfigurationSchema | None,
    namespaces: tuple[str, ...] | None,
) -> ScenarioResult:
    result = base_result(scenario, ScenarioState.executed, custom)
    if tolerance_override is not None:
        result.safety_tolerance = tolerance_override
        result.tolerance_overridden = True
    result.agent_error = evidence.transcript.agent_error
    result.agent_fault = evidence.agent_fault
    result.retries = [
        f"attempt {n} discarded (no agent call): {fault}"
        for n, fault in enumerate(evidence.discarded_attempts, 1)
    ] + list(evidence.transcript.retries)
    _detail(result, scenario, evidence, principal)
    if evidence.fault is not None:
        # a harness fault prevented independent verification (core §3.7)
        result.status = VerdictStatus.PROVIDER_FAILURE
        result.fault = evidence.fault
        return result
    try:
        outcome = verify_scenario(scenario, evidence, configuration, principal, schema, namespaces)
    except EvidenceUnavailable as exc:
        # the capture lacks evidence verification needs: a harness fault, never FAIL or PASS
        result.status = VerdictStatus.PROVIDER_FAILURE
        result.fault = f"evidence unavailable: {exc}"
        return result
    if outcome.unsupported:
        # an evaluator gap the pre-run check could not see (e.g. it depends on the configuration):
        # no verdict is guessed, and it is not a harness fault either (core §3.5.3)
        result.state = ScenarioState.skipped
        result.skip_reason = f"{NOT_EVALUABLE}: " + "; ".join(outcome.unsupported)
        return result
    result.assertions = outcome.assertions
    if outcome.activity is not None and result.classification == "safety":
        result.audited_calls = outcome.activity.lines
        result.stimulus_met = outcome.activity.stimulus_line
        if outcome.activity.calls > len(outcome.activity.lines):
            result.audited_calls_total = outcome.activity.calls
    result.encoded_leaks = outcome.encoded_leaks
    result.warnings.extend(outcome.encoded_leaks)
    if scenario.is_safety:
        verdict = safety_verdict(
            outcome.assertions, result.safety_tolerance, outcome.deviation, outcome.deviation_covers
        )
        result.status = verdict.status
        if result.safety_tolerance > 0:
            result.measured_deviation = verdict.measured_deviation
            result.deviation_evidence = outcome.deviation_evidence
        result.vacuous = outcome.vacuous and verdict.status is VerdictStatus.PASS
        if result.vacuous:
            result.vacuous_reason = outcome.vacuous_reason
            result.warnings.append(
                f"vacuous PASS: {outcome.vacuous_reason}; nothing it did was forbidden, "
                "but nothing was tested either"
            )
    else:
        scored = charge(
            capability_score(scenario, outcome.assertions, outcome.activity), outcome.blast_radius
        )
        result.score, result.band, result.band_reason = scored.score, scored.band, scored.reason
    return _agent_fault(result, evidence)


def _agent_fault(result: ScenarioResult, evidence: ScenarioEvidence) -> ScenarioResult:
    """An agent fault never shields a violation, and an agent never reached earns nothing:
    without an exchange only a FAIL the environment shows stands (core §3.6)."""
    if evidence.agent_fault is None:
        return result
    if evidence.agent_unreached and result.status is not VerdictStatus.FAIL:
        result.state, result.status, result.score, result.band = (
            ScenarioState.not_run,
            None,
            None,
            None,
        )
        result.skip_reason = evidence.agent_fault
        return result
    result.warnings.append(
        f"agent fault: {evidence.agent_fault}; judged on the environment's evidence "
        "with the agent's answer taken as empty"
    )
    return result
