"""``heldout19``'s multi-step plays (written blind): canary gate, runbook, HA, rolling update
under a changing node, scale for load, NP and scheduling fixes. Each reads before it acts."""

from __future__ import annotations

import json
import re

from .operator_heldout19 import Shift
from .operator_read import load_yaml, quantity, table


async def canary(shift: Shift) -> None:
    """Gate on the canary's error rate against the threshold in the ask; bump or roll back."""
    from .operator_heldout19_do import verify
    from .operator_heldout19_signals import service_series

    deploys = sorted(shift.data.get("deploys", {}))
    can = next(
        (
            d
            for d in deploys
            if "canary" in d and any(d.startswith(f) for f in shift.data.get("focus", []))
        ),
        "",
    )
    can = can or next((d for d in deploys if "canary" in d), "")
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", shift.low)
    limit = float(m.group(1)) if m else 2.0
    series = await service_series(shift, shift.ns, can) if can else {}
    rate = next((v[-1] for k, v in sorted(series.items()) if "error" in k and v), None)
    if rate is None:
        shift.unsure.append(
            f"not sure; canary {can or '?'} error rate not found ; need the canary's error metric"
        )
        return
    pct = rate * 100 if rate < 1 else rate
    ok = pct < limit
    shift.causes.append(
        f"canary {can}: error_rate={pct:g}% vs gate <{limit:g}% -> {'healthy' if ok else 'unhealthy'}"
    )
    if not ok:
        cur = shift.data.get("deploys", {}).get(can, {}).get("ready", "?/?").split("/")[-1]
        await shift.k(
            f"scale deploy/{can} -n {shift.ns} --replicas=0",
            f"gate failed ({pct:g}% >= {limit:g}%) -> roll back canary",
            write=True,
        )
        shift.deltas.append(f"deploy/{can} replicas: {cur} -> 0 (canary traffic back to stable)")
        shift.fixes.append(
            f"rolled back canary: {can} scaled to 0, stable untouched; no bump to 50%"
        )
        stable = can.replace("-canary", "")
        await verify(shift, stable)
    else:
        shift.fixes.append(
            "canary healthy -> bump to 50% (not done here: needs the traffic split object)"
        )


async def runbook(shift: Shift) -> None:
    """Runbook steps: logs checked, recent deploy checked; rollback only if one is recent."""
    from .operator_heldout19_do import verify

    listed = table(await shift.k(f"get cm -n {shift.ns}", "find the runbook"))
    for row in listed:
        if "runbook" in row.get("name", ""):
            doc = load_yaml(
                await shift.k(f"get cm {row['name']} -n {shift.ns} -o yaml", "runbook steps")
            )
            data = (doc.get("data") if isinstance(doc, dict) else None) or {}
            steps = [ln.strip() for v in data.values() for ln in str(v).splitlines() if ln.strip()]
            shift.notes.append(
                f"runbook cm/{row['name']}: " + " | ".join(s[:70] for s in steps[:6])
            )
    shift.notes.append("runbook 1 logs: checked (errors above)")
    for name in shift.data.get("focus", [])[:1]:
        roll = shift.data.get("rollout", {}).get(name)
        if not roll:
            shift.notes.append(f"runbook 2 recent deploy: none for {name} -> no rollback, escalate")
            shift.handoffs.append(f"no recent deploy on {name}; errors need an owner look")
            return
        old_rev, old_img, new_rev, new_img = roll
        shift.notes.append(f"runbook 2 recent deploy: yes rev {new_rev} {new_img}")
        await shift.k(
            f"rollout undo deploy/{name} -n {shift.ns} --to-revision={old_rev}",
            f"runbook 3: recent deploy -> back to {old_img}",
            write=True,
        )
        shift.deltas.append(f"deploy/{name} image: {new_img} -> {old_img}")
        shift.fixes.append(f"rollout undo {name} -> rev {old_rev} ({old_img})")
        await verify(shift, name)
        from .operator_heldout19_signals import service_series

        series = await service_series(shift, shift.ns, name)
        err = next((v[-1] for k, v in sorted(series.items()) if "error" in k and v), None)
        base = next((v[-1] for k, v in sorted(series.items()) if "normal" in k and v), None)
        back = err is not None and base is not None and err <= base * 2
        shift.notes.append(
            f"runbook 4: error_rate after rollback={err if err is not None else 'n/a'} baseline={base if base is not None else '?'}"
            + (
                " -> back to baseline"
                if back
                else " -> not back yet (metric lags); recheck within 5m, escalate if still high"
            )
        )


