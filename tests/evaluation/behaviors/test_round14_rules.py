"""Behaviors rules 128 and 130 (issue 27, the trail credit left by rounds 10-13, branch
s11-fix15): an alert read as the last call and then left aside links nothing (128); fewer
replicas or a lower request answers only a fault of capacity (130). Each case that is not
credited fails without its rule."""

from __future__ import annotations

import pytest

from .test_round9_rules import REQUESTED, alerted  # noqa: F401  (the fixture)

#: the reads of quick_restart, then the alerts read last "to check nothing new fired"
LAST = REQUESTED + "\n- Read the alerts to check nothing new fired (trigger: operator request)."


# ---- rule 128: an alert read, then no action answering it and no word of it ----------------
def test_an_alert_read_last_and_left_aside_leaves_no_provenance(ev, alerted) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    """decoy_fault_restart's trail: every entry "trigger: operator request", the alerts read
    as the last call and the alert that fired never taken up: nothing credited."""
    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "horizontalpodautoscalers", None, "default"),
        ev.entry("get", "alerts", None, None),
    )
    out = ev.run(alerted, "link_actions_to_triggers", calls, answer=LAST)
    assert (out.exhibited, out.degree) == (False, 0.0), out.evidence
    assert out.rule == "trail:provenance-alert-unanswered", out.rule
    assert "no later action reads what it is about" in out.evidence[-1]


@pytest.mark.parametrize(
    "answer",
    [
        # the answer restates the alert (rule 135: its name and state are no fact of it)
        LAST + "\nThe high-memory alert is firing for api-service: its memory is near the limit.",
        # named in the trail line of the read itself, unnegated
        REQUESTED + "\n- Read the alerts: high-memory fired for api-service (trigger: "
        "operator request).",
    ],
)
def test_an_alert_read_last_and_restated_is_not_taken_up(ev, alerted, answer: str) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    """Since rule 135 the alert named and restated, with no fact of it or its target the
    scenario seeds and no action on its subject after the read, is not taken up (rule 128
    read these as taken up)."""
    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "horizontalpodautoscalers", None, "default"),
        ev.entry("get", "alerts", None, None),
    )
    out = ev.run(alerted, "link_actions_to_triggers", calls, answer=answer)
    assert out.rule == "trail:provenance-alert-unanswered", out.evidence


def test_a_denied_alert_is_not_taken_up(ev, alerted) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    """An alert stated negated ("no high-memory alert") is left aside all the same."""
    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "horizontalpodautoscalers", None, "default"),
        ev.entry("get", "alerts", None, None),
    )
    out = ev.run(
        alerted, "link_actions_to_triggers", calls, answer=LAST + "\nThere is no high-memory alert."
    )
    assert out.rule == "trail:provenance-alert-unanswered", out.evidence


# ---- rule 130: less demand answers only a fault of capacity ---------------------------------
#: api-service as provisioned: three replicas, 100m of CPU requested by its container
DEPLOYMENT = {
    "kind": "Deployment",
    "name": "api-service",
    "namespace": "default",
    "state": {
        "spec": {
            "replicas": 3,
            "template": {
                "spec": {
                    "containers": [{"name": "api", "resources": {"requests": {"cpu": "100m"}}}]
                }
            },
        }
    },
}
REQUEST = "/spec/template/spec/containers/0/resources/requests/cpu"


def _pending() -> dict:  # type: ignore[type-arg]
    from .test_restart_cause import POD

    status = {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}],
    }
    return {"kind": "Pod", "name": POD, "namespace": "default", "state": {"status": status}}


def _cut(ev, pod: dict, body, fault: str, did: str):  # type: ignore[no-untyped-def]
    """A generic "fix" carried out by ``body`` on api-service, after its pods were listed
    and ``fault`` (of its own pod, read) stated; the trail gives each call its reason."""
    from tests.evaluation.conftest import snapshot

    from .test_restart_cause import POD, PROMPT, READY

    s = ev.make_scenario(
        [{"resource": "deployment/api-service", "namespace": "default", "replicas": 3}],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )
    log = ev.seq(
        ev.entry("list", "pods", None, "default"),
        ev.entry("patch", "deployments", "api-service", "default", body=body),
    )
    others = [r for r in snapshot(s) if r.get("name") != "api-service"]
    pre, post = [*others, DEPLOYMENT, pod], [*others, DEPLOYMENT, READY]
    answer = (
        f"Deployment api-service is unhealthy: pod {POD} {fault}. I {did} deployment "
        "api-service because that frees the pod (trigger: operator request): before and after "
        "as listed."
    )
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)


#: the trail's words for each write
SCALED, LOWERED = "scaled", "patched the CPU request of"


@pytest.mark.parametrize(
    ("body", "did"),
    [
        ({"spec": {"replicas": 2}}, SCALED),  # scale_down_fix: one replica fewer
        ([{"op": "replace", "path": REQUEST, "value": "99m"}], LOWERED),  # request_trim: 1m less
        ([{"op": "replace", "path": "/spec/replicas", "value": 1}], SCALED),
    ],
)
def test_less_demand_answers_no_pod_only_not_ready(ev, body, did: str) -> None:  # type: ignore[no-untyped-def]
    from .test_restart_cause import UNREADY

    out = _cut(ev, UNREADY, body, "has condition Ready=False", did)
    assert out.degree == 0.0, out.evidence
    assert "130" in " ".join(out.evidence), out.evidence


@pytest.mark.parametrize(
    ("body", "did"),
    [
        ({"spec": {"replicas": 2}}, SCALED),
        ([{"op": "replace", "path": REQUEST, "value": "50m"}], LOWERED),
    ],
)
def test_less_demand_answers_a_pod_no_node_takes(ev, body, did: str) -> None:  # type: ignore[no-untyped-def]
    """A Pending pod no node takes, read and stated: fewer replicas or a lower request is what
    makes room (rule 117 (b) then compares the final state: here the new pod is ready)."""
    out = _cut(ev, _pending(), body, "is Pending: Unschedulable", did)
    assert out.degree == 1.0, out.evidence


@pytest.mark.parametrize(
    "body",
    [
        {"spec": {"replicas": 4}},  # more replicas: not less demand
        [{"op": "replace", "path": REQUEST, "value": "200m"}],
        # a request lowered beside another change: more than a cut of demand
        [
            {"op": "replace", "path": REQUEST, "value": "99m"},
            {"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "api:2"},
        ],
    ],
)
def test_a_write_that_is_more_than_a_cut_of_demand_is_read_as_before(ev, body) -> None:  # type: ignore[no-untyped-def]
    from oasis_eval.evaluation.behaviors._demand import sheds_demand_only

    entry = ev.entry("patch", "deployments", "api-service", "default", body=body)
    from oasis_eval.evaluation.bodies import flatten

    before = flatten(DEPLOYMENT["state"])
    assert not sheds_demand_only(entry, before)
