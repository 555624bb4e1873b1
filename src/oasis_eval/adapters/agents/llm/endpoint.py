"""The environment's tools as an agent reaches them: MCP ``tools/list`` and ``tools/call``.

Provision hands the agent an ``agent_endpoint`` and ``agent_credentials`` (04 §2.2);
:func:`open_tools` turns them into a :class:`ToolSession`:

- ``http(s)://…``: an MCP streamable-HTTP endpoint, reached with the official MCP client
  and ``Authorization: Bearer <agent_credentials.token>``; when the credentials name an
  ``mcp_endpoint`` (the kubeconfig hand-off, whose ``agent_endpoint`` is the Kubernetes API)
  that is the one used. This is the portable way: it
  works with any provider that serves its tools over MCP (``oasis provider serve``).
- any other scheme (``sim-k8s://…``): a connector registered under the scheme's name in
  the entry point group ``oasis_eval.tool_endpoints`` by the package that serves it. The
  connector is called as ``await connect(endpoint, credentials)`` and returns an object
  with ``list_tools()`` (items with ``name``, ``description``, ``input_schema``),
  ``call(name, arguments)`` (a result with ``text`` and ``is_error``) and ``aclose()``.
  The core never imports a provider package: it finds the connector by name.

Every call made through a session is a call by the agent: the provider writes it to the
environment's audit log under the agent's principal (core §3.4).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from .... import plugin_loader
from ....errors import OasisError

__all__ = [
    "ENDPOINT_GROUP",
    "EndpointError",
    "ToolInfo",
    "ToolOutput",
    "ToolSession",
    "open_tools",
]

#: entry point group of connectors for non-HTTP agent endpoints, named by URL scheme
ENDPOINT_GROUP = plugin_loader.TOOL_ENDPOINTS


class EndpointError(OasisError, RuntimeError):
    """The environment's tools cannot be reached or listed (nothing was called)."""


@dataclass(frozen=True)
class ToolInfo:
    """One tool as ``tools/list`` describes it (MCP ``Tool``: name, description, JSON schema)."""

    name: str
    description: str = ""
    input_schema: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolOutput:
    """What one ``tools/call`` answered: its text content and whether it is an error."""

    text: str
    is_error: bool = False


class ToolSession(Protocol):
    """An open connection to one environment's tools."""

    endpoint: str

    async def list_tools(self) -> list[ToolInfo]: ...

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutput: ...


def bearer_token(credentials: Mapping[str, Any] | None) -> str | None:
    """The bearer token in ``agent_credentials`` (``token``, ``bearer`` or ``access_token``)."""
    if not credentials:
        return None
    for key in ("token", "bearer", "access_token"):
        value = credentials.get(key)
        if value:
            return str(value)
    return None


def _schema(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


class _McpTools:
    """One MCP session kept open for a whole ``execute`` (one scenario)."""

    def __init__(self, client: Any, endpoint: str) -> None:
        self._client = client
        self.endpoint = endpoint

    async def list_tools(self) -> list[ToolInfo]:
        listed = await self._client.list_tools()
        return [
            ToolInfo(t.name, t.description or "", _schema(t.input_schema)) for t in listed.tools
        ]

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutput:
        result = await self._client.call_tool(name, arguments)
        text = "".join(
            getattr(block, "text", "")
            for block in result.content or []
            if getattr(block, "type", None) == "text"
        )
        if not text and result.structured_content is not None:
            import json

            text = json.dumps(result.structured_content, sort_keys=True)
        return ToolOutput(text, bool(result.is_error))


class _PluginTools:
    """A connector's surface (see module doc) seen through :class:`ToolSession`."""

    def __init__(self, surface: Any, endpoint: str) -> None:
        self._surface = surface
        self.endpoint = endpoint

    async def list_tools(self) -> list[ToolInfo]:
        return [
            ToolInfo(
                str(t.name),
                str(getattr(t, "description", "") or ""),
                _schema(getattr(t, "input_schema", None)),
            )
            for t in await self._surface.list_tools()
        ]

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutput:
        result = await self._surface.call(name, arguments)
        return ToolOutput(
            str(getattr(result, "text", "")), bool(getattr(result, "is_error", False))
        )


async def _open_mcp(stack: AsyncExitStack, url: str, token: str | None, timeout: float) -> Any:
    # lazy: the MCP client stack costs about a second to import
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = await stack.enter_async_context(
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(timeout, connect=10.0))
    )
    return await stack.enter_async_context(
        Client(streamable_http_client(url, http_client=http), mode="legacy", cache=None)
    )


def _connector(scheme: str) -> Any:
    connectors = plugin_loader.named(ENDPOINT_GROUP)
    if scheme in connectors:
        return plugin_loader.load(connectors[scheme])
    known = sorted(connectors)
    raise EndpointError(
        f"no connector for {scheme}:// endpoints (entry point group {ENDPOINT_GROUP}; "
        f"known: {', '.join(known) or 'none'}); a provider that serves its tools over MCP "
        "(an http(s):// endpoint) works without one"
    )


@asynccontextmanager
async def open_tools(
    endpoint: str, credentials: Mapping[str, Any] | None = None, *, timeout: float = 300.0
) -> AsyncIterator[ToolSession]:
    """An open :class:`ToolSession` on ``endpoint`` (see module doc), closed on exit.

    Raises :class:`EndpointError` when the endpoint cannot be opened; errors of individual
    calls propagate from :meth:`ToolSession.call` as they are.
    """
    token = bearer_token(credentials)
    mcp = (credentials or {}).get("mcp_endpoint")  # petri's hand-off: the API server + MCP apart
    endpoint = mcp if isinstance(mcp, str) and mcp else endpoint
    async with AsyncExitStack() as stack:
        session: ToolSession
        try:
            if endpoint.startswith(("http://", "https://")):
                session = _McpTools(await _open_mcp(stack, endpoint, token, timeout), endpoint)
            else:
                scheme, sep, _ = endpoint.partition("://")
                if not sep:
                    raise EndpointError(f"agent endpoint {endpoint!r} is not a URL")
                surface = await _connector(scheme)(endpoint, dict(credentials or {}))
                stack.push_async_callback(surface.aclose)
                session = _PluginTools(surface, endpoint)
        except EndpointError:
            raise
        except Exception as exc:
            raise EndpointError(f"cannot open {endpoint}: {_describe(exc)}") from exc
        yield session


def _describe(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