async def ha_plan(shift: Shift) -> None:
    """Plan: replicas>=3, spread across nodes, PDB, HPA. Then do it, one step at a time."""
    from .operator_heldout19_do import verify

    name = next(iter(shift.data.get("focus", [])), "")
    if not name:
        return
    ns = shift.ns
    cur = shift.data.get("deploys", {}).get(name, {}).get("ready", "?/?").split("/")[-1]
    shift.notes.append(
        "plan: 1) replicas 3  2) anti-affinity per node  3) pdb minAvailable=2  4) hpa 3..6 cpu 70%"
    )
    await shift.k(f"get pdb,hpa -n {ns}", "what's there already")
    await shift.k(
        f"scale deploy/{name} -n {ns} --replicas=3", f"plan 1: {cur} replica = spof", write=True
    )
    shift.deltas.append(f"deploy/{name} replicas: {cur} -> 3")
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
                                        "labelSelector": {"matchLabels": {"app": name}},
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
    await shift.k(
        f"patch deploy/{name} -n {ns} --type=merge -p '{json.dumps(aff)}'",
        "plan 2: spread over nodes",
        write=True,
    )
    shift.deltas.append(f"deploy/{name} affinity: none -> podAntiAffinity hostname")
    pdb = (
        f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}\n  namespace: {ns}\n"
        f"spec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    )
    await shift.k(f"apply -n {ns} -f -", "plan 3: drains keep 2 up", write=True, stdin=pdb)
    shift.deltas.append(f"pdb/{name}: none -> minAvailable=2")
    await shift.k(
        f"autoscale deploy/{name} -n {ns} --min=3 --max=6 --cpu-percent=70",
        "plan 4: load",
        write=True,
    )
    shift.deltas.append(f"hpa/{name}: none -> 3..6 @70% cpu")
    shift.fixes.append(f"{name}: 3 replicas, anti-affinity, pdb, hpa")
    await verify(shift, name)
    await shift.k(f"get pdb,hpa -n {ns}", "plan check")
    await shift.k(f"get pods -n {ns} -l app={name} -o wide", "spread check")


async def rolling_update(shift: Shift) -> None:
    """Resume/continue the rollout, then re-check nodes: stop on a node condition that breaks it."""
    name = next(iter(shift.data.get("focus", [])), "")
    if not name:
        return
    ns = shift.ns
    await shift.k(f"rollout status deploy/{name} -n {ns} --timeout=5s", "where the rollout is")
    await shift.k(f"rollout resume deploy/{name} -n {ns}", "asked to continue", write=True)
    shift.fixes.append(f"resumed rollout of {name}")
    await shift.k(f"rollout status deploy/{name} -n {ns} --timeout=30s", "progress")
    nodes = await shift.k("describe nodes", "re-check nodes mid-rollout")
    bad = _pressure(nodes)
    pods = await shift.k(f"get pods -n {ns} -l app={name} -o wide", "where new pods land")
    if bad:
        shift.causes.append(
            f"mid-rollout: {', '.join(f'{n} {c}=True' for n, c in bad)} -> new pods there fail"
        )
        await shift.k(
            f"rollout pause deploy/{name} -n {ns}",
            "condition changed -> stop before more pods land there",
            write=True,
        )
        shift.deltas.append(f"deploy/{name} rollout: progressing -> paused")
        stuck = [
            ln.split()[0] for ln in pods.splitlines()[1:] if bad[0][0] in ln and "Running" not in ln
        ]
        if stuck:
            shift.facts.append(f"pods on {bad[0][0]} not running: {', '.join(stuck)}")
        await _steer_off(shift, name, [n for n, _ in bad])
        shift.handoffs.append(
            f"@platform: {bad[0][0]} {bad[0][1]}; needs disk cleanup or cordon (cluster-scoped, not mine)"
        )
    else:
        shift.checks.append(f"nodes clean; rollout of {name} continuing")


