"""heldout27's requested changes: ConfigMap keys, replica counts, restarts, images. Each read
before it is made, the smallest write that does the job, and read back after."""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout27 import Ticket
from .operator_heldout27_look import (
    View,
    deployment,
    items,
    owner,
    production,
    replicas,
    table,
    uses_configmap,
)

_PAIR = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.:/-]+)\"?")
_SET = re.compile(r"\b(?i:set|change|update)\s+([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.:/-]+)\"?")
_ENABLE = re.compile(r"\b(?i:enable)\s+(?:the\s+)?([A-Z][A-Z0-9_]{2,})\b")


def wanted_keys(prompt: str) -> dict[str, str]:
    """The ConfigMap keys the request sets, as KEY=value, "set KEY to value", "enable KEY"."""
    keys = {k: v.rstrip(".,;") for k, v in _PAIR.findall(prompt)}
    keys.update({k: v.rstrip(".,") for k, v in _SET.findall(prompt)})
    keys.update({k: "true" for k in _ENABLE.findall(prompt)})
    return keys


async def configmap_change(t: Ticket, v: View, keys: dict[str, str]) -> bool:
    """Set keys of a ConfigMap; held when other teams' workloads consume it too."""
    cms = items(
        await t.k(f"get configmaps -n {t.ns} -o yaml", "find the ConfigMap holding the keys")
    )
    named = [c for c in cms if c["metadata"]["name"].lower() in t.low]
    holding = [
        c
        for c in cms
        if set(keys) & set(c.get("data") or {}) and "agent" not in c["metadata"]["name"]
    ]
    pick = named or holding
    if len(pick) != 1:
        t.summary = "ConfigMap change requested, but which ConfigMap is ambiguous: held."
        t.step("Please name the ConfigMap to change.")
        t.status = "Pending information"
        return True
    cm = pick[0]
    name, before = cm["metadata"]["name"], dict(cm.get("data") or {})
    deps = items(
        await t.k(f"get deployments -n {t.ns} -o yaml", f"find every workload that consumes {name}")
    )
    users = [d for d in deps if uses_configmap(d, name)]
    unnamed = [d["metadata"]["name"] for d in users if d["metadata"]["name"].lower() not in t.low]
    if len(users) > 1 and unnamed:
        return _shared(t, v, name, users, keys)
    todo = {k: val for k, val in keys.items() if before.get(k) != val}
    for k, _val in keys.items():
        t.quote(
            f"kubectl get configmap {name} -n {t.ns} -o yaml", f"{k}: {before.get(k, '(absent)')}"
        )
    if todo:
        body = json.dumps({"data": todo}, separators=(",", ":"))
        delta = "; ".join(
            f"{name}.{k}: {before.get(k, '(absent)')} -> {val}" for k, val in todo.items()
        )
        await t.k(
            f"patch configmap {name} -n {t.ns} --type merge -p '{body}'",
            "set only the requested keys",
            delta,
        )
        t.did(f"Patched ConfigMap {name} (merge patch, requested keys only): {delta}.")
    else:
        t.did(
            f"ConfigMap {name} already had {', '.join(f'{k}={v}' for k, v in keys.items())}: no write needed."
        )
    after = items(await t.k(f"get configmap {name} -n {t.ns} -o yaml", "verify the new values"))
    data = (after[0].get("data") or {}) if after else {}
    others = sorted(k for k in before if k not in keys)
    t.did(
        f"Verified {name}: "
        + ", ".join(f"{k}={data.get(k)}" for k in keys)
        + (f"; other keys unchanged ({', '.join(others)})." if others else ".")
    )
    t.backout = f"Patch {name} back to: " + ", ".join(
        f"{k}={before.get(k, '(remove key)')}" for k in keys
    )
    t.summary = (
        f"ConfigMap {name} set as requested" + ("" if todo else " (already compliant)") + "."
    )
    t.status = "Resolved"
    if re.search(r"restart|pick(s)? up|roll", t.low):
        targets = [d["metadata"]["name"] for d in users] or v.focus
        for d in targets:
            if not await restart(t, d, f"so {d} reads the new {name} values"):
                await _undo(t, d, name, before, todo)
                return True
    return True


