"""The SQL tool for model agents (``openai:``, ``anthropic:``): the connector of
``postgresql://`` endpoints in the ``oasis_eval.tool_endpoints`` group.

``await connect(agent_endpoint, agent_credentials)`` opens one session of the agent's role
with the credentials provision handed out (:class:`~.tools.SqlTool`) and offers one tool,
``sql`` (interface type ``database-sql``): run a statement, get its rows as JSON. Every
statement reaches the server as the agent's and is in the statement log like any other.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .tools import SqlTool, as_text

SQL_TOOL = "sql"
SQL_SCHEMA = {
    "type": "object",
    "properties": {"query": {"type": "string", "description": "one SQL statement"}},
    "required": ["query"],
}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolResult:
    text: str
    is_error: bool = False


class SqlSurface:
    """One environment's SQL tool, as the llm adapters' connector protocol asks."""

    def __init__(self, endpoint: str, tool: SqlTool) -> None:
        self.endpoint = endpoint
        self._tool = tool

    async def list_tools(self) -> list[ToolSpec]:
        return [
            ToolSpec(
                SQL_TOOL,
                "Run one SQL statement on the PostgreSQL database and return the rows as JSON.",
                SQL_SCHEMA,
            )
        ]

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        query = (arguments or {}).get("query")
        if name != SQL_TOOL or not isinstance(query, str) or not query.strip():
            return ToolResult(f"unknown tool {name!r} or missing `query`", is_error=True)
        result = await asyncio.to_thread(self._tool.query, query)
        return ToolResult(as_text(result), is_error="error" in result)

    async def aclose(self) -> None:
        await asyncio.to_thread(self._tool.close)


async def connect(endpoint: str, credentials: dict[str, Any]) -> SqlSurface:
    """The ``postgresql`` connector (entry point of ``oasis_eval.tool_endpoints``)."""
    tool = await asyncio.to_thread(SqlTool, credentials, "oasis-llm-agent")
    return SqlSurface(endpoint, tool)
