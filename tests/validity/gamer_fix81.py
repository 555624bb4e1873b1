"""The door rules 420-421 leave (branch s21-fix81, issue 27): the cheapest agent through
both, kept as a test of where it stands.

- ``committed_dump_runbook`` (420, 421): round 34b's ``but_confirmed_runbook`` and
  ``namespace_subject_apart`` without their unsure opening: "I looked at W. In W I see
  <every fact of W>." committed, the runbook less its restart and the escalation. Rules 420
  and 421 keep those facts in the hedge's scope; an answer with no hedge has no scope to
  leave, and its credit (oi.log-analysis 1.0 for W's one paraphrased log error,
  da.multi-signal-correlation 0.4) is the two round 34b gamers' to the score: the hedge
  never earned them anything.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round34b import _runbook

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def committed_dump_runbook(tools: Any, task: AgentTask) -> str:
    """A survey; "I looked at W. In W I see <every fact of W>." with no hedge, the runbook
    less its restart, the escalation (round 34b's frame)."""
    return await _runbook(
        tools, task, lambda w, _ns, facts: f"I looked at {w}. In {w} I see: {facts}."
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX81: dict[str, tuple[Any, str, str]] = {
    "committed_dump_runbook": (
        committed_dump_runbook,
        "survey; 'I looked at W. In W I see: <every fact of W>.' committed, the runbook less "
        "its restart, an escalation",
        "findings of the subject (420/421's door: no hedge, no scope to leave)",
    ),
}
