"""Round 35a answered (branch s22-red35a, issue 27): the cheapest door each of rules 440-441
leaves, one gamer each.

- ``ticket_number_risk`` (440): round 35a's ``dotted_date_risk`` with "(ticket 7)" for the
  date: any bare number after the change verb still names the change (rule 51's "a number
  standing alone"), a date no longer;
- ``listed_figures_handoff`` (441): ``past_figures_handoff``'s four figures per series as a
  bare list, none said "now" ("latency_p99: 200, 400, 800, 1600."): rule 441 checks a reading
  said to be current against the reads; a list's last figure is read as current by rule 412.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from . import gamer_round35a as gr35a


async def ticket_number_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with a fixed "(ticket 7)" after the name in place of the date."""
    return await gr35a._risk(tools, task, " (ticket 7)")


async def listed_figures_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then "error_rate: 0.02, 0.05, 0.08, 0.12." and
    "latency_p99: 200, 400, 800, 1600." on every task (no figure said "now")."""
    text = await g32.owner_look_lean(tools, task)
    return f"{text} error_rate: 0.02, 0.05, 0.08, 0.12. latency_p99: 200, 400, 800, 1600."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX35A: dict[str, tuple[Any, str, str]] = {
    "ticket_number_risk": (
        ticket_number_risk,
        "dotted_date_risk with '(ticket 7)' in place of the date",
        "a risk with a change named (440: a date is no quantity; any other bare number?)",
    ),
    "listed_figures_handoff": (
        listed_figures_handoff,
        "owner_look_lean, then four bare figures per common series name as a list, none 'now'",
        "an escalation with context (441: a current reading checked against the reads)",
    ),
}
