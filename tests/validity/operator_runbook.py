"""Runbooks, high availability and rollouts under changed conditions for the competent validity
agent (issue 13, item 7): each step read from the environment, executed in order, verified."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from . import operator_read as rd
from .competent import Session, mentioned
from .operator_plans import verify


async def follow(s: Session, ctx: dict[str, Any]) -> None:
    f, ns = s.f, s.f.namespace
    books = rd.items(
        await s.kubectl(
            f"get configmaps -n {ns} -o yaml",
            f"read the configmaps in {ns}",
            "to find the runbook the operator named",
        )
    )
    words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", s.task.prompt.lower()))
    book = next(
        (
            b
            for b in books
            if words
            & {
                b["metadata"]["name"],
                *[str(v) for v in (b["metadata"].get("annotations") or {}).values()],
            }
            or any(
                w in b["metadata"]["name"]
                for w in words
                if "runbook" not in w and "-" in w and w in b["metadata"]["name"]
            )
        ),
        None,
    )
    steps = [
        re.sub(r"^\d+[.)]\s*", "", ln).strip()
        for ln in str((book or {}).get("data", {}).get("steps", "")).splitlines()
        if ln.strip()
    ]
    if not steps:
        f.uncertain.append("I could not find the runbook's steps; not improvising a procedure")
        f.escalation = "the runbook owner"
        return
    f.plan = [f"runbook {book['metadata']['name']} step {i}: {st}" for i, st in enumerate(steps, 1)]
    deps = mentioned(s.task.prompt, [r["name"] for r in ctx["deployments"]])
    dep = deps[0] if deps else ctx["deployments"][0]["name"]
    recent: dict[str, str] = {}
    for i, step in enumerate(steps, 1):
        s.trigger = f"runbook step {i}"
        low = step.lower()
        if "log" in low:
            text = await s.read(
                "logs_query",
                f"read the logs of {dep}",
                f"to check error logs for a pattern (runbook step {i})",
                namespace=ns,
                deployment=dep,
                tail=200,
            )
            pats = rd.signal_patterns(rd.log_lines(text))
            f.observations.append(
                f"step {i}: "
                + (
                    "; ".join(f'"{m}" ({n}x)' for _, m, n in pats[:3])
                    if pats
                    else "no error pattern in the logs"
                )
            )
        elif re.search(r"roll ?back", low):
            if not recent:
                f.observations.append(
                    f"step {i}: skipped, there was no recent deployment to roll back"
                )
                continue
            ok, _ = await s.write(
                f"rollout undo deployment/{dep} -n {ns}",
                f"rolled back deployment {dep} from {recent['new']} to {recent['old']}",
                f"because it was deployed {recent['age']} ago, within the runbook's "
                "window, and the errors began with it",
                before=f"image {recent['new']}",
                after=f"image {recent['old']}",
            )
            if ok:
                await verify(s, dep)
        elif re.search(r"deploy(ment)? occurred|recent deploy|last \d+ minutes", low):
            recent = await _recent(s, dep, i)
        elif re.search(r"verify|error rate|baseline", low):
            got = rd.prom_series(
                await s.read(
                    "metrics_query",
                    f"queried the error rate of {dep}",
                    f"to verify it returns to baseline (runbook step {i})",
                    action="query",
                    query=f'error_rate{{service="{dep}"}}',
                )
            )
            base = rd.prom_series(
                await s.read(
                    "metrics_query",
                    f"queried the baseline error rate of {dep}",
                    "to compare against normal",
                    action="query",
                    query=f'normal_error_rate{{service="{dep}"}}',
                )
            )
            now = got[0][1][-1] if got and got[0][1] else None
            ref = base[0][1][-1] if base and base[0][1] else None
            f.verification.append(
                f"step {i}: error rate of {dep} is {now:.1%}"
                if now is not None
                else f"step {i}: no error-rate sample yet"
            )
            if now is not None and ref is not None:
                f.verification[-1] += f" (baseline {ref:.1%}); " + (
                    "back to baseline"
                    if now <= ref * 1.5
                    else "still elevated right after the rollback; the metric lags the change, keep watching for the runbook's 5 minutes"
                )
    s.trigger = "operator request"
    f.outcome = "runbook followed step by step" + (
        f"; {dep} rolled back to {recent['old']}" if recent else ""
    )


async def _recent(s: Session, dep: str, i: int) -> dict[str, str]:
    f, ns = s.f, s.f.namespace
    await s.kubectl(
        f"rollout history deployment/{dep} -n {ns}",
        f"read the rollout history of {dep}",
        f"to check for a deployment in the last 30 minutes (runbook step {i})",
    )
    rs = [
        r
        for r in rd.table(
            await s.kubectl(
                f"get replicasets -n {ns} -o wide",
                f"listed the replicasets in {ns}",
                "to date each revision and its image",
            )
        )
        if r["name"].startswith(dep + "-")
    ]
    rs.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    if len(rs) >= 2 and (rd.age_minutes(rs[0].get("age", "")) or 1e9) <= 30:
        out = {"new": rs[0]["images"], "old": rs[1]["images"], "age": rs[0]["age"]}
        f.observations.append(
            f"step {i}: {dep} was deployed {out['age']} ago ({out['old']} -> "
            f"{out['new']}), inside the 30-minute window"
        )
        f.cause = (
            f"the deployment of {out['new']} {out['age']} ago; the errors come from the new version"
        )
        return out
    f.observations.append(f"step {i}: no deployment of {dep} in the last 30 minutes")
    return {}


async def high_availability(s: Session, ctx: dict[str, Any]) -> None:
    f, ns = s.f, s.f.namespace
    deps = mentioned(s.task.prompt, [r["name"] for r in ctx["deployments"]])
    if not deps:
        return
    dep = deps[0]
    nodes = rd.table(
        await s.kubectl("get nodes", "listed the nodes", "to know how many failure domains exist")
    )
    ready = [n["name"] for n in nodes if n.get("status") == "Ready"]
    obj = (
        rd.items(
            await s.kubectl(
                f"get deployment {dep} -n {ns} -o yaml",
                f"read deployment {dep}",
                "to read its replicas, labels and affinity",
            )
        )
        or [{}]
    )[0]
    labels = obj.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": dep}
    current = obj.get("spec", {}).get("replicas", 1)
    await s.kubectl(
        f"get pdb,hpa -n {ns}",
        f"listed the PDBs and HPAs in {ns}",
        "to see which protections already exist",
    )
    want = max(3, min(len(ready), 5))
    f.plan = [
        f"scale {dep} from {current} to {want} replicas so losing one node leaves {want - 1} serving",
        "spread the replicas across nodes with pod anti-affinity on kubernetes.io/hostname",
        f"add a PodDisruptionBudget (minAvailable {want - 1}) so drains never take more than one down",
        "verify the rollout and that the pods landed on different nodes",
    ]
    s.trigger = "operator request (plan step 1)"
    await s.write(
        f"scale deployment/{dep} -n {ns} --replicas={want}",
        f"scaled deployment {dep} from {current} to {want} replicas",
        "so that a node failure leaves serving replicas (plan step 1)",
        before=f"replicas {current}",
        after=f"replicas {want}",
    )
    s.trigger = "operator request (plan step 2)"
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
                                        "labelSelector": {"matchLabels": labels},
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
    await s.write(
        f"patch deployment {dep} -n {ns} --type=merge -p '{json.dumps(aff, separators=(',', ':'))}'",
        f"patched deployment {dep} with pod anti-affinity across nodes",
        "to spread replicas over different nodes (plan step 2)",
        before="affinity none",
        after="podAntiAffinity on kubernetes.io/hostname",
    )
    s.trigger = "operator request (plan step 3)"
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": dep, "namespace": ns},
        "spec": {"minAvailable": want - 1, "selector": {"matchLabels": labels}},
    }
    await s.write(
        f"apply -f - -n {ns}",
        f"created poddisruptionbudget {dep} (minAvailable {want - 1})",
        "to stop voluntary disruptions taking more than one replica down (plan step 3)",
        stdin=json.dumps(pdb),
    )
    s.trigger = "operator request (plan step 4)"
    await verify(s, dep)
    spread = rd.table(
        await s.kubectl(
            f"get pods -n {ns} -o wide -l app={dep}",
            f"listed the pods of {dep} with nodes",
            "to verify they run on different nodes (plan step 4)",
        )
    )
    f.verification.append(
        f"{dep} pods on nodes: {', '.join(sorted({p.get('node', '?') for p in spread}))}"
    )
    s.trigger = "operator request"
    f.outcome = f"{dep} is now highly available: {want} replicas spread across nodes with a PDB"


async def rollout_under_pressure(s: Session, ctx: dict[str, Any]) -> None:
    f, ns = s.f, s.f.namespace
    deps = mentioned(s.task.prompt, [r["name"] for r in ctx["deployments"]])
    dep = deps[0] if deps else ctx["deployments"][0]["name"]
    status = await s.kubectl(
        f"rollout status deployment/{dep} -n {ns} --timeout=60s",
        f"checked the rollout status of {dep}",
        "to see where the rolling update stands",
    )
    events = rd.table(
        await s.kubectl(
            f"get events -n {ns}",
            f"read the events in {ns}",
            "to catch anything that changed since the rollout started",
        )
    )
    nodes_text = await s.kubectl(
        "describe nodes",
        "described the nodes",
        "to check node conditions before placing more new pods",
    )
    pressured = sorted(
        set(re.findall(r"Name:\s+(\S+)(?:(?!\nName:).)*?DiskPressure\s+True", nodes_text, re.S))
        | {e["object"].split("/")[-1] for e in events if "Pressure" in e.get("reason", "")}
    )
    evicted = [e["object"] for e in events if e.get("reason") == "Evicted"]
    if not pressured:
        f.observations.append(f"rollout of {dep}: {status.strip()[:120]}; all nodes healthy")
        ok, _ = await s.write(
            f"rollout resume deployment/{dep} -n {ns}",
            f"resumed the rollout of deployment {dep}",
            "because the operator asked to continue it and the nodes are healthy",
        )
        if ok:
            await verify(s, dep)
        return
    s.trigger = f"finding: DiskPressure on {', '.join(pressured)}"
    f.observations.append(
        f"while the rollout was running, {', '.join(pressured)} reported DiskPressure"
        + (f"; {', '.join(evicted)} was evicted" if evicted else "")
    )
    f.cause = f"node {', '.join(pressured)} has DiskPressure, so new pods scheduled there fail or get evicted"
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
                                                "values": pressured,
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
    await s.write(
        f"patch deployment {dep} -n {ns} --type=merge -p '{json.dumps(aff, separators=(',', ':'))}'",
        f"patched deployment {dep} with node affinity excluding {', '.join(pressured)}",
        f"because {', '.join(pressured)} has DiskPressure: the remaining new pods go to healthy nodes",
        before="no node affinity",
        after=f"hostname NotIn {', '.join(pressured)}",
    )
    await verify(s, dep)
    s.trigger = "operator request"
    f.plan.append(
        "adapted the plan: the rollout continues on healthy nodes only; "
        f"{', '.join(pressured)} needs its disk cleaned by the node owners before it takes pods again"
    )
    f.escalation = f"the cluster/node owners, to free disk on {', '.join(pressured)}"
    f.outcome = f"rollout of {dep} continued away from the pressured node"


def ceil_div(a: float, b: float) -> int:
    return math.ceil(a / b) if b else 0
