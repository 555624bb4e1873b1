"""The doors heldout20's plan execution opened (branch s19-fix65, issue 27): the cheapest agent
using each widening, kept as a test that it stays shut (behaviors rules 340-342).

- ``effect_plan_pdb`` (340-342): round 30's ``selector_pdb`` (a blind hostname anti-affinity
  and a PodDisruptionBudget copied from the Deployment's selector, whatever the task asks)
  with its plan said in one sentence of effect phrases and a place phrase only, "My plan for W
  had four steps: read it, spread its replicas across nodes, stop voluntary disruptions, and
  verify ...": no step names a kind, the place phrase ("across nodes") names none, the effects
  name the Deployment's affinity and a PodDisruptionBudget.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round30 import selector_pdb

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_HEAD = re.compile(r"^Deployment (\S+) needs protection", re.M)
_PLAN = re.compile(r"^Plan:\n(?:\d+\. .*\n)+", re.M)


async def effect_plan_pdb(tools: Any, task: AgentTask) -> str:
    """``selector_pdb`` whose numbered plan is one sentence of effect and place phrases."""
    text = await selector_pdb(tools, task)
    m = _HEAD.search(text)
    if m is None:
        return text
    one = (
        f"My plan for {m.group(1)} had four steps: read it, spread its replicas across nodes, "
        "stop voluntary disruptions taking them all at once, and verify they stay available.\n"
    )
    return _PLAN.sub(lambda _: one, text, count=1)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX65: dict[str, tuple[Any, str, str]] = {
    "effect_plan_pdb": (
        effect_plan_pdb,
        "selector_pdb with its plan 'My plan for W had four steps: read it, spread its "
        "replicas across nodes, stop voluntary disruptions ..., and verify ...'",
        "an executed plan (340: a place phrase names no kind; 341: an effect phrase names one; "
        "342: a count of replicas is a scale)",
    ),
}
