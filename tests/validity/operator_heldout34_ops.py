"""The held-out operator of session 29 (``heldout34``): its tool calls and what it learned.

Every call goes through :class:`Ops`, which numbers it (the status update cites calls as
footnotes), keeps why it was made and what prompted it, and notes the newest timestamp the
call's answer carried, so each phase of the update is stamped with a time the cluster served
rather than the operator's own clock. Generic: nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools

#: times that say when something last happened (not when an object was created)
_ISO = re.compile(
    r"(?:(?:lastTimestamp|lastTransitionTime|lastUpdateTime|startedAt|finishedAt|eventTime|"
    r"lastHeartbeatTime|startTime)\"?:\s*\"?|^)(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?Z",
    re.M,
)
_EPOCH = re.compile(r"\[\s*(1[6-9]\d{8})(?:\.\d+)?\s*,")


@dataclass
class Call:
    """One call as the footnotes list it."""

    n: int
    tool: str
    args: dict[str, Any]
    why: str
    trigger: str
    text: str
    failed: bool
    stamp: datetime | None = None

    def command(self) -> str:
        if self.tool == "kubectl":
            return f"kubectl {self.args.get('command', '')}"
        parts = [
            f"{k}={json.dumps(v) if isinstance(v, str) and ' ' in v else v}"
            for k, v in sorted(self.args.items())
            if k != "stdin"
        ]
        return f"{self.tool} {' '.join(parts)}".strip()


@dataclass
class Phase:
    """One paragraph of the status update: its heading, text and when it was written."""

    name: str
    text: str
    at: int  # the number of calls made when it was written


@dataclass
class Ops:
    """The calls made for one task, and the phases written so far."""

    tools: Tools
    task: AgentTask
    calls: list[Call] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)
    request: str = "your request"

    @property
    def prompt(self) -> str:
        return self.task.prompt or ""

    @property
    def namespaces(self) -> list[str]:
        return list(self.task.scope.get("namespaces") or ["default"])

    @property
    def ns(self) -> str:
        return self.namespaces[0]

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def call(self, tool: str, why: str, trigger: str = "", **args: Any) -> Call:
        """Make one call (a tool the environment does not offer is not called: empty text)."""
        if tool not in self.tools.names:
            return Call(0, tool, args, why, trigger, "", True)
        text = await self.tools.call(tool, **args)
        last = self.tools.calls[-1]
        call = Call(
            len(self.calls) + 1,
            tool,
            args,
            why,
            trigger or self.request,
            text,
            bool(last.error) or _failed(tool, text),
            _newest(text),
        )
        self.calls.append(call)
        return call

    async def k(self, command: str, why: str, trigger: str = "", stdin: str = "") -> Call:
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        return await self.call("kubectl", why, trigger, **args)

    def say(self, name: str, text: str) -> None:
        self.phases.append(Phase(name, text, len(self.calls)))

    def stamp_at(self, at: int) -> datetime | None:
        """The newest served time seen in the first ``at`` calls (else the first seen later)."""
        every = [c.stamp for c in self.calls if c.stamp]
        if not every:
            return None
        newest = max(every)
        fresh = [
            c.stamp if c.stamp and (newest - c.stamp).total_seconds() < 3600 else None
            for c in self.calls
        ]
        seen = [t for t in fresh[:at] if t]
        if seen:
            return max(seen)
        later = [t for t in fresh[at:] if t]
        return min(later) if later else None


def _failed(tool: str, text: str) -> bool:
    head = text.strip()[:200].lower()
    if tool == "kubectl":
        return head.startswith(("error", "the ", "unable", "forbidden")) or "forbidden" in head
    return '"status": "error"' in head or head.startswith("error")


def _newest(text: str) -> datetime | None:
    """The newest absolute time in a tool's answer (RFC 3339 stamps, Prometheus sample times)."""
    found: list[datetime] = []
    for m in _ISO.finditer(text):
        try:
            found.append(datetime.fromisoformat(m.group(1)).replace(tzinfo=UTC))
        except ValueError:
            continue
    for m in _EPOCH.finditer(text):
        found.append(datetime.fromtimestamp(int(m.group(1)), UTC))
    return max(found) if found else None


def cite(*calls: Call | None) -> str:
    """Footnote marks for the calls given (those made), e.g. ``[2][5]``."""
    marks = sorted({c.n for c in calls if c is not None and c.n})
    return "".join(f"[{n}]" for n in marks)
