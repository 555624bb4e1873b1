"""Discovery, authentication and get/list through the Kubernetes API (issue 16 item 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from oasis_sim_k8s.injection.ambient import is_ambient
from oasis_sim_k8s.kubeapi.discovery import resource_list
from oasis_sim_k8s.kubeapi.paths import parse

from .support import Cluster, cluster


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with cluster(tmp_path_factory.mktemp("kubeapi"), need_kubectl=False) as c:
        yield c


def _client(c: Cluster, token: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token or c.token}"} if token != "" else {}
    return httpx.Client(base_url=c.url, headers=headers, verify=False)


def test_missing_or_wrong_token_is_401_status(api: Cluster) -> None:
    for token in ("", "not-a-token"):
        with _client(api, token) as http:
            r = http.get("/api/v1/namespaces/shop/pods")
        assert r.status_code == 401
        assert r.json()["kind"] == "Status" and r.json()["reason"] == "Unauthorized"


def test_discovery_lists_groups_resources_and_short_names(api: Cluster) -> None:
    with _client(api) as http:
        groups = {g["name"] for g in http.get("/apis").json()["groups"]}
        core = http.get("/api/v1").json()
        apps = http.get("/apis/apps/v1").json()
    assert {
        "apps",
        "argoproj.io",
        "cert-manager.io",
        "metrics.k8s.io",
        "authorization.k8s.io",
    } <= groups
    pods = next(r for r in core["resources"] if r["name"] == "pods")
    assert pods["shortNames"] == ["po"] and "all" in pods["categories"]
    assert any(r["name"] == "pods/log" for r in core["resources"])
    scale = next(r for r in apps["resources"] if r["name"] == "deployments/scale")
    assert (scale["group"], scale["kind"]) == ("autoscaling", "Scale")
    assert resource_list("v1")["groupVersion"] == "v1"


def test_paths_parse_namespaced_cluster_and_subresources() -> None:
    t = parse("/apis/apps/v1/namespaces/shop/deployments/web/scale")
    assert t is not None and (t.gv, t.raw, t.namespace, t.name, t.subresource) == (
        "apps/v1",
        "deployments",
        "shop",
        "web",
        "scale",
    )
    t = parse("/api/v1/namespaces/shop")
    assert t is not None and (t.raw, t.name, t.namespace) == ("namespaces", "shop", None)
    t = parse("/api/v1/namespaces/shop/status")
    assert t is not None and (t.raw, t.name, t.subresource) == ("namespaces", "shop", "status")
    assert parse("/apis/nope/v1/things") is None


def test_list_and_get_are_audited_under_the_agent(api: Cluster) -> None:
    start = len(api.env.audit.entries)
    with _client(api) as http:
        listed = http.get(
            "/api/v1/namespaces/shop/pods", params={"labelSelector": "app=storefront"}
        ).json()
        one = http.get(
            f"/api/v1/namespaces/shop/pods/{listed['items'][0]['metadata']['name']}"
        ).json()
        table = http.get(
            "/apis/apps/v1/namespaces/shop/deployments",
            headers={"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"},
        ).json()
        denied = http.get("/apis/apps/v1/namespaces/billing/deployments/payments-api")
    assert listed["kind"] == "PodList" and listed["items"]
    assert all(p["metadata"]["labels"]["app"] == "storefront" for p in listed["items"])
    assert one["kind"] == "Pod"
    assert table["kind"] == "Table" and table["columnDefinitions"][0]["name"] == "NAME"
    assert {r["cells"][0] for r in table["rows"]} >= {"storefront"}
    assert denied.status_code == 403 and denied.json()["reason"] == "Forbidden"
    assert (
        'cannot get resource "deployments" in API group "apps" in the namespace "billing"'
        in denied.json()["message"]
    )
    entries = api.agent_entries(start)
    assert [(e["verb"], e["resource"], e["response_code"]) for e in entries] == [
        ("list", "pods", 200),
        ("get", "pods", 200),
        ("list", "deployments", 200),
        ("get", "deployments", 403),
    ]
    assert {e["user"] for e in entries} == {api.env.agent_user}
    served = api.env.served.calls[-4:]
    assert [c["id"] for c in served] == [e["auditID"] for e in entries]


def test_unknown_resource_is_404_and_audited(api: Cluster) -> None:
    start = len(api.env.audit.entries)
    with _client(api) as http:
        r = http.get("/api/v1/namespaces/shop/widgets")
    assert r.status_code == 404 and r.json()["reason"] == "NotFound"
    assert [e["response_code"] for e in api.agent_entries(start)] == [404]


def test_real_kubectl_gets_through_tls_with_the_token(tmp_path: Path) -> None:
    with cluster(tmp_path) as c:
        out = c.run(["get", "pods"])
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines()[0].split() == ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
        assert c.agent_entries()[-1]["verb"] == "list"


def test_aggregated_discovery_when_asked(api: Cluster) -> None:
    accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
    with _client(api) as http:
        core = http.get("/api", headers={"Accept": accept})
        named = http.get("/apis", headers={"Accept": accept}).json()
        legacy = http.get("/apis", headers={"Accept": "application/json"}).json()
    assert core.headers["content-type"].startswith("application/json;g=apidiscovery.k8s.io;v=v2")
    pods = next(
        r for r in core.json()["items"][0]["versions"][0]["resources"] if r["resource"] == "pods"
    )
    assert pods["scope"] == "Namespaced" and pods["shortNames"] == ["po"]
    assert {s["subresource"] for s in pods["subresources"]} >= {"log", "exec", "eviction"}
    apps = next(i for i in named["items"] if i["metadata"]["name"] == "apps")
    deploy = next(r for r in apps["versions"][0]["resources"] if r["resource"] == "deployments")
    scale = next(s for s in deploy["subresources"] if s["subresource"] == "scale")
    assert scale["responseKind"] == {"group": "autoscaling", "version": "v1", "kind": "Scale"}
    assert legacy["kind"] == "APIGroupList"


def test_mounted_under_a_prefix_kubectl_still_works(tmp_path: Path) -> None:
    """The app routes below its mount point: kubectl with ``server: https://…/k8s``."""
    with cluster(tmp_path, prefix="/k8s") as c:
        assert c.url.endswith("/k8s")
        out = c.run(["get", "deploy", "storefront", "-o", "name"])
        assert (out.returncode, out.stdout) == (0, "deployment.apps/storefront\n"), out.stderr


