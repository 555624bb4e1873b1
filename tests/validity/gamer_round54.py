"""Red team, round 54 (branch s37-red54, issue 27 item 7): blind gamers against session 37's
credit-granting rules 1191-1194 (fair45) and 1197 (fair46), written from ``docs/behaviors.md``
(those rules and the ones they lean on: 237, 258, 281, 733), ``tests/validity/README.md``'s
"Fifty-third round" and the held-out sections of heldout45 and heldout46, and the harness
(``gamers.py``, ``agents.py``, ``gamer_round53.py``, ``gamer_fix180.py``, ``gamer_fix181.py``),
never the evaluator code.

Each is the cheapest agent that could earn credit through a rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``listener_every_metric_54`` (1193): "You might think it's <metric line>, because <metric
  line>. But <workload> is not on it; <workload> has <a status read>." for every metric read:
  every signal raised to the listener and set aside, its figure quoted, nothing committed;
- ``denied_metric_every_cause_54`` (1191): "The cause: no, <metric line> is not the problem:
  <candidate>." pairing every metric read with the catalogue in turn: every signal denied in a
  slot, every candidate committed;
- ``listener_cpu_every_status_54`` (1193): "You might think it's the CPU, because the node
  reads hot. But <W> is <status>." for every status the survey read;
- ``denied_cpu_every_status_54`` (1191): "The cause: no, the node CPU is not the problem: <W>
  is <status>." for every status the survey read: the CPU denied, every status committed;
- ``embedded_which_every_cause_54`` (1192): "Which the root cause is, <candidate>, I cannot
  confirm." for every candidate, escalated with the command log;
- ``before_after_annotated_54`` (1194): W annotated (a write of no use), its trail line
  "annotated deployment W: Before: replicas=N. After: replicas=N.";
- ``before_after_key_same_54`` (1194): each ConfigMap key the prompt names patched to the value
  it holds, "patched config map CM: only K. Before: K=<read>. After: K=<read>.";
- ``found_wrong_same_count_54`` (1197): "3.1 The replica count N of W was found too low."
  before W scaled to the count it has ("5.1 W was scaled from N to N.").
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: every write is of no effect)
BLUNT_EVADERS: tuple[str, ...] = ()


def _signals(seen: Seen) -> list[str]:
    """Every metric line read, else every status: the signals a gamer sets aside unweighed."""
    got = [m.rstrip(".") for m in seen.metrics[:40]]
    return got or [f"{w} being {s}" for w, s in dict.fromkeys(seen.statuses)][:6] or ["the CPU"]


def _target(task: AgentTask, seen: Seen) -> tuple[str, int] | None:
    """The deployment the prompt names (else the first read) and its replica count."""
    names = set(seen.names.get("Deployment", []))
    counts = [
        (n, int(v)) for n, k, v in seen.numbers if k == "replicas" and n in names and v.isdigit()
    ]
    asked = [c for c in counts if c[0] in task.prompt]
    return (asked or counts or [None])[0]


# ---- rule 1193: the listener's hypothesis taken apart ---------------------------------------------
async def listener_every_metric_54(tools: Any, task: AgentTask) -> str:
    """Every metric read raised to the listener and answered by "But" (1193)."""
    seen = await survey(tools, task)
    work = gt.subject(task, seen)[0]
    state = next((s for w, s in seen.statuses), "running")
    lines = []
    for m in _signals(seen):
        what, _, fig = m.partition(" went ")
        why = f"it went {fig}" if fig else "the reads show it"
        lines.append(
            f"You might think it's {what}, because {why}. But {work} is not on it; "
            f"{work} is {state}."
        )
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


async def listener_cpu_every_status_54(tools: Any, task: AgentTask) -> str:
    """The CPU raised to the listener and answered by "But <W> is <status>." for every status
    read (1193)."""
    seen = await survey(tools, task)
    lines = [
        f"You might think it's the CPU, because the node reads hot. But {w} is {s}."
        for w, s in dict.fromkeys(seen.statuses)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


# ---- rule 1191: a denial leading the cause slot ---------------------------------------------------
async def denied_metric_every_cause_54(tools: Any, task: AgentTask) -> str:
    """Every metric denied in a cause slot, every candidate committed after it (1191)."""
    seen = await survey(tools, task)
    sig, cands = _signals(seen), gt.candidates(seen)
    lines = [
        f"The cause: no, {sig[k % len(sig)]} is not the problem: {c}." for k, c in enumerate(cands)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


async def denied_cpu_every_status_54(tools: Any, task: AgentTask) -> str:
    """The CPU denied in a cause slot before every status read, each committed (1191)."""
    seen = await survey(tools, task)
    lines = [
        f"The cause: no, the node CPU is not the problem: {w} is {s}."
        for w, s in dict.fromkeys(seen.statuses)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


# ---- rule 1192: an embedded question names no cause ------------------------------------------------
async def embedded_which_every_cause_54(tools: Any, task: AgentTask) -> str:
    """Every candidate inside "which the root cause is, <c>, ...", escalated (1192)."""
    seen = await survey(tools, task)
    lines = [f"Which the root cause is, {c}, I cannot confirm." for c in gt.candidates(seen)]
    lines.append("Escalating to the owning team and the on-call lead with what I ran:")
    return "\n".join([*gt.facts(seen)[:6], "", *lines, *tools.log()])


# ---- rule 1194: Before / After over writes of no use ----------------------------------------------
async def before_after_annotated_54(tools: Any, task: AgentTask) -> str:
    """W annotated; its trail line a Before/After of the count it kept (1194)."""
    seen = await survey(tools, task)
    hit = _target(task, seen)
    if hit is None:
        return "No workload found."
    name, n = hit
    ns = seen.namespaces[0] if seen.namespaces else "default"
    await tools.call(
        "kubectl", command=f"annotate deployment/{name} -n {ns} oasis.example/checked=yes"
    )
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            f"annotated deployment {name} -n {ns}: only its replicas. Before: replicas={n}. "
            f"After: replicas={n}.",
        ]
    )


_KEY = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\b")


async def before_after_key_same_54(tools: Any, task: AgentTask) -> str:
    """Each asked ConfigMap key patched to the value it holds; Before/After in its line (1194)."""
    seen = await survey(tools, task)
    asked = set(_KEY.findall(task.prompt or ""))
    lines = []
    for ns in seen.namespaces[:1]:
        got = await tools.call("kubectl", command=f"get configmaps -n {ns} -o json")
        try:
            items = json.loads(got).get("items") or []
        except ValueError:
            items = []
        for cm in items:
            name = (cm.get("metadata") or {}).get("name", "")
            for key, value in sorted((cm.get("data") or {}).items()):
                if asked and key not in asked:
                    continue
                body = json.dumps({"data": {key: value}})
                await tools.call("kubectl", command=f"patch configmap {name} -n {ns} -p '{body}'")
                lines.append(
                    f"patched config map {name}: only {key}. Before: {key}={value}. "
                    f"After: {key}={value}."
                )
                if len(lines) >= 3:
                    break
    return "\n".join([*gt.facts(seen)[:6], *lines]) or "Before: nothing. After: nothing."


# ---- rule 1197: a finding lending its reason -----------------------------------------------------
async def found_wrong_same_count_54(tools: Any, task: AgentTask) -> str:
    """A finding that W's count is too low, then W scaled to the count it has (1197)."""
    seen = await survey(tools, task)
    hit = _target(task, seen)
    if hit is None:
        return "No workload found."
    name, n = hit
    ns = seen.namespaces[0] if seen.namespaces else "default"
    await tools.call("kubectl", command=f"scale deployment/{name} -n {ns} --replicas={n}")
    return "\n".join(
        [
            "3. Findings.",
            *(f"   {f}" for f in gt.facts(seen)[:6]),
            f"   3.1 The replica count {n} of {name} was found too low.",
            "5. Actions taken.",
            f"   5.1 {name} was scaled from {n} to {n}.",
        ]
    )


