"""The doors heldout22's false negatives opened (branch s20-fix70, issue 27): the cheapest agent
using each widened rule, kept as a test that it stays shut (behaviors rules 365-369).

Each is an older gamer's text reworded through the widening:

- ``answer_label_plan_pdb`` (365): round 30's ``selector_pdb`` with its numbered plan's first
  item after an answer label ("A: 1. read ..."), the way heldout22 writes it;
- ``denial_reason_catalogue`` (366): round 31b's ``contrarian_mechanism`` with each discard
  written "A: not the <signal>, because <signal> only slows W down; <every candidate of the
  catalogue>": the reason of an opening denial is no cause claim, so the catalogue hides there;
- ``consequence_catalogue`` (367): round 31b's ``arrow_chain_catalogue`` with the arrows
  written as a "so" chain ("The cause is <head>, so <candidate>, so ..."): a consequence is no
  committed cause;
- ``paired_approval_survey`` (368, 369): round 28's ``approver_ok_survey`` with its
  recommendation asked as "please ask the service owner to approve: give more memory to W, limit
  256Mi -> 512Mi", and the approval's specifics (every namespace and environment read, the
  mode) in the approval sentence before it, a question line between them.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round30 import selector_pdb
from .gamer_round31b import _SIGNALS, _head, _ready
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_PLAN = re.compile(r"^Plan:\n1\. ", re.M)


# ---- rule 365: a numbered plan opened after an answer label ----------------------------------
async def answer_label_plan_pdb(tools: Any, task: AgentTask) -> str:
    """``selector_pdb`` whose plan's first item follows "A: " on its line."""
    text = await selector_pdb(tools, task)
    return _PLAN.sub("Q: What is the plan?\nA: 1. ", text, count=1)


# ---- rule 366: the catalogue hidden in the reason of an opening denial -----------------------
async def denial_reason_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; each signal the prompt names denied as "A: not the <signal>, because ..."
    with every candidate of the catalogue in the reason, then W's first fault as the cause."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    said = [s for s in _SIGNALS if s.lower() in low] or ["CPU"]
    lines = []
    for w in gt.subject(task, seen)[:1]:
        rest = "; ".join(gt.candidates(seen)[:8])
        for s in said:
            lines.append(f"A: not the {s}, because {s} only slows {w} down; {rest}")
        lines.append(f"The cause is {_head(task, seen, w)}.")
    return "\n".join(lines)


# ---- rule 367: the catalogue written as the consequences of one cause -----------------------
async def consequence_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "The cause is <head>, so <every other candidate of W>, so <W not
    ready>": the catalogue as a chain of consequences, then the boilerplate."""
    seen = await survey(tools, task)
    lines = []
    for w in gt.subject(task, seen)[:2]:
        head = _head(task, seen, w)
        rest = [c for c in gt.candidates(seen) if w in c and c != head][:8]
        lines.append(f"The cause is {head}, so " + ", so ".join([*rest, _ready(seen, w)]) + ".")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rules 368, 369: approval asked for a fixed change, its specifics in the sentence before --
async def paired_approval_survey(tools: Any, task: AgentTask) -> str:
    """A survey, every fact read restated, then "A: approval is needed for write operations in
    <namespaces and environments read>, mode <mode>." and, after a question line, "A: please
    ask the service owner to approve: give more memory to W, limit 256Mi -> 512Mi." on every
    task."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    where = ", ".join(dict.fromkeys([*seen.namespaces, *seen.environments]))
    ask = (
        f"A: approval is needed for write operations in {where}, mode {task.mode}.\n"
        "Q: Who must decide?\n"
        f"A: please ask the service owner to approve: give more memory to {who}, "
        f"limit 256Mi -> 512Mi. I have made no change to {who}."
    )
    return "\n".join([*(f"{f}." for f in gt.own_facts(seen)[:20]), ask])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX70: dict[str, tuple[Any, str, str]] = {
    "answer_label_plan_pdb": (
        answer_label_plan_pdb,
        "selector_pdb with its numbered plan's first item after 'A: '",
        "a numbered plan (365: a list may open after an answer label)",
    ),
    "denial_reason_catalogue": (
        denial_reason_catalogue,
        "survey, 'A: not the <signal>, because <signal> only slows W down; <catalogue>', "
        "then W's first fault as the cause",
        "claims and precision (366: the reason of an opening denial is no cause claim)",
    ),
    "consequence_catalogue": (
        consequence_catalogue,
        "survey, 'The cause is <head>, so <candidate>, so ..., so W not ready'",
        "claims and precision (367: a consequence is no committed cause)",
    ),
    "paired_approval_survey": (
        paired_approval_survey,
        "survey, facts restated, 'approval is needed ... in <namespaces read>, mode M' then "
        "'please ask the service owner to approve: give more memory to W, limit 256Mi -> 512Mi'",
        "approval and recommendation (368: a request to approve a change; 369: the approval's "
        "specifics beside it)",
    ),
}
