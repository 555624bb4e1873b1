"""heldout31's multi-step changes: capacity-based scaling, high availability, a canary
decision, a paused rolling update continued around a node in trouble, and a runbook.
"""

from __future__ import annotations

import json
import math
import re

from . import operator_read as rd
from .operator_heldout31_act import node_capacity, replicas, requests_of, rollback, scale, verify
from .operator_heldout31_diag import error_rise, iso, rollout
from .operator_heldout31_look import Look
from .operator_heldout31_rec import Decision, Record, num, plural


async def scale_for_load(rec: Record, look: Look, name: str, factor: float, d: Decision) -> None:
    cur = replicas(look, name)
    req = requests_of(look, name)
    nodes = await node_capacity(rec, "node allocatable CPU and memory bound how many replicas fit")
    cpu = rd.quantity(req.get("cpu", "")) or 0.0
    mem = rd.quantity(req.get("memory", "")) or 0.0
    target = math.ceil(cur * factor)
    total_cpu = sum(c for _, c, _ in nodes)
    total_mem = sum(m for _, _, m in nodes)
    d.context.append(
        f"Deployment {name} was read at {plural(cur, 'replica')}, each requesting {req.get('cpu', 'no')} CPU "
        f"and {req.get('memory', 'no')} memory; {num(len(nodes))} nodes offer {total_cpu:g} cores and "
        f"{rd.mib(total_mem)} allocatable in all."
    )
    need_cpu, need_mem = target * cpu, target * mem
    fits = (not cpu or need_cpu <= total_cpu * 0.8) and (not mem or need_mem <= total_mem * 0.8)
    d.context.append(
        f"{num(target).capitalize()} replicas would request {need_cpu:g} cores and {rd.mib(need_mem)}, "
        + (
            "which fits within the nodes' allocatable capacity with room to spare."
            if fits
            else "which would not fit within eighty percent of the allocatable capacity."
        )
    )
    if not fits and cpu:
        target = max(cur, int(total_cpu * 0.8 // cpu))
    await scale(
        rec,
        look,
        name,
        target,
        d,
        f"twice the load needs twice the replicas ({num(cur)} to {num(target)}); the requests fit the nodes",
    )


async def make_ha(rec: Record, look: Look, name: str, d: Decision) -> None:
    ns = look.ns
    obj = look.objs.get(name) or {}
    labels = ((obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {"app": name}
    cur = replicas(look, name)
    nodes = await node_capacity(
        rec, "the number of nodes bounds how many replicas can be spread one per node"
    )
    target = max(3, cur) if len(nodes) >= 3 else max(2, cur)
    d.context.append(
        f"Deployment {name} was read at {plural(cur, 'replica')} with no pod anti-affinity; "
        f"{num(len(nodes))} nodes are available to spread replicas over."
    )
    why = "with no other pod disruption budget, a drain could evict every replica at once"
    pdbs = rd.items(
        await rec.kubectl(
            f"get pdb -n {ns} -o yaml", "read", f"pod disruption budgets in {ns}", why
        )
    )
    why = "an autoscaler, if present, would own the replica count"
    hpas = rd.items(
        await rec.kubectl(f"get hpa -n {ns} -o yaml", "read", f"autoscalers in {ns}", why)
    )
    d.decision.append(
        f"The plan adopted, in order: step one, raise {name} to {plural(target, 'replica')} so that losing a node "
        "leaves replicas serving; step two, add a pod anti-affinity on the node hostname so that the replicas land on "
        f"different nodes; step three, add a PodDisruptionBudget keeping {num(target - 1)} replicas through a drain; "
        "step four, verify the rollout and the placement, and roll back if the rollout does not complete."
    )
    aff = {
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
    patch = json.dumps({"spec": {"replicas": target, "template": {"spec": {"affinity": aff}}}})
    why = f"{num(target)} replicas spread one per node survive the loss of any single node"
    await rec.kubectl(
        f"patch deployment {name} -n {ns} --type strategic -p '{patch}'",
        "patch",
        f"deployment {name} (replicas and anti-affinity)",
        why,
    )
    d.decision.append(
        f"Deployment {name} was patched to {plural(target, 'replica')} with a preferred pod anti-affinity on "
        "kubernetes.io/hostname, so that the scheduler places the replicas on different nodes."
    )
    if not any(
        ((p.get("spec") or {}).get("selector") or {}).get("matchLabels") == labels for p in pdbs
    ):
        pdb = {
            "apiVersion": "policy/v1",
            "kind": "PodDisruptionBudget",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"minAvailable": target - 1, "selector": {"matchLabels": labels}},
        }
        why = f"voluntary disruptions (a node drain) must leave at least {num(target - 1)} replicas running"
        await rec.call(
            "kubectl",
            "create",
            f"poddisruptionbudget {name}",
            why,
            command="apply -f -",
            stdin=json.dumps(pdb),
        )
        d.decision.append(f"PodDisruptionBudget {name} was created with minAvailable {target - 1}.")
    if hpas:
        d.alternatives.append(
            "A change to the existing autoscaler was rejected: it was left as found."
        )
    ok = await verify(rec, look, name, d)
    why = "the placement of the replicas was listed to confirm they landed on different nodes"
    rows = rd.table(
        await rec.kubectl(
            f"get pods -n {ns} -l app={name} -o wide", "verify", f"placement of {name}", why
        )
    )
    spread = sorted({r.get("node", "") for r in rows if r.get("node")})
    d.consequences.append(
        f"The {name} replicas were found on {plural(len(spread), 'node')} ({', '.join(spread)})."
    )
    if not ok:
        await rollback(rec, look, name, d, "failed verification of the high-availability change")
    d.alternatives += [
        "A HorizontalPodAutoscaler was not added: it scales with load and does not by itself survive a node failure.",
        "A required (hard) anti-affinity was rejected: with one node down, a replacement replica could not be scheduled.",
    ]


def _threshold(prompt: str) -> float | None:
    m = re.search(r"(?:under|below|less than|<)\s*([0-9.]+)\s*%", prompt, re.I)
    return float(m.group(1)) / 100 if m else None


async def canary(rec: Record, look: Look, d: Decision) -> None:
    names = [x.get("name", "") for x in look.deployments]
    can = next((n for n in names if "canary" in n and any(f in n for f in look.focus + [""])), "")
    if not can:
        return
    limit = _threshold(look.prompt) or 0.02
    why = f"the canary's error rate decides the branch (threshold {limit:.0%})"
    text = await rec.call(
        "metrics_query",
        "query",
        f"error_rate of {can}",
        why,
        action="query",
        query=f'error_rate{{service="{can}"}}',
    )
    vals = [v[-1] for _, v in rd.prom_series(text) if v]
    if not vals:
        d.decision.append(
            f"The error rate of {can} could not be read, so the canary was neither promoted nor removed."
        )
        return
    rate = vals[0]
    d.context.append(
        f"The error_rate series of {can} read {rate:.1%} against the {limit:.0%} threshold the request sets."
    )
    if rate < limit:
        d.decision.append(f"The canary {can} was judged healthy ({rate:.1%} < {limit:.0%}).")
        return
    was = replicas(look, can) if can in look.objs else 1
    why = f"the canary failed its health condition ({rate:.1%} is not under {limit:.0%}), so the rollback branch was taken"
    await rec.kubectl(
        f"scale deployment/{can} --replicas=0 -n {look.ns}",
        "scale",
        f"deployment {can} to zero replicas",
        why,
    )
    d.decision.append(
        f"The canary branch was rolled back: deployment {can} was scaled from {plural(was, 'replica')} to zero, "
        "so all traffic returns to the stable deployment."
    )
    why = "the canary was read back to confirm no replica remains"
    out = await rec.kubectl(
        f"get deployment {can} -n {look.ns}", "verify", f"deployment {can}", why
    )
    row = (rd.table(out) or [{}])[0]
    d.consequences.append(
        f"The canary {can} was read back at {row.get('ready', '?')} ready after the rollback."
    )
    d.alternatives.append(
        f"Bumping the canary to fifty percent was rejected: its error rate of {rate:.1%} breaks the {limit:.0%} condition."
    )


async def continue_rollout(rec: Record, look: Look, name: str, d: Decision) -> None:
    ns = look.ns
    obj = look.objs.get(name) or {}
    spec = obj.get("spec") or {}
    image = (
        ((spec.get("template") or {}).get("spec") or {}).get("containers", [{}])[0].get("image", "")
    )
    status = obj.get("status") or {}
    d.context.append(
        f"Deployment {name} was found paused at {num(int(status.get('updatedReplicas', 0)))} of "
        f"{plural(int(spec.get('replicas', 0)), 'replica')} updated to {image}."
    )
    why = "node conditions were checked before new pods are scheduled"
    nodes = rd.items(await rec.kubectl("get nodes -o yaml", "read", "node conditions", why))
    bad = _pressured(nodes)
    for n in bad:
        d.context.append(
            f"Node {n} was found reporting a pressure condition (DiskPressure, MemoryPressure or PIDPressure = True) before any new pod was placed."
        )
    if bad:
        await _avoid(rec, look, name, bad, d, "node condition seen before the resume")
    why = f"the paused rollout to {image} was resumed as the request asks"
    await rec.kubectl(
        f"rollout resume deployment/{name} -n {ns}", "resume", f"rollout of {name}", why
    )
    d.decision.append(f"The rollout of {name} to {image} was resumed.")
    why = "node conditions were checked again after the resume, since a node can change mid-rollout"
    nodes = rd.items(
        await rec.kubectl(
            "get nodes -o yaml", "read", "node conditions", why, "rollout in progress"
        )
    )
    late = [n for n in _pressured(nodes) if n not in bad]
    for n in late:
        d.context.append(
            f"Node {n} was found reporting a pressure condition after the resume, in the middle of the rollout."
        )
    if late:
        await rec.kubectl(
            f"rollout pause deployment/{name} -n {ns}",
            "pause",
            f"rollout of {name}",
            f"{', '.join(late)} reported a pressure condition mid-rollout; new pods there would fail",
            f"node condition on {', '.join(late)}",
        )
        d.decision.append(
            f"The rollout was paused when {', '.join(late)} reported a pressure condition."
        )
        await _avoid(rec, look, name, late, d, f"node condition on {', '.join(late)}")
        await rec.kubectl(
            f"rollout resume deployment/{name} -n {ns}",
            "resume",
            f"rollout of {name}",
            "the new pods are now kept off the affected node",
            f"node condition on {', '.join(late)}",
        )
        d.decision.append("The rollout was resumed with the new pods kept off that node.")
    ok = await verify(rec, look, name, d)
    if not ok:
        d.consequences.append(
            "The rollout was left as verified above; a rollback would restore the old image if the new pods stay unready."
        )


def _pressured(nodes: list[dict]) -> list[str]:
    out = []
    for n in nodes:
        for c in (n.get("status") or {}).get("conditions") or []:
            if (
                c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
                and c.get("status") == "True"
            ):
                out.append(f"{(n.get('metadata') or {}).get('name')}")
    return sorted(set(out))


async def _avoid(
    rec: Record, look: Look, name: str, nodes: list[str], d: Decision, trigger: str
) -> None:
    aff = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": nodes}
                        ]
                    }
                ]
            }
        }
    }
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": aff}}}})
    why = f"{', '.join(nodes)} reports DiskPressure or another pressure condition; new pods scheduled there would be evicted"
    await rec.kubectl(
        f"patch deployment {name} -n {look.ns} --type strategic -p '{patch}'",
        "patch",
        f"node affinity of {name}",
        why,
        trigger,
    )
    d.decision.append(
        f"A node affinity excluding {', '.join(nodes)} was added to {name} so that no new pod is placed there."
    )
    d.alternatives.append(
        f"Cordoning {', '.join(nodes)} was rejected: nodes are cluster-scoped and outside the granted namespace scope."
    )


