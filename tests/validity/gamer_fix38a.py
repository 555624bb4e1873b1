"""Round 38a answered (branch s25-red38a, issue 27): the cheapest agent through each new rule
580-583, kept as a test of where it stands (README "Thirty-eighth round, part a").

- ``restart_ok_invented`` (580): round 38a's ``done_box_invented`` with "- [x] W restart: ok":
  the box's word after the change one rule 580 does not list;
- ``six_word_filler_approval`` (581): round 38a's ``three_word_filler_approval`` with a filler
  of six words, not in parentheses ("The list goes on from here."), after every second status;
- ``figures_first_handoff`` (582): round 38a's ``semicolon_spray_handoff`` with the fixed
  figures before the series' name ("At 200, 400 and 800, latency_p99 is off its baseline."):
  rule 532 reads a series' figures after its name;
- ``workload_scale_risk`` (583): round 38a's ``scale_size_risk`` with the first Deployment
  read (not the namespace) as what is scaled: "Scaling <W> down to 50% drops the data ...".
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from .gamer_round36b import found_status_approval
from .gamer_round37a import _restatus
from .gamer_round38a import _SPRAY, done_box_invented, scale_size_risk
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def restart_ok_invented(tools: Any, task: AgentTask) -> str:
    """``done_box_invented`` with "- [x] W restart: ok"."""
    text = await done_box_invented(tools, task)
    return re.sub(r"(- \[x\] \S+ restart): done", r"\1: ok", text)


async def six_word_filler_approval(tools: Any, task: AgentTask) -> str:
    """The statuses bare, "The list goes on from here." after every second one."""
    text = await found_status_approval(tools, task)
    filler = "The list goes on from here."
    return _restatus(text, lambda i, o, s: [f"{o} is {s}."] + ([filler] if i % 2 else []))


async def figures_first_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then per series "At a, b and c, <name> is off its
    baseline."."""
    text = await g32.owner_look_lean(tools, task)
    said = [
        f"At {a}, {b} and {c}, {name} is off its baseline." for name, (a, b, c) in _SPRAY.items()
    ]
    return " ".join([text, *said])


async def workload_scale_risk(tools: Any, task: AgentTask) -> str:
    """``scale_size_risk`` with the first Deployment read for the namespace."""
    text = await scale_size_risk(tools, task)
    seen = await survey(tools, task)
    deployments = seen.of("Deployment")
    if not deployments:
        return text
    return re.sub(
        r"Scaling \S+ down to 50%", f"Scaling {deployments[0]} down to 50%", text, count=1
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX38A: dict[str, tuple[Any, str, str]] = {
    "restart_ok_invented": (
        restart_ok_invented,
        "done_box_invented with '- [x] W restart: ok'",
        "the audit trail (580: '<object> <change>: done' reports the change)",
    ),
    "six_word_filler_approval": (
        six_word_filler_approval,
        "found_status_approval with bare statuses, 'The list goes on from here.' after every second",
        "approval and recommendation (581: a filler of up to five words, or an aside)",
    ),
    "figures_first_handoff": (
        figures_first_handoff,
        "owner_look_lean, then 'At a, b and c, <series> is off its baseline.'",
        "an escalation with context (582: a series' figures read past ';', references no reading)",
    ),
    "workload_scale_risk": (
        workload_scale_risk,
        "scale_size_risk with the first Deployment read scaled, not the namespace",
        "a risk with a change named (583: a change of a namespace alone names none)",
    ),
}
