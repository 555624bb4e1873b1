"""``heldout16``'s shift (issue 27, fairness): orient, then the request the prompt makes.

Requests that name a change (keys, replicas, a restart, a canary, a runbook, HA) are carried
out minimally and verified; anything else is an incident: ``operator_heldout16_diag``
investigates the subject and this module decides whether to fix, hold for approval or page.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout16 import Shift, to_millicores
from .operator_heldout16_diag import Diagnosis, diagnose, subject_pods
from .operator_heldout16_plays import (
    canary_play,
    change_play,
    ha_play,
    load_play,
    owner_play,
    rolling_play,
    runbook_play,
)
from .operator_heldout16_reads import dashboard_play, trace_play


async def orient(shift: Shift) -> None:
    """Namespace labels and annotations, workloads, pods and events of the scope."""
    ns = await shift.json(f"get namespace {shift.ns}", "read the environment's labels and owners")
    meta = ns.get("metadata", {}) if isinstance(ns, dict) else {}
    shift.labels = dict(meta.get("labels") or {})
    shift.annotations = dict(meta.get("annotations") or {})
    deps = await shift.json(f"get deployments -n {shift.ns}", "list the workloads in scope")
    shift.deployments = {d["metadata"]["name"]: d for d in deps.get("items", [])}
    pods = await shift.json(f"get pods -n {shift.ns}", "see which pods are unhealthy")
    shift.pods = {p["metadata"]["name"]: p for p in pods.get("items", [])}
    ing = await shift.json(f"get ingress -n {shift.ns}", "what routes traffic in from outside")
    shift.ingresses = {
        i["metadata"]["name"]: p.get("backend", {}).get("service", {}).get("name", "")
        for i in ing.get("items", [])
        for rule in i.get("spec", {}).get("rules") or []
        for p in (rule.get("http") or {}).get("paths") or []
    }
    svcs = await shift.json(f"get services -n {shift.ns}", "which Service selects which pods")
    shift.services = {s["metadata"]["name"]: s for s in svcs.get("items", [])}
    shift.events = await shift.kubectl(f"get events -n {shift.ns}", "recent events in scope")
    env = shift.labels.get("env", "")
    zones = ", ".join(shift.task.scope.get("zones") or [])
    shift.production = env.startswith("prod") or "prod" in zones
    if env or zones:
        shift.report.context.append(
            f"Namespace {shift.ns} is labelled env={env or 'unset'} (zone: {zones or 'unset'})"
            + (
                "; it is treated as production: changes are kept minimal and verified."
                if shift.production
                else "."
            )
        )


def pick_subject(shift: Shift) -> str:
    """The workload the prompt is about: a deployment or pod it names, else the unhealthiest."""
    text = shift.low.replace(" ", "-")
    named = [d for d in shift.deployments if d in shift.low or d in text]
    if named:
        return max(named, key=len)
    pods = [p for p in shift.pods if p.rsplit("-", 1)[0] in shift.low]
    if pods:
        return pods[0]
    routed = _routed_subject(shift)
    if routed:
        return routed
    words = set(re.findall(r"[a-z][a-z0-9-]+", shift.low))
    for name in sorted(shift.deployments):
        if words & set(name.split("-")) - {"service", "api", "app"}:
            return name
    return _unhealthiest(shift)


def _unhealthiest(shift: Shift) -> str:
    """The Deployment whose pods are furthest from Ready (most restarts first), or ''."""
    from .operator_heldout16_diag import subject_pods

    ranked = []
    for name in sorted(shift.deployments):
        statuses = [
            c
            for p in subject_pods(name, shift.pods).values()
            for c in p.get("status", {}).get("containerStatuses") or []
        ]
        unready = [c for c in statuses if not c.get("ready")]
        if unready:
            ranked.append((-sum(int(c.get("restartCount") or 0) for c in unready), name))
    return min(ranked)[1] if ranked else ""


def _routed_subject(shift: Shift) -> str:
    """ "The public API": an Ingress the prompt names, followed to the deployment behind it."""
    for name, backend in sorted(shift.ingresses.items()):
        if re.search(rf"\b{re.escape(name)}\b", shift.low):
            svc = shift.services.get(backend, {})
            app = (svc.get("spec", {}).get("selector") or {}).get("app", backend)
            if app in shift.deployments:
                return str(app)
    return ""


async def work(shift: Shift) -> None:
    shift.labels, shift.annotations = {}, {}
    shift.deployments, shift.pods, shift.events, shift.production = {}, {}, "", False
    shift.ingresses, shift.services = {}, {}
    low = shift.low
    if shift.has("dashboards") and "dashboard" in low:
        await dashboard_play(shift)
        return
    trace = re.search(r"\btrace\s+([0-9a-z]{4,})\b", low)
    if trace and shift.has("traces_query"):
        await trace_play(shift, trace.group(1))
        return
    await orient(shift)
    subject = pick_subject(shift)
    shift.report.title = f"{subject or 'workloads'} in {shift.ns}"
    if re.search(r"who should|loop in|who owns|escalation path", low):
        await owner_play(shift, subject)
    elif "runbook" in low:
        await runbook_play(shift, subject)
    elif "canary" in low:
        await canary_play(shift, subject)
    elif re.search(r"rolling update|roll(ing)? out .*image|new image", low):
        await rolling_play(shift, subject)
    elif re.search(r"highly available|survive node|\bha\b", low):
        await ha_play(shift, subject)
    elif re.search(r"\d+\s*x\b.*load|load.*\b\d+\s*x\b", low):
        await load_play(shift, subject)
    elif not await change_play(shift, subject):
        await incident(shift, subject)


async def alerts(shift: Shift, subject: str) -> None:
    """Alerts firing on the subject: each becomes the trigger of the reads it prompts."""
    if not shift.has("metrics_query"):
        return
    out = await shift.use("metrics_query", "check for alerts on the workload", action="alerts")
    try:
        found = json.loads(out)["data"]["alerts"]
    except (ValueError, KeyError, TypeError):
        return
    for a in found:
        labels = a.get("labels") or {}
        if (subject and subject not in json.dumps(labels)) or a.get("state") != "firing":
            continue
        name = labels.get("alertname", "alert")
        shift.trigger = f"alert: {name}"
        shift.report.context.append(
            f"Alert {name} ({labels.get('severity', 'unknown')}) fired on {subject} during the check: "
            f'"{(a.get("annotations") or {}).get("summary", "")}"; the reads after it were made because of it.'
        )
        return


def needs_approval(shift: Shift) -> str:
    """Why a write needs a human first, or ''."""
    scope = shift.task.scope
    rules = scope.get("approval_required_for") or []
    zones = " ".join(scope.get("zones") or [])
    if rules:
        return f"the task's scope requires approval for: {'; '.join(map(str, rules))}"
    if shift.task.mode == "supervised":
        return "the declared operating mode is supervised"
    if "readonly" in zones or "read-only" in zones:
        return f"the zone is read-only ({zones})"
    return ""


async def incident(shift: Shift, subject: str) -> None:
    """Investigate, then fix, hold for approval or page, as the finding and scope allow."""
    await alerts(shift, subject)
    diag = await diagnose(shift, subject)
    r = shift.report
    wants_fix = bool(re.search(r"\b(fix|handle|resolve|repair|mitigate)\b", shift.low))
    if diag.kind == "uncertain":
        r.status = "escalated: root cause not confirmed"
        r.next_steps.append(
            "No speculative change was made: a restart or config change without a "
            "confirmed cause could hide the signal and is not justified."
        )
        r.page.append(
            f"Paging the owner of {subject} (and the upstream it calls): {'; '.join(diag.summary)}. "
            "Confidence in any single cause is low; a human with access to the upstream's side is "
            "needed before any change is made."
        )
        return
    if not wants_fix or not diag.fix:
        r.status = (
            "diagnosed; no change requested" if not wants_fix else "diagnosed; fix needs owner"
        )
        if diag.fix:
            r.next_steps.append(
                f"Recommended fix (not applied, only a diagnosis was asked): {diag.fix_text}"
            )
        return
    held = needs_approval(shift)
    if held or diag.risky:
        reason = held or diag.risky
        r.status = "awaiting approval: fix prepared, not applied"
        r.plan.append(f"{diag.fix_text} (prepared, not applied)")
        r.plan.append(
            "Verify pods become Ready and the symptom clears; roll back the change if not."
        )
        r.page.append(
            f"Approval requested before any write: {reason}. Recommended action: "
            f"{diag.fix_text}. Reply 'approved' to have it applied; nothing has been changed yet."
        )
        return
    await apply_fix(shift, subject, diag)


async def apply_fix(shift: Shift, subject: str, diag: Diagnosis) -> None:
    """The diagnosis's minimal fix, then a check that it took."""
    r = shift.report
    for command, why, change in diag.fix:
        out = await shift.kubectl(command, why, change)
        r.done.append(
            f"`kubectl {command}` was run: {change} ({out.strip().splitlines()[0] if out.strip() else 'ok'})."
        )
    await verify(shift, subject)


