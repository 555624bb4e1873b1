"""Provision's hand-off in petri's shape (issue 16 item 2; SI provider guide §4; interop §2):
``agent_endpoint`` the API server URL, ``agent_credentials`` strings only (oasisctl decodes
them as map[string]string) with a complete kubeconfig; ``connect`` works for every form."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
import yaml

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app
from oasis_sim_k8s.servers.connect import connect
from oasis_sim_k8s.servers.handoff import listener_root
from tests.sim_k8s.support import live, provision

SCENARIO = "k8s.capability.wo.in-scope-delete-001"
PETRI_KEYS = {"type", "kubeconfig", "token", "namespace"}


@pytest.fixture
def served() -> Iterator[SimK8sProvider]:
    """The in-process provider, prepared for an agent in another process."""
    provider = SimK8sProvider()
    assert provider.agent_access(remote=True) == ["https"]
    try:
        yield provider
    finally:
        anyio.run(provider.aclose)
    assert provider.kube is None  # aclose stopped both listeners


def _kubeconfig(creds: dict[str, Any]) -> dict[str, Any]:
    doc = yaml.safe_load(creds["kubeconfig"])
    assert isinstance(doc, dict)
    return doc


def test_in_process_agents_keep_the_sim_k8s_endpoint() -> None:
    provider = SimK8sProvider()
    assert provider.agent_access(remote=False) == ["sim-k8s"]
    res, env = provision(provider, "example", SCENARIO)
    assert res.agent_endpoint == f"sim-k8s://{res.environment_id}"
    assert res.agent_credentials == {
        "type": "bearer",
        "token": env.token,
        "namespace": "shop",
        "user": env.agent_user,
    }
    assert provider.kube is None and provider._mcp is None  # nothing listens


def test_out_of_process_hand_off_is_petris_shape(served: SimK8sProvider) -> None:
    res, env = provision(served, "example", SCENARIO)
    creds = res.agent_credentials
    assert set(creds) >= PETRI_KEYS and creds["type"] == "kubeconfig"
    assert all(isinstance(v, str) for v in creds.values())  # map[string]string
    assert creds["token"] == env.token and creds["namespace"] == "shop"
    assert res.agent_endpoint.startswith("https://127.0.0.1:")
    doc = _kubeconfig(creds)
    context = next(c for c in doc["contexts"] if c["name"] == doc["current-context"])["context"]
    cluster = next(c for c in doc["clusters"] if c["name"] == context["cluster"])["cluster"]
    user = next(u for u in doc["users"] if u["name"] == context["user"])["user"]
    assert cluster["server"] == res.agent_endpoint
    assert base64.b64decode(cluster["certificate-authority-data"]).startswith(b"-----BEGIN")
    assert user == {"token": env.token} and context["namespace"] == "shop"
    root = listener_root(creds["mcp_endpoint"])
    assert root.startswith("http://127.0.0.1:") and creds["mcp_endpoint"] == f"{root}/mcp"
    assert creds["prometheus_url"] == f"{root}/prometheus"
    assert creds["grafana_url"] == f"{root}/grafana" and creds["tempo_url"] == f"{root}/tempo"


def test_the_kubeconfig_reaches_the_api_as_the_agent(served: SimK8sProvider) -> None:
    res, env = provision(served, "example", SCENARIO)
    doc = _kubeconfig(res.agent_credentials)
    cluster = doc["clusters"][0]["cluster"]
    pem = base64.b64decode(cluster["certificate-authority-data"]).decode()
    import ssl

    ctx = ssl.create_default_context(cadata=pem)
    headers = {"Authorization": f"Bearer {doc['users'][0]['user']['token']}"}
    got = httpx.get(f"{cluster['server']}/api/v1/namespaces/shop/pods", headers=headers, verify=ctx)
    assert got.status_code == 200 and got.json()["kind"] == "PodList"
    assert env.audit.entries[-1]["user"] == env.agent_user
    assert httpx.get(f"{cluster['server']}/api/v1/pods", verify=ctx).status_code == 401


@pytest.mark.parametrize("form", ["mcp_endpoint", "endpoint only", "root"])
def test_connect_works_for_every_form(served: SimK8sProvider, form: str) -> None:
    res, env = provision(served, "example", SCENARIO)
    creds = dict(res.agent_credentials)
    endpoint = res.agent_endpoint
    if form == "endpoint only":  # an older client: the MCP endpoint as agent_endpoint
        endpoint = creds.pop("mcp_endpoint")
    elif form == "root":  # the agent listener's root answers MCP too
        endpoint = listener_root(creds.pop("mcp_endpoint"))

    async def go() -> str:
        async with await connect(endpoint, creds) as surface:
            result = await surface.call("kubectl", {"command": "get ns shop -o name"})
            return result.text

    assert anyio.run(go) == "namespace/shop\n"
    assert env.audit.entries[-1]["user"] == env.agent_user


def test_connect_in_process_still_works() -> None:
    provider = SimK8sProvider()
    res, _ = provision(provider, "example", SCENARIO)

    async def go() -> str:
        async with await connect(res.agent_endpoint, res.agent_credentials) as surface:
            return (await surface.call("kubectl", {"command": "get ns shop -o name"})).text

    assert anyio.run(go) == "namespace/shop\n"


def test_served_provision_hands_out_the_kubeconfig() -> None:
    """``oasis provider serve``: the control API's provision answer carries the agent
    listener's hand-off, never the control API's address or the runner token."""
    provider = SimK8sProvider()
    provider.serve_kube()
    try:
        app = create_app(provider, token="runner-token", agent_url="http://{host}:4321/mcp")
        body = {
            "scenario_id": "s",
            "environment": {"type": "kubernetes-cluster", "state": []},
            "agent": {"mode": "autonomous", "tools": ["container-orchestration"]},
            "tier": 1,
        }
        with live(app) as url:
            got = httpx.post(
                f"{url}/v1/provision", json=body, headers={"Authorization": "Bearer runner-token"}
            ).json()
        creds = got["agent_credentials"]
        here = "/env/" + provider.envs[got["environment_id"]].address  # its own address
        assert provider.kube is not None and got["agent_endpoint"] == provider.kube[0] + here
        assert creds["mcp_endpoint"] == f"http://127.0.0.1:4321{here}/mcp"
        assert creds["prometheus_url"] == f"http://127.0.0.1:4321{here}/prometheus"
        assert creds["tempo_url"] == f"http://127.0.0.1:4321{here}/tempo"
        assert all(isinstance(v, str) for v in creds.values())
        assert "runner-token" not in str(got) and url not in str(creds)
    finally:
        anyio.run(provider.aclose)
