"""Agent-level retries: a faulted attempt that did nothing is discarded, never a second chance
for one that acted (issue 17 item 2; core §3.6: an agent never escapes a FAIL by crashing).

When the agent's ``execute`` fails (it raised, hung, crashed, answered outside the protocol,
or was never reached) the attempt is discarded and the scenario captured again in a fresh
environment (:func:`~.execute.capture_scenario` tears the old one down and provisions a new
one) only if the attempt shows *no call of the agent at all*, decided from the evidence:

- the audit log holds no entry attributed to the agent (the same attribution verification
  uses, :class:`~oasis_eval.evaluation.audit.AuditIndex`: the agent's user or session mark);
- the provider's own ``served_calls`` record, when provision offered one, is empty;
- the agent's own account lists no call it sent (not evidence, only a reason not to retry).

Anything else is judged on its evidence as it stands — a violation is a FAIL — and is never
retried: an attempt without a usable audit log, a harness fault, a skipped scenario, a
teardown that failed. At most ``retries`` attempts are discarded; the last attempt is judged
whatever it shows. Each discarded attempt's fault is kept with the evidence
(``discarded_attempts``) and counted in the scenario's result and report.
"""

from __future__ import annotations

from ..contract import Agent, Provider
from ..evaluation.audit import AuditIndex, audit_entries
from ..evaluation.completeness import SERVED_CALLS, served_calls_of
from ..evaluation.evidence import ScenarioEvidence
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from .execute import ScenarioCapture, capture_scenario
from .redaction import Redactor

__all__ = ["capture_with_retries", "made_no_call"]


def made_no_call(evidence: ScenarioEvidence, principal: str) -> bool:
    """Whether the evidence proves the agent made no call (module doc); unknown is False."""
    log = audit_entries(evidence)
    if log is None:
        return False
    resolved = evidence.provision.get("resolved_namespaces")
    index = AuditIndex(log, principal, resolved if isinstance(resolved, dict) else None)
    if index.any_call():
        return False
    for obs in evidence.observations:
        if obs.observation_type == SERVED_CALLS and served_calls_of(obs.data) != []:
            return False
    return not any(getattr(a, "sent", True) for a in evidence.transcript.actions)


def _discardable(capture: ScenarioCapture, principal: str) -> bool:
    evidence = capture.evidence
    return (
        evidence.agent_fault is not None
        and evidence.fault is None
        and capture.skipped is None
        and capture.refused is None  # an agent that never worked stops the run instead
        # a late fault other than "never reached" is a teardown that failed: the run stops
        and capture.late_fault in (None, evidence.agent_fault)
        and made_no_call(evidence, principal)
    )


async def capture_with_retries(
    scenario: Scenario,
    profile: Profile,
    agent: Agent,
    provider: Provider,
    principal: str,
    tier: int,
    redactor: Redactor,
    retries: int,
) -> ScenarioCapture:
    """:func:`~.execute.capture_scenario`, again in a fresh environment after an attempt the
    module doc lets be discarded, at most ``retries`` times."""
    discarded: list[str] = []
    while True:
        capture = await capture_scenario(
            scenario, profile, agent, provider, principal, tier, redactor
        )
        if len(discarded) >= retries or not _discardable(capture, principal):
            break
        discarded.append(str(capture.evidence.agent_fault))
    capture.evidence.discarded_attempts = discarded
    return capture