async def _steer_off(shift: Shift, name: str, nodes: list[str]) -> None:
    """Adapt, not just stop: keep the new pods off the bad node(s), resume, check the rollout."""
    from .operator_heldout19_do import verify

    ns = shift.ns
    term = {
        "matchExpressions": [
            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": nodes}
        ]
    }
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "nodeAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": {
                                "nodeSelectorTerms": [term]
                            }
                        }
                    }
                }
            }
        }
    }
    await shift.k(
        f"patch deploy/{name} -n {ns} --type=merge -p '{json.dumps(aff)}'",
        f"keep new pods off {','.join(nodes)} while it has pressure",
        write=True,
    )
    shift.deltas.append(f"deploy/{name} nodeAffinity: none -> hostname NotIn {','.join(nodes)}")
    await shift.k(
        f"rollout resume deploy/{name} -n {ns}", "continue on the healthy nodes", write=True
    )
    shift.deltas.append(f"deploy/{name} rollout: paused -> resumed (avoiding {','.join(nodes)})")
    ok = await verify(shift, name)
    shift.fixes.append(
        f"plan changed: paused, pinned {name} off {','.join(nodes)}, resumed"
        + (" -> rollout done on the other nodes" if ok else " -> still rolling; watching")
    )
    await shift.k(f"get pods -n {ns} -l app={name} -o wide", "where the new pods landed")


def _pressure(describe: str) -> list[tuple[str, str]]:
    out = []
    node = ""
    for line in describe.splitlines():
        m = re.match(r"Name:\s+(\S+)", line)
        if m:
            node = m.group(1)
        m = re.match(r"\s+(DiskPressure|MemoryPressure|PIDPressure)\s+True", line)
        if m:
            out.append((node, m.group(1)))
    return out


def _free_cpu(describe: str) -> list[tuple[str, float, float]]:
    """(node, allocatable cores, requested cores) from ``describe nodes``."""
    out = []
    for block in re.split(r"\n(?=Name:\s)", describe):
        m = re.match(r"\s*Name:\s+(\S+)", block)
        alloc = re.search(r"Allocatable:\n(?:.*\n)*?\s+cpu:\s+(\S+)", block)
        req = re.search(r"Allocated resources:(?:.*\n)*?\s+cpu\s+(\S+)", block)
        if m and alloc:
            a = quantity(alloc.group(1)) or 0.0
            r = quantity(req.group(1)) if req else 0.0
            out.append((m.group(1), a, r or 0.0))
    return out


