"""A Kubernetes REST API in front of the simulator (issue 16 item 1): unmodified clients
(``kubectl``, the official client libraries) act on a simulated cluster through it, every
request going through the same pipeline — RBAC, admission, audit — as the MCP tools.
See ``docs/kubeapi.md``."""

from .app import KUBE_PREFIX, KubeApi, create_kube_app

__all__ = ["KUBE_PREFIX", "KubeApi", "create_kube_app"]
