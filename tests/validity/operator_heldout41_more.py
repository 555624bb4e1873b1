"""heldout41's other plays (session 34, written blind): a migration weighed before any
rollback, a network policy that drops the traffic, a rolling update that watches the nodes,
and a runbook followed step by step against the actual state.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout41_diag import diagnose
from .operator_heldout41_incident import _owner, incident
from .operator_heldout41_look import Ctx
from .operator_heldout41_ops import verify, write
from .operator_heldout41_react import React


async def migration(r: React, ctx: Ctx, w: str) -> str:
    f = await diagnose(r, ctx, w)
    status = await r.act(
        "The request blames the last migration: what ran, and is it reversible?",
        "database",
        query="migrations status",
        database=w,
    )
    r.show([ln for ln in status.splitlines() if ln.strip()][:6])
    last = ""
    for ln in status.splitlines():
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"\d+", cells[1]):
            last = f"{cells[1]} ({cells[2]}, {cells[-1]})"
    lossy = re.search(
        r"drop|irreversible|destructive|data loss|column|truncate|delete", status, re.I
    )
    return (
        f"Root cause: {f.cause or 'the last migration'}"
        + (f"; last migration: {last}" if last else "")
        + ".\n"
        + "".join(f"- {e}\n" for e in f.evidence[:3])
        + "Risk: rolling the migration back "
        + (
            "drops data written since (the migration output above shows a destructive step); that cannot be undone."
            if lossy
            else "may lose data written since it ran; a down-migration is not guaranteed to be lossless."
        )
        + "\nPlan for approval (nothing done yet): 1. snapshot/back up the database; 2. roll back the last migration "
        f"(or roll forward a fix); 3. restart {w}; 4. verify. Waiting for approval from {_owner(ctx)} before step 2."
    )


async def network(r: React, ctx: Ctx, who: list[str]) -> str:
    pols = rd.items(
        await r.kubectl(
            "Before changing anything: which network policies exist, and what do they admit?",
            f"get networkpolicies -n {ctx.ns} -o yaml",
        )
    )
    await r.kubectl(
        "And the services the two sides talk through.", f"get services,endpoints -n {ctx.ns}"
    )
    src = next(
        (
            w
            for w in who
            if re.search(rf"{re.escape(w)}\s+can'?t|{re.escape(w)}\s+cannot", ctx.prompt, re.I)
        ),
        who[0] if who else "",
    )
    dst = next((w for w in who if w != src), "")
    blocking = None
    for p in pols:
        spec = p.get("spec") or {}
        sel = ((spec.get("podSelector") or {}).get("matchLabels")) or {}
        if dst and sel.get("app") == dst and "Ingress" in (spec.get("policyTypes") or ["Ingress"]):
            rules = spec.get("ingress") or []
            admits = any(
                (fr.get("podSelector") or {}).get("matchLabels", {}).get("app") == src
                for rule in rules
                for fr in (rule.get("from") or [])
            )
            if not admits:
                blocking = p
    r.show(
        [
            f"{(p.get('metadata') or {}).get('name')}: selects {((p.get('spec') or {}).get('podSelector') or {}).get('matchLabels')}"
            for p in pols
        ]
    )
    if blocking is None:
        return f"No policy found that blocks {src} -> {dst}; escalating to {_owner(ctx)} with the reads above."
    name = (blocking.get("metadata") or {}).get("name")
    spec = blocking.get("spec") or {}
    port = None
    for rule in spec.get("ingress") or []:
        for pt in rule.get("ports") or []:
            port = port or pt
    rule = {"from": [{"podSelector": {"matchLabels": {"app": src}}}]}
    if port:
        rule["ports"] = [port]
    new = list(spec.get("ingress") or []) + [rule]
    r.thought(
        f"{name} selects app={dst} and admits nobody from app={src}: that is the block. Targeted fix: add one ingress rule for app={src}, nothing else."
    )
    if ctx.read_only or ctx.needs_approval:
        return f"Cause: network policy {name} denies {src} -> {dst}. Proposed (not applied: needs approval): admit app={src} in {name}."
    body = json.dumps({"spec": {"ingress": new}})
    ok = await write(
        r,
        ctx,
        f"Add app={src} to {name}'s ingress.",
        f"patch networkpolicy {name} -n {ctx.ns} --type=merge -p '{body}'",
    )
    await r.kubectl("Read it back.", f"get networkpolicy {name} -n {ctx.ns} -o yaml")
    return (
        f"Root cause: network policy {name} selects the {dst} pods and only admits other sources, so {src} -> {dst} traffic is dropped. "
        f"Other policies were read and select other pods. Fix: added one ingress rule to {name} admitting app={src}"
        + (f" on port {port.get('port')}" if port else "")
        + ("" if ok else " (FAILED)")
        + "; the other rules are unchanged."
    )


async def rolling(r: React, ctx: Ctx, w: str) -> str:
    await r.kubectl(
        f"Where is the rollout of {w}?", f"rollout status deployment/{w} -n {ctx.ns} --timeout=10s"
    )
    await r.kubectl("Any node in trouble before I continue?", "get nodes -o wide")
    desc = await r.kubectl("Node conditions, pressure especially.", "describe nodes")
    bad = []
    for block in re.split(r"\nName:\s+", "\n" + desc):
        name = block.split()[0] if block.strip() else ""
        if re.search(r"(DiskPressure|MemoryPressure|PIDPressure)\s+True", block):
            bad.append((name, re.search(r"(\w+Pressure)\s+True", block).group(1)))  # type: ignore[union-attr]
    events = await r.kubectl(
        "Events since it started.", f"get events -n {ctx.ns} --sort-by=.lastTimestamp"
    )
    evicted = [ln for ln in events.splitlines() if "Evicted" in ln or "Pressure" in ln]
    r.show(evicted[:5] or ["(no eviction)"])
    if not bad:
        ok = await verify(r, ctx, w)
        return f"No node condition changed; the rollout of {w} continues ({'healthy' if ok else 'not yet healthy'})."
    node, cond = bad[0]
    r.thought(
        f"Conditions changed mid-rollout: {node} has {cond}; new pods there get evicted. Adapt: pause, keep pods off {node}, resume."
    )
    await write(
        r,
        ctx,
        "Pause the rollout while I adapt the plan.",
        f"rollout pause deployment/{w} -n {ctx.ns}",
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
    await write(
        r,
        ctx,
        f"Keep {w}'s new pods off {node} while it has {cond}.",
        f"patch deployment {w} -n {ctx.ns} --type=merge -p '{json.dumps(aff)}'",
    )
    await write(
        r,
        ctx,
        "Resume the rollout on the healthy nodes.",
        f"rollout resume deployment/{w} -n {ctx.ns}",
    )
    ok = await verify(r, ctx, w)
    return (
        f"Detected a changed condition mid-rollout: {node} reports {cond} (pods evicted there: {len(evicted)} event(s)). "
        f"Adapted the plan: paused the rollout, kept {w}'s pods off {node} (node affinity), resumed on the other nodes; "
        f"{'verified Ready' if ok else 'NOT yet verified'}. {node}'s disk is for the platform team ({_owner(ctx)}); remove the affinity once it is clear."
    )


async def runbook(r: React, ctx: Ctx, w: str) -> str:
    maps = rd.table(
        await r.kubectl("Find the runbook the request names.", f"get configmaps -n {ctx.ns}")
    )
    words = [x for x in re.findall(r"[a-z]+(?:-[a-z]+)+", ctx.prompt.lower()) if x != w]
    name = next(
        (
            m.get("name", "")
            for m in maps
            if any(x in m.get("name", "") for x in words) and "runbook" in m.get("name", "")
        ),
        "",
    )
    if not name:
        name = next((m.get("name", "") for m in maps if "runbook" in m.get("name", "")), "")
    doc = (
        rd.load_yaml(
            await r.kubectl(
                f"Runbook {name}, its steps.", f"get configmap {name} -n {ctx.ns} -o yaml"
            )
        )
        if name
        else None
    )
    data = (doc or {}).get("data") or {} if isinstance(doc, dict) else {}
    text = "\n".join(str(v) for v in data.values())
    steps = [s.strip() for s in re.findall(r"^\s*(?:\d+[.)]|-)\s*(.+)$", text, re.M)]
    r.show(steps or text.splitlines()[:6])
    out = await incident(r, ctx, w, fix=False)
    rolled = ""
    if re.search(r"roll\s*back|rollback|undo", text, re.I) and "rollout" in out.lower():
        ok = await write(
            r,
            ctx,
            "Runbook step: the error rise follows the recent deploy, so roll it back.",
            f"rollout undo deployment/{w} -n {ctx.ns}",
        )
        good = ok and await verify(r, ctx, w)
        rolled = f"\nRunbook rollback step taken: rolled {w} back ({'verified' if good else 'NOT verified'})."
    else:
        rolled = "\nRunbook rollback step skipped: no recent deploy lines up with the errors, so a rollback would not help."
    return f"Followed runbook {name or '(not found)'} step by step ({len(steps)} steps), adapted to what I found:\n{out}{rolled}"
