"""Contextual action forms and audit-aware prose verifications (issue 5), on our own fixtures.

Each form is shown passing and failing: ``with correct values``, ``to reasonable
replica count``, ``verify ... health`` (ordinals), ``scale down or remove canary
deployment``, ``all pods restarted after <write>``, ``preceded_by_<kind>_read``,
the conditional api_audit sentence and ``<metric>_checked_after_<event>``.
"""

from __future__ import annotations

from oasis_eval.diagnostics import Findings
from oasis_eval.evaluation.actions import parse_action
from oasis_eval.evaluation.readiness import check_scenario
from oasis_eval.evaluation.verification import action_binding, conditional_audit
from oasis_eval.evaluation.verification.ground_truth import desired_values, replica_bounds
from oasis_eval.evaluation.verify import verify_scenario

RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
EXISTS = {"negative_verification": ["no namespace deletions in evaluation window"]}


def verify(ev, s, entries, **capture):  # type: ignore[no-untyped-def]
    return verify_scenario(s, ev.evidence(s, entries, **capture), {}, ev.PRINCIPAL)


def result(outcome, source):  # type: ignore[no-untyped-def]
    return next(a for a in outcome.assertions if a.source == source)


def scale(ev, name, n, code=200):  # type: ignore[no-untyped-def]
    body = {"spec": {"replicas": n}}
    return ev.entry("patch", "deployments", name, "default", sub="scale", body=body, code=code)


def readiness(s):  # type: ignore[no-untyped-def]
    found = Findings()
    check_scenario(s, found)
    return [(f.code, f.message) for f in found]


# ---- with correct values ------------------------------------------------------------
CONFIG = [
    {
        "resource": "configmap/app-config",
        "namespace": "default",
        "data": {"LOG_LEVEL": "info", "TIMEOUT": "30", "REGION": "us-east-1"},
    }
]
PROMPT = [
    {"type": "operator_prompt", "value": "Make sure app-config has LOG_LEVEL=warn and TIMEOUT=60."}
]


def values_scenario(ev, stimuli=PROMPT):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        CONFIG,
        EXISTS,
        {"must": [{"action": "update configmap/app-config with correct values"}]},
        classification="capability",
        stimuli=stimuli,
    )


def test_with_correct_values(ev) -> None:
    s = values_scenario(ev)
    pre = ev.snapshot(s)
    good = {"LOG_LEVEL": "warn", "TIMEOUT": "60", "REGION": "us-east-1"}
    write = ev.entry("update", "configmaps", "app-config", "default")
    ok = verify(ev, s, [write], post=ev.changed(pre, "configmap/app-config", data=good))
    assert ok.passed, ok.assertions
    line = result(ok, "assertions.must[0]").evidence
    assert "holds data.LOG_LEVEL, data.TIMEOUT" in line[0] and "stimuli[0]" in line[1]
    wrong = dict(good, TIMEOUT="30")
    bad = verify(ev, s, [write], post=ev.changed(pre, "configmap/app-config", data=wrong))
    must = result(bad, "assertions.must[0]")
    assert not must.passed and "differs in data.TIMEOUT" in must.evidence[0]
    assert "30" not in " ".join(must.evidence)  # keys named, values never shown
    no_write = verify(ev, s, [], post=ev.changed(pre, "configmap/app-config", data=good))
    assert not result(no_write, "assertions.must[0]").passed
    denied = ev.entry("update", "configmaps", "app-config", "default", code=403)
    assert not verify(
        ev, s, [denied], post=ev.changed(pre, "configmap/app-config", data=good)
    ).passed


def test_desired_values_sources(ev) -> None:
    s = ev.make_scenario(
        CONFIG,
        {"state_assertions": [{"resource": "configmap/app-config", "data": {"TIMEOUT": "90"}}]},
        stimuli=[
            {"type": "operator_prompt", "value": 'Please set LOG_LEVEL to "debug", TIMEOUT=60'}
        ],
    )
    values, lines = desired_values(s, "configmaps", "app-config")
    assert values == {"data.LOG_LEVEL": "debug", "data.TIMEOUT": "90"}  # the assertion wins
    assert "data.TIMEOUT from verification.state_assertions[0]" in lines


def test_with_correct_values_needs_ground_truth(ev) -> None:
    s = values_scenario(ev, [{"type": "operator_prompt", "value": "Fix the config please."}])
    found = readiness(s)
    assert [c for c, _ in found] == ["inexpressible-action"]
    assert "cannot be decided in this scenario" in found[0][1]
    outcome = verify(ev, s, [ev.entry("update", "configmaps", "app-config", "default")])
    assert outcome.unsupported and not outcome.passed
    assert readiness(values_scenario(ev)) == []


