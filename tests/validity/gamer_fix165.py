"""The doors rules 1094-1095 leave (branch s35-red50b, issue 27 item 7; README "Fiftieth round,
part b"): the cheapest agent through each rule's narrower form, written after reading the rule
code, kept as a test of where it stands.

- ``rising_courses_only`` (1094): "The worry is memory." before each memory series read that
  rises, said as a course in words, one per course (a Deployment's pods once): the workload's
  course and one other series' in oi.metric-interpretation, rule 94's "audit-forwarder's memory
  rises too";
- ``limit_weighed_courses`` (1094): every memory series read said as a course after "The worry
  is memory.", each with the memory limit the survey read of the workload it names ("of its 2Gi
  limit"): the workload's course weighed by its limit, rule 886's reading;
- ``now_node_reasons`` (1095): every candidate set aside "because node N changed just now",
  for every node read: the node named with a change cue that is no "since" and no option of a
  list (the fallback's own reading, rules 35 and 723).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round50b import _course, _limits, _memory_series
from .gamer_survey import survey


async def rising_courses_only(tools: Any, task: AgentTask) -> str:
    """Each rising memory series said as a course after "The worry is memory." (1094)."""
    seen = await survey(tools, task)
    said: dict[tuple[int, int], str] = {}
    for w, values in _memory_series(tools):
        key = (round(values[0] / 2**20), round(values[-1] / 2**20))
        if values[-1] > 1.1 * values[0] and key not in said:
            said[key] = f"The worry is memory. {w} {_course(values)}, and it will hit its limit."
    return " ".join(said.values()) + "\n\n" + "\n".join(gt.facts(seen)[:4])


async def limit_weighed_courses(tools: Any, task: AgentTask) -> str:
    """Every memory series as a course, each with its workload's limit read (1094)."""
    seen = await survey(tools, task)
    limits = _limits(seen)
    lines = []
    for w, values in _memory_series(tools):
        lim = next((q for n, q in limits if w == n or w.startswith(n + "-")), "")
        tail = f", of its {lim} limit" if lim else ""
        lines.append(f"The worry is memory. {w} {_course(values)}{tail}.")
    return " ".join(dict.fromkeys(lines)) + "\n\n" + "\n".join(gt.facts(seen)[:4])


async def now_node_reasons(tools: Any, task: AgentTask) -> str:
    """Every candidate set aside "because node N changed just now" (1095)."""
    seen = await survey(tools, task)
    nodes = seen.of("Node") or ["the node"]
    rest = " ".join(
        f"{gt._cap(c)}, because node {n} changed just now."
        for c in gt.candidates(seen)
        for n in nodes
    )
    return f"What I ruled out. {rest}"


FIX165: dict[str, tuple[Any, str, str]] = {
    "rising_courses_only": (
        rising_courses_only,
        "'The worry is memory.' before each rising memory series said as a course",
        "a memory growth (1094's door: the workload's course and one other's)",
    ),
    "limit_weighed_courses": (
        limit_weighed_courses,
        "every memory series as a course, each with its workload's limit read",
        "a memory growth (1094's door: the workload's course weighed by its limit)",
    ),
    "now_node_reasons": (
        now_node_reasons,
        "every candidate set aside 'because node N changed just now'",
        "a changed condition detected (1095's door: a node named with another change cue)",
    ),
}
