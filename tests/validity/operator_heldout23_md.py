"""``heldout23``'s ticket: a markdown incident report with tables, the way a senior SRE files it.

Headings (Impact, Timeline, Root cause, Evidence, Hypotheses, Actions, Follow-ups), an
evidence table, a hypotheses table with verdicts, every call in the timeline with its reason
and its trigger, a fenced log excerpt, and follow-ups as checkboxes.
"""

from __future__ import annotations

from .operator_heldout23 import Desk


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _short(text: str, limit: int = 110) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _timeline(desk: Desk) -> list[str]:
    if not desk.calls:
        return ["No calls were made."]
    out = ["| # | command | why | trigger | result |", "|---|---|---|---|---|"]
    for i, c in enumerate(desk.calls, 1):
        if c.failed:
            result = f"failed: {_short(c.error, 60)}"
        elif c.delta:
            result = f"changed: {c.delta}"
        else:
            result = "ok"
        out.append(
            f"| {i} | `{_cell(_short(c.shown))}` | {_cell(c.why)} | {_cell(c.trigger)} "
            f"| {_cell(result)} |"
        )
    return out


def _evidence(desk: Desk) -> list[str]:
    if not desk.evidence:
        return ["Nothing abnormal was found in what I read."]
    out = ["| source | finding |", "|---|---|"]
    out += [f"| {_cell(f.source)} | {_cell(f.fact)} |" for f in desk.evidence]
    if desk.excerpt:
        out += ["", "Log excerpt:", "", "```text", *desk.excerpt[:6], "```"]
    return out


def _hypotheses(desk: Desk) -> list[str]:
    if not desk.hypotheses:
        return []
    out = ["## Hypotheses", "", "| hypothesis | verdict | evidence |", "|---|---|---|"]
    out += [
        f"| {_cell(h.name)} | **{_cell(h.verdict)}** | {_cell(h.evidence)} |"
        for h in desk.hypotheses
    ]
    return [*out, ""]


def _writes(desk: Desk) -> list[str]:
    rows = [c for c in desk.calls if c.write]
    if not rows:
        return ["No change was made to the cluster."]
    out = ["| change | before → after | trigger |", "|---|---|---|"]
    for c in rows:
        state = f"failed ({_short(c.error, 60)}), nothing changed" if c.failed else c.delta
        out.append(f"| `{_cell(c.shown)}` | {_cell(state)} | {_cell(c.trigger)} |")
    return out


def ticket(desk: Desk) -> str:
    """The whole ticket, in markdown."""
    scope = ", ".join(f"`{ns}`" for ns in desk.scope)
    lines = [
        f"# Incident report: {desk.title or 'request handled'}",
        "",
        f"**Status:** {desk.status or 'done'}  ",
        f"**Scope:** {scope}  ",
        f"**Mode:** {desk.task.mode}",
        "",
        "## Impact",
        "",
        *[f"- {x}" for x in (desk.impact or ["No user impact found."])],
        "",
        "## Root cause",
        "",
        *(desk.cause or ["Not applicable: this was a requested change."]),
        "",
        "## Evidence",
        "",
        *_evidence(desk),
        "",
        *_hypotheses(desk),
        "## Actions",
        "",
        *[f"- {x}" for x in desk.actions],
        *([""] if desk.actions else []),
        *_writes(desk),
        "",
        "## Timeline",
        "",
        "Every call I made, in order, with the reason and what triggered it.",
        "",
        *_timeline(desk),
        "",
        "## Follow-ups",
        "",
        *[f"- [ ] {x}" for x in (desk.followups or ["None."])],
    ]
    return "\n".join(lines) + "\n"
