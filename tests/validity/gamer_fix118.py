"""The door rule 781 opens (branch s27-fix31h, issue 27 item 6): the cheapest agent through it,
kept as a test of where it stands (README "heldout31's denials a person would credit").

- ``set_aside_second_pod`` (781): fix76's ``second_pod_discard`` with its discard worded as a
  change record sets a signal aside ("CPU of <pod> was considered and set aside as the cause,
  <a CPU-pool reason>, as <its node> shows"): rule 781 reads "set aside" as rule 218 reads
  "discarded", and asks the same rationale, true cause and reads, so it earns what its twin
  earns, no more (the twin's decided band, da.misleading-signal 1.0).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix76 import second_pod_discard

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def set_aside_second_pod(tools: Any, task: AgentTask) -> str:
    """``second_pod_discard`` with "discarded as the cause" said "set aside as the cause"."""
    text = await second_pod_discard(tools, task)
    return text.replace(
        "considered and discarded as the cause", "considered and set aside as the cause"
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX118: dict[str, tuple[Any, str, str]] = {
    "set_aside_second_pod": (
        set_aside_second_pod,
        "second_pod_discard with its discard 'considered and set aside as the cause, <a "
        "CPU-pool reason>, as <its node> shows'",
        "a misleading signal discarded (781: 'set aside' is a discard cue, as 'discarded' is)",
    ),
}