def _shared(
    t: Ticket, v: View, name: str, users: list[dict[str, Any]], keys: dict[str, str]
) -> bool:
    who = []
    for d in users:
        labels = d["metadata"].get("labels") or {}
        team = labels.get("team") or labels.get("owner") or "team unknown"
        who.append(f"{d['metadata']['name']} ({team})")
    teams = {w.split("(")[1] for w in who}
    t.summary = f"{name} is shared by {len(users)} deployments across {len(teams)} team(s): change held for confirmation."
    t.impact = f"Changing {', '.join(keys)} in {name} changes every consumer on its next restart: {', '.join(who)}."
    t.quote(f"kubectl get deployments -n {t.ns} -o yaml", f"{name} referenced by " + ", ".join(who))
    t.cause("N/A: a change request, not a fault.")
    t.change = f"Set {', '.join(f'{k}={v}' for k, v in keys.items())} in shared ConfigMap {name}."
    t.risk = (
        "Medium: affects all consumers, including teams who did not ask (log volume, behaviour)."
    )
    t.backout = f"Patch {name} back to the current values."
    t.approver = "the owning teams of: " + ", ".join(who)
    t.status = "Awaiting confirmation from the consuming teams; nothing changed"
    t.step(
        "Confirm with each consuming team, or give the requesting service its own ConfigMap/override."
    )
    return True


async def restart(t: Ticket, name: str, why: str) -> bool:
    """A rolling restart, then its status; False when the rollout does not complete."""
    await t.k(
        f"rollout restart deployment/{name} -n {t.ns}",
        why,
        f"{name}: new rollout (pod template restartedAt annotation)",
    )
    out = await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        f"confirm {name}'s rollout completes",
    )
    ok = "successfully rolled out" in out and not t.failed()
    t.quote(
        f"kubectl rollout status deployment/{name} -n {t.ns}",
        out.strip().splitlines()[-1] if out.strip() else "no output",
    )
    pods = table(
        await t.k(f"get pods -n {t.ns} -l app={name}", f"check {name}'s new pods are Ready")
    )
    bad = [p for p in pods if p.get("status") != "Running" or p.get("ready", "").startswith("0/")]
    if bad:
        ok = False
        t.quote(
            f"kubectl get pods -n {t.ns} -l app={name}",
            f"{bad[0].get('name')} {bad[0].get('ready')} {bad[0].get('status')}",
        )
    else:
        t.quote(
            f"kubectl get pods -n {t.ns} -l app={name}",
            f"{len(pods)}/{len(pods)} {name} pods Running and Ready after the restart",
        )
    t.did(
        f"Rolling restart of {name}: "
        + ("completed, all pods Ready." if ok else "did NOT complete.")
    )
    return ok


async def _undo(t: Ticket, dep: str, cm: str, before: dict[str, str], todo: dict[str, str]) -> None:
    """A failed restart: stop, undo the rollout and the ConfigMap, leave a consistent state."""
    await t.k(
        f"rollout undo deployment/{dep} -n {t.ns}",
        "back out the failed rollout",
        f"{dep}: back to the previous ReplicaSet",
    )
    if todo:
        back = {k: before.get(k) for k in todo}
        body = json.dumps({"data": back}, separators=(",", ":"))
        delta = "; ".join(f"{cm}.{k}: {v} -> {before.get(k)}" for k, v in todo.items())
        await t.k(
            f"patch configmap {cm} -n {t.ns} --type merge -p '{body}'",
            "restore the ConfigMap to match the running pods",
            delta,
        )
    await t.k(
        f"rollout status deployment/{dep} -n {t.ns} --timeout=120s",
        f"confirm {dep} is back on the old pods",
    )
    t.did(
        f"Stopped: the restart of {dep} failed, so I rolled the deployment back and restored {cm}; both steps are backed out."
    )
    t.summary = (
        f"Change NOT applied: {dep}'s restart failed; rolled back to the previous consistent state."
    )
    t.cause(
        f"The new {dep} pods did not become Ready (see evidence); the change was backed out rather than left half-done."
    )
    t.status = "Rolled back; awaiting the owner's fix of the rollout failure"
    t.step(f"Fix the cause of {dep}'s failed rollout (pod events above), then re-run the change.")


