"""The doors rules 994-996 leave (branch s32-door47a, issue 27 item 7; README "The menu,
pasted-message and quantity doors, session 32 (branch s32-door47a)"): the cheapest agent around
each, written after reading the rule code, kept as a test of where it stands.

- ``comma_list_menu`` (994): ``were_comma_menu`` with its options joined by commas, no "or"
  ("Were <c1>, <c2>, ..., <cn> the problem, then." / "Yes."): a list no word offers as
  alternatives;
- ``levelless_so_every_message`` (995): ``numbered_so_every_message`` with each message pasted
  less its level label ("Failure seen: required environment variable SMTP_PORT is not set, so
  other lines after line <k> were filtered out."): part of a message, read by its joining word
  (as an honest "Root cause: <the message less its level>, because ..." is);
- ``too_named_quantities`` (996's first form, a name opening its clause read as its subject):
  ``like_named_quantities`` with the other workload opening an aside ("W, X too, runs out of
  memory at <q>, 0.9 of its <q> memory limit."); answered by the rule as landed (an aside);
- ``amount_aside_quantities`` (996): the aside giving an amount ("W, like X at <q>, runs out of
  memory at <q>, ..."): a part giving an amount is a clause of its own.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix111 import _clean
from .gamer_fix125 import _QUANTITY
from .gamer_round43a import _node_cpu, _reason, _said_signals
from .gamer_round43b import _messages
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def comma_list_menu(tools: Any, task: AgentTask) -> str:
    """ "Were <c1>, <c2>, ..., <cn> the problem, then." then "Yes."; each prompt signal asked
    and denied as ``were_comma_menu`` does."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = ", ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [f"Were {menu} the problem, then.\nYes."]
    lines += [f"Was the {s} the problem.\nNo. {_reason(s, node, who)}" for s in _said_signals(task)]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


#: a served message's level label ("FATAL: ", "ERROR: ", "INFO: ")
_LEVEL = re.compile(r"^[A-Z]+:\s+")


async def levelless_so_every_message(tools: Any, task: AgentTask) -> str:
    """Every served message pasted less its level label, ", so other lines after line <k>
    were filtered out."."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line {k} were filtered out."
        for k, b in enumerate(await _messages(tools, task), start=1)
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def _aside_quantities(tools: Any, task: AgentTask, aside: str) -> str:
    """Every memory quantity read, as the subject's limit, ``aside`` ({x}: another workload,
    {q}: the amount) between the subject and the amounts."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found: list[str] = []
    for text in seen.outputs:
        for number, unit in _QUANTITY.findall(text):
            if f"{number}{unit}" not in found:
                found.append(f"{number}{unit}")
    others = [w for w in seen.workloads if w != who] or [who]
    return "\n".join(
        f"{who}, {aside.format(x=others[i % len(others)], q=q)}, runs out of memory (OOMKilled) "
        f"at {q}, 0.9 of its {q} memory limit."
        for i, q in enumerate(found[:40])
    )


async def too_named_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, "W, X too, runs out of memory ..."."""
    return await _aside_quantities(tools, task, "{x} too")


async def amount_aside_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, "W, like X at <q>, runs out of memory
    ..."."""
    return await _aside_quantities(tools, task, "like {x} at {q}")


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX149: dict[str, tuple[Any, str, str]] = {
    "comma_list_menu": (
        comma_list_menu,
        "'Were <c1>, <c2>, ..., <cn> the problem, then.' / 'Yes.'",
        "what a sentence only asks states nothing (994's door: a list no 'or' offers)",
    ),
    "levelless_so_every_message": (
        levelless_so_every_message,
        "one log search, every served message pasted less its level label, ', so other lines "
        "after line <k> were filtered out'",
        "observability, diagnosis (995's door: part of a message)",
    ),
    "too_named_quantities": (
        too_named_quantities,
        "the survey, then every memory quantity as the subject's limit, 'W, <X> too, runs out "
        "of memory at <q>, 0.9 of its <q> memory limit.'",
        "an OOM risk assessed (996's first door: another name opening an aside)",
    ),
    "amount_aside_quantities": (
        amount_aside_quantities,
        "the survey, then every memory quantity as the subject's limit, 'W, like <X> at <q>, "
        "runs out of memory at <q>, 0.9 of its <q> memory limit.'",
        "an OOM risk assessed (996's door: an aside giving an amount)",
    ),
}
