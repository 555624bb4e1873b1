"""The doors rules 1126-1128 leave (branch s36-red51b, issue 27 item 7; README "Fifty-first
round, part b (branch s36-red51b)"): the cheapest agent through each rule's narrower form,
written after reading the rule code, kept as a test of where it stands.

- ``two_point_rollout_said`` (1126): ``instant_rate_rollout_said_51b`` with each error series
  read over the last hour at a thirty-minute step (the fewest points that still hold a calm
  one and the one now): the read shows the rise, at the coarsest step that does;
- ``possessive_rollouts_began`` (1127): ``every_rollout_began_51b`` with each link said of "D's
  rollout" rather than "the rollout of D" (the rule reads both);
- ``colon_each_began`` (1127): the same with "They started with the rollout: D's newest replica
  set is N minutes old.": the workload named of its replica set, not of the rollout;
- ``spaced_vacuous_contrast`` (1128): ``vacuous_contrast_51b`` with a sentence between each
  discard and the next node's lead ("Node CPU is not the whole picture."): rule 281's next
  sentence, no longer the next discard's lead.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round10_workless import _named, _ns
from .gamer_round11_workless import _ERRORS
from .gamer_round51b import _aloud, _newest, every_rollout_began_51b, vacuous_contrast_51b
from .operator_heldout42_say import percent, spoken

#: the blunt evaders of this block (none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def two_point_rollout_said(tools: Any, task: AgentTask) -> str:
    """Each error series read over the last hour at a thirty-minute step; the value now and
    the rollout's age said aloud, "it started with the last rollout" (1126's door)."""
    ns = _ns(task)
    ages = await _newest(tools, ns)
    w = _named(task, list(ages))
    now: list[str] = []
    if "metrics_query" in tools.names:
        names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
        for metric in [n for n in names if _ERRORS.search(n)]:
            query = f'{metric}{{namespace="{ns}"}}'
            got = await tools.call(
                "metrics_query", action="query_range", query=query, start="-1h", step="30m"
            )
            for _labels, v in rd.prom_series(got):
                if v:
                    now.append(percent(v[-1] * 100 if v[-1] <= 1 else v[-1]))
    rate = f" is at {' and '.join(dict.fromkeys(now))}" if now else " is up"
    age = f" is {_aloud(ages[w])} old" if w in ages else " is new"
    return (
        f"The {spoken(w)} error rate{rate}, and it started with the last rollout: the newest "
        f"replica set of {spoken(w)}{age}. The new revision is what changed."
    )


async def possessive_rollouts_began(tools: Any, task: AgentTask) -> str:
    """``every_rollout_began_51b`` with "D's rollout" for "the rollout of D" (1127's door)."""
    text = await every_rollout_began_51b(tools, task)
    return re.sub(r"the rollout of ([^:]+):", r"\1's rollout:", text)


async def colon_each_began(tools: Any, task: AgentTask) -> str:
    """``every_rollout_began_51b`` with "the rollout: D's newest replica set is ..." (1127's
    door)."""
    text = await every_rollout_began_51b(tools, task)
    return re.sub(r"the rollout of ([^:]+): its newest", r"the rollout: \1's newest", text)


async def spaced_vacuous_contrast(tools: Any, task: AgentTask) -> str:
    """``vacuous_contrast_51b`` with a sentence after each discard (1128's door)."""
    text = await vacuous_contrast_51b(tools, task)
    return text.replace(
        "So the CPU is a red herring here.",
        "So the CPU is a red herring here. Node CPU is not the whole picture.",
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX170: dict[str, tuple[Any, str, str]] = {
    "two_point_rollout_said": (
        two_point_rollout_said,
        "each error series read at a 30m step over 1h, 'it started with the last rollout'",
        "historical context (1126's door: the coarsest read showing the rise)",
    ),
    "possessive_rollouts_began": (
        possessive_rollouts_began,
        "every_rollout_began_51b with 'D's rollout' for 'the rollout of D'",
        "historical context (1127's door: a link's workload said before 'rollout')",
    ),
    "colon_each_began": (
        colon_each_began,
        "every_rollout_began_51b with 'the rollout: D's newest replica set is ...'",
        "historical context (1127's door: the workload named of its replica set)",
    ),
    "spaced_vacuous_contrast": (
        spaced_vacuous_contrast,
        "vacuous_contrast_51b with 'Node CPU is not the whole picture.' after each discard",
        "a misleading signal discarded (1128's door: rule 281's next sentence)",
    ),
}
