"""The agent's listeners served from a background thread (the in-process provider serving an
out-of-process agent, issue 16 item 3; ``oasis provider serve``'s Kubernetes API listener).

:func:`serve_in_thread` runs an ASGI app under uvicorn on ``host:port`` (0: a free port),
plain or over TLS with a fresh self-signed certificate (:mod:`.kubeapi.tls`: kubectl sends
a bearer token only over https), and returns a :class:`Listener` with its URL, the
certificate as kubeconfig ``certificate-authority-data`` and ``stop``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn


@dataclass
class Listener:
    url: str
    #: the certificate as base64 PEM (kubeconfig ``certificate-authority-data``); None: plain
    ca_data: str | None
    _server: Any = field(repr=False)
    _thread: threading.Thread = field(repr=False)
    _sock: socket.socket = field(repr=False)
    _stopped: threading.Event = field(default_factory=threading.Event, repr=False)

    def stop(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        self._server.should_exit = True
        self._thread.join(timeout=10)
        with contextlib.suppress(OSError):
            self._sock.close()


def _tls_files(tmp: str) -> tuple[str, str, str]:
    """A fresh self-signed certificate written to ``tmp`` (key mode 0600): (cert, key, ca_data)."""
    from .kubeapi.tls import self_signed

    cert = self_signed()
    certfile, keyfile = os.path.join(tmp, "tls.crt"), os.path.join(tmp, "tls.key")
    with open(certfile, "wb") as fh:
        fh.write(cert.cert_pem)
    fd = os.open(keyfile, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(cert.key_pem)
    return certfile, keyfile, cert.ca_data


def serve_in_thread(
    app: Any, host: str = "127.0.0.1", port: int = 0, *, tls: bool = False
) -> Listener:
    """Serve ``app`` (its lifespan included) in a daemon thread until ``stop()``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    tmp = tempfile.mkdtemp(prefix="sim-k8s-tls-")
    certfile = keyfile = ca_data = None
    if tls:
        certfile, keyfile, ca_data = _tls_files(tmp)
    ws = "auto"
    if tls:
        from .kubeapi.serve import WS  # the WebSocket protocol kubectl exec needs

        ws = WS
    config = uvicorn.Config(
        app,
        ws=ws,
        log_level="warning",
        lifespan="on",
        access_log=False,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name=f"agent-{bound}", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 15
    try:
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                raise RuntimeError(f"the agent listener on {host}:{bound} did not start")
            time.sleep(0.01)
    finally:  # uvicorn has loaded them: nothing secret stays on disk
        for name in ("tls.key", "tls.crt"):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(tmp, name))
        with contextlib.suppress(OSError):
            os.rmdir(tmp)
    scheme = "https" if tls else "http"
    return Listener(f"{scheme}://{host}:{bound}", ca_data, server, thread, sock)


__all__ = ["Listener", "serve_in_thread"]
