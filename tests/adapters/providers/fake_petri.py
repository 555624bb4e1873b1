"""A tiny programmable stand-in for petri's /v1 HTTP API, for adapter tests.

Runs a threaded ``http.server`` on 127.0.0.1 with an ephemeral port. Per path
(without the query string) it answers from a queue of scripted responses; when a
path's queue holds one response left, that response repeats forever. Unscripted
paths answer 404 ``{status: error, message: "... not found"}``. Every request is
recorded (method, path, query, headers, parsed JSON body).
"""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class FakePetri:
    scripts: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    # ---- scripting -----------------------------------------------------------
    def script(self, path: str, *responses: Any) -> None:
        """Answer ``path`` with these (status, body) or (status, body, headers) in order (or
        callables returning one); the last one repeats."""
        with self._lock:
            self.scripts[path] = list(responses)

    def next_response(self, path: str) -> tuple[Any, ...]:
        with self._lock:
            queue = self.scripts.get(path)
            if not queue:
                return 404, {"status": "error", "message": f"path {path} not found"}
            answer = queue.pop(0) if len(queue) > 1 else queue[0]
        return answer() if callable(answer) else answer  # a callable answers late (timeouts)

    def calls(self, path: str) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    # ---- lifecycle -----------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakePetri:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # TCP_NODELAY: no ~40 ms delayed-ACK stall per answer

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with fake._lock:
                    fake.requests.append(
                        Recorded(
                            self.command,
                            parts.path,
                            parse_qs(parts.query),
                            {k.lower(): v for k, v in self.headers.items()},
                            body,
                        )
                    )
                status, answer, *extra = fake.next_response(parts.path)
                headers = dict(extra[0]) if extra else {}
                if isinstance(answer, bytes):  # as it is (a parts-form body: http_parts)
                    payload = answer
                    kind = headers.pop("Content-Type", "application/x-oasis-parts")
                elif isinstance(answer, str):
                    payload, kind = answer.encode(), "text/plain"
                else:
                    payload, kind = json.dumps(answer).encode(), "application/json"
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                # the client may have given up (timeout tests)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(payload)

            do_GET = _handle
            do_POST = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # shutdown() waits for the serving loop's next poll: 0.5 s by default, at every
        # test's teardown (issue 31, the suite's waiting)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
