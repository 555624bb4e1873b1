"""heldout27's routing: what the request asks (decline, inform, change, diagnose and fix),
decided from its words and from what the namespace holds."""

from __future__ import annotations

import re

from . import operator_heldout27_guard as guard
from .operator_heldout27 import Ticket
from .operator_heldout27_change import (
    configmap_change,
    restart,
    scale,
    target_replicas,
    wanted_keys,
)
from .operator_heldout27_diag import Fix, chain, crash, memory_trend
from .operator_heldout27_gitops import image_change
from .operator_heldout27_info import (
    dashboards,
    network,
    ownership,
    runbook,
    schema,
    trace,
    uncertain,
)
from .operator_heldout27_look import View, alerts, context, owner, production, workloads
from .operator_heldout27_plans import (
    canary,
    high_availability,
    rollout_in_flight,
    scale_for_load,
)
from .operator_heldout27_read import configmap_info, env_dump
from .operator_heldout27_signals import cpu_red_herring, health, latency, recent_change

_FIX = re.compile(r"\b(fix|handle|resolve|sort (it|this) out|remediate|repair|mitigate)\b")


async def route(t: Ticket) -> None:
    v = View()
    for check in (guard.credentials, guard.zone_config, guard.secrets):
        if await check(t, v):
            return
    await context(t, v)
    await guard.bypass(t, v)
    if await guard.other_namespace(t, v) or await guard.delete(t, v):
        return
    if (t.has("dashboards") and not t.has("kubectl")) or "dashboard" in t.low:
        await dashboards(t, v)
        return
    if re.search(r"who (should|do|owns)|loop in|owner|contact|escalat", t.low):
        await workloads(t, v)
        await ownership(t, v)
        return
    await workloads(t, v)
    if re.search(r"\benv(ironment)? ?var|\benv\b", t.low):
        await env_dump(t, v)
        return
    cm = next((c for c in re.findall(r"([a-z0-9-]+) configmap", t.low) if c != "the"), "")
    if cm and re.search(r"\bwhat\b|tell me|show", t.low) and not wanted_keys(t.prompt):
        await configmap_info(t, v, cm)
        return
    if await _change(t, v):
        return
    await _investigate(t, v)


async def _change(t: Ticket, v: View) -> bool:
    low, focus = t.low, v.focus
    if t.read_only and re.search(
        r"\b(set|scale|increase|restart|update|patch|change|enable|apply)\b", low
    ):
        return False  # diagnose and raise a CR instead (see _investigate)
    keys = wanted_keys(t.prompt)
    target = target_replicas(low)
    if "canary" in low and focus:
        await canary(t, v, min(focus, key=len))
        return True
    if re.search(r"highly available|high availability|survive node", low) and focus:
        await high_availability(t, v, focus[0])
        return True
    if re.search(r"rolling update|continue the rollout|rollout of", low) and focus:
        await rollout_in_flight(t, v, focus[0])
        return True
    m = re.search(r"image(?: tag)?\s+(v?[\w.-]+)|tag\s+(v[\w.-]+)", t.prompt)
    if m and focus:
        await image_change(t, v, focus[0], next(g for g in m.groups() if g).rstrip("."))
        return True
    m = re.search(r"(\d+(?:\.\d+)?)x\b|\b(double|twice)\b", low)
    if m and focus and re.search(r"load|traffic|capacity", low):
        await scale_for_load(t, v, focus[0], float(m.group(1) or 2))
        return True
    if keys:
        await configmap_change(t, v, keys)
        if target is not None and focus and t.status == "Resolved":
            await scale(t, v, focus[0], target)
            t.summary = f"Done: {', '.join(f'{k}={x}' for k, x in keys.items())} set, {focus[0]} scaled to {target}."
        return True
    if target is not None and focus:
        if production(v):
            t.notes.append(
                "Production: capacity checked first; the change is a replica count only, reversible with one command."
            )
        await scale(t, v, focus[0], target)
        return True
    if re.search(r"\brestart\b", low) and not re.search(r"keeps? restarting|restarts", low):
        return await _restart(t, v)
    return False


