"""heldout37's multi-step requests: a runbook followed step by step, a canary decided on its
health condition, a high-availability plan executed, and a rollout continued while watching
the nodes.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout37_act import blocked, undo
from .operator_heldout37_base import Op
from .operator_heldout37_look import Workload, fmt, load, logs, refresh_pods, series, signal


async def runbook(op: Op, name: str) -> None:
    a, ns = op.ans, op.ns
    out = await op.k(
        f"get configmaps -n {ns} -l app.kubernetes.io/component=runbook -o yaml",
        "find the runbook you named",
    )
    steps: list[str] = []
    for doc in rd.items(out):
        text = str((doc.get("data") or {}).get("steps", ""))
        steps = [re.sub(r"^\d+[.)]\s*", "", s).strip() for s in text.splitlines() if s.strip()]
        if steps:
            break
    w = await load(op, name, ns)
    a.findings.append(
        "🔍 Runbook steps: " + " / ".join(f"({i}) {s}" for i, s in enumerate(steps, 1))
    )
    recent = ""
    for i, step in enumerate(steps, 1):
        op.trigger = f"runbook step {i}"
        low = step.lower()
        if "log" in low:
            await logs(op, w)
            pats = signal(w)
            a.did.append(
                f"✅ Step {i} ({step}): "
                + (
                    f"pattern `{pats[0][0]}: {pats[0][1]}` ×{pats[0][2]}"
                    if pats
                    else "no error pattern"
                )
            )
        elif "deploy" in low and "rollback" not in low and "roll back" not in low:
            hist = await op.k(
                f"rollout history deployment/{name} -n {ns}", "did a deployment happen recently?"
            )
            rs = await op.k(
                f"get rs -n {ns} -l app={name} -o wide", "age and image of each ReplicaSet"
            )
            rows = sorted(rd.table(rs), key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
            if rows and (rd.age_minutes(rows[0].get("age", "")) or 1e9) <= 30:
                recent = f"`{rows[0].get('images')}` rolled out {rows[0].get('age')} ago"
            a.did.append(
                f"✅ Step {i} ({step}): "
                + (recent or f"no rollout in the window ({len(hist.splitlines())} history lines)")
            )
        elif "rollback" in low or "roll back" in low:
            if recent and not blocked(op):
                await undo(op, w, f"runbook step {i}: recent deploy ({recent}) → roll back")
                w2 = await load(op, name, ns)
                img = ", ".join(str(c.get("image")) for c in w2.containers())
                a.did.append(f"✅ Step {i} ({step}): rolled back, now running `{img}`")
            else:
                a.did.append(f"⏭️ Step {i} ({step}): skipped, no recent deploy")
        elif "verify" in low or "error rate" in low:
            got = await series(op, w, start="-10m")
            err = got.get("error_rate", [])
            norm = got.get("normal_error_rate", [])
            a.did.append(
                f"✅ Step {i} ({step}): error rate now {fmt(err[-1]) if err else '?'}"
                + (f", baseline {fmt(norm[-1])}" if norm else "")
            )
            if err and norm:
                a.verify.append(
                    (
                        "✅ back to baseline"
                        if err[-1] <= norm[-1] * 1.5
                        else "⚠️ still above baseline"
                    )
                    + f": {fmt(err[-1])} vs {fmt(norm[-1])}"
                )
    op.trigger = "your request"
    a.tldr = "Runbook followed step by step" + (
        f": the errors began with a recent deploy ({recent}), so I rolled it back."
        if recent
        else "."
    )


async def canary(op: Op, name: str) -> None:
    a, ns = op.ans, op.ns
    m = re.search(
        r"(error rate|latency)[^.\d]*?(?:under|below|less than|<)\s*([\d.]+)\s*(%|ms)?",
        op.prompt,
        re.I,
    )
    bound = float(m.group(2)) / (100 if m and m.group(3) == "%" else 1) if m else 0.02
    deps = rd.table(
        await op.k(f"get deployments -n {ns}", "find the canary and the stable deployments")
    )
    can = next(
        (
            d.get("name", "")
            for d in deps
            if "canary" in d.get("name", "") and name in d.get("name", "")
        ),
        f"{name}-canary",
    )
    cw = await load(op, can, ns)
    got = await series(op, cw, start="-30m")
    err = got.get("error_rate", [])
    now = err[-1] if err else None
    a.findings.append(
        f"🔍 `{can}` error rate: {fmt(now) if now is not None else 'no series'} (bound: under {fmt(bound)})."
    )
    if now is None:
        a.tldr = "I can't read the canary's error rate, so I'm not moving the rollout either way."
        return
    if now < bound:
        a.tldr = f"✅ Canary healthy ({fmt(now)} < {fmt(bound)}): bumping it to 50%."
        stable = await load(op, name, ns)
        await op.k(
            f"scale deployment/{can} -n {ns} --replicas={stable.replicas}",
            "canary healthy: match the stable replicas for 50% of traffic",
            write=True,
        )
        a.did.append(f"✅ `{can}` replicas {cw.replicas} → {stable.replicas} (50% of pods)")
        return
    a.tldr = f"❌ Canary unhealthy: error rate {fmt(now)} is over the {fmt(bound)} bound, so I rolled the canary back (not promoted)."
    await op.k(
        f"scale deployment/{can} -n {ns} --replicas=0",
        f"roll back the canary: error rate {fmt(now)} ≥ {fmt(bound)}",
        write=True,
    )
    out = await op.k(f"get deployment {can} -n {ns}", "confirm the canary takes no traffic")
    a.did.append(
        f"↩️ `deployment/{can}` replicas {cw.replicas} → 0: canary rolled back, stable `{name}` serves 100%"
    )
    a.verify.append(
        f"🔍 `{can}`: READY `{(rd.table(out) or [{}])[0].get('ready')}`; stable `{name}` untouched."
    )
    a.next = ["Look into the canary image's errors before trying again."]


async def high_availability(op: Op, name: str) -> None:
    a, ns = op.ans, op.ns
    w = await load(op, name, ns)
    nodes = [
        r.get("name", "")
        for r in rd.table(await op.k("get nodes", "how many nodes can spread the replicas"))
    ]
    pdbs = await op.k(f"get pdb -n {ns}", "is there a disruption budget already?")
    n = max(3, min(len(nodes), 3))
    a.findings.append(
        f"🔍 `{name}` runs {w.replicas} replica(s), no anti-affinity, "
        + ("no PDB" if "No resources" in pdbs or not pdbs.strip() else "a PDB exists")
        + f"; {len(nodes)} nodes."
    )
    a.cause.append("**Plan**:")
    a.cause += [
        f"1. Scale `{name}` {w.replicas} → {n} replicas, so one node going down leaves {n - 1} serving.",
        "2. Add pod anti-affinity on `kubernetes.io/hostname`, so the replicas land on different nodes.",
        f"3. Add a PodDisruptionBudget (`minAvailable: {n - 1}`), so drains never take more than one at a time.",
        "4. Verify: all replicas Ready, each on its own node, PDB allowing 1 disruption.",
    ]
    aff = {
        "spec": {
            "replicas": n,
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "labelSelector": {
                                            "matchLabels": w.selector or {"app": name}
                                        },
                                        "topologyKey": "kubernetes.io/hostname",
                                    },
                                }
                            ]
                        }
                    }
                }
            },
        }
    }
    await op.k(
        f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff, sort_keys=True)}'",
        f"plan steps 1-2: {n} replicas spread across nodes",
        write=True,
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"minAvailable": n - 1, "selector": {"matchLabels": w.selector or {"app": name}}},
    }
    await op.k(
        f"apply -n {ns} -f -",
        "plan step 3: a PodDisruptionBudget",
        stdin=json.dumps(pdb),
        write=True,
    )
    await op.k(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        "plan step 4: wait for the replicas",
    )
    pods = rd.table(
        await op.k(
            f"get pods -n {ns} -l app={name} -o wide",
            "plan step 4: check which node each replica is on",
        )
    )
    where = sorted({p.get("node", "") for p in pods})
    a.did += [
        f"✅ `deployment/{name}`: replicas {w.replicas} → {n}, anti-affinity on hostname added",
        f"✅ `poddisruptionbudget/{name}` created (minAvailable {n - 1})",
    ]
    a.verify.append(
        f"{'✅' if len(where) >= n else '⚠️'} {len(pods)} pods on nodes {', '.join(f'`{x}`' for x in where)}"
    )
    a.tldr = f"Done: `{name}` now runs {n} replicas on separate nodes with a PDB, so it survives a node failure."


async def continue_rollout(op: Op, name: str) -> None:
    a, ns = op.ans, op.ns
    w = await load(op, name, ns)
    img = ", ".join(str(c.get("image")) for c in w.containers())
    a.findings.append(f"🔍 `{name}` target image `{img}`; rollout in progress.")
    nodes = await op.k(
        "get nodes -o custom-columns=NAME:.metadata.name,DISK:.status.conditions[?(@.type=='DiskPressure')].status",
        "check the nodes while the rollout runs",
    )
    ev = await op.k(f"get events -n {ns}", "anything new during the rollout?")
    bad = [r.get("name", "") for r in rd.table(nodes) if r.get("disk", "").lower() == "true"]
    bad += [
        n
        for n in re.findall(r"node/(\S+)\s+Node \S+ status is now: NodeHasDiskPressure", ev)
        if n not in bad
    ]
    if bad:
        a.findings.append(
            f"⚠️ Mid-rollout, {', '.join(f'`{b}`' for b in bad)} went into `DiskPressure`: pods there get evicted."
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
                                                    "values": bad,
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
        await op.k(
            f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff, sort_keys=True)}'",
            f"keep the new pods off {', '.join(bad)} (DiskPressure) and continue the rollout",
            write=True,
        )
        a.did.append(
            f"✅ Adapted the rollout: `{name}` pods now avoid {', '.join(f'`{b}`' for b in bad)} (node affinity), rollout continued on the healthy nodes"
        )
    await op.k(f"rollout resume deployment/{name} -n {ns}", "make sure the rollout is not paused")
    st = await op.k(
        f"rollout status deployment/{name} -n {ns} --timeout=180s", "follow the rollout to the end"
    )
    await refresh_pods(op, w, "where the new pods landed")
    pods = rd.table(
        await op.k(f"get pods -n {ns} -l app={name} -o wide", "where the new pods landed")
    )
    a.verify.append(
        f"{'✅' if 'successfully' in st else '⚠️'} rollout: {st.strip().splitlines()[-1] if st.strip() else '?'}; pods on "
        + ", ".join(sorted({"`" + p.get("node", "") + "`" for p in pods}))
    )
    a.tldr = f"Rollout of `{name}` continued" + (
        f", routed around {', '.join(bad)} (DiskPressure)." if bad else "."
    )
    a.next = [
        f"Once {', '.join(bad)} is cleaned up, drop the temporary node affinity."
        if bad
        else "Nothing else needed."
    ]


__all__ = ["Workload"]
