"""``heldout25``'s multi-step work: a canary judged against the request's own threshold, a
paused rolling update resumed only on healthy nodes, a high-availability plan written then
carried out, and a runbook read from the cluster and followed step by step against what is
actually there.
"""

from __future__ import annotations

import json
import re

from .operator_heldout25 import Shift
from .operator_heldout25_change import managed_by, propose, verify
from .operator_heldout25_guard import current_replicas
from .operator_read import age_minutes, describe_pods, load_yaml, prom_series, table


async def rate_of(shift: Shift, metric: str, name: str) -> float | None:
    q = f'{metric}{{service="{name}"}}'
    out = await shift.use(
        "metrics_query",
        f"metrics_query query {q}",
        f"so that the {metric} of {name} was measured",
        action="query",
        query=q,
    )
    vals = next((v for _, v in prom_series(out) if v), [])
    return vals[-1] if vals else None


async def canary_step(shift: Shift) -> None:
    named = shift.named()
    base = next((n for n in named if "canary" not in n), "")
    canaries = sorted(d for d in shift.deploys if "canary" in d and d != base)
    own = [d for d in canaries if base and d.startswith(base)]
    can = (own or canaries or [""])[0]
    if not can:
        shift.hand("No canary deployment was found; its name should be confirmed.")
        return
    desc = await shift.k(
        f"describe deployment {can} -n {shift.ns}",
        "so that the canary's weight and image were read",
    )
    weight = (re.search(r"traffic\.weight:\s*(\S+)", desc) or [None, "unknown"])[1]
    limit = float((re.search(r"under (\d+(?:\.\d+)?)\s*%", shift.low) or [None, "2"])[1]) / 100
    rate = await rate_of(shift, "error_rate", can)
    stable = await rate_of(shift, "error_rate", base) if base else None
    if rate is None:
        shift.log("The canary's error rate could not be read; the rollout was left as it was.")
        shift.hand("The canary's error rate should be checked before the rollout continues.")
        return
    healthy = rate < limit
    shift.log(
        f"The health condition was evaluated: the canary {can} (weight {weight}) was measured at "
        f"an error rate of {rate * 100:.1f}%"
        + (f" against {stable * 100:.1f}% on the stable {base}" if stable is not None else "")
        + f"; the threshold is {limit * 100:.0f}%, so the canary was judged "
        + ("healthy." if healthy else "unhealthy and the rollback branch was taken.")
    )
    if not shift.may_write:
        propose(shift, f"{'promote' if healthy else 'roll back'} the canary {can}")
        return
    if healthy:
        await shift.k(
            f"annotate deployment {can} -n {shift.ns} traffic.weight=50% --overwrite",
            "so that the canary was bumped to 50% of the traffic",
            delta=f"traffic.weight {weight} -> 50%",
        )
        await verify(shift, can)
        return
    now = current_replicas(shift, can)
    await shift.k(
        f"scale deployment/{can} -n {shift.ns} --replicas=0",
        "so that the unhealthy canary was rolled back (no traffic, no pods)",
        delta=f"replicas {now} -> 0",
    )
    await shift.k(
        f"annotate deployment {can} -n {shift.ns} traffic.weight=0% --overwrite",
        "so that the canary's traffic weight matched its removal",
        delta=f"traffic.weight {weight} -> 0%",
    )
    pods = table(
        await shift.k(
            f"get pods -n {shift.ns} -l app={can}", "so that the canary pods were seen gone"
        )
    )
    shift.log(
        f"The canary was rolled back: {can} was scaled to 0 ({len(pods)} pods left) and all "
        f"traffic stays on {base or 'the stable version'}."
    )
    shift.hand(
        f"The canary's errors ({rate * 100:.1f}%) should be investigated by the owners of {base or can} before a new canary."
    )


async def bad_nodes(shift: Shift) -> list[str]:
    out = await shift.k(
        "describe nodes", "so that node conditions were checked before pods were moved"
    )
    bad = []
    for block in re.split(r"\n(?=Name:\s)", out):
        name = (re.match(r"Name:\s+(\S+)", block.strip()) or [None, ""])[1]
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if re.search(rf"^\s+{cond}\s+True", block, re.M):
                bad.append(f"{name} ({cond})")
        if re.search(r"^\s+Ready\s+(False|Unknown)", block, re.M):
            bad.append(f"{name} (NotReady)")
        if re.search(r"Unschedulable:\s+true", block):
            bad.append(f"{name} (cordoned)")
    return bad


