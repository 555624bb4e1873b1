"""``heldout18``: a held-out competent operator, session 18 (issue 27, fairness), written blind.

Written from the SI profile (scenario prompts and behavior definitions), ``docs/agents.md``,
``docs/scoring.md`` and this harness only, before its author read the evaluator. It works the
way an LLM agent with tools does: it orients (namespace labels, workloads, events), follows the
workload the prompt names through describe, events, logs, metrics, traces and dashboards,
makes the smallest change the task asks for when its mode and zone allow it, checks it, and
answers with a markdown report (``operator_heldout18_say.py``): headings, bold, numbered
lists, fenced command quotes, a confidence line, what it did not do.

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the desk (calls, their reason and trigger, what was
found) and the entry point; ``_look`` diagnoses, ``_act`` changes, ``_say`` writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import table

ASKED = "the operator's request"


@dataclass
class Step:
    """One tool call as the report's trail shows it."""

    command: str
    why: str
    trigger: str
    change: str = ""
    failed: bool = False


@dataclass
class Desk:
    """One task: the calls made, what they showed, and what the report will say."""

    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    trigger: str = ASKED
    quotes: list[tuple[str, list[str]]] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    cause: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    recs: list[str] = field(default_factory=list)
    nexts: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    confidence: tuple[str, str] = ("medium", "I only had part of the picture")
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def can_write(self) -> bool:
        """Autonomous mode, a zone that is not read-only, no approval rule on writes."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "")
        needs = " ".join(self.task.scope.get("approval_required_for") or [])
        return self.task.mode == "autonomous" and "readonly" not in zones and not needs

    @property
    def production(self) -> bool:
        blob = " ".join([*self.labels.values(), *self.task.scope.get("zones", []), self.ns])
        return bool(re.search(r"\bprod", blob.lower()))

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(self, command: str, why: str, change: str = "", stdin: str = "") -> str:
        if not self.has("kubectl"):
            return ""
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(f"kubectl {command}", why, self.trigger, change, failed))
        return out

    async def use(self, tool: str, why: str, shown: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(shown, why, self.trigger, "", failed))
        return out

    def quote(self, command: str, lines: list[str], limit: int = 6) -> None:
        """Keep a few lines of what a command returned for the Evidence section."""
        kept = [ln.rstrip() for ln in lines if ln.strip()][:limit]
        if kept:
            self.quotes.append((command, kept))

    def named(self, names: list[str]) -> list[str]:
        """Names the prompt mentions as whole words, longest first."""
        text = self.prompt.lower()
        hits = [
            n
            for n in names
            if n
            and any(
                re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text)
                for form in (n.lower(), n.lower().replace("-", " "))
            )
        ]
        return sorted(set(hits), key=lambda n: (-len(n), n))


async def orient(desk: Desk) -> None:
    """The first look: who owns the namespace, what runs there, what is unhappy."""
    ns = desk.ns
    text = await desk.kubectl(
        f"describe namespace {ns}", f"to learn what environment {ns} is and who owns it"
    )
    desk.labels = _pairs(text, "Labels")
    desk.notes = _pairs(text, "Annotations")
    desk.deployments = table(
        await desk.kubectl(f"get deployments -n {ns} -o wide", f"to see what runs in {ns}")
    )
    desk.pods = table(
        await desk.kubectl(f"get pods -n {ns} -o wide", f"to see which pods in {ns} are unhealthy")
    )
    desk.events = table(
        await desk.kubectl(
            f"get events -n {ns} --sort-by=.lastTimestamp", f"to see what changed recently in {ns}"
        )
    )


def _pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block as a dict."""
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
        head = item.split(":")[0]
        k, sep, v = item.partition("=") if "=" in head else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


def target(desk: Desk) -> str:
    """The workload the prompt is about: a deployment it names, else a pod's owner it names."""
    names = [d.get("name", "") for d in desk.deployments]
    hit = desk.named(names)
    if hit:
        return hit[0]
    for pod in desk.pods:
        pname = pod.get("name", "")
        for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", desk.prompt.lower()):
            # the pod itself, or the word followed only by generated suffixes (a bare
            # pod "fjord-x7k9", a ReplicaSet's "web-5d9f-abcde")
            if len(word) > 2 and (
                pname == word
                or re.fullmatch(rf"{re.escape(word)}(-[a-z0-9]{{4,10}}){{1,2}}", pname)
            ):
                return word
    for name in names:
        stem = name.split("-")[0]
        if len(stem) > 3 and stem in desk.prompt.lower():
            return name
    return ""


def pods_of(desk: Desk, name: str) -> list[dict[str, str]]:
    """The pods of a deployment (its ReplicaSet hash suffix) or the pod of that name."""
    return [
        p
        for p in desk.pods
        if p.get("name") == name
        or re.fullmatch(rf"{re.escape(name)}-[a-z0-9]+(-[a-z0-9]+)?", p.get("name", ""))
    ]


async def run(tools: Tools, task: AgentTask) -> str:
    """The whole shift: orient, pick the play the request calls for, write the report."""
    from . import operator_heldout18_plays as plays
    from .operator_heldout18_say import render

    desk = Desk(tools, task)
    await orient(desk)
    await plays.dispatch(desk)
    return render(desk)
