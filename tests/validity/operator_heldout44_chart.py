"""heldout44's chart (session 36, written blind): what a clinician writes down while working.

The operator keeps one :class:`Chart` per task: the presenting complaint, the history it read
(rollout ages, events), the examination (each read with its command and what it showed, and
what prompted it), a differential of candidate causes (each with the evidence for and against
and a status), the diagnosis, the plan (done and deliberately not done), the referral and the
follow-up. :mod:`operator_heldout44_note` turns it into the note. Nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools


@dataclass
class Dx:
    """One line of the differential: a candidate cause and how the reads settled it."""

    cause: str
    for_: list[str] = field(default_factory=list)
    against: list[str] = field(default_factory=list)
    status: str = "unlikely"  # confirmed | likely | unlikely | ruled out by ... | not excluded
    kind: str = ""


@dataclass
class Chart:
    """Everything the note is written from (filled by the reads and the treatment)."""

    prompt: str
    namespace: str
    complaint: str = ""
    history: list[str] = field(default_factory=list)
    exam: list[str] = field(default_factory=list)
    ddx: list[Dx] = field(default_factory=list)
    diagnosis: str = ""
    confidence: str = ""
    done: list[str] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    referral: list[str] = field(default_factory=list)
    followup: list[str] = field(default_factory=list)
    trigger: str = "trigger: operator request"
    extra: list[str] = field(default_factory=list)


def command_text(tool: str, args: dict[str, Any]) -> str:
    """The read as a person writes it: ``kubectl ...`` or ``tool key=value ...``."""
    if tool == "kubectl":
        return f"kubectl {args.get('command', '')}"
    parts = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in args.items()]
    return f"{tool} {' '.join(parts)}"


class Exam:
    """The tools, with every call written into the chart's examination."""

    def __init__(self, tools: Tools, chart: Chart):
        self.tools = tools
        self.chart = chart

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def read(self, tool: str, why: str = "", **args: Any) -> str:
        """Call a tool; the examination line is added later by :meth:`finding`."""
        if tool not in self.tools.names:
            return ""
        return await self.tools.call(tool, **args)

    async def k(self, command: str) -> str:
        return await self.read("kubectl", command=command)

    def finding(self, tool: str, args: dict[str, Any], what: str) -> None:
        """One "on exam" entry: the command, what it showed, what prompted the read."""
        self.chart.exam.append(f"`{command_text(tool, args)}` ({self.chart.trigger}): {what}")

    async def look(self, tool: str, what_of: Any, **args: Any) -> str:
        """Read, then write what ``what_of(text)`` says about it into the examination."""
        text = await self.read(tool, **args)
        if tool in self.tools.names:
            said = what_of(text) if callable(what_of) else str(what_of)
            if said:
                self.finding(tool, args, said)
        return text

    async def kl(self, command: str, what_of: Any) -> str:
        return await self.look("kubectl", what_of, command=command)


def failed(text: str) -> bool:
    """A tool answer that is an error (refused, not found, forbidden)."""
    head = text.strip()[:200].lower()
    return head.startswith(("error", "forbidden")) or "(forbidden)" in head or "notfound" in head


def first_line(text: str, limit: int = 160) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line[:limit]


def pct(value: float) -> str:
    """A ratio as a percentage, as read (0.08 -> 8%)."""
    v = value * 100
    return f"{v:.1f}%".replace(".0%", "%")


def words_in(prompt: str) -> str:
    return re.sub(r"[^a-z0-9\- ]+", " ", prompt.lower())
