"""Fixtures for the agent adapter tests: an asyncio backend and a scriptable local HTTP agent."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # bytes/str sent raw; anything else JSON-encoded
    delay: float = 0.0
    content_type: str = "application/json"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class FakeAgentServer:
    """A tiny HTTP agent on 127.0.0.1: replies are scripted per (method, path)."""

    routes: dict[tuple[str, str], Reply] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    url: str = ""

    def reply(self, method: str, path: str, body: Any = None, **options: Any) -> None:
        self.routes[(method, path)] = Reply(body=body, **options)


@pytest.fixture
def agent_server() -> Iterator[FakeAgentServer]:
    state = FakeAgentServer()

    class Handler(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True  # TCP_NODELAY: no ~40 ms delayed-ACK stall per answer
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            state.seen.append(
                Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            reply = state.routes.get((self.command, self.path), Reply(404, {"detail": "not found"}))
            if reply.delay:
                time.sleep(reply.delay)
            if isinstance(reply.body, bytes):
                payload = reply.body
            elif isinstance(reply.body, str):
                payload = reply.body.encode()
            else:
                payload = json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass

        do_GET = do_POST = _handle

    class Server(ThreadingHTTPServer):
        request_queue_size = 64  # concurrent-client tests: no dropped SYNs
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
