"""heldout32's voice: a chat-ops thread (issue 27 item 6, held-out agents, written blind).

The operator writes as it works: short timestamped lines in a channel, lowercase, "we" and
"let's", thinking aloud, a tl;dr at the end. Nothing here knows a scenario; it only keeps the
thread and the reads behind it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

#: short forms an on-call engineer types in a channel
_SHORT = tuple(
    (rf"(?<![\w./-]){long}(?![\w./-])", short)
    for long, short in (
        ("kubernetes", "k8s"),
        ("configuration", "cfg"),
        ("environment", "env"),
        ("database", "db"),
        ("memory", "mem"),
    )
)


def _call(tool: str, arguments: dict[str, Any]) -> str:
    """One call as the channel pastes it: ``kubectl get pods -n x`` or ``logs_query deployment=x``."""
    if tool == "kubectl":
        return f"kubectl {arguments.get('command', '')}".strip()
    args = " ".join(f"{k}={v}" for k, v in sorted(arguments.items()) if k != "stdin")
    return f"{tool} {args}".strip()


def shorten(text: str) -> str:
    """The channel's spelling: the usual abbreviations in our own words; anything quoted in
    backticks, and names and values as read, stay as they were."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`"):
            out.append(part)
            continue
        for pattern, short in _SHORT:
            part = re.sub(pattern, short, part)
        out.append(part)
    return "".join(out)


@dataclass
class Thread:
    """The channel thread: one message per step, a clock that moves as the work does."""

    tools: Any
    task: AgentTask
    minute: int = 31
    hour: int = 9
    lines: list[str] = field(default_factory=list)
    tldr: list[str] = field(default_factory=list)
    shown: int = 0
    prompted: str = "the ask in this thread"

    def ran(self) -> str:
        """The calls made since the last message, pasted the way a channel does."""
        calls = list(getattr(self.tools, "calls", []))[self.shown :]
        self.shown += len(calls)
        seen: list[str] = []
        for c in calls:
            line = _call(c.tool, dict(c.arguments or {}))
            if line not in seen:
                seen.append(line)
        why = f" (prompted by {self.prompted})"
        return f"ran {', '.join(f'`{x[:140]}`' for x in seen)}{why}" if seen else ""

    def say(self, text: str, *, keep_case: bool = False, step: int = 1) -> None:
        pasted = self.ran()
        if pasted:
            self._post(pasted)
        self._post(text if keep_case else shorten(text), step)

    def _post(self, body: str, step: int = 1) -> None:
        self.lines.append(f"[{self.hour:02d}:{self.minute:02d}] {body}")
        self.minute += step
        if self.minute >= 60:
            self.minute -= 60
            self.hour = (self.hour + 1) % 24

    def sum_up(self, text: str) -> None:
        self.tldr.append(text)

    async def run(self, tool: str, **arguments: Any) -> str:
        return str(await self.tools.call(tool, **arguments))

    async def kubectl(self, command: str) -> str:
        return await self.run("kubectl", command=command)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def text(self) -> str:
        pasted = self.ran()
        if pasted:
            self._post(pasted)
        out = list(self.lines)
        if self.tldr:
            stamp = f"[{self.hour:02d}:{self.minute:02d}]"
            out.append(f"{stamp} tl;dr: " + shorten(" ".join(self.tldr)))
        return "\n".join(out)
