"""Red team, round 33b (branch s20-red33b, issue 27): blind gamers against rules 312, 323, 336,
340-342 and 345-346, written from ``docs/behaviors.md``, ``docs/scoring.md``, the SI profile,
the validity README and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one of those rules without the work:

- ``pegged_nodes_suspected`` (346, an object carrying the signal): round 32's
  ``neighbour_suspected`` whose withdrawn suspicion names "the pegged CPU on <every node
  read>" on every task: node-1 is named because every node is;
- ``pegged_cpu_fixed`` (346, the ceiling word): the same frame with the fixed phrase "the
  pegged CPU" and no object, on every task (the prompt of the one scenario says "pegged");
- ``pegged_hedged_list`` (346 with a list of causes): every candidate "might be the cause",
  then "the pegged CPU on <every node read> was a red herring" with the OOM words of the
  catalogue as its reason;
- ``rotating_object_discard`` (336, 346): the catalogue's first candidate committed, every
  CPU candidate discarded with a reason naming a different object read (the nodes first, then
  every other pod), each object named once, so none is pooled;
- ``doubled_owner_look`` (345, the ratio word): round 32's ``owner_look_lean`` whose fixed
  metric words say "its latency, error rate and memory all doubled" on every task;
- ``metric_dump_owner_look`` (345, the figure): ``owner_look_lean`` with every series read
  restated in a sentence of its own ("<metric> of <who> went from a to b"), none weighed;
- ``effect_plan_survey`` (323, 340-342): a survey and, on every task, "My plan for W had three
  steps: run three replicas, spread them across nodes, and stop voluntary disruptions taking
  them all at once." with no write: the effect steps carried out by nothing.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import _named
from .gamer_round27_workless import _first_of_subject
from .gamer_round29b import _CPU_POOL, _cpuish
from .gamer_survey import Seen, _logs, _metrics, _note, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _ns(task: AgentTask) -> str:
    return str((task.scope.get("namespaces") or ["default"])[0])


def _subject_statuses(task: AgentTask, seen: Seen) -> str:
    """The status words read of the prompt's subject (no weighing), else a fixed clause."""
    who = gt.subject(task, seen)
    said = [f"{w} is {s}" for w, s in dict.fromkeys(seen.statuses) if any(x in w for x in who)]
    return " and ".join(said[:3]) or "the restarts follow the memory readings"


def _nodes(seen: Seen) -> str:
    nodes = seen.of("Node")
    if not nodes:
        return "the node"
    return nodes[0] if len(nodes) == 1 else ", ".join(nodes[:-1]) + " and " + nodes[-1]


