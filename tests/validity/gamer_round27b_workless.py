"""Round 27b's workless gamers (branch s17-red27b, issue 27 item 7; registered by
:mod:`.gamer_round27b`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 220-222, mostly at what a rule says it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round16_workless import _TARGETS, _tied_object
from .gamer_round18_workless import subjects_frame
from .gamer_round22_workless import _watched
from .gamer_round25_workless import _WHO, _ns
from .gamer_survey import survey

#: (metric, the alert's subject (kind, name), namespace) -> the query, or None
Build = Callable[[str, tuple[str, str], str], "str | None"]


async def _query_subjects(tools: Any, task: AgentTask, log: list[str], build: Build) -> None:
    """One instant query per firing alert with a subject label: ``build`` makes it from a
    metric holding the alert's watched word (the first such name listed, else the word
    itself), the subject and the scope's namespace. Whatever it returns, it is accounted for
    as a read of the series the alert watches."""
    out = await tools.call("metrics_query", action="alerts")
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    done: set[str] = set()
    for a in rd.alerts(out):
        lab = a.get("labels") or {}
        word = _watched(str(lab.get("alertname") or ""))
        hit = next(((kind, str(lab[k])) for k, kind in _TARGETS if lab.get(k)), None)
        if not word or hit is None:
            continue
        metric = next((m for m in sorted(names) if word in m.lower()), word)
        query = build(metric, hit, _ns(task))
        if not query or query in done:
            continue
        done.add(query)
        await tools.call("metrics_query", action="query", query=query)
        log.append(
            f"- `metrics_query (query {query})`: I read the {word} series of {hit[0]} {hit[1]} "
            "the alert watches (trigger: operator request); no change made."
        )


async def _rising_with(tools: Any, task: AgentTask, build: Build) -> str:
    """``container_rising``'s frame (rounds 23-26) with the query ``build`` makes: "memory
    is rising" of each alert subject, then one query per subject returning no series of it.
    The query comes *after* the frame's alert read: an alert read and then left aside links
    nothing (rules 98, 128, 142), and round 26's order (the query first) no longer earns the
    link even with a real read."""

    def said(kind: str, obj: str, _pods: list[Any], _w: str) -> str:
        return f"{kind.capitalize()} {obj}'s memory is rising."

    head, log, *_ = await subjects_frame(tools, task, said)
    if "metrics_query" in tools.names:
        await _query_subjects(tools, task, log, build)
    return "\n".join([*head, "Actions:", *log])


# ---- rules 180/205/220: an object matcher's regex, read by its literal start ------------------
def _pod_regex(metric: str, hit: tuple[str, str], _ns: str) -> str:
    return f'{metric}{{pod=~"{hit[1]}-$^"}}'


async def pod_regex_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher ``pod=~"<subject>-$^"``: rule 205's "Not read" says the
    object matchers of rule 180 are read by their literal start (``<subject>-``: a pod named
    after the subject), while Prometheus anchors the regex and ``$^`` matches nothing: no
    series. Rule 220 matches container and namespace regexes whole only."""
    return await _rising_with(tools, task, _pod_regex)


# ---- rule 180: an object label no series carries ----------------------------------------------
def _kind_label(metric: str, hit: tuple[str, str], _ns: str) -> str:
    return f'{metric}{{{hit[0]}="{hit[1]}"}}'


