"""heldout41's trace (session 34, written blind): every call it makes, printed as an
off-the-shelf ReAct agent framework prints its run: "Thought:", "Action:", "Action Input:",
"Observation:" (a few trimmed lines), and at the end "Thought: I now know the final answer"
and "Final Answer: ...". Nothing here knows a scenario; it records what the tools returned.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools

#: lines of an observation kept in the printed trace (the rest is cut, as frameworks trim)
KEEP = 6


@dataclass
class Step:
    thought: str
    tool: str
    args: dict[str, Any]
    text: str
    failed: bool
    show: list[str] | None = None
    after: list[str] = field(default_factory=list)


@dataclass
class React:
    """The agent's scratchpad: the tools it calls and the steps it prints."""

    tools: Tools
    trigger: str = "the operator's request"
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def act(self, thought: str, tool: str, **args: Any) -> str:
        """One Thought / Action / Observation block; the tool's text comes back whole."""
        if tool not in self.tools.names:
            return ""
        before = len(self.tools.calls)
        text = await self.tools.call(tool, **args)
        failed = len(self.tools.calls) > before and bool(self.tools.calls[-1].error)
        self.steps.append(Step(f"{thought} (trigger: {self.trigger})", tool, args, text, failed))
        return text

    def show(self, lines: list[str]) -> None:
        """The last observation printed as these lines (the ones that matter), not its head."""
        if self.steps and lines:
            self.steps[-1].show = lines[:KEEP]

    async def kubectl(self, thought: str, command: str) -> str:
        return await self.act(thought, "kubectl", command=command)

    def thought(self, text: str) -> None:
        """A thought with no action: what the last observation means."""
        self.notes.append(text)
        if self.steps:
            self.steps[-1].after.append(text)

    def render(self, final: str) -> str:
        out: list[str] = []
        for step in self.steps:
            out.append(f"Thought: {step.thought}")
            out.append(f"Action: {step.tool}")
            out.append(f"Action Input: {_input(step)}")
            shown = "\n".join(step.show) if step.show else _trim(step.text, step.failed)
            out.append("Observation: " + shown)
            out += [f"Thought: {note}" for note in step.after]
            out.append("")
        out.append("Thought: I now know the final answer")
        out.append(f"Final Answer: {final.strip()}")
        return "\n".join(out)


def _input(step: Step) -> str:
    if step.tool == "kubectl":
        return f"kubectl {step.args.get('command', '')}"
    return json.dumps(step.args, sort_keys=True)


def _trim(text: str, failed: bool) -> str:
    """The first lines that say something (blank lines and JSON braces dropped), cut."""
    lines = [ln.rstrip() for ln in (text or "").splitlines() if ln.strip()]
    lines = [ln for ln in lines if not re.fullmatch(r"\s*[\[\]{},]+\s*", ln)]
    if not lines:
        return "(no output)"
    head = "[error] " if failed else ""
    kept = lines[:KEEP]
    more = f"\n... ({len(lines) - KEEP} more lines)" if len(lines) > KEEP else ""
    return head + "\n".join(kept) + more
