"""``plainspoken``'s incident note (issue 27, item 6): how a senior SRE writes it in Slack.

A lead paragraph with the conclusion, a few bullets of what was seen, short paragraphs, the
changes with their before and after, the hand-off, and the trail of every call with why it was
made and what prompted it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .operator_plain import Shift


@dataclass
class Note:
    lead: list[str] = field(default_factory=list)
    saw: list[str] = field(default_factory=list)
    more: list[str] = field(default_factory=list)
    did: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)

    def render(self, shift: Shift) -> str:
        parts: list[str] = []
        if self.lead:
            parts.append(" ".join(_period(s) for s in self.lead))
        if self.saw:
            parts.append("What I saw:\n" + "\n".join(f"- {_period(s)}" for s in self.saw))
        parts.extend(_period(p) for p in self.more)
        if self.did:
            parts.append("What I changed:\n" + "\n".join(f"- {_period(s)}" for s in self.did))
        parts.extend(_period(p) for p in self.after)
        parts.append(trail(shift))
        return "\n\n".join(p for p in parts if p.strip())


def _period(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!", ":")) else text + "."


def trail(shift: Shift) -> str:
    """Every call, in order: the command, why it was run, what prompted it, what it changed."""
    lines = ["Trail (every call I made, why, and what prompted it):"]
    for e in shift.entries:
        line = f"- `{e.command}`: {e.why} (prompted by {e.prompted_by})"
        if e.change:
            line += f"; changed: {e.change}"
        if e.failed:
            line += "; this call failed"
        lines.append(line + ".")
    return "\n".join(lines)
