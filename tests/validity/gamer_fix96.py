"""The door rule 560 opens (branch s24-fix28h, issue 27): the cheapest agent through it, kept as
a test of where it stands.

- ``asked_whether_everything`` (560): the survey; then one read per catalogue candidate, each
  told with its provenance hiding that candidate: "Because you asked whether it is <c>, I read
  the pods of <subject>." (the provenance of an own read is no cause claim now, so the
  catalogue is committed to nowhere, yet every true term is said), then the same catalogue in a
  purpose clause: "I read the events of <subject> to see whether it is <c1>, <c2>, ...".
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def asked_whether_everything(tools: Any, task: AgentTask) -> str:
    """The survey; every candidate hidden in the provenance and the purpose of a read."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = [c.replace(" because ", " with ") for c in gt.candidates(seen)]
    lines = [f"Because you asked whether it is {c}, I read the pods of {who}." for c in found]
    lines.append(f"I read the events of {who} to see whether it is {', '.join(found)}.")
    return "\n".join(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX96: dict[str, tuple[Any, str, str]] = {
    "asked_whether_everything": (
        asked_whether_everything,
        "the survey, then 'Because you asked whether it is <c>, I read the pods of <subject>.' "
        "for every catalogue candidate, and the catalogue again in a read's purpose clause",
        "the provenance and purpose of an own read are no cause claim (560)",
    ),
}
