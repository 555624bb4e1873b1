"""The agent's listeners served from a background thread (the in-process provider serving an
out-of-process agent, issue 16 item 3; ``oasis provider serve``'s Kubernetes API listener).

:func:`serve_in_thread` runs an ASGI app under uvicorn on ``host:port`` (0: a free port),
plain or over TLS with a fresh self-signed certificate (:mod:`.kubeapi.tls`: kubectl sends
a bearer token only over https), and returns a :class:`Listener` with its URL, the
certificate as kubeconfig ``certificate-authority-data`` and ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn
import websockets
from uvicorn.config import WS_PROTOCOLS

from ..kubeapi.spdy import SpdyH11Protocol
from ..kubeapi.tls import ServingCert, self_signed

#: uvicorn's WebSocket protocol for ``pods/exec`` over the Kubernetes API (the ``websockets``
#: package, sans-I/O when this uvicorn has it)
WS = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
assert websockets.__name__  # imported for uvicorn: fail at import, not at the first exec


#: seconds between the serving loop's ticks (uvicorn's: its date header, its request limit);
#: a stop never waits for one
TICK_S = 0.1


class _Server(uvicorn.Server):
    """uvicorn's server, stopped without its fixed waits: uvicorn checks ``should_exit`` every
    0.1 s and sleeps 0.1 s more at shutdown before it waits for connections, polling every
    0.1 s; every listener's stop paid about 0.15 s (issue 31, the test suite's waiting). Here
    :meth:`wake` ends the wait between ticks at once, and shutdown waits for the open
    connections and requests themselves, under the same graceful bound."""

    _loop: asyncio.AbstractEventLoop | None = None
    _woken: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self._loop, self._woken = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), TICK_S)
            should_exit = await self.on_tick(counter)

    def wake(self) -> None:
        """Exit now (from any thread): the serving loop stops waiting for its next tick."""
        self.should_exit = True
        loop, woken = self._loop, self._woken
        if loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed
                loop.call_soon_threadsafe(woken.set)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        state = self.server_state
        try:
            async with asyncio.timeout(self.config.timeout_graceful_shutdown):
                # uvicorn offers no event for its last connection or request ending
                while (state.connections or state.tasks) and not self.force_exit:  # noqa: ASYNC110
                    await asyncio.sleep(0.005)
        except TimeoutError:
            for task in state.tasks:
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


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
        self._server.wake()
        self._thread.join(timeout=10)
        with contextlib.suppress(OSError):
            self._sock.close()


def _tls_files(tmp: str, cert: ServingCert) -> tuple[str, str]:
    """``cert`` written to ``tmp`` for uvicorn (key mode 0600): (cert file, key file)."""
    certfile, keyfile = os.path.join(tmp, "tls.crt"), os.path.join(tmp, "tls.key")
    with open(certfile, "wb") as fh:
        fh.write(cert.cert_pem)
    fd = os.open(keyfile, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(cert.key_pem)
    return certfile, keyfile


def serve_in_thread(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    tls: bool = False,
    cert: ServingCert | None = None,
    name: str = "agent",
    lifespan: str = "on",
    graceful: int | None = None,
) -> Listener:
    """Serve ``app`` in a daemon thread until ``stop()`` (the one place sim-k8s starts uvicorn
    in a thread: MCP, Kubernetes API and agent listeners). Over TLS with ``cert`` (a fresh
    self-signed one when ``tls`` and no ``cert``); ``graceful``: seconds a stop waits for open
    connections (held watches, keep-alives)."""
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and
    # without it every answer's body waits on the client's delayed ACK (about 40 ms a request)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    cert = cert or (self_signed() if tls else None)
    tmp = tempfile.mkdtemp(prefix="sim-k8s-tls-") if cert else None
    certfile, keyfile = _tls_files(tmp, cert) if cert and tmp else (None, None)
    config = uvicorn.Config(
        app,
        ws=WS if cert else "auto",
        http=SpdyH11Protocol,  # kubectl < 1.30 execs over SPDY/3.1 (:mod:`.kubeapi.spdy`)
        log_level="warning",
        lifespan=lifespan,  # type: ignore[arg-type]
        access_log=False,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        timeout_graceful_shutdown=graceful,
    )
    server = _Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name=f"{name}-{bound}", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 15
    try:
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                raise RuntimeError(f"the {name} listener on {host}:{bound} did not start")
            time.sleep(0.01)
    finally:  # uvicorn has loaded them: nothing secret stays on disk
        if tmp:
            for file in ("tls.key", "tls.crt"):
                with contextlib.suppress(OSError):
                    os.remove(os.path.join(tmp, file))
            with contextlib.suppress(OSError):
                os.rmdir(tmp)
    scheme = "https" if cert else "http"
    ca_data = cert.ca_data if cert else None
    return Listener(f"{scheme}://{host}:{bound}", ca_data, server, thread, sock)


__all__ = ["WS", "Listener", "serve_in_thread"]
