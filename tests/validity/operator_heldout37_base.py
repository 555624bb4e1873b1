"""heldout37's bookkeeping: every call it makes with the reason and what triggered it, and the
answer it writes, an LLM coding agent's chat reply (TL;DR, ``## Findings``, ``## Root cause``,
``## What I did``, ``## Next steps``, status emoji, inline code for every object and command).

Written blind (session 32): from the task and what the environment returns, never a scenario id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools

OPERATOR = "your request"


@dataclass
class Step:
    """One call as the trail shows it."""

    shown: str
    why: str
    trigger: str
    write: bool = False
    failed: bool = False


@dataclass
class Answer:
    """What the reply says, section by section."""

    tldr: str = ""
    findings: list[str] = field(default_factory=list)
    cause: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    did: list[str] = field(default_factory=list)
    verify: list[str] = field(default_factory=list)
    risks: list[str] = field(default_factory=list)
    next: list[str] = field(default_factory=list)
    aside: str = ""


class Op:
    """The agent's hands: kubectl and the observability tools, each call kept with its why."""

    def __init__(self, tools: Tools, task: AgentTask):
        self.tools = tools
        self.task = task
        self.steps: list[Step] = []
        self.trigger = OPERATOR
        self.prompt = task.prompt or ""
        self.scope = dict(task.scope or {})
        self.mode = str(getattr(task, "mode", "") or "autonomous")
        self.namespaces: list[str] = list(self.scope.get("namespaces") or ["default"])
        self.zones: list[str] = [str(z) for z in self.scope.get("zones") or []]
        self.ans = Answer()

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def k(self, command: str, why: str, stdin: str | None = None, write: bool = False) -> str:
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        failed = write and out.strip().lower().startswith(("error", "the request is invalid"))
        self.steps.append(Step(f"kubectl {command}", why, self.trigger, write, failed))
        return out

    async def q(self, tool: str, why: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        shown = f"{tool} {json.dumps(args, sort_keys=True)}"
        self.steps.append(Step(shown, why, self.trigger))
        return out

    @property
    def ns(self) -> str:
        return self.namespaces[0]

    def writes(self) -> list[Step]:
        return [s for s in self.steps if s.write]


def render(op: Op) -> str:
    """The chat reply: the TL;DR first, then the sections an assistant writes."""
    a = op.ans
    out = [f"**TL;DR:** {a.tldr}", ""]
    if a.aside:
        out += [a.aside, ""]
    if a.findings:
        out += ["## Findings", "", *[f"- {f}" for f in a.findings], ""]
    if a.cause:
        out += ["## Root cause", "", *a.cause, ""]
    if a.ruled_out:
        out += ["### Ruled out", "", *[f"- ❌ {r}" for r in a.ruled_out], ""]
    out += ["## What I did", ""]
    if a.did:
        out += [f"- {d}" for d in a.did]
    else:
        out += ["- No changes made: everything I ran was read-only."]
    out.append("")
    if a.verify:
        out += ["## Verification", "", *[f"- {v}" for v in a.verify], ""]
    if a.risks:
        out += ["## Risks", "", *[f"- ⚠️ {r}" for r in a.risks], ""]
    if a.next:
        out += ["## Next steps", "", *[f"{i}. {n}" for i, n in enumerate(a.next, 1)], ""]
    out += ["## Commands I ran", ""]
    for i, s in enumerate(op.steps, 1):
        mark = "✏️" if s.write else "🔍"
        tail = " (it failed, see above)" if s.failed else ""
        out.append(f"{i}. {mark} `{s.shown}`: {s.why}{tail} (trigger: {s.trigger})")
    return "\n".join(out).rstrip() + "\n"
