"""``heldout21``'s other plays (issue 27): a rolling update that meets a node problem, high
availability, a runbook, a migration gone wrong, a network path, ownership. Each reads first,
acts only where the task and the authority allow, and says why."""

from __future__ import annotations

import json
import re

from .operator_heldout21 import Desk
from .operator_heldout21_diag import gather
from .operator_heldout21_fix import replicas_line, verify
from .operator_heldout21_look import Scene, all_of, subject, yaml_of
from .operator_read import age_minutes, prom_series, table


def _pressure(nodes: list[dict]) -> list[tuple[str, str]]:
    out = []
    for n in nodes:
        for c in n.get("status", {}).get("conditions", []) or []:
            if (
                c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
                and c.get("status") == "True"
            ):
                out.append((n.get("metadata", {}).get("name", "?"), c.get("type", "")))
            if c.get("type") == "Ready" and c.get("status") != "True":
                out.append((n.get("metadata", {}).get("name", "?"), "NotReady"))
    return out


async def rolling_update(desk: Desk, scene: Scene) -> None:
    """Resume a paused rollout, then re-check the nodes and pause again if one turns bad."""
    r = desk.report
    name = subject(desk, scene)
    dep = await yaml_of(desk, "deployment", name, f"to see where {name}'s rollout stands")
    spec = dep.get("spec", {})
    rs = table(
        await desk.kubectl(
            f"get replicasets -n {desk.ns} -l app={name} -o wide",
            f"to see {name}'s old and new ReplicaSets and images",
        )
    )
    before = f"paused={bool(spec.get('paused'))}, updated {dep.get('status', {}).get('updatedReplicas', 0)}/{spec.get('replicas', '?')}"
    if spec.get("paused"):
        await desk.kubectl(
            f"rollout resume deployment/{name} -n {desk.ns}",
            f"to continue {name}'s rollout where it was paused",
            before=before,
            change=True,
        )
    images = sorted({row.get("images", "") for row in rs if row.get("images")})
    r.extra["rollout"] = {"deployment": name, "before": before, "images_seen": images}
    desk.trigger = "conditions re-checked after starting the rollout"
    nodes = await all_of(desk, "nodes", "to re-check node health now the rollout is moving")
    alerts = await desk.use(
        "metrics_query",
        "to see whether anything started alerting during the rollout",
        "metrics_query alerts",
        action="alerts",
    )
    bad = _pressure(nodes)
    pods = table(
        await desk.kubectl(
            f"get pods -n {desk.ns} -l app={name} -o wide",
            f"to see where {name}'s new pods land and whether they start",
        )
    )
    if not bad:
        seen = await verify(desk, name)
        r.summary = f"Resumed {name}'s rolling update; nodes healthy; {seen}."
        return
    await _node_went_bad(desk, name, bad[0], pods, alerts)


async def _node_went_bad(
    desk: Desk, name: str, bad: tuple[str, str], pods: list[dict[str, str]], alerts: str
) -> None:
    """A node turned bad mid-rollout: pause, read it, hand it over, adapt the plan."""
    r = desk.report
    node, cond = bad
    desk.trigger = f"{node} reported {cond} during the rollout"
    stuck = [
        p.get("name", "")
        for p in pods
        if p.get("node") == node and p.get("status") not in ("Running",)
    ]
    await desk.kubectl(
        f"rollout pause deployment/{name} -n {desk.ns}",
        f"{node} now has {cond}: new pods scheduled there fail, so I pause rather than push more pods onto it",
        before="rollout progressing",
        change=True,
    )
    desk.acts[-1].after = "rollout paused"
    await _steer_clear(desk, name, node, cond)
    await desk.kubectl(
        f"describe node {node}", f"to read {node}'s conditions and what is filling it"
    )
    r.statement = f"{node} reports {cond} mid-rollout; pods placed on it cannot start"
    r.confidence = 0.9
    r.cite(f"node {node}: condition {cond}=True")
    if "firing" in alerts:
        r.cite("an alert is firing about the node")
    for p in stuck:
        r.cite(f"pod {p} on {node} is not Running")
    r.extra["plan_change"] = {
        "original_plan": f"resume {name}'s rollout to completion",
        "new_condition": f"{node} {cond}",
        "adapted_plan": [
            "pause the rollout (done)",
            f"keep new pods off {node} with a node affinity on {name}'s pod template (done)",
            "resume the rollout on the healthy nodes (done)",
            "verify every pod Running and ready (done)",
            f"platform team: cordon {node} and free its disk",
        ],
    }
    r.summary = (
        f"I resumed {name}'s rollout, then {node} went into {cond}. I paused, added a node affinity so "
        f"the new pods avoid {node}, resumed and verified; {node} itself goes to the platform team."
    )
    r.escalate_to = "the platform / cluster team"
    r.escalate_why = f"{node} is a cluster-level problem outside my namespace; it needs cordoning and disk cleanup"
    r.next_steps += [
        f"platform team: kubectl cordon {node}",
        f"drop the node affinity from {name} once {node} is healthy again",
    ]


