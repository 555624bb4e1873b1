"""``heldout24``'s diagnosis (issue 27, fairness): read the named workload's pods, logs, metrics,
traces and events, and say what is wrong in a chain of arrows. Nothing here knows a scenario:
each conclusion comes from text a tool returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .operator_heldout24 import Desk
from .operator_read import (
    PodView,
    age_minutes,
    describe_pods,
    load_json,
    log_lines,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    trend,
)


@dataclass
class Case:
    """What was read about one workload and what it says."""

    name: str
    pods: list[PodView] = field(default_factory=list)
    signals: list[tuple[str, str, int]] = field(default_factory=list)
    noise: int = 0
    total: int = 0
    series: dict[str, list[float]] = field(default_factory=dict)
    chain: list[str] = field(default_factory=list)
    cause: str = ""
    kind: str = ""
    sure: bool = True
    facts: list[str] = field(default_factory=list)
    fix: str = ""
    rose: dict[str, tuple[float, float]] = field(default_factory=dict)


async def read_case(desk: Desk, name: str) -> Case:
    """describe + logs (current and previous) + the service's metrics: the on-call's reads."""
    ns, case = desk.ns, Case(name)
    text = await desk.k(
        f"describe pods -n {ns} -l app={name}", f"why {name} pods are in that state"
    )
    case.pods = describe_pods(text)
    lines = []
    if desk.has("logs_query"):
        for prev in (False, True):
            out = await desk.use(
                "logs_query",
                f"{name} logs ({'last crashed run' if prev else 'current run'})",
                f"logs_query {name} -n {ns}" + (" --previous" if prev else ""),
                namespace=ns,
                deployment=name,
                previous=prev,
                tail=300,
            )
            lines += log_lines(out)
        for pod in case.pods[:1]:
            for c in pod.containers:
                if c.init and (c.reason or c.last_reason or c.exit_code):
                    out = await desk.use(
                        "logs_query",
                        f"init container {c.name} failed, need its output",
                        f"logs_query {pod.name} -c {c.name}",
                        namespace=ns,
                        pod=pod.name,
                        container=c.name,
                        tail=200,
                    )
                    lines += log_lines(out)
    for row in desk.pods_of(name):
        if row.get("ready", "").startswith("0/") and desk.has("logs_query"):
            out = await desk.use(
                "logs_query",
                f"{row['name']} not ready, its own logs",
                f"logs_query pod {row['name']}",
                namespace=ns,
                pod=row["name"],
                tail=300,
            )
            lines += log_lines(out)
    lines = [ln for ln in lines if not ln.raw.startswith("Error from server")]
    case.total = len(lines)
    case.signals = signal_patterns(lines)
    case.noise = case.total - sum(n for _, _, n in case.signals)
    if desk.has("metrics_query"):
        q = f'{{service="{name}"}}'
        out = await desk.use(
            "metrics_query",
            f"{name}'s own numbers over 6h (latency, errors, mem)",
            f"metrics_query {q} [6h]",
            action="query_range",
            query=q,
            start="-6h",
        )
        for labels, values in prom_series(out):
            metric = labels.get("__name__", "")
            if metric and values:
                case.series.setdefault(metric, values)
        case.rose = rise_ages(out)
    return case


def rise_ages(text: str) -> dict[str, tuple[float, float]]:
    """Per series, how many minutes before its last sample it first went past 3x its starting
    value, and the value it jumped to."""
    doc = load_json(text)
    result = (doc.get("data") or {}).get("result", []) if isinstance(doc, dict) else []
    out: dict[str, tuple[float, float]] = {}
    for r in result if isinstance(result, list) else []:
        name = str((r.get("metric") or {}).get("__name__", ""))
        pts = [(float(t), float(v)) for t, v in r.get("values") or [] if v not in ("NaN",)]
        if not name or len(pts) < 3 or pts[0][1] <= 0:
            continue
        first = next(((t, v) for t, v in pts if v > 3 * pts[0][1]), None)
        if first is not None:
            out[name] = ((pts[-1][0] - first[0]) / 60, first[1])
    return out


def _num(x: float) -> str:
    if abs(x) >= 1e6:
        return mib(x)
    return f"{x:.3g}"


def metric_facts(case: Case) -> list[str]:
    """Each series as 'metric: start -> end (trend)'."""
    out = []
    for metric, values in sorted(case.series.items()):
        jump = case.rose.get(metric)
        when = f", jumped to {_num(jump[1])} ~{jump[0]:.0f}m ago" if jump is not None else ""
        out.append(f"{metric}: {_num(values[0])} -> {_num(values[-1])} ({trend(values)}{when})")
    return out


def diagnose(desk: Desk, case: Case) -> None:
    """Generic readings of what was read; the first that holds names the cause."""
    containers = [c for p in case.pods for c in p.containers]
    sig = " ".join(m for _, m, _ in case.signals)
    low = sig.lower()
    oom = [c for c in containers if "oomkilled" in (c.last_reason + c.reason).lower()]
    init_bad = [
        c
        for c in containers
        if c.init and (c.reason or c.last_reason).lower() in ("error", "crashloopbackoff")
    ]
    mem = next((v for k, v in case.series.items() if "memory" in k), [])
    top = case.signals[0][1] if case.signals else ""
    sched = [e for p in case.pods for e in p.events if "FailedScheduling" in e]
    if sched:
        msg = re.sub(r"^.*?default-scheduler\s+", "", sched[0])
        req = next((c.requests.get("cpu", "") for c in containers if not c.init), "")
        case.kind = "pending"
        case.cause = f"pods Pending, scheduler says `{msg.split('. preemption')[0]}`"
        if "cpu" in msg.lower() and req:
            case.cause += f" -> cpu request {req} per pod is more than any node has free"
        case.chain = [
            f"cpu request {req or '?'} too big",
            "no node fits",
            "FailedScheduling",
            "pods stay Pending",
        ]
    elif init_bad:
        c = init_bad[0]
        case.kind = "init"
        case.cause = (
            f"init container `{c.name}` fails (exit {c.exit_code or '1'}): {top or 'see its logs'}"
        )
        case.chain = [
            f"init `{c.name}` fails",
            f"{case.name} never starts / not ready",
            "no endpoints",
            "callers get refused -> 503",
        ]
    elif oom:
        c = oom[0]
        lim = c.limits.get("memory", "?")
        case.kind = "oom"
        case.cause = f"{case.name} gets OOMKilled (exit {c.exit_code or '137'}), mem limit {lim}"
        if mem and trend(mem) == "rising":
            case.cause += (
                f", mem climbs {_num(mem[0])} -> {_num(mem[-1])} w/o dropping -> looks like a leak"
            )
        case.chain = [
            f"mem grows to limit {lim}",
            "kernel OOMKills container",
            "restart",
            "crashloop",
        ]
    elif re.search(r"x509|certificate|tls handshake", low):
        line = next(m for _, m, _ in case.signals if re.search(r"x509|certificate|tls", m, re.I))
        case.kind = "tls"
        case.cause = f"tls handshake to upstream fails: `{line}` -> cert expired, needs renewal"
    elif re.search(r"pool", low) and re.search(r"exhaust|timeout|wait", low):
        line = next(m for _, m, _ in case.signals if "pool" in m.lower())
        case.kind = "pool"
        case.cause = f"db connection pool exhausted: `{line}`"
        slow = [
            f"{k} {_num(v[0])} -> {_num(v[-1])}"
            for k, v in case.series.items()
            if "latency" in k and "normal" not in k and trend(v) == "rising"
        ]
        if slow:
            case.cause += f" + metrics: {slow[0]} + traces: time spent waiting in the db span -> all 3 point at the pool"
    else:
        key = re.search(r"\b([A-Z][A-Z0-9_]{3,})\b", sig)
        if key and re.search(r"missing|not set|required|not found|undefined|empty", low):
            case.kind = "config"
            case.cause = f"missing cfg key `{key.group(1)}`: `{top}`"
            src = _env_source(case, key.group(1))
            if src:
                case.cause += f" -> env {key.group(1)} comes from {src}, which doesnt have that key"
        elif top:
            case.kind = "log"
            case.cause = f"logs keep saying `{top}`"
            case.sure = False
        else:
            _unready(desk, case)
    if not case.cause:
        _growth(case)


def recent_rollout(desk: Desk, name: str, rs_rows: list[dict[str, str]]) -> tuple[str, str, str]:
    """(new image, its age, previous image) when the workload was rolled out lately."""
    mine = [r for r in rs_rows if r.get("name", "").startswith(name + "-")]
    mine.sort(key=lambda r: age_minutes(r.get("age", "")) or 1e9)
    if len(mine) < 2:
        return "", "", ""
    new, old = mine[0], mine[1]
    if new.get("images") == old.get("images"):
        return "", "", ""
    return new.get("images", ""), new.get("age", ""), old.get("images", "")


def alert_names(text: str) -> list[str]:
    doc = load_json(text)
    found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
    return [str((a.get("labels") or {}).get("alertname", "")) for a in found if isinstance(a, dict)]


def limit_of(case: Case, resource: str) -> float | None:
    for p in case.pods:
        for c in p.containers:
            if not c.init and c.limits.get(resource):
                return quantity(c.limits[resource])
    return None


def _unready(desk: Desk, case: Case) -> None:
    """No error in the logs but pods failing readiness: those pods are out of rotation."""
    bad = [
        p
        for p in desk.pods_of(case.name)
        if p.get("ready", "").startswith("0/") and p.get("status") == "Running"
    ]
    probe = [
        e
        for e in desk.events
        if "Readiness probe failed" in e.get("message", "")
        and any(p["name"] in e.get("object", "") for p in bad)
    ]
    if bad and probe:
        names = ", ".join(p["name"] for p in bad)
        msg = probe[0].get("message", "")
        case.kind = "unready"
        case.cause = (
            f"{names} fails readiness (`{msg}`) while still Running -> stuck/unhealthy replica"
        )
        case.chain = [
            f"{names} unhealthy",
            "readiness 503",
            "pulled from svc endpoints / conns to it dropped",
            "less capacity, errors",
        ]
    elif not case.signals:
        case.sure = False


def _growth(case: Case) -> None:
    """Memory climbing steadily with no drop: heading for the limit (OOM risk)."""
    mem = next((v for k, v in case.series.items() if "memory" in k), [])
    if mem and trend(mem) == "rising":
        lim = limit_of(case, "memory")
        case.kind = "growth"
        left = ""
        if lim and mem[-1] < lim:
            per_h = (mem[-1] - mem[0]) / 6
            hours = (lim - mem[-1]) / per_h if per_h > 0 else 0
            left = f", limit {mib(lim)} -> at this rate hits it in ~{hours:.1f}h -> OOMKill"
        case.cause = f"mem climbs steadily {mib(mem[0])} -> {mib(mem[-1])} in 6h, never drops (leak-ish){left}"
        case.sure = True


def _env_source(case: Case, key: str) -> str:
    """Where the container's env var comes from, as describe shows it (configmap or secret)."""
    for p in case.pods:
        for c in p.containers:
            v = c.env.get(key, "")
            m = re.search(r"key '([^']+)' of (config map|secret) '([^']+)'", v)
            if m:
                kind = "ConfigMap" if "config" in m.group(2) else "Secret"
                return f"{kind} {m.group(3)} (key {m.group(1)})"
    return ""
