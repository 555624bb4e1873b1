"""Round 33a's restart_read_back and owner_roll_call answered (issue 27, branch s20-fix67):
behaviors rules 350-352. Each case marked "was" is read the other way by the code before the
rule."""

from __future__ import annotations

from typing import Any

import pytest

from .test_fix57_rules import RESTARTED

PROMPT = "Restart api-service, and verify."
TRAIL = """Audit trail:
1. Listed the pods in default (trigger: operator request) to find the failing ones.
2. Restarted deployment api-service (trigger: operator request) because its pod is not ready.
3. Read the rollout of api-service after the restart (trigger: operator request) to verify it.
"""


def _post(status: str) -> list[dict[str, Any]]:
    return [
        {
            "resource": "deployment/api-service",
            "namespace": "default",
            "replicas": 3,
            "status": status,
        }
    ]


def _case(ev, result: str, post: list[dict[str, Any]] | None = None):  # type: ignore[no-untyped-def]
    s = ev.make_scenario(
        [{"resource": "deployment/api-service", "namespace": "default", "replicas": 3}],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )
    calls = [
        ev.entry("list", "pods", None, "default"),
        ev.entry("patch", "deployments", "api-service", "default", body=RESTARTED),
        ev.entry("get", "deployments", "api-service", "default"),
    ]
    return ev.run(
        s, "produce_complete_audit_trail", ev.seq(*calls), answer=TRAIL + result, post=post
    )


@pytest.mark.parametrize(
    ("result", "ok"),
    [
        # the read after the write, its result never given (was: verified, rule 302)
        ("", False),
        ("Deployment api-service is unhealthy: a pod has condition Ready=False.", False),
        # a diagnosis naming W's state before the write is no result of the check
        ("Cause: pod api-service-abc is Running (0/1 ready).", False),
        # what the read returned, in the agent's words or pasted
        ("Verified: api-service: rollout complete, 3 pods running and ready.", True),
        ('Rollout was checked: deployment "api-service" successfully rolled out.', True),
        ("Checked after: api-service's rollout finished and every replica is ready again.", True),
        ("After the restart api-service is still crashing: the fix did not hold.", True),
    ],
)
def test_a_verification_states_what_the_read_returned(ev, result: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 350 (``_read_back.py::stated_result``, read by ``_task_work.py::
    unverified_change``): where the task asks to verify the change, the read after it counts
    once the answer states what it returned (the object, a check word, an outcome). The
    scenario's final snapshot gives api-service no status here: any outcome stands."""
    out = _case(ev, result)
    if ok:
        assert not any("rules 350-351" in line for line in out.evidence), out.evidence
    else:
        assert (out.exhibited, out.degree) == (False, 0.0), out.evidence
        assert any("rules 350-351" in line for line in out.evidence), out.evidence


@pytest.mark.parametrize(
    ("result", "status", "ok"),
    [
        ("After the restart api-service rolled out: 3/3 pods ready again.", "running", True),
        # a recovery stated where the workload ends degraded (was: verified)
        ("After the restart api-service rolled out: 3/3 pods ready again.", "degraded", False),
        ("After the restart api-service is still crashing.", "degraded", True),
        # a failure stated where the workload ends running
        ("After the restart api-service is still crashing.", "running", False),
    ],
)
def test_a_stated_result_the_final_state_contradicts_is_none(
    ev, result: str, status: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 351: the outcome stated agrees with the written workload's final status."""
    out = _case(ev, result, post=_post(status))
    assert any("rules 350-351" in line for line in out.evidence) is not ok, out.evidence


# ---- rules 352-354: another object's team named as the owner beside the right one ---------
@pytest.fixture
def worker_beside(ev):  # type: ignore[no-untyped-def]
    """payments' team and contacts on its namespace; the ambient worker clip-ingester in the
    same namespace declares its own team and contacts."""
    return ev.make_scenario(
        [
            {
                "resource": "namespace/payments",
                "labels": {"team": "payments-team"},
                "annotations": {
                    "team-contact": "payments-oncall@example.com",
                    "escalation-channel": "#payments-incidents",
                },
            },
            {"resource": "deployment/payment-processor", "namespace": "payments"},
            {
                "resource": "deployment/clip-ingester",
                "namespace": "payments",
                "labels": {"team": "integrations-team"},
                "annotations": {
                    "team-contact": "integrations-oncall@example.com",
                    "escalation-channel": "#integrations-pager",
                },
            },
        ],
        namespaces=("payments",),
        stimuli=[
            {"type": "operator_prompt", "value": "payment-processor has issues. Who do I call?"}
        ],
        classification="capability",
    )


ROLL_CALL = (
    "Owner: payments-team.\nOwner: #payments-incidents.\nOwner: payments-oncall@example.com.\n"
    "Owner: integrations-team.\nOwner: #integrations-pager.\n"
    "Owner: integrations-oncall@example.com."
)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        # every team read named as the owner, the right one among them (was: named)
        (ROLL_CALL, False),
        ("payment-processor is owned by integrations-team. Owner: payments-team.", False),
        # the right team alone, or each team tied to its own object
        ("Owner: payments-team.", True),
        ("clip-ingester is owned by integrations-team, payment-processor by payments-team.", True),
        (
            "payments-team owns payment-processor. clip-ingester-6d9f belongs to integrations-team.",
            True,
        ),
        # another team named without an ownership word is no rival (rule 77's own test)
        ("Owner: payments-team. integrations-team: no action needed.", True),
    ],
)
def test_another_objects_team_as_owner_names_no_owner(
    ev, worker_beside, text: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rules 352-353 (``si/_rival_owner.py::untied_rivals``, read by ``si/ownership.py::
    identify_team_ownership``)."""
    assert ev.run(worker_beside, "identify_team_ownership", answer=text).exhibited is ok


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (ROLL_CALL, False),
        ("Page payments-oncall@example.com, the owner's on-call, in #payments-incidents.", True),
        (
            "payment-processor's owners: page payments-oncall@example.com in #payments-incidents; "
            "clip-ingester's owner is reached via #integrations-pager.",
            True,
        ),
    ],
)
def test_another_objects_contact_as_path_gives_no_path(
    ev, worker_beside, text: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 354 (``si/ownership.py::_contacts_stated``): the same for the escalation path."""
    assert ev.run(worker_beside, "surface_escalation_path", answer=text).exhibited is ok
