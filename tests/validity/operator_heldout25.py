"""``heldout25``: a held-out competent operator, session 22 (issue 27, fairness), written blind.

Written from the SI profile (scenarios, prompts, behavior definitions), ``docs/agents.md``,
``docs/scoring.md``, the README and this harness only, before its author read the evaluator. It
works a shift: it orients (namespace labels and annotations, workloads, pods, events), follows
what the request names, makes the smallest change the request needs when it may, checks it,
and hands over as a shift log: numbered, timestamp-free entries in the third person and the
passive voice ("The deployment was inspected; ..."), then a "Handed over:" block.

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the log (entries, calls) and the first look;
``operator_heldout25_look`` the diagnosis, ``operator_heldout25_change`` the changes,
``operator_heldout25_plays`` which kind of request it is, ``operator_heldout25_guard`` what
is refused or held for approval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import table

REQUEST = "the operator's request"


@dataclass
class Entry:
    """One log entry: what was done (passive), why, what prompted it, the delta of a write."""

    text: str
    reason: str = ""
    trigger: str = ""
    delta: str = ""
    failed: bool = False
    call: bool = False


@dataclass
class Shift:
    """One task: the entries written, what was read, the items handed over."""

    tools: Tools
    task: AgentTask
    entries: list[Entry] = field(default_factory=list)
    handover: list[str] = field(default_factory=list)
    trigger: str = REQUEST
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deploys: dict[str, dict[str, str]] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def low(self) -> str:
        return self.task.prompt.lower()

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def scope_namespaces(self) -> list[str]:
        return namespaces(self.task)

    @property
    def approval(self) -> str:
        return "; ".join(self.task.scope.get("approval_required_for") or [])

    @property
    def may_write(self) -> bool:
        """Writes are made only autonomously, outside a read-only zone, with no approval rule."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        return self.task.mode == "autonomous" and "readonly" not in zones and not self.approval

    @property
    def env(self) -> str:
        """production / staging / dev from the namespace labels, else the zone's name."""
        for key in ("env", "environment", "tier", "stage"):
            v = self.labels.get(key, "").lower()
            if v:
                return "production" if v.startswith("prod") else v
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        if "prod" in zones:
            return "production"
        return "staging" if "staging" in zones else ""

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def log(self, text: str) -> None:
        """A finding or decision, written as its own entry."""
        if text:
            self.entries.append(Entry(text))

    def hand(self, item: str) -> None:
        if item and item not in self.handover:
            self.handover.append(item)

    def _record(self, shown: str, reason: str, delta: str) -> None:
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        verb = "was applied" if delta else "was run"
        if failed:
            verb, delta = ("was attempted" if delta else "was run"), ""
        self.entries.append(
            Entry(f"`{shown}` {verb}", reason, self.trigger, delta, failed, call=True)
        )

    async def k(self, command: str, reason: str, delta: str = "") -> str:
        out = await self.tools.call("kubectl", command=command)
        self._record(f"kubectl {command}", reason, delta)
        return out

    async def apply(self, manifest: str, reason: str, delta: str) -> str:
        out = await self.tools.call("kubectl", command="apply -f -", stdin=manifest)
        self._record("kubectl apply -f - (manifest given on stdin)", reason, delta)
        return out

    async def use(self, tool: str, shown: str, reason: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self._record(shown, reason, "")
        return out

    @property
    def last_failed(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    def named(self) -> list[str]:
        """Deployments the prompt names as whole words, longest first."""
        hits = [
            n
            for n in self.deploys
            if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", self.low)
        ]
        return sorted(hits, key=lambda n: (-len(n), n))

    def pods_of(self, name: str) -> list[dict[str, str]]:
        pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
        return [p for p in self.pods if p.get("name") == name or pat.fullmatch(p.get("name", ""))]


def pairs(text: str, key: str) -> dict[str, str]:
    """The ``key=value`` / ``key: value`` lines of one ``describe`` section (Labels, ...)."""
    out: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        item = line.strip()
        if not inside or item in ("", "<none>"):
            continue
        k, sep, v = item.partition("=")
        if not sep or ":" in k:
            k, sep, v = item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def orient(shift: Shift) -> None:
    """The first look of a shift: whose namespace and which environment, what runs, events."""
    ns = shift.ns
    d = await shift.k(
        f"describe namespace {ns}", f"so that the owner and environment of {ns} were known"
    )
    shift.labels, shift.notes = pairs(d, "Labels"), pairs(d, "Annotations")
    rows = table(await shift.k(f"get deploy -n {ns} -o wide", "so that the workloads were known"))
    shift.deploys = {r["name"]: r for r in rows if r.get("name")}
    shift.pods = table(
        await shift.k(f"get pods -n {ns} -o wide", "so that unhealthy pods were found")
    )
    shift.events = table(
        await shift.k(f"get events -n {ns}", "so that recent changes and warnings were seen")
    )
    if shift.env == "production":
        shift.log(
            f"The namespace {ns} was identified as a production environment"
            + (f" (label env={shift.labels.get('env')})" if shift.labels.get("env") else "")
            + "; every change was weighed with production risk in mind."
        )


def trail(shift: Shift) -> list[str]:
    """The numbered entries: each call with its reason, its trigger and, for a write, its delta."""
    lines = []
    for i, e in enumerate(shift.entries, 1):
        if not e.call:
            lines.append(f"{i}. {e.text}")
            continue
        text = f"{i}. {e.text} {e.reason}" if e.reason else f"{i}. {e.text}"
        text += f" (prompted by {e.trigger})"
        if e.delta:
            text += f"; state change recorded: {e.delta}"
        if e.failed:
            text += "; the call was rejected with an error"
        lines.append(text + ".")
    return lines


def render(shift: Shift) -> str:
    """The hand-over: the header, the numbered entries, then the open items."""
    head = f'Shift log, namespace {shift.ns}. Request received: "{shift.prompt.strip()}"'
    body = [head, "", *trail(shift), "", "Handed over:"]
    items = shift.handover or [
        "No open items remain; nothing further is required of the next shift."
    ]
    body.extend(f"- {item}" for item in items)
    return "\n".join(body)


async def run(tools: Tools, task: AgentTask) -> str:
    """The shift: orient, the play the request asks for, then the log."""
    from .operator_heldout25_plays import play

    shift = Shift(tools, task)
    if "kubectl" in tools.names:
        await orient(shift)
    await play(shift)
    return render(shift)
