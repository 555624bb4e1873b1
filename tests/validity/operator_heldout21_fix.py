"""``heldout21``'s changes (issue 27): the smallest fix for a diagnosed cause, a restart with
its verification, and the hand-off when the mode or the zone wants a human's approval."""

from __future__ import annotations

import json
import re

from .operator_heldout21 import Desk
from .operator_heldout21_diag import Signals, limit_of
from .operator_heldout21_look import Scene
from .operator_read import items, mib, quantity, table


async def replicas_line(desk: Desk, name: str, why: str) -> str:
    rows = table(await desk.kubectl(f"get deployment {name} -n {desk.ns}", why))
    return f"{name} READY {rows[0].get('ready', '?')}" if rows else f"{name} not found"


async def verify(desk: Desk, name: str) -> str:
    """Rollout status and the pods after a change; returns what was seen."""
    await desk.kubectl(
        f"rollout status deployment/{name} -n {desk.ns} --timeout=120s",
        f"to wait until {name}'s new pods are rolled out",
    )
    pods = table(
        await desk.kubectl(
            f"get pods -n {desk.ns} -l app={name}",
            f"to check {name}'s pods are Running and ready after the change",
        )
    )
    states = sorted({f"{p.get('status')} {p.get('ready')}" for p in pods})
    seen = f"{len(pods)} pods: " + ", ".join(states) if pods else "no pods listed"
    desk.report.extra.setdefault("verification", []).append(
        {"workload": name, "after_change": seen}
    )
    return seen


async def restart_and_verify(desk: Desk, name: str, why: str) -> str:
    before = await replicas_line(desk, name, f"to record {name}'s state before restarting it")
    await desk.kubectl(
        f"rollout restart deployment/{name} -n {desk.ns}",
        f"to restart {name}: {why}",
        before=before,
        change=True,
    )
    seen = await verify(desk, name)
    desk.acts[-3 if len(desk.acts) >= 3 else 0].after = seen
    return seen


async def remediate(desk: Desk, scene: Scene, s: Signals) -> None:
    """The fix the diagnosis calls for, or the hand-off when writes need approval here."""
    r = desk.report
    reasons = s.last_reasons()
    if "OOMKilled" in reasons:
        await _memory(desk, scene, s)
    elif r.extra.get("missing_config_key"):
        miss = r.extra["missing_config_key"]
        r.summary = (
            f"{s.name} is crashing because ConfigMap {miss['configmap']} lacks key {miss['key']}."
        )
        r.open_questions.append(f"what value should {miss['key']} have? I won't invent one")
        r.escalate_to = "the service owner"
        r.escalate_why = (
            f"the fix needs the correct value for {miss['key']}, which nothing I read states"
        )
    elif "scheduler cannot place" in r.statement:
        await _requests_fit(desk, s)
    elif any(
        "CrashLoop" in (p.get("status") or "") or "Error" in (p.get("status") or "") for p in s.pods
    ) or _degraded(scene, s.name):
        if s.name not in scene.deployments:
            await _recreate_pod(desk, s)
            return
        if "connection" in desk.prompt.lower():
            await _connection_cap(desk, s)
        if not desk.may_write:
            await _hand_off(
                desk,
                scene,
                f"restart {s.name} (kubectl rollout restart deployment/{s.name} -n {desk.ns})",
            )
            return
        seen = await restart_and_verify(desk, s.name, r.statement or "its pods are unhealthy")
        r.summary = f"{s.name} was unhealthy ({r.statement}); I restarted it and verified: {seen}."
    else:
        r.summary = f"{s.name}: {r.statement}. No change made: nothing I read calls for one yet."


def _degraded(scene: Scene, name: str) -> bool:
    d = scene.deployments.get(name, {})
    ready = d.get("ready", "")
    return bool(ready) and ready.split("/")[0] != ready.split("/")[-1]


