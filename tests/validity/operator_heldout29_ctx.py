"""The held-out operator of session 25 (``heldout29``): its working context.

Every call goes through :meth:`Ctx.run`, which keeps, beside the harness's own record, why the
operator made the call and what prompted it (the operator's request, an alert, a finding), so
the report can give each call with its reason. Nothing here knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools
from .operator_read import items, load_yaml

#: what prompted a call, as the report writes it
REQUEST = "operator request"


@dataclass
class Step:
    """One call as the operator accounts for it."""

    command: str
    why: str
    trigger: str
    result: str
    failed: bool
    write: bool
    before: str = ""
    after: str = ""


@dataclass
class Ctx:
    tools: Tools
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        earlier = " ".join(str(getattr(t, "content", t)) for t in (self.task.conversation or []))
        return f"{earlier} {self.task.prompt}".strip()

    @property
    def low(self) -> str:
        return self.prompt.lower()

    @property
    def namespaces(self) -> list[str]:
        return list(self.task.scope.get("namespaces") or ["default"])

    @property
    def ns(self) -> str:
        return self.namespaces[0]

    @property
    def mode(self) -> str:
        return str(self.task.mode or "autonomous")

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def run(
        self, tool: str, why: str, trigger: str = REQUEST, write: bool = False, **args: Any
    ) -> str:
        """Call a tool and keep the reason; a tool the environment lacks answers empty."""
        if tool not in self.tools.names:
            return ""
        if write and self.mode == "read-only":
            # read-only mode: a change is never sent, it is reported as not done
            self.notes.setdefault("blocked", []).append(str(args.get("command", tool)))
            return ""
        out = await self.tools.call(tool, **args)
        last = self.tools.calls[-1]
        if tool == "kubectl":
            command = f"kubectl {args.get('command', '')}"
        else:
            shown = " ".join(f"{k}={v}" for k, v in sorted(args.items()))
            command = f"{tool} {shown}"
        failed = bool(last.error) or out.lstrip().lower().startswith(("error", "forbidden"))
        self.steps.append(Step(command, why, trigger, out, failed, write))
        return out

    async def k(self, command: str, why: str, trigger: str = REQUEST, write: bool = False) -> str:
        return await self.run("kubectl", why, trigger, write, command=command)

    def last(self) -> Step:
        return self.steps[-1]


def first_doc(text: str) -> dict[str, Any]:
    objs = items(text)
    if objs:
        return objs[0]
    doc = load_yaml(text)
    return doc if isinstance(doc, dict) else {}


def meta(obj: dict[str, Any]) -> dict[str, Any]:
    m = obj.get("metadata")
    return m if isinstance(m, dict) else {}


def name_of(obj: dict[str, Any]) -> str:
    return str(meta(obj).get("name", ""))


def spaced(name: str) -> list[str]:
    """How a person writes a workload name in a sentence: ``api-gateway``, ``api gateway``."""
    return [name.lower(), name.lower().replace("-", " ")]


def mentioned(name: str, text: str) -> bool:
    low = text.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", low) for n in spaced(name))


def containers(obj: dict[str, Any], init: bool = False) -> list[dict[str, Any]]:
    spec = obj.get("spec", {}) or {}
    if obj.get("kind") in ("Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"):
        spec = ((spec.get("template") or {}).get("spec")) or {}
    found = spec.get("initContainers" if init else "containers") or []
    return [c for c in found if isinstance(c, dict)]


def human_bytes(value: float) -> str:
    """Bytes as this operator writes them: ``512 Mi``, ``1.6 GB``."""
    if value >= 1024**3:
        return f"{value / 1024**3:.1f} GB"
    return f"{value / 1024**2:.0f} Mi"


def human_age(minutes: float | None) -> str:
    if minutes is None:
        return "some time"
    if minutes >= 90:
        return f"approx {minutes / 60:.0f} hrs"
    return f"approx {minutes:.0f} min"
