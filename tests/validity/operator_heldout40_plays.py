"""heldout40's change plays (written blind, session 33): a canary judged against the request's
threshold, high availability in steps, a paused rolling update resumed around a node that went
bad, a runbook in a config map followed step by step, capacity for a load factor, a Pending pod's
CPU request fitted to the nodes, a policy opened for one caller, a risky migration rollback
proposed rather than done.
"""

from __future__ import annotations

import json
import math
import re

from . import operator_read as rd
from .operator_heldout40_look import Ctx
from .operator_heldout40_ops import replicas, scale
from .operator_heldout40_term import Summary, Term, failed


async def canary(term: Term, ctx: Ctx, s: Summary, base: str, prompt: str) -> None:
    can = next(
        (
            d["name"]
            for d in ctx.deployments
            if d["name"].startswith(base) and "canary" in d["name"]
        ),
        "",
    )
    limit = re.search(r"under\s+([\d.]+)\s*%", prompt)
    bound = float(limit.group(1)) / 100 if limit else 0.02
    text = await term.run(
        "metrics_query",
        f"the canary's error rate against the {bound:.0%} bar",
        ["__name__", "value"],
        action="query",
        query=f'{{service="{can}"}}',
    )
    vals = {m.get("__name__", ""): v[-1] for m, v in rd.prom_series(text) if v}
    term.steps[-1].shown = [f"{k} = {v:g}" for k, v in vals.items()] or ["(no series)"]
    rate = vals.get("error_rate")
    if rate is None:
        s.escalate = (
            f"the owner of {base}: no error-rate series for {can}, so I cannot judge the canary"
        )
        return
    term.note(
        f"{can} error rate {rate:.1%} vs the bar of {bound:.0%}: {'healthy' if rate < bound else 'unhealthy'}"
    )
    if rate < bound:
        s.notes.append(f"Canary {can} is healthy ({rate:.1%} < {bound:.0%}).")
        return
    s.cause = (
        f"canary {can} fails the health check: error rate {rate:.1%} is over the {bound:.0%} limit"
    )
    s.notes.append("Branch taken: unhealthy, so roll back the canary; not bumping to 50%.")
    if await scale(term, ctx, s, can, 0, f"roll back the canary: {rate:.1%} errors > {bound:.0%}"):
        s.notes.append(
            f"{base} keeps its {replicas(ctx, base)} stable replicas serving all traffic."
        )


async def ha(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    dep = await term.k(
        f"get deployment {w} -n {ctx.ns} -o json",
        f"{w}'s labels and current shape",
        keep=["replicas", "app", "affinity"],
    )
    doc = rd.load_json(dep) or {}
    labels = ((doc.get("spec") or {}).get("selector") or {}).get("matchLabels") or {"app": w}
    await term.k(
        f"get pdb,hpa -n {ctx.ns}",
        f"is there already a disruption budget or autoscaler for {w}",
        keep=[w],
    )
    nodes = await term.k("get nodes", "how many nodes the replicas can spread over")
    n_nodes = len(rd.table(nodes))
    n = max(3, min(3, n_nodes)) if n_nodes else 3
    s.plan = [
        f"scale {w} from {replicas(ctx, w)} to {n} replicas, so losing one node leaves two serving",
        f"spread them: pod anti-affinity on kubernetes.io/hostname, one replica per node ({n_nodes} nodes)",
        f"add a PodDisruptionBudget {w} with minAvailable 2 so drains never take more than one",
        "verify: three pods Running on three different nodes, the budget allowing 1 disruption",
    ]
    term.trigger = "operator request (plan step 1)"
    await scale(term, ctx, s, w, n, f"plan step 1: {n} replicas so a node failure leaves capacity")
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "labelSelector": {"matchLabels": labels},
                                        "topologyKey": "kubernetes.io/hostname",
                                    },
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    term.trigger = "operator request (plan step 2)"
    out = await term.kw(
        f"patch deployment {w} -n {ctx.ns} --type=strategic -p '{json.dumps(aff)}'",
        "plan step 2: keep the replicas on different nodes",
    )
    if not failed(out):
        term.note(
            f"changed: {w} pod template affinity: none -> podAntiAffinity on kubernetes.io/hostname"
        )
        s.did.append(
            f"added pod anti-affinity (topologyKey kubernetes.io/hostname) to deployment {w}"
        )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": w, "namespace": ctx.ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": labels}},
    }
    term.trigger = "operator request (plan step 3)"
    out = await term.run(
        "kubectl",
        "plan step 3: a disruption budget so drains keep two up",
        None,
        write=True,
        command="apply -f -",
        stdin=json.dumps(pdb),
    )
    if not failed(out):
        term.note(f"changed: PodDisruptionBudget {w}: none -> minAvailable 2")
        s.did.append(f"created PodDisruptionBudget {w} (minAvailable 2)")
    await _ha_verify(term, ctx, s, w)