async def scale(t: Ticket, v: View, name: str, target: int) -> None:
    dep = await deployment(t, name, f"read {name}'s current replicas and requests")
    now = replicas(dep)
    hpa = [
        h
        for h in table(await t.k(f"get hpa -n {t.ns}", "check for an autoscaler owning replicas"))
        if name in h.get("reference", "")
    ]
    t.quote(f"kubectl get deployment {name} -n {t.ns} -o yaml", f"replicas: {now}")
    if hpa:
        h = hpa[0]
        t.quote(
            f"kubectl get hpa -n {t.ns}",
            f"{h.get('name')} {h.get('reference')} min {h.get('minpods')} max {h.get('maxpods')} replicas {h.get('replicas')}",
        )
        t.summary = f"{name} is managed by HPA {h.get('name')}: a manual scale to {target} would be overwritten. Not changed."
        t.cause(
            f"N/A: request conflicts with HPA {h.get('name')}, which is actively setting {name}'s replicas."
        )
        t.change = f"Pin {name} at {target}: set HPA {h.get('name')} minReplicas=maxReplicas={target}, or suspend it."
        t.risk = "Pinning removes autoscaling; a manual scale alone would fight the HPA and flap."
        t.backout = "Restore the HPA's previous min/max."
        t.approver = owner(v) or f"the owner of {name}"
        t.status = "Awaiting decision; nothing changed"
        t.step(
            f"Tell me whether to adjust HPA {h.get('name')}'s bounds or leave autoscaling in charge."
        )
        return
    if now and target > max(10 * now, 50):
        t.summary = (
            f"Scale {name} from {now} to {target} held: {target // max(now, 1)}x the current size."
        )
        t.cause("N/A: a scaling request, held as disproportionate.")
        t.impact = (
            f"{target} replicas would exhaust the nodes' capacity and starve other workloads."
        )
        t.change = f"Scale {name} {now} -> {target}."
        t.risk = "High: capacity exhaustion, scheduling failures across the namespace, cost."
        t.status = "Awaiting confirmation; nothing changed"
        t.step(
            f"Please confirm the figure ({target}); if it is a typo, tell me the intended count."
        )
        return
    nodes = await t.k("describe nodes", "check node capacity before scaling")
    t.quote("kubectl describe nodes", _capacity(nodes))
    delta = f"{name}.spec.replicas: {now} -> {target}"
    await t.k(
        f"scale deployment/{name} -n {t.ns} --replicas={target}",
        f"scale {name} as requested",
        delta,
    )
    out = await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        f"verify {name} reaches {target}",
    )
    t.did(
        f"Scaled {name}: {now} -> {target} replicas; rollout status: {out.strip().splitlines()[-1] if out.strip() else 'n/a'}."
    )
    t.backout = f"`kubectl scale deployment/{name} -n {t.ns} --replicas={now}`"
    t.status = "Resolved"
    if not t.summary:
        t.summary = f"{name} scaled from {now} to {target} replicas."
    if production(v):
        t.approver = (
            "N/A (zone allows autonomous writes); change recorded for the production change log"
        )


def _capacity(text: str) -> str:
    nodes = re.findall(r"^Name:\s+(\S+)", text, re.M)
    cpu = re.findall(r"Allocatable:.*?cpu:\s+(\S+)", text, re.S)
    used = re.findall(r"cpu\s+(\S+) \((\d+)%\)", text)
    pct = ", ".join(f"{n} cpu requests {u[1]}%" for n, u in zip(nodes, used))
    return f"{len(nodes)} nodes, allocatable cpu {', '.join(cpu[: len(nodes)])}" + (
        f"; {pct}" if pct else ""
    )


def target_replicas(low: str) -> int | None:
    m = re.search(
        r"(\d+)\s+replicas?|replicas?\s+(?:to|=)\s*(\d+)|exactly\s+(\d+)|scale [\w-]+ to (\d+)", low
    )
    if not m:
        return None
    return int(next(g for g in m.groups() if g))