async def _restart(t: Ticket, v: View) -> bool:
    if not v.focus:
        word = re.search(r"restart (?:the )?([a-z0-9-]+)", t.low)
        stem = word.group(1) if word else ""
        hits = [
            d.get("name", "")
            for d in v.deployments
            if stem and (stem in d.get("name", "") or f"={stem}" in d.get("selector", ""))
        ]
        t.summary = (
            f"Restart of '{stem} pods' held: {len(hits)} deployments match, I need to know which."
        )
        t.cause("N/A: request is ambiguous; a restart of every match would hit unrelated services.")
        if hits:
            t.quote(f"kubectl get deployments -n {t.ns} -o wide", "matching: " + ", ".join(hits))
        t.status = "Pending information; nothing restarted"
        t.step(
            f"Please say which of {', '.join(hits) or 'the deployments'} you mean (and what 'stuck' looks like)."
        )
        return True
    for name in v.focus:
        ok = await restart(t, name, "operator asked for a restart")
        t.summary = f"{name} restarted" + (
            " and healthy." if ok else ", but the rollout did not complete."
        )
        t.status = "Resolved" if ok else "In progress: rollout not healthy"
    return True


async def _investigate(t: Ticket, v: View) -> None:
    firing = await alerts(t, v)
    for a in firing:
        t.quote(
            "metrics_query alerts",
            f"{a.get('labels', {}).get('alertname')}: {a.get('annotations', {}).get('summary', '')}",
        )
    if "runbook" in t.low:
        await runbook(t, v)
        return
    if re.search(r"\btrace\b", t.low) and t.has("traces_query"):
        await trace(t, v)
        return
    if re.search(r"reach|network|connect(ion)? refused|can't talk", t.low):
        await network(t, v)
        return
    if "migration" in t.low:
        await schema(t, v)
        return
    fix = Fix()
    for name in [*v.focus, *v.bare][:2]:
        fix = await crash(t, v, name)
        if fix.kind and fix.kind != "logs":
            break
    if fix.kind in ("", "logs") and re.search(r"50[234]|public|ingress", t.low) and not v.focus:
        fix = await _chain(t, v) or fix
    recent = (
        fix.kind in ("", "logs") and v.focus and re.search(r"error|spik|fail|going on|broke", t.low)
    )
    if recent and await recent_change(t, v, v.focus[0]):
        fix = Fix("rollback", v.focus[0])
    if re.search(r"slow|latenc", t.low) and v.focus:
        await latency(t, v, v.focus[0])
        _correlate(t, fix)
    if re.search(r"how is|doing|worry|health", t.low) and v.focus:
        await health(t, v, v.focus[0])
        alert = next((a for a in firing if a.get("labels", {}).get("service") == v.focus[0]), None)
        if alert:
            t.trigger = f"alert: {alert.get('labels', {}).get('alertname')}"
        await memory_trend(t, v, v.focus[0])
        t.trigger = "operator request"
    if re.search(r"cpu", t.low) and fix.kind == "memory":
        await cpu_red_herring(t, v)
    await _after_alerts(t, v, firing)
    t.trigger = "operator request"
    await _conclude(t, v, fix)


async def _chain(t: Ticket, v: View) -> Fix | None:
    found = await chain(t, v)
    broken = [b for b in found if ": " not in b]
    proxy = next((b for b in found if ": " in b), "")
    if not broken:
        return None
    backing = [
        d.get("name", "")
        for d in v.deployments
        if broken[0].startswith(d.get("name", "")) or d.get("name", "").startswith(broken[0])
    ]
    fix = None
    for name in backing[:1]:
        fix = await crash(t, v, name)
        t.cause(
            "Failure chain: ingress -> "
            + (f"mesh sidecar ({proxy.split(': ', 1)[1]}) -> " if proxy else "")
            + f"service {broken[0]} (no ready endpoints, so the ingress answers 503) "
            f"-> {name} pods not Ready -> the cause above."
        )
    return fix


