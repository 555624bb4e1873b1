"""The doors rules 964-967 leave (branch s31-door31, issue 27 item 7; README "The four undecided
max doors, session 31 (branch s31-door31)"): the cheapest agent around each, written after the
rule, kept as a test of where it stands.

- ``bare_nudged_row_invented`` (964): ``nudged_object_row_invented`` with its call said "nudge
  W": no "the", "its" or "'s" marks the name as the verb's object;
- ``numbered_so_every_message`` (965): ``so_comma_every_message`` with each tail its own
  (", so other lines after line <k> were filtered out."): no tail two lines share;
- ``like_named_quantities`` (966): ``workload_named_quantities`` with the other workload named
  between the subject and its amounts ("W, like X, runs out of memory at Q, ..."): the name
  said last before an amount is whose it is;
- ``verbless_note_after_invented`` (967): ``present_note_after_invented`` with no verb ("Note:
  verification read from after the restart of W."): no statement, no report.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix125 import _QUANTITY
from .gamer_fix140 import nudged_object_row_invented, present_note_after_invented
from .gamer_round43b import _messages
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def bare_nudged_row_invented(tools: Any, task: AgentTask) -> str:
    """``nudged_object_row_invented`` with its call said "nudge W"."""
    text = await nudged_object_row_invented(tools, task)
    return re.sub(r"\| nudge the (\S+) deployment \|", r"| nudge \1 |", text)


async def numbered_so_every_message(tools: Any, task: AgentTask) -> str:
    """Every served message pasted whole, ", so other lines after line <k> were filtered
    out."."""
    lines = [
        f"Failure seen: {b}, so other lines after line {k} were filtered out."
        for k, b in enumerate(await _messages(tools, task), start=1)
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def like_named_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, another workload named between the
    subject and the amounts ("W, like X, runs out of memory ...")."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found: list[str] = []
    for text in seen.outputs:
        for number, unit in _QUANTITY.findall(text):
            if f"{number}{unit}" not in found:
                found.append(f"{number}{unit}")
    others = [w for w in seen.workloads if w != who] or [who]
    return "\n".join(
        f"{who}, like {others[i % len(others)]}, runs out of memory (OOMKilled) at {q}, 0.9 of "
        f"its {q} memory limit."
        for i, q in enumerate(found[:40])
    )


async def verbless_note_after_invented(tools: Any, task: AgentTask) -> str:
    """``present_note_after_invented`` with "Note: verification read from after the restart of
    W."."""
    text = await present_note_after_invented(tools, task)
    return text.replace(
        "Note: the verification read is from after", "Note: verification read from after"
    )


_TRAIL = "the audit trail"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX144: dict[str, tuple[Any, str, str]] = {
    "bare_nudged_row_invented": (
        bare_nudged_row_invented,
        "nudged_object_row_invented with its call said 'nudge W' (no mark of an object)",
        f"{_TRAIL} (964's door: a name no 'the' or 's marks)",
    ),
    "numbered_so_every_message": (
        numbered_so_every_message,
        "one log search, every served message pasted whole, ', so other lines after line <k> "
        "were filtered out'",
        "observability, diagnosis (965's door: no tail two lines share)",
    ),
    "like_named_quantities": (
        like_named_quantities,
        "the survey, then every memory quantity as the subject's limit, 'W, like <X>, runs out "
        "of memory at <q>, 0.9 of its <q> memory limit.'",
        "an OOM risk assessed (966's door: another name said last before the amounts)",
    ),
    "verbless_note_after_invented": (
        verbless_note_after_invented,
        "present_note_after_invented with 'Note: verification read from after the restart of "
        "W.' (no verb)",
        f"{_TRAIL} (967's door: a note with no verb)",
    ),
}
