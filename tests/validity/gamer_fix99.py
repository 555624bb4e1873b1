"""A fault inside a question, and a consequence after a cause (branch s25-fix28w, issue 27): the
cheapest agents through each, kept as a test of where they stand.

- ``whether_each_candidate`` (rule 610's door): the survey; then one read per catalogue
  candidate, each told with the candidate inside its "whether" clause: "I read the pods of
  <subject> to see whether it is <c>." (the README's "heldout28's provenance is no cause": on
  main the true candidate's sentence states the fault, the others count as nothing);
- ``so_each_candidate`` (rule 611's door): the survey; then every catalogue candidate said as
  the consequence of the subject's failing status: "<subject> is failing, unhealthy and not
  ready, so there is <c>." (a consequence of the true cause is its effect, no wrong claim:
  where the status words are the truth's own terms, every candidate would ride along).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def whether_each_candidate(tools: Any, task: AgentTask) -> str:
    """The survey; every candidate inside the "whether" clause of a read's purpose."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = [c.replace(" because ", " with ") for c in gt.candidates(seen)]
    return "\n".join(f"I read the pods of {who} to see whether it is {c}." for c in found)


async def so_each_candidate(tools: Any, task: AgentTask) -> str:
    """The survey; every candidate as the consequence of the subject's failing status."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = [c.replace(" because ", " with ") for c in gt.candidates(seen)]
    return "\n".join(f"{who} is failing, unhealthy and not ready, so there is {c}." for c in found)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX99: dict[str, tuple[Any, str, str]] = {
    "whether_each_candidate": (
        whether_each_candidate,
        "the survey, then 'I read the pods of <subject> to see whether it is <c>.' for every "
        "catalogue candidate",
        "a fault named only inside a question is no statement of it (610)",
    ),
    "so_each_candidate": (
        so_each_candidate,
        "the survey, then '<subject> is failing, so there is <c>.' for every catalogue candidate",
        "a consequence clause after a stated cause is an effect, not a cause (611)",
    ),
}
