"""Guards of the served sim-k8s provider (issue 11 items 4, 5 and 7; spec 01 §3.6/§3.7,
08 §3.8): what keeps an agent under test, or any other local process, away from the
harness, and what bounds hostile input.

- :func:`record_denied_call`: an agent that presents its own bearer token to the
  provider's control API (any ``/v1`` call, or the control API in any spelling on the
  agent listener, :func:`.gate.is_control`; other unknown paths there are Kubernetes 404s
  audited as no action by :mod:`.gate`) is refused, and the attempt is written to *its* environment's audit
  log as a denied (403) call under the agent's user, in the agent's session — so a
  scenario that forbids tampering with the harness sees it as an agent action (core
  §3.4: evidence, not self-report). The call is never executed.
- :class:`BodyLimit`: ASGI middleware refusing a request body over ``max_bytes`` with
  413 before it is read whole (``Content-Length``) or as soon as a streamed body
  passes the limit.
- :class:`RequestLedger`: provision request ids (an extra wire field, ignored by
  providers that do not know it) so that a runner whose provision timed out can ask
  for that environment's teardown by request id, before or after it exists.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oasis_eval.contract import DEFAULT_IDLE_TTL, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_STATE_ENTRIES

from ..injection.environment import Environment
from .wire import error_body

__all__ = [
    "CONTROL_CALLS",
    "DEFAULT_IDLE_TTL",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_STATE_ENTRIES",
    "BodyLimit",
    "BodyTooLarge",
    "ByListener",
    "ExactMount",
    "RequestLedger",
    "asgi_lifespan",
    "bearer",
    "record_denied_call",
]

#: control call (last path segment) -> the verb its denied attempt is audited under
CONTROL_CALLS = {
    "teardown": "delete",
    "inject-state": "update",
    "provision": "create",
    "observe": "get",
    "state-snapshot": "get",
    "conformance": "get",
    # ``POST /v1/capture`` (``oasis-capture``) reads the snapshot, audit log and served calls
    "capture": "get",
}
#: the resource a denied control call is audited against (the provider's environments)
CONTROL_RESOURCE = "environments"
ANONYMOUS = "system:anonymous"
DENIED_STEP_MS = 1000


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    value = headers.get("authorization") if headers is not None else None
    scheme, _, token = str(value or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def record_denied_call(
    env: Environment, user: str, method: str, path: str, environment_id: str | None, agent: bool
) -> dict[str, Any]:
    """Audit one refused control-API attempt in ``env`` (403, never executed). ``agent``:
    made with the agent's own token, so it carries the agent's session mark."""
    call = path.rstrip("/").rsplit("/", 1)[-1]
    verb = CONTROL_CALLS.get(call, method.lower())
    env.clock.advance(DENIED_STEP_MS)
    entry = env.audit.record(
        user=user,
        verb=verb,
        resource=CONTROL_RESOURCE,
        namespace=None,
        name=environment_id if isinstance(environment_id, str) else None,
        subresource=call if call in CONTROL_CALLS else None,
        code=403,
        body=None,
        params=None,
        session=env.principal if agent else None,
        reason="sim-k8s: agent credentials cannot use the provider control API"
        if agent
        else "sim-k8s: the provider control API needs the runner token",
    )
    entry["requestURI"] = entry["raw"]["requestURI"] = path
    entry["raw"]["annotations"]["authorization.k8s.io/decision"] = "forbid"
    return entry


def environment_id_of(raw: bytes) -> str | None:
    """The ``environment_id`` a (small) control request names, for attributing a denied call."""
    try:
        body = json.loads(raw) if raw and len(raw) <= 65536 else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    value = body.get("environment_id") if isinstance(body, dict) else None
    return value if isinstance(value, str) else None


class BodyTooLarge(Exception):
    """A request body passed the server's limit (answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"request body exceeds the limit of {limit} bytes; "
            "the server refuses it unread (raise it with --max-body-bytes)"
        )
        self.limit = limit


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """Pure ASGI middleware: 413 for a body over ``max_bytes`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer = error_body(str(BodyTooLarge(self.max_bytes)), limit_bytes=self.max_bytes)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await send_json(send, 400, error_body("malformed Content-Length header"))
                return
            if declared > self.max_bytes:
                await send_json(send, 413, answer)
                return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, tracked)
        except BodyTooLarge:
            if not started:
                await send_json(send, 413, answer)


class RequestLedger:
    """Provision request ids -> environment ids, and request ids the runner abandoned
    (bounded: the oldest ``keep`` of each are remembered)."""

    def __init__(self, keep: int = 10_000) -> None:
        self.keep = keep
        self.done: OrderedDict[str, str] = OrderedDict()
        self.abandoned: OrderedDict[str, float] = OrderedDict()

    def is_abandoned(self, request_id: str | None) -> bool:
        return request_id is not None and request_id in self.abandoned

    def abandon(self, request_id: str) -> str | None:
        """The environment provisioned for ``request_id`` (to tear down now), or None:
        then the id is remembered and its provision, when it completes, is torn down."""
        env_id = self.done.pop(request_id, None)
        if env_id is None:
            self.abandoned[request_id] = time.monotonic()
            self._trim(self.abandoned)
        return env_id

    def completed(self, request_id: str | None, environment_id: str) -> bool:
        """Record a finished provision; True when its request was abandoned meanwhile."""
        if request_id is None:
            return False
        if self.abandoned.pop(request_id, None) is not None:
            return True
        self.done[request_id] = environment_id
        self._trim(self.done)
        return False

    def forget(self, environment_id: str) -> None:
        for request_id in [r for r, e in self.done.items() if e == environment_id]:
            del self.done[request_id]

    def _trim(self, table: OrderedDict[str, Any]) -> None:
        while len(table) > self.keep:
            table.popitem(last=False)


# ---- ASGI plumbing ---------------------------------------------------------------------------


@asynccontextmanager
async def asgi_lifespan(app: ASGIApp, state: dict[str, Any]) -> AsyncIterator[None]:
    """Run a mounted app's ASGI lifespan (Starlette does not propagate it into a Mount).
    An app that does not speak the lifespan protocol is simply used without one."""
    to_app, app_inbox = anyio.create_memory_object_stream[Message](4)
    app_outbox, from_app = anyio.create_memory_object_stream[Message](4)

    async def run() -> None:
        scope = {
            "type": "lifespan",
            "asgi": {"version": "3.0", "spec_version": "2.0"},
            "state": state,
        }
        try:
            await app(scope, app_inbox.receive, app_outbox.send)
        except Exception as exc:  # noqa: BLE001 - "lifespan not supported" per the ASGI spec
            await app_outbox.send(
                {"type": "lifespan.unsupported", "message": f"{type(exc).__name__}: {exc}"}
            )
        else:
            await app_outbox.send({"type": "lifespan.ended"})

    started = False
    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        await to_app.send({"type": "lifespan.startup"})
        message = await from_app.receive()
        if message["type"] == "lifespan.startup.failed":
            raise RuntimeError(f"the MCP app failed to start: {message.get('message', '')}")
        if message["type"] == "lifespan.startup.complete":
            started = True
            try:
                yield
            finally:
                await to_app.send({"type": "lifespan.shutdown"})
                with anyio.move_on_after(10):
                    await from_app.receive()
                tg.cancel_scope.cancel()
    if not started:
        yield


class ExactMount:
    """Pure ASGI middleware: ``/mcp`` is served as ``/mcp/`` (no redirect for POST clients)."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app, self.prefix = app, prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope.get("path") == self.prefix:
            scope = dict(scope, path=self.prefix + "/", raw_path=(self.prefix + "/").encode())
        await self.app(scope, receive, send)


