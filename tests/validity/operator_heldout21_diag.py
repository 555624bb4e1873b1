"""``heldout21``'s diagnosis (issue 27): gather the subject's signals, then name the cause the
evidence supports, with what was read quoted as evidence and the alternatives ruled out.
General Kubernetes reasoning on what the tools returned; no scenario is known here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout21 import Desk
from .operator_heldout21_look import (
    Scene,
    events_about,
    firing_alerts,
    log_signal,
    logs,
    pod_views,
    pods_of,
    service_metrics,
)
from .operator_read import PodView, bottleneck, load_json, mib, quantity, trace_tree, trend


@dataclass
class Signals:
    """What was read about one workload."""

    name: str
    pods: list[dict[str, str]] = field(default_factory=list)
    views: list[PodView] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    log_patterns: list[tuple[str, str, int]] = field(default_factory=list)
    log_signal: int = 0
    log_total: int = 0
    init_log: list[tuple[str, str, int]] = field(default_factory=list)
    metrics: dict[str, list[float]] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    trace: str = ""
    slow_span: str = ""

    def last_reasons(self) -> list[str]:
        return [c.last_reason or c.reason for v in self.views for c in v.containers]

    def failed_init(self) -> list[str]:
        return sorted(
            {
                c.name
                for v in self.views
                for c in v.containers
                if c.init
                and (c.state != "Terminated" or c.reason not in ("Completed", ""))
                and (c.reason or c.last_reason) not in ("Completed",)
            }
        )


async def gather(desk: Desk, scene: Scene, name: str) -> Signals:
    """The subject's pods, events, describe, logs (current, previous, failing init), metrics,
    alerts and slow traces."""
    s = Signals(name, pods_of(scene, name))
    s.events = events_about(scene, name)
    s.views = await pod_views(desk, name)
    current = await logs(desk, name)
    s.log_patterns, s.log_signal, s.log_total = log_signal(current)
    restarted = any((num_restarts(p) or 0) > 0 for p in s.pods)
    if restarted or any("Back-off" in e or "BackOff" in e for e in s.events):
        prev, n, _ = log_signal(await logs(desk, name, previous=True))
        s.log_patterns += [p for p in prev if p not in s.log_patterns]
        s.log_signal += n
    for init in s.failed_init():
        s.init_log = log_signal(await logs(desk, name, container=init))[0]
    s.metrics = await service_metrics(desk, name)
    s.alerts = await firing_alerts(desk, f"to see whether anything is alerting about {name}")
    if desk.has("traces_query"):
        await read_traces(desk, s)
    return s


def num_restarts(pod: dict[str, str]) -> int | None:
    m = re.match(r"\d+", pod.get("restarts", ""))
    return int(m.group(0)) if m else None


async def read_traces(desk: Desk, s: Signals) -> None:
    doc = load_json(
        await desk.use(
            "traces_query",
            f"to find {s.name}'s slowest requests",
            f"traces_query search {s.name}",
            action="search",
            service=s.name,
        )
    )
    found = doc.get("data", []) if isinstance(doc, dict) else []
    if not found:
        return
    slowest = max(
        found, key=lambda t: float(re.sub(r"[^\d.]", "", str(t.get("duration", "0"))) or 0)
    )
    await walk_trace(desk, s, str(slowest.get("traceID", "")))


async def walk_trace(desk: Desk, s: Signals, trace_id: str) -> None:
    text = await desk.use(
        "traces_query",
        f"to walk trace {trace_id} span by span",
        f"traces_query get {trace_id}",
        action="get",
        trace_id=trace_id,
    )
    path, slow = bottleneck(trace_tree(text))
    if slow:
        s.trace = " -> ".join(f"{p.service} {p.operation} ({p.ms:.0f} ms)" for p in path)
        s.slow_span = f"{slow.service} {slow.operation} {slow.ms:.0f} ms" + (
            f" [{slow.attrs}]" if slow.attrs else ""
        )


def metric(s: Signals, *words: str) -> tuple[str, list[float]] | None:
    for key in sorted(s.metrics):
        if all(w in key.lower() for w in words):
            return key, s.metrics[key]
    return None


def diagnose(desk: Desk, s: Signals) -> bool:
    """Fill the report's root cause from the first cause the evidence supports; False when
    nothing read supports one cause."""
    r = desk.report
    for rule in (
        _missing_key,
        _init_failure,
        _oom,
        _pool,
        _tls,
        _scheduling,
        _crash_generic,
        _memory_risk,
        _unready,
    ):
        if rule(desk, s):
            return True
    r.confidence = 0.3
    return False


def _missing_key(desk: Desk, s: Signals) -> bool:
    for e in s.events:
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", e)
        if m:
            key, cm = m.group(1), m.group(2)
            r = desk.report
            r.statement = (
                f"{s.name} crashes at start because its pod spec reads key {key} from ConfigMap "
                f"{cm}, and that key is missing from the ConfigMap"
            )
            r.confidence = 0.95
            r.cite(f"event: {e}")
            r.extra["missing_config_key"] = {"configmap": cm, "key": key}
            r.next_steps.append(
                f"add {key} to ConfigMap {cm} with the right value, then restart {s.name}"
            )
            return True
    return False


def _init_failure(desk: Desk, s: Signals) -> bool:
    bad = s.failed_init()
    if not bad:
        return False
    r = desk.report
    first = s.init_log[0][1] if s.init_log else ""
    r.statement = (
        f"{s.name}'s init container {bad[0]} fails"
        + (f" ({first})" if first else "")
        + f", so {s.name}'s main container never starts and {s.name} has no ready endpoints"
    )
    r.confidence = 0.9
    for lvl, msg, n in s.init_log[:3]:
        r.cite(f"{bad[0]} log: {lvl}: {msg}" + (f" (x{n})" if n > 1 else ""))
    for v in s.views[:1]:
        for c in v.containers:
            if c.init:
                r.cite(
                    f"pod {v.name} init container {c.name}: {c.state} {c.reason or c.last_reason} exit code {c.exit_code}".strip()
                )
    return True


def _oom(desk: Desk, s: Signals) -> bool:
    reasons = s.last_reasons()
    if "OOMKilled" not in reasons:
        return False
    r = desk.report
    limit = next(
        (
            c.limits.get("memory", "")
            for v in s.views
            for c in v.containers
            if not c.init and c.limits.get("memory")
        ),
        "",
    )
    mem = metric(s, "memory")
    growth = mem is not None and trend(mem[1]) == "rising"
    cause = (
        "a memory leak: usage climbs steadily until it hits the limit"
        if growth
        else "its memory limit is too low for its working set"
    )
    r.statement = (
        f"{s.name} is OOMKilled (exit code 137)"
        + (f" against its {limit} memory limit" if limit else "")
        + f": {cause}"
    )
    r.confidence = 0.9
    restarts = sum(num_restarts(p) or 0 for p in s.pods)
    r.cite(
        f"describe pods: last state Terminated, reason OOMKilled, {restarts} restarts across {len(s.pods)} pods"
    )
    if limit:
        r.cite(f"memory limit {limit}")
    if mem:
        r.cite(
            f"{mem[0].split(',')[0]} went from {mib(mem[1][0])} to {mib(mem[1][-1])} over the last 6h ({trend(mem[1])})"
        )
    r.extra["oom"] = {
        "memory_limit": limit or None,
        "memory_trend": trend(mem[1]) if mem else "not read",
    }
    return True


def _pool(desk: Desk, s: Signals) -> bool:
    hits = [(lvl, m, n) for lvl, m, n in s.log_patterns if re.search(r"pool", m, re.I)]
    if not hits:
        return False
    r = desk.report
    r.statement = f"{s.name}'s database connection pool is exhausted: requests wait for a free connection, so latency climbs and some fail"
    r.confidence = 0.9
    for lvl, m, n in hits[:2]:
        r.cite(f"log: {lvl}: {m}" + (f" (x{n})" if n > 1 else ""))
    lat = metric(s, "p99") or metric(s, "latency")
    if lat:
        r.cite(f"metric {lat[0].split(',')[0]}: {lat[1][-1]:g} now")
        base = metric(s, "normal")
        if base:
            r.cite(f"metric {base[0].split(',')[0]}: {base[1][-1]:g}")
    if s.slow_span:
        r.cite(f"trace: {s.trace}; slowest span {s.slow_span}")
    r.extra["signals_correlated"] = [
        "metrics: p99 latency",
        "logs: pool exhausted",
        "traces: slow db span",
    ]
    return True


def _tls(desk: Desk, s: Signals) -> bool:
    hits = [
        (lvl, m, n)
        for lvl, m, n in s.log_patterns
        if re.search(r"tls|x509|certificate|handshake", m, re.I)
    ]
    if not hits:
        return False
    r = desk.report
    expired = any(re.search(r"expired|not after|notafter", m, re.I) for _, m, _ in hits)
    upstream = (
        re.search(r"(?:upstream|to|host)[= ]\"?([\w.-]+\.[\w.-]+|[\w-]+:\d+)", hits[0][1])
        or [None, ""]
    )[1]
    r.statement = (
        f"{s.name}'s TLS handshakes to its upstream {upstream or ''} fail: "
        + ("the upstream's certificate has expired" if expired else "the certificate is rejected")
    ).replace("  ", " ")
    r.confidence = 0.9 if expired else 0.7
    for lvl, m, n in hits[:2]:
        r.cite(f"log: {lvl}: {m} (x{n})")
    noise = s.log_total - s.log_signal
    r.extra["log_breakdown"] = {
        "lines_read": s.log_total,
        "noise_lines": noise,
        "signal_lines": s.log_signal,
        "noise": "health checks and debug lines, filtered out",
    }
    return True


def _scheduling(desk: Desk, s: Signals) -> bool:
    msgs = [e for e in s.events if "FailedScheduling" in e or "Insufficient" in e]
    for v in s.views:
        msgs += [e for e in v.events if "FailedScheduling" in e or "Insufficient" in e]
    if not msgs:
        return False
    r = desk.report
    r.statement = f"{s.name}'s pods stay Pending because the scheduler cannot place them: {msgs[0].split(': ', 1)[-1]}"
    r.confidence = 0.85
    r.cite(msgs[0])
    return True


def _crash_generic(desk: Desk, s: Signals) -> bool:
    errors = [p for p in s.log_patterns if p[0] in ("FATAL", "PANIC", "CRITICAL", "ERROR")]
    if not errors or not any("CrashLoop" in (p.get("status") or "") for p in s.pods):
        return False
    r = desk.report
    r.statement = f"{s.name} exits at start with: {errors[0][1]}"
    r.confidence = 0.75
    r.cite(f"log: {errors[0][0]}: {errors[0][1]}")
    return True


def limit_of(s: Signals, kind: str = "memory") -> float | None:
    for v in s.views:
        for c in v.containers:
            if not c.init and c.limits.get(kind):
                return quantity(c.limits[kind])
    return None


def _memory_risk(desk: Desk, s: Signals) -> bool:
    """Memory climbing steadily toward the limit: an OOM kill ahead, with a time to it."""
    mem = metric(s, "memory")
    limit = limit_of(s)
    if not mem or trend(mem[1]) != "rising":
        return False
    values = mem[1]
    per_hour = (values[-1] - values[0]) / 6
    r = desk.report
    lim = limit or 0.0
    used = values[-1] / lim if lim else None
    hours = (lim - values[-1]) / per_hour if lim and per_hour > 0 and lim > values[-1] else 0.0
    urgency = "high" if hours < 2 else "medium" if hours < 12 else "low"
    r.statement = (
        f"{s.name}'s memory is climbing steadily, {mib(values[0])} -> {mib(values[-1])} over 6h "
        f"(about {mib(per_hour)} an hour)"
        + (
            f", now {used:.0%} of its {mib(lim)} limit: it will be OOMKilled in about {hours:.1f} h at this rate"
            if used
            else ": a leak that ends in an OOM kill"
        )
    )
    r.confidence = 0.85
    r.cite(
        f"{mem[0].split(',')[0]} for {s.name}: {mib(values[0])} six hours ago, {mib(values[-1])} now, rising at every sample"
    )
    if lim:
        r.cite(f"memory limit {mib(lim)}")
    r.extra["memory_trend"] = {
        "trend": "steadily increasing",
        "start": mib(values[0]),
        "now": mib(values[-1]),
        "growth_per_hour": mib(per_hour),
        "limit": mib(lim) if lim else None,
        "percent_of_limit": round(used, 2) if used else None,
        "hours_to_oom": round(hours, 1) if lim else None,
        "oom_risk": "yes",
        "urgency": urgency,
    }
    r.next_steps += [
        f"capture a heap profile of {s.name} to find the leak",
        "as a stopgap, raise the memory limit or schedule a restart before it reaches the limit",
    ]
    return True


def _unready(desk: Desk, s: Signals) -> bool:
    """Pods that run but fail their readiness probe: out of rotation, capacity lost."""
    failing = [e for e in s.events if "Readiness probe failed" in e]
    if not failing:
        return False
    unready = [
        p.get("name", "")
        for p in s.pods
        if p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
    ]
    r = desk.report
    r.statement = (
        f"{len(unready)} of {len(s.pods)} {s.name} pods ({', '.join(unready)}) run but fail their readiness "
        "probe (HTTP 503), so they are out of the Service's rotation and the rest carry all the traffic"
    )
    r.confidence = 0.7
    r.cite(f"event: {failing[0]}")
    for p in s.pods:
        r.cite(
            f"pod {p.get('name')}: {p.get('status')} ready {p.get('ready')} restarts {p.get('restarts')}"
        )
    r.extra["unready_pods"] = unready
    return True
