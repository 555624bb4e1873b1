"""heldout27's multi-step requests: high availability, a canary decision, a rollout in flight,
an image change under GitOps, scaling for load. Each states its plan before it acts."""

from __future__ import annotations

import json
import re

from .operator_heldout27 import Ticket
from .operator_heldout27_look import View, deployment, items, prom, replicas, table
from .operator_read import prom_series, quantity


async def high_availability(t: Ticket, v: View, name: str) -> None:
    dep = await deployment(t, name, f"read {name}'s replicas, affinity and labels")
    now = replicas(dep)
    nodes = [
        n
        for n in table(await t.k("get nodes", "count schedulable nodes"))
        if n.get("status") == "Ready"
    ]
    pdbs = table(
        await t.k(f"get pdb -n {t.ns}", f"check for an existing disruption budget on {name}")
    )
    labels = dep.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    want = max(3, now) if len(nodes) >= 3 else max(2, now)
    t.summary = (
        f"{name} made highly available: spread across nodes, {want} replicas, PodDisruptionBudget."
    )
    t.cause(
        f"{name} ran {now} replica(s) with no anti-affinity, no topology spread and no PDB "
        f"({len(pdbs)} PDBs in {t.ns}): a single node failure takes it down."
    )
    t.quote(f"kubectl get deployment {name} -n {t.ns} -o yaml", f"replicas: {now}; affinity: none")
    t.notes.append(
        f"Plan, in order: 1) add a topology spread constraint across kubernetes.io/hostname "
        f"(and preferred pod anti-affinity) so replicas land on different nodes; 2) raise replicas "
        f"{now} -> {want}; 3) add a PDB with minAvailable {want - 1}; 4) verify the pods sit on different nodes."
    )
    spread = {
        "spec": {
            "template": {
                "spec": {
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "DoNotSchedule",
                            "labelSelector": {"matchLabels": labels},
                        }
                    ],
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "topologyKey": "kubernetes.io/hostname",
                                        "labelSelector": {"matchLabels": labels},
                                    },
                                }
                            ]
                        }
                    },
                }
            }
        }
    }
    body = json.dumps(spread, separators=(",", ":"))
    await t.k(
        f"patch deployment {name} -n {t.ns} --type merge -p '{body}'",
        "step 1: spread replicas across nodes first",
        f"{name}: no spread/anti-affinity -> hostname spread + anti-affinity",
    )
    await t.k(
        f"scale deployment/{name} -n {t.ns} --replicas={want}",
        "step 2: enough replicas to lose a node",
        f"{name}.spec.replicas: {now} -> {want}",
    )
    pdb = (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n"
        f"  name: {name}-pdb\n  namespace: {t.ns}\nspec:\n  minAvailable: {want - 1}\n"
        "  selector:\n    matchLabels:\n" + "".join(f"      {k}: {v}\n" for k, v in labels.items())
    )
    await t.apply(
        pdb,
        "step 3: keep voluntary disruptions (drains) from taking all replicas",
        f"PDB {name}-pdb: absent -> minAvailable {want - 1}",
    )
    await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        "step 4: wait for the new replicas",
    )
    pods = table(
        await t.k(
            f"get pods -n {t.ns} -l {'.'.join([])}app={labels.get('app', name)} -o wide",
            "step 4: verify placement",
        )
    )
    spread_on = sorted({p.get("node", "") for p in pods})
    t.quote(
        f"kubectl get pods -n {t.ns} -o wide", f"{len(pods)} pods on nodes {', '.join(spread_on)}"
    )
    t.did(
        f"Applied the plan: spread + anti-affinity, replicas {now} -> {want}, PDB {name}-pdb (minAvailable {want - 1}); pods on {len(spread_on)} distinct nodes."
    )
    t.backout = f"Delete PDB {name}-pdb, scale back to {now}, remove the spread/affinity patch."
    t.status = "Resolved"
    t.step(f"Consider an HPA for {name} if load varies; review the PDB when the node pool changes.")


