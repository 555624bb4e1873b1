"""``heldout22``: a held-out competent operator (issue 27, fairness), written blind in session 20.

Written from the SI profile, ``docs/agents.md``, ``docs/scoring.md`` and this harness only, before
its author read the evaluator. It works like an on-call engineer: it looks who owns the
namespace, what runs and what is unhappy, follows the workload the prompt names (describe,
logs, metrics, traces, dashboards, the database), makes the smallest change the task asks for
when the mode and zone allow it, checks the change, and answers question by question ("Q: ..."
/ "A: ...") in the simple English of an engineer whose first language is not English
(``operator_heldout22_say.py``).

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the desk (calls with their reason) and the first look;
``operator_heldout22_look.py`` reads the focus, ``operator_heldout22_do.py`` makes changes.
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
    """One call as the answer reports it: what, why, and the change it made (if any)."""

    shown: str
    why: str
    change: str = ""
    failed: bool = False
    trigger: str = "operator request"


@dataclass
class Case:
    """What the engineer knows after the work: facts read, the cause, what was ruled out."""

    facts: list[str] = field(default_factory=list)
    cause: str = ""
    because: str = ""
    not_this: list[str] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    risk: list[str] = field(default_factory=list)
    ask: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    owner: list[str] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)


@dataclass
class Desk:
    """One task: the tools, the calls made (with why), and what was seen of the namespace."""

    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    case: Case = field(default_factory=Case)
    #: what started the calls being made now: the operator's request, or an alert followed
    trigger: str = "operator request"
    #: what ``operator_heldout22_look.study`` read (a ``Seen``; typed loosely to avoid a cycle)
    seen: Any = None

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def may_write(self) -> bool:
        """Autonomous mode, and no read-only zone in scope (02 §1.4)."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "")
        return self.task.mode == "autonomous" and "readonly" not in zones

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(self, command: str, why: str, change: str = "", stdin: str = "") -> str:
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(f"kubectl {command}", why, change, failed, self.trigger))
        return out

    async def use(self, tool: str, why: str, shown: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.steps.append(Step(shown, why, "", failed, self.trigger))
        return out

    def deployment(self, name: str) -> dict[str, str]:
        return next((d for d in self.deployments if d.get("name") == name), {})

    def pods_of(self, name: str) -> list[dict[str, str]]:
        pat = re.compile(rf"{re.escape(name)}-[a-z0-9]+(-[a-z0-9]+)?")
        return [p for p in self.pods if pat.fullmatch(p.get("name", "")) or p.get("name") == name]

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
        return sorted(hits, key=lambda n: (-len(n), n))


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
        k, sep, v = item.partition("=") if "=" in item.split(":")[0] else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def first_look(desk: Desk) -> None:
    """Who owns the namespace, what runs there, what is unhappy, what changed lately."""
    ns = desk.ns
    text = await desk.kubectl(f"describe namespace {ns}", f"I want to know owner and env of {ns}")
    desk.labels = _pairs(text, "Labels")
    desk.notes = _pairs(text, "Annotations")
    desk.deployments = table(
        await desk.kubectl(f"get deployments -n {ns} -o wide", f"I see what is running in {ns}")
    )
    desk.pods = table(
        await desk.kubectl(f"get pods -n {ns} -o wide", f"I see which pods in {ns} is not ok")
    )
    desk.events = table(
        await desk.kubectl(f"get events -n {ns}", f"I see what is changed recently in {ns}")
    )


def env_of(desk: Desk) -> str:
    """production / staging / ... from the namespace labels or the zone name, else ''."""
    for key in ("env", "environment", "stage", "tier"):
        value = desk.labels.get(key, "").lower()
        if value:
            return "production" if value.startswith("prod") else value
    zones = " ".join(desk.task.scope.get("zones") or []).lower()
    return "production" if "prod" in zones else ("staging" if "staging" in zones else "")


def focus(desk: Desk) -> list[str]:
    """The workloads the prompt is about: deployments it names, else the same name as a word
    of the prompt without the suffix (``worker pods``), else the unhappy ones."""
    names = [d.get("name", "") for d in desk.deployments]
    hit = desk.named(names)
    if hit and "canary" in desk.prompt.lower():
        # the canary of the named service: a deployment that calls itself canary
        return hit + sorted(n for n in names if "canary" in n.lower() and n not in hit)
    if hit:
        # a longer name that contains the shorter one (api-service-canary) also belongs
        extra = [n for n in names if any(n.startswith(h + "-") for h in hit) and n not in hit]
        return hit + sorted(extra)
    pods = desk.named([p.get("name", "") for p in desk.pods])
    owners = sorted({n for n in names for p in pods if p.startswith(n + "-")})
    if owners:
        return owners
    # a bare pod named by its prefix ("cache-worker pod"): the pod itself
    words = re.findall(r"[a-z][a-z0-9-]+", desk.prompt.lower())
    bare = [
        p.get("name", "")
        for p in desk.pods
        if any(len(w) >= 4 and p.get("name", "").startswith(w + "-") for w in words)
    ]
    return sorted(bare)[:2]


async def run(tools: Tools, task: AgentTask) -> str:
    """One task, start to answer."""
    from .operator_heldout22_do import act
    from .operator_heldout22_look import study
    from .operator_heldout22_say import answer
    from .operator_heldout22_why import think

    desk = Desk(tools, task)
    if desk.has("kubectl"):
        await first_look(desk)
    targets = focus(desk)
    seen = await study(desk, targets)
    think(desk, seen, targets)
    await act(desk, targets)
    return answer(desk, targets)
