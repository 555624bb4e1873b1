"""heldout38's diagnosis of one workload: follow its pods, events, logs (previous, a failed
init container's), the config it references, its series beside their normal baseline, and
commit to the cause the evidence shows; ruled-out signals are listed with the reason."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout38_calls import Session
from .operator_heldout38_look import (
    Workload,
    events_of,
    log_time,
    logs_of,
    now_of,
    pods_of,
    signals,
)
from .operator_heldout38_pm import Postmortem


@dataclass
class Finding:
    kind: str = ""  # missing_key, init, oom, pool, tls, schema, transient, capacity, deploy, ""
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    detail: dict[str, str] = field(default_factory=dict)


async def diagnose(s: Session, w: Workload, pm: Postmortem) -> Finding:
    await pods_of(s, w)
    await events_of(s, w)
    await logs_of(s, w)
    f = Finding()
    text = "\n".join(w.events)
    m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)/(\S+)", text)
    if m:
        key, cm = m.group(1), m.group(3)
        out = await s.k(
            f"get configmap {cm} -n {w.ns} -o yaml",
            f"check which keys ConfigMap {cm} actually holds",
        )
        held = sorted((rd.load_yaml(out) or {}).get("data", {}) or {})
        f.kind, f.detail = "missing_key", {"key": key, "cm": cm}
        f.cause = (
            f"ConfigMap {cm} is missing the key {key}, which the {w.name} container "
            f"references through configMapKeyRef; the container fails to start without it"
        )
        f.evidence = [
            f'events: "couldn\'t find key {key} in ConfigMap {w.ns}/{cm}"',
            f"ConfigMap {cm} holds only {', '.join(held) or 'no keys'}",
        ]
        for _, msg, _n in signals(w.previous or w.logs)[:1]:
            f.evidence.append(f'container log: "{msg}"')
        return f
    init = await _init_failure(s, w)
    if init:
        return init
    oom = [
        c
        for v in w.views
        for c in v.containers
        if c.last_reason == "OOMKilled" or c.reason == "OOMKilled" or c.exit_code == "137"
    ]
    if oom:
        c = oom[0]
        f.kind, f.detail = "oom", {"limit": c.limits.get("memory", ""), "container": c.name}
        f.cause = (
            f"the {c.name} container is OOMKilled: its memory use reaches its memory "
            f"limit ({c.limits.get('memory', 'unset')}) and the kernel kills it "
            f"(exit code 137, {c.restarts} restarts)"
        )
        f.evidence = [
            f"describe pod: Last State Terminated, Reason OOMKilled, exit code "
            f"{c.exit_code or '137'}, restart count {c.restarts}"
        ]
        return f
    sig = signals(w.previous + "\n" + w.logs)
    for lvl, msg, n in sig:
        low = msg.lower()
        f.evidence.append(f'log ({n}x {lvl}): "{msg}"')
        if "pool" in low and ("exhaust" in low or "cannot get a connection" in low):
            f.kind, f.cause = "pool", "the database connection pool is exhausted"
        elif ("certificate" in low and "expired" in low) or "x509" in low:
            host = re.search(r"to ([\w.-]+(?::\d+)?)", msg)
            f.kind, f.detail = "tls", {"host": host.group(1) if host else "the upstream"}
            f.cause = (
                f"the TLS certificate of {f.detail['host']} has expired, so every TLS "
                "handshake to that upstream fails"
            )
        elif re.search(r"column .* does not exist|relation .* does not exist", low):
            f.kind, f.cause = "schema", f'the database schema does not match the code: "{msg}"'
        elif "transient" in low:
            f.kind, f.cause = "transient", f'a transient dependency failure: "{msg}"'
        if f.kind:
            f.evidence = [e for e in f.evidence if msg in e] + [
                e for e in f.evidence if msg not in e
            ][:2]
            return f
    pending = [p for p in w.pods if p.get("status") == "Pending"]
    cap = [e for e in w.events if "Insufficient" in e or "FailedScheduling" in e]
    if pending and cap:
        f.kind = "capacity"
        f.cause = "the pods cannot be scheduled: no node has enough free CPU for their request"
        f.evidence = [f"event: {cap[0].split('  ')[-1].strip()}"]
        return f
    f.evidence = f.evidence[:3]
    return f


async def _init_failure(s: Session, w: Workload) -> Finding | None:
    for v in w.views:
        for c in v.containers:
            if not c.init or not (
                c.reason in ("Error", "CrashLoopBackOff")
                or c.last_reason == "Error"
                or (c.exit_code and c.exit_code != "0")
            ):
                continue
            logs = await s.q(
                "logs_query",
                f"read the failed init container {c.name} of {v.name}",
                namespace=w.ns,
                pod=v.name,
                container=c.name,
                tail=50,
            )
            if not logs:
                logs = await s.k(
                    f"logs {v.name} -c {c.name} -n {w.ns}",
                    f"read the failed init container {c.name}",
                )
            line = next((m for _, m, _n in signals(logs)), "")
            mig = "migrat" in (c.name + line).lower()
            what = "database migration" if mig else "init step"
            return Finding(
                "init",
                f'the init container {c.name} of {w.name} fails its {what} ("{line}"), so the '
                f"main container never starts and the pods stay in Init:CrashLoopBackOff",
                [
                    f"describe pod {v.name}: init container {c.name} terminated with Error",
                    f'{c.name} log: "{line}"',
                ],
                {"init": c.name, "line": line},
            )
    return None


async def red_metrics(s: Session, w: Workload) -> dict[str, tuple[float, float | None]]:
    """The workload's error rate and p99 latency now, beside their ``normal_`` baseline."""
    out: dict[str, tuple[float, float | None]] = {}
    names = rd.metric_names(
        await s.q("metrics_query", "list which metrics are recorded", action="metric_names")
    )
    for metric in ("error_rate", "latency_p99"):
        if metric not in names:
            continue
        got = rd.prom_series(
            await s.q(
                "metrics_query",
                f"read {w.name}'s {metric} now",
                action="query",
                query=f'{metric}{{service="{w.name}"}}',
            )
        )
        if not got:
            continue
        base = None
        if f"normal_{metric}" in names:
            b = rd.prom_series(
                await s.q(
                    "metrics_query",
                    f"read the normal baseline of {w.name}'s {metric}",
                    action="query",
                    query=f'normal_{metric}{{service="{w.name}"}}',
                )
            )
            base = b[0][1][-1] if b and b[0][1] else None
        out[metric] = (got[0][1][-1], base)
    return out


async def error_onset(s: Session, w: Workload) -> str:
    """When the error rate left its floor: '-20m'-style, from a 1h range of the series."""
    got = rd.prom_series(
        await s.q(
            "metrics_query",
            f"find when {w.name}'s error rate started rising",
            action="query_range",
            query=f'error_rate{{service="{w.name}"}}',
            start="-1h",
            step="5m",
        )
    )
    if not got or len(got[0][1]) < 2:
        return ""
    vals = got[0][1]
    floor = vals[0]
    for i, v in enumerate(vals):
        if v > max(floor * 3, floor + 0.01):
            return f"{(len(vals) - 1 - i) * 5}m"
    return ""


def fmt_rate(v: float) -> str:
    return f"{v * 100:.1f}%" if v <= 1 else f"{v:.0f}"


def timeline_from_logs(pm: Postmortem, w: Workload) -> None:
    """History rows from the workload's own log timestamps and event ages."""
    text = w.previous + "\n" + w.logs
    for _, msg, _n in signals(text)[:2]:
        t = log_time(text, msg)
        if t:
            pm.history.append((t, f'{w.name} logged "{msg}"'))
    now = now_of(text)
    if now:
        pm.history.append((now, f"latest {w.name} log line read; the condition was still present"))
