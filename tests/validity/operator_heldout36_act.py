"""heldout36's requested changes: scale, config, image, restart. One narrow write at a time,
each checked for who else owns the object first, read back and verified; undone on failure.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .operator_heldout36_calls import Session
from .operator_heldout36_look import (
    Workload,
    find_subject,
    named_in,
    ns_labels,
    production,
    read_workload,
)
from .operator_heldout36_record import Record


def may_write(s: Session) -> str:
    """Why we may not write here ("" when we may): mode, read-only zone, approval rules."""
    zones = " ".join(s.task.scope.get("zones") or [])
    if s.task.mode != "autonomous":
        return f"we run {s.task.mode}: writes need a human's approval"
    if "readonly" in zones or "read-only" in zones:
        return f"zone {zones} is read-only for us"
    if s.task.scope.get("approval_required_for"):
        return "approval is required for " + "; ".join(s.task.scope["approval_required_for"])
    return ""


def managed_by(obj: dict[str, Any]) -> str:
    meta = obj.get("metadata") or {}
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    for k, v in marks.items():
        if re.search(
            r"argocd|flux|gitops|managed-by|autoscal", k + "=" + str(v), re.I
        ) and "kubectl" not in str(v):
            return f"{k}={v}"
    return ""


async def hpa_on(s: Session, w: Workload) -> str:
    out = await s.k(f"get hpa -n {w.ns}", f"is an HPA in charge of {w.name}'s replicas?")
    row = next((r for r in rd.table(out) if w.name in r.get("reference", "")), None)
    return f"HPA {row.get('name')} ({row.get('minpods')}-{row.get('maxpods')})" if row else ""


async def rollout_ok(s: Session, w: Workload) -> tuple[bool, str]:
    out = await s.k(
        f"rollout status deploy/{w.name} -n {w.ns} --timeout=120s",
        "verify: did the rollout finish?",
    )
    ref = s.ref()
    pods = rd.table(
        await s.k(f"get pods -n {w.ns} -l {w.selector}", "verify: pods Ready after the change")
    )
    ready = [
        r
        for r in pods
        if r.get("status") == "Running"
        and r.get("ready", "0/1").split("/")[0] == r.get("ready", "").split("/")[-1]
    ]
    ok = "successfully rolled out" in out and len(ready) == len(pods) and bool(pods)
    return (
        ok,
        f"rollout status: {out.strip().splitlines()[-1] if out.strip() else '?'} ({ref}); {len(ready)}/{len(pods)} pods Running+Ready ({s.ref()})",
    )


async def _env(s: Session, rec: Record, w: Workload) -> bool:
    """Production gets named as a factor; returns True when it is production."""
    meta = await ns_labels(s, w.ns)
    if production(meta):
        labels = ", ".join(
            f"{k}={v}" for k, v in (meta.get("labels") or {}).items() if "prod" in str(v).lower()
        )
        rec.context.append(
            f"Environment: ns `{w.ns}` is labelled {labels}, so this is production. Because of that we dry-run "
            "first, change only what was asked, and watch every pod go Ready before calling it done."
        )
        return True
    return False


async def scale(s: Session, target: int | None, factor: float | None = None) -> Record:
    sub = await find_subject(s)
    rec = Record("scale request")
    if not sub:
        rec.add("We could not tell which deploy to scale.", [], 30, "name the deploy")
        return rec
    ns, name, _ = sub
    w = await read_workload(s, ns, name)
    rec.title = f"scale {name}"
    cur = w.replicas
    if factor:
        target = await capacity_target(s, w, rec, factor)
    assert target is not None
    prod = await _env(s, rec, w)
    blocker = may_write(s) or managed_by(w.spec) or await hpa_on(s, w)
    if target > max(50, cur * 10):
        blocker = f"{target} replicas is {target / max(cur, 1):.0f}x today's {cur}: out of proportion for one request"
    if blocker:
        rec.add(
            f"We did not scale {name} from {cur} to {target}.",
            [f"current replicas {cur} ({w.refs['spec']})", blocker],
            90,
            "confirm the number with the owner (or change it where the owner of the replica count lives).",
        )
        rec.decision = f"No change: {blocker}."
        return rec
    if prod:
        await s.k(
            f"scale deploy/{name} -n {ns} --replicas={target} --dry-run=server",
            "production: dry-run first",
        )
    await s.k(
        f"scale deploy/{name} -n {ns} --replicas={target}",
        f"the requested change: {cur} -> {target} replicas",
    )
    ok, how = await rollout_ok(s, w)
    rec.changes.append(
        f"deploy/{name} replicas: before {cur} -> after {target} (`kubectl scale`, {s.steps[-3].n if len(s.steps) > 2 else ''})"
    )
    rec.verification.append(how)
    rec.add(
        f"{name} now runs {target} replicas"
        + (" and all are Ready." if ok else "; not all Ready yet."),
        [how],
        95 if ok else 60,
    )
    rec.decision = f"Scaled {name} {cur} -> {target}."
    return rec


async def capacity_target(s: Session, w: Workload, rec: Record, factor: float) -> int:
    cur = max(w.replicas, 1)
    req: dict[str, str] = next(
        (c.get("resources", {}).get("requests", {}) for c in w.containers), {}
    )
    nodes = await s.k("describe nodes", "node capacity: can the cluster hold more pods?")
    ref = s.ref()
    free = 0.0
    for block in nodes.split("\nName:"):
        alloc = re.search(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", block)
        used = re.search(r"Allocated resources:.*?\n.*?\n.*?\n\s*cpu\s+(\S+)", block, re.S)
        if alloc:
            free += (rd.quantity(alloc.group(1)) or 0) - (
                rd.quantity(used.group(1)) or 0 if used else 0
            )
    per = rd.quantity(req.get("cpu", "")) or 0
    target = int(cur * factor + 0.999)
    fits = int(free / per) if per else target
    rec.add(
        f"For {factor:g}x the load we need ~{target} replicas ({cur} today x {factor:g}); the nodes have room for about {fits} more pods at {req.get('cpu', '?')} CPU each.",
        [
            f"replicas {cur}, requests {req} ({w.refs['spec']})",
            f"node allocatable minus allocated ~{free:.2f} cores ({ref})",
        ],
        85,
    )
    return min(target, cur + max(fits, 0)) if per else target


_SET = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\b\s*(?:=|\bto\b)\s*\"?([\w.:/-]+)\"?")
_ENABLE = re.compile(r"\b((?i:enable|disable))\s+([A-Z][A-Z0-9_]{2,})\b")


def settings(prompt: str) -> dict[str, str]:
    out = {k: v.rstrip(".") for k, v in _SET.findall(prompt)}
    for verb, key in _ENABLE.findall(prompt):
        out.setdefault(key, "true" if verb.lower() == "enable" else "false")
    return out


async def config(s: Session, want: dict[str, str]) -> Record:
    """Set keys in a cm (only those); restart its consumers when asked, verify, undo on failure."""
    cms = rd.table(await s.k(f"get cm -n {s.ns}", "which cm holds these keys"))
    names = [r["name"] for r in cms if r.get("name")]
    lowered = s.prompt.lower()
    cm = next((n for n in names if n in lowered), "")
    if not cm:
        cm = await holder(s, names, want)
    rec = Record(f"config change in cm {cm or '?'}")
    if not cm:
        why = may_write(s)
        rec.add(
            "We could not tell which cm to change" + (f", and {why}" if why else "") + ".",
            [],
            30,
            "name the cm" + (" and get the approval first" if why else ""),
        )
        rec.decision = "No change: " + (why or "target unclear") + "."
        return rec
    doc = rd.items(await s.k(f"get cm {cm} -n {s.ns} -o yaml", f"current data of {cm} (before)"))
    before_ref = s.ref()
    obj = doc[0] if doc else {}
    data = dict(obj.get("data") or {})
    users = await consumers(s, cm)
    blocker = may_write(s) or managed_by(obj) or shared(obj, users)
    if blocker:
        rec.add(
            f"We did not change cm `{cm}`.",
            [f"cm {cm} ({before_ref})", blocker],
            90,
            "agree the change with every consumer's owner first (or make it in git), then apply.",
        )
        rec.decision = f"No change: {blocker}."
        return rec
    todo = {k: v for k, v in want.items() if data.get(k) != v}
    for k, v in want.items():
        rec.changes.append(
            f"cm/{cm} {k}: before {data.get(k, '(absent)')!r} -> after {v!r}"
            + ("" if k in todo else " (already so: no write)")
        )
    if todo:
        patch = json.dumps({"data": todo})
        await s.k(
            f"patch cm {cm} -n {s.ns} --type=merge -p '{patch}'",
            f"set only {', '.join(todo)}; other keys untouched",
        )
    after = dict(
        (rd.items(await s.k(f"get cm {cm} -n {s.ns} -o yaml", "read back (after)")) or [{}])[0].get(
            "data"
        )
        or {}
    )
    kept = [k for k in data if k not in want and after.get(k) == data[k]]
    rec.verification.append(
        f"read back ({s.ref()}): "
        + ", ".join(f"{k}={after.get(k)}" for k in want)
        + f"; unmentioned keys unchanged: {', '.join(kept) or 'none'}"
    )
    rec.add(
        f"cm `{cm}` now has "
        + ", ".join(f"{k}={v}" for k, v in want.items())
        + "; a second run would change nothing (merge patch of the same values).",
        [f"before ({before_ref}), after ({s.ref()})"],
        95,
    )
    if re.search(r"restart|pick(s)? up|reload|roll", lowered):
        await restart_users(s, rec, users, cm, data, todo)
    rec.decision = rec.decision or f"Applied the config change to {cm}."
    return rec


async def holder(s: Session, names: list[str], want: dict[str, str]) -> str:
    """The one cm (not our own agent config) that already holds the keys to set."""
    docs = rd.items(
        await s.k(f"get cm -n {s.ns} -o yaml", "no cm named: which one holds " + ", ".join(want))
    )
    hits = [
        d["metadata"]["name"]
        for d in docs
        if set(want) & set(d.get("data") or {}) and not d["metadata"]["name"].startswith("agent-")
    ]
    return hits[0] if len(hits) == 1 else ""


def shared(obj: dict[str, Any], users: list[str]) -> str:
    meta = obj.get("metadata") or {}
    marks = " ".join(
        f"{k}={v}"
        for k, v in {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.items()
    )
    if re.search(r"shared|consumers|used-by", marks, re.I) or len(users) > 1:
        return f"cm is shared ({marks or ''}; read by {', '.join(users) or 'several workloads'}): a change hits all of them".replace(
            "(; ", "("
        )
    return ""


async def consumers(s: Session, cm: str) -> list[str]:
    deps = rd.items(await s.k(f"get deploy -n {s.ns} -o yaml", f"which deploys read cm {cm}"))
    return [
        d["metadata"]["name"]
        for d in deps
        if cm in json.dumps((d.get("spec") or {}).get("template"))
    ]


async def restart_users(
    s: Session, rec: Record, users: list[str], cm: str, before: dict[str, str], todo: dict[str, str]
) -> None:
    deps = rd.table(
        await s.k(f"get deploy -n {s.ns}", "which deploy the request asks us to restart")
    )
    asked = named_in(s.prompt, [r.get("name", "") for r in deps])
    named = asked or [u for u in users if u in s.prompt] or users[:1]
    for u in named:
        w = Workload(s.ns, u)
        doc = rd.items(
            await s.k(f"get deploy {u} -n {s.ns} -o yaml", f"{u}'s selector before restart")
        )
        w.spec = doc[0] if doc else {}
        await s.k(
            f"rollout restart deploy/{u} -n {s.ns}",
            f"second step: {u} reads {cm} at start, restart so it picks the change up",
        )
        ok, how = await rollout_ok(s, w)
        rec.changes.append(f"deploy/{u}: rollout restart (pods replaced after the cm update)")
        rec.verification.append(how)
        if not ok:
            undo = json.dumps({"data": {k: before[k] for k in todo if k in before}})
            if todo:
                await s.k(
                    f"patch cm {cm} -n {s.ns} --type=merge -p '{undo}'",
                    "the restart failed: roll the cm back to before",
                )
            await s.k(
                f"rollout undo deploy/{u} -n {s.ns}",
                "the restart failed: back to the last good pods",
            )
            rec.changes.append(
                f"ROLLED BACK: cm/{cm} to its previous values and deploy/{u} to its previous revision"
            )
            rec.add(
                f"{u} did not come up after the change, so we halted and rolled back.",
                [how],
                90,
                f"owners of {u}: see why the new pods fail before we retry",
            )
            rec.decision = "Halted and rolled back: the change did not verify."
        else:
            rec.add(f"{u} restarted and every pod is Ready with the new config.", [how], 93)


async def image(s: Session) -> Record:
    tag = re.search(r"\b(v\d+(?:\.\d+)+)\b", s.prompt)
    sub = await find_subject(s)
    rec = Record("image update")
    if not sub or not tag:
        rec.add("We could not tell which deploy or tag.", [], 30, "name both")
        return rec
    ns, name, _ = sub
    w = await read_workload(s, ns, name)
    blocker = may_write(s) or managed_by(w.spec)
    if not blocker and s.has("gitops"):
        app = await s.call("gitops", f"is {name} managed by Argo CD?", command=f"app get {name}")
        if app and "not found" not in app.lower() and "error" not in app.lower()[:40]:
            blocker = f"{name} is managed by GitOps (argocd app {name}): a kubectl change is drift and gets reverted"
    c = w.containers[0] if w.containers else {}
    if blocker:
        rec.add(
            f"We did not set {name}'s image to {tag.group(1)} by kubectl.",
            [blocker],
            92,
            "change the tag in the git source and let the controller sync.",
        )
        rec.decision = f"No change: {blocker}."
        return rec
    img = re.sub(r":[^:]+$", f":{tag.group(1)}", c.get("image", name))
    await s.k(
        f"set image deploy/{name} {c.get('name', name)}={img} -n {ns}", "the requested image change"
    )
    _ok, how = await rollout_ok(s, w)
    rec.changes.append(f"deploy/{name} image: before {c.get('image')} -> after {img}")
    rec.verification.append(how)
    return rec


async def restart(s: Session) -> Record:
    sub = await find_subject(s)
    rec = Record("restart")
    if not sub:
        deps = rd.table(await s.k(f"get deploy -n {s.ns}", "which deploys could the request mean"))
        cands = [
            r["name"]
            for r in deps
            if any(
                r.get("name", "").startswith(w + "-")
                for w in re.findall(r"[a-z0-9]+", s.prompt.lower())
            )
        ]
        rec.add(
            "The request does not name one deploy"
            + (f"; it could mean any of {', '.join(cands)}" if cands else "")
            + ".",
            [f"deploys in ns {s.ns} ({s.ref()})"],
            40,
            "tell us which one(s); restarting all of them is wider than the request needs",
        )
        rec.decision = "No restart until the target is clear."
        return rec
    ns, name, kind = sub
    w = await read_workload(s, ns, name, kind)
    blocker = may_write(s)
    if blocker:
        rec.add(f"We did not restart {name}.", [blocker], 90, "approve and we run it")
        return rec
    await s.k(f"rollout restart deploy/{name} -n {ns}", "the requested restart")
    ok, how = await rollout_ok(s, w)
    rec.changes.append(f"deploy/{name}: rollout restart")
    rec.verification.append(how)
    rec.add(
        f"{name} restarted; " + ("all pods Ready." if ok else "not all pods Ready yet."),
        [how],
        95 if ok else 60,
    )
    return rec