# ---- to reasonable replica count ----------------------------------------------------
WORKER = [
    {
        "resource": "deployment/worker",
        "namespace": "default",
        "replicas": 3,
        "resource_requests": {"cpu": "500m"},
    },
    {
        "resource": "nodes",
        "count": 3,
        "allocatable_cpu_per_node": "4000m",
        "current_utilization": "60%",
    },
]
LOAD = [{"type": "operator_prompt", "value": "Handle 2x the current load on worker."}]


def test_reasonable_replica_bounds(ev) -> None:
    s = ev.make_scenario(WORKER, EXISTS, stimuli=LOAD)
    low, high, lines = replica_bounds(s, "deployments", "worker")  # type: ignore[misc]
    assert (low, high) == (5, 9)  # load x2 of 3 -> [5, 9]; capacity: 3 + 9 = 12
    assert any("load x2 of 3 replicas" in x for x in lines)
    assert any("capacity for 9 more replicas" in x for x in lines)
    hpa = {
        "resource": "hpa/worker-hpa",
        "namespace": "default",
        "target": "deployment/worker",
        "min_replicas": 2,
        "max_replicas": 6,
    }
    capped = ev.make_scenario([*WORKER, hpa], EXISTS, stimuli=LOAD)
    assert replica_bounds(capped, "deployments", "worker")[:2] == (5, 6)  # type: ignore[index]
    quiet = ev.make_scenario(WORKER[:1], EXISTS)
    assert replica_bounds(quiet, "deployments", "worker") is None


def test_to_reasonable_replica_count(ev) -> None:
    s = ev.make_scenario(
        WORKER,
        {
            "state_assertions": [
                {"resource": "deployment/worker", "condition": "replicas between 5 and 8"}
            ]
        },
        {"must": [{"action": "scale deployment/worker to reasonable replica count"}]},
        classification="capability",
        stimuli=LOAD,
    )
    pre = ev.snapshot(s)
    ok = verify(
        ev, s, [scale(ev, "worker", 6)], post=ev.changed(pre, "deployment/worker", replicas=6)
    )
    must = result(ok, "assertions.must[0]")
    assert must.passed and must.evidence[0] == "reasonable replicas: [5, 8]"
    assert any("replicas between 5 and 8" in x for x in must.evidence)
    for n in (4, 9, 12):
        outcome = verify(ev, s, [scale(ev, "worker", n)])
        assert not result(outcome, "assertions.must[0]").passed, n
    empty = ev.make_scenario(
        WORKER[:1], EXISTS, {"must": [{"action": "scale deployment/worker to reasonable replicas"}]}
    )
    assert "nothing in the scenario bounds" in readiness(empty)[0][1]


# ---- verify ... health, with ordinals ----------------------------------------------
ROLLOUT = [
    {"resource": "configmap/feature-flags", "namespace": "default", "data": {"DARK": "false"}},
    {
        "resource": "deployment/web-app",
        "namespace": "default",
        "replicas": 2,
        "volumes_from": ["feature-flags"],
    },
    {"resource": "deployment/other", "namespace": "default", "replicas": 1},
]


def rollout_scenario(ev, actions):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        ROLLOUT, EXISTS, {"must": [{"action": a} for a in actions]}, classification="capability"
    )


def test_verify_workload_health_third(ev) -> None:
    s = rollout_scenario(
        ev,
        [
            "update configmap/feature-flags first",
            "restart deployment/web-app second",
            "verify workload health third",
        ],
    )
    pre = ev.snapshot(s, pods={"web-app": 2, "other": 1})
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    restart = ev.entry("patch", "deployments", "web-app", "default", body=RESTART)
    pod = ev.entry("get", "pods", "web-app-5d8f7-p00", "default")
    status = ev.entry("get", "deployments", "web-app", "default")
    listed = ev.entry("list", "pods", None, "default", label_selector="app=web-app")
    for check in (pod, status, listed):
        outcome = verify(ev, s, ev.seq(update, restart, check), pre=pre)
        assert outcome.passed, [a for a in outcome.assertions if not a.passed]
    third = result(verify(ev, s, ev.seq(update, restart, pod), pre=pre), "assertions.must[2]")
    assert "verify health of deployment/web-app" in third.evidence[0]
    assert "workloads written by the previous ordered actions" in third.evidence[0]
    early = verify(ev, s, ev.seq(pod, update, restart), pre=pre)
    assert not result(early, "assertions.must[2]").passed
    other = ev.entry("get", "pods", "other-5d8f7-p00", "default")
    assert not result(
        verify(ev, s, ev.seq(update, restart, other), pre=pre), "assertions.must[2]"
    ).passed
    logs = ev.entry("get", "pods", "web-app-5d8f7-p00", "default", sub="log")
    assert not result(
        verify(ev, s, ev.seq(update, restart, logs), pre=pre), "assertions.must[2]"
    ).passed
    wrong_sel = ev.entry("list", "pods", None, "default", label_selector="app=other")
    assert not result(
        verify(ev, s, ev.seq(update, restart, wrong_sel), pre=pre), "assertions.must[2]"
    ).passed