async def _steer_clear(desk: Desk, name: str, node: str, cond: str) -> None:
    """Adapt the plan: keep the new pods off the bad node (a node affinity on the pod
    template, inside my namespace), then resume and verify."""
    rule = {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": [node]}
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "nodeAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": {
                                "nodeSelectorTerms": [{"matchExpressions": [rule]}]
                            }
                        }
                    }
                }
            }
        }
    }
    await desk.kubectl(
        f"patch deployment {name} -n {desk.ns} --type merge -p '{json.dumps(patch, separators=(',', ':'))}'",
        f"adapted plan: {node} has {cond}, so the new pods must avoid it; the other nodes are healthy",
        before="no node affinity",
        change=True,
    )
    desk.acts[-1].after = f"pods may not schedule on {node}"
    await desk.kubectl(
        f"rollout resume deployment/{name} -n {desk.ns}",
        f"continue the update now that new pods avoid {node}",
        before="rollout paused",
        change=True,
    )
    desk.acts[-1].after = "rollout resumed"
    seen = await verify(desk, name)
    desk.report.extra["rollout_after_adapting"] = seen


async def high_availability(desk: Desk, scene: Scene) -> None:
    """Replicas >= 3 spread across nodes, a PodDisruptionBudget, an autoscaler."""
    r = desk.report
    name = subject(desk, scene)
    dep = await yaml_of(desk, "deployment", name, f"to read {name}'s replicas, affinity and labels")
    await desk.kubectl("get nodes", "to count the nodes replicas can spread over")
    await desk.kubectl(
        f"get pdb,hpa -n {desk.ns}",
        f"to see whether {name} already has a disruption budget or autoscaler",
    )
    replicas = int(dep.get("spec", {}).get("replicas") or 1)
    labels = dep.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    key, value = sorted(labels.items())[0]
    plan = [
        f"1. scale {name} from {replicas} to 3 replicas so losing one node leaves two serving",
        "2. add pod anti-affinity on kubernetes.io/hostname so the replicas land on different nodes",
        "3. add a PodDisruptionBudget (minAvailable 2) so drains never take more than one down",
        "4. add a HorizontalPodAutoscaler (min 3, max 6, 70% CPU) so load spikes add replicas",
        "5. verify the pods are Running on distinct nodes",
    ]
    r.extra["plan"] = plan
    before = f"replicas {replicas}, no anti-affinity"
    affinity = {
        "spec": {
            "replicas": 3,
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "labelSelector": {"matchLabels": {key: value}},
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
        f"patch deployment {name} -n {desk.ns} --type merge -p '{json.dumps(affinity, separators=(',', ':'))}'",
        "plan steps 1-2: three replicas spread across nodes survive a node failure",
        before=before,
        change=True,
    )
    desk.acts[-1].after = "replicas 3, anti-affinity on hostname"
    await desk.kubectl(
        f"create poddisruptionbudget {name}-pdb -n {desk.ns} --selector={key}={value} --min-available=2",
        "plan step 3: keep at least two replicas through voluntary disruptions",
        before="no PDB",
        change=True,
    )
    desk.acts[-1].after = f"PDB {name}-pdb minAvailable 2"
    await desk.kubectl(
        f"autoscale deployment {name} -n {desk.ns} --min=3 --max=6 --cpu-percent=70",
        "plan step 4: scale out under load, never below three",
        before="no HPA",
        change=True,
    )
    desk.acts[-1].after = f"HPA {name} min 3 max 6"
    seen = await verify(desk, name)
    await desk.kubectl(
        f"get pods -n {desk.ns} -l {key}={value} -o wide",
        "plan step 5: check the replicas sit on different nodes",
    )
    r.summary = f"Made {name} highly available with a 5-step plan, all executed: 3 replicas with anti-affinity, a PDB and an HPA; {seen}."


async def runbook(desk: Desk, scene: Scene) -> None:
    """Find the runbook the prompt names, run its steps in order against the real state."""
    r = desk.report
    cms = await all_of(desk, "configmaps", "to find the runbook you named")
    words = [w for w in re.findall(r"[\w-]+", desk.prompt.lower()) if len(w) > 4]
    book = next(
        (
            c
            for c in cms
            if "runbook" in c.get("metadata", {}).get("name", "")
            and any(w in c["metadata"]["name"] for w in words)
        ),
        {},
    )
    steps_text = "\n".join(str(v) for v in (book.get("data") or {}).values())
    steps = [s.strip() for s in re.findall(r"^\s*\d+\.\s*(.+)$", steps_text, re.M)]
    name = subject(desk, scene)
    done: list[dict[str, str]] = []
    r.extra["runbook"] = {"name": book.get("metadata", {}).get("name", "not found"), "steps": done}
    s = None
    recent = None
    for step in steps:
        low = step.lower()
        desk.trigger = f"runbook step: {step}"
        if "log" in low:
            s = await gather(desk, scene, name)
            pats = [f"{lvl}: {m} (x{n})" for lvl, m, n in s.log_patterns[:3]]
            done.append(
                {"step": step, "outcome": "; ".join(pats) or "no error pattern in the logs"}
            )
            for p in pats[:2]:
                r.cite(f"log: {p}")
        elif "rollback" in low or "roll back" in low:
            done.append({"step": step, "outcome": await _rollback_step(desk, name, recent)})
        elif "deploy" in low and ("last" in low or "recent" in low or "occurred" in low):
            recent = await _recent_rollout(desk, name, low)
            done.append({"step": step, "outcome": recent or "no deployment in that window"})
        elif "verify" in low or "baseline" in low:
            done.append({"step": step, "outcome": await _verify_step(desk, name)})
        else:
            done.append({"step": step, "outcome": "noted"})
    r.statement = (
        f"{name}'s errors started with the deploy {recent}"
        if recent
        else f"{name}'s error rate has no recent deploy behind it"
    )
    r.confidence = 0.85 if recent else 0.5
    r.summary = f"Followed runbook {r.extra['runbook']['name']} step by step on {name}" + (
        f": the deploy {recent} lined up with the errors, so I rolled back and verified."
        if recent
        else "."
    )


async def _rollback_step(desk: Desk, name: str, recent: str | None) -> str:
    if not recent:
        return "skipped: no recent deploy, so a rollback would not help"
    before = await replicas_line(desk, name, f"to record {name} before the rollback")
    await desk.kubectl(
        f"rollout undo deployment/{name} -n {desk.ns}",
        f"runbook: the deploy {recent} matches the error onset, so roll back to the previous revision",
        before=before,
        change=True,
    )
    idx = len(desk.acts) - 1
    desk.acts[idx].after = await verify(desk, name)
    return f"rolled back to the previous revision; {desk.acts[idx].after}"


async def _verify_step(desk: Desk, name: str) -> str:
    text = await desk.use(
        "metrics_query",
        "runbook: check the error rate after the rollback",
        f"metrics_query error rate {name}",
        action="query_range",
        query=f'{{namespace="{desk.ns}", service="{name}"}}',
        start="-30m",
    )
    rates = [v for labels, v in prom_series(text) if "error" in labels.get("__name__", "") and v]
    if not rates:
        return "error rate not available from metrics"
    values = rates[0]
    desk.report.cite(f"error_rate over the last 30m: {values[0]:g} -> {values[-1]:g}")
    return f"error rate now {values[-1]:g} (30m ago {values[0]:g}); keep watching it return to baseline"


async def _recent_rollout(desk: Desk, name: str, step: str) -> str:
    window = float((re.search(r"(\d+)\s*min", step) or [None, "30"])[1])
    await desk.kubectl(
        f"rollout history deployment/{name} -n {desk.ns}", f"to see {name}'s recent revisions"
    )
    rs = table(
        await desk.kubectl(
            f"get replicasets -n {desk.ns} -l app={name} -o wide",
            f"to see when {name}'s current ReplicaSet was created",
        )
    )
    live = [row for row in rs if row.get("desired", "0") != "0"]
    for row in live:
        age = age_minutes(row.get("age", ""))
        if age is not None and age <= window:
            desk.report.cite(
                f"ReplicaSet {row.get('name')} ({row.get('images', '')}) created {row.get('age')} ago"
            )
            return f"{row.get('age')} ago ({row.get('name')}, image {row.get('images', '?')})"
    return ""
