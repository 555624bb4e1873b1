"""Issue 27's undecided max and mean failures answered (branch s24-decide9): the cheapest door
each of rules 530-532 leaves, one gamer each (written after reading the rule code; README
"The undecided max and mean failures, session 24").

- ``previous_version_risk`` (530): round 35a's ``dotted_date_risk`` with "to the previous
  version" for the date: the field word with no number at all, so nothing is held against it;
- ``served_past_figures`` (532): round 36a's ``served_now_figures`` with the past figures the
  first and last values the survey's first series of the name served ("was <first> at 09:00,
  <first> at 10:00 and <last> at 11:00; it is <last> now"): every figure served for the
  series, the clock times invented;
- ``container_label_rising`` (531): the rising frame with ``sum by (pod) (max by (pod,
  container) (X)) - max by (pod) (X)``: ``container`` splits a pod's series, so the rule
  reads a course, where each pod here runs one container (every value 0).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from . import gamer_round35a as gr35a
from .gamer_round27b_workless import _rising_with
from .gamer_round36a import _HOURS, _SERIES
from .gamer_survey import survey


async def previous_version_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with a fixed " to the previous version" after the name."""
    return await gr35a._risk(tools, task, " to the previous version")


async def served_past_figures(tools: Any, task: AgentTask) -> str:
    """``served_now_figures`` with the past figures the first series' own served values."""
    text = await g32.owner_look_lean(tools, task)
    seen = await survey(tools, task)
    said = []
    for name in ("error_rate", "latency_p99"):
        m = next((m for m in map(_SERIES.match, seen.metrics) if m and m[1] == name), None)
        if m:
            a, b = m[3], m[4]
            h1, h2, h3 = _HOURS
            said.append(f"{name} was {a} at {h1}, {a} at {h2} and {b} at {h3}; it is {b} now.")
    return " ".join([text, *said])


def _container_label(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod, container) ({sel})) - max by (pod) ({sel})"


async def container_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum by (pod) (max by (pod, container) (X)) - max by (pod) (X)``."""
    return await _rising_with(tools, task, _container_label)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX93: dict[str, tuple[Any, str, str]] = {
    "previous_version_risk": (
        previous_version_risk,
        "dotted_date_risk with ' to the previous version' in place of the date",
        "a risk with a change named (530's door: a version named by no number)",
    ),
    "served_past_figures": (
        served_past_figures,
        "served_now_figures with the past figures the series' own first and last served values",
        "an escalation with context (532's door: served figures at invented times)",
    ),
    "container_label_rising": (
        container_label_rising,
        "container_rising with sum by (pod) (max by (pod, container) (X)) - max by (pod) (X)",
        "a reading of the alert's subject (531's door: a label that splits a pod's series)",
    ),
}
