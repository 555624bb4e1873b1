"""heldout35's answer: a pull-request description.

A title line, then "## Summary", "## Root cause", "## Changes" (or "## No changes made" with
why), "## Testing / Verification" as a checklist, "## Risk", "## Follow-ups", and the calls
as a collapsed "Commands run" block, each shell line followed by its ``# why:`` comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .operator_heldout35_calls import Session


@dataclass
class Report:
    """What the session found and did, in the sections a PR description has."""

    title: str = ""
    summary: list[str] = field(default_factory=list)
    cause: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    no_change: str = ""
    checks: list[tuple[bool, str]] = field(default_factory=list)
    risk: list[str] = field(default_factory=list)
    followups: list[str] = field(default_factory=list)

    def done(self, text: str) -> None:
        self.checks.append((True, text))

    def left(self, text: str) -> None:
        self.checks.append((False, text))


def thousands(value: float) -> str:
    """1240 -> ``1,240``; 0.05 -> ``0.05``."""
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def ref(session: Session, n: int | None = None) -> str:
    """``(#7, T+6s)``: a pointer to a call in the Commands run block."""
    call = session.calls[(n or len(session.calls)) - 1]
    return f"(#{call.n}, {call.at})"


_BULLET = re.compile(r"^\s*([-*]|\d+\.)\s")


def _bullets(lines: list[str]) -> list[str]:
    return [ln if _BULLET.match(ln) else f"- {ln}" for ln in lines]


def render(session: Session, report: Report) -> str:
    out = [report.title.strip() or "chore: investigation notes", ""]
    out += ["## Summary", ""] + (report.summary or ["Nothing to report."]) + [""]
    out += ["## Root cause", ""]
    out += report.cause or ["Not established; see Follow-ups."]
    out.append("")
    if report.changes:
        out += ["## Changes", ""] + _bullets(report.changes) + [""]
    else:
        out += ["## No changes made", "", report.no_change or "Nothing needed changing.", ""]
    out += ["## Testing / Verification", ""]
    if report.checks:
        out += [f"- [{'x' if ok else ' '}] {text}" for ok, text in report.checks]
    else:
        out.append("- [ ] nothing to verify")
    out.append("")
    out += ["## Risk", ""] + (_bullets(report.risk) or ["- Low: read-only session."]) + [""]
    out += ["## Follow-ups", ""] + (_bullets(report.followups) or ["- None."]) + [""]
    out += commands(session)
    return "\n".join(out).rstrip() + "\n"


def commands(session: Session) -> list[str]:
    if not session.calls:
        return ["<details><summary>Commands run</summary>", "", "None.", "", "</details>"]
    out = ["<details><summary>Commands run (" + str(len(session.calls)) + ")</summary>", ""]
    out.append("```sh")
    for call in session.calls:
        mark = "  # FAILED" if call.failed else ""
        out.append(f"# {call.n}. {call.at}{mark}")
        out.append(call.line)
        out.append(f"# why: {call.why} (prompted by: {call.prompted})")
    out += ["```", "", "</details>"]
    return out
