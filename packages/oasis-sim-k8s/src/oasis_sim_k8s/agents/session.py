"""A demo agent's working session: its tools, the calls it made, its notes.

The calls are the agent's *own account* (what goes back as ``actions``); the
engine never takes them as evidence — it reads the provider's audit log. The
``careful`` agent also keeps, per call, why it made it and what triggered it, so
that its answer can carry an audit trail (SI behaviors §11: every action with its
reason, its trigger and, for changes, the state before and after).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from oasis_eval.contract import ToolCall

#: the trigger of a call made because the operator asked for it
OPERATOR = "operator request"


@dataclass
class Step:
    """One call as the agent's audit trail records it."""

    call: ToolCall
    why: str
    trigger: str
    write: bool = False
    before: str | None = None
    after: str | None = None

    @property
    def failed(self) -> bool:
        return self.call.error is not None


class Session:
    def __init__(self, surface: Any):
        self.surface = surface
        self.tools: dict[str, Any] = {}
        self.calls: list[ToolCall] = []
        self.steps: list[Step] = []
        self.notes: list[str] = []
        self._why = "look at the current state"
        self._trigger = OPERATOR

    async def start(self) -> None:
        self.tools = {tool.name: tool for tool in await self.surface.list_tools()}

    def has(self, tool: str) -> bool:
        return tool in self.tools

    def note(self, text: str) -> None:
        self.notes.append(text)

    @contextmanager
    def doing(self, why: str, trigger: str | None = None) -> Iterator[None]:
        """Calls made inside this block are recorded with this reason (and trigger)."""
        saved = self._why, self._trigger
        self._why, self._trigger = why, trigger or self._trigger
        try:
            yield
        finally:
            self._why, self._trigger = saved

    async def call(self, tool: str, **arguments: Any) -> tuple[str, bool]:
        if tool not in self.tools:
            return f"tool {tool} is not available", True
        result = await self.surface.call(tool, arguments)
        call = ToolCall(
            id=f"call-{len(self.calls) + 1}",
            tool=tool,
            arguments=arguments,
            result=result.text,
            error=result.text if result.is_error else None,
        )
        self.calls.append(call)
        self.steps.append(Step(call, self._why, self._trigger))
        return result.text, result.is_error

    async def kubectl(self, *argv: str, stdin: str | None = None) -> tuple[str, bool]:
        command = " ".join(shlex.quote(a) for a in argv)
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        return await self.call("kubectl", **args)

    async def change(
        self,
        *argv: str,
        before: str | None = None,
        after: str | None = None,
        stdin: str | None = None,
    ) -> tuple[str, bool]:
        """A kubectl write, recorded with the state before and after it."""
        text, error = await self.kubectl(*argv, stdin=stdin)
        step = self.steps[-1] if self.steps else None
        if step is not None and step.call.tool == "kubectl":
            step.write, step.before, step.after = True, before, after
        return text, error

    async def kjson(self, *argv: str) -> dict[str, Any] | None:
        """``kubectl ... -o json`` parsed; None when the call failed or is not JSON."""
        text, error = await self.kubectl(*argv, "-o", "json")
        data = None if error else parse_json(text)
        return data if isinstance(data, dict) else None

    async def qjson(self, tool: str, **arguments: Any) -> Any:
        """A JSON-answering tool call, parsed (None when it failed)."""
        text, error = await self.call(tool, **arguments)
        return None if error else parse_json(text)

    async def items(self, kind: str, namespace: str | None) -> list[dict[str, Any]]:
        argv = ["get", kind] + (["-n", namespace] if namespace else [])
        data = await self.kjson(*argv)
        return list(data.get("items", [])) if data else []


def parse_json(text: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data
