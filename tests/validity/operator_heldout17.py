"""``heldout17``: a second held-out competent operator (issue 27, fairness; session 17).

Written blind to the evaluator: from the SI profile (scenario prompts and behavior definitions),
``docs/agents.md``, ``docs/scoring.md``, the README and this harness only. It works the way a
senior SRE on call does: it looks at the namespace and the workload the message names, follows
the symptom through events, ``describe``, logs, metrics, traces and dashboards, changes only what
the request needs when it is asked and allowed to, re-reads what it changed, and answers in a
chat-thread voice: TL;DR first, first person, short paragraphs, code spans for numbers, cause
chains with arrows, a question back to the reader, and the list of what it ran.

Nothing here knows a scenario id: every branch is on the prompt's words, the task's mode and
scope, the tools offered and what the environment returns. This module holds the shift (calls,
their reason, trigger and delta) and the first look; ``operator_heldout17_look.py`` diagnoses,
``operator_heldout17_do.py`` makes changes, ``operator_heldout17_say.py`` writes the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import load_json, table

#: the trigger of everything the operator's own message asked for
OPERATOR = "operator request"


@dataclass
class Step:
    """One call as the trail reports it: what, why, what triggered it, what it changed."""

    command: str
    why: str
    trigger: str
    delta: str = ""
    failed: bool = False


@dataclass
class Finding:
    """A conclusion: the cause, the hops that lead to it, the facts that carry it."""

    cause: str
    chain: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    fix: str = ""
    sure: bool = True
    kind: str = ""


@dataclass
class Shift:
    """One task: the tools, the trail and what was read on the way."""

    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    trigger: str = OPERATOR
    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    notes: dict[str, dict[str, str]] = field(default_factory=dict)
    deployments: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    pods: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    events: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    dismissed: list[str] = field(default_factory=list)
    numbers: list[tuple[str, str]] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    asks: list[str] = field(default_factory=list)
    alerts_seen: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    raw_metrics: str = ""
    series: dict[str, list[float]] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)
    headline: str = ""

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def scope(self) -> list[str]:
        return namespaces(self.task)

    @property
    def may_write(self) -> bool:
        """Autonomous, no read-only zone, no approval asked for writes (02 §1.4 scope)."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        gated = bool(self.task.scope.get("approval_required_for"))
        return self.task.mode == "autonomous" and "readonly" not in zones and not gated

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def k(self, command: str, why: str, delta: str = "") -> str:
        """One kubectl call, put on the trail."""
        out = await self.tools.call("kubectl", command=command)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(f"kubectl {command}", why, self.trigger, delta, failed))
        await self._watch()
        return out

    async def t(self, tool: str, shown: str, why: str, **arguments: Any) -> str:
        """One call of another tool (when offered), put on the trail."""
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(shown, why, self.trigger, "", failed))
        return out

    async def _watch(self) -> None:
        """After the first call, glance at firing alerts once: things change mid-shift."""
        if len(self.steps) != 1 or not self.has("metrics_query"):
            return
        await self.alerts("to check nothing new is firing now that I've started")

    async def alerts(self, why: str) -> list[dict[str, Any]]:
        """Firing alerts, each new one remembered as a trigger of its own."""
        if not self.has("metrics_query"):
            return []
        text = await self.t("metrics_query", "metrics_query alerts", why, action="alerts")
        doc = load_json(text)
        found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
        firing = [a for a in found if isinstance(a, dict) and a.get("state") == "firing"]
        for a in firing:
            name = str(a.get("labels", {}).get("alertname", "alert"))
            if name not in self.alerts_seen:
                self.alerts_seen.append(name)
        return firing

    def named(self, names: list[str]) -> list[str]:
        """Names the prompt mentions as whole words (``api-gateway`` or "API gateway"),
        longest first."""
        text = self.prompt.lower()
        hits = []
        for n in names:
            forms = {n.lower(), n.lower().replace("-", " ")}
            if any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", text) for f in forms):
                hits.append(n)
        return sorted(set(hits), key=lambda n: (-len(n), n))

    def words(self) -> str:
        """The prompt, lower case, with the object names it mentions blanked out."""
        text = self.prompt.lower()
        for n in sorted(self.all_names(), key=len, reverse=True):
            text = re.sub(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", " ", text)
        return text

    def all_names(self) -> list[str]:
        out: list[str] = []
        for rows in self.deployments.values():
            out += [r.get("name", "") for r in rows]
        return [n for n in out if n]

    def env(self, ns: str) -> str:
        """production / staging / ... from the namespace's labels ('' when unlabelled)."""
        labels = self.labels.get(ns, {})
        for key in ("env", "environment", "stage", "tier"):
            value = labels.get(key, "").lower()
            if value:
                return "production" if value.startswith("prod") else value
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        return "production" if "prod" in zones else ""


def _pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a ``describe`` block as a dict."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        item = line.strip()
        if not inside or item in ("", "<none>"):
            continue
        k, sep, v = item.partition("=") if "=" in item.split(":")[0] else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def first_look(shift: Shift) -> None:
    """Namespace metadata, deployments, pods and events of every namespace in scope."""
    for ns in shift.scope:
        if shift.has("kubectl"):
            desc = await shift.k(
                f"describe namespace {ns}", f"who owns `{ns}` and what kind of env it is"
            )
            shift.labels[ns] = _pairs(desc, "Labels")
            shift.notes[ns] = _pairs(desc, "Annotations")
            shift.deployments[ns] = table(
                await shift.k(f"get deployments -n {ns} -o wide", f"what runs in `{ns}`")
            )
            shift.pods[ns] = table(
                await shift.k(f"get pods -n {ns} -o wide", f"which pods in `{ns}` are unhappy")
            )
            shift.events[ns] = table(
                await shift.k(f"get events -n {ns}", f"what changed recently in `{ns}`")
            )


def pods_of(shift: Shift, ns: str, name: str) -> list[dict[str, str]]:
    """Pods of a deployment (ReplicaSet hash suffix) or the pod of that exact name."""
    pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
    return [
        p
        for p in shift.pods.get(ns, [])
        if p.get("name") == name or pat.fullmatch(p.get("name", ""))
    ]


async def run(tools: Tools, task: AgentTask) -> str:
    """The whole shift: look, diagnose or change, then write the answer."""
    from .operator_heldout17_do import act
    from .operator_heldout17_say import write

    shift = Shift(tools, task)
    await first_look(shift)
    await act(shift)
    return write(shift)
