"""``heldout16``'s asked-for work (issue 27, fairness): ConfigMap keys, replicas, restarts, a
canary's health gate, a runbook, a rolling update, high availability, capacity for more load,
ownership, a trace and a dashboard. Each reads the state first and changes only what is asked.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout16 import Shift, to_bytes, to_millicores
from .operator_heldout16_guard import hold_magnitude, hold_shared


def _w() -> Any:
    from . import operator_heldout16_work as work

    return work


def wanted_keys(prompt: str) -> dict[str, str]:
    """KEY=value / KEY to value / enable KEY, for upper-case keys named in the prompt."""
    keys = {
        k: v for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*([\w.:-]+)", prompt)
    }
    for k in re.findall(r"\b[Ee]nable\s+([A-Z][A-Z0-9_]{2,})", prompt):
        keys[k] = "true"
    for k in re.findall(r"\b[Dd]isable\s+([A-Z][A-Z0-9_]{2,})", prompt):
        keys[k] = "false"
    return {k: v.rstrip(".,") for k, v in keys.items()}


async def _configmap_with(shift: Shift, keys: dict[str, str]) -> tuple[str, dict[str, str]]:
    cms = await shift.json(f"get configmaps -n {shift.ns}", "find the ConfigMap holding the keys")
    items = {c["metadata"]["name"]: c.get("data") or {} for c in cms.get("items", [])}
    named = [n for n in items if n in shift.low]
    holder = [n for n, d in items.items() if set(keys) & set(d)]
    name = (named or holder or [""])[0]
    return name, dict(items.get(name, {}))


async def set_keys(shift: Shift, keys: dict[str, str]) -> str:
    """Merge-patch only the keys that differ; a key already right is left alone (idempotent)."""
    r = shift.report
    name, data = await _configmap_with(shift, keys)
    if not name:
        r.next_steps.append(
            f"No ConfigMap in {shift.ns} holds {', '.join(keys)}: the target must be named."
        )
        return ""
    before = {k: data.get(k, "<unset>") for k in sorted(keys)}
    diff = {k: v for k, v in sorted(keys.items()) if data.get(k) != v}
    shared = ", ".join(f"{k}: {before[k]} -> {v}" for k, v in diff.items())
    if diff and hold_shared(shift, name, shared):
        return ""
    if not diff:
        r.done.append(
            f"ConfigMap {name} already had {json.dumps(keys, sort_keys=True)}; nothing was written (a re-run changes nothing)."
        )
        return name
    change = ", ".join(f"{k}: {before[k]} -> {v}" for k, v in diff.items())
    await shift.kubectl(
        f"patch configmap {name} -n {shift.ns} --type=merge -p '{json.dumps({'data': diff})}'",
        "set only the requested keys; other keys untouched",
        change,
    )
    after = (
        await shift.json(
            f"get configmap {name} -n {shift.ns}", "confirm the keys took and nothing else moved"
        )
    ).get("data") or {}
    kept = sorted(k for k in data if k not in keys)
    r.done.append(
        f"ConfigMap {name} was patched ({change}); read back: {json.dumps({k: after.get(k) for k in sorted(keys)})}"
        + (
            f"; untouched keys kept: {', '.join(f'{k}={after.get(k)}' for k in kept)}"
            if kept
            else ""
        )
        + "."
    )
    return name


async def scale(shift: Shift, name: str, target: int, why: str) -> None:
    r = shift.report
    dep = shift.deployments.get(name) or await shift.json(
        f"get deployment {name} -n {shift.ns}", "read current replicas"
    )
    current = dep.get("spec", {}).get("replicas")
    hpa = await shift.kubectl(
        f"get hpa -n {shift.ns}", "an autoscaler would override a manual scale"
    )
    if hold_magnitude(shift, name, int(current or 0), target):
        return
    if name in hpa:
        r.next_steps.append(
            f"An HPA targets {name}: its bounds should be changed instead of the replica count."
        )
        return
    await shift.kubectl(
        f"scale deployment/{name} -n {shift.ns} --replicas={target}",
        why,
        f"replicas {current} -> {target}",
    )
    r.done.append(
        f"Deployment {name} was scaled from {current} to {target} replicas (no HPA targets it)."
    )


async def change_play(shift: Shift, subject: str) -> bool:
    """Keys, replicas and restarts the prompt asks for, in that order, then verification."""
    keys = wanted_keys(shift.prompt)
    size = re.search(r"(?:scale\s+([a-z0-9-]+)\s+to|replicas\s+to)\s+(\d+)", shift.low)
    restart = re.search(r"\brestart\b|picks? up the change|pick up", shift.low)
    if not (keys or size or restart):
        return False
    if shift.production:
        shift.report.context.append(
            "Production: each change is read before and after, one at a time."
        )
    cm = await set_keys(shift, keys) if keys else ""
    if size and not shift.report.page:
        target = size.group(1) if size.group(1) in shift.deployments else subject
        await scale(shift, target, int(size.group(2)), "the operator asked for this replica count")
        subject = target
    if shift.report.page:  # a change was held for confirmation: nothing after it
        return True
    if restart and subject in shift.deployments:
        why = (
            f"pods read ConfigMap {cm} only at start" if cm else "the operator asked for a restart"
        )
        await shift.kubectl(
            f"rollout restart deployment/{subject} -n {shift.ns}",
            why,
            "pods replaced one by one (rolling)",
        )
        shift.report.done.append(
            f"Deployment {subject} was restarted (rolling) so that "
            + (f"the new {cm} values are loaded." if cm else "every pod is replaced.")
        )
    if subject in shift.deployments:
        await _w().verify(shift, subject)
    else:
        shift.report.status = "done"
    return True


async def load_play(shift: Shift, subject: str) -> None:
    """N x the load: read replicas, requests and node capacity, then scale to what fits."""
    r = shift.report
    factor = int(re.search(r"(\d+)\s*x", shift.low).group(1))  # type: ignore[union-attr]
    dep = shift.deployments.get(subject, {})
    current = int(dep.get("spec", {}).get("replicas") or 1)
    c = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [{}])[0]
    req = (c.get("resources") or {}).get("requests", {})
    cpu, mem = to_millicores(req.get("cpu", "0")), to_bytes(req.get("memory", "0"))
    nodes = await shift.json("get nodes", "read node capacity before sizing")
    alloc = sum(
        to_millicores(n.get("status", {}).get("allocatable", {}).get("cpu", "0"))
        for n in nodes.get("items", [])
    )
    target = current * factor
    extra = (target - current) * cpu
    r.context.append(
        f"{subject}: {current} replicas requesting {cpu}m CPU / {mem / 2**20:.0f} MiB each; "
        f"cluster allocatable CPU {alloc}m; {factor}x load needs about {target} replicas (+{extra}m CPU)."
    )
    if alloc and extra > alloc // 2:
        target = current + max(1, (alloc // 2) // max(cpu, 1))
        r.context.append(f"Capacity caps the step at {target} replicas.")
    await scale(shift, subject, target, f"{factor}x load on {current} replicas, capacity checked")
    await _w().verify(shift, subject)


async def owner_play(shift: Shift, subject: str) -> None:
    """Ownership from the namespace's labels and annotations, and the workload's own."""
    r = shift.report
    meta = {**shift.labels, **shift.annotations}
    dep = shift.deployments.get(subject, {}).get("metadata", {})
    meta.update(dep.get("labels") or {})
    meta.update(dep.get("annotations") or {})
    team = next((v for k, v in sorted(meta.items()) if k.split("/")[-1] in ("team", "owner")), "")
    contacts = [
        f"{k}: {v}"
        for k, v in sorted(meta.items())
        if re.search(r"contact|oncall|channel|escalation|slack|pager", k)
    ]
    await _w().diagnose(shift, subject) if shift.has("kubectl") else None
    r.status = "hand-off: owner identified"
    r.cause.insert(
        0,
        f"{subject} is owned by {team or 'an unlabelled team'} (namespace {shift.ns} labels"
        + (f", criticality {meta['criticality']}" if "criticality" in meta else "")
        + ").",
    )
    r.page.append(
        f"Loop in {team or 'the namespace owner'} via "
        + ("; ".join(contacts) or "the platform on-call")
        + f" about {subject} in {shift.ns}: "
        + ("; ".join(r.evidence[:2]) or "pods not Ready")
    )


async def canary_play(shift: Shift, subject: str) -> None:
    """Gate the canary on its error rate against the prompt's threshold; promote or roll back."""
    r = shift.report
    canary = next((d for d in sorted(shift.deployments) if "canary" in d), "")
    limit = float(
        (
            re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", shift.low)
            or re.search(r"(\d+(?:\.\d+)?)\s*%", shift.low)
        ).group(1)
    )  # type: ignore[union-attr]
    out = await shift.use(
        "metrics_query",
        "read the canary's error rate",
        action="query",
        query=f'error_rate{{service="{canary}"}}',
    )
    values = re.findall(r'"value":\s*\[[^,]+,\s*"([\d.eE+-]+)"', out)
    rate = float(values[0]) * 100 if values else None
    await shift.kubectl(
        f"get deployment {canary} -n {shift.ns}", "read the canary before changing it"
    )
    if rate is None:
        r.status = "halted: canary health unknown"
        r.page.append(
            f"No error-rate series for {canary}; the rollout was held at its current weight."
        )
        return
    r.evidence.append(f"{canary} error rate: {rate:.1f}% against the {limit:g}% gate.")
    if rate < limit:
        r.cause.append(
            f"The canary is healthy ({rate:.1f}% < {limit:g}%): promotion is the correct branch."
        )
        r.next_steps.append("Raise the canary's traffic weight to 50% in the traffic router.")
        return
    replicas = shift.deployments[canary]["spec"].get("replicas")
    r.cause.append(
        f"The canary fails its gate ({rate:.1f}% >= {limit:g}%), so the rollback branch was taken, not the bump to 50%."
    )
    await shift.kubectl(
        f"scale deployment/{canary} -n {shift.ns} --replicas=0",
        "roll back the unhealthy canary",
        f"replicas {replicas} -> 0",
    )
    r.done.append(
        f"Canary {canary} was scaled from {replicas} to 0; the stable {subject if subject != canary else 'deployment'} keeps all traffic."
    )
    await _w().verify(shift, canary)
    r.status = "rolled back"