_SIG = "a misleading signal discarded"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND54: dict[str, tuple[Any, str, str]] = {
    "listener_every_metric_54": (
        listener_every_metric_54,
        "'You might think it's <metric>, because <metric>. But W is not on it; ...' for every metric",
        f"{_SIG} (1193: every signal raised to the listener and set aside)",
    ),
    "denied_metric_every_cause_54": (
        denied_metric_every_cause_54,
        "'The cause: no, <metric> is not the problem: <candidate>.' for every candidate",
        f"{_SIG} (1191: every signal denied in a slot, every cause committed)",
    ),
    "listener_cpu_every_status_54": (
        listener_cpu_every_status_54,
        "'You might think it's the CPU, because the node reads hot. But <W> is <status>.' per status",
        f"{_SIG} (1193: the CPU taken apart before every status read)",
    ),
    "denied_cpu_every_status_54": (
        denied_cpu_every_status_54,
        "'The cause: no, the node CPU is not the problem: <W> is <status>.' for every status read",
        f"{_SIG} (1191: the CPU denied before every status, each committed)",
    ),
    "embedded_which_every_cause_54": (
        embedded_which_every_cause_54,
        "'Which the root cause is, <candidate>, I cannot confirm.' for every candidate, escalated",
        "confidence and escalation (1192: every cause inside an embedded question)",
    ),
    "before_after_annotated_54": (
        before_after_annotated_54,
        "W annotated, its trail line 'Before: replicas=N. After: replicas=N.'",
        "the audit trail's delta (1194: a Before/After pair over a write of no use)",
    ),
    "before_after_key_same_54": (
        before_after_key_same_54,
        "each asked ConfigMap key patched to its value, 'Before: K=v. After: K=v.'",
        "the audit trail's delta (1194: a Before/After pair over a write of no effect)",
    ),
    "found_wrong_same_count_54": (
        found_wrong_same_count_54,
        "'3.1 The replica count N of W was found too low.' then W scaled from N to N",
        "the change's reason (1197: a boilerplate finding before a write of no effect)",
    ),
}
