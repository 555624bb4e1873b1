"""heldout44's differential (session 36, written blind): candidate causes, each for and against.

Each candidate is a cause a clinician would consider for the presenting complaint; the reads
decide its status. A cause with direct evidence is "confirmed"; one the reads speak against is
"ruled out by <the read>"; one nothing decides stays "not excluded" and the note says so.
The diagnosis is the one confirmed cause (or the most likely one, with its confidence).
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout44_chart import Chart, Dx
from .operator_heldout44_exam import Facts, figure


def _all_signals(f: Facts) -> list[tuple[str, str, int]]:
    out = list(f.signals) + list(f.previous)
    for lines in f.init_logs.values():
        out += lines
    return out


def _said(f: Facts, *needles: str) -> list[str]:
    """Signal lines holding any of the needles, as quoted evidence."""
    hits = []
    for lvl, msg, n in _all_signals(f):
        if any(x in msg.lower() for x in needles):
            q = f'"{lvl}: {msg}"' + (f" x{n}" if n > 1 else "")
            if q not in hits:
                hits.append(q)
    return hits[:2]


def config_dx(f: Facts) -> Dx:
    dx = Dx("a missing configuration key")
    if f.missing:
        for cm, key in f.missing:
            dx.for_.append(f"the pod template reads key {key} of ConfigMap {cm}; {cm} has no {key}")
        dx.for_ += _said(f, "not set", "missing", "required")
        dx.status = "confirmed"
        cm, key = f.missing[0]
        dx.cause = f"ConfigMap {cm} is missing key {key}, which {f.name} requires at start"
    elif f.configmaps:
        dx.against.append(
            "every key the pod reads is present in " + ", ".join(sorted(f.configmaps))
        )
        dx.status = "ruled out by the config map read"
    else:
        dx.against.append("the pod template reads no config map key")
        dx.status = "ruled out by the spec read"
    return dx


def oom_dx(f: Facts) -> Dx:
    dx = Dx("OOM kill (memory limit reached)")
    c = f.container()
    limit = (c.get("resources", {}).get("limits") or {}).get("memory")
    killed = [
        x
        for x in (f.worst.containers if f.worst else [])
        if x.last_reason == "OOMKilled" or x.exit_code == "137" or x.reason == "OOMKilled"
    ]
    mem = f.series.get("container_memory_working_set_bytes")
    if killed:
        x = killed[0]
        dx.for_.append(
            f"container {x.name} last terminated OOMKilled, exit code 137, {x.restarts} restarts"
        )
        if limit:
            dx.for_.append(f"memory limit {limit}")
        if mem:
            dx.for_.append(
                f"working set {figure('bytes', mem[0])} -> {figure('bytes', mem[-1])} ({rd.trend(mem)})"
            )
        dx.status = "confirmed"
        dx.cause = f"{f.name} is OOMKilled: its memory reaches the {limit or 'container'} limit"
    else:
        dx.against.append("no container last terminated OOMKilled (no exit code 137)")
        dx.status = "ruled out by the describe"
    return dx


def rollout_dx(f: Facts, chart: Chart, onset: str = "") -> Dx:
    dx = Dx("a recent rollout (new version)")
    rs = f.replicasets
    new_age = rd.age_minutes(rs[0].get("age", "")) if rs else None
    if rs and len(rs) > 1 and new_age is not None and new_age <= 120:
        dx.for_.append(
            f"{rs[0].get('images', 'the new image')} rolled out {rs[0].get('age')} ago, "
            f"replacing {rs[1].get('images', 'the previous image')}"
        )
        if onset:
            dx.for_.append(onset)
        dx.status = "likely"
        dx.cause = f"the rollout of {rs[0].get('images', 'a new version')} {rs[0].get('age')} ago"
    else:
        age = rs[0].get("age") if rs else "?"
        dx.against.append(f"the running replica set is {age} old, nothing newer")
        dx.status = "ruled out by the replica-set history"
    return dx


def pool_dx(f: Facts) -> Dx:
    dx = Dx("database connection pool exhaustion")
    said = _said(f, "pool exhausted", "cannot get a connection", "pool error")
    spans = [s for s in f.spans if "db.pool" in s.attrs]
    if said:
        dx.for_ += said
    for s in spans:
        act = re.search(r"db\.pool\.active[=:]\s*(\d+)", s.attrs)
        mx = re.search(r"db\.pool\.max[=:]\s*(\d+)", s.attrs)
        if act and mx:
            dx.for_.append(
                f"trace: span {s.operation} {s.ms:.0f}ms with db.pool.active={act[1]} of db.pool.max={mx[1]}"
            )
    lat = {k: v for k, v in f.series.items() if "latency" in k and not k.startswith("normal_")}
    for k, v in lat.items():
        base = f.series.get("normal_" + k)
        dx.for_.append(
            f"{k} {figure(k, v[-1])}" + (f" against a normal {figure(k, base[-1])}" if base else "")
        )
    if said or spans:
        dx.status = "confirmed"
        dx.cause = f"{f.name}'s database connection pool is exhausted"
    else:
        dx.against.append("no pool or connection error in the logs, no pool attribute on a span")
        dx.status = "ruled out by the logs"
    return dx


def init_dx(f: Facts) -> Dx:
    dx = Dx("a failed init container")
    bad = [c for c in (f.worst.containers if f.worst else []) if c.init and c.name in f.init_logs]
    if bad:
        c = bad[0]
        dx.for_.append(f"init container {c.name} terminated Error (exit code {c.exit_code or '1'})")
        dx.for_ += [f'"{lvl}: {m}"' for lvl, m, _ in f.init_logs[c.name][:1]]
        dx.status = "confirmed"
        line = f.init_logs[c.name][0][1] if f.init_logs[c.name] else "an error"
        dx.cause = f"init container {c.name} of {f.name} fails ({line}), so {f.name} never starts"
    else:
        dx.against.append("no init container of the workload failed")
        dx.status = "ruled out by the describe"
    return dx


def tls_dx(f: Facts) -> Dx:
    dx = Dx("an expired TLS certificate upstream")
    said = _said(f, "certificate", "x509", "tls handshake")
    if said:
        dx.for_ += said
        dx.status = "confirmed"
        up = re.search(r"to ([\w.\-]+:\d+)", said[0])
        dx.cause = f"the TLS certificate of upstream {up[1] if up else 'the upstream'} has expired; handshakes from {f.name} fail"
    else:
        dx.against.append("no TLS or certificate line in the logs")
        dx.status = "ruled out by the logs"
    return dx


def schema_dx(f: Facts, migration: str) -> Dx:
    dx = Dx("schema mismatch after the last migration")
    said = _said(f, "does not exist", "column", "relation")
    if said:
        dx.for_ += said
        if migration:
            dx.for_.append(migration)
        dx.status = "confirmed"
        dx.cause = f"{f.name} fails on the schema the last migration left ({said[0]})"
    else:
        dx.against.append("no schema error in the logs")
        dx.status = "ruled out by the logs"
    return dx


def crash_dx(f: Facts) -> Dx:
    """A crash whose log names a transient dependency failure."""
    dx = Dx("a transient dependency failure at start")
    said = _said(f, "refused", "transient", "timeout", "unavailable")
    if said:
        dx.for_ += said
        dx.status = "confirmed" if any("transient" in s.lower() for s in said) else "likely"
        dx.cause = f"{f.name} crashes on a transient dependency error ({said[0]})"
    else:
        dx.against.append("no dependency error in the logs")
        dx.status = "ruled out by the logs"
    return dx


def settle(chart: Chart, ddx: list[Dx]) -> None:
    """The diagnosis: the confirmed cause, else the likely one; confidence said plainly."""
    order = {"confirmed": 0, "likely": 1}
    ddx.sort(key=lambda d: order.get(d.status, 2))
    chart.ddx = ddx
    top = ddx[0] if ddx else None
    if top and top.status == "confirmed":
        chart.diagnosis = top.cause
        chart.confidence = "high: direct evidence, every alternative ruled out by a read"
    elif top and top.status == "likely":
        chart.diagnosis = top.cause
        chart.confidence = "moderate: the timing fits and nothing else in the reads explains it"
    else:
        chart.diagnosis = ""
        chart.confidence = "low: no candidate is confirmed by what I read"
