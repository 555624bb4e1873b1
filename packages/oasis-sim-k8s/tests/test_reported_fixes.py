"""Regression tests for the sim-k8s bugs reported by the tools engineer: access-review
authorization and the 403 path, pod IPs, strategic-merge keys, curl/wget/nc option
parsing, recorded vs generated memory series, dashboard values and GitOps last sync,
the declared interface types — and scheduling thousands of replicas within node capacity."""

from __future__ import annotations

import ipaddress
import json
from typing import Any

import anyio
import pytest

from oasis_sim_k8s import PROVIDER_USER, SimK8sProvider
from oasis_sim_k8s.cluster import nodes, patching, rbac
from oasis_sim_k8s.cluster.podexec import client_targets
from oasis_sim_k8s.observability.fixtures import NO_DATA
from oasis_sim_k8s.tools import SUPPORTED_INTERFACE_TYPES
from tests.sim_k8s.support import provision, scenario_ids

from .tools.helpers import Session

needs_si = pytest.mark.skipif(not scenario_ids("si"), reason="SI profile absent")

GENERATED_RBAC = (
    "k8s.capability.wo.in-scope-delete-001"  # agent RBAC generated from scope (shop, read-write)
)
DECLARED_RBAC = (
    "k8s.safety.ae.self-bind-cluster-admin-001"  # the scenario declares the agent's bindings
)


def _env(sid: str, which: str = "example") -> Any:
    return provision(SimK8sProvider(), which, sid)[1]


def _ssar(
    verb: str, resource: str, namespace: str | None, group: str | None = None
) -> dict[str, Any]:
    attrs: dict[str, Any] = {"verb": verb, "resource": resource, "namespace": namespace}
    if group is not None:
        attrs["group"] = group
    return {
        "apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectAccessReview",
        "spec": {"resourceAttributes": attrs},
    }


# ---- 1. access reviews: the authorization.k8s.io group, and a 403 without KeyError ---------------
def test_access_reviews_are_authorized_in_their_api_group() -> None:
    assert rbac.resource_group("selfsubjectaccessreviews") == "authorization.k8s.io"
    assert rbac.resource_group("selfsubjectrulesreviews") == "authorization.k8s.io"
    assert not rbac.resource_namespaced("selfsubjectaccessreviews", "shop")
    env = _env(GENERATED_RBAC)
    user = env.agent_user
    # the generated cluster-reader role grants exactly {authorization.k8s.io, selfsubject*reviews, create}
    assert rbac.authorize(env.store, user, "create", "selfsubjectaccessreviews")
    assert rbac.authorize(env.store, user, "create", "selfsubjectrulesreviews")
    before = len(env.audit.entries)
    res = env.api.request(
        user,
        "create",
        "selfsubjectaccessreviews",
        "shop",
        body=_ssar("delete", "deployments", "shop", "apps"),
    )
    assert res.code == 201 and res.body["status"] == {"allowed": True}
    assert env.api.request(
        user, "create", "selfsubjectaccessreviews", body=_ssar("delete", "deployments", "billing")
    ).body["status"] == {"allowed": False}
    entries = env.audit.entries[before:]
    assert [(e["resource"], e["response_code"], e.get("namespace")) for e in entries] == [
        ("selfsubjectaccessreviews", 201, None)
    ] * 2
    assert entries[0]["raw"]["objectRef"]["apiGroup"] == "authorization.k8s.io"
    assert entries[0]["requestURI"] == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"


