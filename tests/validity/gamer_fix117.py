"""The door of rule 742 (branch s27-guard27, issue 27; README "Judging time linear in the
answer everywhere"): a stop inside an address or a path ("s3://ops-archive/", "node-1:/data")
ends no question (rule 610's mask, rule 726's reading widened).

- ``address_whether_each``: ``whether_so_each_uncapped`` with an address and a path beside
  every candidate ("... (see s3://<W>-archive/ and <W>:/data) or ..."): before rule 742 each
  question ended at the first "s3:" and the rest of the catalogue was read as said; now every
  question runs to its ", so". What the rule could open: a question that swallows what follows
  the address. It swallows only what it asks (the candidates), never the "so there is <c>".
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix111 import _clean
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def address_whether_each(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1> (see s3://<W>-archive/ and <W>:/data)
    or ... , so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(f"{c} (see s3://{who}-archive/ and {who}:/data)" for c in found)
    return "\n".join(f"I checked whether {who} has {every}, so there is {c}." for c in found)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX117: dict[str, tuple[Any, str, str]] = {
    "address_whether_each": (
        address_whether_each,
        "whether_so_each_uncapped with 's3://<W>-archive/' and '<W>:/data' beside every "
        "candidate (rule 742's door: an address inside a question)",
        "a stop inside an address or a path ends no question (rule 742)",
    ),
}