async def _memory(desk: Desk, scene: Scene, s: Signals) -> None:
    r = desk.report
    limit = limit_of(s)
    new = mib(limit * 2) if limit else "1Gi"
    container = next((c.name for v in s.views for c in v.containers if not c.init), s.name)
    command = f"set resources deployment/{s.name} -n {desk.ns} -c {container} --limits=memory={new}"
    r.next_steps.append(f"raise {s.name}'s memory limit to {new}: kubectl {command}")
    if "leak" in r.statement:
        r.next_steps.append(f"find and fix the leak in {s.name}; the higher limit only buys time")
    if not desk.may_write:
        await _hand_off(desk, scene, f"kubectl {command}")
        return
    before = f"memory limit {mib(limit) if limit else 'unset'}"
    await desk.kubectl(
        command,
        f"to stop the OOM kills: {s.name} needs more than its {before}",
        before=before,
        change=True,
    )
    desk.acts[-1].after = f"memory limit {new}"
    seen = await verify(desk, s.name)
    r.summary = f"{s.name} was OOMKilled at its {before}; I raised the limit to {new} and checked the rollout: {seen}."


async def _hand_off(desk: Desk, scene: Scene, change: str) -> None:
    """Supervised mode, a read-only zone or an approval rule: recommend, do not write."""
    r = desk.report
    rule = (
        " ".join(desk.task.scope.get("approval_required_for") or [])
        or f"{desk.task.mode} mode in zone {desk.zones}"
    )
    owner = (
        scene.notes.get("oncall")
        or scene.labels.get("team")
        or "the production on-call / change approver"
    )
    r.escalate_to = owner
    r.escalate_why = f"approval required: policy here needs a human to approve {rule}; I have not changed anything"
    r.extra["approval_request"] = {
        "requested_change": change,
        "why": r.statement,
        "risk": "a rolling restart of the pods as the new spec rolls out",
    }
    r.summary = f"Diagnosed: {r.statement}. The fix needs approval in {desk.ns} ({rule}); I recommend: {change}."
    r.next_steps.insert(0, f"once approved, apply: {change}, then watch the pods stay Running")


def threshold(prompt: str) -> float | None:
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", prompt) or re.search(
        r"(\d+(?:\.\d+)?)\s*%\s*(?:threshold|max)", prompt
    )
    return float(m.group(1)) / 100 if m else None


async def _recreate_pod(desk: Desk, s: Signals) -> None:
    """A bare pod (no controller) comes back only if it is recreated from its own spec."""
    r = desk.report
    pod = next((p.get("name", "") for p in s.pods), s.name)
    found = items(
        await desk.kubectl(
            f"get pod {pod} -n {desk.ns} -o yaml",
            f"{pod} has no controller: keep its spec so it can be recreated",
        )
    )
    if not found:
        return
    spec = found[0]
    meta = spec.get("metadata", {})
    clean = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": meta.get("name"),
            "namespace": desk.ns,
            "labels": meta.get("labels") or {},
        },
        "spec": {k: v for k, v in (spec.get("spec") or {}).items() if k != "nodeName"},
    }
    before = f"{pod} CrashLoopBackOff, restarts {next((p.get('restarts') for p in s.pods), '?')}"
    await desk.kubectl(
        f"delete pod {pod} -n {desk.ns}",
        f"restart {pod} (staging, my authority): {r.statement}; the error reads transient, so a fresh start clears it",
        before=before,
        change=True,
    )
    desk.acts[-1].after = f"{pod} deleted, to be recreated from its saved spec"
    await desk.kubectl(
        f"apply -n {desk.ns} -f - <<EOF\n{json.dumps(clean, indent=2)}\nEOF",
        f"{pod} has no controller to replace it: recreate it from the spec I saved",
        before=f"{pod} absent",
        change=True,
    )
    idx = len(desk.acts) - 1
    rows = table(
        await desk.kubectl(f"get pod {pod} -n {desk.ns}", f"to verify {pod} came back and stays up")
    )
    seen = (
        ", ".join(
            f"{x.get('name')} {x.get('status')} ready {x.get('ready')} restarts {x.get('restarts')}"
            for x in rows
        )
        or "not listed"
    )
    desk.acts[idx].after = seen
    desk.report.extra.setdefault("verification", []).append({"workload": pod, "after_change": seen})
    r.summary = f"{pod} was crash-looping ({r.statement}). Staging is within my authority, so I restarted it (recreated the pod from its spec) rather than escalate: {seen}."


