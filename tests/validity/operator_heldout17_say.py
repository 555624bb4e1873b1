"""``heldout17``'s voice: a reply in a chat thread, the way a senior SRE writes one.

TL;DR first, then the conclusion and why (a cause chain with arrows), a small table of the
numbers read, what was ruled out in a clause, what was changed, a question back, and the trail
of calls (why, trigger, delta) for the audit."""

from __future__ import annotations

from .operator_heldout17 import OPERATOR, Shift


def _tldr(shift: Shift) -> str:
    sure = [f for f in shift.findings if f.sure]
    if shift.done and sure:
        return f"TL;DR: {sure[0].cause}. {shift.done[0]}."
    if shift.done:
        return f"TL;DR: done — {shift.done[0]}."
    panels = [f.cause for f in sure if f.kind == "panel"]
    if len(panels) > 1:
        return (
            f"TL;DR: {len(panels)} things need attention: "
            + "; ".join(panels)
            + "; the rest looks normal."
        )
    if sure:
        return f"TL;DR: {sure[0].cause}."
    if shift.findings:
        return f"TL;DR: not sure yet. Best lead: {shift.findings[0].cause}."
    if shift.headline:
        return f"TL;DR: I don't have a root cause I'd stand behind. Loudest thing in the logs is `{shift.headline[:90]}`, and that alone doesn't explain it."
    return "TL;DR: nothing I read points at a fault."


def _why(shift: Shift) -> list[str]:
    out: list[str] = []
    for i, f in enumerate(shift.findings[:4]):
        lead = "Why I think so" if i == 0 else "Also"
        chain = " -> ".join(f.chain) if f.chain else ""
        line = f"{lead}: {f.cause}."
        if chain:
            line += f" Chain: {chain}."
        if f.facts:
            line += " I saw " + "; ".join(f.facts[:3]) + "."
        if not f.sure:
            line += " (not confirmed on the object itself)"
        out.append(line)
    return out


def _table(shift: Shift) -> list[str]:
    if not shift.numbers:
        return []
    rows = ["| what | value |", "|---|---|"]
    seen: set[str] = set()
    for k, v in shift.numbers:
        if k in seen:
            continue
        seen.add(k)
        rows.append(f"| {k} | {v.replace('|', '/')} |")
    return rows


def _trail(shift: Shift) -> list[str]:
    rows = ["| # | ran | why | triggered by | change |", "|---|---|---|---|---|"]
    for i, s in enumerate(shift.steps, 1):
        cmd = s.command.replace("|", "/")
        if len(cmd) > 160:
            cmd = cmd[:157] + "..."
        trig = s.trigger if s.trigger != OPERATOR else "your message"
        change = (s.delta or "read-only").replace("|", "/")
        rows.append(
            f"| {i} | `{cmd}` | {s.why}{' (failed)' if s.failed else ''} | {trig} | {change} |"
        )
    return rows


def write(shift: Shift) -> str:
    """The whole reply."""
    broken = [s for s in shift.steps if s.failed and s.delta]
    if broken:
        shift.done = [
            f"tried `{s.command[:90]}` but it FAILED, so that change is NOT in place"
            for s in broken
        ] + shift.done
    parts: list[str] = [_tldr(shift)]
    parts += _why(shift)
    table = _table(shift)
    if table:
        parts.append("Numbers I pulled:\n\n" + "\n".join(table))
    if shift.plan:
        parts.append("Plan, in this order:\n\n" + "\n".join(shift.plan))
    if shift.dismissed:
        parts.append("Ruled out / weighed: " + "; ".join(shift.dismissed) + ".")
    fixes = [f.fix for f in shift.findings if f.fix and f.sure]
    if shift.done:
        parts.append("What I did: " + "; ".join(shift.done) + ".")
    elif fixes and not shift.asks:
        parts.append(f"What I'd do (not done, you asked for a look, not a change): {fixes[0]}.")
    if shift.alerts_seen:
        parts.append(
            "Heads-up: while I was on this, "
            + ", ".join(f"`{a}`" for a in shift.alerts_seen)
            + " fired; the calls after it in the trail are for that alert."
        )
    for ask in shift.asks:
        parts.append(ask)
    if not shift.asks:
        parts.append("Can you confirm that matches what your users see?")
    parts.append(f"Trail ({len(shift.steps)} calls, in order):\n\n" + "\n".join(_trail(shift)))
    return "\n\n".join(parts)