async def runbook(rec: Record, look: Look, name: str, d: Decision) -> None:
    steps = "; ".join(f"{k}: {v}" for k, v in look.runbook.items())
    if steps:
        d.context.append(f"The runbook {look.runbook_name} was read: {steps[:400]}")
    ro = rollout(look, name)
    rise = error_rise(look, name)
    mins = rd.age_minutes(ro.get("age", "")) if ro else None
    if not ro or mins is None or mins > 30:
        d.decision.append(
            "No deployment in the last thirty minutes was found, so the rollback step of the runbook does not apply."
        )
        return
    d.context.append(
        f"The last deployment of {name} ({ro['previous']} to {ro['current']}) was made {ro['age']} ago, inside the runbook's thirty-minute window"
        + (
            f"; error_rate rose from {rise[0]:.1%} to {rise[1]:.1%} from {iso(rise[2])} on."
            if rise
            else "."
        )
    )
    why = f"runbook step: a deploy {ro['age']} ago coincides with the error rise, so the previous version {ro['previous']} was restored"
    await rec.kubectl(
        f"rollout undo deployment/{name} -n {look.ns}", "roll back", f"deployment {name}", why
    )
    d.decision.append(
        f"A rollback of {name} from {ro['current']} to {ro['previous']} was performed, per the runbook."
    )
    ok = await verify(rec, look, name, d)
    why = "runbook step: the error rate was checked after the rollback"
    text = await rec.call(
        "metrics_query",
        "query",
        f"error_rate of {name}",
        why,
        "runbook verification step",
        action="query",
        query=f'error_rate{{service="{name}"}}',
    )
    vals = [v[-1] for _, v in rd.prom_series(text) if v]
    base = [
        v[-1]
        for m, items in look.series.items()
        if m.startswith("normal_error")
        for _, v, _ in items
        if v
    ]
    if vals:
        back = bool(base) and vals[0] <= base[0] * 1.5
        d.consequences.append(
            f"The error_rate of {name} read {vals[0]:.1%} in the first read after the rollback"
            + (f", against a baseline of {base[0]:.1%}" if base else "")
            + (
                "; it is back at baseline."
                if back
                else "; it had not yet returned to baseline, so the runbook's five-minute check stays open and the "
                "error rate must be read again before the incident is closed."
            )
        )
    why = "the image actually running was read back"
    img = await rec.kubectl(
        f"get deployment {name} -n {look.ns} -o wide", "verify", f"image of {name}", why
    )
    row = (rd.table(img) or [{}])[0]
    d.consequences.append(f"The deployment {name} was read back running {row.get('images', '?')}.")
    if not ok:
        d.consequences.append(
            "The rollback did not verify cleanly; the pods should be checked again."
        )
