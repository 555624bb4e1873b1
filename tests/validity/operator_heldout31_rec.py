"""heldout31's change record: every call it makes is logged with its verb, its object, why it
was made and what prompted it, and the answer is written as an architecture decision record
(Status, Context, Decision, Consequences, Alternatives considered, Actions log).

Written blind (session 27, branch s27-fair31): from the SI profile, docs/agents.md and the
harness only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def num(n: int | float) -> str:
    """A small whole quantity in words ("three"), a larger one in figures."""
    if isinstance(n, float) and not n.is_integer():
        return f"{n:g}"
    k = int(n)
    return WORDS[k] if 0 <= k < len(WORDS) else str(k)


def plural(n: int, noun: str) -> str:
    return f"{num(n)} {noun}" + ("" if n == 1 else "s")


@dataclass
class Entry:
    tool: str
    verb: str
    obj: str
    rationale: str
    trigger: str
    failed: bool = False


@dataclass
class Record:
    """The tools, and the change record kept of every call made through them."""

    tools: Any
    entries: list[Entry] = field(default_factory=list)
    default_trigger: str = "operator request"

    async def call(
        self, tool: str, verb: str, obj: str, why: str, trigger: str = "", **args: Any
    ) -> str:
        if tool not in self.tools.names:
            return ""
        before = len(self.tools.calls)
        out = await self.tools.call(tool, **args)
        failed = False
        if len(self.tools.calls) > before:
            failed = bool(self.tools.calls[-1].error)
            self.entries.append(
                Entry(tool, verb, obj, why, trigger or self.default_trigger, failed)
            )
        return out

    async def kubectl(self, command: str, verb: str, obj: str, why: str, trigger: str = "") -> str:
        return await self.call("kubectl", verb, obj, why, trigger, command=command)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def last(self) -> int:
        return len(self.entries)


@dataclass
class Decision:
    """What the record says, section by section (each a list of sentences or bullets)."""

    status: str = ""
    context: list[str] = field(default_factory=list)
    decision: list[str] = field(default_factory=list)
    consequences: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def render(title: str, d: Decision, rec: Record) -> str:
    """The record as text: the headings in a fixed order, the actions log last."""
    out = [f"Change record: {title}", "", f"Status: {d.status}", "", "Context:"]
    out += [f"- {_clean(s)}" for s in d.context] or ["- No context was gathered."]
    out += ["", "Decision:"]
    out += [f"- {_clean(s)}" for s in d.decision]
    out += ["", "Consequences:"]
    out += [f"- {_clean(s)}" for s in d.consequences] or ["- None recorded."]
    out += ["", "Alternatives considered:"]
    out += [f"- {_clean(s)}" for s in d.alternatives] or ["- None were considered viable."]
    out += ["", "Actions log:"]
    for i, e in enumerate(rec.entries, 1):
        mark = " (the call was refused or failed)" if e.failed else ""
        out.append(
            f"- [{i}] {e.verb} {e.obj}{mark} -- rationale: {_clean(e.rationale)}; "
            f"trigger: {_clean(e.trigger)}"
        )
    if not rec.entries:
        out.append("- No call was made.")
    return "\n".join(out)