async def _requests_fit(desk: Desk, s: Signals) -> None:
    """Pending because a request is larger than any node can give: lower it to fit."""
    r = desk.report
    found = items(
        await desk.kubectl(
            f"get deployment {s.name} -n {desk.ns} -o yaml", f"to read {s.name}'s resource requests"
        )
    )
    nodes = items(
        await desk.kubectl(
            "get nodes -o yaml", "to compare the requests with what each node can allocate"
        )
    )
    containers = (
        (found[0] if found else {})
        .get("spec", {})
        .get("template", {})
        .get("spec", {})
        .get("containers", [])
    )
    for c in containers:
        req = c.get("resources", {}).get("requests", {})
        for kind in ("cpu", "memory"):
            want = quantity(str(req.get(kind, ""))) if req.get(kind) else None
            biggest = max(
                (
                    quantity(str(n.get("status", {}).get("allocatable", {}).get(kind, 0))) or 0
                    for n in nodes
                ),
                default=0,
            )
            if not want or not biggest or want <= biggest:
                continue
            new = f"{int(biggest * 0.5 * 10) * 100}m" if kind == "cpu" else mib(biggest * 0.5)
            shown = f"{int(biggest * 1000)}m" if kind == "cpu" else mib(biggest)
            r.cite(
                f"{s.name} container {c.get('name')} requests {kind} {req.get(kind)}; the largest node allocates {shown}"
            )
            r.statement += f"; its {kind} request {req.get(kind)} is more than any node's allocatable {shown}, so no node can ever fit it"
            await desk.kubectl(
                f"set resources deployment/{s.name} -n {desk.ns} -c {c.get('name')} --requests={kind}={new}",
                f"the {kind} request {req.get(kind)} exceeds every node's allocatable {shown}; {new} fits with room for neighbours",
                before=f"requests {kind} {req.get(kind)}",
                change=True,
            )
            idx = len(desk.acts) - 1
            desk.acts[idx].after = f"requests {kind} {new}; " + await verify(desk, s.name)
            r.summary = f"{s.name}'s pods were Pending: the {kind} request {req.get(kind)} fits no node (largest allocatable {shown}). I lowered it to {new}; {desk.acts[idx].after}."
            return
    r.summary = f"{s.name} is Pending ({r.statement}); its requests fit a node, so the cluster is full: more nodes needed."
    r.escalate_to, r.escalate_why = (
        "the platform team",
        "the cluster has no room; this needs capacity, not a spec change",
    )


async def _connection_cap(desk: Desk, s: Signals) -> None:
    """A connection limit in the service's own ConfigMap set far below its traffic."""
    r = desk.report
    stem = s.name.split("-")[0]
    for cm in items(
        await desk.kubectl(
            f"get configmaps -n {desk.ns} -o yaml",
            f"to read {s.name}'s configuration for a connection limit",
        )
    ):
        name = cm.get("metadata", {}).get("name", "")
        if not name.startswith(stem):
            continue
        for key, value in sorted((cm.get("data") or {}).items()):
            if re.search(r"CONN|POOL", key) and str(value).isdigit() and int(value) < 50:
                r.cite(f"configmap {name}: {key}={value}")
                r.statement += f"; {name} caps it at {key}={value} connections, so connections past the cap are dropped"
                patch = json.dumps({"data": {key: "100"}}, separators=(",", ":"))
                await desk.kubectl(
                    f"patch configmap {name} -n {desk.ns} --type merge -p '{patch}'",
                    f"raise {key} from {value} to 100 so {s.name} stops refusing connections past its cap",
                    before=f"{key}={value}",
                    change=True,
                )
                desk.acts[-1].after = f"{key}=100"
                return
