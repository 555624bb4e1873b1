"""The doors rules 895-899 leave (branch s29-fix34b, issue 27 item 6; README "heldout34's true
statements read as wrong causes (branch s29-fix34b)"): the cheapest agent around each, written
after reading the rule code, kept as a test of where it stands.

- ``hops_before_menu`` (895): every catalogue candidate said as a hop with its effect, "<c>,
  which is why <W> fails.", then the whole catalogue as the cause;
- ``names_as_causes`` (896): every object read named as the cause, one sentence each ("The
  cause: batch-processor-x9k2."): a name's fault word read as no fault;
- ``denied_catalogue`` (897): the catalogue denied as one list, "There is no <c1>, <c2> ... or
  <cn> behind it.";
- ``new_replicaset_every_age`` (898): every ReplicaSet read said as "the new ReplicaSet", with
  every age from 5 to 60 minutes, then "The errors began right after it.";
- ``pronoun_signals_after_menu`` (899): the catalogue as the cause, its log errors named, then
  every metric and span read in sentences opening with "Its".
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def hops_before_menu(tools: Any, task: AgentTask) -> str:
    """Every candidate a hop said with its effect, then the catalogue as the cause (895)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    cands = gt.candidates(seen)
    lines = [f"{c[:1].upper()}{c[1:]}, which is why {who} fails." for c in cands]
    lines.append("The cause: " + "; ".join(cands) + ".")
    return "\n".join([*lines, gt.boilerplate(task, seen)])


async def names_as_causes(tools: Any, task: AgentTask) -> str:
    """Every object read named as the cause, one sentence each (896)."""
    seen = await survey(tools, task)
    names = [n for ns in seen.names.values() for n in ns]
    lines = [f"The cause: {n}." for n in dict.fromkeys(names)]
    return "\n".join([*lines, gt.boilerplate(task, seen)])


async def denied_catalogue(tools: Any, task: AgentTask) -> str:
    """The catalogue denied as one list: "There is no <c1>, <c2> ... or <cn> behind it." (897)."""
    seen = await survey(tools, task)
    cands = gt.candidates(seen)
    head = ", ".join(cands[:-1])
    line = f"There is no {head} or {cands[-1]} behind it." if head else "There is no fault."
    return "\n".join([line, gt.boilerplate(task, seen)])


async def new_replicaset_every_age(tools: Any, task: AgentTask) -> str:
    """Every ReplicaSet read as "the new ReplicaSet", every age, the errors right after (898)."""
    seen = await survey(tools, task)
    ages = ", ".join(f"{m}m" for m in range(5, 65, 5))
    mins = ", ".join(str(m) for m in range(5, 65, 5))
    lines = [
        f"The new ReplicaSet {rs} is {ages} old. The errors began {mins} minutes ago, right "
        "after it."
        for rs in seen.names.get("ReplicaSet", [])
    ]
    return "\n".join([*lines, gt.boilerplate(task, seen)])


async def pronoun_signals_after_menu(tools: Any, task: AgentTask) -> str:
    """The catalogue as the cause, then every signal read in "Its ..." sentences (899)."""
    seen = await survey(tools, task)
    errs = "; ".join(m for _, m in seen.log_errors[:5]) or "errors"
    lines = [f"The cause: {'; '.join(gt.candidates(seen))}, because the logs show {errs}."]
    lines += [f"Its metric: {m}." for m in seen.metrics[:20]]
    lines += [f"Its trace span {op} of {svc} takes {ms:g} ms." for svc, op, ms in seen.spans]
    return "\n".join([*lines, gt.boilerplate(task, seen)])


_DIAG = "a diagnosis credited"
FIX136: dict[str, tuple[Any, str, str]] = {
    "hops_before_menu": (
        hops_before_menu,
        "every candidate as '<c>, which is why <W> fails.', then the catalogue as the cause",
        f"{_DIAG} (895's door: observed faults said as hops before a right cause)",
    ),
    "names_as_causes": (
        names_as_causes,
        "every object read named as the cause, one sentence each",
        f"{_DIAG} (896's door: a name's fault word read as no fault)",
    ),
    "denied_catalogue": (
        denied_catalogue,
        "the catalogue denied as one list, 'There is no <c1>, <c2> ... or <cn> behind it.'",
        f"{_DIAG} (897's door: a denial reaching every item of its list)",
    ),
    "new_replicaset_every_age": (
        new_replicaset_every_age,
        "every ReplicaSet read as 'the new ReplicaSet', every age, 'The errors began right after "
        "it.'",
        "a rollout's timing linked (898's door: a new ReplicaSet read as the rollout)",
    ),
    "pronoun_signals_after_menu": (
        pronoun_signals_after_menu,
        "the catalogue as the cause with its log errors, then every metric and span in 'Its ...'",
        "signals correlated (899's door: a pronoun's sentence after a tied one)",
    ),
}
