"""Runbooks, high availability and rollouts under changed conditions for the competent validity
agent (issue 13, item 7): each step read from the environment, executed in order, verified."""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .competent import Session, mentioned
from .operator_plans import verify


def _find_runbook(books: list[dict[str, Any]], prompt: str) -> tuple[str, list[str]]:
    """The runbook the prompt names (a ConfigMap whose name or annotations carry the name) and
    its numbered steps; runbook-labelled ConfigMaps first."""
    words = {w for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", prompt.lower())}
    books = sorted(books, key=lambda b: "runbook" not in json.dumps(b.get("metadata", {})))
    for b in books:
        meta = b.get("metadata", {})
        marks = [meta.get("name", ""), *map(str, (meta.get("annotations") or {}).values())]
        if not any(w in m for w in words for m in marks):
            continue
        for value in (b.get("data") or {}).values():
            steps = [
                re.sub(r"^\s*\d+[.)]\s*", "", ln).strip()
                for ln in str(value).splitlines()
                if re.match(r"^\s*\d+[.)]", ln)
            ]
            if len(steps) >= 2:
                return meta.get("name", ""), steps
    return "", []


async def follow(s: Session, ctx: dict[str, Any]) -> None:
    """Execute the named runbook step by step, adapting each step to what the system shows."""
    f, ns = s.f, s.f.namespace
    books = rd.items(
        await s.kubectl(
            f"get configmaps -n {ns} -o yaml",
            f"read the configmaps in {ns}",
            "to find the runbook the operator named",
        )
    )
    name, steps = _find_runbook(books, s.task.prompt)
    if not steps:
        f.uncertain.append("I could not find the runbook's steps; not improvising a procedure")
        f.escalation = "the runbook owner"
        return
    f.plan = [f"runbook {name} step {i}: {st}" for i, st in enumerate(steps, 1)]
    deps = mentioned(s.task.prompt, [r["name"] for r in ctx["deployments"]])
    dep = deps[0] if deps else ctx["deployments"][0]["name"]
    recent: dict[str, str] = {}
    for i, step in enumerate(steps, 1):
        s.trigger = f"runbook step {i}"
        low = step.lower()
        if "log" in low:
            await _step_logs(s, dep, i)
        elif re.search(r"roll ?back", low):
            await _step_rollback(s, dep, i, recent)
        elif re.search(r"deploy(ment)? occurred|recent deploy|last \d+ minutes", low):
            recent = await _recent(s, dep, i)
        elif re.search(r"verify|error rate|baseline", low):
            await _step_verify(s, dep, i)
    s.trigger = "operator request"
    f.outcome = "runbook followed step by step" + (
        f"; {dep} rolled back to {recent['old']}" if recent else ""
    )


async def _step_logs(s: Session, dep: str, i: int) -> None:
    text = await s.read(
        "logs_query",
        f"read the logs of {dep}",
        f"to check error logs for a pattern (runbook step {i})",
        namespace=s.f.namespace,
        deployment=dep,
        tail=200,
    )
    pats = rd.signal_patterns(rd.log_lines(text))
    found = "; ".join(f'"{m}" ({n}x)' for _, m, n in pats[:3]) or "no error pattern in the logs"
    s.f.observations.append(f"step {i}: {found}")


async def _step_rollback(s: Session, dep: str, i: int, recent: dict[str, str]) -> None:
    if not recent:
        s.f.observations.append(f"step {i}: skipped, there was no recent deployment to roll back")
        return
    ok, _ = await s.write(
        f"rollout undo deployment/{dep} -n {s.f.namespace}",
        f"rolled back deployment {dep} from {recent['new']} to {recent['old']}",
        f"because it was deployed {recent['age']} ago, within the runbook's "
        "window, and the errors began with it",
        before=f"image {recent['new']}",
        after=f"image {recent['old']}",
    )
    if ok:
        await verify(s, dep)


async def _step_verify(s: Session, dep: str, i: int) -> None:
    now = await _latest(
        s, "error_rate", dep, f"to verify it returns to baseline (runbook step {i})"
    )
    ref = await _latest(s, "normal_error_rate", dep, "to compare against normal")
    if now is None:
        s.f.verification.append(f"step {i}: no error-rate sample yet")
        return
    line = f"step {i}: error rate of {dep} is {now:.1%}"
    if ref is not None:
        line += f" (baseline {ref:.1%}); " + (
            "back to baseline"
            if now <= ref * 1.5
            else "still elevated right after the rollback; the metric lags the change, keep "
            "watching for the runbook's 5 minutes"
        )
    s.f.verification.append(line)


async def _latest(s: Session, metric: str, service: str, why: str) -> float | None:
    got = rd.prom_series(
        await s.read(
            "metrics_query",
            f"queried the {metric.replace('_', ' ')} of {service}",
            why,
            action="query",
            query=f'{metric}{{service="{service}"}}',
        )
    )
    return got[0][1][-1] if got and got[0][1] else None


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


def _affinity_patch(affinity: dict[str, Any]) -> str:
    body = {"spec": {"template": {"spec": {"affinity": affinity}}}}
    return json.dumps(body, separators=(",", ":"))


async def high_availability(s: Session, ctx: dict[str, Any]) -> None:
    """Plan, then execute: enough replicas for the nodes, spread across them, a PDB, verified."""
    f, ns = s.f, s.f.namespace
    deps = mentioned(s.task.prompt, [r["name"] for r in ctx["deployments"]])
    if not deps:
        return
    dep = deps[0]
    nodes = rd.table(
        await s.kubectl("get nodes", "listed the nodes", "to know how many failure domains exist")
    )
    ready = [n["name"] for n in nodes if n.get("status") == "Ready"]
    got = rd.items(
        await s.kubectl(
            f"get deployment {dep} -n {ns} -o yaml",
            f"read deployment {dep}",
            "to read its replicas, labels and affinity",
        )
    )
    spec = (got or [{}])[0].get("spec", {})
    labels = spec.get("selector", {}).get("matchLabels") or {"app": dep}
    current = spec.get("replicas", 1)
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
    await _ha_apply(s, dep, labels, current, want)
    f.outcome = f"{dep} is now highly available: {want} replicas spread across nodes with a PDB"


async def _ha_apply(s: Session, dep: str, labels: dict[str, str], current: int, want: int) -> None:
    f, ns = s.f, s.f.namespace
    s.trigger = "operator request (plan step 1)"
    await s.write(
        f"scale deployment/{dep} -n {ns} --replicas={want}",
        f"scaled deployment {dep} from {current} to {want} replicas",
        "so that a node failure leaves serving replicas (plan step 1)",
        before=f"replicas {current}",
        after=f"replicas {want}",
    )
    s.trigger = "operator request (plan step 2)"
    term = {"labelSelector": {"matchLabels": labels}, "topologyKey": "kubernetes.io/hostname"}
    anti = {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    }
    await s.write(
        f"patch deployment {dep} -n {ns} --type=merge -p '{_affinity_patch(anti)}'",
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


async def rollout_under_pressure(s: Session, ctx: dict[str, Any]) -> None:
    """Continue a rollout, but look at events and node conditions first; adapt to any pressure."""
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
        "describe nodes", "described the nodes", "to check node conditions before placing more pods"
    )
    bad = re.findall(r"Name:\s+(\S+)(?:(?!\nName:).)*?(\w+Pressure)\s+True", nodes_text, re.S)
    pressured = sorted(
        {n for n, _ in bad}
        | {e["object"].split("/")[-1] for e in events if "Pressure" in e.get("reason", "")}
    )
    kinds = sorted({k for _, k in bad}) or ["DiskPressure"]
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
    evicted = [e["object"] for e in events if e.get("reason") == "Evicted"]
    await _avoid_nodes(s, dep, pressured, "/".join(kinds), evicted)


async def _avoid_nodes(
    s: Session, dep: str, pressured: list[str], kind: str, evicted: list[str]
) -> None:
    f, ns, where = s.f, s.f.namespace, ", ".join(pressured)
    s.trigger = f"finding: {kind} on {where}"
    f.observations.append(
        f"while the rollout was running, {where} reported {kind}"
        + (f"; {', '.join(evicted)} was evicted" if evicted else "")
    )
    f.cause = f"node {where} has {kind}, so new pods scheduled there fail or get evicted"
    rule = {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": pressured}
    away = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [rule]}]
            }
        }
    }
    await s.write(
        f"patch deployment {dep} -n {ns} --type=merge -p '{_affinity_patch(away)}'",
        f"patched deployment {dep} with node affinity excluding {where}",
        f"because {where} has {kind}: the remaining new pods go to healthy nodes",
        before="no node affinity",
        after=f"hostname NotIn {where}",
    )
    await verify(s, dep)
    s.trigger = "operator request"
    f.plan.append(
        f"adapted the plan: the rollout continues on healthy nodes only; {where} needs its "
        f"{kind} relieved by the node owners before it takes pods again"
    )
    f.escalation = f"the cluster/node owners, to relieve {kind} on {where}"
    f.outcome = f"rollout of {dep} continued away from the pressured node"