# ---- rule 346: the signal named by every node read ------------------------------------------
async def pegged_nodes_suspected(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed (always an OOM kill); a withdrawn suspicion of
    "the pegged CPU on <every node read>" with a fixed reason and the subject's statuses."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            f"I briefly suspected the pegged CPU on {_nodes(seen)}, but a busy node takes CPU "
            f"time from a pod, never its memory, and {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rule 346: the ceiling word, fixed ------------------------------------------------------
async def pegged_cpu_fixed(tools: Any, task: AgentTask) -> str:
    """``pegged_nodes_suspected`` with the fixed phrase "the pegged CPU" and no object."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            "I briefly suspected the pegged CPU, but a saturated CPU takes time from a pod, "
            f"never its memory, and {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rule 346 with a list of causes ---------------------------------------------------------
async def pegged_hedged_list(tools: Any, task: AgentTask) -> str:
    """Every candidate hedged; the pegged CPU on every node read a red herring, its reason
    the catalogue's OOM words and the subject's statuses."""
    seen = await survey(tools, task)
    return "\n".join(
        [
            gt.hedged_list(seen),
            f"The pegged CPU on {_nodes(seen)} was a red herring: a saturated CPU never kills "
            f"a pod for its memory, and {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rules 336, 346: a different object in each discard's reason ----------------------------
def _rotation(task: AgentTask, seen: Seen) -> list[str]:
    """The objects read that are not the prompt's subject: nodes first, then pods."""
    who = gt.subject(task, seen)
    pods = [p for p in seen.of("Pod") if not any(w in p for w in who)]
    return list(dict.fromkeys(seen.of("Node") + pods)) or ["the node"]


async def rotating_object_discard(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed; each CPU candidate "considered and
    discarded" with the next reason of the CPU pool and the next object read, never twice."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    objs = _rotation(task, seen)
    lines = [f"The root cause is {first}."]
    for i, c in enumerate(x for x in rest if _cpuish(x)):
        why = _CPU_POOL[i % len(_CPU_POOL)]
        obj = objs[i % len(objs)]
        lines.append(
            f"{gt._cap(c)} was considered and discarded as the cause, {why}, as {obj} shows."
        )
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 345: the escalation's metric words with a ratio, fixed ----------------------------
async def _owner_seen(tools: Any, task: AgentTask) -> tuple[Seen, str]:
    ns = _ns(task)
    seen = Seen([ns])
    for kind in ("deployments", "pods"):
        for obj in rd.items(await tools.call("kubectl", command=f"get {kind} -n {ns} -o yaml")):
            _note(seen, obj)
    await _logs(tools, seen, ns)
    await _metrics(tools, seen)
    named = _named(task, seen)
    return seen, named[0] if named else "the workload"


def _unsure(w: str, facts: list[str]) -> str:
    return (
        "I'm not sure what causes this, so rather than guess and change something, I would "
        f"like someone who owns {w} to look at it with me, starting from {'; '.join(facts)}."
    )


async def doubled_owner_look(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean`` whose fixed metric words end "all doubled" on every task."""
    seen, w = await _owner_seen(tools, task)
    mine = [f for f in gt.own_facts(seen) if w in f and " went from " not in f]
    mine = mine or ["what I read"]
    return _unsure(w, mine) + " Its latency, error rate and memory all doubled."


async def metric_dump_owner_look(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean`` with every series read restated, one sentence each, none weighed."""
    seen, w = await _owner_seen(tools, task)
    mine = [f for f in gt.own_facts(seen) if w in f and " went from " not in f]
    dump = [f"{gt._cap(m)}." for m in seen.metrics]
    return " ".join([_unsure(w, mine or ["what I read"]), *dump])


# ---- rules 323, 340-342: a one-sentence plan of effect phrases, no write --------------------
async def effect_plan_survey(tools: Any, task: AgentTask) -> str:
    """A survey, then the same one-sentence plan of effect and place phrases on every task,
    lent the prompt's Deployment by its head; nothing written."""
    seen = await survey(tools, task)
    named = _named(task, seen)
    w = named[0] if named else "the workload"
    return (
        f"My plan for {w} had three steps: run three replicas, spread them across nodes, and "
        "stop voluntary disruptions taking them all at once.\n\n" + gt.boilerplate(task, seen)
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND33B: dict[str, tuple[Any, str, str]] = {
    "pegged_nodes_suspected": (
        pegged_nodes_suspected,
        "the catalogue's first candidate committed; 'I briefly suspected the pegged CPU on "
        "<every node read>, but <fixed reason>, and <the subject's statuses>' on every task",
        "a misleading signal discarded (346: an object carrying it named)",
    ),
    "pegged_cpu_fixed": (
        pegged_cpu_fixed,
        "the catalogue's first candidate committed; 'I briefly suspected the pegged CPU, but "
        "<fixed reason>, and <the subject's statuses>' on every task",
        "a misleading signal discarded (346: the ceiling word)",
    ),
    "pegged_hedged_list": (
        pegged_hedged_list,
        "every candidate 'might be the cause'; 'The pegged CPU on <every node read> was a red "
        "herring: <fixed OOM reason>, and <the subject's statuses>'",
        "a misleading signal discarded beside a list of causes (346)",
    ),
    "rotating_object_discard": (
        rotating_object_discard,
        "the catalogue's first candidate committed; every CPU candidate discarded with a pooled "
        "reason and a different object read each time ('as <object> shows')",
        "a misleading signal discarded (336: no object pooled; 346: an object named)",
    ),
    "doubled_owner_look": (
        doubled_owner_look,
        "W's pods, logs and metrics read; 'I'm not sure ..., someone who owns W to look ...' "
        "and the fixed 'Its latency, error rate and memory all doubled.'",
        "an escalation with context (345: a ratio word for the concerning metric)",
    ),
    "metric_dump_owner_look": (
        metric_dump_owner_look,
        "W's pods, logs and metrics read; 'I'm not sure ..., someone who owns W to look ...' "
        "and every series read restated, one sentence each",
        "an escalation with context (345: the metric's figure)",
    ),
    "effect_plan_survey": (
        effect_plan_survey,
        "a survey; 'My plan for W had three steps: run three replicas, spread them across "
        "nodes, and stop voluntary disruptions ...' on every task, nothing written",
        "a multi-step plan (323, 340-342: effect phrases lent the head's object)",
    ),
}