async def canary(t: Ticket, v: View, base: str) -> None:
    names = [d.get("name", "") for d in v.deployments]
    cans = [n for n in names if "canary" in n and n != base]
    # the canary of the named service: its own name's, else the one canary deployment there is
    can = next((n for n in cans if n.startswith(base)), cans[0] if len(cans) == 1 else "")
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%|below\s+(\d+(?:\.\d+)?)\s*%", t.low)
    limit = float(next(g for g in m.groups() if g)) if m else 2.0
    from .operator_heldout27_look import metric

    out = await prom(
        t,
        await metric(t, "error") or "error_rate",
        "read the canary's and the stable's error rate",
        start="-30m",
    )
    rates = {}
    for labels, vals in prom_series(out):
        who = " ".join(str(x) for x in labels.values())
        if vals:
            rates[who] = vals[-1]
    crate = next((r for w, r in rates.items() if "canary" in w), None)
    srate = next((r for w, r in rates.items() if "canary" not in w and base in w), None)
    pct = (crate * 100 if crate is not None and crate < 1 else crate) if crate is not None else None
    spct = (
        (srate * 100 if srate is not None and srate < 1 else srate) if srate is not None else None
    )
    t.quote(
        "metrics_query error_rate",
        f"canary {can}: {pct:.1f}%" if pct is not None else "no canary series",
    )
    if spct is not None:
        t.quote("metrics_query error_rate", f"stable {base}: {spct:.1f}%")
    if pct is None or not can:
        t.summary = "Canary health could not be read; rollout not advanced."
        t.status = "On hold: no canary metrics"
        return
    if pct >= limit:
        t.summary = f"Canary {can} is unhealthy ({pct:.1f}% errors vs the {limit:g}% threshold): rolled back, not promoted."
        t.cause(
            f"Canary error rate {pct:.1f}% is above {limit:g}%; the new version is failing requests the stable one serves."
        )
        dep = await deployment(t, can, "read the canary's replicas before removing it")
        now = replicas(dep)
        await t.k(
            f"scale deployment/{can} -n {t.ns} --replicas=0",
            "take the failing canary out of traffic (roll back)",
            f"{can}.spec.replicas: {now} -> 0",
        )
        t.did(f"Rolled back the canary: {can} scaled {now} -> 0; all traffic on the stable {base}.")
        t.backout = f"Scale {can} back to {now} once a fixed image is available."
        t.status = "Resolved: canary rolled back"
        t.step(f"Hand the canary's errors to {base}'s owners before another attempt.")
        return
    stable = next(
        (
            replicas(d)
            for d in items(
                await t.k(f"get deployment {base} -n {t.ns} -o yaml", "read stable replicas")
            )
        ),
        1,
    )
    await t.k(
        f"scale deployment/{can} -n {t.ns} --replicas={stable}",
        "bump the healthy canary to 50% of pods",
        f"{can}.spec.replicas -> {stable}",
    )
    t.summary = f"Canary {can} healthy ({pct:.1f}% < {limit:g}%): bumped to 50%."
    t.status = "In progress: canary at 50%"