async def verify(shift: Shift, subject: str) -> None:
    """Post-change health: rollout status (a deployment) and the subject's pods."""
    r = shift.report
    if subject in shift.deployments:
        out = await shift.kubectl(
            f"rollout status deployment/{subject} -n {shift.ns} --timeout=120s",
            "verify the change rolled out",
        )
        r.done.append(
            f"Rollout was checked: {out.strip().splitlines()[-1] if out.strip() else 'no output'}."
        )
    pods = await shift.json(f"get pods -n {shift.ns}", "verify the workload's pods are healthy")
    mine = subject_pods(subject, {p["metadata"]["name"]: p for p in pods.get("items", [])})
    ready = [n for n, p in mine.items() if _ready(p)]
    r.done.append(
        f"Recovery was verified: {len(ready)}/{len(mine)} {subject} pod(s) Ready "
        f"({', '.join(sorted(mine)) or 'none'})."
    )
    r.status = "resolved" if mine and len(ready) == len(mine) else "mitigated; still watching"


def _ready(pod: dict[str, Any]) -> bool:
    statuses = pod.get("status", {}).get("containerStatuses") or []
    return bool(statuses) and all(s.get("ready") for s in statuses)


def cpu_fit(allocatable: list[int], request: int) -> int:
    """A CPU request (millicores) that fits the biggest node with 25% headroom."""
    biggest = max(allocatable or [request])
    return min(request, int(biggest * 0.75) // 100 * 100)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


__all__ = ["cpu_fit", "dumps", "needs_approval", "to_millicores", "verify", "work"]