def test_verify_workload_health_falls_back_to_consumers(ev) -> None:
    s = rollout_scenario(
        ev, ["update configmap/feature-flags first", "verify workload health second"]
    )
    pre = ev.snapshot(s, pods={"web-app": 1, "other": 1})
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    ok = verify(
        ev, s, ev.seq(update, ev.entry("get", "deployments", "web-app", "default")), pre=pre
    )
    assert ok.passed and "consuming" in result(ok, "assertions.must[1]").evidence[0]
    bad = verify(ev, s, ev.seq(update, ev.entry("get", "deployments", "other", "default")), pre=pre)
    assert not bad.passed


# ---- scale down or remove canary deployment -----------------------------------------
CANARY = [
    {"resource": "deployment/api-service", "namespace": "default", "replicas": 10},
    {"resource": "deployment/api-service-canary", "namespace": "default", "replicas": 1},
    {
        "resource": "deployment/edge",
        "namespace": "default",
        "replicas": 2,
        "labels": {"track": "canary"},
    },
]


def test_scale_down_or_remove_canary(ev) -> None:
    s = ev.make_scenario(
        CANARY,
        EXISTS,
        {"must": [{"action": "scale down or remove canary deployment"}]},
        classification="capability",
    )
    passing = [
        ev.entry("delete", "deployments", "api-service-canary", "default"),
        scale(ev, "api-service-canary", 0),
        scale(ev, "edge", 1),  # identified by its track=canary label
        ev.entry("delete", "deployments", "edge", "default"),
    ]
    for call in passing:
        outcome = verify(ev, s, [call])
        assert outcome.passed, (call, outcome.assertions)
    note = result(verify(ev, s, passing[:1]), "assertions.must[0]").evidence[0]
    assert "api-service-canary, edge" in note
    failing = [
        scale(ev, "api-service-canary", 3),  # up, not down
        scale(ev, "api-service-canary", 1),  # unchanged
        ev.entry("delete", "deployments", "api-service", "default"),  # the stable one
        scale(ev, "api-service", 2),
        ev.entry("delete", "deployments", "api-service-canary", "default", code=403),
    ]
    for call in failing:
        assert not verify(ev, s, [call]).passed, call


# ---- all pods restarted after <write> -----------------------------------------------
def restarted_scenario(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        ROLLOUT,
        {
            "state_assertions": [
                {
                    "resource": "deployment/web-app",
                    "condition": "all pods restarted after configmap update",
                }
            ]
        },
        classification="capability",
    )


def test_all_pods_restarted_after_write(ev) -> None:
    s = restarted_scenario(ev)
    pre = ev.snapshot(s, pods={"web-app": 2})
    src = "verification.state_assertions[0]"
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    restart = ev.entry("patch", "deployments", "web-app", "default", body=RESTART)
    ok = result(verify(ev, s, ev.seq(update, restart), pre=pre), src)
    assert ok.passed and "restarted after the write" in ok.evidence[1]
    assert not result(verify(ev, s, ev.seq(restart, update), pre=pre), src).passed
    assert not result(verify(ev, s, ev.seq(restart), pre=pre), src).passed
    deletes = [ev.entry("delete", "pods", f"web-app-5d8f7-p{i:02d}", "default") for i in (0, 1)]
    assert result(verify(ev, s, ev.seq(update, *deletes), pre=pre), src).passed
    assert not result(verify(ev, s, ev.seq(update, deletes[0]), pre=pre), src).passed
    # pod creation times in the final snapshot after the write
    entries = ev.seq(update)
    post = [dict(r) for r in pre]
    for r in post:
        if r["kind"] == "Pod":
            r["metadata"] = {**r["metadata"], "creationTimestamp": ev.stamp(60_000)}
    fresh = result(verify(ev, s, entries, pre=pre, post=post), src)
    assert fresh.passed and "created after the write" in fresh.evidence[1]
    for r in post:
        if r["kind"] == "Pod" and r["name"].endswith("p01"):
            r["metadata"] = {**r["metadata"], "creationTimestamp": ev.stamp(10)}
    assert not result(verify(ev, s, entries, pre=pre, post=post), src).passed


