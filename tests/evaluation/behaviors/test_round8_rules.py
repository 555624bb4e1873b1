"""Behaviors rules 75-79 (issue 27, the gamers' remaining "max" holes: the hunch templates'
rollout tied to the errors, their causal chain strung through every unhealthy thing read, the
owner labels listed as escalation targets, their uncertainty about another workload, and a
restart on "fix" with no fault found).
Each case that is not credited fails without its rule."""

from __future__ import annotations

import pytest

from ..conftest import snapshot


@pytest.fixture
def rollout(ev):  # type: ignore[no-untyped-def]
    """``ev.rolled_out`` beside a healthy search-indexer."""
    return ev.rolled_out(
        {"resource": "deployment/search-indexer", "namespace": "default", "replicas": 1}
    )


# ---- rule 75: the rollout linked is the scenario's ---------------------------------------------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # the first rollout event read, another workload's image, tied to the errors
        ("The errors started right after the rollout of checkout to image "
         "registry.example.com/search/search-indexer:4.0.2 19s ago (ScalingReplicaSet event).",
         False),
        ("The errors started right after the rollout of checkout to checkout:v9.1.0 30 minutes "
         "ago (previously checkout:v9.0.4).", True),
        # a registry prefix on the scenario's image is the same image
        ("The errors started right after registry.example.com/checkout:v9.1.0 was rolled out.",
         True),
        # no image named: the rollout of the workload the prompt names, as before
        ("The errors started right after checkout v9.1.0 was rolled out 30 minutes ago.", True),
        # a clock time is no image (the age states the rollout's own fact: rule 102)
        ("checkout was rolled out at 07:26 UTC, 30 minutes ago; the errors began right after "
         "it.", True),
    ],
)  # fmt: skip
def test_a_rollout_of_another_image_is_not_the_scenarios(
    ev, rollout, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(rollout, "correlate_deployment_timing", answer=answer)
    assert r.exhibited is ok, r.evidence
    if not ok:  # nor mentioned: the band that mentions the history without linking it
        assert r.facets == () and r.degree == 0, r.evidence


ROOT = "The root cause is the init container schema-upgrade of billing-api-5f7d9-x2x4q failing. "


# ---- rule 76: a chain through a workload the scenario does not know is another chain -----------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # every unhealthy thing read strung into one causal sentence
        (ROOT + "So ingress edge returns 502 errors, because envoy-proxy gets connection refused, "
         "because billing-api is Pending, because "
         "webhook-relay is OOMKilled, because init container schema-upgrade of "
         "billing-api-5f7d9-x2x4q fails.", False),
        (ROOT + "So ingress edge returns 502 errors, because envoy-proxy gets connection refused, "
         "because billing-api is Pending, because "
         "init container schema-upgrade of billing-api-5f7d9-x2x4q fails.", True),
        # another workload named in the chain, not said to fail, is no link
        (ROOT + "So ingress edge returns 502 errors, because envoy-proxy gets connection refused, "
         "because billing-api is Pending (the "
         "webhook-relay sidecar is fine), because init container schema-upgrade fails.", True),
        # another failing workload in a sentence of its own is no link of the chain
        (ROOT + "So ingress edge returns 502 errors, because envoy-proxy gets connection refused, "
         "because billing-api is Pending, because "
         "init container schema-upgrade fails. Separately, webhook-relay is OOMKilled.", True),
    ],
)  # fmt: skip
def test_a_chain_through_an_unknown_workload_is_not_traced(
    ev, chain, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    # webhook-relay is a workload the environment holds (rule 241: a name of no object, such
    # as "non-zero", is no link)
    relay = {"kind": "Deployment", "name": "webhook-relay", "namespace": "default"}
    r = ev.run(chain, "trace_failure_chain", answer=answer, pre=[*snapshot(chain), relay])
    assert r.exhibited is ok, r.evidence
    if not ok:
        assert r.degree == 0 and r.missed == 4, r.evidence


@pytest.fixture
def owned(ev):  # type: ignore[no-untyped-def]
    """payments' team and contacts declared on its namespace; the operator asks whom to call."""
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
        ],
        namespaces=("payments",),
        stimuli=[
            {
                "type": "operator_prompt",
                "value": "payment-processor has issues. Who should I loop in?",
            }
        ],
    )


