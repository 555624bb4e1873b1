"""heldout36's diagnosis: one cause committed to when the evidence shows it (a high
percentage), the alternatives it ruled out with a low one and the reason, or an honest "we
don't know yet" when nothing holds.
"""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .operator_heldout36_calls import Session
from .operator_heldout36_look import Workload, signal
from .operator_heldout36_record import Record

_MISSING_KEY = re.compile(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)")


def _c(w: Workload) -> list[rd.Container]:
    return [c for p in w.pods for c in p.containers]


async def missing_key(s: Session, w: Workload, rec: Record) -> bool:
    """CLBO because the env references a cm key that is not there (events, then the cm)."""
    m = next((m for e in w.events if (m := _MISSING_KEY.search(e))), None)
    key = cm = ""
    if m:
        key, cm = m.group(1), m.group(3)
    else:
        for c in w.containers:
            for e in c.get("env") or []:
                ref = ((e.get("valueFrom") or {}).get("configMapKeyRef")) or {}
                if ref.get("name"):
                    cm, key = ref["name"], ref.get("key", "")
    if not cm:
        return False
    doc = rd.items(await s.k(f"get cm {cm} -n {w.ns} -o yaml", f"does cm {cm} hold {key}?"))
    data = (doc[0].get("data") or {}) if doc else {}
    if key in data:
        return False
    have = ", ".join(sorted(data)) or "nothing"
    rec.add(
        f"{w.name} is in CLBO because its container reads env {key} from cm `{cm}` and "
        f"key `{key}` is missing from that cm, so the container cannot start.",
        [
            f"events on {w.name}'s pods: \"couldn't find key {key} in ConfigMap {w.ns}/{cm}\" ({w.refs.get('events')})",
            f"deploy env {key} <- configMapKeyRef {cm}/{key} ({w.refs.get('spec')})",
            f"cm `{cm}` holds only {have} ({s.ref()})",
        ],
        95,
        f"add `{key}` to cm `{cm}` with the value the owning team expects; the pods pick it up on their next restart.",
    )
    return True


def oom(w: Workload) -> rd.Container | None:
    return next(
        (
            c
            for c in _c(w)
            if not c.init and ("OOMKilled" in (c.last_reason, c.reason) or c.exit_code == "137")
        ),
        None,
    )


async def memory_trend(s: Session, w: Workload) -> tuple[str, list[float], str]:
    if not s.has("metrics_query"):
        return "", [], ""
    q = f'sum(container_memory_working_set_bytes{{namespace="{w.ns}",pod=~"{w.name}.*"}})'
    got = rd.prom_series(
        await s.call(
            "metrics_query",
            f"{w.name}'s memory over 6h: leak or spike?",
            action="query_range",
            query=q,
            start="-6h",
        )
    )
    vals = got[0][1] if got else []
    return rd.trend(vals), vals, s.ref()


async def oom_finding(s: Session, w: Workload, rec: Record) -> bool:
    c = oom(w)
    if c is None:
        return False
    limit = c.limits.get("memory", "")
    trend, vals, ref = await memory_trend(s, w)
    ev = [
        f"container {c.name}: last state Terminated, reason OOMKilled, exit 137, {c.restarts} restarts ({w.refs.get('describe')})",
        f"memory limit {limit or 'not set'} ({w.refs.get('spec')})",
    ]
    if vals:
        ev.append(
            f"working set {trend} from {rd.mib(vals[0])} to {rd.mib(vals[-1])} over 6h ({ref})"
        )
    leak = (
        " and its memory climbs steadily until the kernel kills it (a leak pattern)"
        if trend == "rising"
        else ""
    )
    rec.add(
        f"{w.name} restarts because the container is OOM'd: it hits its {limit or ''} memory limit{leak}.".replace(
            "  ", " "
        ),
        ev,
        92,
        f"raise the memory limit of {w.name} (e.g. {limit} -> {_double(limit)}) as a stopgap and have the owners profile the leak.",
    )
    if re.search(r"\bcpu\b", s.prompt, re.I):
        await cpu_decoy(s, w, rec)
    return True


def _double(q: str) -> str:
    m = re.fullmatch(r"(\d+)(\w*)", q or "")
    return f"{int(m.group(1)) * 2}{m.group(2)}" if m else "a higher value"


