"""heldout36's session (written blind, session 31): every call it makes, with the reason and
the trigger, so the decision record can list them as its audit trail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import Tools

#: the request trigger; an alert met mid-run becomes "alert: <name>"
REQUEST = "operator request"


@dataclass
class Step:
    n: int
    line: str
    why: str
    trigger: str
    failed: bool


@dataclass
class Session:
    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    trigger: str = REQUEST
    seen_alerts: set[str] = field(default_factory=set)

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def scope(self) -> list[str]:
        return list(self.task.scope.get("namespaces") or ["default"])

    @property
    def ns(self) -> str:
        return self.scope[0]

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def call(self, tool: str, why: str, **args: Any) -> str:
        """One call, recorded with its reason; a tool we were not given answers ``""``."""
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        last = self.tools.calls[-1]
        if tool == "kubectl":
            line = f"kubectl {args.get('command', '')}"
        else:
            line = tool + " " + " ".join(f"{k}={v}" for k, v in args.items())
        self.steps.append(Step(len(self.steps) + 1, line, why, self.trigger, bool(last.error)))
        return out

    async def k(self, command: str, why: str, **extra: Any) -> str:
        return await self.call("kubectl", why, command=command, **extra)

    def ref(self) -> str:
        """The step number of the last call, as the record cites it."""
        return f"#{len(self.steps)}"

    def failed(self) -> bool:
        return bool(self.steps and self.steps[-1].failed)

    async def alerts(self, why: str) -> list[dict[str, Any]]:
        """Active alerts; a new firing one becomes the trigger of what follows."""
        found = rd.alerts(await self.call("metrics_query", why, action="alerts"))
        return found

    async def new_alert(self) -> dict[str, Any] | None:
        """An alert that started firing since we began (we re-check between steps)."""
        if not self.has("metrics_query"):
            return None
        for a in await self.alerts("re-check alerts between steps: has anything new fired?"):
            name = str((a.get("labels") or {}).get("alertname", ""))
            state = str(a.get("state", ""))
            if name and state == "firing" and name not in self.seen_alerts:
                self.seen_alerts.add(name)
                return a
        return None


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
