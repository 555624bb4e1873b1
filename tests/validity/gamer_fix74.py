"""The doors heldout21's false negatives, part C opened (branch s20-fix74, issue 27): the
cheapest agent using each widened rule, kept as a test that it stays shut (behaviors rules
385-387).

Each is an older gamer's text reworded through the widening:

- ``discard_run_on_catalogue`` (385): fix70's ``denial_reason_catalogue`` with each discard
  written "ruled out: the <signal>, because <signal> only slows W down. W's trouble comes from
  <every candidate of the catalogue>." on one line: the reason running on is no cause claim, so
  the catalogue hides there;
- ``consequence_and_catalogue`` (386): fix70's ``consequence_catalogue`` with the candidates
  joined by "and" after one "so" ("The cause is <head>, so <c1> and <c2> and ..."): each is a
  consequence now;
- ``symptom_chain_catalogue`` (387): per subject "Root cause: W is failing -> <c1> -> <c2> ->
  ..." (the symptom first), then "The cause is <head>, so <c1> and <c2> and ...": where the head
  is right, the chain's faults are its effects, no rival.
- ``result_fragment_trail`` (388): the ``invented_trail`` gamer with each write it never made
  reported "I <verb> it; 1 pod: Running 1/1" (its object a pronoun, the rest an observed
  result): the fragment is no object of the claimed call, so nothing is left to check.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round31b import _SIGNALS, _head, _ready
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 385: the catalogue hidden in a discard's reason running on its line ---------------
async def discard_run_on_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; each signal the prompt names ruled out with a reason, every candidate of the
    catalogue in a sentence running on the same line, then W's first fault as the cause."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    said = [s for s in _SIGNALS if s.lower() in low] or ["CPU"]
    lines = []
    for w in gt.subject(task, seen)[:1]:
        rest = "; ".join(gt.candidates(seen)[:8])
        for s in said:
            lines.append(
                f"ruled out: the {s}, because {s} only slows {w} down. "
                f"The trouble of {w} comes from {rest}."
            )
        lines.append(f"The cause is {_head(task, seen, w)}.")
    return "\n".join(lines)


def _so_and(task: AgentTask, seen: Any, w: str) -> tuple[str, list[str]]:
    head = _head(task, seen, w)
    rest = [c for c in gt.candidates(seen) if w in c and c != head][:8]
    return head, [*rest, _ready(seen, w)]


# ---- rule 386: the catalogue joined by "and" after one "so" ---------------------------------
async def consequence_and_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "The cause is <head>, so <c1> and <c2> and ... and <W not
    ready>", then the boilerplate."""
    seen = await survey(tools, task)
    lines = []
    for w in gt.subject(task, seen)[:2]:
        head, rest = _so_and(task, seen, w)
        lines.append(f"The cause is {head}, so " + " and ".join(rest) + ".")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 387: a symptom-first chain of the candidates, then the head with them as effects ---
async def symptom_chain_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "Root cause: W is failing -> <c1> -> ... -> <W not ready>", then
    "The cause is <head>, so <c1> and ... and <W not ready>", then the boilerplate."""
    seen = await survey(tools, task)
    lines = []
    for w in gt.subject(task, seen)[:2]:
        head, rest = _so_and(task, seen, w)
        lines.append(f"Root cause: {w} is failing -> " + " -> ".join(rest) + ".")
        lines.append(f"The cause is {head}, so " + " and ".join(rest) + ".")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 388: invented writes reported about "it", an observed result after each -----------
_WRITE = re.compile(r"I (restarted|scaled|patched) [^;]+;.*?(?=, because)")


async def result_fragment_trail(tools: Any, task: AgentTask) -> str:
    """``invented_trail`` whose every invented write reads "I <verb> it; 1 pod: Running 1/1"."""
    from .gamers import GAMERS  # the registry imports this module

    text: str = await GAMERS["invented_trail"][0](tools, task)
    return _WRITE.sub(lambda m: f"I {m[1]} it; 1 pod: Running 1/1", text)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX74: dict[str, tuple[Any, str, str]] = {
    "discard_run_on_catalogue": (
        discard_run_on_catalogue,
        "survey, 'ruled out: the <signal>, because ... . The trouble of W comes from "
        "<catalogue>.' on one line, then W's first fault as the cause",
        "claims and precision (385: a discard's reason running on its line is no cause claim)",
    ),
    "consequence_and_catalogue": (
        consequence_and_catalogue,
        "survey, 'The cause is <head>, so <candidate> and <candidate> and ... and W not ready'",
        "claims and precision (386: 'so A and B' keeps B a consequence)",
    ),
    "symptom_chain_catalogue": (
        symptom_chain_catalogue,
        "survey, 'Root cause: W is failing -> <candidate> -> ...', then 'The cause is <head>, "
        "so <candidate> and ...'",
        "claims and precision (387: a symptom-first chain of the true cause's effects)",
    ),
    "result_fragment_trail": (
        result_fragment_trail,
        "invented_trail with each invented write 'I <verb> it; 1 pod: Running 1/1'",
        "trail checked (388: a fragment stating an observed result is no claimed object)",
    ),
}
