"""``heldout18``'s multi-step jobs: a runbook, a canary gate, a rolling update that meets a
new condition, and making a service highly available. Each states its plan, then runs it.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk
from .operator_heldout18_act import verify_fn
from .operator_read import age_minutes, load_yaml, prom_series, table


async def runbook(desk: Desk, name: str) -> None:
    """Find the runbook the request names, then run its steps against what the cluster shows."""
    doc = load_yaml(
        await desk.kubectl(
            f"get configmaps -n {desk.ns} -o yaml", "to find the runbook the request names"
        )
    )
    books = [
        i for i in (doc or {}).get("items", []) if "runbook" in json.dumps(i.get("metadata", {}))
    ]
    words = set(re.findall(r"[a-z]+(?:-[a-z]+)+", desk.prompt.lower()))
    book = next(
        (b for b in books if words & set(re.findall(r"[a-z]+(?:-[a-z]+)+", json.dumps(b)))),
        books[0] if books else None,
    )
    steps = str((book or {}).get("data", {}).get("steps", "")).splitlines()
    desk.plan = [s.strip() for s in steps if s.strip()] or [
        "check errors",
        "check recent deploys",
        "roll back if recent",
        "verify",
    ]
    title = (book or {}).get("metadata", {}).get("name", "the runbook")
    desk.summary.append(
        f"I followed **`{title}`** step by step, checking each step's condition against the live state"
    )
    logs = await desk.use(
        "logs_query",
        "runbook step 1: check the error logs for a pattern",
        f"logs_query deployment={name} filter=error",
        namespace=desk.ns,
        deployment=name,
        filter="error",
        tail=100,
    )
    errors = [ln for ln in logs.splitlines() if re.search(r"error|exception", ln, re.I)]
    desk.evidence.append(
        f"Step 1 — error logs: {len(errors)} error lines"
        + (f", e.g. `{errors[0][-120:]}`" if errors else "")
    )
    fresh = await _deployed_within(desk, name, 30)
    if fresh:
        age = fresh[0].get("age")
        desk.evidence.append(
            f"Step 2 — **yes**: ReplicaSet `{fresh[0].get('name')}` is {age} old (a rollout inside the 30-minute window)"
        )
        await desk.kubectl(
            f"rollout undo deployment/{name} -n {desk.ns}",
            "runbook step 3: a recent deploy lines up with the errors, so roll back to the previous revision",
            change="rollback to previous ReplicaSet",
        )
        desk.actions.append(
            f"Step 3 — rolled `deployment/{name}` back to the previous revision (`kubectl rollout undo`)"
        )
        desk.cause.append(
            f"The errors started with the rollout {age} ago; rolling it back is the runbook's remedy"
        )
    else:
        desk.evidence.append(
            "Step 2 — **no** deploy in the last 30 minutes, so the rollback branch does not apply"
        )
        desk.held.append(
            "I did **not** roll back: the runbook only calls for it after a recent deploy, and there was none"
        )
    await verify_fn(desk, name)
    await _error_rate(desk, name, "runbook step 4: verify the error rate returns to baseline")
    desk.confidence = (
        "high" if fresh else "medium",
        "each step's condition was checked against live data",
    )


async def _deployed_within(desk: Desk, name: str, minutes: float) -> list[dict[str, str]]:
    """Runbook step 2: the live ReplicaSets of ``name`` younger than ``minutes``."""
    rs = table(
        await desk.kubectl(
            f"get rs -n {desk.ns} -l app={name}",
            "runbook step 2: was there a deployment in the last 30 minutes?",
        )
    )
    await desk.kubectl(
        f"rollout history deployment/{name} -n {desk.ns}", "runbook step 2: which revisions exist"
    )
    return [
        r
        for r in rs
        if (age_minutes(r.get("age", "")) or 1e9) <= minutes and r.get("desired", "0") != "0"
    ]


async def _error_rate(desk: Desk, name: str, why: str) -> list[float]:
    query = f'error_rate{{namespace="{desk.ns}", service="{name}"}}'
    text = await desk.use(
        "metrics_query",
        why,
        f"metrics_query {query}",
        action="query_range",
        query=query,
        start="-1h",
    )
    values = next((v for _, v in prom_series(text) if v), [])
    if values:
        desk.evidence.append(
            f"`error_rate` for {name}: latest **{values[-1]:.2%}** (1h ago {values[0]:.2%})"
        )
    return values


async def canary(desk: Desk, name: str) -> None:
    """Gate the canary on its error rate: promote if under the threshold, else roll it back."""
    names = [d.get("name", "") for d in desk.deployments]
    cans = [n for n in names if "canary" in n]
    # the canary of the service asked about: named after it, else the only canary there is
    can = next((n for n in cans if name and n.startswith(name.replace("-canary", ""))), "")
    can = can or (cans[0] if len(cans) == 1 else "")
    stable = next((n for n in names if n and can.startswith(n) and n != can), "")
    stable = stable or (name if name and name != can else "")
    m = re.search(r"under (\d+(?:\.\d+)?)\s*%", desk.prompt)
    limit = float(m.group(1)) / 100 if m else 0.02
    desk.plan = [
        f"Read the canary's error rate ({can})",
        f"Compare with the {limit:.0%} threshold",
        "Promote to 50% if healthy, roll back if not",
        "Verify",
    ]
    rate = None
    for query in (
        f'error_rate{{namespace="{desk.ns}", deployment="{can}"}}',
        f'error_rate{{namespace="{desk.ns}", service="{can}"}}',
        f'error_rate{{pod=~"{can}.*"}}',
    ):
        text = await desk.use(
            "metrics_query",
            f"to read {can}'s error rate",
            f"metrics_query {query}",
            action="query",
            query=query,
        )
        vals = [v[-1] for _, v in prom_series(text) if v]
        if vals:
            rate = max(vals)
            break
    if rate is None:
        desk.summary.append(
            f"⚠️ I could not find an error-rate series for `{can}`, so I did not change the split"
        )
        desk.nexts.append("Point me at the canary's error metric and I'll re-run the check")
        return
    rate = rate / 100 if rate > 1 else rate
    desk.evidence.append(f"`{can}` error rate: **{rate:.1%}** vs threshold **{limit:.0%}**")
    if rate >= limit:
        desk.summary.append(
            f"❌ **The canary is unhealthy ({rate:.1%} errors ≥ {limit:.0%}), so I rolled it back** instead of bumping to 50%"
        )
        await desk.kubectl(
            f"scale deployment/{can} -n {desk.ns} --replicas=0",
            f"to roll back the canary: its error rate {rate:.1%} is over the {limit:.0%} gate",
            change="canary replicas 1 -> 0",
        )
        desk.actions.append(
            f"Scaled `deployment/{can}` to **0** — all traffic is back on `{stable or 'the stable deployment'}`"
        )
        desk.held.append("I did **not** promote the canary to 50%: the health condition failed")
        await desk.kubectl(
            f"get deployments -n {desk.ns}",
            "to verify the canary is at 0 and the stable deployment is fully available",
        )
    else:
        desk.summary.append(f"✅ Canary healthy ({rate:.1%} < {limit:.0%}); bumped it to 50%")
        rows = table(
            await desk.kubectl(f"get deployment {stable} -n {desk.ns}", "to size the 50% split")
        )
        n = int((rows[0].get("ready", "1/1").split("/")[-1]) if rows else 1)
        await desk.kubectl(
            f"scale deployment/{can} -n {desk.ns} --replicas={n}",
            "to send half of the traffic to the canary",
            change=f"canary -> {n} replicas",
        )
        desk.actions.append(f"Scaled `{can}` to {n} replicas (≈50% of pods)")
    desk.confidence = (
        "high",
        "the decision follows the threshold you gave, on the canary's own metric",
    )


async def rolling(desk: Desk, name: str) -> None:
    """Resume a paused rollout, then re-check the nodes; stop and re-plan if one degrades."""
    await desk.kubectl(
        f"rollout status deployment/{name} -n {desk.ns} --timeout=5s",
        f"to see where {name}'s rollout stands",
    )
    desk.plan = [
        f"Resume the paused rollout of {name}",
        "Watch new pods schedule and become Ready",
        "Check node conditions while it progresses",
        "Finish, or pause and re-plan if a node degrades",
    ]
    await desk.kubectl(
        f"rollout resume deployment/{name} -n {desk.ns}",
        f"to continue {name}'s rolling update as requested",
        change="rollout resumed",
    )
    desk.actions.append(f"Resumed the rollout of `deployment/{name}`")
    desk.trigger = "a node condition that changed mid-rollout"
    nodes = await desk.kubectl(
        "describe nodes", "to check the nodes the new pods land on while the rollout runs"
    )
    alerts = await desk.use(
        "metrics_query",
        "to see whether any alert fired during the rollout",
        "metrics_query alerts",
        action="alerts",
    )
    bad = sorted(set(re.findall(r"Name:\s+(\S+)(?:(?!\nName:)[\s\S])*?DiskPressure\s+True", nodes)))
    bad = (
        bad or sorted(set(re.findall(r'"node":\s*"([^"]+)"[^}]*', alerts)))
        if "DiskPressure" in alerts or "disk" in alerts.lower()
        else bad
    )
    if not bad:
        await verify_fn(desk, name)
        desk.summary.append(f"✅ The rollout of `{name}` completed; nodes stayed healthy")
        return
    node = bad[0]
    await _steer_clear(desk, name, node)


async def _steer_clear(desk: Desk, name: str, node: str) -> None:
    """Adapt the rollout to a node that degraded mid-way: keep the new pods off it and let
    the update finish on the healthy nodes (the node itself is not this task's to touch)."""
    desk.summary.append(
        f"⚠️ **{node} went into DiskPressure mid-rollout**, so I changed the plan: the rest of "
        f"the update now avoids {node} and finishes on the healthy nodes"
    )
    desk.evidence.append(
        f"`describe nodes`: **{node}** condition `DiskPressure=True` — new pods scheduled there "
        "get evicted or fail"
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
    await desk.kubectl(
        f"patch deployment {name} -n {desk.ns} --type strategic -p '{json.dumps(away)}'",
        f"to keep the remaining new {name} pods off {node} while it has disk pressure",
        change=f"pod template: nodeAffinity hostname NotIn [{node}]",
    )
    desk.actions.append(
        f"**Adapted the rollout:** added a node affinity so new `{name}` pods avoid **{node}** "
        "(`kubernetes.io/hostname NotIn`), and let the update continue"
    )
    await verify_fn(desk, name)
    await desk.kubectl(
        f"get pods -n {desk.ns} -l app={name} -o wide",
        f"to verify no new {name} pod landed on {node}",
    )
    desk.plan += [
        f"NEW: steer the remaining new pods away from {node} (node affinity) and continue",
        "NEW: confirm all replicas Ready on healthy nodes",
        f"NEW: remove the affinity once {node}'s disk pressure is resolved",
    ]
    desk.nexts.append(
        f"Ask the platform team to free disk on {node}; then I'll drop the temporary affinity"
    )
    desk.held.append(
        f"I did not cordon or drain {node}: that affects every workload on the node, beyond "
        "this rollout"
    )
    desk.confidence = ("high", "the node condition is read straight from the API")


async def high_availability(desk: Desk, name: str) -> None:
    """Replicas spread across nodes, a disruption budget, and an autoscaler floor."""
    await desk.kubectl(
        f"get deployment {name} -n {desk.ns} -o yaml",
        f"to read {name}'s replicas, affinity and resources",
    )
    await desk.kubectl(
        f"get pdb,hpa -n {desk.ns}",
        "to see whether a disruption budget or autoscaler already exists",
    )
    nodes = table(await desk.kubectl("get nodes", "to count the nodes replicas can spread over"))
    n = max(2, min(3, len(nodes) or 3))
    desk.plan = [
        f"Scale {name} to {n} replicas",
        "Spread them across nodes (pod anti-affinity on kubernetes.io/hostname)",
        "Add a PodDisruptionBudget (minAvailable: 2)",
        f"Add an HPA with minReplicas {n}",
        "Verify pods Ready on different nodes",
    ]
    desk.summary.append(
        f"✅ `{name}` went from a single replica to **{n} replicas spread across nodes**, with a PDB and an HPA"
    )
    affinity = {
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
                                        "labelSelector": {"matchLabels": {"app": name}},
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
    await desk.kubectl(
        f"patch deployment {name} -n {desk.ns} --type strategic -p '{json.dumps(affinity)}'",
        f"to run {n} replicas and keep them on different nodes",
        change=f"replicas 1 -> {n}, podAntiAffinity on hostname",
    )
    desk.actions.append(
        f"Patched `deployment/{name}`: **replicas 1 → {n}** + **podAntiAffinity** (topologyKey `kubernetes.io/hostname`)"
    )
    pdb = f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}-pdb\n  namespace: {desk.ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    await desk.kubectl(
        "apply -f -",
        f"to keep at least 2 {name} pods up during node drains",
        change=f"created PodDisruptionBudget {name}-pdb",
        stdin=pdb,
    )
    desk.actions.append(f"Created **PodDisruptionBudget** `{name}-pdb` (minAvailable: 2)")
    await desk.kubectl(
        f"autoscale deployment {name} -n {desk.ns} --min={n} --max={n * 2} --cpu-percent=70",
        f"so {name} never drops below {n} and scales with load",
        change=f"created HPA min {n} max {n * 2}",
    )
    desk.actions.append(f"Created **HorizontalPodAutoscaler** (min {n}, max {n * 2}, 70% CPU)")
    await verify_fn(desk, name)
    await desk.kubectl(
        f"get pods -n {desk.ns} -l app={name} -o wide",
        "to verify the replicas landed on different nodes",
    )
    desk.confidence = ("high", "each piece of the plan was applied and read back")
