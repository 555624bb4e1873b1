"""The environments' tool surfaces as an MCP streamable-HTTP endpoint (official ``mcp``
SDK, low-level ``Server``).

``create_mcp_app(provider)`` is an ASGI app. Every HTTP request must carry
``Authorization: Bearer <token>``; the token (``provider.authenticate``) selects the
environment and the agent user, otherwise the answer is ``401`` with
``WWW-Authenticate: Bearer error="invalid_token"``. ``tools/list`` returns that
environment's :class:`~.tools.ToolSurface` tools (the scenario's interface types),
``tools/call`` runs one (output as text content, ``isError`` for failures). MCP
sessions are bound to the token that opened them.

Mounting: the app starts its MCP session manager itself on the first request
(in the serving event loop) and also honours ASGI lifespan when it is the
top-level app, so another Starlette app can serve it with
``Route("/mcp", endpoint=create_mcp_app(provider))`` (exact path, no redirect) or
``Mount("/mcp", app=...)`` without lifespan wiring; call ``await app.shutdown()``
from the host app's shutdown to stop its sessions promptly.

``serve_mcp_in_thread(provider)`` runs it under uvicorn in a background thread
(``http://127.0.0.1:<port>/mcp``) and returns ``(url, stop)``; its other paths are
refused, an agent's token presented there being audited as the agent's attempt
(:func:`.serving.record_denied_call`), and bodies are size-limited.

Lifetime: a tool surface is kept per (environment id, user) while the environment is
live and dropped when it is torn down (the provider's teardown listeners, 04 §2.2
teardown; issue 15: a map keyed weakly by the environment whose values held that same
environment kept every torn-down environment alive, ~0.9 MB a cycle).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError

from ..cluster.audit import SERVING
from ..tools import ToolSurface
from ..web.guards import bearer
from .agent_app import create_agent_app
from .connect import META_INTERFACE_TYPE
from .gate import SCOPE_KEY
from .listeners import serve_in_thread
from .routes import MCP_PATH

SERVER_NAME = "cluster-tools"
SERVER_VERSION = "1.0.0"
# JSON-RPC error code (implementation-defined server range) for a missing or unknown token
UNAUTHORIZED = -32001
INSTRUCTIONS = (
    "Operational tools for one Kubernetes environment. Each call runs with the credentials of the token "
    "presented; every call is recorded in the cluster's audit log."
)


class McpApp:
    """ASGI app: bearer auth in front of an MCP streamable-HTTP session manager."""

    def __init__(self, provider: Any, *, json_response: bool = True):
        self.provider = provider
        self.json_response = json_response
        #: environment id -> user -> surface; an entry goes when its environment is torn down
        self._surfaces: dict[str, dict[str, ToolSurface]] = {}
        listen = getattr(provider, "on_teardown", None)
        if listen is not None:
            listen(self.forget)
        self._managers: dict[
            int,
            tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], asyncio.Event, asyncio.Task[Any]],
        ] = {}
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=SERVER_VERSION,
            instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )

    # ---- identity -----------------------------------------------------------------------------
    def surface_for(self, token: str | None) -> ToolSurface | None:
        hit = self.provider.authenticate(token) if token else None
        if hit is None:
            return None
        env, user = hit
        per_env = self._surfaces.setdefault(env.id, {})
        surface = per_env.get(user)
        if surface is None or surface.env is not env:
            surface = per_env[user] = ToolSurface(env, user)
        return surface

    def forget(self, environment_id: str) -> None:
        """Drop the surfaces of a torn-down environment (nothing of it stays reachable)."""
        self._surfaces.pop(environment_id, None)

    def live_surfaces(self) -> int:
        """How many tool surfaces are held (for leak tests: zero once every environment is gone)."""
        return sum(len(users) for users in self._surfaces.values())

    def live_sessions(self) -> int:
        """How many MCP sessions the session managers hold open (for leak tests)."""
        held = 0
        for _loop, ready, _stop, _task in self._managers.values():
            if ready.done() and not ready.cancelled() and ready.exception() is None:
                held += len(getattr(ready.result(), "_server_instances", {}))
        return held

    def _surface(self, ctx: Any) -> ToolSurface:
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        surface = self.surface_for(bearer(headers))
        if surface is None:
            raise MCPError(code=UNAUTHORIZED, message="Unauthorized: invalid bearer token")
        return surface

    # ---- MCP handlers --------------------------------------------------------------------------------
    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        surface = self._surface(ctx)
        tools = [
            types.Tool(
                name=spec.name,
                description=spec.description,
                input_schema=spec.input_schema,
                annotations=types.ToolAnnotations(
                    read_only_hint=spec.read_only,
                    destructive_hint=not spec.read_only,
                    open_world_hint=False,
                ),
                meta={META_INTERFACE_TYPE: spec.interface_type},
            )
            for spec in surface.list_tools()
        ]
        return types.ListToolsResult(tools=tools)

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        surface = self._surface(ctx)
        # this runs in the session manager's task: the gate's record of the HTTP request is
        # reached through its scope, so the tool's audit entries stand for the request
        scope = getattr(getattr(ctx, "request", None), "scope", None) or {}
        token = SERVING.set(scope.get(SCOPE_KEY))
        try:
            result = surface.call(params.name, dict(params.arguments or {}))
        finally:
            SERVING.reset(token)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)], is_error=result.is_error
        )

    # ---- session manager per event loop -----------------------------------------------------------------
    async def _manager(self) -> StreamableHTTPSessionManager:
        loop = asyncio.get_running_loop()
        entry = self._managers.get(id(loop))
        if entry is None or entry[0] is not loop or (entry[3].done() and not entry[1].done()):
            ready: asyncio.Future[Any] = loop.create_future()
            stop = asyncio.Event()
            manager = StreamableHTTPSessionManager(
                app=self.server, json_response=self.json_response, session_idle_timeout=None
            )

            async def run() -> None:
                try:
                    async with manager.run():
                        if not ready.done():
                            ready.set_result(manager)
                        await stop.wait()
                except BaseException as exc:
                    if not ready.done():
                        ready.set_exception(exc)
                    raise

            task = loop.create_task(run())
            entry = (loop, ready, stop, task)
            self._managers[id(loop)] = entry
        return await asyncio.shield(entry[1])

    async def shutdown(self) -> None:
        """Stop the session managers running in the current event loop."""
        loop = asyncio.get_running_loop()
        entry = self._managers.pop(id(loop), None)
        if entry is None:
            return
        entry[2].set()
        try:
            await asyncio.wait_for(entry[3], timeout=5)
        except (TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001
            entry[3].cancel()

    # ---- ASGI -----------------------------------------------------------------------------------------------
    async def __call__(
        self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
    ) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        await self._manager()
                    except Exception as exc:  # noqa: BLE001
                        await send({"type": "lifespan.startup.failed", "message": str(exc)})
                        return
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await self.shutdown()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []
        }
        token = bearer(headers)
        hit = self.provider.authenticate(token) if token else None
        if hit is None:
            await _unauthorized(
                send, "missing bearer token" if not token else "invalid bearer token"
            )
            return
        env, user = hit
        scope = dict(scope)
        scope["user"] = AuthenticatedUser(
            AccessToken(token=token or "", client_id=env.id, scopes=[], subject=user)
        )
        manager = await self._manager()
        await manager.handle_request(scope, receive, send)


async def _unauthorized(send: Callable[..., Any], description: str) -> None:
    # a JSON-RPC error body (MCP clients surface it) at HTTP 401 with the OAuth challenge header
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": UNAUTHORIZED, "message": f"Unauthorized: {description}"},
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (
                    b"www-authenticate",
                    f'Bearer error="invalid_token", error_description="{description}"'.encode(),
                ),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def create_mcp_app(provider: Any, *, json_response: bool = True) -> McpApp:
    """The MCP streamable-HTTP ASGI app over ``provider``'s environments."""
    return McpApp(provider, json_response=json_response)


def serve_mcp_in_thread(
    provider: Any, host: str = "127.0.0.1", port: int = 0
) -> tuple[str, Callable[[], None]]:
    """Serve :func:`create_mcp_app` with uvicorn in a daemon thread, as the agent listener
    of :func:`.agent_app.create_agent_app`; returns ``(url, stop)``."""

    listener = serve_in_thread(create_agent_app(provider), host, port, name="mcp")
    return f"{listener.url}{MCP_PATH}", listener.stop


__all__ = ["McpApp", "create_mcp_app", "serve_mcp_in_thread"]
