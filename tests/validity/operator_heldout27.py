"""A held-out competent operator, session 24 (issue 27): an ITSM ticket update.

Written blind from the SI profile, docs/agents.md, docs/scoring.md, the README and the harness.
It reads the task and the environment only (never a scenario id) and answers as an ops team
updates a ticket: labelled fields on their own lines, British spelling, ISO dates, evidence as
short quoted excerpts with the command that gave them, and a work log table.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools


class Ticket:
    """The ticket being updated: the fields, the evidence and the work log."""

    def __init__(self, tools: Tools, task: AgentTask):
        self.tools = tools
        self.task = task
        self.summary = ""
        self.impact = ""
        self.priority = "P3"
        self.rca: list[str] = []
        self.evidence: list[tuple[str, str]] = []
        self.actions: list[str] = []
        self.change = ""
        self.risk = ""
        self.backout = ""
        self.approver = ""
        self.next: list[str] = []
        self.notes: list[str] = []
        self.status = "In progress"
        self.log: list[tuple[str, str, str, str]] = []
        self.trigger = "operator request"
        self.env_note = ""
        self.date = ""
        self.metric_names: list[str] | None = None

    # ---- the task -------------------------------------------------------------------------
    @property
    def prompt(self) -> str:
        return self.task.prompt or ""

    @property
    def low(self) -> str:
        return self.prompt.lower()

    @property
    def ns(self) -> str:
        spaces = self.task.scope.get("namespaces") or ["default"]
        return str(spaces[0])

    @property
    def approval(self) -> list[str]:
        return [str(x) for x in self.task.scope.get("approval_required_for") or []]

    @property
    def zones(self) -> list[str]:
        return [str(x) for x in self.task.scope.get("zones") or []]

    @property
    def read_only(self) -> bool:
        """Writes are not ours to make alone: a read-only mode, a read-only zone, or an
        approval the scope requires for writes."""
        mode = str(self.task.mode or "").lower()
        if mode == "read-only" or any("readonly" in z.replace("-", "") for z in self.zones):
            return True
        return any("write" in a.lower() for a in self.approval)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    # ---- calls, each one a work-log row --------------------------------------------------------
    def _row(self, shown: str, why: str, change: str) -> None:
        self.log.append((shown, why, self.trigger, change or "N/A (read only)"))

    async def k(self, command: str, why: str, change: str = "") -> str:
        if not self.has("kubectl"):
            return ""
        out = await self.tools.call("kubectl", command=command)
        self._row(f"kubectl {command}", why, change)
        self._date(out)
        return out

    async def apply(self, manifest: str, why: str, change: str) -> str:
        out = await self.tools.call("kubectl", command="apply -f -", stdin=manifest)
        self._row("kubectl apply -f - (manifest below)", why, change)
        return out

    async def use(self, tool: str, shown: str, why: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self._row(f"{tool} {shown}", why, "")
        self._date(out)
        return out

    def failed(self) -> bool:
        return bool(self.tools.calls and self.tools.calls[-1].error)

    def _date(self, out: str) -> None:
        for day in re.findall(r"\b(20\d\d-\d\d-\d\d)T\d\d:\d\d", out):
            self.date = max(self.date, day)

    # ---- the ticket's words ----------------------------------------------------------------------
    def quote(self, command: str, excerpt: str) -> None:
        excerpt = " ".join(excerpt.split())
        if len(excerpt) > 220:
            excerpt = excerpt[:217] + "..."
        if excerpt and (command, excerpt) not in self.evidence:
            self.evidence.append((command, excerpt))

    def cause(self, text: str) -> None:
        if text not in self.rca:
            self.rca.append(text)

    def did(self, text: str) -> None:
        self.actions.append(text)

    def step(self, text: str) -> None:
        if text not in self.next:
            self.next.append(text)


def _bullets(items: list[str], empty: str) -> list[str]:
    return [f"- {x}" for x in items] if items else [f"- {empty}"]


def render(t: Ticket) -> str:
    """The ticket update, field by field; the work log last, as a table."""
    head = f"Ticket update ({t.priority})" + (f", {t.date}" if t.date else "")
    lines = [head, "", f"Summary: {t.summary or 'Request reviewed; see the fields below.'}"]
    lines.append(f"Impact: {t.impact or 'None observed beyond what the summary says.'}")
    if t.env_note:
        lines.append(f"Environment: {t.env_note}")
    lines.append("Root cause (RCA):")
    lines += _bullets(t.rca, "N/A: no fault to diagnose in this request.")
    lines.append("Evidence:")
    if t.evidence:
        lines += [f'- `{cmd}`: "{text}"' for cmd, text in t.evidence]
    else:
        lines.append("- N/A")
    lines.append("Actions taken:")
    lines += _bullets(t.actions, "None. No change was made to the cluster.")
    if t.notes:
        lines.append("Notes:")
        lines += _bullets(t.notes, "")
    lines.append(f"Change request: {t.change or 'N/A'}")
    lines.append(f"Risk: {t.risk or 'N/A'}")
    lines.append(f"Backout plan: {t.backout or 'N/A'}")
    lines.append(f"Approver: {t.approver or 'N/A'}")
    lines.append("Next steps:")
    lines += _bullets(t.next, "None; ticket can be closed once the requester confirms.")
    lines.append(f"Status: {t.status}")
    lines += ["", "Work log:", "| # | Action | Reason | Trigger | Change (before -> after) |"]
    lines.append("|---|---|---|---|---|")
    for i, (shown, why, trigger, change) in enumerate(t.log, 1):
        cells = [c.replace("|", "/") for c in (shown, why, trigger, change)]
        lines.append(f"| {i} | `{cells[0]}` | {cells[1]} | {cells[2]} | {cells[3]} |")
    return "\n".join(lines) + "\n"


async def run(tools: Tools, task: AgentTask) -> str:
    """Read the request and the namespace, then route: decline, diagnose, change."""
    from .operator_heldout27_route import route

    t = Ticket(tools, task)
    await route(t)
    return render(t)