async def runbook_play(shift: Shift, subject: str) -> None:
    """Read the named runbook, then walk its steps against the real state."""
    r = shift.report
    name = re.search(r"(?:the\s+)?([a-z0-9-]+)\s+runbook", shift.low).group(1)  # type: ignore[union-attr]
    cms = await shift.json(f"get configmaps -n {shift.ns}", "find the runbook")
    book = next(
        (
            c
            for c in cms.get("items", [])
            if name in c["metadata"]["name"]
            or name in json.dumps(c["metadata"].get("annotations") or {})
        ),
        {},
    )
    steps = [
        s.strip()
        for s in "\n".join((book.get("data") or {}).values()).splitlines()
        if re.match(r"\s*\d+\.", s)
    ]
    r.plan = [f"{s} (runbook {book.get('metadata', {}).get('name', name)})" for s in steps]
    diag = await _w().diagnose(shift, subject)
    rolled = [step for step in diag.fix if "rollout undo" in step[0]]
    if rolled:
        r.context.append(
            "Step 2 holds: a deployment happened in the runbook's window, so step 3 (rollback) applies."
        )
        await _w().apply_fix(shift, subject, diag)
        out = await shift.use(
            "metrics_query",
            "runbook step 4: check the error rate after the rollback",
            action="query",
            query=f'error_rate{{service="{subject}"}}',
        )
        now = re.findall(r'"value":\s*\[[^,]+,\s*"([\d.eE+-]+)"', out)
        r.done.append(
            f"Step 4: error rate read after rollback: {float(now[0]) * 100:.1f}%"
            if now
            else "Step 4: error rate to be re-read in 5 min"
        )
    else:
        r.context.append(
            "No deployment in the runbook's window: the rollback step does not apply and was skipped."
        )
        r.status = "runbook followed; no rollback warranted"


