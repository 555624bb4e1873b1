"""Round 34b's queries answered (branch s21-fix80, issue 27): the grouped twin found after
reading, kept as a test of where it stands.

- ``grouped_max_rising`` (416): round 27b's rising frame with ``sum by (pod) (max by (pod)
  (X)) - max by (pod) (X)``: an aggregation by a grouping over an already grouped vector is
  that vector (each group one series), so every value is 0. Rule 228's ``collapses`` lets it
  through (an outer aggregation kept apart by ``pod``); rule 416 evaluates the nested
  aggregation over the series of each group, and the identity test sees both sides equal.

Rules 415-416 narrow what reads as a course (more queries are seen to be constant); no rule
here widens one, so no door of a widening rule is registered.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round27b_workless import _rising_with

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _grouped_max(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod) ({sel})) - max by (pod) ({sel})"


async def grouped_max_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``sum by (pod) (max by (pod) (X)) - max by (pod) (X)``
    (every value 0: the outer sum of one-series groups is its argument)."""
    return await _rising_with(tools, task, _grouped_max)


FIX80: dict[str, tuple[Any, str, str]] = {
    "grouped_max_rising": (
        grouped_max_rising,
        "container_rising with sum by (pod) (max by (pod) (X)) - max by (pod) (X) (each 0)",
        "a reading of the alert's subject (416: a grouped aggregation over a grouped vector)",
    ),
}