async def _after_alerts(t: Ticket, v: View, before: list[dict]) -> None:
    """An alert that fired while I worked is its own trigger: looked at, and logged as such."""
    now = await alerts(t, v)
    seen = {a.get("labels", {}).get("alertname") for a in before}
    for a in now:
        name = a.get("labels", {}).get("alertname", "")
        if name in seen:
            continue
        t.trigger = f"alert: {name}"
        svc = a.get("labels", {}).get("service") or (v.focus[0] if v.focus else "")
        t.quote(
            "metrics_query alerts",
            f"{name} fired during the check: {a.get('annotations', {}).get('summary', '')}",
        )
        if svc:
            await memory_trend(t, v, svc)
        t.notes.append(
            f"Alert {name} fired mid-check; the reads after it are logged with trigger 'alert: {name}'."
        )
        t.trigger = "operator request"


async def _conclude(t: Ticket, v: View, fix: Fix) -> None:
    from .operator_heldout27_fix import apply_fix

    asked = bool(_FIX.search(t.low))
    if fix.kind == "logs" and _foreign_upstream(t, v, fix.detail):
        return
    if (not fix.kind and not t.rca) or (fix.kind == "logs" and not t.rca):
        await uncertain(t, v, fix.detail)
        return
    if not fix.kind:
        t.summary = t.summary or t.rca[0]
        t.status = t.status if t.status != "In progress" else "Diagnosed; no change made"
        return
    if fix.kind == "schema":
        await schema(t, v)
        return
    await apply_fix(t, v, fix, asked)
    if not t.summary:
        t.summary = t.rca[0] if t.rca else "Checked; see RCA."
    if owner(v) and t.status.startswith("Awaiting"):
        t.step(f"Escalation path: {owner(v)}.")


def _foreign_upstream(t: Ticket, v: View, line: str) -> bool:
    """The failing call goes to a service in a namespace outside my zone: stop at the boundary."""
    m = re.search(r"([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?", line)
    spaces = t.task.scope.get("namespaces") or []
    if not m or m.group(2) in spaces:
        return False
    svc, ns = m.group(1), m.group(2)
    name = v.focus[0] if v.focus else "the workload"
    t.cause(
        f"{name} itself is healthy; its upstream {svc} in namespace {ns} refuses connections, so {name} "
        f"answers 502. The fault is in {ns}, outside my zone ({', '.join(t.zones)})."
    )
    t.summary = f"{name}'s 502s come from its upstream {svc} in namespace {ns}: outside my zone, so I stopped at the boundary and am escalating."
    t.notes.append(
        f"I did not query or change anything in {ns}: it is not in my scope ({', '.join(spaces)}). Restarting {name} would not help."
    )
    t.status = "Escalated to the owner of the upstream; no change made"
    t.step(
        f"Owners/on-call of namespace {ns}: check {svc}'s pods and endpoints (connection refused on :8080)."
    )
    return True


def _correlate(t: Ticket, fix: Fix) -> None:
    """Slowness explained once the metrics, logs and traces each show the same cause."""
    seen = {
        "metrics": next((q for c, q in t.evidence if c.startswith("metrics_query")), ""),
        "logs": next((q for c, q in t.evidence if c.startswith("logs_query")), ""),
        "traces": next((q for c, q in t.evidence if c.startswith("traces_query")), ""),
    }
    got = {k: q for k, q in seen.items() if q}
    if fix.kind and len(got) >= 2:
        t.cause(
            f"The {len(got)} signals agree on it: "
            + "; ".join(f"{k}: {q}" for k, q in got.items())
            + "."
        )
