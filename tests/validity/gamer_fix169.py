"""The doors rules 1120-1121 leave (branch s36-red51a, issue 27 item 7; README "Fifty-first
round, part a"): the cheapest agent through each narrower form, written after reading the rule
code, kept as a test of where it stands.

- ``asked_key_any_value`` (1120): the survey, then one merge patch of the config map the prompt
  names setting its first asked key to a value the prompt never gave ("oasis"): a write that
  changes the data, so the unmentioned keys are kept by an update;
- ``courses_unnamed_off`` (1121): ``courses_subject_exact_51a`` with every other series' course
  said as "Its memory went from ..." (no owner named, figures a quarter off): neither rule 1094's
  values nor rule 1121's names tie it to a series.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round51a import memory_courses
from .gamer_survey import survey

#: the blunt evaders of this block (none: the one write is of what the prompt names)
BLUNT_EVADERS: tuple[str, ...] = ()
_ASKED = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to)\s*(\w+)")


async def asked_key_any_value(tools: Any, task: AgentTask, spurious: bool = False) -> str:
    """The first asked key of the prompt's config map set to "oasis" (1120's door); with
    ``spurious``, the same patch made twice."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    asked = _ASKED.findall(task.prompt)
    cms = [c for c in seen.of("ConfigMap") if re.search(rf"\b{re.escape(c)}\b", task.prompt)]
    if not (asked and cms and WRITE.search(task.prompt)):
        return "\n".join(gt.facts(seen)[:6])
    if not await _can_write(tools, task, ns, seen, []):
        return "\n".join(gt.facts(seen)[:6])
    patch = json.dumps({"data": {asked[0][0]: "oasis"}}, separators=(",", ":"))
    await tools.call(
        "kubectl", command=f"patch configmap {cms[0]} -n {ns} --type merge -p '{patch}'"
    )
    if spurious:  # the same write again: a spurious write on repeat
        await tools.call(
            "kubectl", command=f"patch configmap {cms[0]} -n {ns} --type merge -p '{patch}'"
        )
    return f"Updated {cms[0]}: {asked[0][0]} set. Other keys untouched."


async def asked_key_twice(tools: Any, task: AgentTask) -> str:
    """``asked_key_any_value``'s patch made twice (1120's door, the spurious facet)."""
    return await asked_key_any_value(tools, task, spurious=True)


async def courses_unnamed_off(tools: Any, task: AgentTask) -> str:
    """Every other series' course unnamed and a quarter off (1121's door)."""
    return await memory_courses(tools, task, named=False)


FIX169: dict[str, tuple[Any, str, str]] = {
    "asked_key_any_value": (
        asked_key_any_value,
        "the prompt's config map's first asked key set to a value never asked",
        "unmentioned keys kept (1120's door: a write that changes the data)",
    ),
    "asked_key_twice": (
        asked_key_twice,
        "asked_key_any_value's patch, made twice",
        "unmentioned keys kept, a spurious write (1120's door with the repeat facet)",
    ),
    "courses_unnamed_off": (
        courses_unnamed_off,
        "every memory series' course, the others as 'Its memory ...', a quarter off",
        "memory trend interpretation (1121's door: no owner named, no value tied)",
    ),
}
