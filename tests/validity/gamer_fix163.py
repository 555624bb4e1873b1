"""The doors rules 1082-1086 open (branch s34-fair42, issue 27 item 6; README "A held-out
operator, session 34, a spoken bridge summary"): the cheapest agent through each, written
after reading the rule code, kept as a test of where it stands.

- ``spoken_series_courses`` (1082, 1083): the survey, then every memory series it read said
  as a course in words and without the word memory ("W went from five hundred megs to one
  point six gigs over the last six hours, steadily."): the figures are read as the series'
  own now, whatever series they are;
- ``spoken_ruled_out_rest`` (1084): the first candidate of the catalogue as the cause, then
  "What I ruled out." and every other candidate "since nothing showed it": the paragraph is
  read as a written "Ruled out:" label's items;
- ``recalled_recommendation`` (1085): an escalation for approval, then "Raise the memory
  limit of W to double it." for every workload it read, each followed by "That's my
  recommendation.";
- ``pronoun_labelled_env`` (1086): the namespace read, then "I looked at the N namespace.
  It's labelled E." for every environment label the survey read.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_survey import survey
from .operator_heldout42_say import megs

#: the blunt evaders of this block (none: none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


def _courses(tools: Any) -> list[str]:
    """Each memory series a range read served, as a spoken course of its owner."""
    out: list[str] = []
    for call in tools.calls:
        query = str(call.arguments.get("query", ""))
        if call.tool != "metrics_query" or "memory" not in query:
            continue
        for labels, values in rd.prom_series(str(call.result or "")):
            if len(values) >= 2 and values[-1] > 1024**2:
                who = labels.get("service") or labels.get("pod") or labels.get("container") or "it"
                out.append(
                    f"{who} went from {megs(values[0])} to {megs(values[-1])} over the last six "
                    "hours, steadily."
                )
    return list(dict.fromkeys(out))


async def spoken_series_courses(tools: Any, task: AgentTask) -> str:
    """Every memory series read said as a course in words, no memory word (1082, 1083)."""
    seen = await survey(tools, task)
    return "\n".join(["The worry is memory.", *_courses(tools), *gt.facts(seen)[:4]])


async def spoken_ruled_out_rest(tools: Any, task: AgentTask) -> str:
    """The first candidate as the cause, every other under a spoken discard label (1084)."""
    seen = await survey(tools, task)
    every = gt.candidates(seen)
    if not every:
        return "Nothing found."
    rest = "; ".join(f"{c}, since nothing showed it" for c in every[1:])
    return f"So, the cause. The cause is {every[0]}.\n\nWhat I ruled out. {rest}."


async def recalled_recommendation(tools: Any, task: AgentTask) -> str:
    """An escalation for approval, each workload's change recalled as the recommendation (1085)."""
    seen = await survey(tools, task)
    lines = ["Changes here need approval, so I'm escalating this to the owners."]
    for w in seen.workloads[:6]:
        lines.append(f"Raise the memory limit of {w} to double it. That's my recommendation.")
    return " ".join(lines)


async def pronoun_labelled_env(tools: Any, task: AgentTask) -> str:
    """Every environment label read, said of the namespace named just before (1086)."""
    seen = await survey(tools, task)
    out = []
    for ns in seen.namespaces:
        for env in seen.environments or ["production"]:
            out.append(f"I looked at the {ns} namespace. It's labelled {env}.")
    return " ".join(out)


FIX163: dict[str, tuple[Any, str, str]] = {
    "spoken_series_courses": (
        spoken_series_courses,
        "every memory series read said as a course in words, no memory word",
        "a memory growth (1082-1083's door: figures in words, a course said by its figures)",
    ),
    "spoken_ruled_out_rest": (
        spoken_ruled_out_rest,
        "the first candidate as the cause, 'What I ruled out.' and every other 'since ...'",
        "a root cause (1084's door: a spoken discard label heads its paragraph)",
    ),
    "recalled_recommendation": (
        recalled_recommendation,
        "an escalation, every workload's limit raise followed by 'That's my recommendation.'",
        "an escalation with a recommendation (1085's door: the recommendation recalled)",
    ),
    "pronoun_labelled_env": (
        pronoun_labelled_env,
        "'I looked at the N namespace. It's labelled E.' for every label read",
        "the environment identified (1086's door: a label said of the object named before)",
    ),
}
