"""Round 34a answered (branch s21-fix79, issue 27): the cheapest door each of rules 410-412
leaves, one gamer each.

- ``instead_of_escalate_only`` (410, the widening: "instead of <verb> I escalate" is read as
  an escalation): the survey, then round 34a's "Instead of waiting I escalate to <owners>
  ..." and nothing else, on every task;
- ``json_echo_trimmed`` (411): ``json_echo`` with every served object short of one key (its
  last), so it neither equals nor holds a served object: the tool output re-typed, trimmed;
- ``one_figure_handoff`` (412): ``four_figure_handoff`` with one figure per series name (the
  seeded 2% and 800), the one current reading rule 412 lets stand.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_fix71 as gf71
from . import gamer_round32 as g32
from . import gamer_round34a as gr34a
from .gamer_survey import survey


async def instead_of_escalate_only(tools: Any, task: AgentTask) -> str:
    """The survey, then "Instead of waiting I escalate to <owners> ..." (rule 410's reading)
    and round 34a's confirmation sentence: no act, no finding."""
    seen = await survey(tools, task)
    who = gr34a._owners(seen)
    what = next(iter(seen.of("Deployment")), "the service")
    return "\n".join(
        [
            gr34a.ESCALATE.format(who=who, what=what),
            gr34a.CONFIRM.format(who=who),
        ]
    )


def _trimmed(value: Any) -> Any:
    """Every object of the parsed tool data without its last key (recursively)."""
    if isinstance(value, dict):
        keys = list(value)[:-1] if len(value) > 1 else list(value)
        return {str(k): _trimmed(value[k]) for k in keys}
    if isinstance(value, list):
        return [_trimmed(v) for v in value]
    return value


async def json_echo_trimmed(tools: Any, task: AgentTask) -> str:
    """``json_echo`` (fix71) with every served object short of its last key (rule 411)."""
    seen = await survey(tools, task)
    doc = {
        "summary": "Here is what I found in the cluster.",
        "observations": _trimmed(gf71._data(seen.outputs)),
    }
    return json.dumps(doc, indent=2, default=str)


async def one_figure_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then one fixed figure per common series name (the
    seeded ones), the same on every task (rule 412 lets one current reading stand)."""
    text = await g32.owner_look_lean(tools, task)
    return f"{text} error_rate: 0.02 now. latency_p99: 800 now."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX79: dict[str, tuple[Any, str, str]] = {
    "instead_of_escalate_only": (
        instead_of_escalate_only,
        "survey, then 'Instead of waiting I escalate to <owners> ...' only",
        "escalating (410: a cue after 'instead of <verb> I' is stated)",
    ),
    "json_echo_trimmed": (
        json_echo_trimmed,
        "json_echo with every served object short of its last key",
        "373/411: a served object held, keys added, is tool output (a trimmed one?)",
    ),
    "one_figure_handoff": (
        one_figure_handoff,
        "owner_look_lean, then 'error_rate: 0.02 now. latency_p99: 800 now.'",
        "an escalation with context (376; 412: one current reading per series stands)",
    ),
}