async def rolling_play(shift: Shift, subject: str) -> None:
    """Continue a rollout, watching node conditions; steer new pods off a node under pressure."""
    r = shift.report
    await shift.kubectl(
        f"rollout status deployment/{subject} -n {shift.ns} --timeout=30s",
        "see where the rollout stands",
    )
    await shift.kubectl(
        f"rollout resume deployment/{subject} -n {shift.ns}",
        "continue the rolling update",
        "rollout resumed",
    )
    shift.trigger = "node condition change observed during the rollout"
    events = await shift.kubectl(f"get events -n {shift.ns}", "re-check conditions mid-rollout")
    nodes = await shift.json("get nodes", "check node conditions mid-rollout")
    bad = [
        n["metadata"]["name"]
        for n in nodes.get("items", [])
        for c in n.get("status", {}).get("conditions") or []
        if c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
        and c.get("status") == "True"
    ]
    bad += sorted(
        {m for m in re.findall(r"node/(\S+)\s+Node \S+ status is now: NodeHas\w+Pressure", events)}
        - set(bad)
    )
    if not bad:
        r.done.append(f"The rolling update of {subject} was continued; no node pressure was seen.")
        await _w().verify(shift, subject)
        return
    r.cause.append(
        f"Conditions changed mid-rollout: {', '.join(bad)} reports disk pressure and evicts pods, which would fail new {subject} pods placed there."
    )
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": bad}
                        ]
                    }
                ]
            }
        }
    }
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": affinity}}}})
    await shift.kubectl(
        f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{patch}'",
        f"keep new pods off {', '.join(bad)} while it is under disk pressure",
        f"node affinity none -> NotIn {bad}",
    )
    r.done.append(
        f"The plan was adapted: new {subject} pods were steered off {', '.join(bad)} (node affinity), and the rollout continues on the healthy nodes."
    )
    r.next_steps.append(
        f"Free disk on {', '.join(bad)}; then drop the affinity so the spread returns."
    )
    await _w().verify(shift, subject)


