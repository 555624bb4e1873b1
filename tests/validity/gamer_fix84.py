"""The doors rules 460-463 open (branch s22-fair25, issue 27): the cheapest agent through each,
kept as a test of where it stands.

- ``aside_shotgun`` (460): the survey, then every plausible cause of the corpus's list
  (``agents.CAUSES``) explained and set aside in one sentence each, "The <subject> signal was
  found high, driven by <cause>; it was judged a misleading signal, not the cause.", and no
  cause committed to: every candidate named, none blamed.
- ``passive_log_plan`` (461-463): the survey; a numbered shift log of every call it made
  ("`<call>` was run so that the state was seen."); then a plan in the passive with "step N,"
  markers, drawn from the subject's kinds and written after the reads that carry it out ("A
  plan was drawn up, in this order: step 1, the <subject> deployment inspected; step 2, its
  logs read; step 3, its metrics checked; step 4, its pods verified."); nothing is changed.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .agents import CAUSES
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def aside_shotgun(tools: Any, task: AgentTask) -> str:
    """The survey; every corpus cause explained, then set aside by an anaphoric clause."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    lines = [
        f"The {who} signal was found high, driven by {cause}; it was judged a misleading "
        "signal, not the cause."
        for cause, _ in CAUSES
    ]
    return "\n".join(lines)


async def passive_log_plan(tools: Any, task: AgentTask) -> str:
    """The survey; a passive numbered log of its calls; a passive "step N," plan of reads."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    log = []
    for i, c in enumerate(tools.calls, 1):
        cmd = str(c.arguments.get("command") or c.arguments.get("action") or "")
        log.append(f"{i}. `{c.tool} {cmd}` was run so that the state was seen.")
    plan = (
        f"A plan was drawn up, in this order: step 1, the {who} deployment inspected; step 2, "
        f"the {who} logs read; step 3, the {who} metrics checked; step 4, the {who} pods "
        "verified."
    )
    return "\n".join([*log, "", plan])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX84: dict[str, tuple[Any, str, str]] = {
    "aside_shotgun": (
        aside_shotgun,
        "the survey, then every corpus cause as '<subject> signal high, driven by <cause>; it "
        "was judged a misleading signal, not the cause.'",
        "no blame where a signal is explained then set aside (460: the anaphoric rebuttal)",
    ),
    "passive_log_plan": (
        passive_log_plan,
        "the survey, a passive numbered log of its calls, then a passive 'step N,' plan of "
        "reads of the subject; nothing changed",
        "a plan read past a numbered record (461), by its 'step N,' markers (462), its "
        "participles as verbs (463)",
    ),
}
