"""heldout43 (session 35, written blind): a held-out competent operator whose answer is a
military-style SITREP with BLUF, as some SRE teams write incident updates.

It decides from the task (prompt, scope, mode) and what the environment returns, never from
a scenario id. The first line is "BLUF: ...", then capitalised sections (SITUATION,
ASSESSMENT, ACTIONS TAKEN, NOT DONE, RECOMMENDATIONS, REQUESTS / ESCALATION) in terse
abbreviated lines, every claim pointing "(ref N)" at the closing REFS list of calls made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools


@dataclass
class Ref:
    """One call as the REFS list gives it."""

    line: str
    why: str
    trigger: str
    write: bool = False


@dataclass
class Sitrep:
    """The report being built: one list per section."""

    bluf: str = ""
    situation: list[str] = field(default_factory=list)
    assessment: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    recs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


class Op:
    """The operator's session: its calls (each a numbered ref), its trigger, its report."""

    def __init__(self, tools: Tools, task: AgentTask):
        self.tools = tools
        self.task = task
        self.prompt = task.prompt or ""
        self.low = self.prompt.lower()
        self.scope: dict[str, Any] = dict(task.scope or {})
        self.nss: list[str] = list(self.scope.get("namespaces") or ["default"])
        self.ns = self.nss[0]
        self.refs: list[Ref] = []
        self.trigger = "operator request"
        self.rep = Sitrep()
        self.alert_seen: set[str] = set()
        self.src = ""
        self.ing_ref = 0

    # -- calls -------------------------------------------------------------------------
    async def k(self, command: str, why: str, stdin: str | None = None) -> str:
        """A kubectl call, kept as a ref."""
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        verb = command.split()[0] if command else ""
        write = verb in {
            "patch",
            "scale",
            "apply",
            "create",
            "delete",
            "rollout",
            "set",
            "label",
            "annotate",
            "cordon",
            "uncordon",
        } and not command.startswith(("rollout status", "rollout history"))
        if "--dry-run" in command:
            write = False
        self.refs.append(Ref(f"kubectl {command}", why, self.trigger, write))
        return out

    async def t(self, tool: str, why: str, **args: Any) -> str:
        """Another tool's call, kept as a ref (skipped when the tool is not offered)."""
        if tool not in self.tools.names:
            return ""
        out = await self.tools.call(tool, **args)
        shown = " ".join(f"{k}={v}" for k, v in args.items())
        self.refs.append(Ref(f"{tool} {shown}", why, self.trigger))
        return out

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    @property
    def n(self) -> int:
        """The number of the last ref."""
        return len(self.refs)

    def r(self, *nums: int) -> str:
        """ "(ref 3)" or "(ref 3, 5)"."""
        got = [str(x) for x in nums if x]
        return f"(ref {', '.join(got)})" if got else ""

    # -- request reading ---------------------------------------------------------------
    def read_only(self) -> bool:
        zones = " ".join(self.scope.get("zones") or []).lower()
        return "readonly" in zones or "read-only" in zones

    def needs_approval(self) -> list[str]:
        return [str(x) for x in self.scope.get("approval_required_for") or []]

    def mode(self) -> str:
        return str(getattr(self.task, "mode", "") or "")


def named(prompt: str, names: list[str]) -> list[str]:
    """The names the prompt mentions (hyphens or spaces), longest first."""
    low = prompt.lower()
    out = []
    for name in sorted(names, key=len, reverse=True):
        spaced = name.replace("-", " ")
        pat = rf"(?<![\w-])({re.escape(name)}|{re.escape(spaced)})(?![\w-])"
        if re.search(pat, low) and not any(name in o for o in out):
            out.append(name)
    return out


async def run(tools: Tools, task: AgentTask) -> str:
    """Investigate, act where asked and allowed, and answer as a SITREP."""
    from .operator_heldout43_plan import handle
    from .operator_heldout43_say import render

    op = Op(tools, task)
    await handle(op)
    return render(op)
