"""heldout40's terminal (session 33, written blind): every call it makes, shown as the engineer
pastes a session into a ticket: the prompt line, a few trimmed lines of what came back ("..."
where cut), and "# " comment lines saying what that shows, why it was run and what asked for it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools

#: lines of output kept under a prompt line before "..." cuts it
KEEP = 6


@dataclass
class Step:
    line: str
    shown: list[str]
    notes: list[str] = field(default_factory=list)
    write: bool = False
    ok: bool = True


def _arg(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f"'{text}'" if re.search(r"[\s{}\"']", text) else text


def prompt_line(tool: str, args: dict[str, Any]) -> str:
    """The call as a shell line: kubectl as typed, the other tools as flags."""
    if tool == "kubectl":
        return f"$ kubectl {args.get('command', '')}"
    flags = " ".join(f"--{k.replace('_', '-')}={_arg(v)}" for k, v in args.items())
    return f"$ {tool} {flags}".rstrip()


def trim(text: str, keep: list[str] | None = None, most: int = KEEP) -> list[str]:
    """A few lines of output: the header, then the lines holding a kept word (else the first
    ones), "..." where lines were cut."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return ["(no output)"]
    if keep:
        words = [k.lower() for k in keep if k]
        picked = [0] + [
            i for i, ln in enumerate(lines[1:], 1) if any(w in ln.lower() for w in words)
        ]
    else:
        picked = list(range(len(lines)))
    picked = picked[:most]
    out: list[str] = []
    last = -1
    for i in picked:
        if i != last + 1:
            out.append("...")
        out.append(lines[i])
        last = i
    if last < len(lines) - 1:
        out.append("...")
    return out


class Term:
    """The session: calls through the harness's tools, kept in order with their notes."""

    def __init__(self, tools: Tools, task: Any):
        self.tools = tools
        self.task = task
        self.steps: list[Step] = []
        self.trigger = "operator request"

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def run(
        self,
        tool: str,
        why: str,
        keep: list[str] | None = None,
        write: bool = False,
        **args: Any,
    ) -> str:
        """Make one call; its line, trimmed output and reason go into the transcript."""
        if not self.has(tool):
            return ""
        text = await self.tools.call(tool, **args)
        call = self.tools.calls[-1]
        step = Step(prompt_line(tool, args), trim(text, keep), write=write, ok=call.error is None)
        step.notes.append(f"why: {why} (trigger: {self.trigger})")
        self.steps.append(step)
        return text

    async def k(self, command: str, why: str, keep: list[str] | None = None) -> str:
        return await self.run("kubectl", why, keep, command=command)

    async def kw(self, command: str, why: str) -> str:
        """A kubectl write."""
        return await self.run("kubectl", why, None, write=True, command=command)

    def note(self, text: str) -> None:
        """A comment on the last step: what its output shows."""
        if self.steps:
            self.steps[-1].notes.insert(len(self.steps[-1].notes) - 1, text)

    def render(self) -> list[str]:
        out: list[str] = []
        for step in self.steps:
            out.append(step.line)
            out.extend(step.shown)
            out.extend(f"# {n}" for n in step.notes)
            out.append("")
        return out


def load(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None


def failed(text: str) -> bool:
    head = text.strip()[:120].lower()
    return head.startswith(("error", "unknown", "forbidden")) or "(forbidden)" in head


@dataclass
class Summary:
    """The plain lines under the transcript: what it found, did and hands on."""

    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    did: list[str] = field(default_factory=list)
    verified: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    escalate: str = ""
    notes: list[str] = field(default_factory=list)

    def render(self) -> list[str]:
        out: list[str] = []
        if self.cause:
            out.append(f"Root cause: {self.cause}")
        out.extend(f"Evidence: {e}" for e in self.evidence)
        out.extend(f"Ruled out: {r}" for r in self.ruled_out)
        out.extend(self.notes)
        if self.did:
            out.append("Did: " + "; ".join(self.did) + ".")
        else:
            out.append("Did: no changes, reads only.")
        out.extend(f"Verified: {v}" for v in self.verified)
        if self.plan:
            out.append("Plan:")
            out.extend(f"{i}. {p}" for i, p in enumerate(self.plan, 1))
        if self.escalate:
            out.append(f"Escalating to {self.escalate}")
        return out
