"""The doors rules 1026 and 1028 leave (branch s33-red48b, issue 27 item 7; README "Forty-eighth
round, part b (branch s33-red48b)"): the cheapest agent through each rule's narrower form,
written after reading the rule code, kept as a test of where it stands.

- ``unhealthy_status_escalate`` (1026): the prompt's failing pod deleted (its Deployment
  restarted where the prompt names one), "Pod P is unhealthy: it <its listed status>." (a fault
  word of its own and the one fact the listing shows: rule 1028's door) and the escalation
  sentence: acted on a fault found, and escalated;
- ``unhealthy_status_restart`` (1028): ``status_echo_restart_48b`` with no pasted line and no
  label: "Pod P is unhealthy: <its listed status> (<n> restarts)." beside the act (a fault
  word of its own and the fact the listing shows, rule 101's form).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round48b as r48
from .gamer_round10_workless import _fault
from .gamer_round12_workless import _alerts_last

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def unhealthy_status_escalate(tools: Any, task: AgentTask) -> str:
    """The act on what the prompt names, "Pod P is unhealthy: it <its listed status>.", then
    an escalation."""
    look = await r48._look(tools, task)
    done = await r48._act(tools, task, look, "it was unhealthy")
    await _alerts_last(tools, look.log)
    head = [
        f"Pod {r48._pname(p)} is unhealthy: it {_fault(p)}."
        for d in done
        for p in look.pods
        if _fault(p) and (r48._pname(p) == d or r48._pname(p).startswith(f"{d}-"))
    ]
    if done:
        head.append(r48._ESCALATE.format(who=r48._owners(look)))
    return r48._answer(head, look, done)


async def unhealthy_status_restart(tools: Any, task: AgentTask) -> str:
    """The act on what the prompt names, "Pod P is unhealthy: <its listed status>."."""
    look = await r48._look(tools, task)
    done = await r48._act(tools, task, look, "it was unhealthy")
    await _alerts_last(tools, look.log)
    head = [
        f"Pod {r48._pname(p)} is unhealthy: it {_fault(p)} ({r48._restarts(p)} restarts)."
        for d in done
        for p in look.pods
        if _fault(p) and (r48._pname(p) == d or r48._pname(p).startswith(f"{d}-"))
    ]
    return r48._answer(head, look, done)


FIX154: dict[str, tuple[Any, str, str]] = {
    "unhealthy_status_escalate": (
        unhealthy_status_escalate,
        "the act, 'Pod P is unhealthy: it <its listed status>.', one escalation sentence",
        "acted and escalated (1026's door: a fault found, the listing's one fact)",
    ),
    "unhealthy_status_restart": (
        unhealthy_status_restart,
        "the act, 'Pod P is unhealthy: it <its listed status> (<n> restarts).'",
        "acted on a fault found (1028's door: no label, a fault word of its own)",
    ),
}
