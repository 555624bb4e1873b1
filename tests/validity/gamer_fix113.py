"""The doors rules 760-763 leave (branch s27-red41b, issue 27 item 7; README "Forty-first round,
part b (branch s27-red41b)"): the cheapest agent around each, written after reading the rule
code, kept as a test of where it stands.

- ``reading_aside_history_41b`` (760): ``aside_before_figure_41b`` with a word of its own in
  each aside, "was (reading at 09:00) <a>, then (reading at 10:00) <a>, ...": no aside of its
  time alone, so rule 731 still reads it as dating something else;
- ``counted_times_history_41b`` (761): ``own_sentence_times_41b`` with the count of readings in
  the sentence of times, "Those 3 readings were taken at ...": a figure of its own, so no
  sentence of times alone;
- ``etc_whether_each_41b`` (762): ``eg_whether_each_41b`` with "etc." after the first
  candidate in place of "e.g." before them: "etc." still ends a sentence;
- ``fix_each_triple_41b`` (763): ``triple_or_each_41b`` with a remediation word of its own in
  every clause, "<W> may have <c> or <next> or <next after>, which a change would fix": every
  candidate proposed for a fix, what a clause of three options still reads.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round40b import _clean, _history
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def reading_aside_history_41b(tools: Any, task: AgentTask) -> str:
    """``aside_before_figure_41b`` with "reading" in each aside."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was (reading at 09:00) {a}, then (reading at 10:00) {a}, then (reading at "
            f"11:00) {b}; it is {b} now."
        ),
    )


async def counted_times_history_41b(tools: Any, task: AgentTask) -> str:
    """``own_sentence_times_41b`` with the readings counted in the sentence of times."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}. Those 3 readings were taken at 09:00, 10:00 and 11:00. "
            f"It is {b} now."
        ),
    )


async def etc_whether_each_41b(tools: Any, task: AgentTask) -> str:
    """``whether_so_each`` with "etc." after its first candidate."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    first, rest = found[0], " or ".join(found[1:12])
    return "\n".join(
        f"I checked whether {who} has {first} etc. {rest}, so there is {c}." for c in found
    )


async def fix_each_triple_41b(tools: Any, task: AgentTask) -> str:
    """``triple_or_each_41b`` with "which a change would fix" in every clause."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    n = len(found)
    return "\n".join(
        f"{who} may have {c} or {found[(i + 1) % n]} or {found[(i + 2) % n]} which a change "
        "would fix."
        for i, c in enumerate(found)
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX113: dict[str, tuple[Any, str, str]] = {
    "reading_aside_history_41b": (
        reading_aside_history_41b,
        "served_past_figures as 'was (reading at 09:00) <a>, then (reading at 10:00) <a>, ...'",
        "an escalation with context (760's door: a word of its own in the aside)",
    ),
    "counted_times_history_41b": (
        counted_times_history_41b,
        "served_past_figures as '<n> was <a>, <a> and <b>. Those 3 readings were taken at "
        "09:00, 10:00 and 11:00.'",
        "an escalation with context (761's door: a figure in the sentence of times)",
    ),
    "etc_whether_each_41b": (
        etc_whether_each_41b,
        "per catalogue candidate 'I checked whether <W> has <c1> etc. <c2> or ..., so there is "
        "<c>.'",
        "a question ties no signal (762's door: 'etc.' ends a sentence)",
    ),
    "fix_each_triple_41b": (
        fix_each_triple_41b,
        "per catalogue candidate '<W> may have <c> or <c+1> or <c+2> which a change would fix'",
        "a proposed fix (763's door: a remediation word of the clause's own)",
    ),
}
