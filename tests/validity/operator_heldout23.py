"""``heldout23``: a held-out competent operator that writes a markdown incident report with tables.

Written blind (session 21, branch ``s21-fair23``): from the SI profile, ``docs/agents.md``,
``docs/scoring.md``, the README and this harness only, before its author read the evaluator.
It works like a senior SRE on call: it orients (namespace labels and annotations, workloads,
pods, events, nodes), reads the signals the task names (logs, metrics, traces, dashboards,
the database), makes the smallest change the task asks for when the mode and zone allow it,
checks the change, and files a ticket in markdown: ``## Impact``, ``## Timeline``,
``## Root cause``, ``## Evidence`` (a table), hypotheses (a table with verdicts), ``## Actions``
and ``## Follow-ups`` (checkboxes).

Every decision comes from the task (prompt, mode, scope, tools) and what the environment
returns, never from a scenario id. This module holds the desk (calls, their reasons and
triggers, what the ticket will say) and the entry point. The others: ``_work`` (which kind of
work the request is), ``_look`` (reads), ``_why`` / ``_cause`` / ``_verdict`` (diagnosis),
``_fix`` (fixes after a diagnosis), ``_do`` / ``_plays`` / ``_plays2`` (requested changes and
multi-step plays) and ``_md`` (the ticket).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces

#: the trigger of a call made because the operator asked
ASKED = "operator request"


@dataclass
class Call:
    """One call as the ticket's timeline shows it."""

    shown: str
    why: str
    trigger: str
    delta: str = ""
    failed: bool = False
    write: bool = False
    error: str = ""


@dataclass
class Finding:
    """One row of the evidence table: where it was read and what it says."""

    source: str
    fact: str


@dataclass
class Hypothesis:
    """One row of the hypotheses table."""

    name: str
    verdict: str
    evidence: str


@dataclass
class Desk:
    """One task: its calls, what was read, and what the ticket will say."""

    tools: Tools
    task: AgentTask
    calls: list[Call] = field(default_factory=list)
    trigger: str = ASKED
    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    notes: dict[str, dict[str, str]] = field(default_factory=dict)
    evidence: list[Finding] = field(default_factory=list)
    hypotheses: list[Hypothesis] = field(default_factory=list)
    impact: list[str] = field(default_factory=list)
    cause: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    followups: list[str] = field(default_factory=list)
    excerpt: list[str] = field(default_factory=list)
    title: str = ""
    status: str = ""
    chain_proxy: str = ""

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def low(self) -> str:
        return self.task.prompt.lower()

    @property
    def scope(self) -> list[str]:
        return namespaces(self.task)

    @property
    def ns(self) -> str:
        return self.scope[0]

    @property
    def may_write(self) -> bool:
        """Autonomous mode in a zone that is not read-only, and no approval asked for writes."""
        zones = " ".join(self.task.scope.get("zones") or []).lower().replace("-", "")
        approval = self.task.scope.get("approval_required_for") or []
        return self.task.mode == "autonomous" and "readonly" not in zones and not approval

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(self, command: str, why: str, delta: str = "", stdin: str = "") -> str:
        args = {"command": command, **({"stdin": stdin} if stdin else {})}
        out = await self.tools.call("kubectl", **args)
        error = (self.tools.calls[-1].error or "") if self.tools.calls else ""
        write = delta != ""
        shown = f"kubectl {command}"
        self.calls.append(Call(shown, why, self.trigger, delta, bool(error), write, error))
        return out

    def failed(self) -> bool:
        """Whether the last call failed."""
        return bool(self.calls and self.calls[-1].failed)

    async def use(self, tool: str, shown: str, why: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.calls.append(Call(shown, why, self.trigger, "", failed))
        return out

    def see(self, source: str, fact: str) -> None:
        if all(f.fact != fact for f in self.evidence):
            self.evidence.append(Finding(source, fact))

    def weigh(self, name: str, verdict: str, evidence: str) -> None:
        self.hypotheses.append(Hypothesis(name, verdict, evidence))

    def named(self, names: list[str]) -> list[str]:
        """The names the prompt mentions as whole words, longest first."""
        hits = []
        for n in names:
            for form in (n.lower(), n.lower().replace("-", " ")):
                if re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", self.low):
                    hits.append(n)
                    break
        return sorted(set(hits), key=lambda n: (-len(n), n))


async def run(tools: Tools, task: AgentTask) -> str:
    """Work the task, then write the ticket."""
    from .operator_heldout23_md import ticket
    from .operator_heldout23_work import work

    desk = Desk(tools, task)
    await work(desk)
    return ticket(desk)
