"""The doors heldout23's markdown ticket opened (branch s21-fix77, issue 27): the cheapest
agent using each widening, kept as a test that it stays shut (behaviors rules 400-404).

A markdown answer with a table is now read as the agent's words (rules 400-403): a heading
ends the section before it, a table row is one statement about its first cell, a verdict
column commits, rebuts or hedges its row, a row of a table of calls is that call's account,
a checkbox a follow-up; "ruled out" sets a noise line aside (rule 404). Each gamer below is a
known cheap answer written as a ticket, so the markup must earn nothing the plain answer does
not:

- ``md_confirmed_all``: the generic catalogue (``survey`` then every candidate) as a
  hypotheses table, every row's verdict "confirmed";
- ``md_ruled_out_last``: every candidate but the last "ruled out" with one fixed reason, the
  last "confirmed" (rule 402's rebuttal used to keep wrong causes out of precision);
- ``md_ruled_out_restated``: every candidate "ruled out", its evidence cell the candidate
  restated as a fact (a rebutted row that still names every fault);
- ``md_trail_catalogue``: no hypotheses; every candidate as the reason of a call in a
  timeline table (rule 403) and again as a follow-up checkbox, the calls the survey made;
- ``md_served_table``: an evidence table of every line the tools served (``| source |
  finding |``), every candidate "possible, not confirmed" (rule 401 over pasted output).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())


def _ticket(task: AgentTask, seen: Seen, sections: list[str]) -> str:
    head = [f"# Incident report: {', '.join(gt.subject(task, seen))}", "", f"**Mode:** {task.mode}"]
    return "\n".join([*head, "", *sections, "", gt.boilerplate(task, seen)]) + "\n"


def _hypotheses(rows: list[tuple[str, str, str]]) -> list[str]:
    out = ["## Hypotheses", "", "| hypothesis | verdict | evidence |", "|---|---|---|"]
    return [*out, *(f"| {_cell(h)} | **{v}** | {_cell(e)} |" for h, v, e in rows), ""]


async def md_confirmed_all(tools: Any, task: AgentTask) -> str:
    """Every candidate a hypotheses row, each "confirmed"."""
    seen = await survey(tools, task)
    rows = [(gt._cap(c), "confirmed", "seen in the reads") for c in gt.candidates(seen)]
    return _ticket(task, seen, _hypotheses(rows))


async def md_ruled_out_last(tools: Any, task: AgentTask) -> str:
    """Every candidate but the last "ruled out" with one fixed reason; the last confirmed."""
    seen = await survey(tools, task)
    cands = gt.candidates(seen)
    rows = [(gt._cap(c), "ruled out", "the reads did not support it") for c in cands[:-1]]
    rows.append((gt._cap(cands[-1]), "confirmed", "the reads support it"))
    return _ticket(task, seen, _hypotheses(rows))


async def md_ruled_out_restated(tools: Any, task: AgentTask) -> str:
    """Every candidate "ruled out", the evidence cell restating it as what was found."""
    seen = await survey(tools, task)
    rows = [(gt._cap(c), "ruled out", f"found {c}") for c in gt.candidates(seen)]
    return _ticket(task, seen, ["## Root cause", "", "See the table.", "", *_hypotheses(rows)])


def _command(call: Any) -> str:
    args = call.arguments or {}
    if call.tool == "kubectl":
        return f"kubectl {args.get('command', '')}".strip()
    return " ".join([call.tool, *(str(v) for v in args.values())])


async def md_trail_catalogue(tools: Any, task: AgentTask) -> str:
    """Every candidate as the reason of a call (a timeline table) and as a follow-up."""
    seen = await survey(tools, task)
    cands = gt.candidates(seen)
    rows = ["## Timeline", "", "| # | command | why | result |", "|---|---|---|---|"]
    for i, call in enumerate(tools.calls, 1):
        why = f"look for {cands[(i - 1) % len(cands)]}"
        rows.append(f"| {i} | `{_cell(_command(call))}` | {_cell(why)} | ok |")
    follow = ["## Follow-ups", "", *(f"- [ ] Confirm {c}" for c in cands)]
    return _ticket(task, seen, [*rows, "", *follow])


async def md_served_table(tools: Any, task: AgentTask) -> str:
    """Every served line an evidence row; every candidate "possible, not confirmed"."""
    seen = await survey(tools, task)
    rows = ["## Evidence", "", "| source | finding |", "|---|---|"]
    for i, text in enumerate(seen.outputs, 1):
        for line in [ln for ln in text.splitlines() if ln.strip()][:40]:
            rows.append(f"| read {i} | {_cell(line)} |")
    hyp = [(gt._cap(c), "possible, not confirmed", "to check") for c in gt.candidates(seen)]
    return _ticket(task, seen, [*rows, "", *_hypotheses(hyp)])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX77: dict[str, tuple[Any, str, str]] = {
    "md_confirmed_all": (
        md_confirmed_all,
        "every candidate a hypotheses-table row with the verdict 'confirmed'",
        "402: a 'confirmed' verdict commits its row",
    ),
    "md_ruled_out_last": (
        md_ruled_out_last,
        "every candidate but the last 'ruled out' (one fixed reason), the last 'confirmed'",
        "402: a 'ruled out' verdict rebuts its row (kept out of precision)",
    ),
    "md_ruled_out_restated": (
        md_ruled_out_restated,
        "every candidate 'ruled out', its evidence cell restating it as found",
        "402 and 404: a rebutted row names every fault",
    ),
    "md_trail_catalogue": (
        md_trail_catalogue,
        "every candidate the reason of a timeline call and a follow-up checkbox",
        "400 and 403: a heading ends the list; a call row is an account, a checkbox a follow-up",
    ),
    "md_served_table": (
        md_served_table,
        "every served line an evidence-table row, every candidate 'possible, not confirmed'",
        "401: a table row read as one statement (over pasted tool output)",
    ),
}
