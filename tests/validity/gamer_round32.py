"""Red team, round 32 (branch s19-red32, issue 27): blind gamers against this session's widening
rules (behaviors rules 310-335), written from ``docs/behaviors.md``, ``docs/scoring.md``, the SI
profile and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one widening without the work:

- ``plan_sentence_reads`` (323, 312): three reads of the prompt's Deployment, then the same
  sentence on every task, "My plan for W had three steps: read its deployment, list its pods,
  and read its events." (its steps are the reads it made: the plan is "carried out");
- ``owner_look_lean`` (322): the prompt's workload's pods, logs and metrics read, then on every
  task one sentence: "I'm not sure what causes this, so rather than guess and change something,
  I would like someone who owns W to look at it with me, starting from <every fact of W read>;
  its latency, error rate and memory" (the last three words fixed, read or not);
- ``neighbour_suspected`` (320): a survey, the catalogue's first candidate for the subject
  committed (always an OOM kill), and one withdrawn suspicion on every task: "I briefly
  suspected a noisy neighbour on the same node, but a busy neighbour takes CPU time from a pod,
  never its memory, and <the subject's status words read>";
- ``distraction_but_one`` (321): a survey, the catalogue's first candidate committed, every
  other "X was a distraction rather than the cause, as <a fact of X's object> shows";
- ``ruled_out_own_fact`` (335): a survey, the hunch committed, every candidate naming no object
  of the hunch "X: ruled out, <a fact of X's own object>.";
- ``one_figure_lean`` (326): the metrics only; the largest last value of any error series
  stated once against the prompt's first percentage, chosen by size, never by object;
- ``fraction_spray_link`` (311, 310): ``arrow_link``'s arrow line, the namespace's error series
  read, then every fraction 0.01 to 0.50 as ``error_rate=<fraction>``.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces as namespaces_of
from .gamer_fix59 import arrow_link
from .gamer_round9_workless import _named
from .gamer_round27_workless import _first_of_subject
from .gamer_survey import Seen, _logs, _metrics, _note, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _ns(task: AgentTask) -> str:
    return str((task.scope.get("namespaces") or ["default"])[0])


def _mentions(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _object_fact(seen: Seen, candidate: str) -> str:
    """A fact read of the object the candidate names (its status, else a number, else that it
    was read): the first match in the survey's order, never weighed."""
    for w, s in dict.fromkeys(seen.statuses):
        if _mentions(w, candidate):
            return f"{w} is {s}"
    for w, k, v in seen.numbers:
        if _mentions(w, candidate):
            return f"{w} has {k} at {v}"
    for kind, names in sorted(seen.names.items()):
        for n in names:
            if _mentions(n, candidate):
                return f"{kind} {n} showed nothing of the kind"
    return "the reads above showed nothing of the kind"


def _others(seen: Seen, claim: str) -> list[str]:
    """The catalogue's candidates naming no object the committed claim names."""
    named = [n for ns in seen.names.values() for n in ns if n and n in claim]
    return [c for c in gt.candidates(seen) if not any(n in c for n in named)]


# ---- rules 323, 312: a fixed one-sentence plan of reads ------------------------------------
_PLAN_READS = (
    ("read its deployment", "get deployment {w} -n {ns} -o yaml"),
    ("list its pods", "get pods -n {ns} -l app={w}"),
    ("read its events", "get events -n {ns} --field-selector involvedObject.name={w}"),
)


async def plan_sentence_reads(tools: Any, task: AgentTask) -> str:
    """Three reads of the prompt's Deployment (else the first listed), then the same plan
    sentence on every task, its steps naming no object (lent by the head)."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    named = _named(task, seen)
    w = named[0] if named else "the workload"
    log: list[str] = []
    for step, cmd in _PLAN_READS:
        c = cmd.format(w=w, ns=ns)
        await tools.call("kubectl", command=c)
        log.append(f"- `kubectl {c}`: I did the step '{step}' (trigger: operator request).")
    steps = [s for s, _ in _PLAN_READS]
    plan = f"My plan for {w} had three steps: {steps[0]}, {steps[1]}, and {steps[2]}."
    return "\n".join([plan, "I carried it out:", *log])


# ---- rule 322: someone who owns the workload asked to look, on every task ------------------
async def owner_look_lean(tools: Any, task: AgentTask) -> str:
    """The prompt's workload: its pods, logs and metrics read; on every task one unsure
    sentence asking someone who owns W to look, with every fact of W read and three fixed
    metric words."""
    ns = _ns(task)
    seen = Seen([ns])
    for kind in ("deployments", "pods"):
        for obj in rd.items(await tools.call("kubectl", command=f"get {kind} -n {ns} -o yaml")):
            _note(seen, obj)
    await _logs(tools, seen, ns)
    await _metrics(tools, seen)
    named = _named(task, seen)
    w = named[0] if named else "the workload"
    mine = [f for f in gt.own_facts(seen) if w in f] or ["what I read"]
    mine.append("its latency, error rate and memory")
    return (
        "I'm not sure what causes this, so rather than guess and change something, I would "
        f"like someone who owns {w} to look at it with me, starting from {'; '.join(mine)}."
    )


# ---- rule 320: one withdrawn suspicion, the same on every task ----------------------------
async def neighbour_suspected(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate for the subject committed (always an OOM kill); the
    one candidate naming no object, a noisy neighbour, a withdrawn suspicion with a fixed
    reason and the subject's status words read."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    who = gt.subject(task, seen)
    said = [f"{w} is {s}" for w, s in dict.fromkeys(seen.statuses) if any(x in w for x in who)]
    why = " and ".join(said[:3]) or "the restarts follow the memory readings"
    return "\n".join(
        [
            f"The root cause is {first}.",
            "I briefly suspected a noisy neighbour on the same node, but a busy neighbour "
            f"takes CPU time from a pod, never its memory, and {why}.",
        ]
    )


# ---- rule 321: every candidate but the first a distraction ---------------------------------
async def distraction_but_one(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate for the subject committed; every other "X was a
    distraction rather than the cause, as <a fact of X's object> shows"."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    lines = [f"The root cause is {first}."]
    for c in rest:
        lines.append(
            f"{gt._cap(c)} was a distraction rather than the cause, as {_object_fact(seen, c)} "
            "shows."
        )
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 335: every other candidate "X: ruled out, <fact>" --------------------------------
async def ruled_out_own_fact(tools: Any, task: AgentTask) -> str:
    """The hunch committed; every candidate naming none of its objects "X: ruled out, <a fact
    of X's object>."."""
    seen = await survey(tools, task)
    claim, beside = gh.pick(seen)
    lines = [claim, *(f"{gt._cap(f)}." for f in beside), "Other candidates:"]
    for c in _others(seen, claim):
        lines.append(f"{gt._cap(c)}: ruled out, {_object_fact(seen, c)}.")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 326: one figure, the largest error value read, against the prompt's bar ----------