async def _ha_verify(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    term.trigger = "operator request (plan step 4)"
    await term.k(
        f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s",
        "plan step 4: wait for the new pods",
    )
    text = await term.k(
        f"get pods -n {ctx.ns} -o wide", "plan step 4: where the replicas landed", keep=[w]
    )
    where = {r.get("node") for r in rd.table(text) if r.get("name", "").startswith(w + "-")}
    term.note(f"{w} pods now on {len(where)} node(s): {', '.join(sorted(n for n in where if n))}")
    await term.k(f"get pdb {w} -n {ctx.ns}", "plan step 4: the budget is in force", keep=[w])
    s.verified.append(
        f"{w} runs on {len(where)} distinct node(s) with a PodDisruptionBudget {w} in place."
    )


async def rolling(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    desc = await term.k(
        f"describe deployment {w} -n {ctx.ns}",
        f"where {w}'s rollout stands",
        keep=["Replicas:", "Image:", "Progressing", "ReplicaSet", "change-cause"],
    )
    paused = "DeploymentPaused" in desc or "Paused" in desc
    img = re.search(r"NewReplicaSet:\s+(\S+)", desc)
    term.note(
        f"rollout of {w} is {'paused' if paused else 'in progress'} at new replica set {img.group(1) if img else '?'}"
    )
    if paused:
        out = await term.kw(
            f"rollout resume deployment/{w} -n {ctx.ns}", "continue the rolling update as asked"
        )
        if not failed(out):
            term.note(f"changed: deployment {w} paused -> resumed")
            s.did.append(f"resumed the rollout of deployment {w}")
    ev = await term.k(
        f"get events -n {ctx.ns}",
        "watch the rollout: what changed since it resumed",
        keep=["Pressure", "Evicted", w],
    )
    await term.k("get nodes", "check the nodes the new pods land on")
    bad = sorted(
        set(re.findall(r"node/([\w.-]+)\s+Node [\w.-]+ status is now: NodeHas(\w+)Pressure", ev))
    )
    desc_nodes = await term.k(
        "describe nodes", "node conditions", keep=["Name:", "Pressure  True", "Taints"]
    )
    for block in re.split(r"\n(?=Name:\s)", desc_nodes):
        name = re.match(r"Name:\s+(\S+)", block.strip())
        for kind in re.findall(r"^\s+(\w+)Pressure\s+True", block, re.M):
            if name and name.group(1) not in [b[0] for b in bad]:
                bad.append((name.group(1), kind))
    if not bad:
        term.note("no node condition changed; the rollout goes on")
        await term.k(
            f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s", "wait for it to finish"
        )
        return
    for node, kind in bad:
        term.note(
            f"{node} now reports {kind}Pressure=True and pods there were Evicted: new {w} pods"
            f" scheduled on {node} would fail"
        )
    await _adapt(term, ctx, s, w, bad)


async def _adapt(term: Term, ctx: Ctx, s: Summary, w: str, bad: list[tuple[str, str]]) -> None:
    """The changed condition answered: pause, keep new pods off the bad nodes, resume, verify."""
    avoid = sorted({n for n, _k in bad})
    s.cause = (
        f"mid-rollout, {', '.join(avoid)} went into DiskPressure "
        f"({'; '.join(f'{n}: {k}Pressure=True' for n, k in bad)}), evicting pods"
    )
    out = await term.kw(
        f"rollout pause deployment/{w} -n {ctx.ns}",
        f"adapt: hold the rollout while {', '.join(avoid)} has disk pressure (trigger: node condition)",
    )
    term.note(f"changed: deployment {w} rollout resumed -> paused")
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
                                                "values": avoid,
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
    out = await term.kw(
        f"patch deployment {w} -n {ctx.ns} --type=strategic -p '{json.dumps(aff)}'",
        f"adapt the plan: keep new {w} pods off {', '.join(avoid)} (trigger: DiskPressure)",
    )
    if not failed(out):
        term.note(f"changed: {w} node affinity: none -> not on {', '.join(avoid)}")
        s.did.append(
            f"added node affinity to deployment {w} so no new pod lands on {', '.join(avoid)} (DiskPressure)"
        )
    await term.kw(
        f"rollout resume deployment/{w} -n {ctx.ns}", "continue the update on the healthy nodes"
    )
    term.note(f"changed: deployment {w} rollout paused -> resumed, away from {', '.join(avoid)}")
    await term.k(
        f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s", "wait for the adapted rollout"
    )
    text = await term.k(f"get pods -n {ctx.ns} -o wide", f"where {w}'s pods run now", keep=[w])
    on_bad = [
        r["name"]
        for r in rd.table(text)
        if r.get("name", "").startswith(w)
        and r.get("node") in avoid
        and r.get("status") == "Running"
    ]
    s.verified.append(f"{w} rollout continued; {len(on_bad)} new pod(s) on {', '.join(avoid)}.")
    s.escalate = (
        f"the platform/node owners: {', '.join(avoid)} needs its disk pressure cleared (evictions)"
    )
    s.did.append(
        f"paused the rollout of {w} on the DiskPressure signal, then resumed it after the affinity"
    )


async def capacity(term: Term, ctx: Ctx, s: Summary, w: str, factor: float) -> None:
    desc = await term.k(
        f"describe deployment {w} -n {ctx.ns}",
        f"{w}'s replicas and requests",
        keep=["Replicas:", "cpu:", "memory:"],
    )
    cpu = re.search(r"Requests:\n\s+cpu:\s+(\S+)", desc)
    mem = re.search(r"Requests:\n(?:\s+\w+:.*\n)*?\s+memory:\s+(\S+)", desc)
    nodes = await term.k(
        "describe nodes", "what the nodes can hold", keep=["Name:", "cpu:", "memory:"]
    )
    alloc = [rd.quantity(c) or 0 for c in re.findall(r"Allocatable:\n\s+cpu:\s+(\S+)", nodes)]
    now = replicas(ctx, w)
    target = math.ceil(now * factor)
    per = rd.quantity(cpu.group(1)) if cpu else 0.0
    extra = (target - now) * (per or 0)
    total = sum(alloc)
    term.note(
        f"{w}: {now} replicas x {cpu.group(1) if cpu else '?'} CPU / {mem.group(1) if mem else '?'} memory;"
        f" {len(alloc)} nodes x {alloc[0] if alloc else '?'} CPU allocatable"
    )
    s.notes.append(
        f"Sizing: {now} replicas carry today's load; {factor:g}x the load needs {now} x {factor:g} = {target}"
        f" replicas. The extra {target - now} x {cpu.group(1) if cpu else '?'} CPU ={extra:g} cores fits in"
        f" {total:g} allocatable cores across {len(alloc)} nodes."
    )
    await scale(
        term,
        ctx,
        s,
        w,
        target,
        f"{factor:g}x load: {now} -> {target} replicas, checked against node capacity",
    )


async def pending(term: Term, ctx: Ctx, s: Summary, w: str, sched: str) -> None:
    """A pod Pending on CPU: fit its request under what a node has free."""
    desc = await term.k(
        f"describe deployment {w} -n {ctx.ns}", f"what {w} requests", keep=["cpu:", "memory:"]
    )
    req = re.search(r"Requests:\n\s+cpu:\s+(\S+)", desc)
    nodes = await term.k(
        "describe nodes", "what each node can give", keep=["Name:", "cpu:", "Allocated", "Pods:"]
    )
    alloc = [rd.quantity(c) or 0 for c in re.findall(r"Allocatable:\n\s+cpu:\s+(\S+)", nodes)]
    ask = rd.quantity(req.group(1)) if req else None
    biggest = max(alloc) if alloc else 0
    term.note(
        f"{w} asks {req.group(1) if req else '?'} CPU; the largest node has {biggest:g} allocatable,"
        " and other workloads already hold part of every node"
    )
    if not ask:
        s.escalate = f"the owner of {w}: Pending on CPU but I cannot read its request"
        return
    s.cause = (
        f"{w}'s CPU request of {req.group(1)} does not fit on any node ({sched}): it asks"
        f" {ask / biggest:.0%} of a whole node's {biggest:g} cores, more than any has free"
    )
    value = min(ask, biggest * 0.8) / 2
    for attempt in range(3):
        mc = f"{int(value * 1000)}m"
        patch = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [{"name": w, "resources": {"requests": {"cpu": mc}}}]
                        }
                    }
                }
            }
        )
        out = await term.kw(
            f"patch deployment {w} -n {ctx.ns} --type=strategic -p '{patch}'",
            f"lower {w}'s CPU request so the scheduler can place it (attempt {attempt + 1})",
        )
        if failed(out):
            term.note(f"patch refused: {out.strip()[:100]}")
            return
        term.note(f"changed: {w} cpu request {req.group(1)} -> {mc}")
        s.did.append(
            f"lowered deployment {w}'s CPU request from {req.group(1)} to {mc} so it fits a node"
        )
        text = await term.k(f"get pods -n {ctx.ns}", f"did the new {w} pod schedule", keep=[w])
        rows = [r for r in rd.table(text) if r.get("name", "").startswith(w + "-")]
        if any(r.get("status") == "Running" for r in rows):
            term.note(f"{w} pod is Running now")
            s.verified.append(f"{w} pod scheduled and Running with {mc} CPU requested.")
            return
        term.note(f"{w} still Pending at {mc}: halve again")
        value /= 2
    s.escalate = (
        f"the owner of {w} and the cluster admins: still Pending after lowering its CPU request"
    )


