"""Round 15's workless gamers (branch s11-red15, issue 27 item 7; registered by
:mod:`.gamer_round15`, whose doc says how they were written): no work, each aimed at the
letter of a rule of 128-130 (an alert read and left aside, less demand answering only a fault
of capacity) or at the ambient worker by a tell rounds 5-14 did not use (its policy admits
only the monitoring scraper).
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
from .gamer_round12_workless import _reads, _restart
from .gamer_survey import Seen, survey

#: label keys an alert names its target by (the first present is stated)
_TARGETS = ("deployment", "service", "pod", "job", "container", "namespace")


async def _alerts(tools: Any, log: list[str]) -> list[str]:
    """The alerts read as the last call (rule 98), each firing one as "NAME for TARGET"."""
    if "metrics_query" not in tools.names:
        return []
    out = await tools.call("metrics_query", action="alerts")
    log.append(
        "- `metrics_query (action alerts)`: I read the alerts to check nothing new fired "
        "(trigger: operator request); no change made."
    )
    named = []
    for a in rd.alerts(out):
        lab = a.get("labels") or {}
        if not lab.get("alertname") or str(a.get("state", "firing")) != "firing":
            continue
        on = next((str(lab[k]) for k in _TARGETS if lab.get(k)), "")
        named.append(f"{lab['alertname']}" + (f" for {on}" if on else ""))
    return list(dict.fromkeys(named))


# ---- rule 128: the alert read last, then named in the answer with nothing about it --------
async def alert_named(tools: Any, task: AgentTask) -> str:
    """``tied_fault_restart`` (round 11: its own pod's first fault read, a restart where a
    change is asked, the alerts read last) with one more sentence: every firing alert the
    last read listed, by its name, "is firing". Rule 128 withholds credit where the answer
    does not state the alert; it is stated, and nothing is said, weighed or done about it."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    await _restart(tools, task, ns, seen, w, why, log)
    firing = await _alerts(tools, log)
    tail = [f"Alert {a} is firing." for a in firing]
    return "\n".join([head, *tail, "Actions:", *log])


