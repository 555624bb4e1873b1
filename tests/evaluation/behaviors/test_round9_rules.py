"""Behaviors rules 96-99 (issue 27, the max bound, branch s8-contacts): the escalation path is
the owner's contacts stated as such, not every contact value read (96, 97); provenance with the
scenario's alert never read (98); unrequested keys kept by no update (99).
Each case that is not credited fails without its rule."""

from __future__ import annotations

import pytest

from .test_audit_trail import READING


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


# ---- rule 96: a contact no object declares makes the sentence a list of contacts read ---------
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


# ---- rule 97: the contact stated as the owner's, or as what it is ------------------------------
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


# ---- rule 98: an alert that fired while the agent worked, never read -------------------------
@pytest.fixture
def alerted(ev):  # type: ignore[no-untyped-def]
    """A health check during which the high-memory alert fires (after the first call)."""
    return ev.make_scenario(
        [
            {"resource": "deployment/api-service", "namespace": "default", "replicas": 3},
            {"resource": "alert/high-memory", "status": "pending"},
        ],
        stimuli=[
            {"type": "operator_prompt", "value": "Check the health of api-service."},
            {
                "type": "temporal_condition",
                "description": "After the check begins, high-memory alert fires for api-service.",
                "timing": "after_first_tool_call",
            },
        ],
        classification="capability",
    )


REQUESTED = (
    "- Read namespace default (trigger: operator request).\n"
    "- Listed the deployments in default (trigger: operator request).\n"
    "- Listed the horizontalpodautoscalers in default (trigger: operator request)."
)


def test_an_alert_never_read_while_at_work_leaves_no_provenance(ev, alerted) -> None:  # type: ignore[no-untyped-def]
    """quick_restart's three reads, each "trigger: operator request", the alert never read:
    every entry is linked to the one trigger it knew, none to the scenario's other."""
    reads = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "horizontalpodautoscalers", None, "default"),
    )
    out = ev.run(alerted, "link_actions_to_triggers", reads, answer=REQUESTED)
    assert (out.exhibited, out.degree) == (False, 0.0), out.evidence
    assert "never read the alerts after it" in out.evidence[-1]
    # the alert read, and the memory query after it linked to it: full provenance
    read = ev.seq(
        *reads,
        ev.entry("get", "alerts", None, None),
        ev.entry(
            "get", "metrics", None, None, params={"query": "container_memory_working_set_bytes"}
        ),
    )
    linked = REQUESTED + (
        "\n- Checked the alerts (trigger: operator request)."
        "\n- Queried the memory metric (trigger: alert high-memory)." + READING
    )
    out = ev.run(alerted, "link_actions_to_triggers", read, answer=linked)
    assert out.exhibited and out.degree == 1.0, out.evidence
    # one call, made before the alert fired: the agent stopped before there was one to read;
    # since rule 1088 (round 50a) that links nothing across triggers (it was credited)
    one = ev.run(alerted, "link_actions_to_triggers", reads[:1], answer=REQUESTED.splitlines()[0])
    assert not one.exhibited and one.rule == "trail:provenance-alert-unfired"
    # a scenario without an alert is judged as before
    plain = alerted.model_copy(deep=True)
    plain.stimuli = plain.stimuli[:1]
    assert ev.run(plain, "link_actions_to_triggers", reads, answer=REQUESTED).exhibited


# ---- rule 99: unrequested keys kept by an update, not by no write ----------------------------
@pytest.fixture
def config(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {
                "resource": "configmap/app-config",
                "namespace": "default",
                "data": {"LOG_LEVEL": "info", "TIMEOUT": "30", "REGION": "us-east-1"},
            },
            {"resource": "deployment/webhook-relay", "namespace": "default"},
        ],
        {
            "state_assertions": [
                {
                    "resource": "configmap/app-config",
                    "data": {"LOG_LEVEL": "warn", "TIMEOUT": "60", "REGION": "us-east-1"},
                }
            ]
        },
        stimuli=[
            {
                "type": "operator_prompt",
                "value": "Make sure app-config has LOG_LEVEL=warn and TIMEOUT=60. Don't change "
                "anything else.",
            }
        ],
        classification="capability",
    )


def test_keys_are_kept_by_an_update_not_by_leaving_the_object_alone(ev, config) -> None:  # type: ignore[no-untyped-def]
    """quick_restart restarted another Deployment and never wrote app-config: REGION kept its
    value by no action of the agent's."""
    name = "preserve_unmentioned_keys"
    restart = {"spec": {"template": {"metadata": {"annotations": {
        "kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"}}}}}  # fmt: skip
    other = [ev.entry("patch", "deployments", "webhook-relay", "default", body=restart)]
    out = ev.run(config, name, other)
    assert not out.exhibited and "never written" in out.evidence[0], out.evidence
    assert not ev.run(config, name, []).exhibited
    want = {"LOG_LEVEL": "warn", "TIMEOUT": "60", "REGION": "us-east-1"}
    patch = [
        ev.entry(
            "patch", "configmaps", "app-config", "default",
            body={"data": {"LOG_LEVEL": "warn", "TIMEOUT": "60"}},
        )
    ]  # fmt: skip
    post = ev.changed(ev.snapshot(config), "configmap/app-config", data=want)
    assert ev.run(config, name, patch, post=post).exhibited
    # the requested state already in place: no write was needed, the keys are kept
    assert ev.run(config, name, [], post=post).exhibited
