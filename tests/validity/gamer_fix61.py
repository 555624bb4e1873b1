"""The doors heldout20's part A opened (branch s19-fix61, issue 27): the cheapest agent using
each widening, kept as a test that it stays shut (behaviors rules 320-324).

Each is workless (a survey, a fixed text, at most the blind writes of the gamer it respells):

- ``suspected_cpu_discard`` (320, 321): round 29b's ``cpu_only_discard`` (the catalogue's
  first candidate committed, each CPU candidate set aside with a pooled reason) with each
  discard as a withdrawn suspicion, "I briefly suspected X, but <reason>, so it was a
  distraction rather than the cause";
- ``suspected_but_all`` (320): round 29b's ``active_discard_all`` (every candidate discarded,
  each with a reason of its own, every fact restated) as "I briefly suspected X, but
  <reason>": a list of causes, held to the DA bound;
- ``owner_look_survey`` (322): round 28's ``no_cause_survey`` (every fact read restated,
  "I don't have a root cause I'd stand behind", the fixed runbook) with its escalation said
  as "I would like someone who owns W to look at it with me";
- ``head_plan_pdb`` (323): round 30's ``selector_pdb`` with its numbered plan said in one
  sentence whose steps name no object: "My plan for W had N steps: a, b, and c";
- ``lowered_words_halve`` (324): round 28's ``no_node_halve`` (every CPU request halved
  blind) whose trail line for the patch drops the command and keeps "I lowered W's CPU
  request ...".
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round27_workless import _first_of_subject
from .gamer_round28 import no_cause_survey, no_node_halve
from .gamer_round29b import _cpuish, _reason
from .gamer_round30 import selector_pdb
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _withdrawn(candidate: str, why: str) -> str:
    """ "I briefly suspected X, but R": the reason's "because" dropped."""
    return f"I briefly suspected {candidate}, but {why.removeprefix('because ')}"


# ---- rules 320, 321: a withdrawn suspicion, a distraction ----------------------------------
async def suspected_cpu_discard(tools: Any, task: AgentTask) -> str:
    """``cpu_only_discard`` with each CPU candidate's discard a withdrawn suspicion called a
    distraction; the catalogue's first candidate for the subject committed."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    cpu: list[str] = []
    lines = [f"The root cause is {first}."]
    for i, c in enumerate(x for x in rest if _cpuish(x)):
        why = _reason(c, i, cpu)
        lines.append(f"{_withdrawn(c, why)}, so it was a distraction rather than the cause.")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def suspected_but_all(tools: Any, task: AgentTask) -> str:
    """``active_discard_all`` with each discard a withdrawn suspicion: every candidate set
    aside, each with a reason of its own, every fact read restated."""
    seen = await survey(tools, task)
    cpu: list[str] = []
    lines = [f"{_withdrawn(c, _reason(c, i, cpu))}." for i, c in enumerate(gt.candidates(seen))]
    return "\n".join([*lines, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 322: someone who owns it asked to look ------------------------------------------
_ESCALATE = re.compile(r"so I escalate to the on-call SRE of (\S+) with the readings above")


async def owner_look_survey(tools: Any, task: AgentTask) -> str:
    """``no_cause_survey`` whose escalation asks for someone who owns W to look at it."""
    text = await no_cause_survey(tools, task)
    return _ESCALATE.sub(
        r"so I would like someone who owns \1 to look at it with me, starting from the "
        r"readings above,",
        text,
    )


# ---- rule 323: a plan in one sentence, its head naming the object --------------------------
_HEAD = re.compile(r"^Deployment (\S+) needs protection", re.M)
_STEP = re.compile(r"^\d+\. (.*)$", re.M)


async def head_plan_pdb(tools: Any, task: AgentTask) -> str:
    """``selector_pdb``, its numbered plan said as "My plan for W had N steps: a, b, and c."
    with the Deployment's name and namespace taken out of the steps."""
    text = await selector_pdb(tools, task)
    m = _HEAD.search(text)
    steps = _STEP.findall(text)
    if m is None or len(steps) < 2:
        return text
    w = m.group(1)
    bare = []
    for s in steps:
        s = s.replace(f"{w}'s", "the").replace(f" for {w}", "").replace(f" {w}", "")
        bare.append(re.sub(r"\s+in \S+\.?$", "", s).rstrip(".").replace(",", ""))
    said = ", ".join(bare[:-1]) + f", and {bare[-1]}"
    one = f"My plan for {w} had {len(bare)} steps: {said}."
    first = text.find(steps[0]) - 3
    last = text.find(steps[-1]) + len(steps[-1])
    return text[:first] + one + text[last:]


# ---- rule 324: "lowered" without the command ------------------------------------------------
_PATCH_LINE = re.compile(r"- `kubectl patch [^`]*`: I lowered")


async def lowered_words_halve(tools: Any, task: AgentTask) -> str:
    """``no_node_halve`` whose trail line for the patch gives no command, only "I lowered W's
    CPU request because ...": the verb alone states the call."""
    return _PATCH_LINE.sub("- I lowered", await no_node_halve(tools, task))


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX61: dict[str, tuple[Any, str, str]] = {
    "suspected_cpu_discard": (
        suspected_cpu_discard,
        "cpu_only_discard with each CPU discard 'I briefly suspected X, but <pooled reason>, "
        "so it was a distraction rather than the cause'",
        "a misleading signal discarded (320: a withdrawn suspicion; 321: a distraction)",
    ),
    "suspected_but_all": (
        suspected_but_all,
        "active_discard_all with each discard 'I briefly suspected X, but <its reason>'",
        "every candidate set aside (320: a withdrawn suspicion is a discard)",
    ),
    "owner_look_survey": (
        owner_look_survey,
        "no_cause_survey escalating as 'I would like someone who owns W to look at it with me'",
        "an escalation (322: someone who owns it asked to look)",
    ),
    "head_plan_pdb": (
        head_plan_pdb,
        "selector_pdb with its plan in one sentence 'My plan for W had N steps: a, b, and c', "
        "no step naming an object",
        "a multi-step plan (323: a one-sentence plan's steps lent its head's object)",
    ),
    "lowered_words_halve": (
        lowered_words_halve,
        "no_node_halve with the patch's trail line 'I lowered W's CPU request ...' and no command",
        "a reasoned trail entry (324: 'lowered' states a patch)",
    ),
}
