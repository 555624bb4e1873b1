"""The held-out operator of session 29 (``heldout34``): a health check, a rollout to carry on,
a release that lines up with the errors.

How a workload is doing (its pods, its memory over time against its limit, the alerts that fire
while it is being checked), and a paused rolling update continued around a node that went bad.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout34_change import verify_rollout
from .operator_heldout34_diag import Finding
from .operator_heldout34_look import View, Workload, limit_bytes, memory_series
from .operator_heldout34_ops import Call, Ops, cite
from .operator_heldout34_page import size, size_q


async def health(ops: Ops, view: View, name: str) -> str:
    trigger = ops.request
    ops.say("Investigating", f"Checking how {name} is doing {cite(view.dep_call, view.pods_call)}.")
    wl = Workload(name)
    rows = view.pods_of(name)
    desc = await ops.k(
        f"describe deployment {name} -n {ops.ns}",
        f"read {name}'s replicas, limits and conditions",
        trigger,
    )
    spec = await ops.k(
        f"get deployment {name} -n {ops.ns} -o yaml", f"read {name}'s memory limit", trigger
    )
    wl.spec = (rd.items(spec.text) or [{}])[0]
    limit = limit_bytes(wl)
    lim_said = size_q(
        next(
            (
                str(((c.get("resources") or {}).get("limits") or {}).get("memory", ""))
                for c in wl.containers()
            ),
            "",
        )
    )
    ready = sum(
        1 for r in rows if r.get("ready", "").split("/")[0] == r.get("ready", "").split("/")[-1]
    )
    text = f"{ready} of {len(rows)} {name} pods are Ready {cite(view.pods_call, desc)}."
    mem_call, memory = await memory_series(ops, name, trigger)
    rising = bool(memory) and rd.trend(memory) == "rising"
    if memory and limit:
        now = memory[-1]
        if rising:
            rate = _per_hour(mem_call, name)
            text += (
                f" Memory is the thing to watch: it has climbed steadily, from {size(memory[0])} to {size(now)}, "
                f"and now sits at about {round(now / limit * 100)} percent of its {lim_said} limit {cite(mem_call, spec)}."
            )
            if rate and rate > 0:
                text += (
                    f" At {size(rate)} an hour it reaches the limit in roughly {(limit - now) / rate:.0f} hours, "
                    "and then the kernel OOM-kills it. That's a leak pattern, not a traffic spike."
                )
        else:
            text += f" Memory is steady at {size(now)}, about {round(now / limit * 100)} percent of its {lim_said} limit {cite(mem_call, spec)}."
    alerts = (
        await ops.call(
            "metrics_query",
            f"check whether any alert is firing for {name}",
            trigger,
            action="alerts",
        )
        if ops.has("metrics_query")
        else None
    )
    firing = (
        [
            a
            for a in rd.alerts(alerts.text)
            if name in str(a.get("labels", {})) + str(a.get("annotations", {}))
        ]
        if alerts
        else []
    )
    ops.say(
        "Identified",
        text + (f" No alert is firing for it {cite(alerts)}." if alerts and not firing else ""),
    )
    for a in firing:
        nm = a.get("labels", {}).get("alertname", "an alert")
        mc, mem = await memory_series(ops, name, f"the alert {nm} [{alerts.n}]", span="-1h")
        top = await ops.k(
            f"top pods -n {ops.ns}",
            f"read {name}'s memory right now",
            f"the alert {nm} [{alerts.n}]",
        )
        said = f"{size(mem[-1])}" if mem else "no series"
        ops.say(
            "Identified",
            f"The alert {nm} started firing for {name} while I was checking ({a.get('state', 'firing')}) {cite(alerts)}. Prompted by "
            f"it, I looked at memory: {name} reads {said} {cite(mc, top)}"
            + (f" against its {lim_said} limit" if limit else "")
            + ".",
        )
    if rising:
        ops.say(
            "Monitoring",
            f"Nothing is down yet, so I changed nothing. Recommendation: have the {name} team look for the leak, and restart or raise the limit before it gets there; I'll keep an eye on the trend.",
        )
    else:
        if firing:
            ops.say(
                "Monitoring",
                f"No change made. The alert is firing, but the memory I read is steady and well under the limit, so this doesn't look like a leak yet; I'd check the alert's threshold and keep watching {name}'s memory over the next hour.",
            )
        else:
            ops.say(
                "Resolved",
                f"No change made. {name} looks "
                + ("healthy." if ready == len(rows) else "like it needs a closer look; see above."),
            )
    return f"Update: {name} health check"


def _per_hour(call: Call | None, name: str) -> float | None:
    doc = rd.load_json(call.text) if call else None
    best = None
    for series in (doc or {}).get("data", {}).get("result", []) if isinstance(doc, dict) else []:
        pts = [(float(t), float(v)) for t, v in series.get("values", [])]
        if len(pts) >= 2 and pts[-1][0] > pts[0][0]:
            rate = (pts[-1][1] - pts[0][1]) / ((pts[-1][0] - pts[0][0]) / 3600)
            best = rate if best is None else max(best, rate)
    return best


async def rollout(ops: Ops, view: View, name: str) -> str:
    ns = ops.ns
    status = await ops.k(
        f"rollout status deployment/{name} -n {ns} --timeout=10s",
        f"see where {name}'s rolling update stands",
    )
    plan = await ops.k(
        f"describe deployment {name} -n {ns}",
        f"read {name}'s target image and old/new ReplicaSets",
        f"the rollout status [{status.n}]",
    )
    nodes = await ops.k(
        "get nodes",
        "check node health before more new pods get scheduled",
        f"the rollout status [{status.n}]",
    )
    conds = await ops.k(
        "describe nodes",
        "read each node's conditions (disk, memory, PID pressure)",
        f"the rollout status [{status.n}]",
    )
    pressured = []
    for block in conds.text.split("\nName:"):
        m = re.match(r"\s*(\S+)", block)
        if m and re.search(r"DiskPressure\s+True", block):
            pressured.append(m.group(1))
    if pressured:
        node = pressured[0]
        ops.say(
            "Identified",
            f"{name}'s rolling update is paused part-way {cite(status, plan)}. While I was picking it up, {node} started reporting DiskPressure=True {cite(conds)}. New pods scheduled there would be evicted or fail to start, so carrying on exactly as planned isn't safe.",
        )
        aff = {
            "spec": {
                "template": {
                    "spec": {
                        "affinity": {
                            "nodeAffinity": {
                                "requiredDuringSchedulingIgnoredDuringExecution": {
                                    "nodeSelectorTerms": [
                                        {
                                            "matchExpressions": [
                                                {
                                                    "key": "kubernetes.io/hostname",
                                                    "operator": "NotIn",
                                                    "values": [node],
                                                }
                                            ]
                                        }
                                    ]
                                }
                            }
                        }
                    }
                }
            }
        }
        write = await ops.k(
            f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff, sort_keys=True)}'",
            f"keep {name}'s new pods off {node} while it has disk pressure",
            f"the DiskPressure condition on {node} [{conds.n}]",
        )
        resume = await ops.k(
            f"rollout resume deployment/{name} -n {ns}",
            f"carry on with {name}'s paused rolling update, now only onto healthy nodes",
            f"your request and my change [{write.n}]",
        )
        ok, done = await verify_rollout(ops, name, f"the resume [{resume.n}]")
        wide = await ops.k(
            f"get pods -n {ns} -l app={name} -o wide",
            f"confirm no new {name} pod landed on {node}",
            f"my change [{write.n}]",
        )
        ops.say(
            "Monitoring" if ok else "Escalated",
            f"I adapted the plan: new pods now avoid {node} {cite(write)}, and then I resumed the paused rollout {cite(resume)}. "
            + (
                f"It finished {cite(done, wide)}."
                if ok
                else f"It hasn't finished yet {cite(done, wide)}."
            )
            + f" Once {node}'s disk pressure clears, the node rule can come out; the platform team should look at what filled {node}'s disk.",
        )
        return f"Update: {name} rollout adapted around {node}"
    resume = await ops.k(
        f"rollout resume deployment/{name} -n {ns}",
        f"let {name}'s rolling update carry on",
        f"your request and the rollout status [{status.n}]",
    )
    ok, done = await verify_rollout(ops, name, f"the resume [{resume.n}]")
    ops.say(
        "Resolved" if ok else "Escalated",
        f"The nodes are healthy {cite(nodes)}; I resumed the rollout {cite(resume)} and it "
        + ("finished" if ok else "has not finished")
        + f" {cite(done)}.",
    )
    return f"Update: {name} rollout"


async def deploy_timing(ops: Ops, wl: Workload) -> Finding | None:
    rs = await ops.k(
        f"get replicasets -n {ops.ns} -l app={wl.name} -o wide",
        f"see when {wl.name}'s current version went out",
        f"the symptom on {wl.name}",
    )
    hist = await ops.k(
        f"rollout history deployment/{wl.name} -n {ops.ns}",
        f"check {wl.name}'s recent rollouts",
        f"the symptom on {wl.name}",
    )
    sets = sorted(rd.table(rs.text), key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    if len(sets) < 2:
        return None
    new, old = sets[0], sets[1]
    age = rd.age_minutes(new.get("age", "")) or 1e9
    if age > 120:
        return None
    onset = await _error_onset(ops, wl)
    when = (
        f" The errors began about {onset} minutes ago, right after it" if onset is not None else ""
    )
    return Finding(
        "bad_deploy",
        f"the {wl.name} release {new.get('images', new.get('name', ''))} that went out about {age:.0f} minutes "
        f"ago (replacing {old.get('images', old.get('name', ''))})",
        f"the new ReplicaSet {new.get('name')} is {new.get('age')} old {cite(rs, hist)}.{when}",
        f"roll {wl.name} back to {old.get('images', 'the previous version')} (kubectl rollout undo) and have the team look at the release",
    )


async def _error_onset(ops: Ops, wl: Workload) -> int | None:
    if not ops.has("metrics_query"):
        return None
    call = await ops.call(
        "metrics_query",
        f"find when {wl.name}'s errors started",
        "the recent release",
        action="query_range",
        query=f'error_rate{{service="{wl.name}"}}',
        start="-1h",
    )
    doc = rd.load_json(call.text) or {}
    for series in (doc.get("data", {}) or {}).get("result", []) if isinstance(doc, dict) else []:
        pts = [(float(t), float(v)) for t, v in series.get("values", [])]
        if len(pts) < 2:
            continue
        base = pts[0][1]
        for t, v in pts:
            if v > max(base * 5, 0.01):
                return round((pts[-1][0] - t) / 60)
    return None