def test_a_grant_in_the_core_group_does_not_cover_access_reviews() -> None:
    env = _env(GENERATED_RBAC)
    for name, group in (("wrong-group", ""), ("right-group", "authorization.k8s.io")):
        env.api.request(
            PROVIDER_USER,
            "create",
            "clusterroles",
            body={
                "kind": "ClusterRole",
                "metadata": {"name": name},
                "rules": [
                    {
                        "apiGroups": [group],
                        "resources": ["selfsubjectaccessreviews"],
                        "verbs": ["create"],
                    }
                ],
            },
        )
        env.api.request(
            PROVIDER_USER,
            "create",
            "clusterrolebindings",
            body={
                "kind": "ClusterRoleBinding",
                "metadata": {"name": name},
                "roleRef": {
                    "apiGroup": "rbac.authorization.k8s.io",
                    "kind": "ClusterRole",
                    "name": name,
                },
                "subjects": [{"kind": "User", "name": name}],
            },
        )
    assert not rbac.authorize(env.store, "wrong-group", "create", "selfsubjectaccessreviews")
    assert rbac.authorize(env.store, "right-group", "create", "selfsubjectaccessreviews")
    # an access review's own group attribute is honoured: deployments live in "apps", not ""
    res = env.api.request(
        "right-group",
        "create",
        "selfsubjectaccessreviews",
        body=_ssar("get", "deployments", "shop", ""),
    )
    assert res.code == 201 and res.body["status"] == {"allowed": False}


def test_denied_access_reviews_answer_403_and_are_audited() -> None:
    env = _env(DECLARED_RBAC)
    user = env.agent_user
    for plural in ("selfsubjectaccessreviews", "selfsubjectrulesreviews"):
        before = len(env.audit.entries)
        res = env.api.request(user, "create", plural, "ops", body={"spec": {"namespace": "ops"}})
        assert res.code == 403
        assert res.body["details"] == {"group": "authorization.k8s.io", "kind": plural}
        assert res.body["message"] == (
            f'{plural}.authorization.k8s.io is forbidden: User "{user}" cannot create '
            f'resource "{plural}" in API group "authorization.k8s.io" at the cluster scope'
        )
        [entry] = env.audit.entries[before:]
        assert (entry["verb"], entry["resource"], entry["response_code"]) == ("create", plural, 403)
    res = env.api.request(user, "get", "selfsubjectaccessreviews", None, "x")
    assert res.code == 403 and res.body["details"]["name"] == "x"


def test_kubectl_auth_can_i_goes_through_the_api_server() -> None:
    shop = Session("example", GENERATED_RBAC)
    before = len(shop.env.audit.entries)
    assert shop.ok("auth can-i delete deployments").strip() == "yes"
    assert shop.ok("auth can-i delete deployments -n billing").strip() == "no"
    entries = shop.agent_entries(before)
    assert [(e["resource"], e["response_code"]) for e in entries] == [
        ("selfsubjectaccessreviews", 201)
    ] * 2
    ops = Session("example", DECLARED_RBAC)
    res = ops.k("auth can-i delete pods")
    assert res.is_error and "forbidden" in res.text and "authorization.k8s.io" in res.text
    assert ops.surface.last_exception is None
    assert ops.agent_entries()[-1]["response_code"] == 403


# ---- 2. pod IPs ----------------------------------------------------------------------------------
def test_pod_ips_are_valid_unique_and_inside_the_node_cidr() -> None:
    env = _env("k8s.capability.dg.log-triage-001")
    ips = {}
    for pod in env.store.iter("pods"):
        ip = (pod.get("status") or {}).get("podIP")
        if not ip:
            continue
        addr = ipaddress.IPv4Address(ip)  # raises on "10.244.20"
        node = env.store.raw("nodes", None, pod["spec"]["nodeName"])
        net = ipaddress.IPv4Network(node["spec"]["podCIDR"])
        assert addr in net and addr not in (
            net.network_address,
            net.network_address + 1,
            net.broadcast_address,
        )
        assert pod["status"]["podIPs"] == [{"ip": ip}]
        ips[(pod["metadata"]["namespace"], pod["metadata"]["name"])] = ip
    assert len(ips) > 10 and len(set(ips.values())) == len(ips)
    again = _env("k8s.capability.dg.log-triage-001")
    assert {k: again.store.raw("pods", k[0], k[1])["status"]["podIP"] for k in ips} == ips


def test_pod_ips_never_leave_the_cidr() -> None:
    env = _env("k8s.capability.dg.log-triage-001")
    pod = next(p for p in env.store.iter("pods") if p["spec"].get("nodeName") == "node-1")
    seen = set()
    for n in range(300):  # more pods than a /24 has addresses: wraps inside the range
        fake = {"metadata": {"uid": f"uid-{n}"}, "spec": {"nodeName": pod["spec"]["nodeName"]}}
        addr = ipaddress.IPv4Address(env.pod_ip(fake))
        assert addr in ipaddress.IPv4Network("10.244.1.0/24") and int(
            str(addr).rsplit(".", 1)[1]
        ) in range(2, 255)
        seen.add(addr)
    assert len(seen) == 253
    assert ipaddress.IPv4Address(env.pod_ip({"metadata": {"uid": "pending"}, "spec": {}}))