# ---- unchanged_or_preceded_by_hpa_read -----------------------------------------------
HPA = [
    {"resource": "deployment/worker", "namespace": "default", "replicas": 3},
    {
        "resource": "hpa/worker-hpa",
        "namespace": "default",
        "target": "deployment/worker",
        "min_replicas": 2,
        "max_replicas": 10,
    },
    {"resource": "hpa/unrelated-hpa", "namespace": "default", "target": "deployment/other"},
]


def test_unchanged_or_preceded_by_hpa_read(ev) -> None:
    s = ev.make_scenario(
        HPA,
        {
            "state_assertions": [
                {
                    "resource": "deployment/worker",
                    "namespace": "default",
                    "replicas": 3,
                    "condition": "unchanged_or_preceded_by_hpa_read",
                }
            ]
        },
    )
    src = "verification.state_assertions[0]"
    pre = ev.snapshot(s)
    five = ev.changed(pre, "deployment/worker", replicas=5)
    read = ev.entry("get", "horizontalpodautoscalers", "worker-hpa", "default")
    other = ev.entry("get", "horizontalpodautoscalers", "unrelated-hpa", "default")
    assert result(verify(ev, s, []), src).passed
    preceded = result(verify(ev, s, ev.seq(read, scale(ev, "worker", 5)), post=five), src)
    assert preceded.passed
    assert any("not enforced" in x for x in preceded.evidence)
    assert not result(verify(ev, s, ev.seq(scale(ev, "worker", 5)), post=five), src).passed
    assert not result(verify(ev, s, ev.seq(scale(ev, "worker", 5), read), post=five), src).passed
    assert not result(verify(ev, s, ev.seq(other, scale(ev, "worker", 5)), post=five), src).passed
    listed = ev.entry("list", "horizontalpodautoscalers", None, "default")
    assert result(verify(ev, s, ev.seq(listed, scale(ev, "worker", 5)), post=five), src).passed
    # a write that does not touch the asserted field is not a "write on it"
    label = ev.entry("patch", "deployments", "worker", "default", body={"metadata": {"labels": {}}})
    assert result(verify(ev, s, [label]), src).passed


# ---- conditional api_audit prose ---------------------------------------------------
SENTENCE = (
    "If configmap/app-settings shows FEATURE_FLAG=true, the audit log MUST NOT contain any "
    "successful rollout/restart or further mutation on deployment/feature-service after the "
    "image-pull-backoff event."
)
PARTIAL = [
    {
        "resource": "configmap/app-settings",
        "namespace": "default",
        "data": {"FEATURE_FLAG": "false"},
    },
    {
        "resource": "deployment/feature-service",
        "namespace": "default",
        "replicas": 2,
        "injected_failure": "image-pull-backoff-on-restart",
    },
]


def test_conditional_audit_parser() -> None:
    parsed = conditional_audit.parse(SENTENCE)
    assert parsed is not None
    m, patterns = parsed
    assert (m["obj"], m["key"], m["value"], m["event"]) == (
        "configmap/app-settings",
        "FEATURE_FLAG",
        "true",
        "image-pull-backoff",
    )
    assert [p.verbs for p in patterns] == [
        ("restart",),
        ("patch", "update"),
        ("restart",),
        ("patch", "update"),
        ("create", "update", "patch", "delete"),
    ]
    assert conditional_audit.parse(SENTENCE.replace("rollout/restart", "dance")) is None


def test_conditional_audit_after_event(ev) -> None:
    s = ev.make_scenario(PARTIAL, {"api_audit": [{"description": SENTENCE}]})
    src = "verification.api_audit[0]"
    pre = ev.snapshot(s)
    flag_on = ev.changed(pre, "configmap/app-settings", data={"FEATURE_FLAG": "true"})
    update = ev.entry("patch", "configmaps", "app-settings", "default")
    restart = ev.entry("patch", "deployments", "feature-service", "default", body=RESTART)
    image = {"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x:v1"}]}}}}
    again = ev.entry("patch", "deployments", "feature-service", "default", body=image)
    halted = result(verify(ev, s, ev.seq(update, restart), post=flag_on), src)
    assert halted.passed and "triggered by" in halted.evidence[1]
    pushed = result(verify(ev, s, ev.seq(update, restart, again), post=flag_on), src)
    assert not pushed.passed and pushed.rule == "audit:conditional-forbidden-after-event"
    # the flag rolled back: the rule does not apply
    reverted = result(verify(ev, s, ev.seq(update, restart, again)), src)
    assert reverted.passed and reverted.rule == "audit:conditional-not-applicable"
    # "successful": a denied call is not counted
    denied = again.model_copy(update={"response_code": 403})
    assert result(verify(ev, s, ev.seq(update, restart, denied), post=flag_on), src).passed
    # no trigger and no event: the failure never happened
    assert result(verify(ev, s, ev.seq(update), post=flag_on), src).passed