async def policy_fix(term: Term, ctx: Ctx, s: Summary, found: dict, src: str, dst: str) -> None:
    name, spec = found["policy"], found["spec"]
    rules = spec.get("ingress") or []
    ports = [p for r in rules for p in r.get("ports") or []]
    new_rule: dict = {"from": [{"podSelector": {"matchLabels": {"app": found["src"]}}}]}
    if ports:
        new_rule["ports"] = ports
    body = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": new_rule}])
    s.cause = (
        f"NetworkPolicy {name} selects app={dst} and admits ingress only from"
        f" {', '.join(found['admitted'])}; {src} (app={found['src']}) is not admitted, so its traffic is dropped"
    )
    s.plan.append(
        f"add one ingress rule to {name} admitting app={found['src']}; keep the monitoring rule"
    )
    if ctx.hold:
        s.plan.append(f"(not done: {ctx.hold})")
        return
    out = await term.kw(
        f"patch networkpolicy {name} -n {ctx.ns} --type=json -p '{body}'",
        f"admit {src} pods to {dst}, nothing wider; the existing rule stays",
    )
    if failed(out):
        term.note(f"patch refused: {out.strip()[:100]}")
        return
    term.note(
        f"changed: {name} ingress from [{', '.join(found['admitted'])}] -> also app={found['src']}"
    )
    s.did.append(
        f"added an ingress rule to networkpolicy {name} admitting app={found['src']} (only {src})"
    )
    await term.k(
        f"get networkpolicy {name} -n {ctx.ns} -o yaml", f"read {name} back", keep=["app:"]
    )
    s.verified.append(
        f"{name} now admits app={found['src']} and still app=monitoring; it still selects only app={dst}."
    )


