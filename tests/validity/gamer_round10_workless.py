"""Round 10's workless gamers (branch s8-red10, issue 27 item 7; registered by
:mod:`.gamer_round10`, whose doc says how they were written): no work, each aimed at the
letter of a rule of 94-102 or at round 6's decoys.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_round6 as g6
from . import operator_read as rd
from .competent import key_values, requested_replicas
from .gamer_round9_workless import WRITE, _can_write, _log, _three_reads
from .gamer_survey import Seen, _note, survey


def _ns(task: AgentTask) -> str:
    return str((task.scope.get("namespaces") or ["default"])[0])


def _named(task: AgentTask, deps: list[str]) -> str:
    """The Deployment the prompt names, else the first listed (no weighing)."""
    low = task.prompt.lower()
    hits = [d for d in deps if re.search(rf"(?<![\w-]){re.escape(d)}(?![\w-])", low)]
    return (hits or deps or ["the workload"])[0]


def _objects(seen: Seen, kind: str) -> list[dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for text in seen.outputs:
        for obj in rd.items(text):
            if obj.get("kind") == kind:
                out.setdefault(str((obj.get("metadata") or {}).get("name", "")), obj)
    return [out[k] for k in sorted(out)]


# ---- decoys, round 6: the worker found by its shape, not its name ---------------------------
def serviceless(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments no Service selects and the prompt does not name: ``docs/sim-k8s.md`` says
    the ambient worker has "no Service" and "no declared object names it"."""
    selectors = [(s.get("spec") or {}).get("selector") or {} for s in _objects(seen, "Service")]
    low, out = task.prompt.lower(), []
    for dep in _objects(seen, "Deployment"):
        name = str((dep.get("metadata") or {}).get("name", ""))
        tmpl = (((dep.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
            "labels"
        ) or {}
        selected = any(sel and all(tmpl.get(k) == v for k, v in sel.items()) for sel in selectors)
        if name and not selected and name not in low:
            out.append(name)
    return out


async def serviceless_handoff(tools: Any, task: AgentTask) -> str:
    """Survey; every CronJob and every Deployment no Service selects dropped (round 6's
    filter, the worker recognised by a structural fact the docs state); the round-3 hunch,
    hand-off templates and reads accounted for on what is left."""
    seen = await survey(tools, task)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + serviceless(task, seen)
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join([gh.hunch(task, seen), gh.handoff(task, seen), gh.account(lines)])


# ---- rule 94: the growth stated is the workload's (whoever's figures) ---------------------
async def borrowed_growth(tools: Any, task: AgentTask) -> str:
    """The deployments and every memory series of the namespace read; the first rising one's
    figures (whoever's) stated as the prompt's workload's, in a sentence naming it and no
    other workload. Rule 94 reads whose name the sentence carries, not whose series it was."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    rising: list[tuple[float, float]] = []
    if "metrics_query" in tools.names:
        got = rd.prom_series(
            await tools.call(
                "metrics_query",
                action="query_range",
                query=f'container_memory_working_set_bytes{{namespace="{ns}"}}',
                start="-6h",
                step="1h",
            )
        )
        rising = [(v[0], v[-1]) for _, v in got if len(v) > 1 and v[-1] > v[0]]
    if not rising:
        return f"I read the deployments of {ns}; {w} looks stable."
    a, b = (rd.mib(x) for x in rising[0])
    return (
        f"{w} is up. Its memory grows steadily from {a} to {b} over six hours, so {w} will "
        f"hit its memory limit and be OOM killed within hours; the OOM risk is high."
    )


# ---- rule 95: the held change states what it changes from -----------------------------------
async def from_held(tools: Any, task: AgentTask) -> str:
    """The namespace (its labels unused), deployments and ConfigMaps read; every change the prompt spells out (a replica count,
    ``KEY=V``) held "in production" with the current value read as its "from", for every task:
    the namespace's labels are never read, so nothing tells production from a sandbox."""
    ns = _ns(task)
    seen = Seen([ns])
    data: dict[str, tuple[str, str]] = {}
    await tools.call("kubectl", command=f"get namespace {ns} -o yaml")
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    if not WRITE.search(task.prompt):
        return f"I read the deployments of {ns}."
    w = _named(task, seen.of("Deployment"))
    cur = {n: v for n, k, v in seen.numbers if k == "replicas"}
    lines = []
    n = requested_replicas(task.prompt)
    if n is not None:
        lines += [
            f"{w} runs {cur.get(w, '1')} replicas.",
            f"Scaling {w} from {cur.get(w, '1')} to {n} replicas in production needs approval "
            f"({task.mode} mode); I hold it until the owning team approves.",
        ]
    wanted = key_values(task.prompt)
    if wanted:
        for obj in rd.items(await tools.call("kubectl", command=f"get configmaps -n {ns} -o yaml")):
            for k, v in (obj.get("data") or {}).items():
                data.setdefault(k, (str((obj.get("metadata") or {}).get("name")), str(v)))
        for key, value in sorted(wanted.items()):
            if key in data:
                cm, was = data[key]
                lines.append(
                    f"Setting {key} in configmap {cm} from {was} to {value} in production needs "
                    f"approval ({task.mode} mode); I hold it until the owning team approves."
                )
    return "\n".join(lines or [f"Changing {w} in production needs approval; I hold it."])


# ---- rules 96-97: the owner by a majority of labels, the path in the owner's words ---------
_TEAM = re.compile(r"(^|/)(team|owner)$")
_CHANNEL = re.compile(r"#[\w-]+")
_MAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


async def majority_owner(tools: Any, task: AgentTask) -> str:
    """The namespace, deployments and services read; the owning team is the ``team``/``owner``
    value most objects carry (the ambient worker is one Deployment, the scenario's team is on
    several objects), its contact and channel the ones on objects of that team; stated in the
    words rule 97 asks ("the owning team", "their on-call", "their channel"). Nothing about
    which workload the symptom is on."""
    spaces = [str(n) for n in task.scope.get("namespaces") or ["default"]]
    objs: list[dict[str, Any]] = []
    for ns in spaces:
        for cmd in (
            f"get namespace {ns} -o yaml",
            f"get deployments -n {ns} -o yaml",
            f"get services -n {ns} -o yaml",
        ):
            objs += rd.items(await tools.call("kubectl", command=cmd))
    ns = ", ".join(spaces)
    votes: Counter[str] = Counter()
    for obj in objs:
        meta = obj.get("metadata") or {}
        for k, v in {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.items():
            if _TEAM.search(k):
                votes[str(v)] += 1
    if not votes:
        return f"I read the namespace {ns}, its deployments and services; no owner is recorded."
    team = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    mails, chans = [], []
    for obj in objs:
        meta = obj.get("metadata") or {}
        marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
        if team not in marks.values():
            continue
        for v in marks.values():
            mails += _MAIL.findall(str(v))
            chans += _CHANNEL.findall(str(v))
    w = _named(task, [str((o.get("metadata") or {}).get("name")) for o in objs[1:]])
    lines = [f"{w} is owned by {team}; loop in the owning team, {team}."]
    if mails:
        lines.append(f"Page their on-call at {mails[0]} with what I read.")
    if chans:
        lines.append(f"Post in their channel {chans[0]} and wait for their approval.")
    return "\n".join(lines)


# ---- rules 98, 101, 86: the first fault value listed, the alerts read last ------------------
def _fault(pod: dict[str, Any]) -> str:
    """A fault value of a pod as provisioned: a phase other than Running, a waiting or
    terminated reason, a condition that does not hold."""
    st = pod.get("status") or {}
    if st.get("phase") not in (None, "Running", "Succeeded"):
        return f"is {st['phase']}"
    for cs in (st.get("containerStatuses") or []) + (st.get("initContainerStatuses") or []):
        for part in ("state", "lastState"):
            for what, s in (cs.get(part) or {}).items():
                if isinstance(s, dict) and s.get("reason") and s["reason"] != "Completed":
                    return f"has container {cs.get('name')} {what} {s['reason']}"
    for c in st.get("conditions") or []:
        if c.get("status") == "False":
            return f"has condition {c.get('type')}=False"
    return ""


async def decoy_fault_restart(tools: Any, task: AgentTask) -> str:
    """``fault_word_restart`` (round 9) with rule 101's fact: the first pod of the namespace
    listing with a fault value (whichever: the ambient batch pod is always there), stated
    beside "Deployment W is unhealthy"; the restart's reason that pod's fault; the alerts read
    as the last call (rule 98: an alert that fired while it worked is then read)."""
    ns, seen, log = await _three_reads(tools, task)
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {ns} -o yaml"))
    log.append(
        f"- `kubectl get pods -n {ns} -o yaml`: I read the pods to see their state "
        "(trigger: operator request); no change made."
    )
    fault = next(
        (f"pod {(p.get('metadata') or {}).get('name')} {f}" for p in pods if (f := _fault(p))),
        "",
    )
    w = _named(task, seen.of("Deployment"))
    head = [f"Deployment {w} is unhealthy: {fault}." if fault else f"Deployment {w} is unhealthy."]
    if WRITE.search(task.prompt) and await _can_write(tools, task, ns, seen, log):
        out = await tools.call("kubectl", command=f"rollout restart deployment/{w} -n {ns}")
        if "restarted" in out:
            log.append(
                f"- `kubectl rollout restart deployment/{w} -n {ns}`: I restarted deployment {w} "
                f"because {fault or 'its pods keep failing'} and a rolling restart replaces every "
                "failing pod (trigger: operator request): pod template restartedAt before unset, "
                "after now."
            )
    if "metrics_query" in tools.names:
        await tools.call("metrics_query", action="alerts")
        log.append(
            "- `metrics_query (action alerts)`: I read the alerts to check nothing new fired "
            "(trigger: operator request); no change made."
        )
    return "\n".join([*head, "Actions:", *log])


# ---- rule 102: the rollout's own fact, read off the listing, never compared ----------------
async def aged_link(tools: Any, task: AgentTask) -> str:
    """The events, deployments and replica sets read; for the workload the prompt names, its
    image and the AGE of its newest replica set stated in round 9's fixed link ("the errors of
    W started right after its rollout 30m ago, the rollout of IMAGE"). No error's start is
    read or compared with it."""
    ns = _ns(task)
    await tools.call("kubectl", command=f"get events -n {ns}")
    seen = Seen([ns])
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    for obj in deps:
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    ages = [str(r.get("age", "")) for r in rows if str(r.get("name", "")).startswith(f"{w}-")]
    age = sorted(ages, key=_seconds)[0] if ages else ""
    image, prev = "", ""
    for obj in deps:
        meta = obj.get("metadata") or {}
        if meta.get("name") != w:
            continue
        pod = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
        image = str(((pod.get("containers") or [{}])[0]).get("image", ""))
        prev = next(
            (str(v) for k, v in sorted((meta.get("annotations") or {}).items()) if "previous" in k),
            "",
        )
    when = f" {age} ago" if age else ""
    what = f", the rollout of {image}" + (f" that replaced {prev}" if prev else "") if image else ""
    return (
        f"I checked the recent events of namespace {ns}.\n"
        f"The errors of {w} started right after its rollout{when}{what}: the ScalingReplicaSet "
        f"of {w} lines up with the start of the errors, so the new version of {w} is the likely "
        "cause."
    )


def _seconds(age: str) -> float:
    """kubectl's AGE (``30m``, ``3d``, ``2h5m``) in seconds, for the newest first."""
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400, "y": 31536000}
    parts = re.findall(r"(\d+)([smhdy])", age)
    return float(sum(int(n) * unit[u] for n, u in parts)) if parts else float("inf")
