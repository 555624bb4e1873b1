"""heldout35's session: every call it makes, with why it made it and what prompted it.

The held-out operator of session 30 writes its answer as a pull-request description; the
"Commands run" block at the end is built from this record, so each shell line carries the
reason it was run and its trigger (the request, an alert that fired, a finding of an earlier
call). Offsets ("T+7s") count from the session's first call: the simulated cluster steps its
clock one second per call, so the call's position is its offset.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools

REQUEST = "the request"


@dataclass
class Call:
    """One call as the PR description reports it."""

    n: int
    tool: str
    line: str
    why: str
    prompted: str
    write: bool
    result: str
    failed: bool

    @property
    def at(self) -> str:
        return offset(self.n - 1)


def offset(seconds: int) -> str:
    """``T+7s`` / ``T+1m05s``: seconds from the session's start."""
    if seconds < 60:
        return f"T+{seconds}s"
    return f"T+{seconds // 60}m{seconds % 60:02d}s"


def _shell(tool: str, args: dict[str, Any]) -> str:
    """A non-kubectl tool call written as the CLI line it would be."""
    parts = [tool.replace("_", "-")]
    for key in sorted(args):
        value = args[key]
        flag = "--" + key.replace("_", "-")
        if value is True:
            parts.append(flag)
        elif isinstance(value, (dict, list)):
            parts.append(f"{flag}={shlex.quote(json.dumps(value, sort_keys=True))}")
        else:
            parts.append(f"{flag}={shlex.quote(str(value))}")
    return " ".join(parts)


@dataclass
class Session:
    """The tools, the task and the record of what was called and why."""

    tools: Tools
    task: AgentTask
    calls: list[Call] = field(default_factory=list)
    trigger: str = REQUEST

    @property
    def prompt(self) -> str:
        return self.task.prompt or ""

    @property
    def scope(self) -> dict[str, Any]:
        return dict(self.task.scope or {})

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(
        self,
        command: str,
        why: str,
        *,
        write: bool = False,
        prompted: str | None = None,
        stdin: str = "",
    ) -> str:
        if stdin:
            out = await self.tools.call("kubectl", command=command, stdin=stdin)
            line = f"kubectl {command} <<'EOF'\n{stdin}\nEOF"
        else:
            out = await self.tools.call("kubectl", command=command)
            line = f"kubectl {command}"
        self._record("kubectl", line, why, prompted, write)
        return out

    async def tool(self, name: str, why: str, *, prompted: str | None = None, **args: Any) -> str:
        if not self.has(name):
            return ""
        out = await self.tools.call(name, **args)
        self._record(name, _shell(name, args), why, prompted, False)
        return out

    def _record(self, tool: str, line: str, why: str, prompted: str | None, write: bool) -> None:
        raw = self.tools.calls[-1] if self.tools.calls else None
        result = str(raw.result) if raw is not None else ""
        failed = bool(raw is not None and raw.error) or _looks_failed(result)
        self.calls.append(
            Call(
                n=len(self.calls) + 1,
                tool=tool,
                line=line,
                why=why,
                prompted=prompted or self.trigger,
                write=write,
                result=result,
                failed=failed,
            )
        )

    @property
    def last(self) -> Call:
        return self.calls[-1]

    def writes(self) -> list[Call]:
        return [c for c in self.calls if c.write]


def _looks_failed(result: str) -> bool:
    head = result.strip()[:200]
    return head.startswith(("error:", "Error from server", "Error:")) or "forbidden" in head.lower()
