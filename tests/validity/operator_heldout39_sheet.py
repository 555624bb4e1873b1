"""heldout39's run sheet: every call it makes, with why and what set it off, and the
checklist it answers with (an on-call engineer's GitHub issue comment: ticked items under
short bold headings, open items unticked, one closing status line).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

OPERATOR = "operator request"


@dataclass
class Line:
    """One call on the sheet: the command, why, the trigger, what it showed."""

    cmd: str
    why: str
    trigger: str
    write: bool
    error: bool = False
    seen: str = ""
    before: str = ""
    after: str = ""


@dataclass
class Sheet:
    """The run as an on-call engineer keeps it while working."""

    tools: Any
    task: Any
    trigger: str = OPERATOR
    lines: list[Line] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    status: str = ""
    title: str = ""

    @property
    def names(self) -> set[str]:
        return set(self.tools.names)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def read(self, why: str, tool: str = "kubectl", **args: Any) -> str:
        """A read, written down as it is made."""
        return await self._call(tool, why, False, args)

    async def write(self, why: str, before: str = "", tool: str = "kubectl", **args: Any) -> str:
        """A change, written down with the state it found."""
        out = await self._call(tool, why, True, args)
        self.lines[-1].before = before
        return out

    async def _call(self, tool: str, why: str, write: bool, args: dict[str, Any]) -> str:
        if tool not in self.tools.names:
            return ""
        out = await self.tools.call(tool, **args)
        call = self.tools.calls[-1]
        self.lines.append(Line(_cmd(tool, args), why, self.trigger, write, bool(call.error)))
        return out

    def saw(self, text: str) -> None:
        """What the last call showed (its line on the sheet)."""
        if self.lines:
            self.lines[-1].seen = text

    def result(self, after: str) -> None:
        """The state the last change left."""
        if self.lines:
            self.lines[-1].after = after

    def failed(self) -> bool:
        return bool(self.lines) and self.lines[-1].error

    def render(self) -> str:
        out = [f"### {self.title}" if self.title else "### On-call run sheet", ""]
        out.append("**Checked**")
        for ln in self.lines:
            if not ln.write:
                out.append(_item(ln))
        if self.found or self.ruled_out:
            out += ["", "**Found**"]
            out += [f"- [x] {f}" for f in self.found]
            out += [f"- [x] ruled out: {r}" for r in self.ruled_out]
        if self.plan:
            out += ["", "**Plan**"]
            out += [f"{i}. {p}" for i, p in enumerate(self.plan, 1)]
        writes = [ln for ln in self.lines if ln.write]
        out += ["", "**Did**"]
        if writes or self.done:
            out += [_item(ln) for ln in writes]
            out += [f"- [x] {d}" for d in self.done]
        else:
            out.append("- [x] nothing changed on the cluster (reads only)")
        if self.todo:
            out += ["", "**Handing off**"]
            out += [f"- [ ] {t}" for t in self.todo]
        out += ["", f"Status: {self.status or 'no action needed'}"]
        return "\n".join(out)


def _item(ln: Line) -> str:
    box = "[x]"
    text = f"- {box} `{ln.cmd}`"
    if ln.seen:
        text += f": {ln.seen}"
    elif ln.error:
        text += ": call failed"
    tail = [f"why: {ln.why}", f"trigger: {ln.trigger}"]
    if ln.write:
        tail.append(f"before: {ln.before or 'n/a'}")
        tail.append(f"after: {ln.after or ('refused, nothing changed' if ln.error else 'n/a')}")
    return f"{text} ({'; '.join(tail)})"


def _cmd(tool: str, args: dict[str, Any]) -> str:
    if tool == "kubectl":
        return f"kubectl {args.get('command', '')}".strip()
    if tool == "gitops":
        return f"argocd {args.get('command', '')}".strip()
    if tool == "database":
        return f"database: {args.get('query', '')}"
    rest = {k: v for k, v in args.items()}
    return f"{tool} {json.dumps(rest, sort_keys=True)}"
