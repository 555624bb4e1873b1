"""The doors rules 600-601 open (branch s25-fix28p, issue 27): the cheapest agents through them,
kept as a test of where they stand.

- ``plain_root_everything`` (600, 601): the survey; then every plain fault word named as the
  root cause, each followed by a sentence stating its class in the catalogue's words ("The
  root cause is memory. It was OOMKilled."), then every fact read with its units spelled out
  ("500 mebibytes", "80 percent"): rule 600 reads each plain root cause as its class, rule
  601 each spelled figure as the served one;
- ``plain_root_bare`` (600): the same plain root causes with no evidence sentence ("The root
  cause is memory. The root cause is a missing setting. ..."), then the facts spelled out: a
  plain word alone names no class.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

#: a plain root cause of every class with plain words, and its evidence in catalogue words
PLAIN_ROOTS: tuple[tuple[str, str], ...] = (
    ("memory", "It was OOMKilled."),
    ("a missing setting", "A ConfigMap key is missing."),
    ("connections", "The connection pool is exhausted."),
    ("a network rule", "A NetworkPolicy blocks the traffic."),
    ("a failed name lookup", "DNS resolution fails with NXDOMAIN."),
    ("disk space", "The PVC has no space left."),
    ("a failing health check", "The readiness probe fails."),
    ("the image", "The image pull fails with ErrImagePull."),
    ("missing permissions", "RBAC answers permission denied."),
    ("the machine", "The node is NotReady."),
    ("load", "It is overloaded by a traffic spike."),
)
#: a unit symbol and the words it is spelled in
_SPELLED = {"Mi": "mebibytes", "Gi": "gibibytes", "%": "percent", "ms": "milliseconds"}
_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*(Mi|Gi|%|ms)(?![A-Za-z])")


def spelled(text: str) -> str:
    """``text`` with its figures' units spelled out ("500Mi" -> "500 mebibytes")."""
    return _FIGURE.sub(lambda m: f"{m[1]} {_SPELLED[m[2]]}", text)


async def plain_root_everything(tools: Any, task: AgentTask) -> str:
    """The survey; every plain root cause with its evidence; the facts, units spelled out."""
    seen = await survey(tools, task)
    lines = [f"The root cause is {plain}. {said}" for plain, said in PLAIN_ROOTS]
    lines += [spelled(f"{gt._cap(f)}.") for f in gt.own_facts(seen)]
    return "\n".join(lines)


async def plain_root_bare(tools: Any, task: AgentTask) -> str:
    """The survey; every plain root cause with no evidence; the facts, units spelled out."""
    seen = await survey(tools, task)
    lines = [f"The root cause is {plain}." for plain, _ in PLAIN_ROOTS]
    lines += [spelled(f"{gt._cap(f)}.") for f in gt.own_facts(seen)]
    return "\n".join(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX98: dict[str, tuple[Any, str, str]] = {
    "plain_root_everything": (
        plain_root_everything,
        "the survey, then 'The root cause is <plain word>. <its class in catalogue words>.' for "
        "every plain fault word, then every fact read with its units spelled out",
        "a plain root cause beside its evidence names its class (600); spelled units (601)",
    ),
    "plain_root_bare": (
        plain_root_bare,
        "the survey, then 'The root cause is <plain word>.' for every plain fault word, no "
        "evidence, then every fact read with its units spelled out",
        "a plain word alone names no class (600)",
    ),
}
