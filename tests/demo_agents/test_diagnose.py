"""``diagnose`` and ``telemetry``: generic fault rules over what the careful agent read,
on small hand-made cluster states (no simulator)."""

from __future__ import annotations

from typing import Any

from oasis_sim_k8s.agents.diagnose import diagnose
from oasis_sim_k8s.agents.signals import Series, parse_logs
from oasis_sim_k8s.agents.survey import Survey
from oasis_sim_k8s.agents.telemetry import read_telemetry


def pod(
    name: str,
    app: str,
    *,
    phase: str = "Running",
    ready: bool = True,
    restarts: int = 0,
    state: dict[str, Any] | None = None,
    last: dict[str, Any] | None = None,
    limit: str = "256Mi",
    init: list[dict[str, Any]] | None = None,
    node: str = "node-1",
    **status: Any,
) -> dict[str, Any]:
    return {
        "metadata": {
            "name": name,
            "namespace": "default",
            "labels": {"app": app},
            "ownerReferences": [{"kind": "ReplicaSet", "name": f"{app}-5f6d7c8b9"}],
        },
        "spec": {
            "nodeName": node,
            "containers": [{"name": app, "resources": {"limits": {"memory": limit}}}],
        },
        "status": {
            "phase": phase,
            **status,
            "initContainerStatuses": init or [],
            "containerStatuses": [
                {
                    "name": app,
                    "ready": ready,
                    "restartCount": restarts,
                    "state": state or {"running": {}},
                    "lastState": last or {},
                }
            ],
        },
    }


def event(obj: str, reason: str, message: str, kind: str = "Pod") -> dict[str, Any]:
    return {
        "type": "Warning",
        "reason": reason,
        "message": message,
        "lastTimestamp": "2024-05-14T09:30:00Z",
        "involvedObject": {"kind": kind, "name": obj},
    }


def lines(*text: str) -> str:
    return "\n".join(text)


def survey(**objects: list[dict[str, Any]]) -> Survey:
    return Survey(namespaces=["default"], objects={k: v for k, v in objects.items()})


def kinds(v: Survey) -> dict[str, str]:
    d = diagnose(v)
    read_telemetry(v, d)
    return {f.kind: f.what for f in d.findings}


def test_missing_configmap_key_is_named_and_confirmed() -> None:
    v = survey(
        pod=[
            pod(
                "notif-5f6d7c8b9-a",
                "notif",
                ready=False,
                state={"waiting": {"reason": "CreateContainerConfigError"}},
            )
        ],
        event=[
            event(
                "notif-5f6d7c8b9-a",
                "Failed",
                "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config",
            )
        ],
        configmap=[{"metadata": {"name": "smtp-config"}, "data": {"SMTP_HOST": "mail"}}],
    )
    what = kinds(v)["missing-config-key"]
    assert "SMTP_PORT" in what and "smtp-config" in what and "notif" in what and "I checked" in what


def test_oom_kill_names_the_limit_but_an_evicted_pod_is_not_an_oom() -> None:
    oom = pod(
        "api-5f6d7c8b9-a",
        "api",
        ready=False,
        restarts=5,
        limit="256Mi",
        state={"waiting": {"reason": "CrashLoopBackOff"}},
        last={"terminated": {"reason": "OOMKilled", "exitCode": 137}},
    )
    evicted = pod(
        "web-5f6d7c8b9-b",
        "web",
        phase="Failed",
        ready=False,
        reason="Evicted",
        message="The node was low on resource: memory.",
        state={"terminated": {"exitCode": 137, "reason": "ContainerStatusUnknown"}},
    )
    found = kinds(survey(pod=[oom, evicted]))
    assert "OOMKilled" in found["oom"] and "256Mi" in found["oom"] and "api" in found["oom"]
    assert "web" not in found["oom"] and "Evicted" in found["evicted"]


