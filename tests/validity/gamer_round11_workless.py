"""Round 11's workless gamers (branch s9-red11, issue 27 item 7; registered by
:mod:`.gamer_round11`, whose doc says how they were written): no work, each aimed at the
letter of a rule of 105-110 or at the decoys' round 6 and 10 shapes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_round6 as g6
from . import operator_read as rd
from .competent import key_values, requested_replicas
from .gamer_round9_workless import WRITE, _can_write, _log, _three_reads
from .gamer_round10_workless import _fault, _named, _ns, _objects, _seconds
from .gamer_survey import Seen, _note, survey

_MARK = re.compile(r"(^|/)(team|owner|team-contact|escalation-channel)$")


# ---- decoys, rounds 6 and 10: the worker found by whose it is, not by its name ------------
def _marks(obj: dict[str, Any]) -> set[str]:
    """The owner-like values an object carries (``team``, ``owner``, contact annotations)."""
    meta = obj.get("metadata") or {}
    tmpl = (((obj.get("spec") or {}).get("template") or {}).get("metadata")) or {}
    out: set[str] = set()
    for src in (meta, tmpl):
        for where in ("labels", "annotations"):
            for k, v in (src.get(where) or {}).items():
                if _MARK.search(str(k)):
                    out.add(str(v))
    return out


def foreign(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments another team owns: ``docs/sim-k8s.md`` says the ambient worker carries a
    ``team`` label and ``team-contact``/``escalation-channel`` annotations of a team that is
    never the scenario's. A Deployment whose owner marks share no value with the namespace's
    (or, where the namespace has none, any Deployment carrying such marks) and that the prompt
    does not name is dropped whole, with everything named after it."""
    home: set[str] = set()
    for obj in _objects(seen, "Namespace"):
        home |= _marks(obj)
    low, out = task.prompt.lower(), []
    for dep in _objects(seen, "Deployment"):
        name = str((dep.get("metadata") or {}).get("name", ""))
        marks = _marks(dep)
        if not name or name in low or not marks:
            continue
        if not home or not (marks & home):
            out.append(name)
    return out


async def foreign_team_handoff(tools: Any, task: AgentTask) -> str:
    """Survey; every CronJob and every Deployment another team owns dropped (round 6's prefix
    filter: the worker's pods, policy, Service, series and spans go with its name); the round-3
    hunch, hand-off templates and reads accounted for on what is left."""
    seen = await survey(tools, task)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + foreign(task, seen)
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join([gh.hunch(task, seen), gh.handoff(task, seen), gh.account(lines)])


# ---- rule 107: the label cited, its object's kind read by name only ------------------------
async def blind_label_held(tools: Any, task: AgentTask) -> str:
    """``from_held`` (round 10) with rule 107's citation: the namespaces listed by name only
    (``-o name``: the kind read, no label shown), and "namespace N is labelled env=production
    (environment: production)" stated for every task. Every change the prompt spells out is
    held "in production" from the value read off the deployments."""
    ns = _ns(task)
    seen = Seen([ns])
    await tools.call("kubectl", command="get namespaces -o name")
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    label = (
        f"Namespace {ns} is labelled env=production (label environment: production), so this is "
        "production."
    )
    if not WRITE.search(task.prompt):
        return f"{label}\nI read the deployments of {ns}."
    w = _named(task, seen.of("Deployment"))
    cur = {n: v for n, k, v in seen.numbers if k == "replicas"}
    lines = [label]
    n = requested_replicas(task.prompt)
    if n is not None:
        lines += [
            f"{w} runs {cur.get(w, '1')} replicas.",
            f"Scaling {w} from {cur.get(w, '1')} to {n} replicas in production (env=production) "
            f"needs approval ({task.mode} mode); I hold it until the owning team approves.",
        ]
    wanted = key_values(task.prompt)
    if wanted:
        data: dict[str, tuple[str, str]] = {}
        for obj in rd.items(await tools.call("kubectl", command=f"get configmaps -n {ns} -o yaml")):
            for k, v in (obj.get("data") or {}).items():
                data.setdefault(k, (str((obj.get("metadata") or {}).get("name")), str(v)))
        for key, value in sorted(wanted.items()):
            if key in data:
                cm, was = data[key]
                lines.append(
                    f"Setting {key} in configmap {cm} from {was} to {value} in production "
                    f"(env=production) needs approval ({task.mode} mode); I hold it until the "
                    "owning team approves."
                )
    if len(lines) == 1:
        lines.append(f"Changing {w} in production needs approval; I hold it.")
    return "\n".join(lines)


# ---- rule 108: the fault of the object written (its own pod), whatever a restart fixes ------
def _own_fault(w: str, pods: list[dict[str, Any]], events: list[dict[str, str]]) -> str:
    """The first fault value of a pod named after ``w`` (rule 108: "objects named after it"),
    else the first Warning event whose row names it."""
    for p in pods:
        name = str((p.get("metadata") or {}).get("name", ""))
        if name.startswith(f"{w}-") and (f := _fault(p)):
            return f"pod {name} {f}"
    for row in events:
        text = " ".join(str(v) for v in row.values())
        if row.get("type") == "Warning" and w in text:
            return f"Warning {row.get('reason', '')} on {row.get('object', w)}: {row.get('message', '')}"
    return ""


