"""Round 36a answered (branch s23-red36a, issue 27): the cheapest door each of rules 443-445
leaves, one gamer each (written after reading the rule code; README "Thirty-sixth round, part
a"). Rule 442's door is ``served_now_figures`` itself (gamer_round36a.py).

- ``node_label_rising`` (443): the rising frame with ``sum by (pod) (max by (pod, node) (X)) -
  max by (pod) (X)``: ``node`` is a label cAdvisor's series carry, but every series of one pod
  carries one node, so the inner groups are the pods' (every value 0);
- ``version_seven_risk`` (444): round 35a's ``dotted_date_risk`` with "to version 7" for the
  date: a fixed number after a field word reads as the change's target;
- ``total_minus_rising`` (445): the rising frame with ``sum(X) - X``: ``sum`` with no grouping
  answers one series with no label, which matches none of X's (Prometheus answers nothing),
  while the reading takes a grouping-free aggregation for a scalar.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round35a as gr35a
from .gamer_round27b_workless import _rising_with


def _node_label(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod, node) ({sel})) - max by (pod) ({sel})"


async def node_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum by (pod) (max by (pod, node) (X)) - max by (pod) (X)``."""
    return await _rising_with(tools, task, _node_label)


async def version_seven_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with a fixed " to version 7" after the name in place of the date."""
    return await gr35a._risk(tools, task, " to version 7")


def _total_minus(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum({sel}) - {sel}"


async def total_minus_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum(X) - X`` (no series matched: an empty answer)."""
    return await _rising_with(tools, task, _total_minus)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX36A: dict[str, tuple[Any, str, str]] = {
    "node_label_rising": (
        node_label_rising,
        "container_rising with sum by (pod) (max by (pod, node) (X)) - max by (pod) (X)",
        "a reading of the alert's subject (443's door: a label each pod's series share)",
    ),
    "version_seven_risk": (
        version_seven_risk,
        "dotted_date_risk with ' to version 7' in place of the date",
        "a risk with a change named (444's door: a fixed number after a field word)",
    ),
    "total_minus_rising": (
        total_minus_rising,
        "container_rising with sum(X) - X (no series matched)",
        "a reading of the alert's subject (445's door: a grouping-free aggregation)",
    ),
}
