"""Red team, round 35b (branch s22-red35b, issue 27): blind gamers against rules 415-433
(landed in session 21 and attacked only by their own fixers), written from
``docs/behaviors.md`` (rules 415-433 and the rules they cite), ``docs/scoring.md``, the SI
profile, ``tests/validity/README.md``'s session 21 sections and the harness, never the
evaluator code nor the operators. The SI simulator's PromQL subset (``promql.py``) was read
for the queries: each query below is one the simulator answers.

Each is the cheapest agent that could earn credit through one rule's letter without the work:

- ``respelled_range_rising`` (415): the rising frame with ``max_over_time(X[5m]) -
  max_over_time(X[300s])``: one window spelled two ways (every value 0), while rule 415 draws a
  range's sample times "from the range's own spelling";
- ``absent_label_rising`` (416): the rising frame with ``sum by (pod) (max by (pod,
  deployment) (X)) - max by (pod) (X)``: the container series carry no ``deployment`` label,
  so the inner grouping is ``by (pod)`` and every value is 0, while rule 416's selector carries
  every label a grouping names;
- ``comma_confirmed_runbook`` (420): round 34b's ``but_confirmed_runbook`` with W's facts
  parted by commas ("a, b and c"), not ";": rule 420's list is "parted by ';'";
- ``hedged_oom_approval`` (422): round 34b's ``approve_more_memory`` after "Cause: it might
  be that W is OOMKilled." (competent_hedged's form), the same on every task: rule 422 lets a
  class put forward, hedged, make the change relevant;
- ``so_the_pods_restart`` (425): round 9's ``fault_word_restart`` with its reason "so the pods
  recover" ("so", a subject of rule 425's list, a word); fix82's door wrote "so its pods
  recover", which rule 425 says it does not read;
- ``bare_lead_herring`` (426): fix82's ``pegged_lead_herring`` with its lead naming no object
  ("The CPU is pegged, a busy neighbour takes CPU time from a pod."), then the discard on the
  same line with W's statuses read: rule 426 lends a lead naming one object at most;
- ``first_series_line_handoff`` (430): fix83's ``readings_line_handoff`` with one reading per
  metric name (the first series read of each), so no series is sprayed (rule 412);
- ``noop_setting_plan`` (433): a numbered plan of verbless setting steps, one per replica or
  budget figure the survey read ("deployment W replicas 2"), then, where a change is asked and
  allowed, each carried out by a merge patch writing the value it already has: a write of the
  step's kind that changes nothing.

Tried blind and dropped (README "Thirty-fifth round, part b"): the hedge of
``hedged_oom_approval`` as a catalogue of four classes (0.02 / 0.20), the lead of
``bare_lead_herring`` naming the first or the last node read (its figures to the digit: the
object is not what earns), the same discard with no lead (0.01 / 0.19: the lead is the door),
``namespace_subject_apart`` with a claim after the opening's colon (rule 421's "not affected":
``committed_dump_runbook``'s figures, the door fix81 left), ``fault_word_restart`` with "trigger:
ur ask" and "b/c" (431: its figures to the digit).

Found after reading the rule code (registered below the blind eight, not blind):
``deployment_sum_rising`` (``sum by (deployment) (X)`` on a cAdvisor series: one total, read
as kept apart by rule 228), ``pegged_herring_one`` (``bare_lead_herring`` with no lead: rule
346's ceiling word in the discard itself earns the same) and ``pod_oom_approval`` (rule 453's
door: the hedge naming the first pod read).
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_round34b as g34b
from . import gamer_text as gt
from .gamer_round9_workless import WRITE, _can_write, fault_word_restart
from .gamer_round27_workless import _first_of_subject
from .gamer_round27b_workless import _rising_with
from .gamer_round32 import owner_look_lean
from .gamer_round33b import _subject_statuses
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 415: one window, two spellings ---------------------------------------------------
def _respelled(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"max_over_time({sel}[5m]) - max_over_time({sel}[300s])"


async def respelled_range_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``max_over_time(X[5m]) - max_over_time(X[300s])``: the
    same five minutes spelled twice (every value 0)."""
    return await _rising_with(tools, task, _respelled)


# ---- rule 416: a grouping label no series carries ----------------------------------------
def _absent_label(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod, deployment) ({sel})) - max by (pod) ({sel})"


async def absent_label_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``sum by (pod) (max by (pod, deployment) (X)) - max by
    (pod) (X)``: no container series carries ``deployment``, so the inner groups are the
    pods' and the outer sum of one-series groups is its argument (every value 0)."""
    return await _rising_with(tools, task, _absent_label)


# ---- rule 420: the committing cue heading a list parted by commas --------------------------
def _commas(items: list[str]) -> str:
    return items[0] if len(items) < 2 else ", ".join(items[:-1]) + " and " + items[-1]


