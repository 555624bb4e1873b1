"""Serve the Kubernetes API on loopback over TLS in a background thread (tests, and any
host that wants the API on a listener of its own) and write kubeconfigs for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from starlette.applications import Starlette
from starlette.routing import Mount

from ..kubeapi.app import create_kube_app
from ..kubeapi.tls import ServingCert, self_signed
from ..web.guards import DEFAULT_MAX_BODY_BYTES
from .gate import ListenerGate
from .listeners import serve_in_thread


def kubeconfig(server: str, token: str, namespace: str, ca_data: str, name: str = "sim") -> str:
    """A kubeconfig for one agent: the server, its CA, the bearer token, the default namespace."""
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": name, "cluster": {"server": server, "certificate-authority-data": ca_data}}
        ],
        "users": [{"name": "agent", "user": {"token": token}}],
        "contexts": [
            {"name": name, "context": {"cluster": name, "user": "agent", "namespace": namespace}}
        ],
        "current-context": name,
        "preferences": {},
    }
    return yaml.safe_dump(doc, sort_keys=False)


def serve_kube_in_thread(
    provider: Any,
    host: str = "127.0.0.1",
    port: int = 0,
    cert: ServingCert | None = None,
    prefix: str = "",
) -> tuple[str, ServingCert, Callable[[], None]]:
    """Serve :func:`create_kube_app` over TLS with uvicorn in a daemon thread (mounted at
    ``prefix``, e.g. ``/k8s``, when given); returns ``(https://host:port[prefix],
    certificate, stop)``."""
    cert = cert or self_signed()
    app: Any = create_kube_app(provider)
    if prefix:
        app = Starlette(routes=[Mount(prefix, app=app)])
    # lifespan off: the app has none; idle keep-alives and held watches must not delay a stop
    listener = serve_in_thread(
        ListenerGate(app, provider, DEFAULT_MAX_BODY_BYTES),  # the agent listeners' pipeline
        host,
        port,
        cert=cert,
        name="kubeapi",
        lifespan="off",
        graceful=1,
    )
    return f"{listener.url}{prefix}", cert, listener.stop
