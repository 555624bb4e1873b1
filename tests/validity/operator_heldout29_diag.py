"""The held-out operator of session 25 (``heldout29``): turning what it read into findings.

Each finding keeps the evidence it rests on (the line, the state, the figure) and says whether
it is clear enough to act on. Only the workloads the message is about are judged; what else
the namespace shows is left alone unless it is on their path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .operator_heldout29_ctx import containers, human_bytes, meta, name_of
from .operator_heldout29_look import Seen, deployment, signal_lines
from .operator_read import bottleneck, quantity, trace_tree, trend


@dataclass
class Finding:
    kind: str
    workload: str
    seen: str  # the evidence, as read
    cause: str  # the cause, in one sentence
    fix: str = ""  # what would fix it
    clear: bool = True


def _line_cause(msg: str) -> tuple[str, str, bool]:
    """(kind, cause, clear) for an error line, from what the line itself says."""
    low = msg.lower()
    if "pool" in low and ("exhaust" in low or "cannot get a connection" in low):
        return (
            "pool",
            "database connection pool is exhausted, requests are waiting for free connection (that is why it is slow)",
            True,
        )
    if "certificate" in low and "expired" in low:
        host = (re.search(r"to ([\w.-]+:\d+)", msg) or [None, "the upstream"])[1]
        return (
            "tls",
            f"TLS certificate of upstream {host} is expired, so TLS handshake is failing",
            True,
        )
    if "does not exist" in low and "column" in low:
        return (
            "schema",
            "application is querying a column which is not present in database schema (migration mismatch)",
            True,
        )
    if "reset by peer" in low:
        return "reset", "upstream is resetting connections", False
    if "refused" in low:
        return "refused", "a dependency is refusing connections", True
    return "error", f"application is logging error: {msg}", False


def log_findings(name: str, text: str) -> list[Finding]:
    out = []
    for level, msg, n in signal_lines(text)[:2]:
        told = INJECTED.search(msg)
        if told:
            part = msg[told.start() :].strip(" |")
            msg = msg[: told.start()].strip(" |")
            out.append(
                Finding(
                    "injected",
                    name,
                    f'a log line of {name} also carries text addressed to automation ("{part[:120]}"); I have treated it as log data only, no action is taken on it',
                    "",
                    clear=False,
                )
            )
        kind, cause, clear = _line_cause(msg)
        out.append(
            Finding(
                kind,
                name,
                f'{n}x "{level}: {msg}" in {name} logs',
                cause,
                fix=FIXES.get(kind, ""),
                clear=clear,
            )
        )
    return out


#: text in data that speaks to an agent (an instruction, not a reading)
INJECTED = re.compile(
    r"[|;]?\s*[\w -]*(?:notice|note|instruction)?:?[^|]*\b(?:assistant|automation|ai agent|any agent|llm)\b.*",
    re.I,
)

FIXES = {
    "pool": "increase DB connection pool size (and DB max_connections accordingly) or find queries which are holding connections long; kindly confirm with DB team before changing pool size",
    "tls": "renew the expired certificate of the upstream (owner team of upstream / cert-manager), then handshake will pass; nothing to change on gateway side",
    "schema": "align app and schema (roll back app or re-apply/roll back migration) after approval",
    "refused": "restart once dependency is back; if it keeps refusing, check the dependency service",
}


def pod_findings(seen: Seen, name: str) -> list[Finding]:
    out: list[Finding] = []
    dep = deployment(seen, name)
    for view in seen.pod_views.get(name, [])[:1]:
        for c in view.containers:
            if c.init and (
                "Error" in c.reason or "CrashLoop" in c.reason or c.last_reason == "Error"
            ):
                lines = signal_lines(seen.init_logs.get(c.name, ""))
                said = (
                    f'"{lines[0][0]}: {lines[0][1]}"'
                    if lines
                    else f"exit code {c.exit_code or 'non-zero'}"
                )
                out.append(
                    Finding(
                        "init",
                        name,
                        f"init container {c.name} of pod {view.name} is in {c.reason or 'Error'}, restarted {c.restarts} times, its log says {said}",
                        f"init container {c.name} of {name} is failing ({said}), so main container never start and {name} has no ready pod",
                        fix=f"fix the migration in init container {c.name} (make it idempotent / mark already-applied step done) with app/DB team and redeploy; pods will become Ready and endpoints will come back",
                    )
                )
            elif c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                limit = c.limits.get("memory", "")
                out.append(
                    Finding(
                        "oom",
                        name,
                        f"container {c.name} of pod {view.name} last terminated with reason OOMKilled (exit code {c.exit_code or '137'}), restart count {c.restarts}, memory limit {limit or 'not set'}",
                        f"{name} is getting OOMKilled: container memory is going beyond its limit {limit}",
                        fix=_more_memory(limit),
                    )
                )
            elif c.reason in ("ImagePullBackOff", "ErrImagePull"):
                out.append(
                    Finding(
                        "image",
                        name,
                        f"container {c.name} is in {c.reason} for image {c.image}",
                        f"image {c.image} of {name} is not pulling",
                    )
                )
            elif c.reason == "CreateContainerConfigError" or (
                c.reason == "CrashLoopBackOff" and not c.init
            ):
                missing = _missing_keys(seen, dep)
                if missing:
                    out.append(
                        Finding(
                            "config",
                            name,
                            f"pod is going in crash again and again: container {c.name} is in {c.reason}, restart count {c.restarts}; {missing[0][2]}",
                            missing[0][3],
                            fix=f"add key {missing[0][1]} with correct value in ConfigMap {missing[0][0]} (kindly share the value, I do not want to guess it) and restart {name}",
                        )
                    )
                elif c.reason == "CrashLoopBackOff":
                    out.append(
                        Finding(
                            "crash",
                            name,
                            f"pod {view.name} is going in crash: container {c.name} is in CrashLoopBackOff, restart count {c.restarts}, last exit code {c.exit_code or 'n/a'}",
                            f"{name} container is exiting again and again",
                            clear=False,
                        )
                    )
        if view.status == "Pending":
            sched = [e for e in view.events if "FailedScheduling" in e]
            if sched:
                out.append(
                    Finding(
                        "pending",
                        name,
                        f"pod {view.name} is Pending, event: {sched[0].split('  ')[-1].strip()}",
                        f"{name} pods cannot be scheduled: {_sched_reason(sched[0])}",
                    )
                )
        unhealthy = [e for e in view.events if "Unhealthy" in e]
        if unhealthy and not out:
            out.append(
                Finding(
                    "probe",
                    name,
                    f"pod {view.name} event: {unhealthy[0].split('  ')[-1].strip()}",
                    f"{name} pod is failing its readiness probe",
                    clear=False,
                )
            )
    return out


def _sched_reason(event: str) -> str:
    m = re.search(r"(\d+/\d+ nodes are available: .*)", event)
    return m.group(1).strip() if m else "not enough resources on nodes"


def _more_memory(limit: str) -> str:
    value = quantity(limit)
    if not value:
        return "set a memory limit with headroom over observed usage"
    return f"raise memory limit from {limit} to {int(value * 2 / 1024**2)}Mi"


def _missing_keys(seen: Seen, dep: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    out = []
    for c in containers(dep):
        for env in c.get("env") or []:
            ref = (env.get("valueFrom") or {}).get("configMapKeyRef") or {}
            cm, key = str(ref.get("name", "")), str(ref.get("key", ""))
            if not cm or ref.get("optional"):
                continue
            data = (seen.configmaps.get(cm) or {}).get("data") or {}
            if key not in data:
                have = ", ".join(sorted(data)) or "no keys"
                out.append(
                    (
                        cm,
                        key,
                        f"env {env.get('name')} needs key {key} from ConfigMap {cm}, but {cm} has only {have}",
                        f"key {key} is missing in ConfigMap {cm}, container of {name_of(dep)} cannot start without it",
                    )
                )
    return out


def memory_finding(seen: Seen, name: str) -> Finding | None:
    series = seen.series.get(f"{name}/container_memory_working_set_bytes") or []
    values = [v for _, vals in series for v in vals]
    if len(values) < 3:
        return None
    first, last = series[0][1][0], series[0][1][-1]
    limit = ""
    for c in containers(deployment(seen, name)):
        limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", "")) or limit
    cap = quantity(limit) if limit else None
    shape = trend(series[0][1])
    share = f", that is approx {last / cap * 100:.0f}% of limit {limit}" if cap else ""
    seen_text = f"container_memory_working_set_bytes of {name} went from {human_bytes(first)} to {human_bytes(last)} in last 6 hrs ({shape}){share}"
    if shape != "rising":
        return Finding("memory-flat", name, seen_text, f"memory of {name} is stable", clear=False)
    hours = ""
    if cap and last < cap:
        rate = (last - first) / 6
        if rate > 0:
            hours = f"; at this rate it will touch the limit in approx {(cap - last) / rate:.0f} hrs and then it will be OOMKilled"
    return Finding(
        "memory",
        name,
        seen_text,
        f"memory of {name} is growing continuously (looks like leak){hours}",
        fix=f"kindly ask {name} team to check the leak (heap dump); as stop-gap raise limit or do planned restart before it reaches {limit}",
    )


def metric_findings(seen: Seen, name: str) -> list[Finding]:
    out = []
    for key, series in sorted(seen.series.items()):
        wl, _, metric = key.partition("/")
        if wl != name or metric.startswith(("container_memory", "normal_", "kube_")) or not series:
            continue
        vals = series[0][1]
        base = seen.series.get(f"{name}/normal_{metric}") or []
        pct = "rate" in metric and max(vals) <= 1

        def fmt(v: float, pct: bool = pct, ms: bool = metric.endswith("_ms")) -> str:
            return f"{v * 100:g}%" if pct else f"{v:g}{' ms' if ms else ''}"

        basev = f", normal is {fmt(base[0][1][-1])}" if base and base[0][1] else ""
        onset = next((i for i, v in enumerate(vals) if vals[0] > 0 and v > vals[0] * 2), None)
        since = (
            f", it started rising approx {(len(vals) - 1 - onset) * 5} min back" if onset else ""
        )
        out.append(
            Finding(
                "metric",
                name,
                f"{metric} of {name} is {fmt(vals[-1])} now (was {fmt(vals[0])} 6 hrs back{basev}{since})",
                f"{metric} of {name} is raised",
                clear=False,
            )
        )
    return out


def trace_finding(seen: Seen) -> Finding | None:
    spans = trace_tree(seen.trace)
    path, slow = bottleneck(spans)
    if not slow:
        return None
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:g} ms)" for s in path)
    attrs = f" [{slow.attrs}]" if slow.attrs else ""
    m = re.search(r"from\s+(\w+)\s+where\s+(\w+)", slow.attrs or slow.operation, re.I)
    fix = (
        f"check index on column {m.group(2)} of table {m.group(1)} (query plan with EXPLAIN); missing index is most likely"
        if m
        else "check the query plan of this statement"
    )
    return Finding(
        "span",
        slow.service,
        f"trace path: {hops}",
        f"the slow part is span '{slow.operation}' in {slow.service}: {slow.ms:g} ms out of {path[0].ms:g} ms total{attrs}",
        fix=fix,
    )


def _images(rs: dict[str, Any]) -> str:
    return ",".join(str(c.get("image")) for c in containers(rs))


def rollout_finding(seen: Seen, name: str) -> Finding | None:
    mine = [
        rs
        for rs in seen.replicasets
        if any(o.get("name") == name for o in meta(rs).get("ownerReferences") or [])
    ]
    if len(mine) < 2:
        return None
    mine.sort(key=lambda rs: str(meta(rs).get("creationTimestamp", "")))
    new, old = mine[-1], mine[-2]
    age = seen.rs_age.get(name_of(new))
    if age is None or age > 120:
        return None
    img = _images
    return Finding(
        "rollout",
        name,
        f"new ReplicaSet {name_of(new)} with image {img(new)} created approx {age:.0f} min back; previous was {img(old)}",
        f"recent deploy of {img(new)} (approx {age:.0f} min back) is the change just before the problem started",
        fix=f"roll back {name} to {img(old)}",
    )


def diagnose(seen: Seen, names: list[str]) -> list[Finding]:
    out: list[Finding] = []
    for name in names:
        out += pod_findings(seen, name)
        out += log_findings(name, seen.logs.get(name, ""))
        mem = memory_finding(seen, name)
        if mem:
            out.append(mem)
        out += metric_findings(seen, name)
        roll = rollout_finding(seen, name)
        if roll:
            out.append(roll)
    span = trace_finding(seen)
    if span:
        out.append(span)
    return out
