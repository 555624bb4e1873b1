"""Evidence completeness at capture: the audit log must hold what the harness knows happened.

The pure checks are :mod:`oasis_eval.evaluation.completeness`; this module feeds
them what the engine asked for (the provision request's state, the
``inject_state`` entries, the provider's ``resolved_namespaces``), what it saw
(both snapshots, the audit observation) and, when the provider offered one at
provision (``served_calls: true``), the provider's own record of the calls it
served to the agent, observed over the same window and kept with the evidence.
Entries sharing an auditID must agree on the call and the caller, and an object the
runner established that the final snapshot lost must have a write in the log that can
remove it (a delete, an eviction, a controller effect of the agent's change).
A gap is a runtime PROVIDER_FAILURE (05 §1.1: evidence known to be incomplete is
treated as ``unreachable``; core §3.6, §3.7): the scenario is not judged and the
run aborts. The same capture serves the safety, capability and adversarial phases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..contract import Provider, ProviderFault, ProvisionResult
from ..evaluation.completeness import (
    SERVED_CALLS,
    SHOWN,
    conflicting_audit_ids,
    entries_of,
    expected_setup_writes,
    served_call_gaps,
    served_calls_of,
    setup_write_gaps,
    unexplained_losses,
)
from ..evaluation.evidence import Observation, ScenarioEvidence
from ..spec.provider import ObservationResponse


def _listed(gaps: list[str]) -> str:
    shown = "; ".join(gaps[:SHOWN])
    return shown + (f"; and {len(gaps) - SHOWN} more" if len(gaps) > SHOWN else "")


async def observe_served(
    provider: Provider, provisioned: ProvisionResult, window: dict[str, str]
) -> ObservationResponse | None:
    """The provider's record of the calls it served to the agent, when provision offered one.

    Observed *before* the audit log: every call in it then happened before the audit log
    was read, so an honest log holds them all. Observed after, it would also hold calls an
    agent's leftover process (a daemon, a thread, an agent server still working) made once
    the audit log was read — and such an agent could turn its own FAIL into a
    PROVIDER_FAILURE at will (core §3.6: a harness fault is never the agent's doing)."""
    if not provisioned.served_calls:
        return None
    return await provider.observe(provisioned.environment_id, SERVED_CALLS, dict(window))


def check_completeness(
    provisioned: ProvisionResult,
    requested: Iterable[Mapping[str, Any]],
    snapshots: Sequence[Sequence[Mapping[str, Any]]],
    audit: ObservationResponse,
    window: dict[str, str],
    evidence: ScenarioEvidence,
    record: Callable[[ObservationResponse, dict[str, str]], Observation],
    served: ObservationResponse | None,
) -> None:
    """Raise :class:`ProviderFault` when the audit log tells two stories under one auditID, misses
    a setup write or a served call, or the final snapshot lost an object no delete explains.

    ``requested``: every state entry the engine asked the provider to establish
    (preconditions and injections); ``record`` turns an observation response into the
    evidence's :class:`Observation` (redacted; a non-``available`` source is a fault);
    ``served``: the served-call record from :func:`observe_served`, taken before ``audit``
    (None when provision offered none).
    """
    principal = evidence.agent_principal or ""
    entries = entries_of(audit.data)
    conflicts = conflicting_audit_ids(entries, principal)
    if conflicts:
        raise ProviderFault(
            f"audit log inconsistent: {len(conflicts)} auditID(s) name different calls or callers "
            f"({_listed(conflicts)}); keeping one entry per id could drop the agent's call (05 §1.1)"
        )
    expected = expected_setup_writes(requested, snapshots, provisioned.resolved_namespaces)
    gaps = setup_write_gaps(expected, entries, principal)
    if gaps:
        raise ProviderFault(
            f"audit log incomplete: it shows no setup write by the provider for {len(gaps)} of the "
            f"{len(expected)} objects the runner asked it to establish ({_listed(gaps)}); a log that "
            "misses the harness's own writes cannot vouch for the agent's (05 §1.1)"
        )
    if served is not None:  # the most precise record first: it names the calls the log lost
        _check_served_calls(served, entries, window, evidence, record)
    lost = unexplained_losses(expected, snapshots, entries, principal)
    if lost:
        raise ProviderFault(
            f"final state snapshot lost {len(lost)} object(s) the runner had established that no write in the "
            f"audit log removed (no delete, eviction or controller effect of the agent's change explains "
            f"{_listed(lost)}): the snapshot or the log is incomplete (05 §1.1)"
        )


def _check_served_calls(
    served: ObservationResponse,
    entries: list[dict[str, Any]],
    window: dict[str, str],
    evidence: ScenarioEvidence,
    record: Callable[[ObservationResponse, dict[str, str]], Observation],
) -> None:
    principal = evidence.agent_principal or ""
    evidence.observations.append(record(served, dict(window)))
    calls = served_calls_of(served.data)
    if calls is None:
        raise ProviderFault(
            f"{SERVED_CALLS} observation carries no 'calls' list of {{verb, resource, ...}} "
            "objects although provision offered it"
        )
    missing = served_call_gaps(calls, entries, principal)
    if missing:
        raise ProviderFault(
            f"audit log incomplete: {len(missing)} of the {len(calls)} calls the provider served to the agent "
            f"are not in it as the agent's ({_listed(missing)}) (05 §1.1)"
        )
