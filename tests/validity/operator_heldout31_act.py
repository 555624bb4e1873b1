"""heldout31's changes: narrow ones, each read before, made once, verified after, and undone
when the verification fails. Every function appends what it did to the record's sections.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .operator_heldout31_look import Look, pods_of
from .operator_heldout31_rec import Decision, Record, num, plural


async def verify(rec: Record, look: Look, name: str, d: Decision, trigger: str = "") -> bool:
    """The rollout of ``name`` is waited on and its pods listed; the result is recorded."""
    ns = look.ns
    why = f"verification that every {name} replica was updated and became available"
    status = await rec.kubectl(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        "verify",
        f"rollout of {name}",
        why,
        trigger,
    )
    why = f"the {name} pods were listed after the change to confirm they are Running and Ready"
    rows = rd.table(
        await rec.kubectl(
            f"get pods -n {ns} -l app={name}", "verify", f"pods of {name}", why, trigger
        )
    )
    ready = [r for r in rows if r.get("status") == "Running" and _ready(r.get("ready", ""))]
    live = [
        r
        for r in rows
        if r.get("status") in ("Running", "Pending", "ContainerCreating")
        or "BackOff" in r.get("status", "")
    ]
    left = [r for r in rows if r not in live]
    ok = "successfully rolled out" in status and len(ready) == len(live) and bool(ready)
    if ok:
        d.consequences.append(
            f"Verification after the change showed the rollout of {name} complete and "
            f"{plural(len(ready), 'pod')} Running and Ready ({', '.join(r.get('name', '') for r in ready)})."
        )
        if left:
            d.consequences.append(
                "Left over from before the change and not serving: "
                + ", ".join(f"{r.get('name')} ({r.get('status')})" for r in left)
                + "."
            )
    else:
        shown = (
            "; ".join(f"{r.get('name')} {r.get('status')} {r.get('ready')}" for r in rows)
            or "no pods"
        )
        d.consequences.append(
            f"Verification of {name} did not confirm recovery: the rollout status read "
            f'"{status.strip().splitlines()[-1] if status.strip() else "nothing"}" and the pods were {shown}.'
        )
    return ok


def _ready(cell: str) -> bool:
    a, _, b = cell.partition("/")
    return bool(b) and a == b


async def rollback(rec: Record, look: Look, name: str, d: Decision, trigger: str) -> None:
    why = f"the change to {name} did not verify, so the previous revision was restored"
    await rec.kubectl(
        f"rollout undo deployment/{name} -n {look.ns}",
        "roll back",
        f"deployment {name}",
        why,
        trigger,
    )
    d.consequences.append(
        f"A rollback of {name} to its previous revision was performed because verification failed."
    )
    await verify(rec, look, name, d, "failed verification of the change")


def wanted_pairs(prompt: str) -> dict[str, str]:
    pairs = {
        k: v
        for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\sto\s)\s*[\"']?([\w.:/-]+)", prompt)
    }
    for k in re.findall(r"\b(?i:enable|turn on)\s+([A-Z][A-Z0-9_]{2,})", prompt):
        pairs.setdefault(k, "true")
    for k in re.findall(r"\b(?i:disable|turn off)\s+([A-Z][A-Z0-9_]{2,})", prompt):
        pairs.setdefault(k, "false")
    return {k: v.rstrip(".,") for k, v in pairs.items()}


def configmap_for(look: Look, keys: list[str]) -> dict[str, Any] | None:
    named = [
        c for c in look.configmaps if str((c.get("metadata") or {}).get("name")) in look.prompt
    ]
    holding = [c for c in look.configmaps if any(k in (c.get("data") or {}) for k in keys)]
    pool = named or holding
    return pool[0] if pool else None


async def set_config(rec: Record, look: Look, d: Decision) -> str:
    """Only the keys asked for that differ are patched (a merge patch leaves the rest)."""
    pairs = wanted_pairs(look.prompt)
    cm = configmap_for(look, list(pairs))
    if not pairs or cm is None:
        return ""
    name = str((cm.get("metadata") or {}).get("name"))
    data = {str(k): str(v) for k, v in (cm.get("data") or {}).items()}
    change = {k: v for k, v in pairs.items() if data.get(k) != v}
    same = [k for k in pairs if k not in change]
    before = ", ".join(f"{k}={data.get(k, '(absent)')}" for k in pairs)
    d.context.append(
        f"ConfigMap {name} was read before any change: {before}; it also holds "
        + (", ".join(f"{k}={v}" for k, v in data.items() if k not in pairs) or "no other key")
        + "."
    )
    if same:
        d.decision.append(f"No write was made for {', '.join(same)}: the value already matched.")
    if not change:
        return name
    patch = json.dumps({"data": change}, separators=(",", ":"))
    why = "only the keys the request names that differ were patched; a merge patch leaves every other key untouched"
    await rec.kubectl(
        f"patch configmap {name} -n {look.ns} --type merge -p '{patch}'",
        "patch",
        f"configmap {name}",
        why,
    )
    why = "the ConfigMap was read back to confirm the new values and the untouched keys"
    after = rd.items(
        await rec.kubectl(
            f"get configmap {name} -n {look.ns} -o yaml", "verify", f"configmap {name}", why
        )
    )
    now = {str(k): str(v) for k, v in ((after[0].get("data") if after else {}) or {}).items()}
    deltas = "; ".join(f"{k}: {data.get(k, '(absent)')} -> {now.get(k)}" for k in change)
    d.decision.append(f"ConfigMap {name} was patched with a merge patch ({deltas}).")
    kept = [k for k in data if k not in change and now.get(k) == data[k]]
    d.consequences.append(
        f"The read-back of {name} showed {', '.join(f'{k}={now.get(k)}' for k in pairs)}"
        + (f"; {', '.join(kept)} kept unchanged" if kept else "")
        + ". A second run would find every value in place and write nothing."
    )
    return name


def replicas(look: Look, name: str) -> int:
    spec = (look.objs.get(name) or {}).get("spec") or {}
    try:
        return int(spec.get("replicas", 1))
    except (TypeError, ValueError):
        return 1


async def scale(rec: Record, look: Look, name: str, to: int, d: Decision, why: str) -> bool:
    was = replicas(look, name)
    if was == to:
        d.decision.append(f"{name} already ran {plural(to, 'replica')}; no scale was needed.")
        return True
    await rec.kubectl(
        f"scale deployment/{name} --replicas={to} -n {look.ns}",
        "scale",
        f"deployment {name} to {num(to)} replicas",
        why,
    )
    d.decision.append(
        f"Deployment {name} was scaled from {plural(was, 'replica')} to {plural(to, 'replica')}."
    )
    return await verify(rec, look, name, d)


async def restart(rec: Record, look: Look, name: str, d: Decision, why: str) -> bool:
    await rec.kubectl(
        f"rollout restart deployment/{name} -n {look.ns}", "restart", f"deployment {name}", why
    )
    d.decision.append(
        f"A rolling restart of deployment {name} was performed (one pod replaced at a time)."
    )
    return await verify(rec, look, name, d)


async def node_capacity(rec: Record, why: str) -> list[tuple[str, float, float]]:
    """(node, allocatable cores, allocatable bytes) per node."""
    nodes = rd.items(await rec.kubectl("get nodes -o yaml", "read", "nodes", why))
    out = []
    for n in nodes:
        alloc = (n.get("status") or {}).get("allocatable") or {}
        cpu = rd.quantity(str(alloc.get("cpu", "0"))) or 0.0
        mem = rd.quantity(str(alloc.get("memory", "0"))) or 0.0
        out.append((str((n.get("metadata") or {}).get("name")), cpu, mem))
    return out


def requests_of(look: Look, name: str) -> dict[str, str]:
    spec = (((look.objs.get(name) or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
    conts = spec.get("containers") or [{}]
    return {
        str(k): str(v) for k, v in ((conts[0].get("resources") or {}).get("requests") or {}).items()
    }


async def fit_cpu_request(rec: Record, look: Look, name: str, d: Decision) -> bool:
    """Pending on Insufficient cpu: the request is lowered to what a node can hold."""
    req = requests_of(look, name)
    cpu = rd.quantity(req.get("cpu", "")) or 0.0
    nodes = await node_capacity(
        rec, "the nodes' allocatable CPU was compared with what the pod requests"
    )
    largest = max((c for _, c, _ in nodes), default=0.0)
    if not cpu or not largest or cpu <= largest:
        return False
    new = max(0.1, round(largest * 0.5, 1))
    d.context.append(
        f"The {name} container requests {req.get('cpu')} CPU, while the largest node offers "
        f"{largest:g} allocatable cores ({num(len(nodes))} nodes read), so no node can ever hold the pod."
    )
    cont = (
        (((look.objs.get(name) or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
    ).get("containers") or [{}]
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": cont[0].get("name", name),
                                "resources": {"requests": {"cpu": f"{int(new * 1000)}m"}},
                            }
                        ]
                    }
                }
            }
        }
    )
    why = (
        f"the CPU request of {req.get('cpu')} exceeds every node's allocatable {largest:g} cores; "
        f"{int(new * 1000)}m fits with room for the node's other pods"
    )
    await rec.kubectl(
        f"patch deployment {name} -n {look.ns} --type strategic -p '{patch}'",
        "patch",
        f"CPU request of {name}",
        why,
    )
    d.decision.append(
        f"The CPU request of {name} was lowered from {req.get('cpu')} to {int(new * 1000)}m so that a node can schedule it."
    )
    ok = await verify(rec, look, name, d)
    if not ok:
        await rollback(rec, look, name, d, "failed verification of the CPU request change")
    return ok


async def raise_memory(
    rec: Record, look: Look, name: str, limit: str, cont: str, d: Decision
) -> bool:
    cur = rd.quantity(limit) or 0.0
    new = f"{int(cur * 2 / 1024**2)}Mi" if cur else "512Mi"
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": cont, "resources": {"limits": {"memory": new}}}]
                    }
                }
            }
        }
    )
    why = f"the container is OOMKilled at its {limit} limit; doubling it to {new} gives headroom"
    await rec.kubectl(
        f"patch deployment {name} -n {look.ns} --type strategic -p '{patch}'",
        "patch",
        f"memory limit of {name}",
        why,
    )
    d.decision.append(f"The memory limit of {name} was raised from {limit} to {new}.")
    ok = await verify(rec, look, name, d)
    if not ok:
        await rollback(rec, look, name, d, "failed verification of the memory limit change")
    return ok


async def delete_pod(rec: Record, look: Look, pod: str, owner: str, d: Decision, why: str) -> None:
    """A crashing pod is replaced: deleted for its controller to recreate, or, when no
    controller owns it, recreated from its own spec so that the workload is not lost."""
    manifest: dict[str, Any] = {}
    if not owner:
        text = await rec.kubectl(
            f"get pod {pod} -n {look.ns} -o yaml",
            "read",
            f"manifest of pod {pod}",
            "no controller owns the pod, so its spec was saved to recreate it after the deletion",
        )
        doc = rd.load_yaml(text) or {}
        meta = doc.get("metadata") or {}
        spec = dict(doc.get("spec") or {})
        spec.pop("nodeName", None)
        manifest = {
            "apiVersion": "v1",
            "kind": "Pod",
            "spec": spec,
            "metadata": {
                k: meta[k] for k in ("name", "namespace", "labels", "annotations") if meta.get(k)
            },
        }
    await rec.kubectl(f"delete pod {pod} -n {look.ns}", "delete", f"pod {pod}", why)
    if manifest:
        await rec.call(
            "kubectl",
            "recreate",
            f"pod {pod}",
            "the pod has no controller; it was recreated from its saved spec",
            command="apply -f -",
            stdin=json.dumps(manifest),
        )
        d.decision.append(
            f"Pod {pod}, which no controller owns, was deleted and recreated from its own spec, so that it starts with a fresh back-off."
        )
    else:
        d.decision.append(
            f"Pod {pod} was deleted so that its controller ({owner}) replaces it with a fresh one."
        )
    why = "the replacement pod was listed to confirm it started"
    stem = re.sub(r"-[a-z0-9]{4,5}$", "", pod)
    rows = rd.table(
        await rec.kubectl(f"get pods -n {look.ns}", "verify", f"replacement of {pod}", why)
    )
    fresh = [
        r for r in rows if r.get("name", "").startswith(stem) and (r.get("name") != pod or manifest)
    ]
    if fresh:
        d.consequences.append(
            "After the replacement, "
            + ", ".join(
                f"pod {r.get('name')} was listed {r.get('status')} with {r.get('ready')} ready and "
                f"{r.get('restarts', '0').split()[0]} restarts"
                for r in fresh
            )
            + "."
        )
    else:
        d.consequences.append(
            f"No replacement for {pod} was listed yet; the pod list should be checked again."
        )


async def fix_policy(rec: Record, look: Look, f: Any, d: Decision) -> bool:
    """A peer for the blocked caller is added to the policy; nothing else of it changes."""
    pol = next(
        p for p in look.policies if (p.get("metadata") or {}).get("name") == f.data["policy"]
    )
    ingress = list((pol.get("spec") or {}).get("ingress") or [])
    ingress.append({"from": [{"podSelector": {"matchLabels": f.data["src_labels"]}}]})
    patch = json.dumps({"spec": {"ingress": ingress}}, separators=(",", ":"))
    why = f"the policy admits only its listed peers; one peer for the {f.data['src']} pods was added, the existing ones kept"
    await rec.kubectl(
        f"patch networkpolicy {f.data['policy']} -n {look.ns} --type merge -p '{patch}'",
        "patch",
        f"networkpolicy {f.data['policy']}",
        why,
    )
    why = "the policy was read back to confirm the added peer and the kept ones"
    after = await rec.kubectl(
        f"get networkpolicy {f.data['policy']} -n {look.ns} -o yaml",
        "verify",
        f"networkpolicy {f.data['policy']}",
        why,
    )
    ok = all(f"{k}: {v}" in after for k, v in f.data["src_labels"].items())
    d.decision.append(
        f"NetworkPolicy {f.data['policy']} was patched to admit ingress from pods labelled "
        + ",".join(f"{k}={v}" for k, v in f.data["src_labels"].items())
        + "; its existing peers were kept, and no other policy was touched."
    )
    d.consequences.append(
        "The read-back of the policy showed the new peer in place."
        if ok
        else "The read-back of the policy did not show the new peer; the change needs a second look."
    )
    return ok


def unhealthy_pods(look: Look, name: str) -> list[str]:
    return [
        p.get("name", "")
        for p in look.pods
        if p.get("name") in pods_of(look, name)
        and (p.get("status") != "Running" or not _ready(p.get("ready", "")))
    ]