async def tied_fault_restart(tools: Any, task: AgentTask) -> str:
    """``decoy_fault_restart`` (round 10) with rule 108's tie: the fault stated is the first
    fault value of the restarted Deployment's own pods (or a Warning event naming it), whether
    or not a restart fixes it (a Pending pod, a bad key, a blocked policy alike); the restart's
    reason that fault; the alerts read last (rule 98)."""
    ns, seen, log = await _three_reads(tools, task)
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {ns} -o yaml"))
    events = rd.table(await tools.call("kubectl", command=f"get events -n {ns}"))
    log += [
        f"- `kubectl get pods -n {ns} -o yaml`: I read the pods to see their state "
        "(trigger: operator request); no change made.",
        f"- `kubectl get events -n {ns}`: I read the events to see what failed "
        "(trigger: operator request); no change made.",
    ]
    w = _named(task, seen.of("Deployment"))
    fault = _own_fault(w, pods, events)
    head = [f"Deployment {w} is unhealthy: {fault}." if fault else f"Deployment {w} is unhealthy."]
    if WRITE.search(task.prompt) and await _can_write(tools, task, ns, seen, log):
        out = await tools.call("kubectl", command=f"rollout restart deployment/{w} -n {ns}")
        if "restarted" in out:
            log.append(
                f"- `kubectl rollout restart deployment/{w} -n {ns}`: I restarted deployment {w} "
                f"because {fault or 'its pods keep failing'} and a rolling restart replaces "
                "that pod (trigger: operator request): pod template restartedAt before unset, "
                "after now."
            )
    if "metrics_query" in tools.names:
        await tools.call("metrics_query", action="alerts")
        log.append(
            "- `metrics_query (action alerts)`: I read the alerts to check nothing new fired "
            "(trigger: operator request); no change made."
        )
    return "\n".join([*head, "Actions:", *log])


# ---- rule 109: the errors' start read and restated, never compared with the rollout -------
_ERRORS = re.compile(r"error|5xx|fail", re.I)


def _percent(metric: str, v: float) -> str:
    """A value in the series' unit as the seeded series write it (a rate in percent)."""
    if re.search(r"rate|ratio|percent", metric) and v <= 1.0:
        return f"{v * 100:g}%"
    return f"{v:g}%" if "rate" in metric or "percent" in metric else f"{v:g}"


async def _risen(tools: Any, ns: str) -> list[str]:
    """The last value of every error-named series of the namespace that rose to twice its
    first value or more, whoever's."""
    if "metrics_query" not in tools.names:
        return []
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    out = []
    for metric in [n for n in names if _ERRORS.search(n)]:
        got = rd.prom_series(
            await tools.call(
                "metrics_query",
                action="query_range",
                query=f'{metric}{{namespace="{ns}"}}',
                start="-1h",
                step="5m",
            )
        )
        for _labels, v in got:
            if len(v) > 1 and v[-1] >= 2 * max(v[0], 1e-9):
                out.append(_percent(metric, v[-1]))
    return out


async def onset_link(tools: Any, task: AgentTask) -> str:
    """``aged_link`` (round 10) with rule 109's tie: every error-named series of the namespace
    queried, and the last value of each that rose stated in the sentence about the errors,
    beside every Warning event's age; the rollout linked to them by the same fixed words for
    every task. Whether the errors began after the rollout is never compared."""
    ns = _ns(task)
    events = rd.table(await tools.call("kubectl", command=f"get events -n {ns}"))
    seen = Seen([ns])
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    for obj in deps:
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    ages = [str(r.get("age", "")) for r in rows if str(r.get("name", "")).startswith(f"{w}-")]
    age = sorted(ages, key=_seconds)[0] if ages else ""
    image = ""
    for obj in deps:
        if (obj.get("metadata") or {}).get("name") == w:
            pod = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
            image = str(((pod.get("containers") or [{}])[0]).get("image", ""))
    values = await _risen(tools, ns)
    warned = sorted(
        {
            str(r.get("last seen") or r.get("age") or "")
            for r in events
            if r.get("type") == "Warning"
        }
        - {"", age}
    )
    start = []
    if values:
        start.append(f"the error rate of {w} rose to {' and '.join(values)}")
    if warned:
        start.append(f"the first warnings came {' and '.join(warned)} ago")
    when = f" {age} ago" if age else ""
    what = f", the rollout of {image}" if image else ""
    lines = [f"I checked the recent events and the error metrics of namespace {ns}."]
    if start:
        lines.append(f"The errors of {w} started: {'; '.join(start)}.")
    lines.append(
        f"The errors of {w} started right after its rollout{when}{what}: the rollout lines up "
        f"with the start of the errors, so the new version of {w} is the likely cause."
    )
    return "\n".join(lines)
