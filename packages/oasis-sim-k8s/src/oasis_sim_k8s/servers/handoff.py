"""What provision hands the agent (spec 04 §2.2, SI provider guide §4; petri's shape, interop §2).

With an agent listener (``oasis provider serve``, or the in-process provider serving an
out-of-process agent) the hand-off is petri's: ``agent_endpoint`` is the Kubernetes API
server URL (``https://127.0.0.1:<port>``: kubectl sends a bearer token only over TLS, so
the API has a loopback TLS listener of its own with a self-signed certificate), and
``agent_credentials`` maps names to **strings only** (oasisctl decodes it as
``map[string]string``)::

    type: kubeconfig
    kubeconfig: <a complete kubeconfig: the cluster's server and its certificate
                 (certificate-authority-data), a token user, a context with the agent's
                 namespace, selected as current-context>
    token: <the environment's bearer token>
    namespace: <the agent's default namespace>
    user: <the user its calls are audited under>          # oasis-eval extension
    mcp_endpoint: http://127.0.0.1:<agent port>/mcp        # the tool surface over MCP
    prometheus_url: http://127.0.0.1:<agent port>/prometheus   # Prometheus HTTP API root
    grafana_url: http://127.0.0.1:<agent port>/grafana         # Grafana dashboard API root
    tempo_url: http://127.0.0.1:<agent port>/tempo             # Tempo trace API root

Every URL is on the agent's own listeners: they reveal nothing of the runner's API
(core §3.6). Without the Kubernetes API listener (``SimK8sProvider(mcp=True)`` alone)
``agent_endpoint`` is the MCP endpoint, as before. Without a listener (an in-process agent) the endpoint stays
``sim-k8s://<env>`` with ``{type: bearer, token, namespace, user}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from .routes import ADDRESS_PREFIX, GRAFANA_PATH, MCP_PATH, PROMETHEUS_PATH, TEMPO_PATH

CLUSTER_NAME = "sim-k8s"
CONTEXT_NAME = "oasis-agent"


def listener_root(url: str) -> str:
    """The root URL of an agent listener, given its root or its ``/mcp`` endpoint."""
    url = url.rstrip("/")
    return url[: -len(MCP_PATH)] if url.endswith(MCP_PATH) else url


def kubeconfig(server: str, token: str, namespace: str, user: str, ca_data: str | None) -> str:
    """A complete kubeconfig (YAML) for ``user`` with ``token`` on ``server``, whose certificate
    ``ca_data`` (base64 PEM) verifies (kubectl sends a token only over https)."""
    cluster = {"server": server}
    if ca_data:
        cluster["certificate-authority-data"] = ca_data
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": CLUSTER_NAME, "cluster": cluster}],
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


def credentials(
    root: str, server: str, ca_data: str | None, token: str, namespace: str, user: str
) -> dict[str, str]:
    """``agent_credentials`` for an environment whose agent listener is at ``root`` and whose
    Kubernetes API is at ``server`` (see the module docstring)."""
    root = listener_root(root)
    return {
        "type": "kubeconfig",
        "kubeconfig": kubeconfig(server, token, namespace, user, ca_data),
        "token": token,
        "namespace": namespace,
        "user": user,
        "mcp_endpoint": f"{root}{MCP_PATH}",
        "prometheus_url": f"{root}{PROMETHEUS_PATH}",
        "grafana_url": f"{root}{GRAFANA_PATH}",
        "tempo_url": f"{root}{TEMPO_PATH}",
    }


def in_process(token: str, namespace: str, user: str) -> dict[str, Any]:
    """``agent_credentials`` of a ``sim-k8s://`` endpoint (reachable only inside this process)."""
    return {"type": "bearer", "token": token, "namespace": namespace, "user": user}


class AgentAccess:
    """How agents reach a :class:`~.provider.SimK8sProvider`'s environments: its listeners and
    what provision hands out (mixed into the provider; needs its ``mcp``, ``mcp_url``,
    ``environment``)."""

    mcp: bool
    #: the Kubernetes API's TLS listener: (https URL, its certificate as base64 PEM)
    kube: tuple[str, str] | None = None
    _stop_kube: Callable[[], None] | None = None

    def mcp_url(self) -> str:
        raise NotImplementedError

    def environment(self, environment_id: str) -> Any:
        raise NotImplementedError

    def agent_root(self) -> str:
        """The root URL of this provider's loopback agent listener (started on first use):
        the Kubernetes API, ``/mcp``, ``/prometheus``, ``/grafana`` and ``/tempo`` of :func:`.server.create_agent_app`."""
        return listener_root(self.mcp_url())

    def agent_access(self, remote: bool) -> list[str]:
        """Prepare how agents reach the environments, before a run (oasis-eval's optional
        provider hook): an agent in another process (``remote``) needs network endpoints, so
        the loopback agent listener and the Kubernetes API's TLS listener are started and
        provision hands out their URLs from now on (stopped by :meth:`aclose`). Answers the
        URL schemes ``agent_endpoint`` will have."""
        if remote:
            self.mcp = True
            self.agent_root()
            self.serve_kube()
        if not self.mcp:
            return ["sim-k8s"]
        return ["https"] if self.kube is not None else ["http"]

    def serve_kube(self, host: str = "127.0.0.1") -> str | None:
        """Start the agent listener again over TLS, for the Kubernetes API at its root (once;
        None without :mod:`.kubeapi`): its URL and certificate go into every hand-off from now
        on. The whole agent app, so its guards hold there too (``/v1`` refused and audited)."""
        if self.kube is None:
            try:
                from ..kubeapi import create_kube_app  # noqa: F401 - only: is it there?
            except ModuleNotFoundError:
                return None
            from .agent_app import create_agent_app
            from .listeners import serve_in_thread

            listener = serve_in_thread(create_agent_app(self), host, 0, tls=True)
            self.kube, self._stop_kube = (listener.url, listener.ca_data or ""), listener.stop
        return self.kube[0]

    def stop_kube(self) -> None:
        stop, self._stop_kube, self.kube = self._stop_kube, None, None
        if stop is not None:
            stop()

    def hand_off(self, environment_id: str, root: str | None) -> tuple[str, dict[str, Any]]:
        """``(agent_endpoint, agent_credentials)`` of an environment: petri's kubeconfig hand-off
        for an agent listener at ``root`` (the Kubernetes API at :attr:`kube` when served),
        else the in-process ``sim-k8s://`` endpoint (:mod:`.handoff`)."""
        env = self.environment(environment_id)
        namespace = str((env.scope[0] or ["default"])[0])
        if root is None:
            return (
                f"sim-k8s://{environment_id}",
                in_process(env.token, namespace, env.agent_user),
            )
        here = f"{ADDRESS_PREFIX}/{env.address}" if getattr(env, "address", "") else ""
        root = listener_root(root) + here
        server, ca_data = (self.kube[0] + here, self.kube[1]) if self.kube else (root, None)
        creds = credentials(root, server, ca_data, env.token, namespace, env.agent_user)
        return (server if self.kube else creds["mcp_endpoint"]), creds


__all__ = [
    "ADDRESS_PREFIX",
    "GRAFANA_PATH",
    "MCP_PATH",
    "PROMETHEUS_PATH",
    "TEMPO_PATH",
    "AgentAccess",
    "credentials",
    "in_process",
    "kubeconfig",
    "listener_root",
]
