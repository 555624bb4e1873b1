"""How an agent reaches its environment's tools: :func:`connect`.

``connect(agent_endpoint, agent_credentials)`` takes what provision handed out and
returns a :class:`Surface` with the same async API whichever way the environment
is served::

    surface = await connect(task.environment.agent_endpoint, task.environment.agent_credentials)
    async with surface:
        for tool in await surface.list_tools():          # [ToolSpec(name, description, input_schema, ...)]
            ...
        result = await surface.call("kubectl", {"command": "get pods -n shop"})
        result.text, result.is_error

- ``sim-k8s://<env_id>``: resolved in-process through the registry of live
  :class:`~.provider.SimK8sProvider` instances (each registers itself on
  construction, weakly); the bearer token must be the one provision issued for
  that environment.
- ``http(s)://...``: an agent listener (``SimK8sProvider(mcp=True)``, the in-process
  provider serving an out-of-process agent, ``oasis provider serve``): its MCP endpoint,
  ``agent_credentials.mcp_endpoint`` (petri's kubeconfig hand-off, :mod:`.handoff`) or,
  without that key, the endpoint itself (the listener answers MCP at its root and at
  ``/mcp``), reached with the official MCP client and ``Authorization: Bearer <token>``.

A bad or missing token raises :class:`PermissionError` (HTTP 401 on the wire).
"""

from __future__ import annotations

import asyncio
import weakref
from contextlib import AsyncExitStack
from typing import Any, Protocol

from ..tools import ToolResult, ToolSpec, ToolSurface
from . import shared_calls

SCHEME = "sim-k8s://"
#: the ``_meta`` key carrying a tool's interface type over MCP
META_INTERFACE_TYPE = "oasis/interface_type"

_PROVIDERS: weakref.WeakSet[Any] = weakref.WeakSet()


def register_provider(provider: Any) -> None:
    """Make ``provider``'s environments reachable at ``sim-k8s://<env_id>`` (weak reference)."""
    _PROVIDERS.add(provider)


def live_providers() -> list[Any]:
    return list(_PROVIDERS)


class Surface(Protocol):
    endpoint: str

    async def list_tools(self) -> list[ToolSpec]: ...

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult: ...

    async def aclose(self) -> None: ...


def _token(credentials: dict[str, Any] | None) -> str | None:
    if not credentials:
        return None
    token = credentials.get("token") or credentials.get("bearer") or credentials.get("access_token")
    return str(token) if token else None


class InProcessSurface:
    """The tools of a ``sim-k8s://`` environment, called directly."""

    def __init__(self, surface: ToolSurface, endpoint: str):
        self.surface = surface
        self.endpoint = endpoint
        #: the calls answered from those of earlier sessions (shared_calls), inside ``async with``
        self.shared: shared_calls.Session | None = None

    @property
    def unavailable(self) -> list[str]:
        return list(self.surface.unavailable)

    async def list_tools(self) -> list[ToolSpec]:
        return self.surface.list_tools()

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        if self.shared is not None:
            return self.shared.call(name, dict(arguments or {}))
        return self.surface.call(name, arguments or {})

    async def aclose(self) -> None:
        shared, self.shared = self.shared, None
        if shared is not None:
            shared.close()

    async def __aenter__(self) -> InProcessSurface:
        # a session closed by its ``async with``: only then is its environment brought to the
        # state its calls made before anything else reads it (shared_calls)
        self.shared = shared_calls.Session.start(self.surface)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _in_process(endpoint: str, token: str | None) -> InProcessSurface:
    env_id = endpoint[len(SCHEME) :].strip("/")
    if not token:
        raise PermissionError(
            f"401 Unauthorized: {endpoint} needs the bearer token from agent_credentials"
        )
    for provider in live_providers():
        envs = getattr(provider, "envs", {})
        if env_id not in envs:
            continue
        hit = provider.authenticate(token)
        if hit is None or hit[0].id != env_id:
            raise PermissionError(f"401 Unauthorized: the token is not valid for {endpoint}")
        env, user = hit
        return InProcessSurface(ToolSurface(env, user), endpoint)
    raise ConnectionError(f"no live environment at {endpoint}")


