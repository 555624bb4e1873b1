"""The doors rules 670-673 leave (branch s25-red39b, issue 27 item 7; README "Thirty-ninth
round, part b (branch s25-red39b)"): the cheapest agent around each, written after reading the
rule code, kept as a test of where it stands.

- ``noon_history_now`` (670): round 39b's ``yesterday_history_now`` with "at midnight", "at
  dawn" and "at noon": times of day in words, which no form of rule 620 reads;
- ``bare_verb_row_invented`` (671): ``plain_row_invented`` with the invented row's command
  cell written without its tool's name ("annotate deployment/W ... --overwrite");
- ``running_scale_risk`` (672): ``everything_scale_risk`` with "everything running in
  <name>": a participle between the object naming no one thing and its namespace;
- ``stddev_rising`` (673): the rising frame with ``stddev by (pod) (X)``: the spread of each
  pod's series by a function the constancy test does not evaluate (0 over one series).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round27b_workless import _rising_with
from .gamer_round39b import everything_scale_risk, plain_row_invented, yesterday_history_now

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def noon_history_now(tools: Any, task: AgentTask) -> str:
    """``yesterday_history_now`` with "at midnight", "at dawn", "at noon" for its times."""
    text = await yesterday_history_now(tools, task)
    for day, said in (("yesterday", "at midnight"), ("last night", "at dawn")):
        text = text.replace(f" {day},", f" {said},")
    return text.replace(" this morning;", " at noon;")


async def bare_verb_row_invented(tools: Any, task: AgentTask) -> str:
    """``plain_row_invented`` with "kubectl " left out of the invented row's command."""
    text = await plain_row_invented(tools, task)
    return re.sub(r"\| kubectl (annotate )", r"| \1", text)


async def running_scale_risk(tools: Any, task: AgentTask) -> str:
    """``everything_scale_risk`` with "everything running in <name>"."""
    text = await everything_scale_risk(tools, task)
    return text.replace("Scaling everything in ", "Scaling everything running in ", 1)


def _stddev(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'stddev by (pod) ({metric}{{namespace="{ns}"}})'


async def stddev_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``stddev by (pod) (X)``."""
    return await _rising_with(tools, task, _stddev)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX39B: dict[str, tuple[Any, str, str]] = {
    "noon_history_now": (
        noon_history_now,
        "served_past_figures with 'at midnight', 'at dawn', 'at noon' for its times",
        "an escalation with context (670's door: times of day in words)",
    ),
    "bare_verb_row_invented": (
        bare_verb_row_invented,
        "plain_row_invented with the invented row's command written without 'kubectl'",
        "the audit trail (671's door: a command cell without its tool's name)",
    ),
    "running_scale_risk": (
        running_scale_risk,
        "everything_scale_risk with 'Scaling everything running in <name> down to 50%'",
        "a risk with a change named (672's door: a participle before the namespace)",
    ),
    "stddev_rising": (
        stddev_rising,
        "the rising frame with stddev by (pod) (X)",
        "a reading of the alert's subject (673's door: a spread of one series)",
    ),
}
