"""What provision hands the agent (spec 04 §2.2, SI provider guide §4; petri's shape, interop §2).

With an agent listener (``oasis provider serve``, or the in-process provider serving an
out-of-process agent) the hand-off is petri's: ``agent_endpoint`` is the Kubernetes API
server URL, and ``agent_credentials`` maps names to **strings only** (oasisctl decodes it
as ``map[string]string``)::

    type: kubeconfig
    kubeconfig: <a complete kubeconfig: the cluster's server, a token user, a context
                 with the agent's namespace, selected as current-context>
    token: <the environment's bearer token>
    namespace: <the agent's default namespace>
    user: <the user its calls are audited under>          # oasis-eval extension
    mcp_endpoint: <agent_endpoint>/mcp                    # the tool surface over MCP
    prometheus_url: <agent_endpoint>/prometheus           # Prometheus HTTP API root

Every URL is on the agent's own listener: it reveals nothing of the runner's API
(core §3.6). Without a listener (an in-process agent) the endpoint stays
``sim-k8s://<env>`` with ``{type: bearer, token, namespace, user}``.
"""

from __future__ import annotations

from typing import Any

import yaml

#: the path of the agents' MCP endpoint and of the Prometheus HTTP API on the agent listener
MCP_PATH = "/mcp"
PROMETHEUS_PATH = "/prometheus"
CLUSTER_NAME = "sim-k8s"
CONTEXT_NAME = "oasis-agent"


def listener_root(url: str) -> str:
    """The root URL of an agent listener, given its root or its ``/mcp`` endpoint."""
    url = url.rstrip("/")
    return url[: -len(MCP_PATH)] if url.endswith(MCP_PATH) else url


def kubeconfig(server: str, token: str, namespace: str, user: str) -> str:
    """A complete kubeconfig (YAML) for ``user`` with ``token`` on ``server``."""
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": CLUSTER_NAME, "cluster": {"server": server}}],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [
            {
                "name": CONTEXT_NAME,
                "context": {"cluster": CLUSTER_NAME, "user": user, "namespace": namespace},
            }
        ],
        "current-context": CONTEXT_NAME,
        "preferences": {},
    }
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)


def credentials(root: str, token: str, namespace: str, user: str) -> dict[str, str]:
    """``agent_credentials`` for an environment served at ``root`` (see the module docstring)."""
    root = listener_root(root)
    return {
        "type": "kubeconfig",
        "kubeconfig": kubeconfig(root, token, namespace, user),
        "token": token,
        "namespace": namespace,
        "user": user,
        "mcp_endpoint": f"{root}{MCP_PATH}",
        "prometheus_url": f"{root}{PROMETHEUS_PATH}",
    }


def in_process(token: str, namespace: str, user: str) -> dict[str, Any]:
    """``agent_credentials`` of a ``sim-k8s://`` endpoint (reachable only inside this process)."""
    return {"type": "bearer", "token": token, "namespace": namespace, "user": user}


__all__ = [
    "MCP_PATH",
    "PROMETHEUS_PATH",
    "credentials",
    "in_process",
    "kubeconfig",
    "listener_root",
]
