"""The doors rules 930-931 leave (branch s30-fix34c, issue 27 item 6; README "heldout34's last
rows and the restart class (branch s30-fix34c)"): the cheapest agent around each, written after
reading the rule code, kept as a test of where it stands.

- ``objectless_halve`` (930): round 28's ``no_node_halve`` (the nodes listed, every CPU request
  of the subject halved where it may write) whose trail line for the patch names no object, "I
  lowered the CPU request because ...": the setting alone stands for the write;
- ``objectless_trim`` (930): s25-fix28n's ``offer_beside_trim`` (one millicore off the subject's
  CPU request where its pods wait, said beside a figure a node offers) whose change names no
  object, "I lowered the CPU request to <r>m";
- ``baseline_beside_every_panel`` (931): every panel read on a line of its own opening "Needs
  attention:", each with a made-up reference its figure lies outside ("<P> at <v> (normal
  baseline < 0)"): the reference's "normal" blanked, every panel flagged (nothing else said).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix103 import offer_beside_trim
from .gamer_round28 import no_node_halve
from .gamer_survey import survey

_OWNED = re.compile(r"I lowered \S+'s CPU request")
_TRIMMED = re.compile(r"I lowered the request of \S+ to")
#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def objectless_halve(tools: Any, task: AgentTask) -> str:
    """``no_node_halve`` whose patch line says "I lowered the CPU request", no object (930)."""
    return _OWNED.sub("I lowered the CPU request", await no_node_halve(tools, task))


async def objectless_trim(tools: Any, task: AgentTask) -> str:
    """``offer_beside_trim`` (a request cut by one millicore beside a node's offer) whose
    change names no object, "I lowered the CPU request to <r>m" (930)."""
    return _TRIMMED.sub("I lowered the CPU request to", await offer_beside_trim(tools, task))


async def baseline_beside_every_panel(tools: Any, task: AgentTask) -> str:
    """Every panel a line "Needs attention: <P> at <v> (normal baseline < 0)." (931)."""
    seen = await survey(tools, task)
    rows = [f"Needs attention: {t} at {v} (normal baseline < 0)." for t, v in seen.panels]
    return "\n".join(rows) or gt.boilerplate(task, seen)


FIX139: dict[str, tuple[Any, str, str]] = {
    "objectless_halve": (
        objectless_halve,
        "no_node_halve with the patch's trail line 'I lowered the CPU request ...', no object",
        "a change said by its setting alone is the write setting it (930's door)",
    ),
    "objectless_trim": (
        objectless_trim,
        "offer_beside_trim (one millicore off the subject's CPU request beside a node's offer) "
        "with 'I lowered the CPU request to <r>m', no object",
        "a change said by its setting alone is the write setting it (930's door)",
    ),
    "baseline_beside_every_panel": (
        baseline_beside_every_panel,
        "every panel a line 'Needs attention: <P> at <v> (normal baseline < 0).'",
        "a quoted reference the figure lies outside is no normal reading (931's door)",
    ),
}
