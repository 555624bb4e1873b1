"""heldout38's change plays: canary branch, high availability, capacity-aware scaling,
unschedulable pods, a rollout under a new node condition, a runbook, an image update."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout38_act import managed_by, replicas_of, scale, verify_rollout
from .operator_heldout38_calls import Session
from .operator_heldout38_diag import fmt_rate
from .operator_heldout38_look import Workload, logs_of, signals
from .operator_heldout38_pm import Postmortem


async def canary(
    s: Session, pm: Postmortem, ns: str, base: str, prompt: str, deps: list[str]
) -> None:
    can = next((d for d in deps if d.startswith(base) and "canary" in d), f"{base}-canary")
    m = re.search(r"under (\d+(?:\.\d+)?)\s*%", prompt)
    limit = float(m.group(1)) / 100 if m else 0.02
    got = rd.prom_series(
        await s.q(
            "metrics_query",
            f"read the canary {can}'s error rate",
            action="query",
            query=f'error_rate{{service="{can}"}}',
        )
    )
    rate = got[0][1][-1] if got and got[0][1] else None
    pm.title = f"canary of {base}: health gate at {limit * 100:.0f}% error rate"
    if rate is None:
        pm.summary = [f"The canary {can}'s error rate could not be read; the rollout was held."]
        pm.open("Restore the canary's error-rate metric, then re-run the gate", f"{base} owners")
        return
    healthy = rate < limit
    pm.history.append(
        ("now", f"canary {can} error rate {fmt_rate(rate)} against a {limit * 100:.0f}% gate")
    )
    if healthy:
        pm.summary = [
            f"The canary is healthy ({fmt_rate(rate)} < {limit * 100:.0f}%); traffic "
            "was bumped to 50%."
        ]
        await scale(
            s,
            pm,
            ns,
            can,
            max(
                1,
                (
                    replicas_of(
                        await s.k(
                            f"get deployment {base} -n {ns} -o yaml",
                            "read the stable replica count",
                        )
                    )
                    or 2
                ),
            ),
            "bump the canary to 50% of the pods, as the gate passed",
        )
        return
    pm.summary = [
        f"The canary {can} failed its health gate: error rate {fmt_rate(rate)} is above "
        f"the {limit * 100:.0f}% threshold, so the rollout was not bumped to 50% and the "
        f"canary was rolled back (scaled to 0). The stable {base} keeps all traffic."
    ]
    pm.impact = [f"About 10% of requests reached the canary at {fmt_rate(rate)} errors."]
    pm.root_cause = [
        f"The canary build ({can}) returns errors at {fmt_rate(rate)}; its own "
        "defect, to be found by its owners."
    ]
    await scale(
        s,
        pm,
        ns,
        can,
        0,
        f"roll back the canary: its error rate {fmt_rate(rate)} is over "
        f"the {limit * 100:.0f}% gate",
    )
    await s.k(f"get deployment {base} -n {ns}", f"confirm stable {base} is fully available")
    pm.open("Debug the canary build's errors before another canary", f"{base} owners", "P2")


async def high_availability(s: Session, pm: Postmortem, ns: str, name: str) -> None:
    out = await s.k(
        f"get deployment {name} -n {ns} -o yaml", f"read {name}'s replicas, affinity and labels"
    )
    await s.k(f"get pdb,hpa -n {ns}", "check for an existing disruption budget or autoscaler")
    nodes = rd.table(await s.k("get nodes", "count the schedulable nodes to spread over"))
    before = replicas_of(out) or 1
    target = max(3, min(len(nodes) or 3, 3))
    pm.title = f"{name}: single replica made highly available"
    pm.summary = [
        f"{name} ran {before} replica with no anti-affinity and no PodDisruptionBudget, "
        "so one node failure took it down. A plan was generated and executed:",
        f"1. Scale {name} from {before} to {target} replicas.",
        "2. Add a required pod anti-affinity on kubernetes.io/hostname so replicas land on different nodes.",
        f"3. Create PodDisruptionBudget {name} with minAvailable 2.",
        "4. Verify the replicas are Ready on distinct nodes.",
    ]
    await scale(s, pm, ns, name, target, f"plan step 1: run {target} replicas of {name}")
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "labelSelector": {"matchLabels": {"app": name}},
                                    "topologyKey": "kubernetes.io/hostname",
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    await s.k(
        f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff)}'",
        "plan step 2: spread the replicas across nodes (pod anti-affinity)",
    )
    pm.deltas[s.calls[-1].n] = f"deployment/{name} affinity none -> podAntiAffinity on hostname"
    pm.done(f"deployment/{name}: required podAntiAffinity on kubernetes.io/hostname added")
    pdb = (
        f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}\n"
        f"  namespace: {ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    )
    await s.k(
        f"apply -f - -n {ns}",
        "plan step 3: keep 2 replicas up during voluntary disruptions",
        stdin=pdb,
    )
    pm.deltas[s.calls[-1].n] = f"pdb/{name} none -> minAvailable 2"
    pm.done(f"PodDisruptionBudget {name} (minAvailable 2) created")
    await verify_rollout(s, ns, name)
    await s.k(
        f"get pods -n {ns} -l app={name} -o wide",
        "plan step 4: verify each replica is on a different node",
    )


async def capacity_scale(s: Session, pm: Postmortem, ns: str, name: str, factor: float) -> None:
    out = await s.k(
        f"get deployment {name} -n {ns} -o yaml", f"read {name}'s replicas and resource requests"
    )
    cur = replicas_of(out) or 1
    doc = rd.load_yaml(out) or {}
    ctrs = doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    req = (
        rd.quantity(str(((ctrs[0].get("resources") or {}).get("requests") or {}).get("cpu", "0")))
        if ctrs
        else 0
    )
    nodes = await s.k("describe nodes", "read node allocatable CPU and what is already requested")
    alloc = sum(rd.quantity(x) or 0 for x in re.findall(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", nodes))
    used = await requested_cpu(s)
    target = round(cur * factor)
    extra = (target - cur) * (req or 0)
    free = alloc - used if alloc else None
    fits = free is None or extra <= free
    pm.title = f"{name}: scaled for {factor:g}x load"
    pm.summary = [
        f"{name} ran {cur} replicas requesting {req * 1000 if req else 0:.0f}m CPU each. "
        f"For {factor:g}x the load, {target} replicas are needed ({cur} x {factor:g}). The "
        f"cluster has {alloc * 1000:.0f}m allocatable CPU with about {used * 1000:.0f}m requested, "
        f"so {free * 1000 if free is not None else 0:.0f}m is free against the {extra * 1000:.0f}m "
        f"the extra replicas request: {'it fits' if fits else 'it does not fit'}."
    ]
    if not fits and req:
        target = cur + int((free or 0) // req)
        pm.summary.append(f"The target was capped at {target} replicas to stay within capacity.")
    await scale(
        s,
        pm,
        ns,
        name,
        target,
        f"serve {factor:g}x load: {cur} -> {target} replicas, capacity checked",
    )


async def requested_cpu(s: Session) -> float:
    got = rd.prom_series(
        await s.q(
            "metrics_query",
            "read the CPU already requested on the cluster (kube-state-metrics)",
            action="query",
            query='sum(kube_pod_container_resource_requests{resource="cpu"})',
        )
    )
    return got[0][1][-1] if got and got[0][1] else 0.0


async def unschedulable(s: Session, pm: Postmortem, w: Workload) -> None:
    nodes = await s.k("describe nodes", "read each node's allocatable CPU")
    allocs = [rd.quantity(x) or 0 for x in re.findall(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", nodes)]
    used = await requested_cpu(s)
    free = max(allocs, default=0) - (used / len(allocs) if allocs else 0)
    req = next(
        (
            rd.quantity(c.requests.get("cpu", ""))
            for v in w.views
            for c in v.containers
            if c.requests.get("cpu")
        ),
        None,
    )
    pm.root_cause = [
        f"The {w.name} pods request {req * 1000 if req else 0:.0f}m CPU each, more than "
        f"any node has free (largest free {free * 1000:.0f}m), so the scheduler leaves "
        "them Pending (Insufficient cpu)."
    ]
    if not req or free <= 0:
        pm.open("Add node capacity or lower the request", "platform team")
        return
    new = max(100, int(free * 1000 * 0.8) // 50 * 50)
    cont = next((c.name for v in w.views for c in v.containers if not c.init), w.name)
    await s.k(
        f"set resources deployment/{w.name} -n {w.ns} -c {cont} --requests=cpu={new}m",
        f"lower the CPU request from {req * 1000:.0f}m to {new}m so a pod fits the largest free node ({free * 1000:.0f}m)",
    )
    pm.deltas[s.calls[-1].n] = f"deployment/{w.name} cpu request {req * 1000:.0f}m -> {new}m"
    ok = await verify_rollout(s, w.ns, w.name)
    if not ok:
        new = max(100, new // 2 // 50 * 50)
        await s.k(
            f"set resources deployment/{w.name} -n {w.ns} -c {cont} --requests=cpu={new}m",
            f"the pod still did not fit; lower the CPU request again to {new}m",
        )
        pm.deltas[s.calls[-1].n] = f"deployment/{w.name} cpu request -> {new}m"
        ok = await verify_rollout(s, w.ns, w.name)
    pm.done(
        f"deployment/{w.name} CPU request lowered {req * 1000:.0f}m -> {new}m; pods "
        + ("scheduled and Running" if ok else "still not all Running")
    )
    pm.open(
        f"Right-size {w.name}'s CPU request from its usage, or add node capacity",
        f"{w.name} owners",
        "P2",
    )


async def continue_rollout(s: Session, pm: Postmortem, ns: str, name: str) -> None:
    await s.k(
        f"rollout status deployment/{name} -n {ns} --timeout=30s",
        f"see where the {name} rollout stands",
    )
    await s.k(
        f"rollout resume deployment/{name} -n {ns}",
        f"continue the paused {name} rolling update as requested",
    )
    s.trigger = "condition change during the rollout"
    nodes = await s.k("describe nodes", "re-check node conditions while the rollout proceeds")
    bad = []
    for block in re.split(r"\n(?=Name:\s)", nodes):
        nm = re.match(r"Name:\s+(\S+)", block.strip())
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if nm and re.search(rf"^\s+{cond}\s+True", block, re.M):
                bad.append((nm.group(1), cond))
    pods = await s.k(
        f"get pods -n {ns} -l app={name} -o wide", f"see where the new {name} pods land"
    )
    pm.title = f"{name} rolling update"
    if not bad:
        ok = await verify_rollout(s, ns, name)
        pm.summary = [
            f"The {name} rolling update was continued and "
            + ("completed." if ok else "has not completed.")
        ]
        return
    node, cond = bad[0]
    pm.history.append(
        ("during rollout", f"{node} reported {cond}=True; new pods scheduled there fail")
    )
    pm.summary = [
        f"During the {name} rolling update, {node} changed to {cond}=True (detected on a "
        f"re-check), so new pods landing there would be evicted or fail. The plan was "
        f"adapted: {node} is excluded through node affinity, and the rollout continues on "
        "the healthy nodes."
    ]
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
    await s.k(
        f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff)}'",
        f"adapt the rollout: keep new {name} pods off {node} ({cond})",
    )
    pm.deltas[s.calls[-1].n] = f"deployment/{name} node affinity none -> NotIn {node}"
    ok = await verify_rollout(s, ns, name)
    pm.done(
        f"{name} rollout adapted to avoid {node} ({cond}); "
        + ("completed on the other nodes" if ok else "not yet complete")
    )
    pm.open(
        f"Free disk on {node} and clear {cond}, then remove the temporary node affinity",
        "platform team",
    )
    _ = pods


async def runbook(s: Session, pm: Postmortem, w: Workload, prompt: str) -> None:
    cms = await s.k(f"get configmaps -n {w.ns}", "look for the runbook the request names")
    name = next((r["name"] for r in rd.table(cms) if "runbook" in r.get("name", "")), "")
    body = (
        await s.k(f"get configmap {name} -n {w.ns} -o yaml", "read the runbook's steps")
        if name
        else ""
    )
    steps = (
        re.findall(
            r"^\s*(?:-|\d+[.)])\s+(.+)$",
            str((rd.load_yaml(body) or {}).get("data", {}).get("steps", "")),
            re.M,
        )
        if body
        else []
    )
    pm.title = f"{w.name} elevated error rate (runbook)"
    pm.summary = [
        f"The {name or 'runbook'} runbook was followed against the actual state: "
        + " / ".join(steps)
        if steps
        else "The runbook steps were followed."
    ]
    await logs_of(s, w)
    sig = signals(w.logs)
    hist = await s.k(
        f"rollout history deployment/{w.name} -n {w.ns}", "runbook: check for a recent deployment"
    )
    rs = await s.k(
        f"get rs -n {w.ns} -l app={w.name} -o wide",
        "see the current and previous images with their ages",
    )
    rows = sorted(rd.table(rs), key=lambda r: rd.age_minutes(r.get("age", "")) or 0)
    cur = next((r for r in rows if r.get("desired", "0") != "0"), None)
    prev = next((r for r in rows if r.get("desired") == "0"), None)
    age = rd.age_minutes(cur.get("age", "")) if cur else None
    if sig:
        pm.history.append(("recent", f'{w.name} logged "{sig[0][1]}" ({sig[0][2]}x)'))
    if cur and prev and age is not None and age <= 30:
        pm.history.append(
            (
                f"-{age:.0f}m",
                f"{w.name} rolled out {cur.get('images')} (previous {prev.get('images')})",
            )
        )
        await s.k(
            f"rollout undo deployment/{w.name} -n {w.ns}",
            f"runbook step 3: a deploy {age:.0f}m ago precedes the errors; roll back to {prev.get('images')}",
        )
        pm.deltas[s.calls[-1].n] = (
            f"deployment/{w.name} image {cur.get('images')} -> {prev.get('images')}"
        )
        await verify_rollout(s, w.ns, w.name)
        pm.done(f"{w.name} rolled back from {cur.get('images')} to {prev.get('images')}")
        after = rd.prom_series(
            await s.q(
                "metrics_query",
                "runbook step 4: verify the error rate after the rollback",
                action="query",
                query=f'error_rate{{service="{w.name}"}}',
            )
        )
        val = after[0][1][-1] if after and after[0][1] else None
        pm.root_cause = [
            f"The {cur.get('images')} release {age:.0f} minutes ago introduced "
            f'"{sig[0][1] if sig else "errors"}"; the error rate rose after it.'
        ]
        pm.open(
            f"Re-check the error rate is back at baseline within 5 minutes (now {fmt_rate(val) if val is not None else 'n/a'}); "
            f"fix the regression before redeploying",
            f"{w.name} owners",
        )
    else:
        pm.summary.append(
            "No deployment in the last 30 minutes, so the rollback step was skipped (adapted)."
        )
        pm.open("Escalate the error pattern to the service owners", f"{w.name} owners")
    _ = (hist, prompt)


async def image_update(s: Session, pm: Postmortem, ns: str, name: str, tag: str) -> None:
    out = await s.k(
        f"get deployment {name} -n {ns} -o yaml", f"read {name}'s image and who manages it"
    )
    owner = managed_by(out)
    pm.title = f"{name} image update to {tag}"
    if owner:
        pm.summary = [
            f"{name} is managed by GitOps ({owner}). A direct `kubectl set image` would "
            "drift from Git and be reverted by the controller, so it was not applied; "
            f"the change belongs in the Git repository."
        ]
        pm.open(
            f"Change {name}'s image tag to {tag} in the Git repository and let the GitOps controller sync",
            f"{name} owners",
        )
        return
    doc = rd.load_yaml(out) or {}
    ctrs = doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    c = ctrs[0] if ctrs else {"name": name, "image": name}
    new = c["image"].rsplit(":", 1)[0] + ":" + tag
    await s.k(
        f"set image deployment/{name} -n {ns} {c['name']}={new}",
        f"update {name} to {tag} as requested",
    )
    pm.deltas[s.calls[-1].n] = f"deployment/{name} image {c['image']} -> {new}"
    ok = await verify_rollout(s, ns, name)
    pm.done(f"{name} image {c['image']} -> {new}" + (", verified" if ok else ", rollout failed"))
