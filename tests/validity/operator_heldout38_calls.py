"""heldout38's session (written blind, session 32): every call made, with the reason and the
trigger a postmortem timeline needs (SI audit-trail behaviors: reasoning, provenance)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools

#: kubectl verbs that change the cluster
WRITE_VERBS = (
    "apply",
    "patch",
    "scale",
    "set",
    "rollout restart",
    "rollout undo",
    "delete",
    "create",
    "label",
    "annotate",
    "cordon",
    "uncordon",
    "drain",
    "rollout resume",
    "rollout pause",
)


@dataclass
class Call:
    n: int
    what: str
    why: str
    trigger: str
    write: bool
    out: str


@dataclass
class Session:
    """The tools plus the record of the response, in call order."""

    tools: Tools
    trigger: str = "operator request"
    calls: list[Call] = field(default_factory=list)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def k(self, command: str, why: str, stdin: str | None = None) -> str:
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        verb = " ".join(shlex.split(command)[:2]) if command else ""
        write = "--dry-run" not in command and any(
            verb.startswith(v) or command.startswith(v) for v in WRITE_VERBS
        )
        self.calls.append(
            Call(len(self.calls) + 1, f"kubectl {command}", why, self.trigger, write, out)
        )
        return out

    async def q(self, tool: str, why: str, **args: Any) -> str:
        if tool not in self.tools.names:
            return ""
        out = await self.tools.call(tool, **args)
        shown = " ".join(f"{k}={v}" for k, v in args.items())
        self.calls.append(
            Call(len(self.calls) + 1, f"{tool} {shown}", why, self.trigger, False, out)
        )
        return out

    def writes(self) -> list[Call]:
        return [c for c in self.calls if c.write]