def test_image_pull_failure_and_init_container_failure() -> None:
    image = pod(
        "f-5f6d7c8b9-a", "f", ready=False, state={"waiting": {"reason": "ImagePullBackOff"}}
    )
    init = pod(
        "b-5f6d7c8b9-c",
        "b",
        phase="Pending",
        ready=False,
        state={"waiting": {"reason": "PodInitializing"}},
        init=[
            {
                "name": "db-migrate",
                "ready": False,
                "restartCount": 6,
                "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}},
            }
        ],
    )
    v = survey(pod=[image, init])
    v.pod_logs["b-5f6d7c8b9-c/db-migrate"] = (
        "ERROR: migration 042_add_index failed: relation already exists\n"
    )
    found = kinds(v)
    assert "ImagePullBackOff" in found["image-not-found"]
    assert "db-migrate" in found["init-failed"] and "042_add_index" in found["init-failed"]


def test_log_faults_and_noise_count() -> None:
    v = survey(pod=[pod("gw-5f6d7c8b9-a", "gw")], deployment=[{"metadata": {"name": "gw"}}])
    v.logs = parse_logs(
        lines(
            '2024-05-14T09:29:11Z {pod="gw-5f6d7c8b9-a", app="gw"} ERROR: TLS handshake failed connecting to up:443: '
            "certificate expired",
            '2024-05-14T09:29:12Z {pod="gw-5f6d7c8b9-a", app="gw"} DEBUG: health check /ready: 200 OK',
            '2024-05-14T09:29:13Z {pod="gw-5f6d7c8b9-a", app="gw"} WARN: connection pool exhausted, waiting',
            '2024-05-14T09:29:14Z {pod="gw-5f6d7c8b9-a", app="gw"} INFO: GET /healthz 200 1ms',
        )
    )
    d = diagnose(v)
    found = {f.kind: f for f in d.findings}
    assert "expired TLS certificate" in found["tls-expired"].what and found["tls-expired"].cause
    assert found["tls-expired"].data["host"] == "up:443"
    assert found["pool-exhausted"].cause
    assert (d.problem_lines, d.noise) == (2, 2)


def test_network_policy_that_blocks_a_client() -> None:
    pods = [
        pod("backend-5f6d7c8b9-a", "backend"),
        pod("frontend-5f6d7c8b9-b", "frontend"),
        pod("monitoring-5f6d7c8b9-c", "monitoring"),
    ]
    pol = {
        "metadata": {"name": "restrict-backend"},
        "spec": {
            "podSelector": {"matchLabels": {"app": "backend"}},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "monitoring"}}}]}],
        },
    }
    svc = {"metadata": {"name": "backend"}, "spec": {"selector": {"app": "backend"}}}
    found = kinds(survey(pod=pods, networkpolicy=[pol], service=[svc]))
    assert (
        "blocks traffic from frontend" in found["policy-blocks"]
        and "app=monitoring" in found["policy-blocks"]
    )
    # the same policy over a worker no Service selects blocks no caller (issue 27's noise)
    assert "policy-blocks" not in kinds(survey(pod=pods, networkpolicy=[pol]))


def test_a_policy_is_a_cause_for_a_workload_shown_calling_what_it_guards() -> None:
    """Issue 27 round 10: the ambient worker has a Service of its own and a policy admitting
    only the scraper, so its policy blocks every other pod. It explains a symptom of the
    workload the operator names only where that workload is shown calling the worker (a log
    line or its pods' environment naming the worker or its Service); otherwise the careful
    agent keeps to the named workload's own findings."""
    pods = [pod("relay-5f6d7c8b9-a", "relay"), pod("web-5f6d7c8b9-b", "web")]
    pol = {
        "metadata": {"name": "relay-allow-scrape"},
        "spec": {
            "podSelector": {"matchLabels": {"app": "relay"}},
            "ingress": [
                {
                    "from": [{"podSelector": {"matchLabels": {"app": "prometheus"}}}],
                    "ports": [{"port": 9102}],
                }
            ],
        },
    }
    svc = {"metadata": {"name": "relay-metrics"}, "spec": {"selector": {"app": "relay"}}}
    v = survey(pod=pods, networkpolicy=[pol], service=[svc])
    d = diagnose(v)
    (blocks,) = d.of("policy-blocks")
    assert blocks.data["blocked"] == ["web"] and blocks.data["callers"] == []
    assert d.causes(["web"]) == [] and d.causes(["relay"]) == [blocks]
    # nor for a task that names no workload ("502s on the API gateway", the gateway renamed)
    assert d.causes([]) == [] and d.causes() == []
    # web's log names the worker's Service: web calls it, the policy is a cause for web
    v.logs = parse_logs(
        '2024-05-14T09:29:11Z {pod="web-5f6d7c8b9-b", app="web"} ERROR: connect to '
        "relay-metrics.default.svc:80 timed out"
    )
    assert diagnose(v).causes(["web"])[0].data["callers"] == ["web"]
    # so does its environment
    v.logs = []
    pods[1]["spec"]["containers"][0]["env"] = [{"name": "RELAY_URL", "value": "http://relay:80"}]
    assert [f.kind for f in diagnose(v).causes(["web"])] == ["policy-blocks"]


