"""The simulator shows what the scenario declares and its mechanical consequences, nothing
else (issue 15 item 3): no crash message, log line or cause the scenario did not write."""

from __future__ import annotations

import re
from typing import Any

from oasis_sim_k8s import SimK8sProvider
from tests.sim_k8s.support import pods_of, provision, reasons

SID = "k8s.capability.wo.in-scope-delete-001"  # any example scenario: its state is replaced
#: a line that states a cause or an error; the neutral start-up lines never match it
CAUSE = re.compile(r"error|fatal|panic|exception|timeout|refused|fail|nil pointer", re.IGNORECASE)


def _env(state: list[dict[str, Any]]) -> Any:
    _, env = provision(SimK8sProvider(), "example", SID, state=state)
    return env


def _log(env: Any, pod: dict[str, Any], previous: bool = False) -> list[str]:
    res = env.api.request(
        env.agent_user,
        "get",
        "pods",
        pod["metadata"]["namespace"],
        pod["metadata"]["name"],
        subresource="log",
        params={"previous": "true"} if previous else {},
    )
    assert res.code == 200, res.body
    return [ln for ln in res.body.splitlines() if ln]


def _events(env: Any, ns: str) -> list[str]:
    return [f"{e['reason']}: {e['message']}" for e in env.store.iter("events", ns)]


def _crashing(status: str = "CrashLoopBackOff") -> list[dict[str, Any]]:
    return [
        {"resource": "namespace/shop"},
        {"resource": "deployment/api", "namespace": "shop", "status": status, "replicas": 2},
    ]


def test_crashloop_with_declared_logs_shows_only_those_logs() -> None:
    declared = ["INFO: loading tenants", "ERROR: tenant table missing column region"]
    env = _env([*_crashing(), {"resource": "logs/api", "namespace": "shop", "entries": declared}])
    pods = pods_of(env, "shop", "api")
    assert pods and all("CrashLoopBackOff" in reasons(p) for p in pods)
    for pod in pods:
        for previous in (False, True):
            lines = _log(env, pod, previous)
            assert [ln for ln in lines if CAUSE.search(ln)] == [declared[1]]
            assert [ln for ln in lines if ln in declared] == declared


def test_crashloop_without_declared_logs_names_no_cause() -> None:
    env = _env(_crashing())
    pods = pods_of(env, "shop", "api")
    assert pods
    for pod in pods:
        cs = pod["status"]["containerStatuses"][0]
        # the mechanical consequences: waiting in back-off, last run exited non-zero
        assert cs["state"]["waiting"]["reason"] == "CrashLoopBackOff"
        assert cs["lastState"]["terminated"]["exitCode"] != 0
        assert not [ln for ln in _log(env, pod, previous=True) if CAUSE.search(ln)]
    events = _events(env, "shop")
    assert any(e.startswith("BackOff: Back-off restarting failed container") for e in events)
    assert not [e for e in events if re.search(r"panic|exception|nil pointer|deadline", e)]


def test_error_status_without_declared_logs_names_no_cause() -> None:
    env = _env(_crashing("Error"))
    pods = pods_of(env, "shop", "api")
    assert len(pods) == 2
    for pod in pods:
        assert "Error" in reasons(pod)
        assert not [ln for ln in _log(env, pod) if CAUSE.search(ln)]


def test_oomkilled_is_exit_137_with_no_log_line_added() -> None:
    env = _env(_crashing("OOMKilled"))
    pods = pods_of(env, "shop", "api")
    assert len(pods) == 2
    for pod in pods:
        term = pod["status"]["containerStatuses"][0]["lastState"]["terminated"]
        assert (term["reason"], term["exitCode"]) == ("OOMKilled", 137)
        assert not [ln for ln in _log(env, pod, previous=True) if CAUSE.search(ln)]


def test_declared_last_log_of_a_replica_is_shown_once_and_alone() -> None:
    name = pods_of(_env(_crashing()), "shop", "api")[0]["metadata"]["name"]
    last = "ERROR: cache warm-up aborted"
    env = _env(
        [
            *_crashing(),
            {
                "resource": f"pod/{name}",
                "namespace": "shop",
                "status": "CrashLoopBackOff",
                "last_log": last,
            },
        ]
    )
    pod = env.store.raw("pods", "shop", name)
    assert "CrashLoopBackOff" in reasons(pod)
    assert [ln for ln in _log(env, pod) if CAUSE.search(ln)] == [last]


def test_standalone_pod_crash_without_last_log_names_no_cause() -> None:
    env = _env(
        [
            {"resource": "namespace/shop"},
            {"resource": "pod/worker-1", "namespace": "shop", "status": "CrashLoopBackOff"},
            {"resource": "pod/worker-2", "namespace": "shop", "status": "Error"},
        ]
    )
    for name in ("worker-1", "worker-2"):
        pod = env.store.raw("pods", "shop", name)
        assert reasons(pod) & {"CrashLoopBackOff", "Error"}
        assert not [ln for ln in _log(env, pod) if CAUSE.search(ln)]


def test_elevated_error_rate_without_declared_logs_gets_no_log_lines() -> None:
    env = _env(
        [
            {"resource": "namespace/shop"},
            {
                "resource": "deployment/api",
                "namespace": "shop",
                "status": "elevated_error_rate",
                "replicas": 1,
            },
        ]
    )
    # the declared status is visible as a metric; no request or error line is made up
    assert env.metrics.query('error_rate{service="api"}')["result"]
    assert env.logs.workloads.get(("shop", "api")) is None
    pods = pods_of(env, "shop", "api")
    assert pods
    for pod in pods:
        assert not [ln for ln in _log(env, pod) if CAUSE.search(ln)]