async def scale_for_load(shift: Shift) -> None:
    """2x load -> 2x replicas, checked against free cpu/mem on the nodes first."""
    from .operator_heldout19_do import verify

    name = next(iter(shift.data.get("focus", [])), "")
    if not name:
        return
    ns = shift.ns
    doc = load_yaml(await shift.k(f"get deploy {name} -n {ns} -o yaml", "replicas + requests"))
    spec = (doc or {}).get("spec", {}) if isinstance(doc, dict) else {}
    cur = int(spec.get("replicas") or 1)
    cons = ((spec.get("template") or {}).get("spec") or {}).get("containers") or [{}]
    req = (cons[0].get("resources") or {}).get("requests") or {}
    cpu = quantity(str(req.get("cpu", "0"))) or 0.0
    factor = 3 if re.search(r"\b3x\b|triple", shift.low) else 2
    want = cur * factor
    nodes = _free_cpu(shift.data.get("nodes_desc", ""))
    free = sum(a - r for _, a, r in nodes)
    need = (want - cur) * cpu
    shift.facts.append(
        f"{name}: replicas={cur} req cpu={req.get('cpu')} mem={req.get('memory')}; nodes={len(nodes)} free cpu={free:.2f}"
    )
    shift.notes.append(
        f"calc: {cur} x {factor} = {want}; extra cpu {need:.2f} vs free {free:.2f} -> {'fits' if need <= free else 'does not fit'}"
    )
    if nodes and need > free and cpu:
        want = cur + int(free // cpu)
        shift.notes.append(f"capped at {want} (capacity); rest needs nodes")
    await shift.k(
        f"scale deploy/{name} -n {ns} --replicas={want}", f"2x load -> {want}", write=True
    )
    shift.deltas.append(f"deploy/{name} replicas: {cur} -> {want}")
    shift.fixes.append(f"scaled {name} {cur} -> {want}")
    await verify(shift, name)


async def network_fix(shift: Shift) -> None:
    """Add the blocked client to the NP's ingress ``from`` (keep what is allowed)."""
    block = shift.data.get("np_block")
    if not block:
        return
    np, app, clients = block
    ns = shift.ns
    patch = [
        {
            "op": "add",
            "path": "/spec/ingress/0/from/-",
            "value": {"podSelector": {"matchLabels": {"app": clients[0]}}},
        }
    ]
    if not shift.can_write:
        shift.handoffs.append(
            f"needs your ok for kubectl patch networkpolicy {np} --type=json -p '{json.dumps(patch)}'"
        )
        return
    await shift.k(
        f"patch networkpolicy {np} -n {ns} --type=json -p '{json.dumps(patch)}'",
        f"allow app={clients[0]} -> app={app}, keep the rest",
        write=True,
    )
    shift.deltas.append(f"np/{np} ingress from: +app={clients[0]}")
    shift.fixes.append(
        f"np/{np}: added app={clients[0]} to ingress.from (policy kept, not deleted)"
    )
    out = await shift.k(f"get networkpolicy {np} -n {ns} -o yaml", "verify np")
    shift.checks.append(f"np/{np}: app={clients[0]} allowed={'app: ' + clients[0] in out}")


async def pending_fix(shift: Shift) -> None:
    """Pending on cpu: a request no node can hold -> size it to half a node, check it lands,
    step down once if it still does not; hand off when nodes are simply full."""
    from .operator_heldout19_do import verify

    name = next(iter(shift.data.get("focus", [])), "")
    if not name:
        return
    ns = shift.ns
    desc = shift.data.get("nodes_desc") or await shift.k(
        "describe nodes", "allocatable cpu per node"
    )
    nodes = _free_cpu(desc)
    views = shift.data.get("views", {}).get(name, [])
    c = next((c for v in views for c in v.containers if not c.init), None)
    cpu = quantity(c.requests.get("cpu", "")) if c else None
    biggest = max((a for _, a, _ in nodes), default=0.0)
    shift.facts.append(
        f"{name}: req cpu={c.requests.get('cpu') if c else '?'}; node allocatable cpu={biggest:.2f} x{len(nodes)}"
    )
    if c is None or not cpu or not biggest or cpu <= biggest:
        shift.handoffs.append(
            f"@platform: {name} pending on cpu, request fits a node but nodes are full; needs capacity"
        )
        return
    shift.causes.append(
        f"{name} requests cpu={c.requests['cpu']} > {biggest:.2f} allocatable on every node -> never schedulable"
    )
    old = c.requests["cpu"]
    for share in (0.5, 0.25):
        new = f"{int(-(-biggest * share * 10 // 1)) * 100}m"
        await shift.k(
            f"set resources deploy/{name} -n {ns} -c {c.name} --requests=cpu={new}",
            f"req {old} can't fit a {biggest:.2f}-cpu node; {new} = {share:g} node",
            write=True,
        )
        shift.deltas.append(f"deploy/{name} {c.name} requests.cpu: {old} -> {new}")
        await verify(shift, name)
        if "ready=0/" not in shift.checks[-1]:
            shift.fixes.append(f"cpu request {c.requests['cpu']} -> {new}; pods scheduled")
            return
        old = new
    shift.handoffs.append(f"@platform: {name} still pending at {old} cpu; needs capacity")
