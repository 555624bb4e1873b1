"""heldout36's multi-step plays: a canary decision, a runbook, an HA plan, a rolling update
under changing conditions, and "A can't reach B".
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout36_act import may_write, rollout_ok
from .operator_heldout36_calls import Session
from .operator_heldout36_diag import fmt
from .operator_heldout36_look import Workload, deployments, named_in, read_workload, service_series
from .operator_heldout36_record import Record


async def canary(s: Session) -> Record:
    deps = await deployments(s, s.ns)
    can = next(
        (
            d
            for d in deps
            if "canary" in d and any(d.startswith(n) for n in named_in(s.prompt, deps))
        ),
        "",
    )
    can = can or next((d for d in deps if "canary" in d), "")
    rec = Record(f"canary {can}")
    thr = re.search(r"under (\d+(?:\.\d+)?)\s*%", s.prompt)
    limit = float(thr.group(1)) if thr else 2.0
    w = await read_workload(s, s.ns, can)
    series = await service_series(s, can, s.ns)
    er = series.get("error_rate")
    if not er:
        rec.add(
            "We found no error-rate series for the canary, so we cannot judge it.",
            [],
            40,
            "point us at the canary's error metric",
        )
        return rec
    ref, vals = er
    now = vals[-1] * (100 if vals[-1] <= 1 else 1)
    healthy = now < limit
    rec.add(
        f"The canary is {'healthy' if healthy else 'NOT healthy'}: error rate {now:g}% vs the {limit:g}% threshold.",
        [f'error_rate{{service="{can}"}} = {now:g}% ({ref})'],
        95,
    )
    if healthy or may_write(s):
        rec.decision = (
            "Healthy: we would bump to 50% next."
            if healthy
            else f"Not healthy, but {may_write(s)}."
        )
        return rec
    await s.k(
        f"scale deploy/{can} -n {s.ns} --replicas=0",
        f"branch 'not healthy' ({now:g}% >= {limit:g}%): roll the canary back",
    )
    after = rd.table(await s.k(f"get deploy {can} -n {s.ns}", "verify the canary takes no traffic"))
    rec.changes.append(
        f"deploy/{can} replicas: before {w.replicas} -> after 0 (canary rolled back; stable deploy untouched)"
    )
    rec.verification.append(
        f"deploy {can} now {after[0].get('ready') if after else '?'} ({s.ref()})"
    )
    rec.decision = "Rolled back the canary; did not bump to 50%."
    return rec


async def runbook(s: Session) -> Record:
    out = rd.items(
        await s.k(
            f"get cm -n {s.ns} -l app.kubernetes.io/component=runbook -o yaml",
            "find the runbook the request names",
        )
    )
    book = next(
        (
            b
            for b in out
            if any(
                g in json.dumps(b.get("metadata"))
                for g in re.findall(r"[a-z]+(?:-[a-z]+)+", s.prompt)
            )
        ),
        out[0] if out else {},
    )
    steps = str((book.get("data") or {}).get("steps", ""))
    rec = Record(f"runbook {book.get('metadata', {}).get('name', '?')}")
    rec.context.append(
        "Runbook steps: " + " | ".join(x.strip() for x in steps.splitlines() if x.strip())
    )
    deps = await deployments(s, s.ns)
    name = (named_in(s.prompt, deps) or [""])[0]
    w = await read_workload(s, s.ns, name)
    pats = rd.signal_patterns(w.logs)
    rec.add(
        "Step 1 (error logs): "
        + (
            f'{pats[0][2]}x "{pats[0][0]}: {pats[0][1]}"'
            if pats
            else "no error pattern in the logs"
        )
        + ".",
        [f"logs ({w.refs.get('logs')})"],
        80,
    )
    await s.k(f"rollout history deploy/{name} -n {s.ns}", "step 2: was there a deploy recently?")
    href = s.ref()
    rs = rd.table(
        await s.k(f"get rs -n {s.ns} -l {w.selector} -o wide", "ReplicaSet ages and images")
    )
    rs = [r for r in rs if r.get("name", "").startswith(name)]
    rs.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    new = rs[0] if rs else {}
    old = rs[1] if len(rs) > 1 else {}
    recent = (rd.age_minutes(new.get("age", "")) or 1e9) <= 30
    rec.add(
        f"Step 2: the current rollout ({new.get('images', '?')}) is {new.get('age', '?')} old: "
        + ("within 30 min, so step 3 applies." if recent else "not recent; step 3 does not apply."),
        [
            f"rollout history ({href})",
            f"ReplicaSets ({s.ref()}): new {new.get('name')} {new.get('age')}, previous {old.get('name')} {old.get('images')}",
        ],
        90,
    )
    if recent and old and not may_write(s):
        await _rollback(s, rec, w, name, new, old)
    rec.decision = "Followed the runbook against the actual state."
    return rec


async def high_availability(s: Session) -> Record:
    deps = await deployments(s, s.ns)
    name = (named_in(s.prompt, deps) or [""])[0]
    w = await read_workload(s, s.ns, name)
    nodes = rd.table(await s.k("get nodes", "how many nodes can we spread over"))
    rec = Record(f"make {name} highly available")
    rec.add(
        f"{name} cannot survive a node failure today: {w.replicas} replica, no PDB, no anti-affinity.",
        [f"spec ({w.refs['spec']})", f"{len(nodes)} nodes ({s.ref()})"],
        95,
        "plan: 1) 3 replicas, 2) spread one per node (anti-affinity), 3) PDB minAvailable 2, 4) verify",
    )
    if may_write(s):
        rec.decision = may_write(s)
        return rec
    lab = w.selector.split(",")[0].split("=")
    term = {
        "topologyKey": "kubernetes.io/hostname",
        "labelSelector": {"matchLabels": {lab[0]: lab[-1]}},
    }
    rule = (
        {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
        if len(nodes) >= 3
        else {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    )
    aff = {"spec": {"template": {"spec": {"affinity": {"podAntiAffinity": rule}}}}}
    await s.k(
        f"patch deploy {name} -n {s.ns} --type=merge -p '{json.dumps(aff)}'",
        "plan step 2: pod anti-affinity on hostname",
    )
    await s.k(
        f"scale deploy/{name} -n {s.ns} --replicas=3", "plan step 1: 3 replicas, one per node"
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": s.ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": {lab[0]: lab[-1]}}},
    }
    await s.k("apply -f -", "plan step 3: PDB so a drain keeps 2 up", stdin=json.dumps(pdb))
    _ok, how = await rollout_ok(s, w)
    spread = rd.table(
        await s.k(f"get pods -n {s.ns} -l {w.selector} -o wide", "verify: pods on different nodes")
    )
    rec.changes += [
        f"deploy/{name} replicas: before {w.replicas} -> after 3",
        f"deploy/{name}: podAntiAffinity (hostname) added",
        f"pdb/{name}: created, minAvailable 2",
    ]
    rec.verification += [
        how,
        f"nodes used: {', '.join(sorted({r.get('node', '?') for r in spread}))} ({s.ref()})",
    ]
    rec.decision = "Executed the 4-step plan."
    return rec


async def rolling_update(s: Session) -> Record:
    deps = await deployments(s, s.ns)
    name = (named_in(s.prompt, deps) or [""])[0]
    w = await read_workload(s, s.ns, name)
    rs = rd.table(
        await s.k(
            f"get rs -n {s.ns} -l {w.selector} -o wide",
            "old vs new ReplicaSet: how far is the update",
        )
    )
    rec = Record(f"rolling update of {name}")
    rec.add(
        "Rollout state: "
        + "; ".join(
            f"{r.get('name')} {r.get('images')} {r.get('ready')}/{r.get('desired')}" for r in rs
        )
        + ".",
        [f"({s.ref()})"],
        90,
    )
    nodes = await s.k("describe nodes", "re-check node conditions before continuing")
    nref = s.ref()
    bad = [
        b.split()[0]
        for b in re.split(r"^Name:\s+", nodes, flags=re.M)[1:]
        if re.search(r"^\s*DiskPressure\s+True", b, re.M)
    ]
    if bad:
        await s.k(
            f"rollout pause deploy/{name} -n {s.ns}",
            f"node {', '.join(bad)} reports DiskPressure: hold the rollout",
        )
        rec.add(
            f"Conditions changed mid-rollout: {', '.join(bad)} now reports DiskPressure=True, so new pods scheduled there fail.",
            [f"describe nodes ({nref})"],
            95,
            f"we paused the rollout; resume it once {', '.join(bad)} is cleaned up or cordoned by its owner, so new pods land on healthy nodes.",
        )
        rec.changes.append(f"deploy/{name}: rollout paused (was progressing)")
        rec.decision = f"Adapted the plan: paused instead of continuing, because of DiskPressure on {', '.join(bad)}."
        return rec
    await s.k(f"rollout resume deploy/{name} -n {s.ns}", "nodes healthy: continue")
    _ok, how = await rollout_ok(s, w)
    rec.verification.append(how)
    rec.decision = "Continued the rollout."
    return rec


async def reach(s: Session) -> Record:
    deps = await deployments(s, s.ns)
    names = named_in(s.prompt, deps)
    src, dst = (names + ["", ""])[:2]
    m = re.search(r"([a-z0-9-]+) can'?t reach ([a-z0-9-]+)", s.prompt, re.I)
    if m:
        src, dst = m.group(1).lower(), m.group(2).lower()
    pols = rd.items(
        await s.k(f"get networkpolicy -n {s.ns} -o yaml", "which policies select the target")
    )
    pref = s.ref()
    await s.k(f"get svc,endpoints -n {s.ns}", f"does svc {dst} have endpoints")
    eref = s.ref()
    rec = Record(f"{src} cannot reach {dst}")
    block = [
        p
        for p in pols
        if dst in json.dumps((p.get("spec") or {}).get("podSelector"))
        and src not in json.dumps((p.get("spec") or {}).get("ingress"))
    ]
    if not block:
        rec.add(
            f"No policy selecting {dst} blocks {src}.",
            [f"policies ({pref})"],
            40,
            "look at DNS / the svc port next",
        )
        return rec
    p = block[0]["metadata"]["name"]
    rec.add(
        f"NetworkPolicy `{p}` selects {dst}'s pods and its ingress rules do not admit {src}, so {src}'s traffic is dropped.",
        [
            f"`{p}` ingress: {json.dumps(block[0].get('spec', {}).get('ingress'))} ({pref})",
            f"svc/endpoints of {dst} exist ({eref})",
        ],
        92,
        f"add one ingress rule to `{p}` admitting pods app={src} only (nothing else opened).",
    )
    if not may_write(s):
        rule = [
            {
                "op": "add",
                "path": "/spec/ingress/-",
                "value": {"from": [{"podSelector": {"matchLabels": {"app": src}}}]},
            }
        ]
        await s.k(
            f"patch networkpolicy {p} -n {s.ns} --type=json -p '{json.dumps(rule)}'",
            f"targeted fix: admit app={src} in {p}",
        )
        rec.changes.append(
            f"networkpolicy/{p}: ingress rule added from app={src} (before: {src} not admitted)"
        )
    return rec


async def _rollback(s: Session, rec: Record, w: Workload, name: str, new: dict, old: dict) -> None:
    """Runbook steps 3 and 4: roll back, then check the error rate against its baseline."""
    await s.k(
        f"rollout undo deploy/{name} -n {s.ns}",
        f"step 3: recent deploy -> roll back to {old.get('images')}",
    )
    _ok, how = await rollout_ok(s, w)
    rec.changes.append(
        f"deploy/{name} image: before {new.get('images')} -> after {old.get('images')} (rollout undo)"
    )
    rec.verification.append(how)
    series = await service_series(s, name, s.ns)
    er = series.get("error_rate")
    base = series.get("normal_error_rate")
    if er:
        now, norm = er[1][-1], (base[1][-1] if base else None)
        back = norm is not None and now <= norm * 2
        rec.verification.append(
            f'step 4: error_rate{{service="{name}"}} now {fmt(now)} vs baseline {fmt(norm) if norm is not None else "?"} ({er[0]})'
        )
        rec.add(
            f"Step 4: after the rollback the error rate is {fmt(now)} against a baseline of {fmt(norm) if norm is not None else '?'}: "
            + (
                "back at baseline."
                if back
                else "not back at baseline yet; we keep watching for the runbook's 5 minutes and escalate if it stays up."
            ),
            [f"error_rate after rollback ({er[0]})"],
            85 if back else 60,
            ""
            if back
            else f"if still elevated after 5 min, page the owners of {name}: the rollback alone did not clear it",
        )
