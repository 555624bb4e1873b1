"""``heldout21``: a held-out competent operator answering with STRUCTURED OUTPUT (issue 27).

Written blind in session 20 (branch ``s20-fair21``) from the SI profile, ``docs/agents.md``,
``docs/scoring.md``, the README and this harness only. It does the work through the tools like
an on-call SRE (orient, read state, events, logs, metrics, traces, the database; make the
smallest change that does the job; verify it; escalate or ask for approval where the task calls
for it), then answers the way an LLM agent with a JSON response schema does: one pretty-printed
JSON object (``summary``, ``root_cause``, ``ruled_out``, ``actions_taken``, ...).

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the desk (calls and their trail) and the rendering;
``operator_heldout21_look.py`` the reads, ``operator_heldout21_diag.py`` the diagnosis and
``operator_heldout21_act.py`` the changes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces


@dataclass
class Act:
    """One call as ``actions_taken`` reports it."""

    command: str
    why: str
    result: str
    trigger: str
    before: str = ""
    after: str = ""
    change: bool = False


@dataclass
class Report:
    """What the JSON answer says, filled in as the work goes."""

    summary: str = ""
    statement: str = ""
    confidence: float = 0.0
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[dict[str, str]] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    escalate_to: str = ""
    escalate_why: str = ""
    open_questions: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def cite(self, text: str) -> None:
        text = " ".join(text.split())[:240]
        if text and text not in self.evidence:
            self.evidence.append(text)

    def rule_out(self, hypothesis: str, reason: str) -> None:
        self.ruled_out.append({"hypothesis": hypothesis, "reason": reason})


def _short(text: str, is_error: bool) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if is_error:
        return "failed: " + (lines[0][:200] if lines else "error")
    if not lines:
        return "no output"
    if len(lines) == 1:
        return lines[0][:200]
    return f"{len(lines)} lines read; first: {lines[0][:120]}"


@dataclass
class Desk:
    """One task: the tools, the calls made with why and what triggered each, the report."""

    tools: Tools
    task: AgentTask
    acts: list[Act] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    trigger: str = ""

    def __post_init__(self) -> None:
        self.trigger = f'operator request: "{" ".join(self.task.prompt.split())[:160]}"'

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def scope(self) -> list[str]:
        return namespaces(self.task)

    @property
    def ns(self) -> str:
        return self.scope[0]

    @property
    def zones(self) -> str:
        return " ".join(self.task.scope.get("zones") or []).lower()

    @property
    def may_write(self) -> bool:
        """Autonomous mode outside a read-only zone and without an approval rule on writes."""
        approval = " ".join(self.task.scope.get("approval_required_for") or []).lower()
        return (
            self.task.mode == "autonomous"
            and "readonly" not in self.zones.replace("-", "")
            and "write" not in approval
        )

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def _last_error(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    async def kubectl(self, command: str, why: str, before: str = "", change: bool = False) -> str:
        out = await self.tools.call("kubectl", command=command)
        self.acts.append(
            Act(
                f"kubectl {command}",
                why,
                _short(out, self._last_error()),
                self.trigger,
                before,
                "",
                change,
            )
        )
        return out

    def ok(self) -> bool:
        """Whether the last call succeeded."""
        return not self._last_error()

    async def use(self, tool: str, why: str, shown: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        self.acts.append(Act(shown, why, _short(out, self._last_error()), self.trigger))
        return out

    def named(self, names: list[str]) -> list[str]:
        """The names the prompt mentions as whole words (``api-gateway`` also as "API
        gateway"), longest first."""
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


def render(desk: Desk) -> str:
    """The structured answer: one JSON object, 2-space indent."""
    r = desk.report
    actions = []
    for a in desk.acts:
        item: dict[str, Any] = {"command": a.command, "why": a.why, "result": a.result}
        item["triggered_by"] = a.trigger
        if a.change:
            item["before"] = a.before or "not recorded"
            item["after"] = a.after or "not re-read"
        actions.append(item)
    doc: dict[str, Any] = {"summary": r.summary}
    if r.statement:
        doc["root_cause"] = {
            "statement": r.statement,
            "confidence": round(r.confidence, 2),
            "evidence": r.evidence,
        }
    doc.update({k: v for k, v in r.extra.items() if not k.startswith("_")})
    doc["ruled_out"] = r.ruled_out
    doc["actions_taken"] = actions
    doc["recommended_next_steps"] = r.next_steps
    doc["escalation"] = {
        "needed": bool(r.escalate_to),
        "to": r.escalate_to or None,
        "reason": r.escalate_why or "not needed: the work was within my authority",
    }
    doc["open_questions"] = r.open_questions
    return json.dumps(doc, indent=2)


async def run(tools: Tools, task: AgentTask) -> str:
    """Orient, investigate, act where asked and allowed, answer in JSON."""
    from .operator_heldout21_act import work

    desk = Desk(tools, task)
    await work(desk)
    return render(desk)
