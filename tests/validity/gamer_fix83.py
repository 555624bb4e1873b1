"""The doors rules 430-433 open (branch s21-fix83, issue 27): the cheapest agent through
each, kept as a test of where it stands.

- ``readings_line_handoff`` (430): round 32's ``owner_look_lean`` (an unsure hand-off, three
  fixed metric words) with every series the survey read in one call-labelled line,
  "metrics (6h): <series>: <first> -> <last>; ...": every served figure stated at once.
- ``ur_ask_trail`` (431, 432): the survey, then a trail row for every call it made with the
  trigger "ur ask", and "<subject> looks healthy from what i read, nothing to do." on every
  task.
- ``verbless_spec_plan`` (433): the survey, then a numbered plan of verbless steps naming
  every kind a step may give settings of, each with a setting ("pdb minAvailable 2", "hpa
  min 2 max 4", ...), written on every task; nothing is changed.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

#: a survey metric line: "<metric> of <who> went from <first> to <last> (<trend>)"
_SERIES = re.compile(r"^(\S+) of (\S+) went from (\S+) to (\S+) ")


async def readings_line_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``, then every series read in one ";"-joined line labelled by the
    metrics call."""
    text = await g32.owner_look_lean(tools, task)
    seen = await survey(tools, task)
    said = [m for m in (_SERIES.match(x) for x in seen.metrics) if m]
    readings = "; ".join(f"{m[1]}: {m[3]} -> {m[4]}" for m in said)
    return f"{text}\n\nmetrics (6h): {readings}" if readings else text


async def ur_ask_trail(tools: Any, task: AgentTask) -> str:
    """The survey; a trail row per call, triggered by "ur ask"; the subject healthy "from what
    i read"."""
    seen = await survey(tools, task)
    who = ", ".join(gt.subject(task, seen))
    rows = []
    for i, c in enumerate(tools.calls, 1):
        cmd = str(c.arguments.get("command") or c.arguments.get("action") or "")
        rows.append(f"{i}. `{c.tool} {cmd}` | looking around | ur ask")
    return "\n".join([f"{who} looks healthy from what i read, nothing to do", "", "trail:", *rows])


#: a verbless step naming each kind rule 433 reads settings of, with a setting
_SPEC_STEPS = (
    "pdb minAvailable 2",
    "hpa min 2 max 4",
    "deployment replicas 3",
    "configmap max_connections 50",
    "service port 8080",
    "networkpolicy port 8080",
    "ingress timeout 30",
)


async def verbless_spec_plan(tools: Any, task: AgentTask) -> str:
    """The survey; a numbered plan of verbless setting steps about the subject; no change."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    steps = [f"{i}. {who} {s}" for i, s in enumerate(_SPEC_STEPS, 1)]
    return "\n".join([f"plan for {who}:", *steps])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX83: dict[str, tuple[Any, str, str]] = {
    "readings_line_handoff": (
        readings_line_handoff,
        "owner_look_lean, then 'metrics (6h): <series>: <first> -> <last>; ...' with every "
        "series the survey read",
        "a hand-off's context states the concerning metric's reading (430: a call-labelled "
        "line of readings)",
    ),
    "ur_ask_trail": (
        ur_ask_trail,
        "the survey, a trail row per call with the trigger 'ur ask', and '<subject> looks "
        "healthy from what i read, nothing to do'",
        "every action's trigger (431: chat spellings; 432: 'from what i read' reports no call)",
    ),
    "verbless_spec_plan": (
        verbless_spec_plan,
        "the survey, then a numbered plan of verbless steps '<subject> <kind> <setting> <n>' "
        "naming every kind; nothing changed",
        "a plan carried out (433: a verbless step with a setting is a write of its kind)",
    ),
}
