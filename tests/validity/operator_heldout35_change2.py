"""heldout35's multi-step work: a canary decision, a runbook, a high-availability plan, a
rolling update continued while conditions change.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import named_in
from .operator_heldout35_pr import Report, ref, thousands
from .operator_heldout35_write import verify_rollout


def _pct(value: float) -> str:
    return f"{value:g}%" if value >= 1 or value == 0 else f"{value:.2g}%"


async def _series(s: Session, ns: str, metric: str, who: str, why: str) -> tuple[float | None, str]:
    out = await s.tool("metrics_query", why, action="query", query=f'{metric}{{namespace="{ns}"}}')
    for labels, values in rd.prom_series(out):
        if who in (labels.get("service"), labels.get("job"), labels.get("deployment")) and values:
            return values[-1], ref(s)
    return None, ref(s)


async def canary(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    rows = rd.table(
        await s.kubectl(
            f"get deployments -n {ns} -o wide", "the stable and canary Deployments and their images"
        )
    )
    dep_ref = ref(s)
    names = [x.get("name", "") for x in rows]
    can = next((n for n in names if "canary" in n), "")
    stable = (named_in(s.prompt, [n for n in names if n != can]) or [""])[0]
    m = re.search(r"(\d+(?:\.\d+)?)\s*%", s.prompt)
    limit = float(m.group(1)) if m else 1.0
    r = Report(cause=["Not an incident: a canary gate."])
    if not can:
        r.title, r.no_change = (
            "chore: no canary Deployment found (no change)",
            f"No canary in `{ns}` {dep_ref}.",
        )
        return r
    err, err_ref = await _series(
        s, ns, "error_rate", can, f"the canary `{can}`'s error rate against the {_pct(limit)} gate"
    )
    if err is None:
        err, err_ref = await _series(
            s, ns, "error_rate_percent", can, "the canary's error rate (alternate name)"
        )
    value = err * 100 if err is not None and err < 1 and err > 0 and limit >= 1 else err
    healthy = value is not None and value < limit
    r.summary = [
        f"Canary `{can}` error rate {_pct(value) if value is not None else 'unknown'} {err_ref} vs the {_pct(limit)} gate: {'healthy' if healthy else 'NOT healthy'}."
    ]
    if value is None or not a.can_write:
        r.no_change = (
            "No error-rate reading for the canary: I cannot evaluate the gate."
            if value is None
            else f"Not applied: {a.why_not}."
        )
        r.followups = [f"Escalated to {owners(a)}."]
        return r
    if healthy:
        r.no_change = "Healthy: the next step (50%) depends on how traffic weight is set here; confirm the mechanism."
        return r
    before = next((x.get("ready") for x in rows if x.get("name") == can), "?")
    await s.kubectl(
        f"scale deployment/{can} -n {ns} --replicas=0",
        f"gate failed ({_pct(value)} >= {_pct(limit)}): roll the canary back, stable keeps serving",
        write=True,
        prompted=f"finding: canary error rate {err_ref}",
    )
    call = s.last
    r.title = f"revert({can}): canary failed its {_pct(limit)} error gate - scaled to 0"
    r.changes = [
        f"`kubectl scale deployment/{can} --replicas=0` (#{call.n}, {call.at}): canary {before} -> 0/0; `{stable or 'stable'}` untouched"
    ]
    out = rd.table(
        await s.kubectl(
            f"get deployments -n {ns}",
            "confirm the canary has no pods left and stable is whole",
            prompted=f"verify #{call.n}",
        )
    )
    for x in out:
        if x.get("name") in (can, stable):
            r.done(f"`{x.get('name')}` {x.get('ready')} {ref(s)}")
    r.risk = ["Low: the canary served a fraction of traffic; stable carries all of it again."]
    r.followups = [f"Look at why `{can}`'s image errors before another canary."]
    return r


async def runbook(s: Session) -> Report:
    from .operator_heldout35_change4 import runbook_play

    return await runbook_play(s)


async def high_availability(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    rows = rd.table(
        await s.kubectl(f"get deployments -n {ns}", "find the Deployment to make highly available")
    )
    name = (named_in(s.prompt, [x.get("name", "") for x in rows]) or [""])[0]
    r = Report(
        title=f"feat({name}): highly available - anti-affinity, 3 replicas, PDB",
        cause=["Not an incident: an availability improvement."],
    )
    if not name or not a.can_write:
        r.title, r.no_change = (
            "chore: HA plan not applied",
            a.why_not or "No Deployment of that name.",
        )
        return r
    doc = rd.load_yaml(
        await s.kubectl(
            f"get deployment {name} -n {ns} -o yaml",
            f"`{name}`'s replicas, labels and affinity today",
        )
    )
    have_ref = ref(s)
    spec = (doc or {}).get("spec", {}) if isinstance(doc, dict) else {}
    have = int(spec.get("replicas") or 0)
    labels = (spec.get("selector") or {}).get("matchLabels") or {"app": name}
    await s.kubectl(f"get pdb,hpa -n {ns}", "any disruption budget or autoscaler already in place")
    nodes = rd.table(await s.kubectl("get nodes", "how many nodes to spread across"))
    ready_nodes = [n for n in nodes if n.get("status", "").startswith("Ready")]
    want = max(3, min(len(ready_nodes), 3))
    r.summary = [
        f"`{name}` ran {have} replica(s) with no anti-affinity and no PodDisruptionBudget {have_ref}: one node failure takes it down. Plan, executed in order:"
    ]
    r.summary += [
        f"1. spread pods across nodes (required anti-affinity on `kubernetes.io/hostname`, {len(ready_nodes)} Ready nodes);",
        f"2. scale {have} -> {want};",
        "3. add a PodDisruptionBudget `minAvailable: 2`;",
        "4. verify the pods land on different nodes.",
    ]
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "labelSelector": {"matchLabels": labels},
                                    "topologyKey": "kubernetes.io/hostname",
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    await s.kubectl(
        f"patch deployment {name} -n {ns} --type=strategic -p '{json.dumps(aff)}'",
        "step 1: one pod per node, so a node failure loses one replica at most",
        write=True,
    )
    r.changes.append(
        f"step 1 `kubectl patch deployment {name}` (#{s.last.n}, {s.last.at}): podAntiAffinity required on hostname"
    )
    await s.kubectl(
        f"scale deployment/{name} -n {ns} --replicas={want}",
        f"step 2: {have} -> {want} replicas",
        write=True,
    )
    r.changes.append(
        f"step 2 `kubectl scale --replicas={want}` (#{s.last.n}, {s.last.at}): replicas {have} -> {want}"
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": labels}},
    }
    await s.kubectl(
        f"apply -n {ns} -f -",
        "step 3: keep 2 pods up through voluntary disruptions (drains)",
        write=True,
        stdin=json.dumps(pdb),
    )
    r.changes.append(
        f"step 3 `kubectl apply` PodDisruptionBudget `{name}` (#{s.last.n}, {s.last.at}): minAvailable 2"
    )
    ok = await verify_rollout(s, r, ns, name, "verify step 1-3")
    pods = rd.table(
        await s.kubectl(
            f"get pods -n {ns} -l {','.join(f'{k}={v}' for k, v in labels.items())} -o wide",
            "step 4: which node each pod runs on",
            prompted="verify step 1-3",
        )
    )
    spread = sorted({p.get("node", "") for p in pods if p.get("status") == "Running"})
    r.checks.append(
        (
            ok and len(spread) >= min(want, 2),
            f"pods on {len(spread)} distinct nodes ({', '.join(spread)}) {ref(s)}",
        )
    )
    await s.kubectl(f"get pdb {name} -n {ns}", "read back the budget", prompted="verify step 3")
    r.done(f"PDB `{name}` present {ref(s)}")
    r.risk = [
        "Required anti-affinity caps replicas at the node count; more replicas would stay Pending."
    ]
    r.followups = [
        "Add an HPA if load varies; check the app tolerates several instances (sessions, locks)."
    ]
    return r


async def rolling_update(s: Session) -> Report:
    from .operator_heldout35_change4 import rolling_update_play

    return await rolling_update_play(s)


__all__ = ["canary", "high_availability", "rolling_update", "runbook", "thousands"]
