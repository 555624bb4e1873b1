"""The doors rules 520-521 leave (branch s24-red37b, round 37b answered; issue 27): the next
cheapest agent through each, kept as a test of where it stands.

- ``served_history_now`` (520): round 37b's ``next_sentence_now`` with the past figures of each
  series the first and last values the survey's first series of that name served ("latency_p99
  was <first> at 09:00 and <last> at 11:00. The reading now is <a count read>."): a history
  the series' reads served, said at fixed hours;
- ``status_link_chain`` (521): a why-chain through every status read that is not Running
  ("Why is W failing? Because <o1> is <s1>. Why is <o1> <s1>? Because <o2> is <s2>. ..."),
  closed by the subject's own status words: links naming what the reads showed, none weighed.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from .gamer_round33b import _subject_statuses
from .gamer_round36a import _foreign
from .gamer_round37b import _who
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_SERIES = re.compile(r"^(\S+) of (\S+) went from (\S+) to (\S+) ")


def _served_pair(seen: Seen, name: str) -> tuple[str, str] | None:
    """The first and last values the survey's first series of metric ``name`` served."""
    for m in (_SERIES.match(x) for x in seen.metrics):
        if m and m[1] == name:
            return m[3], m[4]
    return None


async def served_history_now(tools: Any, task: AgentTask) -> str:
    """``next_sentence_now`` with each series' past figures the ones its first series served."""
    text = await g32.owner_look_lean(tools, task)
    seen = await survey(tools, task)
    said = []
    for name in ("error_rate", "latency_p99"):
        pair, now = _served_pair(seen, name), _foreign(seen, name)
        if pair and now:
            said.append(
                f"{name} was {pair[0]} at 09:00 and {pair[1]} at 11:00. The reading now is {now}."
            )
    return " ".join([text, *said])


async def status_link_chain(tools: Any, task: AgentTask) -> str:
    """A why-chain through every status read that is not Running, closed by W's statuses."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    bad = [f"{o} is {s}" for o, s in dict.fromkeys(seen.statuses) if s.lower() != "running"]
    bad = bad or [f"{who} is failing"]
    lines = [f"Why is {who} failing? Because {bad[0]}."]
    for before, hop in itertools.pairwise(bad):
        lines.append(f"Why {before}? Because {hop}.")
    lines.append(f"Why {bad[-1]}? Because {_subject_statuses(task, seen)}.")
    return "\n".join(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX92: dict[str, tuple[Any, str, str]] = {
    "served_history_now": (
        served_history_now,
        "next_sentence_now with the past figures of each series the first and last values "
        "its first series served, at fixed hours",
        "a past-only history of a series is its own reads' (520)",
    ),
    "status_link_chain": (
        status_link_chain,
        "a why-chain through every status read that is not Running, closed by W's statuses",
        "a why-chain's link is a fault the environment shows (521)",
    ),
}
