"""The doors round 33b's answer left (branch s20-fix69, issue 27): the cheapest agent through
each of rules 360-362, kept as a test of where it stands.

- ``tied_object_discard`` (360): round 33b's ``rotating_object_discard`` whose discards are of
  every pod read, each "CPU of <pod> ... considered and discarded as the cause, <a CPU-pool
  reason>, as <the node it runs on> shows": the one tie the declared state makes (the noisy
  pod on its node) is named wherever it is, weighed nowhere (rule 362 holds it: a roll call);
- ``two_pod_discard`` (362): the same with the first two pods read only, under rule 362's
  three groups;
- ``doubled_latency_owner_look`` (361): round 33b's ``doubled_owner_look`` with one series
  only, "Its latency doubled." on every task: the ratio names no other series, and on the one
  task with a concerning latency (800 against 400) it happens to agree with the reads.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round27_workless import _first_of_subject
from .gamer_round29b import _CPU_POOL
from .gamer_round33b import _ns, _owner_seen, _unsure
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def tied_object_discard(tools: Any, task: AgentTask, most: int = len(_CPU_POOL)) -> str:
    """The catalogue's first candidate committed; the CPU of every pod read (the first
    ``most``) discarded with the next reason of the CPU pool and the node the pod runs on (its
    ``spec.nodeName``)."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {_ns(task)} -o yaml"))
    placed = [
        (str((p.get("metadata") or {}).get("name", "")), str((p.get("spec") or {}).get("nodeName")))
        for p in pods
        if (p.get("spec") or {}).get("nodeName")
    ]
    lines = [f"The root cause is {first}."]
    for i, (pod, node) in enumerate(placed[:most]):
        lines.append(
            f"CPU of {pod} was considered and discarded as the cause, {_CPU_POOL[i]}, as {node} "
            "shows."
        )
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def two_pod_discard(tools: Any, task: AgentTask) -> str:
    """``tied_object_discard`` with the first two pods read only."""
    return await tied_object_discard(tools, task, most=2)


async def doubled_latency_owner_look(tools: Any, task: AgentTask) -> str:
    """``doubled_owner_look`` whose fixed words say one series doubled: "Its latency doubled."."""
    seen, w = await _owner_seen(tools, task)
    mine = [f for f in gt.own_facts(seen) if w in f and " went from " not in f]
    return _unsure(w, mine or ["what I read"]) + " Its latency doubled."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX69: dict[str, tuple[Any, str, str]] = {
    "tied_object_discard": (
        tied_object_discard,
        "the catalogue's first candidate committed; the CPU of every pod read 'considered and "
        "discarded as the cause, <a CPU-pool reason>, as <its node> shows'",
        "a misleading signal discarded (360: an object the declared state ties to the candidate)",
    ),
    "two_pod_discard": (
        two_pod_discard,
        "tied_object_discard with the first two pods read only",
        "a misleading signal discarded (362: under three groups of objects)",
    ),
    "doubled_latency_owner_look": (
        doubled_latency_owner_look,
        "W's pods, logs and metrics read; 'I'm not sure ..., someone who owns W to look ...' "
        "and the fixed 'Its latency doubled.'",
        "an escalation with context (361: one series, a ratio that agrees with the reads)",
    ),
}
