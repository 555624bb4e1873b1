"""``heldout23``'s verdict: which cause the evidence supports, which it rules out, what to do.

Causes are checked from the most direct evidence (a container's own termination reason, an
event naming a missing key, a failed init container) to the indirect (a log pattern, a metric
off its baseline, a rollout just before the rise). When nothing explains the symptom, it says
so and escalates instead of changing anything.
"""

from __future__ import annotations

import re

from .operator_heldout23 import Desk
from .operator_heldout23_cause import Facts, limit_bytes, mem_trend
from .operator_heldout23_look import Seen
from .operator_read import mib


def _wants_fix(desk: Desk) -> bool:
    return re.search(r"\bfix\b|\bhandle\b|\bresolve\b|\bmitigate\b", desk.low) is not None


def _series(f: Facts, *names: str) -> tuple[str, list[float]]:
    ser = f.sig.get("series", {})
    for n in names:
        if ser.get(n):
            return n, ser[n]
    return "", []


def _pct(v: float) -> str:
    return f"{v * 100:g}%"


async def verdict(desk: Desk, s: Seen, focus: list[str], facts: list[Facts]) -> None:
    from . import operator_heldout23_fix as fix

    if not facts:
        desk.status = "nothing found"
        desk.cause.append("I found no workload matching the request in scope.")
        desk.followups.append("Tell me which workload you mean; nothing in scope matches.")
        return
    f = next((x for x in facts if x.policies), facts[0])
    _metrics_rows(desk, f)
    _log_rows(desk, f)
    for check in (
        _missing_key,
        _init,
        _oom,
        _pending,
        _policy,
        _pool,
        _tls,
        _schema,
        _deploy,
        _memory_growth,
        _transient,
        _unready,
    ):
        kind = check(desk, s, f)
        if kind:
            desk.status = "root cause found"
            if _wants_fix(desk):
                await fix.apply(desk, s, f, kind)
            else:
                desk.followups.append("Say the word and I will apply the fix above.")
            return
    if not re.search(
        r"error|fail|slow|5\d\d|crash|broken|issue|degrad|drop|down|restart|spik", desk.low
    ):
        _healthy(desk, s, f)
        return
    _uncertain(desk, s, f)
    if _wants_fix(desk):
        await fix.escalate_uncertain(desk, s, f)


def _metrics_rows(desk: Desk, f: Facts) -> None:
    ser = f.sig.get("series", {})
    for metric, values in sorted(ser.items()):
        if metric.startswith("normal_"):
            continue
        base = ser.get(f"normal_{metric}")
        line = f"`{metric}` now {_fmt(metric, values[-1])}, 6h ago {_fmt(metric, values[0])}"
        if base:
            line += f", normal {_fmt(metric, base[-1])}"
        desk.see("metrics (6h)", line)


def _fmt(metric: str, v: float) -> str:
    if "bytes" in metric:
        return mib(v)
    if metric.endswith("_ms") or "latency" in metric:
        return f"{v:g}ms"
    if "error" in metric and v <= 1:
        return _pct(v)
    return f"{v:g}"


def _log_rows(desk: Desk, f: Facts) -> None:
    sigs = f.sig.get("signals", [])
    for level, msg, n in sigs[:4]:
        desk.see(f"logs of `{f.name}`", f"{n}× {level}: {msg}")
    text = f.sig.get("logs") or f.sig.get("prev") or ""
    for line in text.splitlines():
        body = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", line)
        if re.match(r"(ERROR|WARN|FATAL)", body) and body not in desk.excerpt:
            desk.excerpt.append(body)


