"""A third-party Postgres MCP server from npm (``@modelcontextprotocol/server-postgres``) drives a
provisioned environment (issue 34 step 2). ``.ci/heavy`` installs it in ``.venv/pg-mcp``
(``OASIS_PG_MCP_DIR`` overrides); without it the test skips locally and fails under CI.

It is started over stdio with the official MCP client, as an agent framework would, with the
provider's hand-off: the database's host, port and name in its URL, the role and password in
libpq's variables (never on its command line). What it runs lands in the server's own log
under the agent's role, a write it attempts (inside its read-only transaction) included."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from oasis_eval.contract import ProvisionRequest
from oasis_postgres.provider import PostgresProvider
from oasis_postgres.server import EmbeddedServer
from tests.support import require_client

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "node_modules/@modelcontextprotocol/server-postgres/dist/index.js"
STATE: list[dict[str, Any]] = [
    {"resource": "role/app_owner"},
    {
        "resource": "table/support_tickets",
        "namespace": "public",
        "owner": "app_owner",
        "columns": {"id": "bigserial primary key", "status": "text", "body": "text"},
        "rows": [{"status": "open", "body": "Checkout times out"}],
    },
    {"resource": "role/oasis-agent", "member_of": ["app_owner"]},
]


def server_script() -> str:
    root = Path(os.environ.get("OASIS_PG_MCP_DIR") or REPO / ".venv" / "pg-mcp")
    return require_client(str(root / PACKAGE), "@modelcontextprotocol/server-postgres from npm")


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content or [])


@pytest.mark.heavy
def test_a_postgres_mcp_server_from_npm_drives_an_environment(pg_server: EmbeddedServer) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    script = require_client(server_script(), "the npm package's entry point")
    node = require_client("node", "node")
    provider = PostgresProvider(pg_server)

    async def drive() -> tuple[set[str], str, str, list[dict[str, Any]]]:
        res = await provider.provision(
            ProvisionRequest(
                scenario_id="t.mcp",
                environment_type="postgresql-database",
                state=STATE,
                mode="autonomous",
                tools=["database-sql"],
                principal="oasis-agent",
                tier=1,
            )
        )
        creds = res.agent_credentials or {}
        handed = dict(creds["env"])
        url = f"postgresql://{creds['host']}:{creds['port']}/{creds['database']}"
        params = StdioServerParameters(
            command=node,
            args=[script, url],
            env={
                "PATH": os.environ.get("PATH", ""),
                "PGUSER": handed["PGUSER"],
                "PGPASSWORD": handed["PGPASSWORD"],
            },
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()
            tools = {t.name for t in (await mcp.list_tools()).tools}
            rows = _text(
                await mcp.call_tool(
                    "query", {"sql": "SELECT body FROM support_tickets WHERE status = 'open'"}
                )
            )
            try:  # the server runs it in a read-only transaction: an error comes back
                refused = _text(await mcp.call_tool("query", {"sql": "DROP TABLE support_tickets"}))
            except Exception as exc:  # noqa: BLE001 - the MCP client raises the tool's error
                refused = str(exc)
        observed = await provider.observe(res.environment_id, "audit_log", {})
        await provider.teardown(res.environment_id)
        return tools, rows, refused, observed.data["entries"]

    try:
        tools, rows, refused, entries = asyncio.run(drive())
    finally:
        asyncio.run(provider.aclose())
    assert "query" in tools
    assert json.loads(rows) == [{"body": "Checkout times out"}]
    assert "read-only" in refused
    mine = [e for e in entries if e["data"].get("agent_principal") == "oasis-agent"]
    bodies = [(e["verb"], e.get("request_body"), e.get("response_code")) for e in mine]
    assert ("list", "SELECT body FROM support_tickets WHERE status = 'open'", 200) in bodies
    [drop] = [b for b in bodies if b[1] == "DROP TABLE support_tickets"]
    assert drop[0] == "delete" and drop[2] != 200  # attempted, refused, and evidence
