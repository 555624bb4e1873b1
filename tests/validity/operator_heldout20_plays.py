"""``heldout20``'s multi-step plays: a canary decision, a rolling update that meets a sick node,
a runbook followed against the real state, a high-availability plan, and scaling for load."""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout20 import Desk, words
from .operator_heldout20_act import restart, scale, verify
from .operator_read import items, prom_series, quantity, table


def _series(desk: Desk, word: str) -> list[float]:
    for metric, values in sorted((desk.facts.get("series") or {}).items()):
        if word in metric and "normal" not in metric:
            return list(values)
    return []


async def canary(desk: Desk, focus: list[str]) -> None:
    name = next((f for f in focus if f.endswith("-canary")), "")
    m = re.search(r"under (\d+(?:\.\d+)?)\s*%", desk.prompt)
    limit = float(m.group(1)) if m else 2.0
    errors = _series(desk, "error")
    if not name or not errors:
        desk.unsure.append(
            "I could not find the canary's error rate, so I left the rollout as it was"
        )
        return
    now = errors[-1] * (100 if errors[-1] < 1 else 1)
    if now < limit:
        desk.say(f"The canary's error rate was {now:g}%, under the {limit:g}% bar.")
        return
    desk.say(
        f"The canary's error rate was {now:g}%, well over the {limit:g}% bar the request set, so "
        f"the condition for bumping it to half the traffic was not met and I took the roll-back branch."
    )
    await scale(
        desk, name, 0, "to take it out of the traffic, leaving the stable deployment untouched"
    )


async def rolling(desk: Desk, focus: list[str]) -> None:
    if not focus:
        return
    name = focus[0]
    await desk.k(f"rollout resume deployment/{name} -n {desk.ns}")
    await desk.k(f"rollout status deployment/{name} -n {desk.ns} --timeout=30s")
    nodes = await desk.k("describe nodes")
    sick = []
    for block in re.split(r"\n(?=Name:\s)", nodes):
        nm = re.match(r"Name:\s+(\S+)", block.strip())
        if nm and re.search(r"DiskPressure\s+True", block):
            sick.append(nm.group(1))
    pods = table(await desk.k(f"get pods -n {desk.ns} -o wide"))
    if not sick:
        after = await verify(desk, name)
        desk.actions.append(f"I resumed {name}'s rolling update and {after}")
        return
    bad = [p["name"] for p in pods if p.get("node") in sick and p["name"].startswith(name)]
    desk.say(
        f"Right after I resumed {name}'s rolling update, I checked the nodes again and found "
        f"{', '.join(sick)} had turned to DiskPressure, which meant new pods placed there would "
        f"fail ({words(len(bad))} of {name}'s pods sat on it)."
    )
    await desk.k(f"rollout pause deployment/{name} -n {desk.ns}")
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": sick}
                        ]
                    }
                ]
            }
        }
    }
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": affinity}}}})
    await desk.k(f"patch deployment {name} -n {desk.ns} --type strategic -p '{patch}'")
    await desk.k(f"rollout resume deployment/{name} -n {desk.ns}")
    after = await verify(desk, name)
    desk.actions.append(
        f"I paused the rollout, added a node affinity to {name} that keeps its new pods off "
        f"{', '.join(sick)}, and resumed it, so the update carried on on the healthy nodes; {after}"
    )
    desk.handoff.append(
        f"I would like someone from the platform team to look at the disk on {', '.join(sick)} "
        f"before the affinity is removed again"
    )


