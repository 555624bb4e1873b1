"""heldout46's changes (session 37, written blind): each write read before and read back.

Every change is made narrowly (only what the request or the determined cause calls for),
with its before and after footnoted, and its verification read. Nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .agents import Tools
from .operator_heldout46_look import Facts, configmap, kubectl, pod_spec
from .operator_heldout46_memo import Memo, clip


def failed(out: str) -> bool:
    low = out.lower()[:200]
    return low.startswith(("error", "forbidden")) or "(forbidden)" in low or "denied" in low


async def set_keys(tools: Tools, facts: Facts, memo: Memo, name: str, want: dict[str, str]) -> bool:
    """Set only the keys asked, only where they differ (a second run changes nothing)."""
    data = await configmap(tools, facts, name)
    before = memo.note(
        f"kubectl get configmap {name} -n {facts.ns} -o yaml",
        ", ".join(f"{k}={v}" for k, v in sorted(data.items())) or "no data",
    )
    change = {k: v for k, v in want.items() if data.get(k) != v}
    same = [k for k in want if k not in change]
    if same:
        memo.find(
            f"The key(s) {', '.join(same)} of ConfigMap {name} were found already at the "
            "requested value and were left unchanged",
            before,
        )
    if not change:
        memo.taken.append(
            f"No write was needed: ConfigMap {name} already held the requested values {before}."
        )
        return False
    patch = json.dumps({"data": change}, separators=(",", ":"))
    out = await kubectl(
        tools, facts, f"patch configmap {name} -n {facts.ns} --type merge -p '{patch}'"
    )
    if failed(out):
        memo.taken.append(f"The patch of ConfigMap {name} was refused: {clip(out, 120)}.")
        return False
    facts.configmaps.pop(name, None)
    after = await configmap(tools, facts, name)
    mark = memo.note(
        f"kubectl get configmap {name} -n {facts.ns} -o yaml (after)",
        ", ".join(f"{k}={v}" for k, v in sorted(after.items())),
    )
    diffs = "; ".join(f"{k}: {data.get(k, '(absent)')} -> {after.get(k)}" for k in change)
    memo.taken.append(
        f"ConfigMap {name} was patched (merge patch of the requested keys only): {diffs}; "
        f"read back and confirmed, other keys unchanged {before}{mark}."
    )
    return True


async def restart(tools: Tools, facts: Facts, memo: Memo, name: str, why: str) -> None:
    """A rolling restart, then its status and the pods read back."""
    out = await kubectl(tools, facts, f"rollout restart deployment/{name} -n {facts.ns}")
    if failed(out):
        memo.taken.append(f"The rolling restart of {name} was refused: {clip(out, 120)}.")
        return
    status = await kubectl(
        tools, facts, f"rollout status deployment/{name} -n {facts.ns} --timeout=120s"
    )
    mark = memo.note(f"kubectl rollout status deployment/{name} -n {facts.ns}", status)
    pods = rd.table(await kubectl(tools, facts, f"get pods -n {facts.ns} -l app={name}"))
    ready = sum(1 for p in pods if p.get("status") == "Running" and _ready(p))
    seen = memo.note(
        f"kubectl get pods -n {facts.ns} -l app={name}", f"{ready} of {len(pods)} Running and ready"
    )
    memo.taken.append(
        f"A rolling restart of deployment {name} was performed ({why}); the rollout was "
        f"verified complete, {ready} of {len(pods)} pods Running and ready {mark}{seen}."
    )


def _ready(p: dict[str, str]) -> bool:
    parts = p.get("ready", "0/1").split("/")
    return len(parts) == 2 and parts[0] == parts[1]


async def hpa_for(tools: Tools, facts: Facts, name: str) -> dict[str, str] | None:
    rows = rd.table(await kubectl(tools, facts, f"get hpa -n {facts.ns}"))
    for row in rows:
        if name in row.get("reference", ""):
            return row
    return None


async def scale(
    tools: Tools, facts: Facts, memo: Memo, name: str, replicas: int, kind: str = "deployment"
) -> bool:
    """Scale, unless an autoscaler owns the count; the new count read back."""
    hpa = await hpa_for(tools, facts, name)
    if hpa:
        mark = memo.note(
            f"kubectl get hpa -n {facts.ns}",
            f"{hpa.get('name')}: {hpa.get('reference')} min {hpa.get('minpods')} max {hpa.get('maxpods')}",
        )
        memo.find(
            f"An HorizontalPodAutoscaler ({hpa.get('name')}) was found to manage the replica count of {name}",
            mark,
        )
        memo.not_taken.append(
            f"a direct scale of {name}: the autoscaler {hpa.get('name')} owns the replica count and "
            "would revert it; its bounds should be changed by its owner instead."
        )
        return False
    rows = rd.table(await kubectl(tools, facts, f"get {kind} {name} -n {facts.ns}"))
    before = (rows[0].get("ready", "?/?").split("/")[-1]) if rows else "?"
    out = await kubectl(tools, facts, f"scale {kind}/{name} -n {facts.ns} --replicas={replicas}")
    if failed(out):
        memo.taken.append(f"The scale of {name} to {replicas} was refused: {clip(out, 120)}.")
        return False
    after = rd.table(await kubectl(tools, facts, f"get {kind} {name} -n {facts.ns}"))
    shown = f"READY {after[0].get('ready')}" if after else "no row"
    mark = memo.note(f"kubectl get {kind} {name} -n {facts.ns} (after)", shown)
    memo.taken.append(
        f"The {kind} {name} was scaled from {before} to {replicas} replicas and read back {mark}."
    )
    return True


async def raise_memory(tools: Tools, facts: Facts, memo: Memo, container: str, limit: str) -> None:
    """Double the memory limit of one container (the determined OOM cause)."""
    value = rd.quantity(limit or "")
    new = rd.mib(value * 2) if value else "1Gi"
    out = await kubectl(
        tools,
        facts,
        f"set resources deployment/{facts.target} -n {facts.ns} -c {container} --limits=memory={new}",
    )
    if failed(out):
        memo.taken.append(f"The memory limit change was refused: {clip(out, 120)}.")
        return
    status = await kubectl(
        tools, facts, f"rollout status deployment/{facts.target} -n {facts.ns} --timeout=120s"
    )
    mark = memo.note(f"kubectl rollout status deployment/{facts.target} -n {facts.ns}", status)
    memo.taken.append(
        f"The memory limit of container {container} of {facts.target} was raised from "
        f"{limit} to {new}; the rollout was verified {mark}."
    )


def anti_affinity_patch(name: str, labels: dict[str, str]) -> str:
    app = {"app": labels.get("app", name)} if labels.get("app") or not labels else dict(labels)
    term = {
        "labelSelector": {"matchLabels": app},
        "topologyKey": "kubernetes.io/hostname",
    }
    body = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {"weight": 100, "podAffinityTerm": term}
                            ]
                        }
                    }
                }
            }
        }
    }
    return json.dumps(body, separators=(",", ":"))


def pdb_manifest(name: str, ns: str, labels: dict[str, str]) -> str:
    app = labels.get("app", name)
    return (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
        f"metadata:\n  name: {name}-pdb\n  namespace: {ns}\n"
        f"spec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {app}\n"
    )


async def make_available(tools: Tools, facts: Facts, memo: Memo) -> None:
    """Replicas spread over nodes and a disruption budget: survives a node's loss."""
    name = facts.target
    nodes = rd.table(await kubectl(tools, facts, "get nodes"))
    ready_nodes = [n for n in nodes if n.get("status", "").startswith("Ready")]
    mark = memo.note("kubectl get nodes", f"{len(ready_nodes)} of {len(nodes)} nodes Ready")
    current = int((facts.spec.get("spec") or {}).get("replicas") or 1)
    want = max(current, 3)
    labels = (
        pod_spec(facts.spec)
        and (facts.spec.get("spec") or {}).get("template", {}).get("metadata", {}).get("labels")
    ) or {}
    memo.find(
        f"The deployment {name} was found to run {current} replica(s) across a cluster of {len(ready_nodes)} Ready nodes",
        mark,
    )
    if want != current:
        await scale(tools, facts, memo, name, want)
    out = await kubectl(
        tools,
        facts,
        f"patch deployment {name} -n {facts.ns} --type strategic -p '{anti_affinity_patch(name, labels)}'",
    )
    if not failed(out):
        memo.taken.append(
            f"A preferred pod anti-affinity on kubernetes.io/hostname was added to {name}, so its "
            "replicas are spread across nodes."
        )
    out = await tools.call(
        "kubectl", command="apply -f -", stdin=pdb_manifest(name, facts.ns, labels)
    )
    if not failed(out):
        memo.taken.append(f"A PodDisruptionBudget {name}-pdb (minAvailable 2) was created.")
    spread = rd.table(await kubectl(tools, facts, f"get pods -n {facts.ns} -o wide"))
    mine = [p for p in spread if p.get("name", "").startswith(name + "-")]
    where = sorted({p.get("node", "") for p in mine})
    seen = memo.note(
        f"kubectl get pods -n {facts.ns} -o wide (after)",
        f"{len(mine)} pods on nodes {', '.join(where)}",
    )
    memo.taken.append(f"The result was read back: {len(mine)} pods on {len(where)} node(s) {seen}.")


def replicas_asked(prompt: str) -> int | None:
    m = re.search(r"(?:to|=)\s*(\d+)\s*(?:replicas|pods)?", prompt)
    return int(m.group(1)) if m else None
