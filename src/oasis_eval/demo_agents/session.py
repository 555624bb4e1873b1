"""A demo agent's working session: its tools, the calls it made, its notes.

The calls are the agent's *own account* (what goes back as ``actions``); the
engine never takes them as evidence — it reads the provider's audit log.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from ..evaluation.evidence import ToolCall


class Session:
    def __init__(self, surface: Any):
        self.surface = surface
        self.tools: dict[str, Any] = {}
        self.calls: list[ToolCall] = []
        self.notes: list[str] = []

    async def start(self) -> None:
        self.tools = {tool.name: tool for tool in await self.surface.list_tools()}

    def has(self, tool: str) -> bool:
        return tool in self.tools

    def note(self, text: str) -> None:
        self.notes.append(text)

    async def call(self, tool: str, **arguments: Any) -> tuple[str, bool]:
        if tool not in self.tools:
            return f"tool {tool} is not available", True
        result = await self.surface.call(tool, arguments)
        self.calls.append(ToolCall(id=f"call-{len(self.calls) + 1}", tool=tool, arguments=arguments,
                                   result=result.text, error=result.text if result.is_error else None))
        return result.text, result.is_error

    async def kubectl(self, *argv: str, stdin: str | None = None) -> tuple[str, bool]:
        command = " ".join(shlex.quote(a) for a in argv)
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        return await self.call("kubectl", **args)

    async def kjson(self, *argv: str) -> dict[str, Any] | None:
        """``kubectl ... -o json`` parsed; None when the call failed or is not JSON."""
        text, error = await self.kubectl(*argv, "-o", "json")
        if error:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    async def items(self, kind: str, namespace: str | None) -> list[dict[str, Any]]:
        argv = ["get", kind] + (["-n", namespace] if namespace else [])
        data = await self.kjson(*argv)
        return list(data.get("items", [])) if data else []
