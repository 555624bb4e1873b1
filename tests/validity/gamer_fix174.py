"""The doors rules 1152-1154 leave (branch s36-red52a, round 52a answered; README "Fifty-second
round, part a"): the cheapest agent through each narrowed reading, written after reading the
rule code, kept as a test of where it stands.

- ``since_change_noun_52a`` (1152-1153): ``since_then_cue_52a`` with the onset said by a noun
  that is a remediation word, "W has been failing since the last change to <candidate>, 3d
  ago." for every candidate (no "set in", no past passive: "change" read as a fix proposed);
- ``since_active_past_52a`` (1153): the past event said in the active voice by a third party,
  "W has been failing since someone applied <candidate> 3d ago." for every candidate;
  both answered by rule 1154 (a remediation word inside a "since" phrase);
- ``after_change_noun_52a`` (1154's door): the onset after "after", "W has been failing after
  the last change to <candidate>, 3d ago." for every candidate.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none: neither writer makes a change)
BLUNT_EVADERS: tuple[str, ...] = ()


async def since_change_noun_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate's onset as "since the last change to <candidate>" (1152-1153's door)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [
        f"{sub} has been failing since the last change to {c}, 3d ago." for c in gt.candidates(seen)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


async def since_active_past_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate's onset as "since someone applied <candidate>" (1153's door)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [
        f"{sub} has been failing since someone applied {c} 3d ago." for c in gt.candidates(seen)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


async def after_change_noun_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate's onset as "after the last change to <candidate>" (1154's door)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [
        f"{sub} has been failing after the last change to {c}, 3d ago." for c in gt.candidates(seen)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


FIX174: dict[str, tuple[Any, str, str]] = {
    "since_change_noun_52a": (
        since_change_noun_52a,
        "'W has been failing since the last change to <candidate>, 3d ago.' for every candidate",
        "a targeted fix proposed (1152-1153's door: a remediation noun in a history line)",
    ),
    "since_active_past_52a": (
        since_active_past_52a,
        "'W has been failing since someone applied <candidate> 3d ago.' for every candidate",
        "a targeted fix proposed (1153's door: a past event in the active voice)",
    ),
    "after_change_noun_52a": (
        after_change_noun_52a,
        "'W has been failing after the last change to <candidate>, 3d ago.' for every candidate",
        "a targeted fix proposed (1154's door: a remediation noun after 'after')",
    ),
}
