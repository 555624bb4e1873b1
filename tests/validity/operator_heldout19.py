"""``heldout19``: the fourth held-out competent operator (issue 27, fairness; session 18).

Written blind to the evaluator, from the SI profile, ``docs/agents.md``, ``docs/scoring.md`` and
this harness only. It works like a CLI-first senior engineer on call: it reads the namespace,
the workloads, events, ``describe``, logs, metrics, traces, dashboards and the migration history
the environment offers, makes the smallest change the ask needs (when the mode and zone allow
it), checks it, and answers the way such an engineer writes in a ticket: lowercase, commands and
their key output lines, ``key=value`` facts, one-line verdicts (``cause:``, ``fix:``,
``verified:``), hand-offs as ``@owner: needs your ok for ...``.

Nothing here knows a scenario: every decision comes from the prompt, the mode, the scope, the
tools offered and what the environment answers. This module holds the shift (the calls, their
reasons and triggers, the facts found); ``operator_heldout19_look`` reads and diagnoses,
``operator_heldout19_do`` changes things, ``operator_heldout19_say`` writes the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces

#: the trigger of the calls made for the operator's own ask
ASK = "ask"


@dataclass
class Step:
    """One call as the ticket's trail shows it: command, why, trigger, key output."""

    command: str
    why: str
    trigger: str
    out: str = ""
    write: bool = False
    failed: bool = False


@dataclass
class Shift:
    """One task: the calls made and what was learned from them."""

    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    trigger: str = ASK
    ctx: dict[str, str] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)
    causes: list[str] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    deltas: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    handoffs: list[str] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

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
    def can_write(self) -> bool:
        """Autonomous and a zone that is not read-only (02 §1.4)."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        needs_ok = bool(self.task.scope.get("approval_required_for"))
        return self.task.mode == "autonomous" and "readonly" not in zones and not needs_ok

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def _failed(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    async def k(self, command: str, why: str, write: bool = False, stdin: str = "") -> str:
        """One kubectl call, recorded with its reason and trigger."""
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        self.steps.append(Step(f"kubectl {command}", why, self.trigger, out, write, self._failed()))
        return out

    async def q(self, tool: str, shown: str, why: str, **arguments: Any) -> str:
        """One call of another tool (logs, metrics, traces, dashboards, database)."""
        if not self.has(tool):
            return ""
        head, _, rest = shown.partition(" ")
        if head.rstrip(":") in (
            "logs",
            "metrics",
            "trace",
            "traces",
            "db",
            "dashboard",
            "dashboards",
        ):
            shown = rest
        shown = f"{tool} {shown}"  # the trail names the tool it called
        out = await self.tools.call(tool, **arguments)
        self.steps.append(Step(shown, why, self.trigger, out, False, self._failed()))
        return out

    def named(self, names: list[str]) -> list[str]:
        """Names the prompt mentions as whole words (``api-gateway`` also as "api gateway"),
        longest first."""
        hits = [
            n
            for n in names
            if n
            and any(
                re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", self.low)
                for form in (n.lower(), n.lower().replace("-", " "))
            )
        ]
        return sorted(set(hits), key=lambda n: (-len(n), n))


async def run(tools: Tools, task: AgentTask) -> str:
    """Look, diagnose, act where asked and allowed, verify, write the ticket answer."""
    from .operator_heldout19_do import act
    from .operator_heldout19_look import look
    from .operator_heldout19_say import say

    shift = Shift(tools, task)
    await look(shift)
    await act(shift)
    return say(shift)
