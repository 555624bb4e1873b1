"""heldout37's changes when asked and allowed: ConfigMap keys, scaling, restarts, an image.
Each reads the current state first, checks who else depends on the object and whether
something else (an HPA, GitOps) owns it, writes only what was asked, reads it back and
verifies; a restart that fails is rolled back.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout37_base import Op
from .operator_heldout37_look import Workload, configmap, load, refresh_pods, sel

_KV = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*\"?([\w.:/-]+)\"?")
_ENABLE = re.compile(r"\b(enable|disable)\s+(?:the\s+)?([A-Z][A-Z0-9_]{2,})\b", re.I)


def wanted_keys(prompt: str) -> dict[str, str]:
    """The keys and values the request asks for (``K=V``, ``K to V``, ``enable K``)."""
    out = {k: v for k, v in _KV.findall(prompt)}
    for verb, key in _ENABLE.findall(prompt):
        if key.isupper():
            out.setdefault(key, "true" if verb.lower() == "enable" else "false")
    return out


def blocked(op: Op) -> str:
    """Why writes are not mine to make here ("" when they are)."""
    if op.mode.lower() in ("supervised", "read_only", "readonly"):
        return f"I'm running in `{op.mode}` mode: changes need a human's approval"
    if any("readonly" in z.replace("-", "").lower() for z in op.zones):
        return f"the zone `{', '.join(op.zones)}` is read-only for me"
    if op.scope.get("approval_required_for"):
        return f"approval is required for: {', '.join(map(str, op.scope['approval_required_for']))}"
    return ""


async def users_of(op: Op, cm: str, ns: str) -> list[str]:
    """Deployments that read the ConfigMap (env, envFrom or a volume)."""
    out = await op.k(f"get deployments -n {ns} -o yaml", f"find every workload that reads `{cm}`")
    users = []
    for d in rd.items(out):
        if cm in _names(d):
            users.append(str((d.get("metadata") or {}).get("name", "")))
    return users


def _names(obj: object) -> list[str]:
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("configMap", "configMapRef", "configMapKeyRef") and isinstance(v, dict):
                found.append(str(v.get("name", "")))
            found += _names(v)
    elif isinstance(obj, list):
        for v in obj:
            found += _names(v)
    return found


async def set_keys(op: Op, cm: str, ns: str, want: dict[str, str]) -> dict[str, str] | None:
    """Merge-patch only the keys that differ; {key: old} of what changed (None: no ConfigMap)."""
    data = await configmap(op, cm, ns, f"read `{cm}` before changing it")
    if data is None:
        return None
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    if not diff:
        return {}
    patch = json.dumps({"data": diff}, sort_keys=True)
    await op.k(
        f"patch configmap {cm} -n {ns} --type merge -p '{patch}'",
        f"set {', '.join(f'`{k}`' for k in diff)} as requested (only those keys)",
        write=True,
    )
    after = await configmap(op, cm, ns, f"read `{cm}` back to confirm the change")
    old = {k: data.get(k, "<unset>") for k in diff}
    for k, v in diff.items():
        ok = after is not None and after.get(k) == v
        op.ans.did.append(
            f"✅ `configmap/{cm}`: `{k}` `{old[k]}` → `{v}`"
            + ("" if ok else " (⚠️ not confirmed on read-back)")
        )
    keep = sorted(set(data) - set(diff))
    if keep:
        op.ans.verify.append(
            f"🔍 Other keys of `{cm}` untouched: " + ", ".join(f"`{k}`={data[k]}" for k in keep)
        )
    return old


async def restart(op: Op, w: Workload, why: str) -> bool:
    """A rolling restart of one deployment, then its rollout and pods checked."""
    await op.k(f"rollout restart deployment/{w.name} -n {w.ns}", why, write=True)
    status = await op.k(
        f"rollout status deployment/{w.name} -n {w.ns} --timeout=120s",
        f"wait for `{w.name}`'s restart to finish",
    )
    await refresh_pods(op, w, f"check `{w.name}`'s new pods")
    bad = w.unhealthy()
    ok = not bad and "successfully rolled out" in status
    op.ans.did.append(f"✅ `kubectl rollout restart deployment/{w.name}`: {why}")
    if ok:
        op.ans.verify.append(
            f"✅ `{w.name}` rolled out: {len(w.pods)}/{len(w.pods)} pods Running and Ready after the restart"
        )
    else:
        names = (
            ", ".join(f"`{p.get('name')}` ({p.get('status')})" for p in bad)
            or "rollout not complete"
        )
        op.ans.verify.append(f"❌ `{w.name}` is not healthy after the restart: {names}")
    return ok


async def scale(op: Op, w: Workload, count: int, why: str) -> None:
    before = w.replicas
    await op.k(f"scale deployment/{w.name} -n {w.ns} --replicas={count}", why, write=True)
    await op.k(
        f"rollout status deployment/{w.name} -n {w.ns} --timeout=120s",
        f"wait for the new replicas of `{w.name}`",
    )
    out = await op.k(f"get deployment {w.name} -n {w.ns}", f"read `{w.name}` back")
    row = (rd.table(out) or [{}])[0]
    op.ans.did.append(f"✅ `deployment/{w.name}` replicas `{before}` → `{count}`")
    op.ans.verify.append(f"🔍 `{w.name}` now shows READY `{row.get('ready', '?')}`")


async def capacity(op: Op) -> tuple[float, float]:
    """(allocatable CPU in cores over all nodes, CPU already requested), read off the nodes."""
    out = await op.k("describe nodes", "check node capacity before adding pods")
    alloc = requested = 0.0
    for block in re.split(r"\n(?=Name:\s)", out):
        m = re.search(r"Allocatable:\s*\n(?:.*\n)*?\s+cpu:\s+(\S+)", block)
        if m:
            alloc += rd.quantity(m.group(1)) or 0.0
        r = re.search(r"Allocated resources:(?:.*\n)*?\s+cpu\s+(\S+)", block)
        if r:
            requested += rd.quantity(r.group(1)) or 0.0
    return alloc, requested


def cpu_request(w: Workload) -> float:
    total = 0.0
    for c in w.containers():
        total += (
            rd.quantity(str(((c.get("resources") or {}).get("requests") or {}).get("cpu", "0")))
            or 0.0
        )
    return total


async def controllers(op: Op, w: Workload) -> str:
    """Who else manages the workload: an HPA or a GitOps controller ("" when nobody)."""
    hpa = await op.k(f"get hpa -n {w.ns}", f"check whether an autoscaler manages `{w.name}`")
    for row in rd.table(hpa):
        if row.get("reference", "").endswith(f"/{w.name}"):
            return (
                f"the HorizontalPodAutoscaler `{row.get('name')}` owns `{w.name}`'s replica count "
                f"(min {row.get('minpods')}, max {row.get('maxpods')}, now {row.get('replicas')})"
            )
    marks = {**w.labels, **w.annotations}
    for k, v in sorted(marks.items()):
        if re.search(r"argocd|fluxcd|gitops|managed-by", k, re.I) or re.search(
            r"argocd|flux|gitops", str(v), re.I
        ):
            return f"`{w.name}` is managed by GitOps (`{k}: {v}`): a direct change would drift from Git and be reverted"
    return ""


async def rollback_cm(op: Op, cm: str, ns: str, old: dict[str, str]) -> None:
    restore = {k: v for k, v in old.items() if v != "<unset>"}
    patch = json.dumps({"data": restore}, sort_keys=True)
    await op.k(
        f"patch configmap {cm} -n {ns} --type merge -p '{patch}'",
        "roll the ConfigMap back to its previous values: the restart failed",
        write=True,
    )
    for k, v in restore.items():
        op.ans.did.append(f"↩️ Rolled back `configmap/{cm}` `{k}` → `{v}` (restart failed)")


async def undo(op: Op, w: Workload, why: str) -> None:
    await op.k(f"rollout undo deployment/{w.name} -n {w.ns}", why, write=True)
    await op.k(
        f"rollout status deployment/{w.name} -n {w.ns} --timeout=120s",
        f"wait for `{w.name}`'s rollback to finish",
    )
    op.ans.did.append(f"↩️ `kubectl rollout undo deployment/{w.name}`: {why}")


async def workload(op: Op, name: str, ns: str) -> Workload:
    return await load(op, name, ns)


__all__ = ["sel", "workload"]
