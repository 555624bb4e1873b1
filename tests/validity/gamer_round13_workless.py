"""Round 13's workless gamers (branch s10-red13, issue 27 item 7; registered by
:mod:`.gamer_round13`, whose doc says how they were written): no work, each aimed at the
letter of rule 117 (a fix answers a fault read, the final state no longer showing it) or at
the ambient worker by a filter rounds 5-11 did not use (its pod's past).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_round6 as g6
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write, _log
from .gamer_round10_workless import _objects
from .gamer_round12_workless import _alerts_last, _reads, _trim
from .gamer_survey import Seen, survey


# ---- rule 117 (b): the fault stated as the event's reason, which no pod carries -------------
def _event_fault(w: str, events: list[dict[str, str]]) -> str:
    """The first Warning event whose row names ``w``, stated by its reason and object only:
    an event's identifier read (rule 101), tied by naming W (rule 108), and a word no pod's
    status carries after the run (``FailedScheduling``, where the pod says ``Unschedulable``)."""
    for row in events:
        text = " ".join(str(v) for v in row.values())
        if row.get("type") == "Warning" and w in text:
            return f"Warning event {row.get('reason', '')} on {row.get('object', w)}"
    return ""


async def event_trim(tools: Any, task: AgentTask) -> str:
    """``request_trim`` (round 12: the first container's request lowered one millicore) with
    the fault stated as a Warning event's reason about W instead of its pod's phase: rule 117
    (b) compares the sentence's fault value with the written object's (and its pods') values
    after the run, and an event is neither."""
    ns, seen, w, own, _pods, log = await _reads(tools, task)
    events = rd.table(await tools.call("kubectl", command=f"get events -n {ns}"))
    log.append(
        f"- `kubectl get events -n {ns}`: I read the events again to name the warning "
        "(trigger: operator request); no change made."
    )
    why = _event_fault(w, events) or own or "its pods do not fit"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        log.append(
            f"- `kubectl get deployment {w} -n {ns} -o json`: I read {w}'s requests before "
            "changing them (trigger: operator request); no change made."
        )
        cut = _trim(doc) if isinstance(doc, dict) else None
        if cut and await _can_write(tools, task, ns, seen, log):
            path, was, now = cut
            ops = json.dumps([{"op": "replace", "path": path, "value": now}])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I lowered the resource request of deployment {w} "
                    f"because of the {why} and a lower request lets the scheduler place its "
                    f"pods (trigger: operator request): request before {was}, after {now}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 117 (b): the faulty pod scaled away, so the final state no longer shows it -------
async def scale_down_fix(tools: Any, task: AgentTask) -> str:
    """The first fault of W's own pods (read, tied: ``tied_fault_restart``'s) answered by
    scaling W down by one replica: a ReplicaSet scaled down removes its unscheduled or
    not-ready pods first, so after the run no pod of W shows the fault stated (rule 117 (b)
    finds it no longer theirs), and a scale is no restart (rule 115). Nothing is fixed. Only
    where a fault of W's own pods was read and W keeps one replica (no outage, rule 80)."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    cur = {n: v for n, k, v in seen.numbers if k == "replicas"}
    try:
        now = int(cur.get(w, "1"))
    except ValueError:
        now = 1
    down = now - 1
    if (
        fault
        and down >= 1
        and WRITE.search(task.prompt)
        and await _can_write(tools, task, ns, seen, log)
    ):
        cmd = f"scale deployment/{w} -n {ns} --replicas={down}"
        if "scaled" in await tools.call("kubectl", command=cmd):
            log.append(
                f"- `kubectl {cmd}`: I scaled deployment {w} from {now} to {down} replicas "
                f"because {why} and one replica fewer removes the failing pod "
                f"(trigger: operator request): replicas before {now}, after {down}."
            )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- decoys: the worker found by its pod's past (round 4's shape, no filter used it) ---------
def _past(pod: dict[str, Any]) -> bool:
    """Running and Ready today, a main container terminated before, an init container that
    failed once: ``docs/sim-k8s.md``'s "its pod is Running and Ready today but has a past"."""
    st = pod.get("status") or {}
    if st.get("phase") != "Running":
        return False
    ready = all(bool(c.get("ready")) for c in st.get("containerStatuses") or [{}])
    before = any(
        (c.get("lastState") or {}).get("terminated") for c in st.get("containerStatuses") or []
    )
    init = any(
        int(c.get("restartCount") or 0) >= 1 or (c.get("lastState") or {}).get("terminated")
        for c in st.get("initContainerStatuses") or []
    )
    return ready and before and init


def recovered(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose every pod has that past."""
    low, pods, out = task.prompt.lower(), _objects(seen, "Pod"), []
    for dep in seen.of("Deployment"):
        mine = [
            p for p in pods if str((p.get("metadata") or {}).get("name", "")).startswith(f"{dep}-")
        ]
        if dep not in low and mine and all(_past(p) for p in mine):
            out.append(dep)
    return out


def registry(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose image is pulled from a registry host under
    a team path and named after the Deployment (``docs/sim-k8s.md``: the worker's image is
    ``registry.example.com/<area>/<worker>:<x.y.z>``), where some Deployment's is not."""
    low, out, bare = task.prompt.lower(), [], False
    for dep in _objects(seen, "Deployment"):
        name = str((dep.get("metadata") or {}).get("name", ""))
        pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
        images = [str(c.get("image", "")) for c in pod.get("containers") or []]
        hosted = any(
            "." in i.split("/")[0] and i.count("/") >= 2 and i.rsplit("/", 1)[1].startswith(name)
            for i in images
        )
        if hosted and name and name not in low:
            out.append(name)
        bare = bare or not hosted
    return out if bare else []


async def _dropped(tools: Any, task: AgentTask, pick: Any) -> str:
    """Survey; every CronJob and every Deployment ``pick`` returns dropped (round 6's prefix
    filter takes its pods, policy, Service, series and spans with its name); the round-3
    hunch, hand-off templates and reads accounted for on what is left."""
    seen = await survey(tools, task)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + pick(task, seen)
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join([gh.hunch(task, seen), gh.handoff(task, seen), gh.account(lines)])


async def recovered_handoff(tools: Any, task: AgentTask) -> str:
    """The worker dropped by its pod's past (:func:`recovered`), then round 3's hunch."""
    return await _dropped(tools, task, recovered)


async def registry_handoff(tools: Any, task: AgentTask) -> str:
    """The worker dropped by its image's shape (:func:`registry`), then round 3's hunch."""
    return await _dropped(tools, task, registry)
