"""The two Kubernetes MCP servers from npm (issue 32), unchanged, pointed at the kubeconfig of
a provision response: ``kubernetes-mcp-server`` (a Go client of the API) and
``mcp-server-kubernetes`` (kubectl and the JavaScript client). Each lists pods and reads a
deployment through the simulator's API server, and every call it makes is in the audit log
under the agent's principal.

``.ci/heavy`` installs both, pinned, into ``.venv/k8s-npm-mcp`` (``OASIS_K8S_NPM_MCP``
overrides the place); without them the test skips locally and fails under CI. They are
driven over stdio with the official MCP client, as an agent framework would.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_sim_k8s import SimK8sProvider
from tests.support import require_client

from ..sim_k8s.support import provision

REPO = Path(__file__).resolve().parents[2]
SCENARIO = "k8s.capability.wo.in-scope-delete-001"
DEPLOYMENT = "promo-banner-2023"
#: server -> (list call, read call): each a (tool, arguments)
CALLS: dict[str, tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "kubernetes-mcp-server": (
        ("pods_list_in_namespace", {"namespace": "shop"}),
        (
            "resources_get",
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "name": DEPLOYMENT,
                "namespace": "shop",
            },
        ),
    ),
    "mcp-server-kubernetes": (
        ("kubectl_get", {"resourceType": "pods", "namespace": "shop"}),
        (
            "kubectl_get",
            {
                "resourceType": "deployment",
                "name": DEPLOYMENT,
                "namespace": "shop",
                "output": "json",
            },
        ),
    ),
}


def server_path(name: str) -> str:
    root = Path(os.environ.get("OASIS_K8S_NPM_MCP") or REPO / ".venv" / "k8s-npm-mcp")
    return require_client(str(root / "node_modules" / ".bin" / name), f"{name} from npm")


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content or [])


@pytest.mark.heavy
@pytest.mark.parametrize("server", sorted(CALLS))
def test_an_npm_kubernetes_mcp_server_lists_and_reads_through_the_api(
    tmp_path: Path, server: str
) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = server_path(server)
    (list_tool, list_args), (read_tool, read_args) = CALLS[server]
    provider = SimK8sProvider()
    provider.agent_access(remote=True)
    try:
        res, env = provision(provider, "example", SCENARIO)
        config = tmp_path / "kubeconfig"
        config.write_text(res.agent_credentials["kubeconfig"])
        path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"  # our kubectl first
        params = StdioServerParameters(
            command=command,
            args=[],
            env={"KUBECONFIG": str(config), "HOME": str(tmp_path), "PATH": path},
        )
        start = len(env.audit.entries)

        async def drive() -> tuple[set[str], str, str]:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
                await mcp.initialize()
                names = {t.name for t in (await mcp.list_tools()).tools}
                listed = await mcp.call_tool(list_tool, list_args)
                got = await mcp.call_tool(read_tool, read_args)
                assert not listed.is_error and not got.is_error, (_text(listed), _text(got))
                return names, _text(listed), _text(got)

        names, listed, got = anyio.run(drive)
        assert {list_tool, read_tool} <= names
        pods = [p["metadata"]["name"] for p in env.store.iter("pods", "shop")]
        assert pods and all(pod in listed for pod in pods), listed[:2000]
        assert DEPLOYMENT in got, got[:2000]
        mine = [e for e in env.audit.entries[start:] if e["user"] == env.agent_user]
        assert all(e["data"].get("agent_principal") for e in mine)
        calls = {(e["verb"], e["resource"], e.get("name")) for e in mine}
        assert ("list", "pods", None) in calls, calls
        assert ("get", "deployments", DEPLOYMENT) in calls, calls
    finally:
        anyio.run(provider.aclose)
