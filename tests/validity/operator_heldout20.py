"""``heldout20``: a held-out competent operator of session 19 (issue 27, fairness), written blind.

Written from the SI profile, ``docs/agents.md``, ``docs/scoring.md``, the README and this harness
only, before its author read the evaluator. It works like an on-call engineer: it orients (the
namespace's labels and annotations, workloads, pods, events), follows the workload the request
names (describe, logs, the configuration it reads, metrics, alerts, traces, dashboards, the
database, network policies, nodes), makes the smallest change the task asks for when it is
allowed to, checks it, and answers with a short blameless postmortem-style narrative in flowing
prose (``operator_heldout20_tell.py``).

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the desk (calls and the story of them) and the entry point;
``operator_heldout20_look.py`` the reads, ``operator_heldout20_act.py`` the changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import table

SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def words(n: int) -> str:
    """Small numbers in words, the rest in figures."""
    return SMALL[n] if 0 <= n < len(SMALL) else str(n)


@dataclass
class Desk:
    """One task: the calls made and the story told of them, in order."""

    tools: Tools
    task: AgentTask
    story: list[str] = field(default_factory=list)
    causes: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    handoff: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def may_write(self) -> bool:
        """Autonomous mode and a zone that is not read-only."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "")
        return self.task.mode == "autonomous" and "readonly" not in zones

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def k(self, command: str) -> str:
        return await self.tools.call("kubectl", command=command)

    def failed(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    async def use(self, tool: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        return await self.tools.call(tool, **arguments)

    def say(self, sentence: str) -> None:
        self.story.append(sentence)

    @property
    def production(self) -> bool:
        env = (self.labels.get("env") or self.labels.get("environment") or "").lower()
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        return env.startswith("prod") or zones.startswith("prod")


def pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block as a dict."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        item = line.strip()
        if inside and item and item != "<none>":
            k, sep, v = item.partition("=") if "=" in item.split(":")[0] else item.partition(":")
            if sep:
                out[k.strip()] = v.strip()
    return out


def named(prompt: str, names: list[str]) -> list[str]:
    """Names the prompt mentions as whole words, longest first."""
    text = prompt.lower()
    hits = [
        n
        for n in names
        if n
        and any(
            re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text) is not None
            for form in (n.lower(), n.lower().replace("-", " "))
        )
    ]
    return sorted(hits, key=lambda n: (-len(n), n))


async def orient(desk: Desk) -> tuple[dict[str, dict[str, str]], list[dict[str, str]]]:
    """The namespace's owner and environment, its deployments and pods, recent events."""
    ns = desk.ns
    text = await desk.k(f"describe namespace {ns}")
    desk.labels, desk.notes = pairs(text, "Labels"), pairs(text, "Annotations")
    deps = {d["name"]: d for d in table(await desk.k(f"get deployments -n {ns} -o wide"))}
    pods = table(await desk.k(f"get pods -n {ns} -o wide"))
    unhappy = [p for p in pods if p.get("status") not in ("Running", "Completed", "Succeeded")]
    env = desk.labels.get("env") or desk.labels.get("environment") or ""
    team = desk.labels.get("team") or ""
    where = f"the {ns} namespace"
    if env or team:
        bits = [f"labelled env {env}" if env else "", f"owned by {team}" if team else ""]
        where += ", which is " + " and ".join(b for b in bits if b)
    desk.facts["pods"] = pods
    desk.say(
        f"I started by describing {where}, and listing what runs there: "
        f"{words(len(deps))} deployments and {words(len(pods))} pods, of which "
        f"{words(len(unhappy)).replace('no', 'none')} were not running cleanly."
    )
    return deps, pods


async def run(tools: Tools, task: AgentTask) -> str:
    """The shift: orient, follow the request, act when asked and allowed, tell the story."""
    from .operator_heldout20_act import act
    from .operator_heldout20_look import investigate
    from .operator_heldout20_tell import tell

    desk = Desk(tools, task)
    deps, pods = await orient(desk)
    focus = await investigate(desk, deps, pods)
    await act(desk, focus, deps)
    return tell(desk)