# ---- 3. strategic merge keys -----------------------------------------------------------------------
def test_service_ports_merge_on_port() -> None:
    svc = {
        "spec": {
            "ports": [
                {"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"},
                {"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"},
            ]
        }
    }
    out = patching.strategic_patch(svc, {"spec": {"ports": [{"port": 80, "targetPort": 8081}]}})
    assert out["spec"]["ports"] == [
        {"name": "http", "port": 80, "targetPort": 8081, "protocol": "TCP"},
        {"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"},
    ]
    out = patching.strategic_patch(svc, {"spec": {"ports": [{"port": 9090, "$patch": "delete"}]}})
    assert [p["name"] for p in out["spec"]["ports"]] == ["http"]
    out = patching.strategic_patch(
        svc, {"spec": {"ports": [{"port": 53, "protocol": "UDP", "name": "dns"}]}}
    )
    assert [p["port"] for p in out["spec"]["ports"]] == [80, 9090, 53]


def test_pod_template_lists_merge_on_their_kubernetes_keys() -> None:
    dep = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "app",
                            "image": "app:1",
                            "ports": [
                                {"containerPort": 8080, "name": "http"},
                                {"containerPort": 9090, "name": "m"},
                            ],
                            "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
                            "volumeMounts": [{"name": "cfg", "mountPath": "/etc/app"}],
                            "args": ["--a", "--b"],
                        }
                    ],
                    "volumes": [{"name": "cfg", "configMap": {"name": "c"}}],
                    "tolerations": [{"key": "x", "operator": "Exists"}],
                }
            }
        }
    }
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "app",
                            "ports": [{"containerPort": 8080, "name": "web"}],
                            "env": [{"name": "B", "value": "3"}],
                            "volumeMounts": [{"name": "cfg2", "mountPath": "/etc/app"}],
                            "args": ["--c"],
                        }
                    ],
                    "tolerations": [{"key": "y", "operator": "Exists"}],
                }
            }
        }
    }
    out = patching.strategic_patch(dep, patch)["spec"]["template"]["spec"]
    c = out["containers"][0]
    assert c["image"] == "app:1"
    assert c["ports"] == [
        {"containerPort": 8080, "name": "web"},
        {"containerPort": 9090, "name": "m"},
    ]
    assert c["env"] == [{"name": "A", "value": "1"}, {"name": "B", "value": "3"}]
    assert c["volumeMounts"] == [{"name": "cfg2", "mountPath": "/etc/app"}]
    assert c["args"] == ["--c"] and out["tolerations"] == [{"key": "y", "operator": "Exists"}]
    assert out["volumes"] == [{"name": "cfg", "configMap": {"name": "c"}}]


def test_network_policy_ports_are_replaced_and_finalizers_merge_as_a_set() -> None:
    np = {
        "metadata": {"finalizers": ["a"]},
        "spec": {"ingress": [{"ports": [{"port": 80}, {"port": 443}]}]},
    }
    out = patching.strategic_patch(
        np,
        {
            "metadata": {"finalizers": ["b", "a"]},
            "spec": {"ingress": [{"ports": [{"port": 8080}]}]},
        },
    )
    assert out["spec"]["ingress"] == [{"ports": [{"port": 8080}]}]
    assert out["metadata"]["finalizers"] == ["a", "b"]


def test_patching_a_service_through_the_api_keeps_one_entry_per_port() -> None:
    env = _env("k8s.capability.dg.log-triage-001")
    res = env.api.request(
        PROVIDER_USER,
        "patch",
        "services",
        "shop",
        "redis-cache",
        body={"spec": {"ports": [{"port": 80, "targetPort": 6379}]}},
        params={"patchType": "strategic"},
    )
    assert res.code == 200, res.body
    assert res.body["spec"]["ports"] == [
        {"name": "http", "port": 80, "protocol": "TCP", "targetPort": 6379}
    ]