async def rollout_in_flight(t: Ticket, v: View, name: str) -> None:
    out = await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=30s",
        f"see where {name}'s rollout stands",
    )
    t.quote(
        f"kubectl rollout status deployment/{name} -n {t.ns}",
        out.strip().splitlines()[-1] if out.strip() else "",
    )
    nodes = await t.k("describe nodes", "check node conditions before moving more pods")
    pressure = sorted(
        set(re.findall(r"Name:\s+(\S+)(?:(?!\nName:).)*?DiskPressure\s+True", nodes, re.S))
    )
    pressure += [
        e.get("object", "").split("/")[-1] for e in v.events if "Pressure" in e.get("reason", "")
    ]
    pressure = sorted(set(p for p in pressure if p))
    evicted = [e for e in v.events if e.get("reason") == "Evicted"]
    if not pressure:
        await t.k(
            f"rollout resume deployment/{name} -n {t.ns}",
            "conditions are normal: continue",
            f"{name}: rollout resumed",
        )
        t.summary = f"Rolling update of {name} continued; no new conditions found."
        t.status = "In progress"
        return
    for e in [*evicted[:1], *[e for e in v.events if "Pressure" in e.get("reason", "")][:1]]:
        t.quote(
            f"kubectl get events -n {t.ns}",
            f"{e.get('reason')} {e.get('object')}: {e.get('message')}",
        )
    nodes_txt = ", ".join(pressure)
    t.summary = (
        f"Rolling update of {name} continued with an adjusted plan: {nodes_txt} reports DiskPressure "
        f"and is evicting pods, so the new pods are kept off it and replaced one at a time."
    )
    t.cause(
        f"New condition during the rollout: DiskPressure on {nodes_txt} (ephemeral storage low), pods evicted there."
    )
    await t.k(
        f"rollout pause deployment/{name} -n {t.ns}",
        "hold the rollout while I change its placement and pace",
        f"{name}: rollout progressing -> paused",
    )
    avoid = {
        "spec": {
            "strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}},
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
                                                "values": pressure,
                                            }
                                        ]
                                    }
                                ]
                            }
                        }
                    }
                }
            },
        }
    }
    body = json.dumps(avoid, separators=(",", ":"))
    await t.k(
        f"patch deployment {name} -n {t.ns} --type merge -p '{body}'",
        f"keep new pods off {nodes_txt} and never drop below full capacity",
        f"{name}: no node affinity, default surge -> NotIn {nodes_txt}, maxUnavailable 0, maxSurge 1",
    )
    await t.k(
        f"rollout resume deployment/{name} -n {t.ns}",
        "continue the update under the adjusted plan",
        f"{name}: paused -> progressing",
    )
    out = await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        "watch the adjusted rollout to the end",
    )
    pods = table(
        await t.k(f"get pods -n {t.ns} -o wide", f"check no new {name} pod sits on {nodes_txt}")
    )
    mine = [p for p in pods if p.get("name", "").startswith(name + "-")]
    on_bad = [p for p in mine if p.get("node") in pressure and p.get("status") == "Running"]
    last = out.strip().splitlines()[-1] if out.strip() else ""
    t.quote(f"kubectl rollout status deployment/{name} -n {t.ns}", last)
    t.did(
        f"Adjusted and continued {name}'s rollout: new pods kept off {nodes_txt}, one at a time "
        f"(maxUnavailable 0, maxSurge 1); rollout status: {last or 'n/a'}; "
        f"{len(on_bad)} of {len(mine)} {name} pods on {nodes_txt}."
    )
    t.backout = f"`kubectl rollout undo deployment/{name} -n {t.ns}`; drop the node affinity once {nodes_txt} recovers."
    t.status = (
        "Resolved"
        if "successfully" in out
        else "In progress: rollout continuing under the adjusted plan"
    )
    t.step(
        f"Platform on-call: free disk on {nodes_txt}; then remove the temporary node affinity from {name}."
    )


async def scale_for_load(t: Ticket, v: View, name: str, factor: float) -> None:
    dep = await deployment(t, name, f"read {name}'s replicas and resource requests")
    now = replicas(dep) or 1
    cs = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    req = (cs[0].get("resources") or {}).get("requests") or {}
    cpu = quantity(str(req.get("cpu", "0"))) or 0.0
    nodes = await t.k("describe nodes", "read allocatable and already-requested CPU per node")
    alloc = sum(quantity(x) or 0 for x in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes))
    used = sum(quantity(x) or 0 for x in re.findall(r"^\s+cpu\s+(\S+) \(\d+%\)", nodes, re.M))
    hpa = [
        h
        for h in table(await t.k(f"get hpa -n {t.ns}", "check for an autoscaler"))
        if name in h.get("reference", "")
    ]
    target = int(now * factor + 0.999)
    free = alloc - used
    extra = (target - now) * cpu
    t.quote(
        f"kubectl get deployment {name} -n {t.ns} -o yaml",
        f"replicas: {now}; requests cpu {req.get('cpu')}, memory {req.get('memory')}",
    )
    t.quote(
        "kubectl describe nodes",
        f"allocatable cpu {alloc:g} cores, requested {used:g}, free {free:g}",
    )
    t.notes.append(
        f"Sizing: {factor:g}x load with the same per-pod throughput -> {now} x {factor:g} = {target} replicas; "
        f"the extra {target - now} pods request {extra:g} CPU cores against {free:g} free."
    )
    if hpa:
        t.notes.append(f"HPA {hpa[0].get('name')} manages {name}: its bounds should move too.")
    if cpu and extra > free:
        fit = now + int(free // cpu)
        t.summary = f"{name} needs {target} replicas for 2x load but only {fit} fit: scaled to {fit}, capacity request raised."
        target = fit
        t.step("Add node capacity (cluster autoscaler/node pool) for the remaining replicas.")
    else:
        t.summary = (
            f"{name} scaled {now} -> {target} replicas for {factor:g}x load; capacity checked."
        )
    await t.k(
        f"scale deployment/{name} -n {t.ns} --replicas={target}",
        f"size {name} for the load",
        f"{name}.spec.replicas: {now} -> {target}",
    )
    await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        "verify the new replicas are Ready",
    )
    t.did(f"Scaled {name} {now} -> {target} after reading replicas, requests and node capacity.")
    t.backout = f"Scale {name} back to {now}."
    t.status = "Resolved"