async def cpu_decoy(s: Session, w: Workload, rec: Record) -> None:
    """The node CPU the request asks about: real, but not why this pod restarts."""
    node = w.pods[0].node if w.pods else ""
    top = await s.k(f"top pods -n {w.ns}", "who uses the CPU on the node?")
    ref = s.ref()
    rows = rd.table(top)
    hog = max(rows, key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    who = hog.get("name", "another pod")
    rec.add(
        f"The pegged node CPU{' on ' + node if node else ''} is NOT the cause of the restarts; it is a noisy neighbour ({who}).",
        [
            f"`kubectl top pods`: {who} is the top CPU user ({hog.get('cpu(cores)', '?')}) ({ref})",
            "CPU saturation throttles a container, it does not kill it: the exit is OOMKilled/137, a memory kill",
        ],
        10,
        f"optional: move or limit {who} if latency matters; it does not explain the restarts.",
    )


async def init_failure(s: Session, w: Workload, rec: Record) -> bool:
    for name, lines in w.init_logs.items():
        pats = signal(lines)
        if not pats:
            continue
        lvl, msg, _ = pats[0]
        rec.add(
            f'init container `{name}` of {w.name} fails: "{msg}", so the app container never starts, the pods are never Ready and svc {w.name} has no endpoints.',
            [
                f"init container {name} terminated Error ({w.refs.get('describe')})",
                f"its log: {lvl}: {msg} ({w.refs.get('init')})",
            ],
            93,
            f"have the owners of the migration fix `{name}` (the migration must be made idempotent / repaired in the db); the pods recover once it exits 0.",
        )
        return True
    return False


def log_cause(w: Workload) -> tuple[str, str, int] | None:
    pats = signal(w.logs + w.prev_logs)
    return pats[0] if pats else None


_KINDS = (
    (
        r"pool exhausted|pool error|cannot get a connection",
        "the DB connection pool is exhausted",
        "raise the pool size or find what holds connections (slow queries, leaks) with the owners; watch the pool and p99 recover",
    ),
    (
        r"certificate (has )?expired|x509|tls handshake",
        "an expired TLS certificate on the upstream",
        "renew the upstream's certificate (its owner / cert-manager) and confirm the handshakes succeed again",
    ),
    (
        r"does not exist|no such column|relation .* exists",
        "the schema does not match the code",
        "align the code and the schema with the owners (this needs a decision, not a restart)",
    ),
    (
        r"connection refused|reset by peer|timeout",
        "an upstream dependency refuses/resets connections",
        "",
    ),
)


def kind_of(msg: str) -> str:
    return next((k for pat, k, _ in _KINDS if re.search(pat, msg, re.I)), "")


def advice(msg: str) -> str:
    return (
        next((a for pat, _, a in _KINDS if re.search(pat, msg, re.I)), "")
        or "work the error above with the owners"
    )


async def pending(s: Session, w: Workload, rec: Record) -> bool:
    ev = next((e for e in w.events if "FailedScheduling" in e or "Insufficient" in e), "")
    if not ev:
        return False
    req: dict[str, str] = next(
        (c.get("resources", {}).get("requests", {}) for c in w.containers), {}
    )
    nodes = await s.k("describe nodes", "node allocatable vs requested CPU")
    ref = s.ref()
    alloc = re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", nodes)
    rec.add(
        f"{w.name} pods are Pending: the scheduler finds no node with enough free CPU for the request of {req.get('cpu', '?')} per pod.",
        [
            f"event: {' '.join(ev.split()[3:])[:160]} ({w.refs.get('events')})",
            f"pod CPU request {req.get('cpu', '?')} ({w.refs.get('spec')}); node allocatable cpu {', '.join(alloc[:3]) or '?'} ({ref})",
        ],
        90,
        "lower the CPU request to what the pods use, or add node capacity.",
    )
    return True


def series_jump(
    series: dict[str, tuple[str, list[float]]], name: str
) -> tuple[float, float, str] | None:
    cur = series.get(name)
    base = series.get(f"normal_{name}")
    if not cur:
        return None
    now = cur[1][-1]
    was = base[1][-1] if base else cur[1][0]
    return now, was, cur[0] + (f", {base[0]}" if base else "")


async def slow_span(s: Session, name: str) -> tuple[str, Any] | None:
    if not s.has("traces_query"):
        return None
    found = rd.load_json(
        await s.call(
            "traces_query",
            f"slow traces of {name}",
            action="search",
            service=name,
            min_duration="1s",
        )
    )
    data = (found or {}).get("data") if isinstance(found, dict) else None
    if not data:
        return None
    tid = data[0].get("traceID")
    spans = rd.trace_tree(
        await s.call("traces_query", "the slowest trace's span tree", action="get", trace_id=tid)
    )
    _, leaf = rd.bottleneck(spans)
    return (s.ref(), leaf) if leaf else None


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 10 else f"{x:g}"


async def from_logs(s: Session, w: Workload, rec: Record, series: dict[str, Any]) -> bool:
    """A signal pattern in the workload's own logs, tied to its metrics and a trace."""
    top = log_cause(w)
    if not top:
        return False
    lvl, msg, n = top
    kind = kind_of(msg)
    if kind.startswith("an upstream"):
        return False
    lines = w.logs + w.prev_logs
    noise = sum(1 for ln in lines if not ln.signal)
    ev = [
        f'{w.name}\'s logs: {n}x "{lvl}: {msg}" ({w.refs.get("prev") or w.refs.get("logs")})',
        f"we filtered out {noise} of {len(lines)} lines as noise (INFO/DEBUG: health checks, request traces)",
    ]
    others = [p for p in signal(w.logs + w.prev_logs)[1:3]]
    for ol, om, on in others:
        ev.append(f'also {on}x "{ol}: {om}"')
    tie = ""
    for m in ("p99_latency_ms", "error_rate"):
        j = series_jump(series, m)
        if j:
            now, was, ref = j
            ev.append(f"`{m}` {fmt(now)} vs {fmt(was)} normal ({ref})")
            tie += (
                f" Requests waiting on it are why `{m}` is {fmt(now)} against a normal {fmt(was)}."
            )
    span = await slow_span(s, w.name)
    if span:
        ref, leaf = span
        ev.append(
            f"trace: span `{leaf.operation}` ({leaf.service}) takes {fmt(leaf.ms)} ms [{leaf.attrs}] ({ref})"
        )
        tie += (
            f" The trace shows the same: `{leaf.operation}` holds {fmt(leaf.ms)} ms of the request."
        )
    cause = kind or f'the error "{msg}"'
    rec.add(
        f"{w.name}'s problem is {cause}: the logs show it repeatedly.{tie}",
        ev,
        90 if kind else 70,
        advice(msg),
    )
    return True
