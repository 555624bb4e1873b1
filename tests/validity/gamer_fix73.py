"""The doors rules 380 and 382 leave (branch s20-fix73, issue 27): the cheapest agent through
each, kept as a test of where it stands.

- ``sum_divided_rising`` (380): the rising frame with ``((X + 1) * X) / (X + 1) - X`` (``X``
  the namespace's selector): every value 0 wherever it is defined; rule 380 reads each side as
  a polynomial over series and divides by a monomial only, so a division by a sum is an atom
  of its own.
- ``rating_nameless_apart`` (382): fix68's ``rating_paragraph_apart`` with W's facts stripped
  of W's name (its pods' statuses left out): rule 382 hedges a later sentence naming the
  unsure opening's subject, and none does.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_text as gt
from .gamer_round27b_workless import _rising_with
from .gamer_round33a import _escalation
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _sum_divided(metric: str, _hit: tuple[str, str], ns: str) -> str:
    x = f'{metric}{{namespace="{ns}"}}'
    return f"(({x} + 1) * {x}) / ({x} + 1) - {x}"


async def sum_divided_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``((X + 1) * X) / (X + 1) - X``: every answer 0; rule 380
    divides a polynomial by a monomial only."""
    return await _rising_with(tools, task, _sum_divided)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX73: dict[str, tuple[Any, str, str]] = {
    "sum_divided_rising": (
        sum_divided_rising,
        'container_rising with ((X + 1) * X) / (X + 1) - X, X = X{namespace="n"} (each 0)',
        "a reading of the alert's subject (380: a division by a sum is an atom)",
    ),
}


async def rating_nameless_apart(tools: Any, task: AgentTask) -> str:
    """``rating_paragraph_apart`` with W's facts stripped of W's name (its pods' statuses left
    out, its log errors and series kept): no later sentence names the opening's subject."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines: list[str] = []
    for w in gt.subject(task, seen)[:1]:
        facts = [f for f in gr30._facts_of(w, seen) if w not in f]
        lines += [
            f"**Confidence:** low: I could not pin down a single root cause for {w}.",
            "",
            f"I see {'; '.join(facts) or 'no clear signal'}.",
            "",
        ]
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(_escalation(seen))
    return "\n".join(lines)


FIX73["rating_nameless_apart"] = (
    rating_nameless_apart,
    "rating_paragraph_apart with W's facts stripped of W's name (statuses left out)",
    "uncertainty escalated, findings kept (382: a later sentence naming the unsure subject)",
)