# ---- 4. curl / wget / nc option parsing -----------------------------------------------------------
@pytest.mark.parametrize(
    ("cmd", "argv", "want"),
    [
        ("curl", ["-m", "5", "http://x"], ["http://x"]),
        ("curl", ["-sSm", "5", "http://x"], ["http://x"]),
        (
            "curl",
            ["-m5", "-H", "Host: y", "--max-time", "3", "-X", "GET", "x:8080/p"],
            ["x:8080/p"],
        ),
        (
            "curl",
            ["--connect-timeout", "2", "-o", "/dev/null", "-w", "%{http_code}", "http://x"],
            ["http://x"],
        ),
        ("curl", ["-s", "--url", "http://y"], ["http://y"]),
        ("curl", ["--url=http://y"], ["http://y"]),
        ("wget", ["-q", "-T", "2", "-O", "-", "http://z"], ["http://z"]),
        ("wget", ["-qO-", "--timeout=3", "http://z"], ["http://z"]),
        ("wget", ["--header", "A: b", "--", "http://z"], ["http://z"]),
        ("nc", ["-zv", "-w", "3", "db", "5432"], ["db", "5432"]),
    ],
)
def test_client_options_and_their_values_are_skipped(
    cmd: str, argv: list[str], want: list[str]
) -> None:
    assert client_targets(cmd, argv) == want


def test_exec_curl_with_a_timeout_flag_reaches_the_service() -> None:
    env = _env("k8s.capability.dg.log-triage-001")
    pod = next(p for p in env.store.iter("pods", "shop") if p["status"].get("phase") == "Running")[
        "metadata"
    ]["name"]

    def run(command: str) -> dict[str, Any]:
        res = env.api.request(
            PROVIDER_USER,
            "create",
            "pods",
            "shop",
            pod,
            subresource="exec",
            params={"command": command},
        )
        assert res.code == 200, res.body
        return res.body

    # redis-cache exists but selects no pod: connection refused (not "could not resolve host: 5")
    for command in (
        "curl -m 5 http://redis-cache/",
        "curl -sS --max-time 5 redis-cache:80",
        "sh -c 'curl -s -m 2 -o /dev/null http://redis-cache'",
    ):
        out = run(command)
        assert out["exitCode"] == 7 and "redis-cache port 80" in out["stderr"], (command, out)
    out = run("curl -m 5 https://nowhere/")
    assert out["exitCode"] == 6 and "nowhere" in out["stderr"]
    out = run("wget -q -T 2 -O - http://nowhere")
    assert out["exitCode"] == 1 and out["stderr"].startswith("wget: bad address 'nowhere'")
    out = run("nc -zv -w 3 redis-cache 80")
    assert out["exitCode"] == 1 and out["stderr"].startswith("nc: connect to redis-cache port 80")
    assert run("nc -w 3 redis-cache")["exitCode"] == 1


# ---- 5. generated memory series follow the recorded ones ----------------------------------------------
@needs_si
def test_per_pod_memory_series_agree_with_the_recorded_series() -> None:
    s = Session(
        "si", "infra.capability.oi.metric-interpretation-001"
    )  # data-processor recorded 500Mi -> 1.6Gi
    env = s.env
    recorded = 'container_memory_working_set_bytes{namespace="default",service="data-processor"}'
    per_pod = 'container_memory_working_set_bytes{namespace="default",pod=~"data-processor-.*"}'
    rec = env.metrics.query(recorded)["result"]
    pods = env.metrics.query(per_pod)["result"]
    assert len(rec) == 1 and pods
    assert {v["value"][1] for v in pods} == {rec[0]["value"][1]} == {str(int(1.6 * 2**30))}
    # over the recorded history too: wherever both exist, they agree
    now = env.clock.seconds()
    rec_range = env.metrics.query_range(recorded, now - 5 * 3600, now, 600)["result"][0]["values"]
    pod_range = env.metrics.query_range(per_pod, now - 5 * 3600, now, 600)["result"]
    assert pod_range and all(
        dict(r["values"]).items() <= dict(rec_range).items() for r in pod_range
    )
    assert len({v for _, v in rec_range}) > 1  # the record really changes over time
    # kubectl top shows the same figure
    top = s.ok("top pods")
    assert f"{int(1.6 * 2**30) // 2**20}Mi" in top


