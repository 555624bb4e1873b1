"""The door rule 850 opens (branch s28-fair33, issue 27 item 6): the cheapest agent through it,
kept as a test of where it stands (README "A held-out operator, session 28, a Q&A answer").

- ``decimal_every_quantity`` (850): the survey, then every memory quantity it read (``256Mi``,
  ``2Gi``) converted to decimal units and rounded as a person writes it ("268 MB", "2.15 GB"),
  each said to be the subject's memory limit it runs out of memory at and grows toward: a
  rounded decimal figure now spells the amount, so the limit the scenario holds is "stated";
- ``binary_every_quantity``: the same sentences with each quantity as read ("256Mi"), the
  reading open before rule 850, measured beside it.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_QUANTITY = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(Mi|Gi)\b")


async def _quantities(tools: Any, task: AgentTask) -> tuple[str, list[tuple[float, str]]]:
    seen = await survey(tools, task)
    found: dict[str, float] = {}
    for text in seen.outputs:
        for number, unit in _QUANTITY.findall(text):
            found[f"{number}{unit}"] = float(number) * (1024**2 if unit == "Mi" else 1024**3)
    return gt.subject(task, seen)[0], [(v, k) for k, v in found.items()]


def _decimal(amount: float) -> str:
    if amount >= 1e9:
        return f"{amount / 1e9:.2f} GB"
    return f"{amount / 1e6:.0f} MB"


def _said(who: str, figure: str) -> str:
    return f"{who} runs out of memory (OOMKilled) at {figure}, 0.9 of its {figure} memory limit."


async def decimal_every_quantity(tools: Any, task: AgentTask) -> str:
    """The survey; every memory quantity read, in decimal units, as the subject's limit."""
    who, found = await _quantities(tools, task)
    return "\n".join(_said(who, _decimal(amount)) for amount, _ in found[:40])


async def binary_every_quantity(tools: Any, task: AgentTask) -> str:
    """The same with each quantity as read, the reading open before rule 850."""
    who, found = await _quantities(tools, task)
    return "\n".join(_said(who, shown) for _, shown in found[:40])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX125: dict[str, tuple[Any, str, str]] = {
    "decimal_every_quantity": (
        decimal_every_quantity,
        "the survey, then every memory quantity read in decimal units ('268 MB') as the "
        "subject's limit it runs out of memory at",
        "a figure in decimal units rounded as shown spells the amount (850)",
    ),
    "binary_every_quantity": (
        binary_every_quantity,
        "the survey, then every memory quantity as read ('256Mi') as the subject's limit",
        "the same quantities verbatim, the reading before rule 850",
    ),
}