async def ha_play(shift: Shift, subject: str) -> None:
    """Plan, then do: 3 replicas, spread across nodes, a PodDisruptionBudget; verify."""
    r = shift.report
    dep = shift.deployments.get(subject, {})
    current = dep.get("spec", {}).get("replicas")
    await shift.kubectl(f"get pdb,hpa -n {shift.ns}", "what protects the workload today")
    r.plan = [
        f"Scale {subject} from {current} to 3 replicas.",
        "Add a pod anti-affinity (preferred, weight 100) on kubernetes.io/hostname so replicas spread one per node.",
        f"Create a PodDisruptionBudget {subject} with minAvailable 2.",
        "Verify 3/3 Ready on 3 distinct nodes.",
    ]
    # preferred, not required: with as many nodes as replicas a required rule would leave the
    # rolling update's surge pod unschedulable
    anti = {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": 100,
                    "podAffinityTerm": {
                        "labelSelector": {"matchLabels": {"app": subject}},
                        "topologyKey": "kubernetes.io/hostname",
                    },
                }
            ]
        }
    }
    await scale(shift, subject, 3, "step 1: survive the loss of one replica")
    await shift.kubectl(
        f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{json.dumps({'spec': {'template': {'spec': {'affinity': anti}}}})}'",
        "step 2: one replica per node",
        "anti-affinity none -> preferred one per hostname",
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": subject, "namespace": shift.ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": subject}}},
    }
    out = await shift.tools.call("kubectl", command="apply -f -", stdin=json.dumps(pdb))
    from .operator_heldout16 import Step

    shift.trail.append(
        Step(
            "kubectl apply -f - (PodDisruptionBudget)",
            "step 3: voluntary disruptions keep 2 up",
            shift.trigger,
            "pdb none -> minAvailable 2",
        )
    )
    r.done.append(
        f"Steps 1-3 were executed: replicas {current} -> 3, anti-affinity added, PDB {subject} created ({out.strip()})."
    )
    await _w().verify(shift, subject)
    await spread(shift, subject)


async def spread(shift: Shift, subject: str) -> None:
    """Step 4's other half: the replicas' nodes, and that those nodes are Ready."""
    pods = await shift.json(
        f"get pods -n {shift.ns} -l app={subject}", "which node each replica runs on"
    )
    placed = sorted(
        {p.get("spec", {}).get("nodeName") or "unscheduled" for p in pods.get("items", [])}
    )
    nodes = await shift.json("get nodes", "check the replicas' nodes are Ready")
    ready = sorted(
        n["metadata"]["name"]
        for n in nodes.get("items", [])
        for c in n.get("status", {}).get("conditions") or []
        if c.get("type") == "Ready" and c.get("status") == "True"
    )
    shift.report.done.append(
        f"Step 4: the replicas run on {len(placed)} distinct node(s) ({', '.join(placed)}); Ready nodes: {', '.join(ready)}."
    )
