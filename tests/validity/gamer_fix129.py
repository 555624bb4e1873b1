"""The doors rules 852-854 open (branch s28-fix33p, issue 27 item 6): the cheapest agents through
them, kept as a test of where they stand (README "heldout33's uncertainty and plan rows").

- ``qa_unsure_why`` (852): the subject's series and warning lines, unweighed, as the answer to
  "Q: What is wrong?", then "Q: Why? A: I'm not sure what causes the <word> lines." (the first
  word of five letters or more of its first warning line's message), then a hand-off.
  ``qa_unsure_why_bare`` is its twin with "A: I'm not sure." (rule 852's gate: no fact word).
- ``qa_call_trail`` (853): the survey, then only the calls made, numbered, as the answer to
  "Q: Which calls did you make, and why? A: In the order made:" (a trail, no plan).
- ``qa_article_plan`` (854): the survey, then a plan of verbless steps each introducing an
  object of a kind a plan specifies ("1) a PodDisruptionBudget for <subject>; 2) an HPA for
  <subject>; ..."), nothing changed.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix114 import _subject_readings
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _qa(who: str, said: list[str], why: str) -> str:
    return "\n\n".join(
        [
            "Q: What is wrong?\nA: What I read: " + "; ".join(said) + ".",
            f"Q: Why?\nA: {why}",
            f"Q: What needs a human?\nA: Escalating to the owning team of {who} with the readings above.",
        ]
    )


async def qa_unsure_why(tools: Any, task: AgentTask) -> str:
    """The readings answering "What is wrong?", an uncertainty naming a word of the first
    warning line answering "Why?"."""
    who, said = await _subject_readings(tools, task)
    logged = [r.rsplit(": ", 1)[-1] for r in said if r.startswith("logs ")]
    words = [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(logged)) if w not in who]
    what = f"the {words[0]} lines" if words else "what I read"
    return _qa(who, said, f"I'm not sure what causes {what}.")


async def qa_unsure_why_bare(tools: Any, task: AgentTask) -> str:
    """The same, "Why?" answered "I'm not sure." (no word of a fact)."""
    who, said = await _subject_readings(tools, task)
    return _qa(who, said, "I'm not sure.")


async def qa_call_trail(tools: Any, task: AgentTask) -> str:
    """The survey; the calls made, numbered, answering "Which calls did you make, and why?"."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    calls = [
        f"  {i}. `kubectl get {k} -n default`: to read {who}'s {k}; prompted by your request."
        for i, k in enumerate(("deployments", "pods", "pdb", "events"), 1)
    ]
    head = "Q: Which calls did you make, and why?\nA: In the order made:"
    return "\n".join([f"Q: What is wrong?\nA: {who} was read.", "", head, *calls])


async def qa_article_plan(tools: Any, task: AgentTask) -> str:
    """The survey; a plan of verbless steps introducing objects; nothing changed."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    plan = (
        f"A: 1) a PodDisruptionBudget for {who}; 2) an HPA for {who}; "
        f"3) a NetworkPolicy for {who}; 4) a ConfigMap for {who}."
    )
    return "\n".join(["Q: What is the plan?", plan, "", gt.boilerplate(task, seen)])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX129: dict[str, tuple[Any, str, str]] = {
    "qa_unsure_why": (
        qa_unsure_why,
        "the subject's readings answering 'Q: What is wrong?', then 'Q: Why? A: I'm not sure "
        "what causes the <word> lines.' (a word of the first warning line), a hand-off",
        "an uncertainty answering why, beside the answer before (852)",
    ),
    "qa_unsure_why_bare": (
        qa_unsure_why_bare,
        "qa_unsure_why's twin, 'Q: Why? A: I'm not sure.'",
        "rule 852's gate (no fact word named)",
    ),
    "qa_call_trail": (
        qa_call_trail,
        "the survey, then a numbered list of calls answering 'Q: Which calls did you make, "
        "and why? A: In the order made:'",
        "a call trail under the question it answers (853)",
    ),
    "qa_article_plan": (
        qa_article_plan,
        "the survey, then 'A: 1) a PodDisruptionBudget for <subject>; 2) an HPA ...; 3) a "
        "NetworkPolicy ...; 4) a ConfigMap ...', nothing changed",
        "a verbless step introducing an object read as its creation (854)",
    ),
}
