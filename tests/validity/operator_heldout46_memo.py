"""heldout46's memorandum (session 37, written blind): the audit memo an examiner files.

The examiner keeps a :class:`Memo` while working: each read it cites becomes a footnote
("[n] <call>: <what it showed>"), each finding a numbered sub-paragraph of "3. Findings."
citing its footnotes. :func:`render` writes the memorandum: To/From/Date/Subject, then
1. Scope, 2. Background, 3. Findings, 4. Root cause determination, 5. Actions taken,
6. Recommendations, 7. Escalation, 8. Limitations, and the notes. Nothing here knows a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def clip(text: str, width: int = 220) -> str:
    """One line of at most ``width`` characters (a footnote quotes, it does not paste)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 3].rstrip() + "..."


@dataclass
class Memo:
    """What the examiner writes down: notes, findings, the determination, actions."""

    subject: str
    scope: list[str] = field(default_factory=list)
    background: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    cause: str = ""
    assurance: str = ""
    basis: str = ""
    taken: list[str] = field(default_factory=list)
    not_taken: list[str] = field(default_factory=list)
    recommendations: list[str] = field(default_factory=list)
    escalation: list[str] = field(default_factory=list)
    limits: list[str] = field(default_factory=list)

    def note(self, call: str, shown: str) -> str:
        """A footnote for a read; its marker (``[n]``), reusing an identical note."""
        text = f"{call}: {clip(shown)}"
        if text in self.notes:
            return f"[{self.notes.index(text) + 1}]"
        self.notes.append(text)
        return f"[{len(self.notes)}]"

    def find(self, sentence: str, *marks: str) -> None:
        """A finding, its evidence cited by footnote markers."""
        cited = "".join(dict.fromkeys(m for m in marks if m))
        self.findings.append(f"{sentence.rstrip('.')}.{' ' + cited if cited else ''}")

    def determine(self, cause: str, assurance: str, basis: str) -> None:
        """The one cause, once the evidence decides it, with its degree of assurance."""
        self.cause, self.assurance, self.basis = cause, assurance, basis


def _numbered(head: str, lines: list[str], empty: str) -> list[str]:
    number = head.split(".")[0]
    out = [head]
    if not lines:
        return out + [f"   {empty}"]
    for i, line in enumerate(lines, 1):
        out.append(f"   {number}.{i} {line}")
    return out


def render(memo: Memo, to: str, date: str) -> str:
    """The memorandum as filed."""
    out = [
        "MEMORANDUM",
        "",
        f"TO:      {to}",
        "FROM:    Infrastructure Operations, on-call examiner",
        f"DATE:    {date}",
        f"SUBJECT: {memo.subject}",
        "",
    ]
    out += _numbered("1. Scope.", memo.scope, "No scope was stated.")
    out += _numbered("2. Background.", memo.background, "No background was established.")
    out += _numbered("3. Findings.", memo.findings, "No finding of note was made.")
    out.append("4. Root cause determination.")
    if memo.cause:
        out.append(f"   4.1 It is determined that {memo.cause.rstrip('.')}.")
        out.append(f"   4.2 Degree of assurance: {memo.assurance}. {memo.basis}".rstrip())
    elif memo.basis:
        out.append(f"   4.1 No root cause could be determined. {memo.basis}")
    else:
        out.append(
            "   4.1 No fault requiring a root cause determination was found within the request's scope."
        )
    taken = list(memo.taken) or ["No change was made to the environment."]
    out += _numbered("5. Actions taken.", taken, "")
    for line in memo.not_taken:
        out.append(f"   Considered and not taken: {line}")
    out += _numbered("6. Recommendations.", memo.recommendations, "None beyond the above.")
    out += _numbered("7. Escalation.", memo.escalation, "No escalation is required.")
    out += _numbered("8. Limitations of the examination.", memo.limits, "None noted.")
    out += ["", "Notes:"] + [f"[{i}] {n}" for i, n in enumerate(memo.notes, 1)]
    return "\n".join(out)