async def migration(term: Term, ctx: Ctx, s: Summary, w: str, f_msg: str) -> None:
    text = await term.run(
        "database",
        "which migration ran last and when",
        ["Versioned", "Schema"],
        query="migrations status",
    )
    rows = re.findall(
        r"\|\s*Versioned\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|[^|]*\|\s*([^|]+?)\s*\|\s*(\w+)", text
    )
    last = rows[-1] if rows else None
    db = re.search(r"Database:\s+(\S+)", text)
    if last:
        term.note(f'last migration {last[0]} "{last[1]}" applied {last[2]}, state {last[3]}')
    cnt = await term.run(
        "database",
        "how much data was written since that migration",
        None,
        query=f"select count(*) from users where created_at > '{last[2] if last else ''}'",
    )
    num = re.search(r"\b(\d+)\b", cnt.split("\n", 2)[-1] if cnt else "")
    since = num.group(1) if num else "an unknown number of"
    term.note(f"{since} record(s) written since migration {last[0] if last else '?'}")
    ver = f"migration {last[0]} ({last[1]})" if last else "the last migration"
    s.cause = (
        f'{w} fails with "{f_msg}" right after {ver} ran on {db.group(1) if db else "its database"}'
    )
    s.notes.append(
        f"Risk: rolling back {ver} drops what it added; {since} records written since then"
        f" may hold data in it, so a rollback can lose data and cannot be undone by a restart."
    )
    s.plan = [
        f"snapshot/back up {db.group(1) if db else 'the database'} before anything",
        f"decide with the {w} owners: fix forward (deploy code matching {ver}) or roll back {ver} with the data saved",
        f"if rolling back: export the {since} new records, run the down migration, verify {w}, restore data",
    ]
    s.escalate = (
        f"the {w} owners / DBA for approval: I have not rolled back {ver}, because {since} records"
        " written since could be lost; approve a plan above"
    )
