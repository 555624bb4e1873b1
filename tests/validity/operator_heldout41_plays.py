"""heldout41's change plays (session 34, written blind): a config change and the restart that
picks it up, a replica change (production checked, magnitude checked), a scale for a load
factor from the replicas, requests and node capacity read, a canary judged against the
request's own threshold, high availability as a plan executed step by step, a rolling update
that watches the nodes, and a pending pod's scheduling failure.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout41_look import Ctx, named
from .operator_heldout41_ops import (
    patch_config,
    replicas,
    restart,
    scale,
    verify,
    wanted_pairs,
    write,
)
from .operator_heldout41_react import React


def _refuse(ctx: Ctx, what: str) -> str:
    rule = ctx.needs_approval
    return (
        f"Not done: {what} is a write, and {rule or 'this zone is read-only for me'}. "
        "Proposed for approval; I changed nothing."
    )


async def config_change(r: React, ctx: Ctx) -> str:
    want = wanted_pairs(ctx.prompt)
    maps = rd.table(await r.kubectl("Which config maps exist here?", f"get configmaps -n {ctx.ns}"))
    names = [m.get("name", "") for m in maps]
    low = ctx.prompt.lower()
    target = next((n for n in names if n and n.lower() in low), "")
    done: list[str] = []
    if want and not target:
        # "Set LOG_LEVEL ..." names no map: the one a named workload reads, else the one holding the key
        for n in names:
            doc = rd.load_yaml(
                await r.kubectl(
                    f"Does {n} hold {', '.join(want)}?", f"get configmap {n} -n {ctx.ns} -o yaml"
                )
            )
            data = (doc or {}).get("data") or {} if isinstance(doc, dict) else {}
            if any(k in data for k in want):
                target = n
                break
    if want and target:
        if ctx.read_only or ctx.needs_approval:
            return _refuse(ctx, f"setting {want} in {target}")
        ok, change = await patch_config(r, ctx, target, want, "The request asks for these values.")
        done.append(
            f"{target}: "
            + (
                ", ".join(f"{k} {o} -> {n}" for k, (o, n) in change.items())
                or "already as asked, no write"
            )
            + ("" if ok else " (FAILED)")
        )
        workloads = [w for w in named(ctx) if w != target]
        if change and ok and workloads and re.search(r"pick|restart|roll|appl", low):
            for w in workloads:
                good = await restart(
                    r,
                    ctx,
                    w,
                    f"{w} reads {target} at start-up; it needs new pods to pick up the change.",
                )
                done.append(f"rolled {w}, pods {'Ready' if good else 'NOT healthy'}")
    m = re.search(r"scale\s+([\w-]+)\s+to\s+(\d+)", ctx.prompt, re.I)
    if m:
        before = await replicas(r, ctx, m.group(1))
        if before is not None:
            await scale(r, ctx, m.group(1), before, int(m.group(2)), "The request asks for it.")
            done.append(f"deployment {m.group(1)} replicas {before} -> {m.group(2)}")
    return "Done, each change read before and after:\n- " + "\n- ".join(
        done or ["nothing matched the request"]
    )


async def replica_change(r: React, ctx: Ctx, workload: str, want: int) -> str:
    before = await replicas(r, ctx, workload)
    if before is None:
        return f"Deployment {workload} could not be read; nothing changed."
    env = "production" if ctx.production else "non-production"
    r.thought(
        f"Namespace {ctx.ns} is {env} (labels {ctx.labels}); that decides how carefully I go."
    )
    if ctx.read_only or ctx.needs_approval:
        return _refuse(ctx, f"scaling {workload} {before} -> {want}")
    if before and want > before * 10:
        return f"Not done: {before} -> {want} replicas is over ten times the current size; confirm the number first."
    nodes = await r.kubectl("Room on the nodes for the extra pods?", "describe nodes")
    alloc = re.findall(r"cpu\s+(\d+m?)\s+\((\d+)%\)", nodes)
    r.show([f"node cpu requested: {a} ({p}%)" for a, p in alloc][:3] or ["(no allocation shown)"])
    ok = await scale(
        r,
        ctx,
        workload,
        before,
        want,
        f"In {env} ({ctx.ns}): a server dry run first, then the scale, then a check."
        if ctx.production
        else "As asked.",
    )
    tail = (
        f" Namespace {ctx.ns} is production, so I dry-ran it server-side first and verified after."
        if ctx.production
        else ""
    )
    return f"Deployment {workload} in {ctx.ns}: replicas {before} -> {want}{' done' if ok else ' FAILED'}.{tail}"


async def load_scale(r: React, ctx: Ctx, workload: str, factor: float) -> str:
    before = await replicas(r, ctx, workload)
    if before is None:
        return f"Deployment {workload} could not be read."
    hpa = await r.kubectl("An autoscaler would own the replica count.", f"get hpa -n {ctx.ns}")
    owned = workload in hpa
    desc = await r.kubectl(
        "Requests per pod.",
        f"get deployment {workload} -n {ctx.ns} -o jsonpath='{{.spec.template.spec.containers[*].resources}}'",
    )
    nodes = await r.kubectl("Node capacity and what is already requested.", "describe nodes")
    free = _free_cpu(nodes)
    req = re.search(r'"cpu":"?(\d+m?)', desc)
    per = rd.quantity(req.group(1)) if req else None
    target = max(before, int(before * factor + 0.999))
    fits = f"{free:.2f} cores free across nodes" if free is not None else "node headroom not shown"
    if per and free is not None and (target - before) * per > free:
        return (
            f"{workload}: {before} replicas now, {factor:g}x needs {target}, but each asks {req.group(1) if req else '?'} CPU and only "
            f"{fits}. Not scaled: the nodes must grow first. Escalating to the platform team with these numbers."
        )
    if owned:
        return (
            f"{workload} has an HPA; raise its maxReplicas to {target} rather than the Deployment."
        )
    ok = await scale(
        r,
        ctx,
        workload,
        before,
        target,
        f"{factor:g}x the load on {before} replicas -> {target}; {fits}.",
    )
    return (
        f"{workload}: read {before} replicas, request {req.group(1) if req else 'n/a'} CPU per pod, {fits}. "
        f"Scaled {before} -> {target} ({factor:g}x){' and verified' if ok else ' (failed)'}."
    )


def _free_cpu(nodes: str) -> float | None:
    total = 0.0
    seen = False
    for block in re.split(r"\nName:\s", nodes):
        cap = re.search(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", block)
        used = re.search(r"Allocated resources:[\s\S]*?cpu\s+(\S+)", block)
        if cap and used:
            c, u = rd.quantity(cap.group(1)), rd.quantity(used.group(1))
            if c is not None and u is not None:
                total += max(0.0, c - u)
                seen = True
    return total if seen else None


async def canary(r: React, ctx: Ctx, workload: str) -> str:
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", ctx.prompt)
    limit = float(m.group(1)) / 100 if m else 0.02
    deps = [
        d.get("name", "")
        for d in ctx.deployments
        if "canary" in d.get("name", "") and workload in d.get("name", "")
    ]
    can = deps[0] if deps else f"{workload}-canary"
    text = await r.act(
        f"The canary's error rate against the request's threshold ({limit:.0%}).",
        "metrics_query",
        action="query",
        query=f'error_rate{{service="{can}"}}',
    )
    vals = [v for _, vs in rd.prom_series(text) for v in vs]
    if not vals:
        text = await r.act(
            "No series under that name; all error_rate series.",
            "metrics_query",
            action="query",
            query="error_rate",
        )
        vals = [v for lab, vs in rd.prom_series(text) for v in vs if "canary" in str(lab)]
    if not vals:
        return f"No error rate for {can} could be read; the canary stays where it is until it can. Escalating."
    rate = vals[-1]
    r.thought(
        f"{can} error rate {rate:.1%} vs threshold {limit:.0%}: {'unhealthy' if rate >= limit else 'healthy'}."
    )
    if rate < limit:
        return (
            f"Canary {can} healthy ({rate:.1%} < {limit:.0%}). Proceeding to 50% per the request."
        )
    before = await replicas(r, ctx, can)
    ok = await scale(
        r,
        ctx,
        can,
        before or 0,
        0,
        f"Error rate {rate:.1%} is over {limit:.0%}: roll back the canary, stable {workload} keeps the traffic.",
    )
    await verify(r, ctx, workload)
    return (
        f"Canary {can} is unhealthy: error rate {rate:.1%}, over the {limit:.0%} threshold, so I did not go to 50%. "
        f"Rolled the canary back (replicas {before} -> 0){'' if ok else ' (FAILED)'}; the stable {workload} serves all traffic and was verified Ready."
    )


async def high_availability(r: React, ctx: Ctx, workload: str) -> str:
    before = await replicas(r, ctx, workload)
    nodes = rd.table(await r.kubectl("How many nodes can spread the pods?", "get nodes"))
    await r.kubectl("Existing disruption budgets and autoscalers.", f"get pdb,hpa -n {ctx.ns}")
    n = max(2, min(3, len(nodes) or 3))
    plan = [
        f"1. scale {workload} {before} -> {n} replicas (one per node)",
        "2. spread them: preferred pod anti-affinity on kubernetes.io/hostname",
        "3. a PodDisruptionBudget minAvailable 1 so drains keep one serving",
        f"4. an HPA (min {n}, max {n * 2}, CPU 70%) so load does not undo it",
        "5. verify: pods Ready on different nodes",
    ]
    r.thought("Plan:\n" + "\n".join(plan))
    done = []
    if await scale(r, ctx, workload, before or 1, n, "Step 1: more than one replica."):
        done.append(f"replicas {before} -> {n}")
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
                                        "topologyKey": "kubernetes.io/hostname",
                                        "labelSelector": {"matchLabels": {"app": workload}},
                                    },
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    if await write(
        r,
        ctx,
        "Step 2: spread the replicas across nodes.",
        f"patch deployment {workload} -n {ctx.ns} --type=merge -p '{json.dumps(aff)}'",
    ):
        done.append("anti-affinity added")
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": f"{workload}-pdb", "namespace": ctx.ns},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": workload}}},
    }
    await r.act(
        "Step 3: a disruption budget.",
        "kubectl",
        command=f"apply -n {ctx.ns} -f -",
        stdin=json.dumps(pdb),
    )
    if not r.steps[-1].failed:
        done.append(f"PDB {workload}-pdb minAvailable 1")
    if await write(
        r,
        ctx,
        "Step 4: an autoscaler.",
        f"autoscale deployment {workload} -n {ctx.ns} --min={n} --max={n * 2} --cpu-percent=70",
    ):
        done.append(f"HPA {n}-{n * 2}")
    good = await verify(r, ctx, workload)
    spread = rd.table(
        await r.kubectl(
            "Verify the spread: which node each pod is on.",
            f"get pods -n {ctx.ns} -l app={workload} -o wide",
        )
    )
    where = sorted({p.get("node", "") for p in spread})
    return (
        "Plan (executed in order):\n"
        + "\n".join(plan)
        + "\nDone: "
        + "; ".join(done)
        + f". Verified: {len(spread)} pods {'Ready' if good else 'not all Ready'} on {', '.join(where)}."
    )


async def pending(r: React, ctx: Ctx, workload: str) -> str:
    events = await r.kubectl(
        "Why are the pods not scheduled? The scheduler says so in events.",
        f"get events -n {ctx.ns} --field-selector reason=FailedScheduling",
    )
    r.show([ln for ln in events.splitlines() if workload in ln][:3])
    msg = next((ln for ln in events.splitlines() if workload in ln), "")
    desc = await r.kubectl(
        f"What {workload} asks for.",
        f"get deployment {workload} -n {ctx.ns} -o jsonpath='{{.spec.template.spec.containers[0].resources}}'",
    )
    nodes = await r.kubectl("What the nodes can still give.", "describe nodes")
    per_node = _free_per_node(nodes)
    req = re.search(r'"cpu":"?(\d+m?)', desc)
    ask = rd.quantity(req.group(1)) if req else None
    if "Insufficient cpu" in msg and ask and per_node and max(per_node) > 0.05:
        room = max(per_node)
        fit = (
            int(room * 1000 * 0.8)
            if "Allocated resources" in nodes
            else int(room * 500) // 100 * 100
        )
        r.thought(
            f"No node can ever give {req.group(1) if req else '?'}: the largest allocatable is {room:.2f} cores. "
            f"Its request must come down to fit beside the node's own pods: {fit}m."
        )
        body = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {"name": workload, "resources": {"requests": {"cpu": f"{fit}m"}}}
                            ]
                        }
                    }
                }
            }
        )
        if ctx.read_only or ctx.needs_approval:
            return _refuse(ctx, f"lowering {workload}'s CPU request to {fit}m")
        ok = await write(
            r,
            ctx,
            f"The request ({req.group(1) if req else '?'}) is more than any node has free; lower it to {fit}m so it fits.",
            f"patch deployment {workload} -n {ctx.ns} --type=strategic -p '{body}'",
        )
        good = ok and await verify(r, ctx, workload)
        return (
            f"{workload}'s pods were Pending: FailedScheduling, Insufficient cpu. It requests {req.group(1) if req else '?'} CPU and no node has that free "
            f"(at most {max(per_node):.2f} cores allocatable on any node). Lowered the request {req.group(1) if req else '?'} -> {fit}m "
            f"({'pods now Running and Ready' if good else 'not yet Ready'}). If it truly needs that much CPU, the platform team must add node capacity."
        )
    return f"{workload} is Pending: {msg.strip() or 'no scheduling event found'}. Escalating to the platform team with these reads."


def _free_per_node(nodes: str) -> list[float]:
    out = []
    for block in re.split(r"\nName:\s", nodes):
        cap = re.search(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", block)
        used = re.search(r"Allocated resources:[\s\S]*?cpu\s+(\S+)", block)
        c = rd.quantity(cap.group(1)) if cap else None
        u = rd.quantity(used.group(1)) if used else 0.0
        if c is not None and u is not None:
            out.append(max(0.0, c - u))
    return out