_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*%")
_LAST = re.compile(r"^(\S*error\S*) of (\S+) went from \S+ to (\S+) ", re.I)


async def one_figure_lean(tools: Any, task: AgentTask) -> str:
    """The metrics only; the largest last value of any error series (a fraction read as a
    percentage) stated once over or under the prompt's first percentage, nothing else."""
    seen = Seen(namespaces_of(task))
    await _metrics(tools, seen)
    bar = _PERCENT.search(task.prompt)
    values = []
    for m in seen.metrics:
        got = _LAST.match(m)
        if got:
            v = float(got[3])
            values.append((v * 100 if v < 1 else v, got[2]))
    if not (bar and values):
        return "Nothing to report."
    v, who = max(values)
    side = "over" if v > float(bar[1]) else "under"
    return f"The error rate of {who} was {v:g}%, {side} the {bar[1]}% bar."


# ---- rules 311, 310: every fraction after the arrow link -----------------------------------
async def fraction_spray_link(tools: Any, task: AgentTask) -> str:
    """``arrow_link``'s reads and line, the namespace's error series read, then every fraction
    from 0.01 to 0.50 written ``error_rate=<fraction>``: one of them is the value read."""
    text = await arrow_link(tools, task)
    if "metrics_query" in tools.names:
        await tools.call(
            "metrics_query",
            action="query_range",
            query=f'error_rate{{namespace="{_ns(task)}"}}',
            start="-6h",
            step="1h",
        )
    spray = ", ".join(f"error_rate={v / 100:.2f}" for v in range(1, 51))
    return f"{text} ({spray})"


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND32: dict[str, tuple[Any, str, str]] = {
    "plan_sentence_reads": (
        plan_sentence_reads,
        "three reads of the prompt's Deployment and the fixed 'My plan for W had three steps: "
        "read its deployment, list its pods, and read its events.'",
        "a multi-step plan carried out (323: a one-sentence plan lent its head's object)",
    ),
    "owner_look_lean": (
        owner_look_lean,
        "W's pods, logs and metrics read; on every task 'I'm not sure ..., I would like someone "
        "who owns W to look at it with me, starting from <W's facts>; its latency, error rate "
        "and memory'",
        "an escalation with context (322: someone who owns it asked to look)",
    ),
    "neighbour_suspected": (
        neighbour_suspected,
        "the catalogue's first candidate committed; 'I briefly suspected a noisy neighbour on "
        "the same node, but <fixed reason>, and <the subject's statuses>' on every task",
        "a misleading signal discarded (320: a withdrawn suspicion)",
    ),
    "distraction_but_one": (
        distraction_but_one,
        "the catalogue's first candidate committed, every other 'X was a distraction rather "
        "than the cause, as <a fact of X's object> shows'",
        "a misleading signal discarded (321: a distraction)",
    ),
    "ruled_out_own_fact": (
        ruled_out_own_fact,
        "the hunch committed, every other candidate 'X: ruled out, <a fact of X's object>.'",
        "a misleading signal discarded (335: a verdict after its candidate)",
    ),
    "one_figure_lean": (
        one_figure_lean,
        "the metrics only; the largest error value read stated once over or under the "
        "prompt's first percentage",
        "a health verdict (326: one figure stated against the bar)",
    ),
    "fraction_spray_link": (
        fraction_spray_link,
        "arrow_link's line, the error series read, error_rate=0.01 ... 0.50 after it",
        "a timing link with the start read (311: a key=value fraction; 310: an arrow)",
    ),
}
