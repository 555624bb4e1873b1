"""Serve the Kubernetes API on loopback over TLS in a background thread (tests, and any
host that wants the API on a listener of its own) and write kubeconfigs for it."""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
import websockets
import yaml
from starlette.applications import Starlette
from starlette.routing import Mount
from uvicorn.config import WS_PROTOCOLS

from ..serving import DEFAULT_MAX_BODY_BYTES, BodyLimit
from .app import create_kube_app
from .tls import ServingCert, self_signed

#: uvicorn's WebSocket protocol for ``pods/exec`` (the ``websockets`` package, sans-I/O when
#: this uvicorn has it)
WS = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
assert websockets.__name__  # imported for uvicorn: fail at import, not at the first exec


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
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    tmp = tempfile.mkdtemp(prefix="kubeapi-tls-")
    certfile, keyfile = os.path.join(tmp, "tls.crt"), os.path.join(tmp, "tls.key")
    with open(certfile, "wb") as fh:
        fh.write(cert.cert_pem)
    fd = os.open(keyfile, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(cert.key_pem)
    app: Any = create_kube_app(provider)
    if prefix:
        app = Starlette(routes=[Mount(prefix, app=app)])
    config = uvicorn.Config(
        BodyLimit(app, DEFAULT_MAX_BODY_BYTES),
        log_level="warning",
        access_log=False,
        lifespan="off",
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        # idle keep-alive connections and held watches must not delay a stop
        timeout_graceful_shutdown=1,
        ws=WS,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name=f"kubeapi-{bound}", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError("the Kubernetes API server did not start")
        time.sleep(0.01)
    with contextlib.suppress(OSError):  # uvicorn has loaded them: nothing secret stays on disk
        os.remove(keyfile)
        os.remove(certfile)
        os.rmdir(tmp)
    stopped = threading.Event()

    def stop() -> None:
        if stopped.is_set():
            return
        stopped.set()
        server.should_exit = True
        thread.join(timeout=10)
        with contextlib.suppress(OSError):
            sock.close()

    return f"https://{host}:{bound}{prefix}", cert, stop