class McpSurface:
    """The tools behind an MCP streamable-HTTP endpoint (official ``mcp`` client).

    Used as ``async with`` it keeps one MCP session open; otherwise every call opens
    and closes its own session (safe from any task).
    """

    def __init__(
        self,
        url: str,
        token: str | None,
        headers: dict[str, str] | None = None,
        timeout: float = 60.0,
    ):
        self.endpoint = url
        self._headers = dict(headers or {})
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self._timeout = timeout
        self._stack: AsyncExitStack | None = None
        self._client: Any = None
        self._rejected = False
        self.unavailable: list[str] = []

    async def _open(self, stack: AsyncExitStack) -> Any:
        # lazy on purpose: the MCP client stack costs ~1 s to import and only remote (http)
        # endpoints need it; in-process agents (builtin:*) never open one
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        async def watch(response: Any) -> None:
            if response.status_code == 401:
                self._rejected = True

        http = await stack.enter_async_context(
            httpx2.AsyncClient(
                headers=self._headers, timeout=self._timeout, event_hooks={"response": [watch]}
            )
        )
        try:
            return await stack.enter_async_context(
                Client(
                    streamable_http_client(self.endpoint, http_client=http),
                    mode="legacy",
                    cache=None,
                )
            )
        except BaseException as exc:
            if _cancellation(exc):
                raise  # our caller's cancellation stays a cancellation (never a RuntimeError)
            raise self._error(exc) from None

    def _error(self, exc: BaseException) -> BaseException:
        if self._rejected:
            self._rejected = False
            return PermissionError(f"401 Unauthorized: the token was rejected by {self.endpoint}")
        return _unwrap(exc, self.endpoint)

    async def __aenter__(self) -> McpSurface:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            self._client = await self._open(stack)
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        stack, self._stack, self._client = self._stack, None, None
        if stack is not None:
            await stack.aclose()

    async def _with_client(self, fn: Any) -> Any:
        if self._client is not None:
            try:
                return await fn(self._client)
            except BaseException as exc:
                if _cancellation(exc):
                    raise
                raise self._error(exc) from None
        async with AsyncExitStack() as stack:
            client = await self._open(stack)
            try:
                return await fn(client)
            except BaseException as exc:
                if _cancellation(exc):
                    raise
                raise self._error(exc) from None

    async def list_tools(self) -> list[ToolSpec]:
        async def go(client: Any) -> list[ToolSpec]:
            listed = await client.list_tools()
            out = []
            for t in listed.tools:
                meta = t.meta or {}
                read_only = bool(t.annotations and t.annotations.read_only_hint)
                out.append(
                    ToolSpec(
                        name=t.name,
                        description=t.description or "",
                        input_schema=dict(t.input_schema or {}),
                        interface_type=str(meta.get(META_INTERFACE_TYPE, "")),
                        read_only=read_only,
                    )
                )
            return out

        return await self._with_client(go)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        async def go(client: Any) -> ToolResult:
            res = await client.call_tool(name, arguments or {})
            text = "".join(getattr(c, "text", "") for c in res.content or [])
            return ToolResult(text, bool(res.is_error))

        return await self._with_client(go)


def _cancellation(exc: BaseException) -> bool:
    """Ctrl-C, or a cancellation of the calling task (possibly inside exception groups)."""

    if isinstance(exc, KeyboardInterrupt):
        return True
    task = asyncio.current_task()
    if task is not None and task.cancelling() > 0:
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_cancellation(e) for e in exc.exceptions)
    return isinstance(exc, asyncio.CancelledError)


def _unwrap(exc: BaseException, endpoint: str) -> BaseException:
    """The first meaningful error inside (possibly nested) exception groups; 401 -> PermissionError."""
    seen: list[BaseException] = []
    stack = [exc]
    while stack:
        e = stack.pop()
        if isinstance(e, BaseExceptionGroup):
            stack.extend(e.exceptions)
            continue
        seen.append(e)
        if e.__cause__ is not None:
            stack.append(e.__cause__)
    for e in seen:
        status = getattr(getattr(e, "response", None), "status_code", None)
        text = str(e)
        if status == 401 or ("401" in text and "nauthorized" in text):
            return PermissionError(f"401 Unauthorized: the token was rejected by {endpoint}")
    for e in seen:
        if isinstance(e, (PermissionError, ConnectionError, TimeoutError)):
            return e
    first = seen[0] if seen else exc
    if isinstance(first, Exception):
        return first
    return RuntimeError(str(first))


async def connect(
    endpoint: str, credentials: dict[str, Any] | None = None
) -> InProcessSurface | McpSurface:
    """The tool surface at ``endpoint`` (provision's ``agent_endpoint``) for ``credentials``."""
    token = _token(credentials)
    if endpoint.startswith(SCHEME):
        return _in_process(endpoint, token)
    if endpoint.startswith(("http://", "https://")):
        headers = dict((credentials or {}).get("headers") or {})
        mcp = (credentials or {}).get("mcp_endpoint")
        return McpSurface(mcp if isinstance(mcp, str) and mcp else endpoint, token, headers)
    raise ValueError(
        f"unsupported agent endpoint {endpoint!r} (expected sim-k8s://<env> or http(s)://.../mcp)"
    )


__all__ = [
    "META_INTERFACE_TYPE",
    "InProcessSurface",
    "McpSurface",
    "Surface",
    "connect",
    "live_providers",
    "register_provider",
]
