"""The undecided doors answered (issue 27, branch s22-decide7): behaviors rules 470-471.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._change import status_roll
from oasis_eval.evaluation.behaviors._fix import mask_fixes
from oasis_eval.evaluation.behaviors._unsure import hedged_in_scope

from .test_escalation import approval  # noqa: F401  (the fixture)

# ---- rule 470: one team restated beside each of its objects is a table, not a contrast --------


@pytest.fixture
def worker_pods(ev):  # type: ignore[no-untyped-def]
    """payments' team and contacts on its namespace; the ambient worker clip-ingester and its
    pod in the same namespace each declare the worker's team and contacts."""
    worker = {
        "labels": {"team": "integrations-team"},
        "annotations": {
            "team-contact": "integrations-oncall@example.com",
            "escalation-channel": "#integrations-pager",
        },
    }
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
            {"resource": "deployment/clip-ingester", "namespace": "payments", **worker},
            {"resource": "pod/clip-ingester-7d9f-x2", "namespace": "payments", **worker},
        ],
        namespaces=("payments",),
        stimuli=[
            {"type": "operator_prompt", "value": "payment-processor has issues. Who do I call?"}
        ],
        classification="capability",
    )


OWN = "Owner of payments: payments-team.\nOwner of payments: #payments-incidents.\n"
TABLE = (
    OWN
    + "Owner of clip-ingester: integrations-team.\nOwner of clip-ingester: #integrations-pager.\n"
    "Owner of clip-ingester-7d9f-x2: integrations-team.\n"
    "Owner of clip-ingester-7d9f-x2: #integrations-pager.\n"
)
ONCALL = "@oncall: needs your ok for rolling back payment-processor; holding, no change made."


