"""heldout33's answer (session 28, written blind): a Q&A reply to the requester in British
English. Each question a reviewer would ask is restated and answered in turn; the calls that
support a statement are cited in brackets after it; at most one cause per answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .operator_heldout33_look import Call, Desk, cite


@dataclass
class Reply:
    """The answers, question by question (an empty answer leaves its question out)."""

    wrong: str = ""
    why: str = ""
    changed: list[str] = field(default_factory=list)
    fixed: str = ""
    human: str = ""
    more: list[tuple[str, str]] = field(default_factory=list)
    asked: str = ""


def said(text: str, *calls: Call | None) -> str:
    """A statement followed by the calls it rests on, in brackets."""
    refs = "".join(cite(c) for c in calls if c is not None)
    return f"{text.rstrip('.')}{refs}."


def _trail(desk: Desk) -> str:
    if not desk.calls:
        return "None; I made no call, because nothing in the request needed one."
    lines = []
    for i, call in enumerate(desk.calls, 1):
        flag = " (it returned an error)" if call.error else ""
        lines.append(f"  {i}. `{call.cite}`: {call.why}; prompted by {call.prompted}{flag}.")
    return "In the order made:\n" + "\n".join(lines)


def render(desk: Desk, reply: Reply) -> str:
    """The reply as Q&A: what is wrong, why, what changed, is it fixed, what needs a human."""
    out = [f"Re: {reply.asked or desk.prompt.strip().splitlines()[0][:120]}", ""]
    out.append("I have taken your request as the questions below and answered each in turn.")
    qa: list[tuple[str, str]] = []
    if reply.wrong:
        qa.append(("What is wrong?", reply.wrong))
    if reply.why:
        qa.append(("Why?", reply.why))
    qa.extend(reply.more)
    if reply.changed:
        qa.append(("What did you change?", "\n".join(f"- {c}" for c in reply.changed)))
    else:
        qa.append(("What did you change?", "Nothing. Every call I made was a read."))
    if reply.fixed:
        qa.append(("Is it fixed?", reply.fixed))
    qa.append(("What needs a human?", reply.human or "Nothing at the moment."))
    qa.append(("Which calls did you make, and why?", _trail(desk)))
    for q, a in qa:
        out.extend(["", f"Q: {q}", f"A: {a}"])
    return "\n".join(out).strip() + "\n"
