"""heldout45 (session 37, written blind): a held-out operator that teaches as it works.

Its answer is a senior engineer walking a junior through the incident
(:mod:`operator_heldout45_say`): what the request says and does not say, each read with why it
was made first and what its output shows, the tempting wrong explanations taken apart with a
read, the cause and the evidence that settles it (or what is not known), what was done and
what was deliberately not done, who was told, and what to remember. The reads and the
judgements are generic (:mod:`operator_heldout45_look`, :mod:`operator_heldout45_do`); nothing
here knows a scenario id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools
from .operator_read import table


@dataclass
class Read:
    """One call and the teaching around it: why it came first, what it showed."""

    call: str
    why: str
    shows: str = ""
    trigger: str = "your request"


@dataclass
class Change:
    """One write: what, why, what triggered it, before -> after, and how it was checked."""

    what: str
    why: str
    before: str
    after: str
    check: str = ""
    trigger: str = "your request"


@dataclass
class Lesson:
    """What the walkthrough is built from, filled in while working."""

    ask: str
    says: list[str] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    tempting: list[tuple[str, str]] = field(default_factory=list)
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    done: list[Change] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    remember: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


class Desk:
    """The tools, the lesson being written, and the trigger of the work in hand."""

    def __init__(self, tools: Tools, task: Any):
        self.tools = tools
        self.task = task
        self.lesson = Lesson(ask=" ".join(str(task.prompt or "").split()))
        self.trigger = "your request"
        self.scope = [str(n) for n in (task.scope or {}).get("namespaces") or ["default"]]
        self.zones = [str(z) for z in (task.scope or {}).get("zones") or []]
        self.approval = [str(a) for a in (task.scope or {}).get("approval_required_for") or []]
        self.seen_alerts: set[str] = set()
        self.alerts: list[dict[str, Any]] = []
        self.deps: list[str] = []

    @property
    def ns(self) -> str:
        return self.scope[0]

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def read(self, why: str, tool: str = "kubectl", **args: Any) -> str:
        """One read, noted with why it was made (the answer's "shows" is filled in later)."""
        if tool not in self.tools.names:
            return ""
        out = await self.tools.call(tool, **args)
        call = f"kubectl {args['command']}" if tool == "kubectl" else _call_text(tool, args)
        self.lesson.reads.append(Read(call, why, trigger=self.trigger))
        await self._interrupts()
        return out

    def shows(self, text: str) -> None:
        """What the latest read showed."""
        if self.lesson.reads and text:
            last = self.lesson.reads[-1]
            last.shows = f"{last.shows} {text}".strip()

    async def write(self, command: str, stdin: str | None = None) -> tuple[bool, str]:
        """One write through kubectl; (worked, output)."""
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        bad = bool(self.tools.calls and self.tools.calls[-1].error) or out.lower().startswith(
            ("error", "forbidden")
        )
        return not bad, out

    async def _interrupts(self) -> None:
        """New firing alerts met while working (an alert can fire mid-task): noted once each."""
        if not self.has("metrics_query") or len(self.tools.calls) % 6 != 1:
            return
        from .operator_read import alerts

        found = alerts(await self.tools.call("metrics_query", action="alerts"))
        for a in found:
            labels = a.get("labels") or {}
            name = str(labels.get("alertname") or "")
            if name and name not in self.seen_alerts and a.get("state", "firing") == "firing":
                self.seen_alerts.add(name)
                self.alerts.append(a)
                self.lesson.extra.append(f"alert:{name}:{_alert_text(a)}")


def _call_text(tool: str, args: dict[str, Any]) -> str:
    inner = ", ".join(f"{k}={v}" for k, v in args.items())
    return f"{tool}({inner})"


def _alert_text(alert: dict[str, Any]) -> str:
    labels = alert.get("labels") or {}
    notes = alert.get("annotations") or {}
    who = labels.get("deployment") or labels.get("pod") or labels.get("node") or ""
    text = notes.get("summary") or notes.get("description") or ""
    return f"{who}|{text}"


def deployments(text: str) -> list[str]:
    """Deployment names of a ``get deployments`` table."""
    return [r.get("name", "") for r in table(text) if r.get("name")]


def named(prompt: str, names: list[str]) -> list[str]:
    """The names the request mentions, longest first, so ``api-service-canary`` wins over
    ``api-service`` only when it is written."""
    low = prompt.lower()
    hits = [
        n for n in sorted(names, key=len, reverse=True) if re.search(rf"\b{re.escape(n)}\b", low)
    ]
    out: list[str] = []
    for n in hits:
        if not any(n in longer and re.search(rf"\b{re.escape(longer)}\b", low) for longer in out):
            out.append(n)
    return out


async def run(tools: Tools, task: Any) -> str:
    """Work the request and write it up as a walkthrough for a junior."""
    from .operator_heldout45_flow import dispatch
    from .operator_heldout45_say import write

    desk = Desk(tools, task)
    await dispatch(desk)
    return write(desk.lesson, desk)