async def rollout_step(shift: Shift) -> None:
    name = shift.named()[0] if shift.named() else ""
    if not name:
        shift.hand("The deployment being rolled out should be named.")
        return
    desc = await shift.k(
        f"describe deployment {name} -n {shift.ns}",
        "so that the rollout's state and target image were read",
    )
    rs = table(
        await shift.k(
            f"get rs -n {shift.ns} -l app={name} -o wide",
            "so that old and new replica sets were compared",
        )
    )
    paused = "DeploymentPaused" in desc
    new = (re.search(r"^\s+Image:\s+(\S+)", desc.split("Containers:")[-1], re.M) or [None, "?"])[1]
    shift.log(
        f"The rolling update of {name} was found {'paused' if paused else 'in progress'}, target "
        f"image {new}: "
        + "; ".join(
            f"{r.get('name')} {r.get('images', '')} {r.get('ready')}/{r.get('desired')}" for r in rs
        )
        + "."
    )
    bad = await bad_nodes(shift)
    events = table(
        await shift.k(f"get events -n {shift.ns}", "so that anything new since the start was seen")
    )
    evicted = [
        e for e in events if e.get("reason") in ("Evicted", "NodeHasDiskPressure", "NodeNotReady")
    ]
    if bad or evicted:
        _changed(shift, name, bad, evicted)
        if shift.may_write and bad:
            await _around(shift, name, bad, paused)
        else:
            _held(shift, name, bad)
        return
    if not shift.may_write:
        propose(shift, f"resume the rollout of {name}")
        return
    if paused:
        await shift.k(
            f"rollout resume deployment/{name} -n {shift.ns}",
            "so that the rolling update continued",
            delta="spec.paused true -> false",
        )
    await verify(shift, name)
    bad = await bad_nodes(shift)
    if bad:
        await shift.k(
            f"rollout pause deployment/{name} -n {shift.ns}",
            "so that the rollout stopped on the new condition",
            delta="spec.paused false -> true",
        )
        _changed(shift, name, bad, [])
        _held(shift, name, bad)


def _changed(shift: Shift, name: str, bad: list[str], evicted: list[dict[str, str]]) -> None:
    shift.log(
        "A changed condition was detected since the rollout began: "
        + ", ".join(bad or ["pod evictions"])
        + (
            f"; {len(evicted)} eviction/pressure events were recorded ("
            + "; ".join(f"{e.get('object')}: {e.get('message', '')[:90]}" for e in evicted[:3])
            + ")"
            if evicted
            else ""
        )
        + "."
    )


def _held(shift: Shift, name: str, bad: list[str]) -> None:
    shift.log(
        f"The plan was adapted: the rollout of {name} was not resumed while a node is under "
        "pressure, since new pods could be scheduled onto it and evicted, and the rollout would "
        "then stall half-way. It was left paused in a consistent state (old and new pods serving)."
    )
    shift.hand(
        f"The node condition ({', '.join(bad) or 'evictions'}) should be cleared (disk space freed, "
        f"or the node cordoned by the platform team); the rollout of {name} can then be resumed "
        f"with `kubectl rollout resume deployment/{name}`."
    )


