"""``plainspoken``'s changes (issue 27, item 6): the smallest write that does the job, after
checking that nothing else owns the object (an HPA, GitOps, other workloads sharing a
ConfigMap) and that the environment lets it act alone; verified after, rolled back when the
restart it needed fails. Nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re

from .operator_plain import Shift, env_class, table
from .operator_read import describe_pods, quantity


async def guard_workload(shift: Shift, ns: str, name: str) -> str:
    """Why this workload should not be changed by hand right now ('' when it may be)."""
    if not shift.writes_allowed:
        return (
            f"I'm in {shift.task.mode} mode with a read-only zone here, so any write to {name} "
            "needs a human to approve it"
        )
    if env_class(shift, ns) == "production":
        return f"{ns} is labelled env=production"
    hpas = table(await shift.kubectl(f"get hpa -n {ns}", f"to check nothing autoscales {name}"))
    for h in hpas:
        if h.get("reference", "").endswith(f"/{name}"):
            return f"HPA {h.get('name')} manages {name}'s replica count, so a manual scale would be undone"
    desc = await shift.kubectl(
        f"describe deployment {name} -n {ns}", f"to check {name}'s owners and annotations"
    )
    head = desc.split("Selector:", 1)[0].lower()
    if re.search(r"argocd|fluxcd|gitops|managed-by", head):
        return f"{name} is managed by GitOps (its annotations say so), so a hand edit would drift from git"
    return ""


async def shared_configmap(shift: Shift, ns: str, cm: str) -> list[str]:
    text = await shift.kubectl(
        f"describe deployments -n {ns}", f"to see which workloads read ConfigMap {cm}"
    )
    users = []
    for block in re.split(r"\n(?=Name:\s)", text):
        m = re.match(r"\s*Name:\s+(\S+)", block)
        if m and re.search(rf"(?<![\w-]){re.escape(cm)}(?![\w-])", block):
            users.append(m.group(1))
    return users


async def set_keys(shift: Shift, ns: str, cm: str, wanted: dict[str, str]) -> list[str]:
    """Merge-patch only the keys asked for that differ; returns 'KEY a -> b' per change."""
    desc = await shift.kubectl(
        f"describe configmap {cm} -n {ns}", f"to read {cm}'s current values before touching it"
    )
    data = dict(re.findall(r"^([A-Za-z0-9_.-]+):\s*\n-+\n(.*)$", desc, re.M))
    change = {k: v for k, v in wanted.items() if data.get(k) != v}
    if not change:
        return []
    deltas = [f"{k} {data.get(k, '(unset)')} -> {v}" for k, v in change.items()]
    await shift.kubectl(
        f"patch configmap {cm} -n {ns} --type merge -p '{compact({'data': change})}'",
        f"to set {', '.join(change)} as you asked, leaving every other key alone",
        change="; ".join(deltas),
    )
    await shift.kubectl(f"get configmap {cm} -n {ns} -o yaml", f"to check {cm} took it")
    return deltas


async def scale(shift: Shift, ns: str, name: str, before: int, to: int, why: str) -> None:
    await shift.kubectl(
        f"scale deployment/{name} -n {ns} --replicas={to}",
        why,
        change=f"replicas {before} -> {to}",
    )
    await shift.kubectl(f"get deployment {name} -n {ns}", f"to check {name} has {to} replicas")


async def restart(shift: Shift, ns: str, name: str, why: str) -> bool:
    """A rolling restart and its check; True when the new pods come up."""
    await shift.kubectl(
        f"rollout restart deployment/{name} -n {ns}", why, change="pods replaced by a fresh rollout"
    )
    status = await shift.kubectl(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        f"to check the restart of {name} finished",
    )
    pods = await shift.kubectl(
        f"get pods -n {ns} -l app={name}", f"to check {name}'s new pods are running and ready"
    )
    bad = re.search(r"CrashLoop|Error|ImagePull|Pending", pods)
    return "successfully rolled out" in status and not bad


def replicas(row: dict[str, str]) -> int:
    ready = row.get("ready", "0/0")
    return int(ready.split("/")[-1]) if "/" in ready else 0


async def capacity(shift: Shift, ns: str, name: str) -> tuple[float, float]:
    """(CPU one pod requests, CPU the nodes can still give) in cores."""
    pods = describe_pods(
        await shift.kubectl(
            f"describe pods -n {ns} -l app={name}", f"to read what one {name} pod requests"
        )
    )
    req = 0.0
    for p in pods[:1]:
        for c in p.containers:
            req += quantity(c.requests.get("cpu", "0")) or 0.0
    nodes = await shift.kubectl("describe nodes", "to see how much CPU the nodes can still give")
    alloc = sum(quantity(m) or 0.0 for m in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes))
    top = table(await shift.kubectl("top nodes", "to see how busy the nodes are right now"))
    used = sum(quantity(t.get("cpu(cores)", "0")) or 0.0 for t in top)
    return req, max(alloc - used, 0.0)


ANTI_AFFINITY = {
    "spec": {
        "template": {
            "spec": {
                "affinity": {
                    "podAntiAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": [
                            {
                                "labelSelector": {"matchLabels": {"app": "NAME"}},
                                "topologyKey": "kubernetes.io/hostname",
                            }
                        ]
                    }
                }
            }
        }
    }
}


def compact(doc: object) -> str:
    """JSON for a ``-p`` argument (no spaces, so it survives the command line)."""
    return json.dumps(doc, separators=(",", ":"))


def anti_affinity(name: str) -> str:
    return "'" + compact(ANTI_AFFINITY).replace('"NAME"', json.dumps(name)) + "'"


def avoid_nodes(nodes: list[str]) -> str:
    term = {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": nodes}
    spec = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [term]}]
            }
        }
    }
    return "'" + compact({"spec": {"template": {"spec": {"affinity": spec}}}}) + "'"


def pressured(describe_nodes: str) -> list[tuple[str, str]]:
    """(node, condition) for every node whose pressure condition is True."""
    out = []
    for block in re.split(r"\n(?=Name:\s)", describe_nodes):
        m = re.match(r"\s*Name:\s+(\S+)", block)
        if not m:
            continue
        for cond in re.findall(r"^\s+(\w+Pressure)\s+True\b", block, re.M):
            out.append((m.group(1), cond))
    return out