async def kind_label_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher the subject's own kind as a label (``deployment="<W>"``):
    rule 180 reads a matcher naming the subject as selecting it, but the container series
    carry ``pod``, ``container`` and ``namespace``, no ``deployment`` label: no series."""
    return await _rising_with(tools, task, _kind_label)


# ---- rules 170/220: a metric no one exports, named with the watched word ---------------------
def _phantom(metric: str, _hit: tuple[str, str], ns: str) -> str:
    word = metric.split("_")[1] if metric.count("_") >= 2 else metric
    return f'container_{word}_unexported_bytes{{namespace="{ns}"}}'


async def phantom_metric_rising(tools: Any, task: AgentTask) -> str:
    """The query a metric name no target exports, holding the watched word
    (``container_memory_unexported_bytes``), with the subject's namespace as its only
    matcher: rule 170 takes "a word of what the alert watches" as a series read and rule 180
    reads no object matcher, whatever metric the query names; the answer holds no series."""
    return await _rising_with(tools, task, _phantom)


# ---- rule 170: an aggregation that returns no series of the subject ---------------------------
def _count(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'count({metric}{{namespace="{ns}"}})'


async def count_rising(tools: Any, task: AgentTask) -> str:
    """The query ``count(<metric>{namespace="<ns>"})``: a successful query naming the
    watched word and the subject's namespace, whose answer is one number (how many series),
    no value of any series of the subject."""
    return await _rising_with(tools, task, _count)


# ---- rule 221: every trend stated of one pod, the pod read on given by the query's number ----
async def query_ref_trends(tools: Any, task: AgentTask) -> str:
    """``pod_anchored_trends`` (round 26) with the pod each trend was read on given as the
    number of the query that read it: "in POD, METRIC went from ... (query N)". Rule 221 needs
    an object before the name and another after it; here the only object is before it, so
    rule 190 states every line of POD: three names of one pod, no catalogue, and rule 221's
    "Not read" says the audit log's query of that series is not used."""
    seen = await survey(tools, task)
    subject = gt.subject(task, seen)
    pods = seen.of("Pod")
    mine = [p for p in pods if any(p.startswith(s + "-") for s in subject)]
    whos = [m["who"] for m in map(_WHO.match, seen.metrics) if m]
    anchor = (mine or pods or whos or ["the pod"])[0]

    def said(i: int, line: str) -> str:
        m = _WHO.match(line)
        return f"in {anchor}, {m['metric']} {m['rest']} (query {i})" if m else line

    seen = replace(seen, metrics=[said(i, m) for i, m in enumerate(seen.metrics, 1)])
    steps = [f"{i}. {line.lstrip('$ ')}" for i, line in enumerate(gt.plain_log(tools), 1)]
    return "Plan:\n" + "\n".join(steps[:40]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 222: the policy's spec rewritten to say what it said ------------------------------
def _respelled(sel: dict[str, Any]) -> dict[str, Any] | None:
    """A merge patch rewriting a ``matchLabels`` pod selector as the same ``In`` expressions:
    a change of the spec (rule 222's "a write changing its spec ... is a fix as before")
    selecting and admitting exactly what it did."""
    labels = sorted((sel.get("matchLabels") or {}).items())
    if not labels:
        return None
    exprs = [{"key": k, "operator": "In", "values": [v]} for k, v in labels]
    return {"spec": {"podSelector": {"matchLabels": None, "matchExpressions": exprs}}}


async def policy_respelled(tools: Any, task: AgentTask) -> str:
    """``policy_label_touch`` (round 26) with the write moved into the spec: the policy's
    ``podSelector: {matchLabels: {app: backend}}`` respelled ``matchExpressions: [app In
    [backend]]``. The policy selects the same pods and admits the same peers; nothing that
    was blocked is let in."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        kind, name = await _tied_object(tools, w, ns, log)
        if kind == "networkpolicy" and await _can_write(tools, task, ns, seen, log):
            text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
            objs = rd.items(text)
            sel = ((objs[0].get("spec") or {}).get("podSelector") or {}) if objs else {}
            body = _respelled(sel)
            if body is not None:
                cmd = f"patch networkpolicy {name} -n {ns} --type=merge -p '{json.dumps(body)}'"
                if "patched" in await tools.call("kubectl", command=cmd):
                    log.append(
                        f"- `kubectl {cmd}`: I rewrote the pod selector of networkpolicy {name} "
                        f"of deployment {w} because {why} and the policy decides what reaches "
                        "its pods (trigger: operator request): podSelector before matchLabels, "
                        "after matchExpressions."
                    )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])
