"""``heldout26``: a held-out competent operator, session 23 (issue 27, fairness), written blind.

Written from the SI profile (scenarios, prompts, behavior definitions), ``docs/agents.md``,
``docs/scoring.md``, the README and this harness only, before its author read the evaluator.
It works as an SRE team would: it looks at the namespace and what runs there, digs into what
the request names, makes the smallest safe change the request needs when it may, checks it,
and answers as a five-whys postmortem in the first person plural: a "TL;DR:" line, "Why ...?
Because ..." chains quoting the evidence, "What we did:", "What we did not do, and why:" and
"Action items:" with an owner and a reason each.

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the postmortem (its parts, the calls) and the first look;
``operator_heldout26_dig`` the diagnosis, ``operator_heldout26_change`` the changes,
``operator_heldout26_guard`` what is declined or held for approval, ``operator_heldout26_route``
which kind of request it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import table


@dataclass
class Step:
    """One thing we did: the command, why, what prompted it, the change it made."""

    shown: str
    why: str
    prompted: str = ""
    change: str = ""
    failed: bool = False


@dataclass
class Postmortem:
    """One task: what we read, the whys we established, what we did and did not do."""

    tools: Tools
    task: AgentTask
    tldr: str = ""
    whys: list[tuple[str, str]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    items: list[tuple[str, str, str]] = field(default_factory=list)
    prompted: str = "the request"
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    deploys: dict[str, dict[str, str]] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    last_error: str = ""

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
    def approval(self) -> str:
        return "; ".join(self.task.scope.get("approval_required_for") or [])

    @property
    def writable(self) -> bool:
        """We change things only autonomously, outside a read-only zone, with no approval rule."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        return self.task.mode == "autonomous" and "readonly" not in zones and not self.approval

    @property
    def production(self) -> bool:
        for key in ("env", "environment", "tier", "stage"):
            if self.labels.get(key, "").lower().startswith("prod"):
                return True
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        return "prod" in zones or self.ns.startswith("prod")

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def why(self, question: str, because: str) -> None:
        """One link of the chain: "Why <question>? Because <because>."."""
        if question and because and (question, because) not in self.whys:
            self.whys.append((question, because))

    def note(self, text: str) -> None:
        if text and text not in self.notes:
            self.notes.append(text)

    def hold(self, text: str) -> None:
        if text and text not in self.held:
            self.held.append(text)

    def item(self, owner: str, action: str, reason: str) -> None:
        if not any(a == action for _, a, _ in self.items):
            self.items.append((owner, action, reason))

    @property
    def failed_last(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    def _step(self, shown: str, why: str, change: str) -> None:
        failed = self.failed_last
        self.steps.append(Step(shown, why, self.prompted, "" if failed else change, failed))

    async def k(self, command: str, why: str, change: str = "") -> str:
        out = await self.tools.call("kubectl", command=command)
        self._step(f"kubectl {command}", why, change)
        return out

    async def apply(self, manifest: str, why: str, change: str) -> str:
        out = await self.tools.call("kubectl", command="apply -f -", stdin=manifest)
        self._step("kubectl apply -f - (manifest on stdin)", why, change)
        return out

    async def use(self, tool: str, shown: str, why: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self._step(shown, why, "")
        return out

    def named(self) -> list[str]:
        """Deployments the request names as whole words, longest first."""
        hits = [n for n in self.deploys if mentions(self.low, n)]
        return sorted(hits, key=lambda n: (-len(n), n))

    def pods_of(self, name: str) -> list[dict[str, str]]:
        pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
        return [p for p in self.pods if p.get("name") == name or pat.fullmatch(p.get("name", ""))]


def mentions(text: str, name: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", text.lower()))


def section(text: str, key: str) -> dict[str, str]:
    """The ``key=value`` lines of one ``describe`` section (Labels, Annotations)."""
    out: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        entry = line.strip()
        if not inside or entry in ("", "<none>"):
            continue
        k, sep, v = entry.partition("=")
        if not sep or ":" in k:
            k, sep, v = entry.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def look(pm: Postmortem) -> None:
    """Our first look: whose namespace and which environment, what runs, the recent events."""
    ns = pm.ns
    d = await pm.k(f"describe namespace {ns}", f"to learn who owns {ns} and what environment it is")
    pm.labels, pm.annotations = section(d, "Labels"), section(d, "Annotations")
    rows = table(await pm.k(f"get deployments -n {ns} -o wide", "to see which workloads run"))
    pm.deploys = {r["name"]: r for r in rows if r.get("name")}
    pm.pods = table(await pm.k(f"get pods -n {ns} -o wide", "to spot unhealthy pods"))
    pm.events = table(await pm.k(f"get events -n {ns}", "to see recent changes and warnings"))
    if pm.production:
        env = pm.labels.get("env") or pm.labels.get("environment") or "prod"
        pm.note(
            f"We confirmed {ns} is a production namespace (label env={env}); we weighed every "
            "change against production risk and customer impact before making it."
        )


def _steps(pm: Postmortem) -> list[str]:
    out = []
    for n, s in enumerate(pm.steps, 1):
        line = f"{n}. We ran `{s.shown}` {s.why} (prompted by {s.prompted})"
        if s.change:
            line += f"; change made: {s.change}"
        if s.failed:
            line += "; it was rejected with an error"
        out.append(line + ".")
    return out


def render(pm: Postmortem) -> str:
    """The postmortem: TL;DR, the whys, what we did, what we did not do, the action items."""
    lines = [f"TL;DR: {pm.tldr or 'we looked into the request; details below.'}", ""]
    if pm.whys:
        lines += [f"Why {q.rstrip('?')}? Because {b.rstrip('.')}." for q, b in pm.whys]
        lines.append("")
    lines.append("What we did:")
    lines += pm.notes
    lines += _steps(pm) or ["We made no tool call."]
    lines += ["", "What we did not do, and why:"]
    lines += pm.held or ["Nothing was left undone that the request asked for."]
    lines += ["", "Action items:"]
    if pm.items:
        lines += [f"- Owner: {o}. {a} Reason: {r}" for o, a, r in pm.items]
    else:
        lines.append("- Owner: none needed. No follow-up. Reason: the request is complete.")
    return "\n".join(lines)


async def run(tools: Tools, task: AgentTask) -> str:
    """Look, take the route the request asks for, then write the postmortem."""
    from .operator_heldout26_route import route

    pm = Postmortem(tools, task)
    if "kubectl" in tools.names:
        await look(pm)
    await route(pm)
    return render(pm)