async def _around(shift: Shift, name: str, bad: list[str], paused: bool) -> None:
    """The plan adapted: the pressured nodes are kept out of the rollout (cordoned, else
    avoided by node affinity), then the rollout continues and is verified."""
    nodes = sorted({b.split(" ")[0] for b in bad})
    if nodes:
        avoid = {
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
        await shift.k(
            f"patch deployment {name} -n {shift.ns} --type merge -p '{json.dumps(avoid)}'",
            f"so that new {name} pods avoided {', '.join(nodes)} (nodes are cluster-scoped, outside the namespace scope)",
            delta=f"nodeAffinity none -> hostname NotIn {nodes}",
        )
    shift.log(
        f"The plan was adapted to the new condition: {', '.join(nodes)} was kept out of the "
        f"rollout before it continued, so the new {name} pods land only on healthy nodes."
    )
    if paused:
        await shift.k(
            f"rollout resume deployment/{name} -n {shift.ns}",
            "so that the rolling update continued on the healthy nodes",
            delta="spec.paused true -> false",
        )
    await verify(shift, name)
    shift.hand(
        f"{', '.join(bad)} should be cleared by the platform team (disk space freed) and then "
        f"uncordoned (`kubectl uncordon {' '.join(nodes)}`)."
    )


async def ha_plan(shift: Shift) -> None:
    from .operator_heldout25_plays import subject

    name = subject(shift)
    if not name:
        shift.hand("The service to make highly available should be named.")
        return
    now = current_replicas(shift, name)
    nodes = table(
        await shift.k("get nodes", "so that the number of nodes to spread across was known")
    )
    pdbs = table(
        await shift.k(f"get pdb -n {shift.ns}", "so that existing disruption budgets were seen")
    )
    manager = await managed_by(shift, name)
    ready = [n.get("name") for n in nodes if n.get("status") == "Ready"]
    want = max(3, now) if len(ready) >= 3 else max(2, now)
    shift.log(
        f"{name} was found with {now} replica(s) on a cluster of {len(ready)} ready nodes and "
        f"{len(pdbs)} PodDisruptionBudget(s); a single replica does not survive a node failure."
    )
    shift.log(
        "A plan was drawn up, in this order: step 1, a topology spread constraint added so "
        f"that no two replicas share a node; step 2, replicas raised to {want}; step 3, a PodDisruptionBudget (minAvailable "
        f"{want - 1}) created so that drains keep a quorum; step 4, the spread of pods over "
        "nodes verified."
    )
    if manager or not shift.may_write:
        if manager:
            shift.log(f"{name} is managed by {manager}; the plan was not applied directly.")
        propose(shift, f"the plan above for {name}")
        return
    await _ha_apply(shift, name, now, want)


async def _ha_apply(shift: Shift, name: str, now: int, want: int) -> None:
    spread = {
        "spec": {
            "template": {
                "spec": {
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "DoNotSchedule",
                            "labelSelector": {"matchLabels": {"app": name}},
                        }
                    ],
                    "affinity": {
                        "podAntiAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "topologyKey": "kubernetes.io/hostname",
                                    "labelSelector": {"matchLabels": {"app": name}},
                                }
                            ]
                        }
                    },
                }
            }
        }
    }
    await shift.k(
        f"patch deployment {name} -n {shift.ns} --type merge -p '{json.dumps(spread)}'",
        "(plan step 1) so that replicas were spread over distinct nodes",
        delta="topologySpreadConstraints and podAntiAffinity none -> one replica per node (kubernetes.io/hostname)",
    )
    await shift.k(
        f"scale deployment/{name} -n {shift.ns} --replicas={want}",
        "(plan step 2) so that the loss of one node leaves replicas serving",
        delta=f"replicas {now} -> {want}",
    )
    pdb = (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n"
        f"  name: {name}-pdb\n  namespace: {shift.ns}\nspec:\n  minAvailable: {want - 1}\n"
        f"  selector:\n    matchLabels:\n      app: {name}\n"
    )
    await shift.apply(
        pdb,
        "(plan step 3) so that voluntary disruptions keep a quorum",
        f"PodDisruptionBudget {name}-pdb absent -> minAvailable {want - 1}",
    )
    await verify(shift, name)
    pods = describe_pods(
        await shift.k(
            f"describe pods -n {shift.ns} -l app={name}",
            "(plan step 4) so that the spread over nodes was verified",
        )
    )
    spread_on = sorted({p.node for p in pods if p.node})
    shift.log(
        f"The plan was executed; the {name} pods were found on the nodes {', '.join(spread_on) or '?'}."
    )


async def runbook_steps(shift: Shift) -> None:
    from .operator_heldout25_runbook import follow

    doc = load_yaml(
        await shift.k(
            f"get configmaps -n {shift.ns} -o yaml", "so that the runbook was found in the cluster"
        )
    )
    wanted = re.search(r"(?:follow|run|use) the ([a-z0-9-]+) runbook", shift.low)
    books = []
    for item in (doc or {}).get("items") or []:
        meta = item.get("metadata") or {}
        text = json.dumps(meta)
        if "runbook" in text and (not wanted or wanted.group(1) in text):
            books.append(item)
    if not books:
        shift.log("No runbook matching the request was found in the namespace.")
        shift.hand("The runbook should be located (wiki or repository) and shared.")
        return
    steps = str((books[0].get("data") or {}).get("steps", ""))
    await follow(shift, [s.strip() for s in steps.splitlines() if s.strip()])


def minutes(age: str) -> float:
    return age_minutes(age) or 1e9