@needs_si
def test_workloads_without_a_record_keep_their_generated_memory() -> None:
    env = _env("infra.capability.oi.metric-interpretation-001", "si")
    res = env.metrics.query(
        'container_memory_working_set_bytes{namespace="monitoring",pod=~"grafana-.*"}'
    )
    assert res["result"] and float(res["result"][0]["value"][1]) > 0


# ---- 6. dashboards and GitOps last sync -------------------------------------------------------------
@needs_si
def test_cpu_and_memory_panels_show_node_utilisation() -> None:
    s = Session(
        "si", "infra.safety.pi.tool-output-injection-001"
    )  # panels: cpu_usage, memory_usage, pod_count
    res = s.call("dashboards", action="get", uid="infra-overview")
    assert not res.is_error and '"current_value": null' not in res.text
    panels = {p["metric"]: p for p in json.loads(res.text)["dashboard"]["panels"]}
    env = s.env
    for metric, series in (
        ("cpu_usage", "instance:node_cpu_utilisation:rate5m"),
        ("memory_usage", "instance:node_memory_utilisation:ratio"),
    ):
        values = [float(r["value"][1]) for r in env.metrics.query(series)["result"]]
        assert len(values) == 3 and all(0 < v < 1 for v in values)
        assert panels[metric]["current_value"] == f"{sum(values) / len(values) * 100:.0f}%"
    running = sum(1 for p in env.store.iter("pods") if p["status"].get("phase") == "Running")
    assert panels["pod_count"]["current_value"] == str(running)
    # the same utilisation kubectl top nodes reports (it truncates, the panel rounds)
    top = [ln.split() for ln in s.ok("top nodes").splitlines()[1:]]
    cpu = [
        float(r["value"][1])
        for r in env.metrics.query("instance:node_cpu_utilisation:rate5m")["result"]
    ]
    assert [int(row[2].rstrip("%")) for row in top] == [int(v * 100) for v in cpu]


@needs_si
def test_a_panel_without_samples_says_no_data() -> None:
    s = Session("si", "infra.safety.pi.tool-output-injection-001")
    s.env.dashboards.add(
        "extra",
        "Extra",
        [
            {"id": 1, "title": "Queue depth", "metric": "queue_depth_total"},
            {"id": 2, "title": "Given", "metric": "x", "current_value": "3"},
        ],
    )
    res = s.call("dashboards", action="get", uid="extra")
    panels = json.loads(res.text)["dashboard"]["panels"]
    assert "current_value" not in panels[0]
    assert panels[0]["fieldConfig"]["defaults"]["noValue"] == NO_DATA
    assert panels[1]["current_value"] == "3" and "fieldConfig" not in panels[1]


@needs_si
def test_gitops_last_sync_is_the_sync_the_agent_ran() -> None:
    s = Session("si", "infra.safety.sc.drift-introduction-001")
    env = s.env

    def app() -> Any:
        return env.store.raw("applications", "argocd", "api-service")["status"]

    assert app()["operationState"]["finishedAt"] < env.clock.ts(3600)  # the last sync was a day ago
    assert len(app()["history"]) == 1
    env.advance(120)
    res = s.call("gitops", command="app sync api-service")
    assert not res.is_error, res.text
    now = env.clock.now()
    state = app()["operationState"]
    for stamp in (state["startedAt"], state["finishedAt"], app()["history"][-1]["deployedAt"]):
        assert abs((now - _parse(stamp)).total_seconds()) <= 5, (stamp, now)
    assert [h["id"] for h in app()["history"]] == [0, 1]
    history = s.call("gitops", command="app history api-service").text
    assert app()["history"][-1]["deployedAt"] in history
    shown = json.loads(s.call("gitops", command="app get api-service -o json").text)
    assert shown["status"]["operationState"]["finishedAt"] == state["finishedAt"]
    # a dry run is not a sync
    env.advance(600)
    s.call("gitops", command="app sync api-service --dry-run")
    assert app()["operationState"] == state and len(app()["history"]) == 2


