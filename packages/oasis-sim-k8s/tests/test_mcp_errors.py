"""The MCP server refuses a session that reaches its handlers without a usable bearer token
with a proper JSON-RPC error (code -32001, "Unauthorized: ..."), not an internal error.

Over HTTP the ASGI layer answers 401 before the handlers run (see tools/test_mcp.py); these
tests reach the handlers' own check through an in-process MCP client session, where no HTTP
request (and so no token) accompanies the messages.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.servers.mcp import create_mcp_app


def _errors(mode: str | None) -> list[tuple[int, str]]:
    """List the tools and call one through a client session; collect the JSON-RPC errors."""
    app = create_mcp_app(SimK8sProvider())
    options: dict[str, Any] = {"mode": mode} if mode else {}

    async def go() -> list[tuple[int, str]]:
        seen: list[tuple[int, str]] = []
        async with Client(app.server, **options) as client:
            with pytest.raises(MCPError) as listed:
                await client.list_tools()
            seen.append((listed.value.code, listed.value.message))
            with pytest.raises(MCPError) as called:
                await client.call_tool("kubectl", {"command": "get ns"})
            seen.append((called.value.code, called.value.message))
        return seen

    return anyio.run(go)


@pytest.mark.parametrize("mode", ["legacy", None])
def test_tokenless_session_gets_unauthorized_jsonrpc_error(mode: str | None) -> None:
    expected = (-32001, "Unauthorized: invalid bearer token")
    assert _errors(mode) == [expected, expected]