def _missing_key(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.missing_key:
        return ""
    key, cm = f.missing_key
    desk.impact.append(f"`{f.name}` has no running pod: every pod is in CrashLoopBackOff.")
    desk.cause.append(
        f"**The ConfigMap `{cm}` has no key `{key}`.** `{f.name}` reads `{key}` from `{cm}` "
        f"(configMapKeyRef), so its container cannot start and the pods crash-loop."
    )
    desk.weigh(
        f"missing key `{key}` in ConfigMap `{cm}`",
        "confirmed",
        "event `couldn't find key`; ConfigMap read",
    )
    desk.weigh(
        "bad image or code crash",
        "ruled out",
        "the container never starts; the kubelet fails on the env",
    )
    desk.followups.append(
        f"Add `{key}` to `{cm}` with the right value (ask the service owner), then restart `{f.name}`."
    )
    return "missing_key"


def _init(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.init_fail:
        return ""
    name, msg = f.init_fail
    desk.impact.append(
        f"`{f.name}` has no ready pod, so its Service has no endpoints and the edge returns 503."
    )
    desk.cause.append(
        f"**The init container `{name}` of `{f.name}` fails:** `{msg}`. The main container never "
        f"starts, the pod stays in Init:CrashLoopBackOff, the Service `{f.name}` has no ready "
        f"endpoints, and the ingress answers 503."
    )
    if desk.chain_proxy:
        desk.cause.append(
            f"Path: ingress → `{desk.chain_proxy}` (connection failure to the upstream) → Service "
            f"`{f.name}` (no endpoints) → pod of `{f.name}` (init container `{name}` failing)."
        )
    desk.weigh(f"init container `{name}` failing", "confirmed", msg)
    desk.weigh(
        "ingress or service misconfigured",
        "ruled out",
        "the route is right; it has no endpoints behind it",
    )
    desk.followups.append(
        f"Fix the migration in `{name}` (make it idempotent) with the owning team, then roll out."
    )
    return "init"


def _oom(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.oom:
        return ""
    _metric, values = _series(f, "container_memory_working_set_bytes")
    first, last, rising = mem_trend(values)
    limit = limit_bytes(f.limit)
    desk.impact.append(f"`{f.name}` restarts again and again; requests fail while it is down.")
    line = f"**`{f.name}` is OOMKilled:** the container hits its `{f.limit}` memory limit and the kernel kills it."
    if values:
        line += f" Memory went from {mib(first)} to {mib(last)}" + (
            " and only grows." if rising else "."
        )
    desk.cause.append(line)
    desk.weigh(
        "memory limit too low for the workload (OOMKilled)",
        "confirmed",
        f"last state OOMKilled, limit {f.limit}",
    )
    if f.node_cpu:
        hot = max(f.node_cpu, key=lambda n: f.node_cpu[n])
        nodes = {p.node for p in f.pods}
        on = ", ".join(sorted(nodes)) or "another node"
        verdict = "ruled out" if hot not in nodes else "unlikely"
        desk.weigh(
            f"node CPU saturation on {hot} ({f.node_cpu[hot] * 100:.0f}%)",
            verdict,
            f"`{f.name}` runs on {on}; CPU throttling slows a pod, it does not kill it. The kill reason is OOMKilled",
        )
        desk.cause.append(
            f"The pegged CPU on {hot} is a red herring: it does not restart `{f.name}`, which runs on {on}."
        )
    if limit and values:
        desk.see("memory vs limit", f"{mib(last)} used of {mib(limit)} ({last / limit * 100:.0f}%)")
    return "oom"


def _pending(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.unschedulable:
        return ""
    desk.impact.append(f"`{f.name}` pods are Pending: none was scheduled, so no work runs.")
    desk.cause.append(
        f"**The scheduler cannot place `{f.name}`:** {f.unschedulable.split('. preemption')[0]}. "
        f"Each pod requests `{f.requests_cpu}` CPU, more than any node has free."
    )
    desk.weigh(
        "CPU request larger than free node capacity", "confirmed", f.unschedulable.split(".")[0]
    )
    desk.weigh("node down or cordoned", "ruled out", "all nodes are Ready")
    return "pending"


def _policy(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.policies:
        return ""
    pol = f.policies[0]
    name = pol["metadata"]["name"]
    allowed = [
        (p.get("podSelector") or {}).get("matchLabels", {})
        for rule in (pol.get("spec", {}).get("ingress") or [])
        for p in (rule.get("from") or [])
    ]
    shown = [", ".join(f"{k}={v}" for k, v in sorted(a.items())) for a in allowed]
    desk.see(
        f"NetworkPolicy `{name}`",
        f"podSelector `app={f.name}`; ingress allowed only from pods {', '.join(f'`{x}`' for x in shown) or 'none'}",
    )
    desk.impact.append(f"Traffic to `{f.name}` from other pods is dropped.")
    desk.cause.append(
        f"**The NetworkPolicy `{name}` blocks the traffic.** It selects `app={f.name}` and only "
        f"allows ingress from {', '.join(f'`{x}`' for x in shown) or 'nobody'}; the caller is not on that list."
    )
    desk.weigh(
        f"NetworkPolicy `{name}`", "confirmed", f"ingress only from {', '.join(shown) or 'nobody'}"
    )
    desk.weigh(f"`{f.name}` down", "ruled out", "its pod is Running and Ready")
    return "policy"


def _sig(f: Facts, pattern: str) -> tuple[str, int]:
    for _, msg, n in f.sig.get("signals", []):
        if re.search(pattern, msg, re.I):
            return msg, n
    return "", 0


def _pool(desk: Desk, s: Seen, f: Facts) -> str:
    msg, _n = _sig(f, r"pool (exhausted|error)|cannot get a connection")
    if not msg:
        return ""
    metric, values = _series(f, "p99_latency_ms", "latency_p99")
    base = f.sig.get("series", {}).get(f"normal_{metric}") if metric else None
    line = f"**The database connection pool of `{f.name}` is exhausted.** Requests wait for a free connection."
    desk.cause.append(line)
    parts = [f"logs: `{msg}`"]
    if values:
        parts.append(
            f"metrics: p99 latency {values[-1]:g}ms vs a normal {base[-1] if base else 0:g}ms"
        )
    pool = [ln for ln in f.trace if "pool" in ln or "db." in ln]
    if pool:
        parts.append(f"trace: {pool[-1].strip(' │├└─')}")
    desk.cause.append("Three signals agree: " + "; ".join(parts) + ".")
    desk.impact.append(
        f"`{f.name}` is slow"
        + (f": p99 {values[-1]:g}ms instead of about {base[-1]:g}ms." if values and base else ".")
    )
    desk.weigh("DB connection pool exhausted", "confirmed", "; ".join(parts))
    desk.weigh("CPU or memory pressure on the pod", "ruled out", "pods are Running, no restarts")
    desk.followups.append(
        "Find what holds connections (slow queries, leaks) and size the pool with the DB owner."
    )
    return "pool"


def _tls(desk: Desk, s: Seen, f: Facts) -> str:
    msg, n = _sig(f, r"certificate (has )?expired|x509|tls handshake")
    if not msg:
        return ""
    m = re.search(r"connecting to (\S+?):?(\d+)?:", msg)
    target = m.group(1) if m else "the upstream"
    noise = f.sig.get("noise", 0)
    desk.impact.append(
        f"Requests from `{f.name}` to `{target}` fail; the rest succeed, so it looks intermittent."
    )
    desk.cause.append(
        f"**The TLS certificate of `{target}` has expired.** `{f.name}` fails the handshake each time it "
        f"calls it: {n} × `{msg}`."
    )
    desk.cause.append(
        f"I set aside {noise} DEBUG/TRACE/INFO lines (health checks, request traces, pool stats): they are routine."
    )
    desk.weigh("expired upstream certificate", "confirmed", f"{n} identical ERROR lines")
    desk.weigh("connection pool pressure", "ruled out", "pool stats show free connections")
    desk.followups.append(
        f"Renew the certificate of `{target}` (owner of that service), then confirm the errors stop."
    )
    return "tls"


def _schema(desk: Desk, s: Seen, f: Facts) -> str:
    msg, _n = _sig(f, r"column .* does not exist|relation .* does not exist|undefined column")
    if not msg:
        return ""
    last = f.migrations[-1] if f.migrations else {}
    desk.impact.append(f"`{f.name}` is down: it crashes on a query against the schema.")
    line = f"**`{f.name}` and the database schema disagree:** `{msg}`."
    if last:
        line += f" The last migration is {last['version']} `{last['what']}`, applied {last['on']}."
    desk.cause.append(line)
    desk.weigh("schema change by the last migration", "confirmed", msg)
    desk.weigh("pod resources", "ruled out", "the crash is a SQL error, not a kill")
    return "schema"


def _deploy(desk: Desk, s: Seen, f: Facts) -> str:
    _metric, values = _series(f, "error_rate", "http_error_rate")
    nullish, _ = _sig(f, r"exception|panic|nullpointer|traceback")
    if len(f.revisions) < 2 or not (values or nullish):
        return ""
    old, new = f.images
    line = f"**The rollout of `{new}` is the likely cause.** It replaced `{old}`"
    if values:
        line += f"; the error rate went from {_pct(values[0])} to {_pct(values[-1])} after it"
    if nullish:
        line += f"; the new version logs `{nullish}`"
    desk.cause.append(line + ".")
    desk.impact.append(
        f"`{f.name}` fails a share of requests" + (f": {_pct(values[-1])} now." if values else ".")
    )
    desk.weigh(f"bad release `{new}`", "confirmed", "rise starts with the rollout")
    desk.weigh(
        "traffic spike or dependency outage", "unlikely", "no other warning in logs or events"
    )
    desk.followups.append(
        f"Roll back to `{old}` (`kubectl rollout undo deployment/{f.name} -n {s.ns}`) if you agree; open a bug for `{new}`."
    )
    return "deploy"


def _memory_growth(desk: Desk, s: Seen, f: Facts) -> str:
    _metric, values = _series(f, "container_memory_working_set_bytes")
    first, last, rising = mem_trend(values)
    limit = limit_bytes(f.limit)
    if not rising or not limit:
        return ""
    rate = (last - first) / 6
    hours = (limit - last) / rate if rate > 0 else 0
    desk.impact.append(f"No outage yet. `{f.name}` is healthy now but heading for an OOM kill.")
    desk.cause.append(
        f"**Memory of `{f.name}` grows steadily:** {mib(first)} six hours ago, {mib(last)} now, "
        f"against a `{f.limit}` limit ({last / limit * 100:.0f}% used). At about {mib(rate)}/h it "
        f"reaches the limit in roughly {hours:.1f}h and the container will be OOMKilled. This looks like a leak."
    )
    desk.weigh("memory leak", "likely", "monotonic growth, no drop")
    desk.followups.append(
        f"Ask the owner of `{f.name}` to profile memory; plan a restart before it hits {f.limit}."
    )
    return "growth"


def _transient(desk: Desk, s: Seen, f: Facts) -> str:
    msg, _n = _sig(f, r"connection refused|transient|timed out")
    if not msg or not f.pods:
        return ""
    desk.impact.append(f"`{f.name}` is in CrashLoopBackOff and does no work.")
    desk.cause.append(
        f"**`{f.name}` crashed on a dependency error:** `{msg}`. The log marks it transient."
    )
    desk.weigh("transient dependency failure", "confirmed", msg)
    return "transient"


def _unready(desk: Desk, s: Seen, f: Facts) -> str:
    if not f.not_ready:
        return ""
    desk.impact.append(f"{f.not_ready} pod(s) of `{f.name}` fail readiness and get no traffic.")
    desk.cause.append(
        f"**{f.not_ready} pod(s) of `{f.name}` are stuck unready:** the readiness probe returns 503, "
        "with no crash, no OOM and no error in the logs."
    )
    desk.weigh("a stuck pod (failing readiness)", "confirmed", "Readiness probe failed: 503")
    return "unready"


def _healthy(desk: Desk, s: Seen, f: Facts) -> None:
    """A health check with nothing wrong found: say so, with the readings behind it."""
    pods = s.pods_of(f.name)
    ready = sum(
        1
        for p in pods
        if p.get("ready", "0/1").split("/")[0] == p.get("ready", "0/1").split("/")[-1]
    )
    desk.status = "healthy" if not f.alerts else "healthy, one alert to watch"
    desk.impact.append(
        f"None now: {ready}/{len(pods)} pods of `{f.name}` Ready, no restarts, no warning events."
    )
    line = f"**`{f.name}` is healthy.** All pods are Ready and nothing in its events or metrics is off."
    desk.cause.append(line)
    for name in f.alerts:
        desk.cause.append(
            f"The `{name}` alert fired while I was checking. I followed it up: memory of the pods is "
            f"well under the `{f.limit or 'configured'}` limit (see Evidence), so no action now."
        )
        desk.followups.append(
            f"Watch the `{name}` alert on `{f.name}`; if memory keeps rising, look for a leak."
        )


def _uncertain(desk: Desk, s: Seen, f: Facts) -> None:
    desk.status = "cause not confirmed: escalating"
    ser = f.sig.get("series", {})
    parts = []
    for metric, values in sorted(ser.items()):
        base = ser.get(f"normal_{metric}")
        if base and values and values[-1] != base[-1]:
            parts.append(
                f"`{metric}` is {_fmt(metric, values[-1])} against a normal {_fmt(metric, base[-1])}"
            )
        elif not metric.startswith("normal_") and values:
            parts.append(f"`{metric}` is {_fmt(metric, values[-1])}")
    sig = f.sig.get("signals", [])
    what = "; ".join(parts) or "no metric is off its baseline"
    desk.impact.append(f"`{f.name}` serves errors intermittently: {what}.")
    desk.cause.append(
        "**I could not pin down the root cause.** "
        + (
            f"The only signal is `{sig[0][1]}` ({sig[0][2]}×), mixed with successful requests. "
            if sig
            else ""
        )
        + (
            "It points at the upstream side, but nothing I can read shows which upstream or why."
            if sig and "upstream" in sig[0][1]
            else "Nothing I can read explains it."
        )
    )
    desk.weigh(
        "upstream resets connections",
        "possible, not confirmed",
        sig[0][1] if sig else "no log line",
    )
    desk.weigh(
        "pods of the workload failing", "ruled out", "pods are Running and Ready, no restarts"
    )