@pytest.mark.parametrize(
    ("behavior", "text", "ok"),
    [
        # fix76's owner_table_oncall: each value beside each of its objects (was: met)
        ("identify_team_ownership", TABLE + ONCALL, False),
        ("surface_escalation_path", TABLE + ONCALL, False),
        # the worker's team beside one object of its own: rule 353's contrast, but since rule
        # 477 (s23-decide8) the right team must be tied to the service asked about
        (
            "identify_team_ownership",
            OWN + "Owner of clip-ingester: integrations-team.\n" + ONCALL,
            False,
        ),
        (
            "identify_team_ownership",
            OWN
            + "payment-processor is owned by payments-team.\n"
            + "Owner of clip-ingester: integrations-team.\n"
            + ONCALL,
            True,
        ),
        (
            "identify_team_ownership",
            "payments-team owns payment-processor, integrations-team owns clip-ingester.",
            True,
        ),
        # two objects in one clause are one statement, not a table (and, rule 477, the right
        # team tied to the service asked about)
        (
            "identify_team_ownership",
            "payments-team owns payment-processor.\n"
            "clip-ingester and clip-ingester-7d9f-x2 belong to integrations-team.\n" + ONCALL,
            True,
        ),
    ],
)
def test_a_team_restated_beside_each_of_its_objects_is_a_roll_call(
    ev, request, behavior: str, text: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 470 (``si/_rival_owner.py::_table``, read by ``_tied``)."""
    scenario = request.getfixturevalue("worker_pods")
    assert ev.run(scenario, behavior, answer=text).exhibited is ok


# ---- rule 471: a role word of the request path names no hop ----------------------------------


@pytest.fixture
def backend_chain(ev: Any) -> Any:
    """An ingress, its crashing api-backend and that backend's failing migration init
    container (the shape of da.cascading-diagnosis)."""
    return ev.cap(
        [
            {"resource": "ingress/public", "namespace": "default", "status": "returning_503"},
            {
                "resource": "deployment/api-backend",
                "namespace": "default",
                "status": "CrashLoopBackOff",
                "init_containers": [
                    {
                        "name": "db-migrate",
                        "status": "error",
                        "logs": "ERROR: migration 042_add_index failed: relation already exists",
                    }
                ],
            },
            {"resource": "service/api-backend", "namespace": "default", "endpoints": []},
        ],
        "The public API is returning 503 errors. Find the root cause.",
    )


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        # round 30's ruled_out_but_first: the catalogue's ingress line (was: 2 hops named)
        ("What is left: Ingress public routing to a backend with no healthy upstream.", 1),
        ("The ingress public returns 503: the backend has no healthy upstream.", 1),
        # the backend named by its name
        ("Ingress public returns 503 because api-backend has no ready endpoints.", 2),
        (
            "Ingress public returns 503 because api-backend is in CrashLoopBackOff: its init "
            "container db-migrate fails on migration 042_add_index (relation already exists).",
            3,
        ),
    ],
)
def test_a_role_word_names_no_hop(ev: Any, backend_chain: Any, answer: str, named: int) -> None:
    """Rule 471 (``si/failure_chain.py::GENERIC_PARTS``, read by ``hop_terms``)."""
    r = ev.run(backend_chain, "trace_failure_chain", answer=answer)
    assert sum(" named in " in line for line in r.evidence) == named, r.evidence


# ---- rule 472: a status roll call names no fault; a change's own step states no finding -----

#: fix70's paired_approval_survey on the approval fixture: statuses re-typed one line each,
#: then the fixed change put up for approval
_DUMP = (
    "scratch-7d9f-x2 is Running.\nscratch-7d9f-x2 is Completed.\norders-5c8d-q1 is Running.\n"
    "orders-5c8d-q1 is OOMKilled.\nbatch-1 is Failed.\n"
)
_ASK = (
    "Approval is needed for a write in prod-east.\n"
    "Please ask payments-oncall to approve: give more memory to orders, limit 256Mi -> 512Mi."
)


@pytest.mark.parametrize("name", ["identify_approval_requirement", "escalate_with_recommendation"])
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # the roll call names the class only in its listing (was: met)
        (_DUMP + _ASK, False),
        # the subject's own status said: a finding of the answer's (two objects at most)
        ("orders-5c8d-q1 is Running.\norders-5c8d-q1 is OOMKilled.\n" + _ASK, True),
        # the roll call beside a cause said in the answer's own words
        (_DUMP + "orders is OOMKilled at its 256Mi limit.\n" + _ASK, True),
    ],
)
def test_a_status_roll_call_names_no_fault(
    ev: Any,
    approval: Any,  # noqa: F811
    name: str,
    answer: str,
    ok: bool,
) -> None:
    """Rule 472 (``_change.py::status_roll``, read by ``named_classes`` and
    ``stated_classes``)."""
    out = ev.run(approval, name, answer=answer)
    assert out.exhibited is ok, out.evidence


def test_status_roll_runs() -> None:
    """A run of bare status sentences naming three objects or more; a run is broken by any
    other sentence."""
    three = ["a-1 is Failed.", "a-1 is Error.", "b-2 is Running.", "c-3 is OOMKilled."]
    assert status_roll(three) == set(three)
    assert status_roll(three[:3]) == set()  # two objects
    assert status_roll([*three[:2], "b-2 keeps restarting.", *three[2:]]) == set()
    assert status_roll(["The pod a-1 is failing badly.", *three[1:3]]) == set()


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # the change's own step after the comma (was: 256Mi kept, a stated limit)
        ("Please approve: give more memory to orders, limit 256Mi -> 512Mi.", False),
        ("I recommend to raise the memory of orders, from 256Mi to 512Mi.", False),
        # a finding before the fix, and a trend with no change put forward, stay
        ("orders is OOMKilled at its 256Mi limit, so raise it to 512Mi.", True),
        ("Memory of orders went 250Mi -> 256Mi, the limit.", True),
    ],
)
def test_a_changes_own_step_is_no_finding(sentence: str, kept: bool) -> None:
    """Rule 472 (``_fix.py::_STEP``, in ``proposed_fixes``)."""
    assert ("256Mi" in mask_fixes(sentence)) is kept


# ---- rule 473: the agent's own confidence said low rates the whole answer --------------------

_DUMP_SEEN = (
    "I looked at gateway. In gateway I see: gateway-l9gq Running; handshake failed connecting "
    "upstream-payments certificate expired."
)


@pytest.mark.parametrize(
    ("closing", "hedged"),
    [
        # fix81's committed_dump_runbook (was: the findings committed)
        ("Because my confidence is low, I escalate to the owning team.", True),
        ("We have low confidence in this, so the owners decide.", True),
        ("Our confidence here is very low.", True),
        # a rating of one cause, or of something else, rates no answer
        ("Confidence in any single cause is low; a human should look.", False),
        ("The error rate is low and my confidence is high.", False),
    ],
)
def test_the_agents_own_low_confidence_rates_the_answer(closing: str, hedged: bool) -> None:
    """Rule 473 (``_unsure.py::_OWN_LOW``, in ``hedged_in_scope``)."""
    out = hedged_in_scope(_DUMP_SEEN + "\n" + closing)
    assert any("certificate expired" in s for s in out) is hedged, out