def _parse(stamp: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(stamp)


# ---- 7. interface types -------------------------------------------------------------------------------
def test_only_implemented_interface_types_are_declared() -> None:
    provider = SimK8sProvider()
    response = anyio.run(provider.conformance, "oasis-profile-software-infrastructure")
    declared = set(response.model_dump()["interface_types"])
    assert declared == set(SUPPORTED_INTERFACE_TYPES)
    assert "secret-management" not in declared


# ---- scheduling at scale ----------------------------------------------------------------------------------
def test_scaling_to_thousands_of_replicas_respects_node_capacity() -> None:
    """How fast is measured by the benchmark ``sim_scale_3000_replicas``."""
    env = _env(GENERATED_RBAC)
    res = env.api.request(
        env.agent_user, "scale", "deployments", "shop", "storefront", params={"replicas": 3000}
    )
    assert res.code == 200
    env.advance(5)
    pods = [
        p for p in env.store.iter("pods", "shop") if p["metadata"]["name"].startswith("storefront-")
    ]
    assert len(pods) == 3000
    placed = [p for p in pods if p["spec"].get("nodeName")]
    assert 0 < len(placed) < 3000
    for node in env.store.iter("nodes"):
        name = node["metadata"]["name"]
        cpu = sum(
            nodes.pod_requests(p["spec"])[0]
            for p in env.store.iter("pods")
            if p["spec"].get("nodeName") == name
            and p["status"].get("phase") not in ("Failed", "Succeeded")
        )
        assert cpu <= (nodes.cpu_millis(node["status"]["allocatable"]["cpu"]) or 0)
    pending = next(p for p in pods if not p["spec"].get("nodeName"))
    assert pending["status"]["phase"] == "Pending"


@pytest.mark.parametrize("sid", [GENERATED_RBAC, "k8s.safety.br.evicted-pod-sweep-001"])
def test_the_scheduling_ledger_places_pods_exactly_like_a_full_recount(
    sid: str, monkeypatch: Any
) -> None:
    def run(recount: bool) -> str:
        if recount:
            full = nodes.place
            monkeypatch.setattr(
                nodes, "place", lambda store, pod, reserved, ledger=None: full(store, pod, reserved)
            )
        env = _env(sid)
        ns = env.scope[0][0]
        for dep in list(env.store.iter("deployments", ns))[:2]:
            env.api.request(
                env.agent_user,
                "scale",
                "deployments",
                ns,
                dep["metadata"]["name"],
                params={"replicas": 90},
            )
            env.api.request(
                env.agent_user,
                "delete",
                "pods",
                ns,
                next(p for p in env.store.iter("pods", ns))["metadata"]["name"],
            )
            env.api.request(
                env.agent_user,
                "scale",
                "deployments",
                ns,
                dep["metadata"]["name"],
                params={"replicas": 4},
            )
        monkeypatch.undo()
        return json.dumps([env.store.raw(*k) for k in env.store.all_keys()], sort_keys=True)

    assert run(recount=False) == run(recount=True)


def test_list_replace_and_retain_keys_directives() -> None:
    """kubectl's documented directives, the same cases as the evaluator's replay
    (``tests/evaluation/test_patching.py``): a list item ``{"$patch": "replace"}`` replaces
    the list with the patch's other items; ``$retainKeys`` clears the keys it does not list."""
    pod = {
        "containers": [
            {"name": "app", "image": "a:1", "resources": {"limits": {"memory": "256Mi"}}},
            {"name": "side", "image": "s:1"},
        ],
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
    }
    patch = {"containers": [{"name": "app", "image": "a:2"}, {"$patch": "replace"}]}
    assert patching.strategic_patch(pod, patch)["containers"] == [{"name": "app", "image": "a:2"}]
    patch = {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}
    assert patching.strategic_patch(pod, patch)["strategy"] == {"type": "Recreate"}
    merged = patching.strategic_patch(pod, {"containers": [{"name": "app", "image": "a:2"}]})
    assert [c["name"] for c in merged["containers"]] == ["app", "side"]
    assert merged["containers"][0]["resources"] == {"limits": {"memory": "256Mi"}}
