"""heldout38's requested changes: scale, config keys, restart, rollback, one narrow write at a
time, read back and verified; blocked when the mode, an approval rule, an HPA, GitOps or a
disproportionate number says so (the postmortem records the before -> after of each)."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout38_calls import Session
from .operator_heldout38_pm import Postmortem


def replicas_of(yaml_text: str) -> int | None:
    doc = rd.load_yaml(yaml_text)
    spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
    r = spec.get("replicas") if isinstance(spec, dict) else None
    return int(r) if isinstance(r, int) else None


def managed_by(yaml_text: str) -> str:
    """A GitOps owner read from the object's labels/annotations ('' when none)."""
    doc = rd.load_yaml(yaml_text)
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    for k, v in sorted(marks.items()):
        gitops = any(t in k.lower() for t in ("argocd", "fluxcd", "gitops", "managed-by"))
        if gitops and v and "helm" not in str(v).lower():
            return f"{k}={v}"
    return ""


async def hpa_for(s: Session, ns: str, name: str) -> str:
    out = await s.k(f"get hpa -n {ns}", f"check whether an autoscaler manages {name}'s replicas")
    for row in rd.table(out):
        if name in row.get("reference", "").split("/")[-1:]:
            return row.get("name", "")
    return ""


async def verify_rollout(s: Session, ns: str, name: str) -> bool:
    out = await s.k(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        f"verify the {name} rollout completes and the pods become ready",
    )
    ok = "successfully rolled out" in out
    await s.k(f"get pods -n {ns} -l app={name}", f"confirm the {name} pods are Running and Ready")
    return ok


async def scale(
    s: Session, pm: Postmortem, ns: str, name: str, n: int, why: str, dry_run: bool = False
) -> bool:
    cur = await s.k(
        f"get deployment {name} -n {ns} -o yaml",
        f"read {name}'s current replica count before scaling",
    )
    before = replicas_of(cur)
    if before == n:
        pm.went_well.append(f"{name} already ran {n} replicas; no change was needed")
        return True
    if dry_run:
        out = await s.k(
            f"scale deployment {name} -n {ns} --replicas={n} --dry-run=server",
            "validate the scale server-side first, as this is production",
        )
        if "error" in out.lower()[:80]:
            pm.went_wrong.append(f"the server-side dry run was refused: {out.strip()[:160]}")
            return False
    out = await s.k(f"scale deployment {name} -n {ns} --replicas={n}", why)
    pm.deltas[s.calls[-1].n] = f"deployment/{name} replicas {before} -> {n}"
    if "scaled" not in out:
        pm.went_wrong.append(f"the scale of {name} was refused: {out.strip()[:160]}")
        return False
    ok = await verify_rollout(s, ns, name)
    pm.done(
        f"deployment/{name} scaled from {before} to {n} replicas"
        + ("; all replicas verified ready" if ok else "; rollout not yet complete")
    )
    return ok


async def set_keys(
    s: Session, pm: Postmortem, ns: str, cm: str, want: dict[str, str], why: str
) -> dict[str, tuple[str | None, str]]:
    """Patch only the keys whose value differs (idempotent: a rerun patches nothing)."""
    cur = rd.load_yaml(
        await s.k(
            f"get configmap {cm} -n {ns} -o yaml",
            f"read the current keys of ConfigMap {cm} before changing it",
        )
    )
    data = (cur or {}).get("data") or {}
    diff = {k: v for k, v in want.items() if str(data.get(k)) != v}
    if not diff:
        pm.went_well.append(f"ConfigMap {cm} already held {want}; nothing was patched")
        return {}
    body = json.dumps({"data": diff}, sort_keys=True)
    out = await s.k(f"patch configmap {cm} -n {ns} --type merge -p '{body}'", why)
    changes = {k: (data.get(k), v) for k, v in diff.items()}
    pm.deltas[s.calls[-1].n] = "; ".join(
        f"configmap/{cm} {k}: {b if b is not None else '(absent)'} -> {a}"
        for k, (b, a) in changes.items()
    )
    if "patched" not in out:
        pm.went_wrong.append(f"the patch of {cm} was refused: {out.strip()[:160]}")
        return {}
    back = rd.load_yaml(
        await s.k(
            f"get configmap {cm} -n {ns} -o yaml",
            f"read {cm} back to confirm the new values and untouched keys",
        )
    )
    got = (back or {}).get("data") or {}
    kept = sorted(k for k in data if k not in diff and got.get(k) == data[k])
    pm.done(
        f"configmap/{cm}: "
        + ", ".join(
            f"{k} {b if b is not None else '(absent)'} -> {a}" for k, (b, a) in changes.items()
        )
        + (f" (other keys unchanged: {', '.join(kept)})" if kept else "")
    )
    return changes


async def restart(s: Session, pm: Postmortem, ns: str, name: str, why: str) -> bool:
    out = await s.k(f"rollout restart deployment/{name} -n {ns}", why)
    pm.deltas[s.calls[-1].n] = f"deployment/{name} pods replaced by a rolling restart"
    if "restarted" not in out:
        pm.went_wrong.append(f"the restart of {name} was refused: {out.strip()[:160]}")
        return False
    ok = await verify_rollout(s, ns, name)
    pm.done(
        f"rolling restart of deployment/{name}"
        + (", verified healthy" if ok else ", verification failed")
    )
    if not ok:
        pm.went_wrong.append(f"the {name} rollout did not complete after the restart")
    return ok


def keys_requested(prompt: str) -> dict[str, str]:
    """KEY=value / KEY to value / enable KEY pairs of the request (upper-case keys)."""
    want: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.:/-]+)\"?", prompt):
        want[k] = v
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,}) to \"?([\w.:/-]+?)\"?(?=[\s,.]|$)", prompt):
        want.setdefault(k, v)
    for k in re.findall(r"\b[Ee]nable (?:the )?([A-Z][A-Z0-9_]{2,})\b", prompt):
        want.setdefault(k, "true")
    for k in re.findall(r"\b[Dd]isable (?:the )?([A-Z][A-Z0-9_]{2,})\b", prompt):
        want.setdefault(k, "false")
    return want


async def find_cm(s: Session, ns: str, prompt: str, keys: list[str]) -> str:
    out = await s.k(
        f"get configmaps -n {ns} -o yaml",
        "find the ConfigMap the request refers to and the keys it holds",
    )
    cms = rd.items(out)
    names = [c.get("metadata", {}).get("name", "") for c in cms]
    for n in sorted(names, key=len, reverse=True):
        if n and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", prompt):
            return n
    for c in cms:
        if (
            any(k in (c.get("data") or {}) for k in keys)
            and c["metadata"]["name"] != "agent-config"
        ):
            return str(c["metadata"]["name"])
    return ""


async def consumers(s: Session, ns: str, cm: str) -> list[str]:
    """Deployments that read the ConfigMap (env, envFrom or a volume)."""
    out = await s.k(
        f"get deployments -n {ns} -o yaml",
        f"find which workloads consume ConfigMap {cm} (blast radius of a change)",
    )
    users = []
    for d in rd.items(out):
        if re.search(
            rf"(name|configMapRef|configMap)\W+{re.escape(cm)}\b", json.dumps(d.get("spec", {}))
        ) or cm in json.dumps(d.get("spec", {})):
            users.append(str(d.get("metadata", {}).get("name", "")))
    return sorted(u for u in users if u)