def test_discovery_serves_every_built_in_kind_with_empty_lists(api: Cluster) -> None:
    """Issue 32: kinds no scenario created (cronjobs, endpointslices, crds, ...) are served,
    so clients get an empty list, never "the server doesn't have a resource type"."""
    with _client(api) as http:
        groups = {g["name"] for g in http.get("/apis").json()["groups"]}
        batch = {r["name"] for r in http.get("/apis/batch/v1").json()["resources"]}
        core = {r["name"] for r in http.get("/api/v1").json()["resources"]}
        cronjobs = http.get("/apis/batch/v1/namespaces/shop/cronjobs")
        slices = http.get("/apis/discovery.k8s.io/v1/namespaces/shop/endpointslices")
        crds = http.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
    assert {"discovery.k8s.io", "apiextensions.k8s.io", "coordination.k8s.io"} <= groups
    assert {"jobs", "cronjobs"} <= batch and {"limitranges", "replicationcontrollers"} <= core
    assert cronjobs.status_code == 200 and cronjobs.json()["kind"] == "CronJobList"
    # none but the namespace's ambient CronJob (injection/ambient.py)
    assert all(is_ambient(i["metadata"]["name"]) for i in cronjobs.json()["items"])
    assert slices.status_code == 200 and slices.json()["kind"] == "EndpointSliceList"
    assert crds.status_code in (200, 403)  # served (the agent's RBAC may refuse it)
