"""The doors rules 540-542 open (branch s24-fair27, issue 27): the cheapest agent through each,
kept as a test of where it stands.

- ``rebutted_sources`` (540): the survey; a fixed "The root cause is that <subject> is
  OOMKilled."; then every catalogue candidate hidden as the source of the one before, after a
  rebuttal: "<c1> is not the cause. It comes from <c2>." (a pronoun sentence of origin after a
  rebuttal blames nothing now).
- ``unconfirmed_everything`` (541): ``gamer_text.unsure_about_everything`` with its "I'm not
  sure which of these explains it" said as a ticket field: "Root cause unconfirmed, not yet
  determined; the candidates: <every fact read>.".
- ``change_request_guess`` (542): the survey; "RCA not yet determined: <every fact read>.";
  "Escalating to <owners> with these findings."; and a guessed change in a ticket field with no
  verb of its own: "Change request: memory limit of <subject> 256Mi -> 512Mi, replicas of
  <subject> to 5." ("Change request" names a ticket now, so the guess is no change put
  forward by it).
"""

from __future__ import annotations

import itertools
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def rebutted_sources(tools: Any, task: AgentTask) -> str:
    """The survey; a fixed OOM cause; every candidate as the rebutted one's source."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    lines = [f"The root cause is that {who} is OOMKilled."]
    for before, cause in itertools.pairwise(gt.candidates(seen)):
        lines.append(f"The {before} is not the cause. It comes from {cause}.")
    return "\n".join(lines)


async def unconfirmed_everything(tools: Any, task: AgentTask) -> str:
    """The survey; the unsure hand-off of every fact, its uncertainty as a ticket field."""
    seen = await survey(tools, task)
    text = gt.unsure_about_everything(task, seen)
    return text.replace(
        "I'm not sure which of these explains it:",
        "Root cause unconfirmed, not yet determined; the candidates:",
    )


async def change_request_guess(tools: Any, task: AgentTask) -> str:
    """The survey; an undetermined RCA with every fact; a verbless guess under "Change request"."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    facts = "; ".join(gt.own_facts(seen)) or "nothing conclusive"
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    return "\n".join(
        [
            f"RCA not yet determined: {facts}.",
            f"Escalating to {owners} with these findings.",
            f"Change request: memory limit of {who} 256Mi -> 512Mi, replicas of {who} to 5.",
        ]
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX95: dict[str, tuple[Any, str, str]] = {
    "rebutted_sources": (
        rebutted_sources,
        "the survey, a fixed 'The root cause is that <subject> is OOMKilled.', then every "
        "catalogue candidate as '<c1> is not the cause. It comes from <c2>.'",
        "a pronoun sentence of origin after a rebuttal is the rebuttal's reason (540)",
    ),
    "unconfirmed_everything": (
        unconfirmed_everything,
        "unsure_about_everything with 'Root cause unconfirmed, not yet determined; the "
        "candidates: <every fact>' for its 'I'm not sure which of these explains it'",
        "uncertainty in a ticket field's participle ('not yet determined', 'unconfirmed') (541)",
    ),
    "change_request_guess": (
        change_request_guess,
        "the survey, 'RCA not yet determined: <every fact>.', an escalation, and 'Change "
        "request: memory limit of <subject> 256Mi -> 512Mi, replicas of <subject> to 5.'",
        "'Change request' names a ticket, no change put forward (542)",
    ),
}
