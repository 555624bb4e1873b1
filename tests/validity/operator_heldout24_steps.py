"""``heldout24``'s multi-step plays (issue 27, fairness): a rolling update that watches the
nodes, an HA plan carried out step by step, and a runbook read from the cluster and followed
against what the cluster actually shows.
"""

from __future__ import annotations

import json
import re

from .operator_heldout24 import Desk
from .operator_heldout24_do import verify
from .operator_heldout24_look import recent_rollout
from .operator_read import items, load_yaml, log_lines, prom_series, signal_patterns, table


def _target(desk: Desk) -> str:
    return next((d for d in desk.named() if d in desk.deploys), "")


async def _sick_nodes(desk: Desk) -> list[str]:
    text = await desk.k(
        "describe nodes", "node conditions (pressure, not ready) before more pods land"
    )
    sick = []
    for block in re.split(r"\n(?=Name:\s)", text):
        m = re.match(r"Name:\s+(\S+)", block.strip())
        if not m:
            continue
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if re.search(rf"^\s*{cond}\s+True", block, re.M):
                sick.append(f"{m.group(1)} {cond}=True")
        if re.search(r"^\s*Ready\s+(False|Unknown)", block, re.M):
            sick.append(f"{m.group(1)} NotReady")
    return sick


async def rolling(desk: Desk) -> None:
    name = _target(desk)
    await desk.k(
        f"rollout status deploy/{name} -n {desk.ns} --timeout=30s",
        f"where the {name} rollout is at",
    )
    rs = table(await desk.k(f"get rs -n {desk.ns} -o wide -l app={name}", "old vs new replicasets"))
    new, age, old = recent_rollout(desk, name, rs)
    desk.say(f"{name} rollout in progress: {old or '?'} -> {new or '?'} ({age} in)")
    await desk.k(
        f"rollout resume deploy/{name} -n {desk.ns}",
        "continue the update as asked",
        "rollout paused? -> resumed",
    )
    sick = await _sick_nodes(desk)
    pods = table(
        await desk.k(
            f"get pods -n {desk.ns} -o wide -l app={name}", "where new pods land, are they healthy"
        )
    )
    bad = [
        p
        for p in pods
        if p.get("status") not in ("Running",) or p.get("ready", "").startswith("0/")
    ]
    if not sick:
        desk.say("nodes all fine, letting it finish")
        desk.say(await verify(desk, name))
        return
    nodes = sorted({s.split()[0] for s in sick})
    desk.say(
        "heads up: conditions changed mid-rollout -> "
        + ", ".join(sick)
        + (
            f"; {len(bad)} {name} pod(s) unhappy: "
            + ", ".join(f"{p.get('name')} {p.get('status')} on {p.get('node')}" for p in bad)
            if bad
            else ""
        )
    )
    away = {
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
                                                "values": nodes,
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
    await desk.k(
        f"patch deploy {name} -n {desk.ns} --type merge -p '{json.dumps(away, sort_keys=True)}'",
        f"new pods on {', '.join(nodes)} would fail: keep them off it, rollout goes on elsewhere",
        f"affinity none -> nodeAffinity NotIn {', '.join(nodes)}",
    )
    desk.say(
        f"adapted plan: not rolling back (new image isnt the problem, {', '.join(nodes)} is). "
        f"steered new {name} pods off {', '.join(nodes)} (node affinity NotIn) + let rollout continue on the healthy nodes. "
        f"fyi platform/on-call: {', '.join(nodes)} needs disk cleanup/cordon (node is outside my ns scope), then the affinity can go"
    )
    desk.say(await verify(desk, name))


async def ha(desk: Desk) -> None:
    name = _target(desk)
    ns = desk.ns
    doc = load_yaml(
        await desk.k(f"get deploy {name} -n {ns} -o yaml", f"{name} spec now: replicas, affinity")
    )
    spec = (doc or {}).get("spec") or {}
    cur = int(spec.get("replicas") or 1)
    await desk.k(f"get pdb,hpa -n {ns}", "existing disruption budget / autoscaler?")
    nodes = [
        r.get("name")
        for r in table(await desk.k("get nodes", "how many nodes to spread over"))
        if r.get("name")
    ]
    n = max(3, cur)
    desk.say(
        f"{name} today: {cur} replica, no pdb, no anti-affinity, no hpa -> one node dies = outage. {len(nodes)} nodes avail"
    )
    desk.say(
        f"plan:\n1. scale {cur} -> {n}\n2. anti-affinity: spread pods across nodes (hostname)\n3. pdb minAvailable 2\n4. hpa min {n} max {n * 2}\n5. verify spread + ready"
    )
    await desk.k(
        f"scale deploy/{name} -n {ns} --replicas={n}",
        "step 1: >1 replica to survive a node loss",
        f"replicas {cur} -> {n}",
    )
    aff = json.dumps(
        {
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
        },
        sort_keys=True,
    )
    await desk.k(
        f"patch deploy {name} -n {ns} --type merge -p '{aff}'",
        "step 2: pods on different nodes",
        "affinity none -> podAntiAffinity on hostname",
    )
    pdb = f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}-pdb\n  namespace: {ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    await desk.apply(
        pdb,
        "step 3: drains cant take more than 1 pod at once",
        f"pdb none -> {name}-pdb minAvailable 2",
    )
    await desk.k(
        f"autoscale deploy/{name} -n {ns} --min={n} --max={n * 2} --cpu-percent=70",
        "step 4: scale w/ load, never below 3",
        f"hpa none -> min {n} max {n * 2}",
    )
    desk.say(await verify(desk, name))
    pods = table(
        await desk.k(
            f"get pods -n {ns} -o wide -l app={name}", "step 5: are they on different nodes"
        )
    )
    spread = sorted({p.get("node", "") for p in pods if p.get("node")})
    desk.say(
        f"spread: {len(pods)} pods on {len(spread)} nodes ({', '.join(spread)}). "
        + (
            "all 4 steps done"
            if not any(s.failed for s in desk.steps)
            else "fyi some steps FAILED (see trail), not calling it done"
        )
    )


async def _runbook_steps(desk: Desk) -> tuple[str, list[str]]:
    text = await desk.k(f"get configmaps -n {desk.ns} -o yaml", "find the runbook the msg names")
    key = (re.search(r"follow the ([\w-]+) runbook", desk.low) or [None, ""])[1]
    for cm in items(text):
        meta = cm.get("metadata") or {}
        blob = (
            str(meta.get("name", ""))
            + " "
            + " ".join(str(v) for v in (meta.get("annotations") or {}).values())
        )
        steps = str((cm.get("data") or {}).get("steps", ""))
        if steps and (not key or key in blob):
            return str(meta.get("name")), [s.strip() for s in steps.splitlines() if s.strip()]
    return "", []


async def follow_runbook(desk: Desk) -> None:
    name = _target(desk)
    ns = desk.ns
    cm, steps = await _runbook_steps(desk)
    if not steps:
        desk.say(
            "couldnt find that runbook in the ns, doing the usual: logs, recent deploys, rollback if bad"
        )
    else:
        desk.say(f"runbook `{cm}`:\n" + "\n".join(steps))
    out = await desk.use(
        "logs_query",
        "runbook step 1: error pattern",
        f"logs_query {name} errors",
        namespace=ns,
        deployment=name,
        tail=300,
    )
    sig = signal_patterns(log_lines(out))
    desk.say(
        "step 1 (logs): " + ("; ".join(f"{n}x `{m}`" for _, m, n in sig[:3]) or "no error lines")
    )
    rs = table(
        await desk.k(f"get rs -n {ns} -o wide -l app={name}", "runbook step 2: deploy in last 30m?")
    )
    await desk.k(f"rollout history deploy/{name} -n {ns}", "step 2: revisions")
    new, age, old = recent_rollout(desk, name, rs)
    mins = re.findall(r"(\d+)m", age)
    recent = bool(new) and (not mins or int(mins[0]) <= 30) and "h" not in age and "d" not in age
    desk.say(
        "step 2: "
        + (f"yes, {old} -> {new} {age} ago (< 30m)" if recent else "no deploy in last 30m")
    )
    if recent:
        await desk.k(
            f"rollout undo deploy/{name} -n {ns}",
            "step 3: recent deploy + errors -> rollback",
            f"image {new} -> {old}",
        )
        desk.say(f"step 3: rolled back {name} {new} -> {old}")
        desk.say(await verify(desk, name))
    else:
        desk.say(
            "step 3: skipped, no recent deploy -> rollback wouldnt help. escalating w/ logs above"
        )
    q = f'{{namespace="{ns}", service="{name}"}}'
    m = await desk.use(
        "metrics_query",
        "step 4: error rate back to baseline?",
        f"metrics_query {q}",
        action="query_range",
        query=q,
        start="-1h",
    )
    errs = [v for lab, v in prom_series(m) if "error" in lab.get("__name__", "") and v]
    if errs:
        desk.say(
            f"step 4: error rate now {errs[0][-1]:.3g} (was {max(errs[0]):.3g} peak). will recheck in 5m, ping me if it climbs"
        )
    else:
        desk.say(
            "step 4: pods healthy after rollback; no error-rate series to read yet, recheck in 5m"
        )


async def image_update(desk: Desk) -> None:
    """Change a deploy's image: check who manages it first (GitOps owns the spec -> drift)."""
    name = _target(desk)
    tag = (
        re.search(r"\btag\s+(v?[\w.-]+)", desk.prompt)
        or re.search(r"image\s+([\w.:/-]+:[\w.-]+)", desk.prompt)
        or [None, ""]
    )[1].rstrip(".")
    doc = load_yaml(
        await desk.k(
            f"get deploy {name} -n {desk.ns} -o yaml", f"{name} image now + who manages it"
        )
    )
    meta = (doc or {}).get("metadata") or {} if isinstance(doc, dict) else {}
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    gitops = {
        k: v
        for k, v in marks.items()
        if re.search(r"argocd|flux|gitops|managed-by", f"{k}={v}", re.I)
    }
    if gitops:
        desk.say(
            f"{name} is managed by gitops ("
            + ", ".join(f"{k}={v}" for k, v in sorted(gitops.items()))
            + ") -> `kubectl set image` = drift, controller reverts it or it silently diverges from git"
        )
        desk.say(
            f"not doing it imperatively. pls bump the tag to {tag} in the git repo / app manifest + let the controller sync (PR, review). happy to watch the sync after"
        )
        return
    img = re.search(r"image:\s*(\S+)", json.dumps(doc)) if doc else None
    cur = img.group(1).strip('",') if img else "?"
    new = cur.rsplit(":", 1)[0] + ":" + tag.split(":")[-1] if cur != "?" else tag
    await desk.k(
        f"set image deploy/{name} {name}={new} -n {desk.ns}",
        "asked for the new tag",
        f"image {cur} -> {new}",
    )
    desk.say(await verify(desk, name))
