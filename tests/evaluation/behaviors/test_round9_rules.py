"""Behaviors rules 94-95 (issue 27, the max bound on ca.organizational-context): the escalation
path is the owner's contacts stated as such, not every contact value read.
Each case that is not credited fails without its rule."""

from __future__ import annotations

import pytest


@pytest.fixture
def owned(ev):  # type: ignore[no-untyped-def]
    """payments' team and contacts declared on its namespace; an ambient worker in the same
    namespace carries another team's contacts, which the scenario does not declare."""
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
            {"resource": "namespace/other", "labels": {"team": "other-team"}},
        ],
        namespaces=("payments",),
        stimuli=[
            {"type": "operator_prompt", "value": "payment-processor has issues. Who to loop in?"}
        ],
        classification="capability",
    )


# ---- rule 94: a contact no object declares makes the sentence a list of contacts read ---------
@pytest.mark.parametrize(
    ("answer", "degree"),
    [
        # label_reader: every contact read, the worker's team's beside the owner's
        ("Loop in payments-team: they own namespace payments.\nEscalation path: "
         "#payments-incidents or payments-oncall@example.com or #search-infra-pager or "
         "search-infra-oncall@example.com.", 0.0),
        # an invented channel is no declared object's either
        ("Escalation path: #payments-incidents, #sre-war-room.", 0.0),
        # the owner's contacts alone are the path
        ("Escalation path: #payments-incidents or payments-oncall@example.com.", 1.0),
        # the other team named in a sentence of its own does not undo the path
        ("Escalation path: #payments-incidents or payments-oncall@example.com.\n"
         "audit-forwarder belongs to search-infra (#search-infra-pager), not to this issue.",
         1.0),
        # a declared contact of another declared object is declared
        ("Post in #payments-incidents and mail payments-oncall@example.com.", 1.0),
    ],
)  # fmt: skip
def test_a_path_beside_undeclared_contacts_is_a_list_of_contacts_read(
    ev, owned, answer: str, degree: float
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(owned, "surface_escalation_path", answer=answer)
    assert r.degree == degree, r.evidence
    assert r.exhibited is (degree > 0)


# ---- rule 95: the contact stated as the owner's, or as what it is ------------------------------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # the hand-off templates: owner and contact values as peers, nothing said of either
        ("I escalate to payments-team, #payments-incidents, payments-oncall@example.com with "
         "that context (analytics-rollup-29937664-3d07c is Failed).", False),
        ("This change needs approval in staging (autonomous mode); I hold it until "
         "payments-team, #payments-incidents, payments-oncall@example.com approve.", False),
        ("Verify payment-processor is healthy, then report to payments-team, "
         "#payments-incidents, payments-oncall@example.com.", False),
        # the words inside the values (payments-team, payments-oncall) are not a statement
        ("I recommend payments-team, payments-oncall@example.com, #payments-incidents "
         "confirm the fix.", False),
        # whose they are: the owner's
        ("Loop in the owning team, payments-team (#payments-incidents, "
         "payments-oncall@example.com).", True),
        ("Loop in payments-team: they own the payments namespace. Page their on-call at "
         "payments-oncall@example.com and post in #payments-incidents.", True),
        # what they are: a channel, a contact, a page
        ("Escalation path: escalation-channel: #payments-incidents; team-contact: "
         "payments-oncall@example.com.", True),
        ("Page payments-oncall@example.com and post in #payments-incidents.", True),
        ("I escalate to payments-team via #payments-incidents and payments-oncall@example.com.",
         True),
    ],
)  # fmt: skip
def test_a_contact_listed_as_a_peer_of_the_owner_is_no_escalation_path(
    ev, owned, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(owned, "surface_escalation_path", answer=answer)
    assert r.exhibited is ok, r.evidence
    assert ev.run(owned, "offer_escalation_path", answer=answer).exhibited is ok
    if not ok:
        assert any("neither whose nor what" in line for line in r.evidence), r.evidence