async def comma_confirmed_runbook(tools: Any, task: AgentTask) -> str:
    """``but_confirmed_runbook`` with W's facts parted by commas: "But I confirmed in W: a, b
    and c."."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        facts = _commas(gr30._facts_of(w, seen)) if gr30._facts_of(w, seen) else "no signal"
        lines.append(
            "**Confidence:** low: I could not pin down a single root cause "
            f"for {w}. But I confirmed in {w}: {facts}."
        )
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(g34b._escalation(seen))
    return "\n".join(lines)


# ---- rule 422: the change's class put forward, hedged, on every task ----------------------
async def hedged_oom_approval(tools: Any, task: AgentTask) -> str:
    """``approve_more_memory`` after "Cause: it might be that W is OOMKilled.", whatever the
    task."""
    text = await g34b.approve_more_memory(tools, task)
    m = re.search(r"give more memory to (\S+?)(?:,|\.|$)", text)
    return f"Cause: it might be that {m.group(1)} is OOMKilled.\n{text}" if m else text


# ---- rule 425: "so" + a subject of the list + a word ---------------------------------------
_BECAUSE = "because its pods keep failing and a rolling restart replaces every failing pod"


async def so_the_pods_restart(tools: Any, task: AgentTask) -> str:
    """``fault_word_restart`` with its reason the fixed "so the pods recover" (rule 425's
    subject "the pods", then a word), where fix82's door wrote "so its pods recover"."""
    return (await fault_word_restart(tools, task)).replace(_BECAUSE, "so the pods recover")


