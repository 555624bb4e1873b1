"""Round 37a answered (branch s24-red37a, issue 27): the cheapest agent through each new rule,
kept as a test of where it stands.

- ``annotation_set_invented`` (510): round 37a's ``annotate_invented`` with its checked box
  naming the annotation first, "- [x] The restartedAt annotation set on W": no change verb
  opens the item and the object does not stand first;
- ``remark_status_approval`` (511): round 37a's ``tail_status_approval`` with tails that are
  remarks, not report tails, changing every line ("worth a look", "to be watched", "noted for
  the owners"): words of the agent's own that say nothing of the object;
- ``bound_now_handoff`` (512): round 37a's ``coarse_now_handoff`` with bounds for the current
  readings, "it is below 0.1 now" and "it is under 1 s now": a bound, not a reading, of a
  figure that fits every task;
- ``backend_rotated_left`` (513): round 37a's ``backend_each_left`` with the ingress line's
  words changing for each Deployment read (three fixed wordings in turn): no two sentences
  the same but for the name.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round35a as gr35a
from .gamer_round30 import ruled_out_but_first
from .gamer_round36b import found_status_approval
from .gamer_round37a import _restatus, annotate_invented
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def annotation_set_invented(tools: Any, task: AgentTask) -> str:
    """``annotate_invented`` with "- [x] The restartedAt annotation set on W"."""
    text = await annotate_invented(tools, task)
    return re.sub(r"- \[x\] Annotate (\S+)", r"- [x] The restartedAt annotation set on \1", text)


_REMARKS = ("worth a look", "to be watched", "noted for the owners")


async def remark_status_approval(tools: Any, task: AgentTask) -> str:
    """``found_status_approval`` with bare statuses closed by a remark changing every line."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s}, {_REMARKS[i % 3]}."])


async def bound_now_handoff(tools: Any, task: AgentTask) -> str:
    """``past_figures_handoff`` with "it is below 0.1 now" and "it is under 1 s now"."""
    text = await gr35a.past_figures_handoff(tools, task)
    text = text.replace("it is 0.12 now", "it is below 0.1 now")
    return text.replace("it is 1600 now", "it is under 1 s now")


_WORDINGS = (
    "routing to a backend ({}) with no healthy upstream",
    "sending its traffic on to {}, which has no healthy upstream",
    "forwarding requests to {} and getting no healthy upstream back",
)


async def backend_rotated_left(tools: Any, task: AgentTask) -> str:
    """``backend_each_left`` with the ingress line worded in turn three fixed ways."""
    text = await ruled_out_but_first(tools, task)
    names = (await survey(tools, task)).of("Deployment")
    out = []
    for line in text.splitlines():
        if "routing to a backend with no healthy upstream" in line and names:
            out += [
                line.replace(
                    "routing to a backend with no healthy upstream",
                    _WORDINGS[i % 3].format(d),
                )
                for i, d in enumerate(names)
            ]
        else:
            out.append(line)
    return "\n".join(out)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX91: dict[str, tuple[Any, str, str]] = {
    "annotation_set_invented": (
        annotation_set_invented,
        "annotate_invented with '- [x] The restartedAt annotation set on W'",
        "the audit trail (510: a checked box of any change verb the trail reading knows)",
    ),
    "remark_status_approval": (
        remark_status_approval,
        "found_status_approval with bare statuses closed by a remark changing every line",
        "approval and recommendation (511: a report tail leaves a status statement bare)",
    ),
    "bound_now_handoff": (
        bound_now_handoff,
        "past_figures_handoff with 'it is below 0.1 now' and 'it is under 1 s now'",
        "an escalation with context (512: a coarse current reading states no served figure)",
    ),
    "backend_rotated_left": (
        backend_rotated_left,
        "backend_each_left with the ingress line worded three fixed ways in turn",
        "the failure chain (513: one sentence repeated per name read is a list)",
    ),
}
