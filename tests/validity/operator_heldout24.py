"""``heldout24``: a held-out competent operator, session 21 (issue 27, fairness), written blind.

Written from the SI profile (scenarios, prompts, behavior definitions), ``docs/agents.md``,
``docs/scoring.md``, the README and this harness only, before its author read the evaluator. It
works like an on-call engineer: it orients (namespace labels, workloads, pods, events, nodes),
follows the workload the message names (describe, logs, metrics, traces, the database), makes
the smallest change the ask needs when it may, checks it, and answers in a chat channel: terse,
lower case, abbreviations, arrows, short messages (``operator_heldout24_chat``).

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the desk (calls, why, trigger) and the first look;
``operator_heldout24_look`` the diagnosis, ``operator_heldout24_do`` the changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import load_json, table

ASK = "ur ask"


@dataclass
class Step:
    """One call as the trail shows it: command, why, what triggered it, the delta if a write."""

    command: str
    why: str
    trigger: str
    delta: str = ""
    failed: bool = False


@dataclass
class Desk:
    """One task: the calls made (why and trigger each), what was read, the messages to send."""

    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    trigger: str = ASK
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deploys: dict[str, dict[str, str]] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    nodes: list[dict[str, str]] = field(default_factory=list)
    msgs: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    seen_alerts: set[str] = field(default_factory=set)
    last_signals: list[tuple[str, str, int]] = field(default_factory=list)

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
    def may_write(self) -> bool:
        """Autonomous, in a zone that is not read-only, and no approval asked for writes."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        approval = " ".join(self.task.scope.get("approval_required_for") or [])
        return self.task.mode == "autonomous" and "readonly" not in zones and not approval

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def say(self, *lines: str) -> None:
        self.msgs.extend(x for x in lines if x)

    async def k(self, command: str, why: str, delta: str = "") -> str:
        out = await self.tools.call("kubectl", command=command)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(f"kubectl {command}", why, self.trigger, delta, failed))
        await self._mid_alerts()
        return out

    async def apply(self, manifest: str, why: str, delta: str) -> str:
        out = await self.tools.call("kubectl", command="apply -f -", stdin=manifest)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(
            Step("kubectl apply -f - (manifest below)", why, self.trigger, delta, failed)
        )
        return out

    async def use(self, tool: str, why: str, shown: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(shown, why, self.trigger, "", failed))
        return out

    async def _mid_alerts(self) -> None:
        """An on-call keeps an eye on the alert feed; a new firing alert is a new trigger."""
        if not self.has("metrics_query") or len(self.steps) % 4 != 1:
            return
        for a in await self.firing():
            name = str((a.get("labels") or {}).get("alertname", ""))
            if name and name not in self.seen_alerts:
                self.seen_alerts.add(name)

    async def firing(self) -> list[dict[str, Any]]:
        text = await self.tools.call("metrics_query", action="alerts")
        self.steps.append(Step("metrics_query alerts", "checking alert feed", self.trigger))
        doc = load_json(text)
        found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
        return [a for a in found if isinstance(a, dict) and a.get("state") == "firing"]

    def named(self) -> list[str]:
        """Deployments (or pods) the prompt names as whole words, longest first."""
        cands = list(self.deploys) + [p.get("name", "") for p in self.pods]
        hits = [
            n
            for n in cands
            if n and re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", self.low)
        ]
        return sorted(set(hits), key=lambda n: (-len(n), n))

    def pods_of(self, name: str) -> list[dict[str, str]]:
        pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
        return [p for p in self.pods if p.get("name") == name or pat.fullmatch(p.get("name", ""))]

    @property
    def env(self) -> str:
        """prod / staging / dev from the namespace labels (env, environment, tier, stage)."""
        for key in ("env", "environment", "tier", "stage"):
            v = self.labels.get(key, "").lower()
            if v:
                return "prod" if v.startswith("prod") else v
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        return "prod" if "prod" in zones else ""


def _pairs(text: str, key: str) -> dict[str, str]:
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


async def orient(desk: Desk) -> None:
    """First look: who owns the ns and what env it is, what runs, what's unhappy, the nodes."""
    ns = desk.ns
    d = await desk.k(f"describe namespace {ns}", f"who owns {ns}, which env it is")
    desk.labels, desk.notes = _pairs(d, "Labels"), _pairs(d, "Annotations")
    rows = table(await desk.k(f"get deploy -n {ns} -o wide", f"what runs in {ns}"))
    desk.deploys = {r["name"]: r for r in rows if r.get("name")}
    desk.pods = table(await desk.k(f"get pods -n {ns} -o wide", "which pods are unhappy"))
    desk.events = table(await desk.k(f"get events -n {ns}", "what changed lately"))
    desk.names = [*desk.deploys, *(p.get("name", "") for p in desk.pods), ns]


def trail(desk: Desk) -> str:
    """The audit trail as a chat message: every call, why, trigger, before -> after."""
    lines = ["trail (cmd | why | trigger):"]
    for i, s in enumerate(desk.steps, 1):
        extra = f" | {s.delta}" if s.delta else ""
        fail = " (FAILED)" if s.failed else ""
        lines.append(f"{i}. `{s.command}`{fail} | {s.why} | {s.trigger}{extra}")
    return "\n".join(lines)


async def run(tools: Tools, task: AgentTask) -> str:
    """The shift: orient, then the play the message asks for, then the chat answer."""
    from .operator_heldout24_chat import render
    from .operator_heldout24_plays import play

    desk = Desk(tools, task)
    if tools.names & {"kubectl"}:
        await orient(desk)
    await play(desk)
    return render([*desk.msgs, trail(desk)], desk.names)
