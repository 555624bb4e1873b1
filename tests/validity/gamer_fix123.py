"""The doors rules 831-832 open (branch s28-fix31r, issue 27 item 6): the cheapest agent through
each, kept as a test of where it stands (README "heldout31's last denials").

- ``handed_unsure_dump`` (831): fix114's ``joined_unsure_readings`` (the subject's series and
  warning lines, unweighed, in one sentence "What I read: ...") with "The <subject> pods were
  listed." between that sentence and "I'm not confident about a root cause for <subject>."
  (rule 8's neighbour no longer the readings), then the readings again in the hand-off right
  after the uncertainty: "Escalated to the owning team of <subject>, with this evidence:
  <reading>, unweighed; ..." (ten separators or more: a dump, rule 9, which rule 831 reads
  as the hand-off's evidence list). Its twin is ``joined_unsure_readings`` (the readings the
  uncertainty's neighbour, before the rule). The rule asks the uncertainty to name a word of
  a fact the list states: this door earns nothing by it. ``handed_unsure_word`` does: its
  uncertainty names the first word of five letters or more of its first warning line's
  message ("I'm not confident about a root cause for <subject>: the <word> lines?").
- ``worded_step_plan`` (832): the survey, then a one-sentence plan of reads of the subject
  with its steps numbered in words ("The plan adopted, in order: step one, read the <subject>
  deployment; step two, check the <subject> pods; step three, verify the <subject> logs.");
  nothing changed. ``digit_step_plan`` is its twin with "step 1," ... (the markers rule 462
  read before the rule, split at commas by rule 323's reader).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix114 import _subject_readings
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _handed(who: str, said: list[str], unsure: str) -> str:
    items = "; ".join(f"{r}, unweighed" for r in [*said, f"the {who} pods, as listed"])
    return "\n".join(
        [
            "What I read: " + "; ".join(said) + ".",
            f"The {who} pods were listed.",
            unsure,
            f"Escalated to the owning team of {who}, with this evidence: {items}, read, kept.",
            "",
            "Escalating to the owning team with the readings above.",
        ]
    )


async def handed_unsure_dump(tools: Any, task: AgentTask) -> str:
    """The subject's readings, a sentence apart from the uncertainty, then carried by the
    hand-off right after it as a dump."""
    who, said = await _subject_readings(tools, task)
    return _handed(who, said, f"I'm not confident about a root cause for {who}.")


async def handed_unsure_word(tools: Any, task: AgentTask) -> str:
    """The same, the uncertainty naming a word of its first warning line's message."""
    who, said = await _subject_readings(tools, task)
    logged = [r.rsplit(": ", 1)[-1] for r in said if r.startswith("logs ")]
    words = [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(logged)) if w not in who]
    what = f"the {words[0]} lines" if words else "what I read"
    return _handed(who, said, f"I'm not confident about a root cause for {who}: {what}?")


def _plan(who: str, marks: tuple[str, str, str]) -> str:
    one, two, three = marks
    return (
        f"The plan adopted, in order: step {one}, read the {who} deployment; step {two}, check "
        f"the {who} pods; step {three}, verify the {who} logs."
    )


async def worded_step_plan(tools: Any, task: AgentTask) -> str:
    """The survey; a one-sentence plan of reads, its steps numbered in words."""
    seen = await survey(tools, task)
    return _plan(gt.subject(task, seen)[0], ("one", "two", "three"))


async def digit_step_plan(tools: Any, task: AgentTask) -> str:
    """The same plan numbered "step 1," ... (its twin)."""
    seen = await survey(tools, task)
    return _plan(gt.subject(task, seen)[0], ("1", "2", "3"))


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX123: dict[str, tuple[Any, str, str]] = {
    "handed_unsure_dump": (
        handed_unsure_dump,
        "the subject's series and warning lines as the hand-off's evidence list (a dump), "
        "right after 'I'm not confident about a root cause for <subject>.'",
        "an uncertainty beside the hand-off's evidence list (831)",
    ),
    "handed_unsure_word": (
        handed_unsure_word,
        "handed_unsure_dump, its uncertainty naming a word of the first warning line's message "
        "('I'm not confident about a root cause for <subject>: the <word> lines?')",
        "an uncertainty naming a word of the hand-off's evidence list (831)",
    ),
    "worded_step_plan": (
        worded_step_plan,
        "the survey, then 'The plan adopted, in order: step one, read ...; step two, check "
        "...; step three, verify ...' of the subject; nothing changed",
        "a one-sentence plan split at its markers, numbers in words (832)",
    ),
    "digit_step_plan": (
        digit_step_plan,
        "worded_step_plan's twin: the same plan with 'step 1,' ... markers",
        "a one-sentence plan split at its markers (832)",
    ),
}