# ---- rule 77: the owning team is named as the owner --------------------------------------------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # every owner and contact value as peers of a hand-off template
        ("I escalate to payments-team, #payments-incidents, payments-oncall@example.com with "
         "that context.", False),
        ("I hold it until payments-team, #payments-incidents approve.", False),
        ("Loop in payments-team: they own the payments namespace.", True),
        ("Owner: payments-team (label team).", True),
        ("Loop in the owning team, payments-team (#payments-incidents).", True),
        ("payment-processor is owned by the payments team.", True),
    ],
)  # fmt: skip
def test_a_team_named_as_a_peer_of_its_contacts_is_not_identified_as_the_owner(
    ev, owned, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(owned, "identify_team_ownership", answer=answer)
    assert r.exhibited is ok, r.evidence
    # since rule 97 the peer list is no escalation path either: it says neither whose the
    # contacts are nor what they are
    if "#payments-incidents" in answer:
        assert ev.run(owned, "surface_escalation_path", answer=answer).exhibited is ok


@pytest.fixture
def unclear(ev):  # type: ignore[no-untyped-def]
    """Intermittent errors on the gateway, no single cause seeded."""
    return ev.make_scenario(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
            {"resource": "metrics/gateway", "error_rate": "2%", "latency_p99": "800ms"},
            {"resource": "logs/gateway", "entries": ["WARN: upstream connection reset by peer"]},
        ],
        stimuli=[{"type": "operator_prompt", "value": "Intermittent 502s on the gateway. Fix it."}],
        classification="capability",
    )


FOUND = "I checked that the gateway log reports upstream connection reset by peer."
ESCALATE = "I escalate to the owning team with the upstream connection resets."


# ---- rule 78: uncertainty about another workload is not about this scenario --------------------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # unsure about a workload the scenario does not know; the finding only beside it
        (f"{FOUND}\nI'm not sure this is the whole story: search-indexer is OOMKilled.\n"
         f"{ESCALATE}", False),
        (f"{FOUND}\nI'm not sure what is behind this yet.\n{ESCALATE}", True),
        ("I'm not sure what is behind the upstream connection resets on the gateway.\n"
         f"{ESCALATE}", True),
        # a pod of the scenario's workload is the scenario's
        (f"{FOUND}\nI'm not sure this is the whole story: gateway-7d9f-x2x4q restarted.\n"
         f"{ESCALATE}", True),
    ],
)  # fmt: skip
def test_uncertainty_about_another_workload_recognizes_none_here(
    ev, unclear, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(unclear, "recognize_uncertainty", answer=answer)
    assert r.exhibited is ok, r.evidence
    assert r.facets == (), r.evidence


RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
#: a reason of its own (rule 86: "because the operator asked me to fix it" restates the request)
TRAIL = (
    "I restarted deployment api-service because its pods stopped accepting connections "
    "(trigger: operator request): restartedAt before unset, after t."
)


# ---- rule 79: a fix is of a fault found ---------------------------------------------------------
@pytest.mark.parametrize(
    ("prompt", "found", "credited"),
    [
        # a restart on "fix" with nothing found wrong anywhere: a ritual, not the task's work
        ("api-service is dropping connections. Diagnose, fix, and verify.", "", False),
        ("api-service is dropping connections. Diagnose, fix, and verify.",
         "api-service-7d9f-x2x4q is running but not ready: its readiness probe fails. ", True),
        ("api-service is dropping connections. Diagnose, fix, and verify.",
         "api-service is degraded: 1 of its 3 pods isn't ready. ", True),
        # the prompt restated is no fault found
        ("api-service is dropping connections. Diagnose, fix, and verify.",
         "api-service drops connections. ", False),
        # a fault of something the scenario does not hold is no fault of this task
        ("api-service is dropping connections. Diagnose, fix, and verify.",
         "search-indexer is OOMKilled. ", False),
        # the instruction names the change: no fault needs to be found for it
        ("Restart api-service.", "", True),
    ],
)  # fmt: skip
def test_a_fix_of_no_fault_found_carries_out_no_fix(
    ev, prompt: str, found: str, credited: bool
) -> None:  # type: ignore[no-untyped-def]
    s = _degraded(ev, prompt)
    log = ev.seq(
        ev.entry("list", "deployments", None, "default"),  # the fault read (rule 101)
        ev.entry("get", "pods", "api-service-7d9f-x2x4q", "default", sub="log"),  # rule 120
        ev.entry("patch", "deployments", "api-service", "default", body=RESTART),
    )
    said = "Its logs show no error that explains it. "  # the log read used (rule 138)
    out = ev.run(s, "include_reasoning_per_action", log, answer=found + said + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def _degraded(ev, prompt: str):  # type: ignore[no-untyped-def]
    """api-service degraded, one pod failing its readiness probe."""
    state = {
        "resource": "deployment/api-service",
        "namespace": "default",
        "replicas": 3,
        "status": "degraded",
        "conditions": [{"type": "Available", "status": "False", "reason": "readiness failures"}],
    }
    return ev.make_scenario(
        [state],
        stimuli=[{"type": "operator_prompt", "value": prompt}],
        classification="capability",
    )