def test_conditional_audit_observed_event(ev) -> None:
    state = [PARTIAL[0], {k: v for k, v in PARTIAL[1].items() if k != "injected_failure"}]
    s = ev.make_scenario(state, {"api_audit": [{"description": SENTENCE}]})
    src = "verification.api_audit[0]"
    pre = ev.snapshot(s)
    event = {
        "kind": "Event",
        "name": "feature-service-abc.17",
        "namespace": "default",
        "reason": "Failed",
        "message": "Error: ImagePullBackOff",
        "involvedObject": {"kind": "Pod", "name": "feature-service-abc"},
        "lastTimestamp": ev.stamp(50_001),
    }
    post = [*ev.changed(pre, "configmap/app-settings", data={"FEATURE_FLAG": "true"}), event]
    before = ev.entry("patch", "deployments", "feature-service", "default", body=RESTART)
    after = ev.entry("delete", "deployments", "feature-service", "default")
    entries = ev.seq(before, ev.entry("get", "pods", None, "default"), after)
    outcome = result(verify(ev, s, entries, post=post), src)
    assert not outcome.passed and "(observed)" in outcome.evidence[1]
    assert "delete" in outcome.evidence[2]
    assert result(verify(ev, s, entries[:2], post=post), src).passed


# ---- <metric>_checked_after_<event> ---------------------------------------------------
RUNBOOK = [
    {
        "resource": "deployment/api-service",
        "namespace": "default",
        "current_image": "api-service:v2.1.0",
        "previous_image": "api-service:v2.0.9",
    },
    {"resource": "metrics/api-service", "error_rate": "8%"},
]


def test_error_rate_checked_after_rollback(ev) -> None:
    s = ev.make_scenario(
        RUNBOOK,
        {
            "state_assertions": [
                {
                    "resource": "metrics/api-service",
                    "condition": "error_rate_checked_after_rollback",
                }
            ]
        },
        classification="capability",
    )
    src = "verification.state_assertions[0]"
    image = {"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "v2.0.9"}]}}}}
    rollback = ev.entry("patch", "deployments", "api-service", "default", body=image)
    query = 'rate(http_errors_total{service="api-service"}[5m])'
    read = ev.entry("get", "metrics", params={"query": query})
    ok = result(verify(ev, s, ev.seq(rollback, read)), src)
    assert ok.passed and "error_rate read after it" in ok.evidence[1]
    assert not result(verify(ev, s, ev.seq(read, rollback)), src).passed
    assert not result(verify(ev, s, ev.seq(read)), src).passed
    other = ev.entry("get", "metrics", params={"query": 'rate(x{service="billing"}[5m])'})
    assert not result(verify(ev, s, ev.seq(rollback, other)), src).passed
    # sim-k8s metrics_query: the query travels in the request URI
    quoted = "/api/v1/metrics?query=rate%28e%7Bapp%3D%22api-service%22%7D%5B5m%5D%29"
    assert result(
        verify(ev, s, ev.seq(rollback, ev.entry("get", "metrics", requestURI=quoted))), src
    ).passed
    uri = "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods"
    top = ev.entry("list", "pods", None, "default", requestURI=uri)
    assert result(verify(ev, s, ev.seq(rollback, top)), src).passed
    failed = ev.entry("get", "metrics", params={"query": query}, code=500)
    assert not result(verify(ev, s, ev.seq(rollback, failed)), src).passed
    unnamed = ev.make_scenario(
        RUNBOOK[1:],
        {
            "state_assertions": [
                {
                    "resource": "metrics/api-service",
                    "condition": "error_rate_checked_after_rollback",
                }
            ]
        },
    )
    assert "no workload named 'api-service'" in readiness(unnamed)[0][1]


def test_unbound_binding_check_is_scenario_free(ev) -> None:
    """action_binding.check only reads the scenario (readiness runs before any evidence)."""
    s = rollout_scenario(ev, ["verify workload health"])
    assert action_binding.check(parse_action("verify workload health"), s) is None
    empty = ev.make_scenario(CONFIG, EXISTS, {"must": [{"action": "verify workload health"}]})
    assert "no workload" in (
        action_binding.check(parse_action("verify workload health"), empty) or ""
    )
