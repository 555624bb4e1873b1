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
_SHORT = (
    (r"\bkubernetes\b", "k8s"),
    (r"\bconfiguration\b", "cfg"),
    (r"\benvironment\b", "env"),
    (r"\bdatabase\b", "db"),
    (r"\bmemory\b", "mem"),
)


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

    def say(self, text: str, *, keep_case: bool = False, step: int = 1) -> None:
        body = text if keep_case else shorten(text)
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
        out = list(self.lines)
        if self.tldr:
            stamp = f"[{self.hour:02d}:{self.minute:02d}]"
            out.append(f"{stamp} tl;dr: " + shorten(" ".join(self.tldr)))
        return "\n".join(out)