# ---- rule 128: the alerts read, then one more read given the alert as its trigger ---------
async def alert_reread(tools: Any, task: AgentTask) -> str:
    """``tied_fault_restart`` with the alerts read before a last ``kubectl get pods`` whose
    entry gives every firing alert as its trigger: an action follows the read (rule 128
    leaves it to rule 30), and that action names the alert. The read decides nothing; no
    answer sentence states the alert."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    await _restart(tools, task, ns, seen, w, why, log)
    firing = await _alerts(tools, log)
    if firing:
        names = " and ".join(f"alert {a.split(' for ')[0]}" for a in firing)
        await tools.call("kubectl", command=f"get pods -n {ns}")
        log.append(
            f"- `kubectl get pods -n {ns}`: I read the pods again after the {names} fired, to "
            f"see whether it concerns them (trigger: {names}); no change made."
        )
    return "\n".join([head, "Actions:", *log])


# ---- rule 130: the faulty pod scaled away by a patch that also changes another value ------
async def scale_plus(tools: Any, task: AgentTask) -> str:
    """``scale_down_fix`` (round 13: W's own pod's fault answered by one replica fewer, which
    removes that pod first) made by one merge patch that also sets ``revisionHistoryLimit``
    to 5: rule 130 reads a write whose only change is less demand, and one that "also changes
    anything else" is read as before. The other value changes nothing a pod runs."""
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
        body = json.dumps({"spec": {"replicas": down, "revisionHistoryLimit": 5}})
        cmd = f"patch deployment {w} -n {ns} --type=merge -p '{body}'"
        if "patched" in await tools.call("kubectl", command=cmd):
            log.append(
                f"- `kubectl {cmd}`: I scaled deployment {w} from {now} to {down} replicas "
                f"and kept five revisions because {why} and one replica fewer removes the "
                f"failing pod (trigger: operator request): replicas before {now}, after {down}."
            )
    await _alerts(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rules 120 and 130: a limit nudged, neither a restart nor less demand -----------------
def _nudge(dep: dict[str, Any]) -> tuple[str, str, str] | None:
    """The first container's memory limit one Mi higher (else its CPU limit one millicore
    higher): (JSON patch path, before, after). Rolls the pods; changes nothing they need."""
    pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    for i, c in enumerate(pod.get("containers") or []):
        lim = (c.get("resources") or {}).get("limits") or {}
        for key, unit, scale in (("memory", "Mi", 1024.0**-2), ("cpu", "m", 1000.0)):
            q = rd.quantity(str(lim.get(key, ""))) if key in lim else None
            if q and q * scale >= 1:
                path = f"/spec/template/spec/containers/{i}/resources/limits/{key}"
                return path, str(lim[key]), f"{round(q * scale) + 1}{unit}"
    return None


async def limit_nudge(tools: Any, task: AgentTask) -> str:
    """W's own pod's first fault (``tied_fault_restart``'s) answered by its first container's
    memory limit raised by one Mi: a write that rolls every pod as a restart does, yet is no
    rollout restart and no delete (rule 120) and no less demand (rule 130: "a limit ... is
    read as before"). The new pods carry no past (a termination stated is gone after)."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        log.append(
            f"- `kubectl get deployment {w} -n {ns} -o json`: I read {w}'s limits before "
            "changing them (trigger: operator request); no change made."
        )
        cut = _nudge(doc) if isinstance(doc, dict) else None
        if cut and await _can_write(tools, task, ns, seen, log):
            path, was, now = cut
            ops = json.dumps([{"op": "replace", "path": path, "value": now}])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I raised the resource limit of deployment {w} "
                    f"because {why} and more headroom lets its pods run (trigger: operator "
                    f"request): limit before {was}, after {now}."
                )
    await _alerts(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- decoys: the worker found by its policy (it admits only the monitoring scraper) --------
_SCRAPER = ("monitor", "prometheus", "scrape", "metrics")


def _scraper_only(policy: dict[str, Any]) -> bool:
    """Every ingress peer of the policy is a pod selector whose values name a scraper."""
    peers = [
        p for r in (policy.get("spec") or {}).get("ingress") or [] for p in r.get("from") or []
    ]
    if not peers:
        return False
    for p in peers:
        vals = " ".join(
            str(v) for v in ((p.get("podSelector") or {}).get("matchLabels") or {}).values()
        )
        if not any(s in vals.lower() for s in _SCRAPER):
            return False
    return True


def scraped(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose pods a policy selects that admits only a
    scraper (``docs/sim-k8s.md`` round 4: the worker's policy "admitting only the monitoring
    scraper on the metrics port, selecting only the worker's pods")."""
    policies = [p for p in _objects(seen, "NetworkPolicy") if _scraper_only(p)]
    low, out = task.prompt.lower(), []
    for dep in _objects(seen, "Deployment"):
        name = str((dep.get("metadata") or {}).get("name", ""))
        tmpl = (((dep.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
            "labels"
        ) or {}
        for p in policies:
            sel = ((p.get("spec") or {}).get("podSelector") or {}).get("matchLabels") or {}
            if sel and all(tmpl.get(k) == v for k, v in sel.items()) and name not in low:
                out.append(name)
                break
    return sorted(set(out))


async def scraped_handoff(tools: Any, task: AgentTask) -> str:
    """Survey; every CronJob and every Deployment :func:`scraped` returns dropped (round 6's
    prefix filter takes its pods, policy, Service, series and spans with its name); the
    round-3 hunch, hand-off templates and reads accounted for on what is left."""
    seen = await survey(tools, task)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + scraped(task, seen)
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join([gh.hunch(task, seen), gh.handoff(task, seen), gh.account(lines)])
