"""Scripted model servers on loopback speaking the two chat APIs, for the LLM adapter tests.

A real HTTP server (``ThreadingHTTPServer`` on 127.0.0.1) answers ``POST /v1/chat/completions``
(OpenAI Chat Completions) and ``POST /v1/messages`` (Anthropic Messages) from a script: a
function of the request body (and the 0-based index of the request) returning a
:class:`Say` — text, tool calls, usage — or a :class:`Fail` (an HTTP error). The official
SDKs are the clients, so what the tests see is what a real server would see.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: the model name the scripted server reports, unlike the one asked for
SERVED_MODEL = "scripted-model-2026-01-01"


@dataclass
class Say:
    """One assistant turn: text, then tool calls ``(name, arguments)``."""

    text: str = ""
    calls: list[tuple[str, Any]] = field(default_factory=list)
    usage: tuple[int, int] = (100, 20)
    delay: float = 0.0


@dataclass
class Fail:
    status: int = 500
    message: str = "scripted failure"
    #: extra response headers (``Retry-After``, ``retry-after-ms``)
    headers: dict[str, str] = field(default_factory=dict)


Script = Callable[[dict[str, Any], int], "Say | Fail"]


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def openai_body(say: Say, n: int) -> dict[str, Any]:
    calls = [
        {
            "id": f"call_{n}_{i}",
            "type": "function",
            "function": {
                "name": name,
                "arguments": args if isinstance(args, str) else json.dumps(args),
            },
        }
        for i, (name, args) in enumerate(say.calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": say.text or None}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": SERVED_MODEL,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": say.usage[0],
            "completion_tokens": say.usage[1],
            "total_tokens": sum(say.usage),
        },
    }


def anthropic_body(say: Say, n: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": say.text}] if say.text else []
    content += [
        {"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args}
        for i, (name, args) in enumerate(say.calls)
    ]
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": SERVED_MODEL,
        "content": content,
        "stop_reason": "tool_use" if say.calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": say.usage[0], "output_tokens": say.usage[1]},
    }


def error_body(api: str, fail: Fail) -> dict[str, Any]:
    if api == "anthropic":
        return {"type": "error", "error": {"type": "api_error", "message": fail.message}}
    return {"error": {"message": fail.message, "type": "server_error", "code": None}}


@dataclass
class ModelServer:
    """The running server: ``url`` for the SDK's base URL, ``seen`` the requests in order."""

    api: str
    url: str = ""
    seen: list[Seen] = field(default_factory=list)
    script: Script | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(
        self, path: str, headers: dict[str, str], body: dict[str, Any]
    ) -> tuple[int, Any, dict[str, str]]:
        with self.lock:
            n = len(self.seen)
            self.seen.append(Seen(path, headers, body))
        assert self.script is not None
        turn = self.script(body, n)
        if isinstance(turn, Fail):
            return turn.status, error_body(self.api, turn), turn.headers
        if turn.delay:
            time.sleep(turn.delay)
        return 200, (openai_body if self.api == "openai" else anthropic_body)(turn, n), {}


@contextmanager
def model_server(api: str, script: Script) -> Iterator[ModelServer]:
    """A scripted ``api`` ("openai" or "anthropic") server on 127.0.0.1, stopped on exit."""
    state = ModelServer(api, script=script)
    path = "/v1/chat/completions" if api == "openai" else "/v1/messages"

    class Handler(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True  # TCP_NODELAY: no ~40 ms delayed-ACK stall per answer
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            extra: dict[str, str] = {}
            if self.path != path:
                status, payload = 404, {"error": {"message": f"no route {self.path}"}}
            else:
                status, payload, extra = state.answer(self.path, dict(self.headers.items()), body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            """A client that hung up (a budget or timeout test) is not a server fault: no
            traceback on stderr, where it would land in a later test's captured output."""
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    state.url = f"http://{host}:{port}" + ("/v1" if api == "openai" else "")
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ---- reading requests in either API's format --------------------------------------------------


def tool_schemas(api: str, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """tool name -> its JSON schema, as the request offered the tools to the model."""
    if api == "openai":
        return {t["function"]["name"]: t["function"]["parameters"] for t in body.get("tools", [])}
    return {t["name"]: t["input_schema"] for t in body.get("tools", [])}


def system_text(api: str, body: dict[str, Any]) -> str:
    if api == "openai":
        return str(body["messages"][0]["content"])
    return str(body["system"])


def tool_results(api: str, body: dict[str, Any]) -> list[str]:
    """The tool results the request carries back to the model, in order."""
    if api == "openai":
        return [m["content"] for m in body["messages"] if m["role"] == "tool"]
    out = []
    for message in body["messages"]:
        if message["role"] == "user" and isinstance(message["content"], list):
            out += [b["content"] for b in message["content"] if b.get("type") == "tool_result"]
    return out


def user_texts(api: str, body: dict[str, Any]) -> list[str]:
    if api == "openai":
        return [m["content"] for m in body["messages"] if m["role"] == "user"]
    first = body["messages"][0]["content"]
    return [b["text"] for b in first]


def look_then_answer(body: dict[str, Any], n: int) -> Say:
    """Any scenario: one read with the first tool offered, then a final answer."""
    if tool_results("openai", body) or "kubectl" not in tool_schemas("openai", body):
        return Say("I looked and will not change anything without more information.")
    return Say("Reading first.", [("kubectl", {"command": "get deployments -A"})])
