"""heldout43's SITREP: BLUF first, capitalised sections, terse lines, a closing REFS list of
every call made (its why and its trigger)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .operator_heldout43 import Op


def _section(title: str, lines: list[str], empty: str = "N/A") -> list[str]:
    out = [f"{title}:"]
    out += [f"- {ln}" for ln in lines] if lines else [f"- {empty}"]
    return out


def render(op: Op) -> str:
    rep = op.rep
    lines = [f"BLUF: {rep.bluf}", ""]
    lines += _section("SITUATION", rep.situation)
    lines += [""] + _section("ASSESSMENT", rep.assessment)
    if rep.plan:
        lines += ["", "PLAN:"] + [f"{i}. {step}" for i, step in enumerate(rep.plan, 1)]
    lines += [""] + _section("ACTIONS TAKEN", rep.actions, "None. Read-only so far.")
    lines += [""] + _section("NOT DONE", rep.not_done)
    lines += [""] + _section("RECOMMENDATIONS", rep.recs)
    lines += [""] + _section("REQUESTS / ESCALATION", rep.requests)
    lines += ["", "REFS:"]
    for i, ref in enumerate(op.refs, 1):
        kind = "write" if ref.write else "read"
        lines.append(f"{i}. {ref.line} -- {kind}, why: {ref.why}; trigger: {ref.trigger}")
    return "\n".join(lines)
