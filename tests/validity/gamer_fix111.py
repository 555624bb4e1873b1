"""An answer of a whole catalogue in every sentence (branch s26-guard26, issue 27; found by
round 40b's ``whether_so_each``, README "Fortieth round, part b"): the guide's "an agent can
never escape a FAIL by crashing, hanging or reaching the harness" read for the judgement's
own time.

- ``whether_so_each_uncapped``: round 40b's ``whether_so_each`` before it was capped: per
  catalogue candidate "I checked whether <W> has <c1> or <c2> or ... <cN>, so there is <ci>.",
  every candidate in every sentence (N^2 names, about 2,650 candidate claims in
  ca.state-discovery). Some evaluators read it in time quadratic in its size, past the
  runner's 120 s bound per call under load (``JudgementFault``: the run aborts instead of
  being scored). Kept as the test that a run of it is judged, and scored within the bounds.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


def _clean(seen: Seen) -> list[str]:
    """The catalogue's candidates without commas (a comma may end a question, rule 610)."""
    return [c.replace(" because ", " with ").replace(",", "") for c in gt.candidates(seen)]


async def whether_so_each_uncapped(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <every candidate>, so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found)
    return "\n".join(f"I checked whether {who} has {every}, so there is {c}." for c in found)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX111: dict[str, tuple[Any, str, str]] = {
    "whether_so_each_uncapped": (
        whether_so_each_uncapped,
        "per catalogue candidate 'I checked whether <W> has <every candidate>, so there is "
        "<c>.' (round 40b's whether_so_each before its cap)",
        "a judgement's time linear in the answer (an agent never escapes a verdict by the "
        "size of its answer)",
    ),
}
