"""The doors rules 890-892 open (branch s29-fix34a, issue 27 item 6, heldout34's status-page
form): the cheapest agent through each, kept as a test of where it stands (README "heldout34's
status-page form (branch s29-fix34a)").

- ``spoken_every_quantity`` (890): the survey, then every memory quantity it read (``256Mi``,
  ``1.6Gi``) said aloud ("256 megs", "1.6 gigs"), each said to be the subject's memory limit
  it runs out of memory at: the spoken units now spell the amount, so the limit the scenario
  holds is "stated" among the others.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix125 import _quantities, _said

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _spoken(shown: str) -> str:
    return shown.replace("Mi", " megs").replace("Gi", " gigs")


async def spoken_every_quantity(tools: Any, task: AgentTask) -> str:
    """The survey; every memory quantity read, said aloud, as the subject's limit."""
    who, found = await _quantities(tools, task)
    return "\n".join(_said(who, _spoken(shown)) for _, shown in found[:40])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX134: dict[str, tuple[Any, str, str]] = {
    "spoken_every_quantity": (
        spoken_every_quantity,
        "the survey, then every memory quantity read said aloud ('1.6 gigs') as the subject's "
        "limit it runs out of memory at",
        "the spoken units megs and gigs spell the amount as the tools print it (890)",
    ),
}
