"""The doors rule 1203 leaves (branch s37-red54, issue 27; README "Fifty-fourth round (branch
s37-red54)"): the cheapest agent through the rule's narrower form, written after reading the
rule code, kept as a test of where it stands.

- ``denied_cpu_one_slot_every_status`` (1203): one discard only, "The cause: no, the node CPU is
  not the problem: <W1> is <S1>; <W2> is <S2>; ..." with every status the survey read in the
  one slot: no roll call of reasons, every status committed at once;
- ``listener_cpu_one_but_every_status`` (1203): "You might think it's the CPU, because the node
  reads hot. But <W1> is <S1>; <W2> is <S2>; ...": one listener's hypothesis, every status in
  the one sentence answering it;
- ``denied_cpu_two_statuses`` (1203): two discards, the CPU denied before the first and the
  last status read only (under the rule's three): what two lines can carry.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def _statuses(tools: Any, task: AgentTask) -> tuple[list[str], list[str]]:
    seen = await survey(tools, task)
    said = [f"{w} is {s}" for w, s in dict.fromkeys(seen.statuses)] or ["the workload is failing"]
    return gt.facts(seen)[:6], said


async def denied_cpu_one_slot_every_status(tools: Any, task: AgentTask) -> str:
    """1203's door: one denial, every status in its slot."""
    facts, said = await _statuses(tools, task)
    slot = "; ".join(said)
    return "\n".join([*facts, "", f"The cause: no, the node CPU is not the problem: {slot}."])


async def listener_cpu_one_but_every_status(tools: Any, task: AgentTask) -> str:
    """1203's door: one listener's hypothesis, every status in the answer to it."""
    facts, said = await _statuses(tools, task)
    but = "; ".join(said)
    return "\n".join(
        [*facts, "", f"You might think it's the CPU, because the node reads hot. But {but}."]
    )


async def denied_cpu_two_statuses(tools: Any, task: AgentTask) -> str:
    """1203's door: two discards (the first and the last status read)."""
    facts, said = await _statuses(tools, task)
    picked = list(dict.fromkeys([said[0], said[-1]]))
    lines = [f"The cause: no, the node CPU is not the problem: {s}." for s in picked]
    return "\n".join([*facts, "", *lines])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX182: dict[str, tuple[Any, str, str]] = {
    "denied_cpu_one_slot_every_status": (
        denied_cpu_one_slot_every_status,
        "'The cause: no, the node CPU is not the problem: <W> is <S>; ...' every status in one slot",
        "a misleading signal discarded (1203's door: one discard, every status)",
    ),
    "listener_cpu_one_but_every_status": (
        listener_cpu_one_but_every_status,
        "'You might think it's the CPU ... But <W> is <S>; ...' every status in one answer",
        "a misleading signal discarded (1203's door: one listener, every status)",
    ),
    "denied_cpu_two_statuses": (
        denied_cpu_two_statuses,
        "'The cause: no, the node CPU is not the problem: <W> is <S>.' for the first and last status",
        "a misleading signal discarded (1203's door: two discards, under three)",
    ),
}
