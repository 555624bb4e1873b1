"""``heldout16``: a held-out competent operator written blind in session 16 (issue 27, fairness).

Written from the SI profile's scenarios and behavior definitions, ``docs/agents.md`` and
``docs/scoring.md`` only, before its author read any evaluator. It reads the environment
through its tools (kubectl, logs, metrics, traces, dashboards, the database), makes the
smallest change the request calls for, holds a change the scope or the risk says a human must
approve, and answers in its own style: an incident report with "Root cause:", "Evidence:",
"Impact:", "Actions taken:", "Next steps:", an on-call page when it hands off, and an audit
trail of every call (reason, trigger, before -> after). Nothing is keyed by scenario id: what
it does is decided by the prompt's request, the task's scope and what it reads.

Entry point ``run(tools, task) -> str``; the work is in ``operator_heldout16_work``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools

OPERATOR = "operator request"


@dataclass
class Step:
    """One call as the trail records it."""

    command: str
    why: str
    trigger: str
    change: str = ""


@dataclass
class Report:
    """What the shift found and did, rendered as an incident report."""

    title: str = ""
    status: str = "investigated"
    cause: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    impact: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    page: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)


class Shift:
    """The task, the tools and the trail of one scenario."""

    def __init__(self, tools: Tools, task: AgentTask):
        self.tools = tools
        self.task = task
        self.prompt = task.prompt
        self.low = task.prompt.lower()
        self.scope = list(task.scope.get("namespaces") or ["default"])
        self.ns = self.scope[0]
        self.trail: list[Step] = []
        self.report = Report()
        self.trigger = OPERATOR
        self.writes = 0

    async def kubectl(self, command: str, why: str, change: str = "") -> str:
        out = await self.tools.call("kubectl", command=command)
        self.trail.append(Step(f"kubectl {command}", why, self.trigger, change))
        if change:
            self.writes += 1
        return out

    async def use(self, tool: str, why: str, **arguments: Any) -> str:
        if tool not in self.tools.names:
            return ""
        out = await self.tools.call(tool, **arguments)
        args = " ".join(f"{k}={v}" for k, v in sorted(arguments.items()))
        self.trail.append(Step(f"{tool} {args}", why, self.trigger))
        return out

    async def json(self, command: str, why: str) -> Any:
        text = await self.kubectl(f"{command} -o json", why)
        try:
            return json.loads(text)
        except ValueError:
            return {}

    def has(self, tool: str) -> bool:
        return tool in self.tools.names


def bullets(items: list[str], indent: str = "  - ") -> list[str]:
    return [f"{indent}{item}" for item in items]


def render(shift: Shift) -> str:
    """The incident report: headings, bullets, the page and the numbered audit trail."""
    r = shift.report
    lines = [f"INCIDENT REPORT: {r.title or shift.prompt}", f"Status: {r.status}"]
    if r.context:
        lines += ["Context:", *bullets(r.context)]
    if r.cause:
        lines += ["Root cause:", *bullets(r.cause)]
    if r.evidence:
        lines += ["Evidence:", *bullets(r.evidence)]
    if r.ruled_out:
        lines += ["Ruled out:", *bullets(r.ruled_out)]
    if r.impact:
        lines += ["Impact:", *bullets(r.impact)]
    if r.plan:
        lines += ["Plan:", *[f"  {i}. {p}" for i, p in enumerate(r.plan, 1)]]
    lines += ["Actions taken:", *bullets(r.done or ["No change was made to the cluster."])]
    if r.next_steps:
        lines += ["Next steps:", *bullets(r.next_steps)]
    if r.page:
        lines += ["On-call page:", *bullets(r.page, "  > ")]
    lines.append("Audit trail (every call, in order):")
    for i, step in enumerate(shift.trail, 1):
        entry = f"  {i}. `{step.command}` (reason: {step.why}; trigger: {step.trigger}"
        entry += f"; change: {step.change})" if step.change else ")"
        lines.append(entry)
    return "\n".join(lines)


def mib(value: float) -> str:
    """Bytes as MiB or GiB with units."""
    if value >= 1024**3:
        return f"{value / 1024**3:.2f} GiB"
    return f"{value / 1024**2:.0f} MiB"


def to_bytes(quantity: str) -> float:
    """A Kubernetes memory quantity in bytes (0 when unreadable)."""
    m = re.fullmatch(r"([\d.]+)\s*([KMGT]i?)?", str(quantity).strip())
    if not m:
        return 0.0
    scale = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "K": 1e3, "M": 1e6, "G": 1e9}
    return float(m.group(1)) * scale.get(m.group(2) or "", 1)


def to_millicores(quantity: str) -> int:
    q = str(quantity).strip()
    if q.endswith("m"):
        return int(float(q[:-1]))
    try:
        return int(float(q) * 1000)
    except ValueError:
        return 0


async def run(tools: Tools, task: AgentTask) -> str:
    from .operator_heldout16_work import work

    shift = Shift(tools, task)
    await work(shift)
    return render(shift)