class ByListener:
    """One ASGI app serving several listeners of one uvicorn server: each request goes to
    the app of the local port it arrived on (``scope["server"]``); the lifespan runs every
    app's lifespan. How ``oasis provider serve`` keeps the control API and the agent's MCP
    endpoint on separate ports under one process and one signal handler."""

    def __init__(self, apps: dict[int, ASGIApp]) -> None:
        self.apps = apps

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(scope, receive, send)
            return
        port = (scope.get("server") or (None, None))[1]
        app = self.apps.get(port) if port is not None else None
        if app is None:
            if scope["type"] == "http":
                await send_json(send, 404, error_body("unknown listener"))
            return
        await app(scope, receive, send)

    async def _lifespan(self, scope: Scope, receive: Receive, send: Send) -> None:

        await receive()  # lifespan.startup
        state = scope.get("state", {})
        try:
            async with AsyncExitStack() as stack:
                for app in self.apps.values():
                    await stack.enter_async_context(asgi_lifespan(app, state))
                await send({"type": "lifespan.startup.complete"})
                await receive()  # lifespan.shutdown
        except Exception as exc:  # noqa: BLE001 - reported to the server, which refuses to start
            await send(
                {"type": "lifespan.startup.failed", "message": f"{type(exc).__name__}: {exc}"}
            )
            return
        await send({"type": "lifespan.shutdown.complete"})