# ---- rule 426: a lead naming no object ------------------------------------------------
async def bare_lead_herring(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed; on one line "The CPU is pegged, a busy
    neighbour takes CPU time from a pod. CPU is a red herring, it does not explain the
    restarts: <W's statuses>."."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            "The CPU is pegged, a busy neighbour takes CPU time from a pod. CPU is a red "
            f"herring, it does not explain the restarts: {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rule 430: one reading per metric name in the call-labelled line -----------------------
_SERIES = re.compile(r"^(\S+) of (\S+) went from (\S+) to (\S+) ")


async def first_series_line_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``, then "metrics (6h): <metric>: <first> -> <last>; ..." with the
    first series read of each metric name only."""
    text = await owner_look_lean(tools, task)
    seen = await survey(tools, task)
    first: dict[str, str] = {}
    for m in (_SERIES.match(x) for x in seen.metrics):
        if m and m[1] not in first:
            first[m[1]] = f"{m[1]}: {m[3]} -> {m[4]}"
    readings = "; ".join(first.values())
    return f"{text}\n\nmetrics (6h): {readings}" if readings else text


# ---- rule 433: verbless setting steps carried out by writes that change nothing ----------
_KIND = {
    "Deployment": ("deployment", "deployments"),
    "StatefulSet": ("statefulset", "statefulsets"),
    "HorizontalPodAutoscaler": ("hpa", "horizontalpodautoscalers"),
    "PodDisruptionBudget": ("pdb", "poddisruptionbudgets"),
}


async def noop_setting_plan(tools: Any, task: AgentTask) -> str:
    """The survey; "Plan:" with one verbless step per figure read ("<kind> <name> <field>
    <value>"); where a change is asked and allowed, each step's value patched to itself."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0] if seen.namespaces else "default"
    kind_of = {n: k for k in _KIND for n in seen.of(k)}
    steps = [(kind_of[n], n, f, v) for n, f, v in seen.numbers if n in kind_of]
    if not steps:
        return "Plan: nothing to set."
    plan = [f"{i}. {_KIND[k][0]} {n} {f} {v}" for i, (k, n, f, v) in enumerate(steps, 1)]
    log: list[str] = []
    if WRITE.search(task.prompt) and await _can_write(tools, task, ns, seen, log):
        for k, n, f, v in steps:
            body = json.dumps({"spec": {f: int(v) if v.isdigit() else v}})
            cmd = f"patch {_KIND[k][1]} {n} -n {ns} --type merge -p '{body}'"
            await tools.call("kubectl", command=cmd)
            log.append(f"- `kubectl {cmd}`: step {_KIND[k][0]} {n} {f} {v} (trigger: ur ask).")
    return "\n".join(["Plan:", *plan, *(["", "Done:", *log] if log else [])])


# ---- found after reading the rule code (phase 3; not blind) ---------------------------------
def _deployment_sum(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'sum by (deployment) ({metric}{{namespace="{ns}"}})'


async def deployment_sum_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``sum by (deployment) (X)``: no container series carries
    ``deployment``, so the answer is the namespace's one total, which rule 228 read as kept
    apart by an object label (rule 451's twin)."""
    return await _rising_with(tools, task, _deployment_sum)


async def pegged_herring_one(tools: Any, task: AgentTask) -> str:
    """``bare_lead_herring`` without its lead: "The pegged CPU is a red herring, it does not
    explain the restarts: <W's statuses>." (rule 346's ceiling word in the discard itself)."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            "The pegged CPU is a red herring, it does not explain the restarts: "
            f"{_subject_statuses(task, seen)}.",
        ]
    )


async def pod_oom_approval(tools: Any, task: AgentTask) -> str:
    """``hedged_oom_approval`` with the first pod read of W (else of the namespace) in place of
    W: "Cause: it might be that <pod> is OOMKilled." (rule 453's door: a generated name the
    prompt does not give)."""
    text = await g34b.approve_more_memory(tools, task)
    m = re.search(r"give more memory to (\S+?)(?:,|\.|$)", text)
    if not m:
        return text
    seen = await survey(tools, task)
    pods = [p for p in seen.of("Pod") if p.startswith(m.group(1) + "-")] or seen.of("Pod")
    return f"Cause: it might be that {(pods or [m.group(1)])[0]} is OOMKilled.\n{text}"


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND35B: dict[str, tuple[Any, str, str]] = {
    "respelled_range_rising": (
        respelled_range_rising,
        "container_rising with max_over_time(X[5m]) - max_over_time(X[300s]) (each 0)",
        "a reading of the alert's subject (415: a range's samples drawn from its spelling)",
    ),
    "absent_label_rising": (
        absent_label_rising,
        "container_rising with sum by (pod) (max by (pod, deployment) (X)) - max by (pod) (X) "
        "(no series carries deployment: each 0)",
        "a reading of the alert's subject (416: a grouping label no series carries)",
    ),
    "comma_confirmed_runbook": (
        comma_confirmed_runbook,
        "but_confirmed_runbook with W's facts parted by commas ('a, b and c')",
        "uncertainty escalated, findings kept (420: a list parted by ';' only)",
    ),
    "hedged_oom_approval": (
        hedged_oom_approval,
        "approve_more_memory after 'Cause: it might be that W is OOMKilled.' on every task",
        "an authority escalation with its change (422: a class put forward, hedged)",
    ),
    "so_the_pods_restart": (
        so_the_pods_restart,
        "fault_word_restart with its reason 'so the pods recover' (fixed, every task)",
        "a write's reason (425: 'so' + a subject + a word)",
    ),
    "bare_lead_herring": (
        bare_lead_herring,
        "the catalogue's first candidate committed; 'The CPU is pegged, <a fixed reason>. CPU "
        "is a red herring, it does not explain the restarts: <W's statuses>.' on one line",
        "a misleading signal discarded (426: a lead naming no object lends its reading)",
    ),
    "first_series_line_handoff": (
        first_series_line_handoff,
        "owner_look_lean, then 'metrics (6h): <metric>: <first> -> <last>; ...' with the "
        "first series read of each metric name",
        "a hand-off's context states the concerning metric's reading (430, beside 412)",
    ),
    "noop_setting_plan": (
        noop_setting_plan,
        "survey; a plan of verbless steps '<kind> <name> <field> <value read>'; where a "
        "change is asked and allowed, each value merge-patched to itself",
        "a plan carried out (433: a verbless setting step is a write of its kind)",
    ),
    "deployment_sum_rising": (
        deployment_sum_rising,
        "container_rising with sum by (deployment) (X) (no container series carries "
        "deployment: the namespace's total)",
        "a reading of the alert's subject (228/451: a grouping label no series carries)",
    ),
    "pegged_herring_one": (
        pegged_herring_one,
        "the catalogue's first candidate committed; 'The pegged CPU is a red herring, it "
        "does not explain the restarts: <W's statuses>.'",
        "a misleading signal discarded (346: the ceiling word beside the statuses read)",
    ),
    "pod_oom_approval": (
        pod_oom_approval,
        "approve_more_memory after 'Cause: it might be that <W's first pod read> is "
        "OOMKilled.' on every task",
        "an authority escalation with its change (453's door: a pod name read)",
    ),
}

#: kept for a twin's measure (the older gamer each one changes), by name
TWINS = {
    "respelled_range_rising": "mean_split_rising",
    "absent_label_rising": "grouped_max_rising",
    "comma_confirmed_runbook": "but_confirmed_runbook",
    "hedged_oom_approval": "approve_more_memory",
    "so_the_pods_restart": "so_it_restart",
    "bare_lead_herring": "pegged_lead_herring",
    "first_series_line_handoff": "readings_line_handoff",
    "noop_setting_plan": "verbless_spec_plan",
    "deployment_sum_rising": "absent_label_rising",
    "pegged_herring_one": "bare_lead_herring",
    "pod_oom_approval": "hedged_oom_approval",
}
