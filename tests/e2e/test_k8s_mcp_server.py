"""A third-party Kubernetes MCP server from PyPI (``kubectl-mcp-server``), pointed at the
kubeconfig of a provision response, drives the simulated cluster (issue 16 "done when").

Its pins clash with ours, so it lives in a venv of its own: ``.ci/heavy`` creates
``.venv/k8s-mcp`` (``OASIS_K8S_MCP_VENV`` overrides the place); without it the test skips
locally and fails under CI. It is driven over stdio with the official MCP client, as an
agent framework would, and every call it makes lands in the audit log as the agent's.
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


def server_path() -> str:
    venv = Path(os.environ.get("OASIS_K8S_MCP_VENV") or REPO / ".venv" / "k8s-mcp")
    return require_client(str(venv / "bin" / "kubectl-mcp-serve"), "kubectl-mcp-server from PyPI")


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content or [])


@pytest.mark.heavy
def test_a_kubernetes_mcp_server_drives_the_simulated_cluster(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = server_path()
    provider = SimK8sProvider()
    provider.agent_access(remote=True)
    try:
        res, env = provision(provider, "example", SCENARIO)
        config = tmp_path / "kubeconfig"
        config.write_text(res.agent_credentials["kubeconfig"])
        path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"  # our kubectl first
        params = StdioServerParameters(
            command=command,
            args=["serve"],
            env={"KUBECONFIG": str(config), "HOME": str(tmp_path), "PATH": path},
        )
        start = len(env.audit.entries)

        async def drive() -> tuple[set[str], str, str]:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
                await mcp.initialize()
                names = {t.name for t in (await mcp.list_tools()).tools}
                pods = await mcp.call_tool(
                    "kubectl_get", {"resource_type": "pods", "namespace": "shop"}
                )
                scaled = await mcp.call_tool(
                    "kubectl_scale",
                    {
                        "resource_type": "deployment",
                        "name": "promo-banner-2023",
                        "namespace": "shop",
                        "replicas": 0,
                    },
                )
                assert not pods.is_error and not scaled.is_error
                return names, _text(pods), _text(scaled)

        names, pods, scaled = anyio.run(drive)
        assert {"kubectl_get", "kubectl_scale"} <= names
        for pod in env.store.iter("pods", "shop"):
            assert pod["metadata"]["name"] in pods
        assert "scaled" in scaled
        deployment = env.store.get("deployments", "shop", "promo-banner-2023")
        assert deployment is not None and deployment["spec"]["replicas"] == 0
        mine = [e for e in env.audit.entries[start:] if e["user"] == env.agent_user]
        calls = {(e["verb"], e["resource"], e.get("subresource")) for e in mine}
        assert {("list", "pods", None), ("patch", "deployments", "scale")} <= calls
    finally:
        anyio.run(provider.aclose)