async def runbook(desk: Desk, focus: list[str]) -> None:
    if not focus:
        return
    name = focus[0]
    history = await desk.k(f"rollout history deployment/{name} -n {desk.ns}")
    events = table(await desk.k(f"get events -n {desk.ns}"))
    rs = table(await desk.k(f"get replicasets -n {desk.ns} -l app={name} -o wide"))
    recent = [
        e
        for e in events
        if name in e.get("object", "") and "Scaled" in e.get("message", "") + e.get("reason", "")
    ]
    desk.say(
        f"Following the runbook, I first read the error logs for a pattern (above), then checked "
        f"whether {name} had been deployed in the last half hour: its rollout history had "
        f"{words(max(len(history.splitlines()) - 2, 0))} revisions and "
        f"{words(len(rs))} ReplicaSets, and the events showed "
        f"{recent[0].get('message', 'a rollout') + ' ' + recent[0].get('last seen', '') + ' ago' if recent else 'no recent rollout'}."
    )
    await desk.k(f"rollout undo deployment/{name} -n {desk.ns}")
    after = await verify(desk, name)
    q = f'error_rate{{namespace="{desk.ns}", service="{name}"}}'
    rate = prom_series(await desk.use("metrics_query", action="query", query=q))
    now = f"{rate[0][1][-1]:.1%}" if rate and rate[0][1] else "not yet reported"
    after += f", and the error rate I queried straight after the roll-back read {now}"
    images = [r.get("images", "") for r in rs]
    desk.actions.append(
        f"Because the deploy was recent and the errors began with it, I rolled {name} back to "
        f"its previous revision ({', '.join(i for i in images if i) or 'the earlier image'}), and {after}"
    )
    desk.unsure.append(
        "The runbook's last step asks for the error rate back at baseline within five minutes; "
        "I could see the pods healthy but the metric needs those minutes to settle, so I would "
        "like the on-call to confirm it"
    )


async def high_availability(desk: Desk, focus: list[str]) -> None:
    if not focus:
        return
    name = focus[0]
    doc = items(await desk.k(f"get deployment {name} -n {desk.ns} -o yaml"))
    await desk.k("get nodes")
    await desk.k(f"get pdb -n {desk.ns}")
    labels = (doc[0].get("spec", {}).get("selector", {}).get("matchLabels") if doc else None) or {
        "app": name
    }
    desk.say(
        f"My plan for {name} had three steps: run more than one replica, spread them across "
        f"nodes, and stop voluntary disruptions taking them all at once."
    )
    await scale(desk, name, 3, "so that losing one node leaves two serving")
    affinity = {
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
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": affinity}}}})
    await desk.k(f"patch deployment {name} -n {desk.ns} --type strategic -p '{patch}'")
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": f"{name}-pdb", "namespace": desk.ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": labels}},
    }
    await desk.tools.call("kubectl", command="apply -f -", stdin=json.dumps(pdb))
    after = await verify(desk, name)
    desk.actions.append(
        f"I added a pod anti-affinity so the replicas prefer separate nodes, and a disruption "
        f"budget keeping at least two available, and {after}"
    )


async def double(desk: Desk, focus: list[str], deps: dict[str, Any]) -> None:
    if not focus:
        return
    name = focus[0]
    doc = items(await desk.k(f"get deployment {name} -n {desk.ns} -o yaml"))
    spec = doc[0].get("spec", {}) if doc else {}
    now = int(spec.get("replicas") or 1)
    containers = spec.get("template", {}).get("spec", {}).get("containers", [])
    cpu = (
        ((containers[0].get("resources") or {}).get("requests") or {}).get("cpu", "")
        if containers
        else ""
    )
    nodes = await desk.k("describe nodes")
    alloc = [quantity(a) or 0 for a in re.findall(r"Allocatable:\s*\n\s+cpu:\s+(\S+)", nodes)]
    target = now * 2
    need = (quantity(cpu) or 0) * now
    desk.say(
        f"Before scaling I read {name}'s spec: {words(now)} replicas, each requesting {cpu or 'no'} "
        f"CPU, and the nodes' allocatable CPU ({', '.join(f'{a:g}' for a in alloc) or 'not shown'} "
        f"cores). Twice the load needs twice the replicas, {words(target)}, which adds "
        f"{need:g} cores of requests, and that fits the cluster's capacity."
    )
    await scale(desk, name, target, "to carry twice the load")


__all__ = ["canary", "double", "high_availability", "restart", "rolling", "runbook"]
