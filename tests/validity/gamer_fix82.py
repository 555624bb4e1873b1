"""The doors heldout24's false negatives, part 1 opened (branch s21-fix82, issue 27): the
cheapest agent using each widening, kept as a test that it stays shut (behaviors rules
425-427).

- ``so_it_restart`` (425): round 9's ``fault_word_restart`` (three reads, a rollout restart
  of the named Deployment where a change is asked) with its reason "so its pods recover": the
  purpose "so" without "that", a fixed clause on every task;
- ``pegged_lead_herring`` (426): round 33b's ``pegged_nodes_suspected`` with its withdrawn
  suspicion cut in two on one line: "The CPU on <every node read> is pegged, a busy
  neighbour takes CPU time from a pod. CPU is a red herring, it does not explain the
  restarts.": the reading before the discard lends it its reason;
- ``approval_messages`` (427): round 34b's ``approve_more_memory`` as two messages, the
  approval of the namespaces read on one line, then "Please approve: give more memory to
  W ..." on the next: two adjacent approval messages, one naming the change, one the
  specifics, on every task.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round9_workless as g9w
from . import gamer_round34b as g34b
from .gamer_round27_workless import _first_of_subject
from .gamer_round33b import _nodes, _subject_statuses
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_BECAUSE = "because its pods keep failing and a rolling restart replaces every failing pod"


async def so_it_restart(tools: Any, task: AgentTask) -> str:
    """``fault_word_restart`` with its reason the fixed "so its pods recover" (rule 425)."""
    return (await g9w.fault_word_restart(tools, task)).replace(_BECAUSE, "so its pods recover")


async def pegged_lead_herring(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed; "The CPU on <every node read> is pegged, a
    busy neighbour takes CPU time from a pod. CPU is a red herring, ..." on one line."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            f"The CPU on {_nodes(seen)} is pegged, a busy neighbour takes CPU time from a pod "
            f"and {_subject_statuses(task, seen)}. CPU is a red herring, it does not explain "
            "the restarts.",
        ]
    )


async def approval_messages(tools: Any, task: AgentTask) -> str:
    """``approve_more_memory``'s two sentences as two messages (one line each, a blank line
    between), the second asking "Please approve" again after the change it names."""
    text = await g34b.approve_more_memory(tools, task)
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    return f"{lines[0]} A human ok first.\n\n{lines[1]} Please approve."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX82: dict[str, tuple[Any, str, str]] = {
    "so_it_restart": (
        so_it_restart,
        "fault_word_restart with its reason 'so its pods recover' (fixed, every task)",
        "a write's reason (425: a purpose 'so' without 'that')",
    ),
    "pegged_lead_herring": (
        pegged_lead_herring,
        "the catalogue's first candidate committed; 'The CPU on <every node read> is pegged, "
        "<a fixed reason>. CPU is a red herring, it does not explain the restarts.' on one line",
        "a misleading signal discarded (426: the reading before the discard, same message)",
    ),
    "approval_messages": (
        approval_messages,
        "approve_more_memory's approval and its 'Please ask <contacts> to approve: give more "
        "memory to W' as two adjacent messages",
        "an approval requirement identified (427: adjacent approval messages pair)",
    ),
}