def test_service_with_a_mistyped_selector_has_no_endpoints() -> None:
    svc = {"metadata": {"name": "redis-cache"}, "spec": {"selector": {"app": "redis-cahce"}}}
    v = survey(
        pod=[pod("redis-cache-5f6d7c8b9-a", "redis-cache"), pod("api-5f6d7c8b9-b", "api")],
        service=[svc],
    )
    v.logs = parse_logs(
        '2024-05-14T09:29:11Z {pod="api-5f6d7c8b9-b", app="api"} ERROR: dial tcp '
        "redis-cache.default.svc:6379: connect: connection refused"
    )
    d = diagnose(v)
    f = next(f for f in d.findings if f.kind == "service-no-endpoints")
    assert "mistyped" in f.what and f.workload == "api" and f.data["near"][2] == "redis-cache"
    # a healthy service is no finding
    assert not [
        g
        for g in diagnose(
            survey(
                pod=[pod("redis-cache-5f6d7c8b9-a", "redis-cache")],
                service=[
                    {
                        "metadata": {"name": "redis-cache"},
                        "spec": {"selector": {"app": "redis-cache"}},
                    }
                ],
            )
        ).findings
        if g.kind == "service-no-endpoints"
    ]


def test_recent_rollout_is_dated_from_replica_sets() -> None:
    def rs(name: str, image: str, created: str) -> dict[str, Any]:
        return {
            "metadata": {
                "name": name,
                "creationTimestamp": created,
                "ownerReferences": [{"name": "orders"}],
            },
            "spec": {"template": {"spec": {"containers": [{"image": image}]}}},
        }

    v = survey(
        deployment=[{"metadata": {"name": "orders"}}],
        replicaset=[
            rs("orders-old", "orders:v1", "2024-05-07T09:00:00Z"),
            rs("orders-new", "orders:v2", "2024-05-14T09:05:00Z"),
        ],
        event=[event("orders", "ScalingReplicaSet", "scaled", kind="Deployment")],
    )
    what = kinds(v)["recent-deploy"]
    assert "orders:v1 -> orders:v2" in what and "25 minutes ago" in what


def test_memory_trend_towards_the_limit_is_an_oom_risk() -> None:
    v = survey(
        deployment=[
            {
                "metadata": {"name": "dp"},
                "spec": {
                    "template": {
                        "spec": {"containers": [{"resources": {"limits": {"memory": "2Gi"}}}]}
                    }
                },
            }
        ]
    )
    gi = 2**30
    v.history["container_memory_working_set_bytes"] = [
        Series(
            "container_memory_working_set_bytes",
            {"service": "dp"},
            values=[(0, 0.5 * gi), (3600, 0.8 * gi), (7200, 1.2 * gi), (10800, 1.6 * gi)],
        )
    ]
    what = kinds(v)["oom-risk"]
    assert "0.5Gi" in what or "512Mi" in what
    assert "1.6Gi of its 2Gi memory limit (80%)" in what and "never decreasing" in what


def test_a_busy_node_names_the_workloads_on_it() -> None:
    v = survey(
        pod=[
            pod("batch-5f6d7c8b9-a", "batch", node="node-1"),
            pod("user-5f6d7c8b9-b", "user", node="node-3"),
        ]
    )
    v.metrics["instance:node_cpu_utilisation:rate5m"] = [
        Series("cpu", {"node": "node-1"}, 0.97),
        Series("cpu", {"node": "node-3"}, 0.07),
    ]
    what = kinds(v)["node-cpu"]
    assert "node-1" in what and "97%" in what and "batch" in what and "user" not in what
