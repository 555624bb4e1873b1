"""``heldout22``'s reasoning: from what ``operator_heldout22_look`` read to a cause it commits to
(with the figures that back it), the signals it rules out, and what it is not sure about.

Each check reads the environment's own output (events, container states, log patterns, series,
spans, panels, policies); none knows a scenario. The first strong cause wins; facts add up.
"""

from __future__ import annotations

import re
from typing import Any

from .operator_heldout22 import Desk
from .operator_heldout22_look import Seen
from .operator_read import age_minutes, mib, quantity, trend


def pct(value: float) -> str:
    return f"{value * 100:.1f}%" if value < 1 else f"{value:.0f}%"


def last(series: dict[str, list[float]], name: str) -> float | None:
    values = series.get(name) or []
    return values[-1] if values else None


def think(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """Fill ``desk.case`` from what was read."""
    for name in targets[:3]:
        _pods(desk, seen, name)
        _logs(desk, seen, name)
        _numbers(desk, seen, name)
        _deploys(desk, seen, name)
    _scheduling(desk, seen, targets)
    _spans(desk, seen)
    _network(desk, seen, targets)
    _misleading(desk, seen, targets)
    _alerted(desk, seen)
    _init(desk, seen, targets)
    _pool(desk, seen, targets)
    if seen.path_logs:
        who, msg = seen.path_logs[0]
        desk.case.facts.append(f'logs of {who} on the request path say: "{msg[:120]}"')
        seen.path.insert(0, f'{who} get upstream connection failure ("{msg[:60]}"), return 503')
    if seen.path:
        desk.case.chain = seen.path + desk.case.chain


def _cause(desk: Desk, cause: str, because: str) -> None:
    if not desk.case.cause:
        desk.case.cause, desk.case.because = cause, because


def _pods(desk: Desk, seen: Seen, name: str) -> None:
    case = desk.case
    for pod in seen.pods.get(name, [])[:3]:
        for ev in pod.events:
            m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", ev)
            if m:
                cm = m.group(2).split("/")[-1]
                case.facts.append(
                    f'events of pod {pod.name} says: "{ev.split("kubelet", 1)[-1].strip()}"'
                )
                _cause(
                    desk,
                    f"configmap {cm} has no key {m.group(1)}, and {name} need it for env variable",
                    f"pod event say couldn't find key {m.group(1)} in ConfigMap {cm}, so container "
                    "cannot start and go to CrashLoopBackOff",
                )
        for c in pod.containers:
            if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                limit = c.limits.get("memory", "?")
                case.facts.append(
                    f"container {c.name} in {pod.name} is OOMKilled, restart count {c.restarts}, "
                    f"memory limit {limit}"
                )
                _cause(
                    desk,
                    f"{name} is killed by OOM, memory limit {limit} is too small for it",
                    f"last state of container is OOMKilled (exit code {c.exit_code or '137'}) "
                    f"and it restart {c.restarts} times",
                )
                seen.oom = (name, c.name, limit)
            if c.init and (
                c.reason in ("Error", "CrashLoopBackOff")
                or c.last_reason == "Error"
                or ("Terminated" in c.state and c.exit_code not in ("", "0"))
            ):
                seen.init_failed = (name, pod.name, c.name)
                case.facts.append(
                    f"init container {c.name} of {pod.name} is failing ({c.reason or c.last_reason})"
                )
        if pod.containers and not case.facts and pod.status:
            case.facts.append(f"pod {pod.name} is {pod.status}")


def _logs(desk: Desk, seen: Seen, name: str) -> None:
    case = desk.case
    patterns = seen.logs.get(name, [])
    for level, msg, n in patterns[:3]:
        case.facts.append(f'logs of {name} show {level} {n} times: "{msg[:160]}"')
    noise = seen.noise.get(name, 0)
    if patterns and noise:
        case.facts.append(
            f"other {noise} lines is DEBUG/TRACE/INFO noise (health check, normal request), I skip them"
        )
    text = " ".join(m for _, m, _ in patterns).lower()
    top = patterns[0][1] if patterns else ""
    if "certificate" in text and ("expired" in text or "x509" in text):
        host = re.search(r"connecting to (\S+?):?(\d+)?:", top)
        where = host.group(1) if host else "upstream"
        _cause(
            desk,
            f"TLS certificate of {where} is expired, so handshake from {name} fail",
            f'the only ERROR lines is "{top[:120]}"',
        )
    elif "pool" in text and ("exhaust" in text or "connection" in text):
        _cause(desk, f"database connection pool of {name} is exhausted", f'logs say "{top[:120]}"')
    elif "does not exist" in text and "column" in text:
        col = re.search(r"column '?\"?(\w+)", text)
        seen.schema_gap = col.group(1) if col else ""
        _cause(
            desk,
            f"code of {name} and database schema does not match "
            f"(column {seen.schema_gap or '?'} is missing) after the last migration",
            f'logs say "{top[:120]}"',
        )
    elif "not set" in text and "environment variable" in text:
        var = re.search(r"variable (\w+)", top)
        case.facts.append(f"app say required env {var.group(1) if var else ''} is not set")
    elif "transient" in text or "refused" in text:
        seen.transient = top


def _figure(metric: str, value: float) -> str:
    if "rate" in metric or "ratio" in metric:
        return pct(value)
    if metric.endswith("_ms") or "latency" in metric:
        return f"{value:.0f}ms"
    if "bytes" in metric:
        return mib(value)
    return f"{value:g}"


def _numbers(desk: Desk, seen: Seen, name: str) -> None:
    """Every series of the service, said as read, with its normal value when one is kept."""
    case = desk.case
    s = seen.series.get(name, {})
    for metric in sorted(s):
        if metric.startswith("normal_") or "bytes" in metric:
            continue
        values = s[metric]
        base = next(
            (s[b][-1] for b in (f"normal_{metric}",) if s.get(b)),
            None,
        )
        label = metric.replace("_", " ")
        line = f"{label} of {name} is {_figure(metric, values[-1])} now"
        if len(values) > 2 and values[0] != values[-1]:
            line += f", it was {_figure(metric, values[0])} 6h ago"
        if base is not None:
            line += f", normal is {_figure(metric, base)}"
        case.facts.append(line)
        if metric == "error_rate":
            seen.error_rate[name] = values[-1]
    mem = s.get("container_memory_working_set_bytes") or []
    if mem and trend(mem) == "rising":
        limit = _limit(seen, name)
        line = f"memory of {name} grow all the time: {mib(mem[0])} 6h ago, now {mib(mem[-1])}"
        if limit:
            per_hour = (mem[-1] - mem[0]) / 6
            hours = (limit - mem[-1]) / per_hour if per_hour > 0 else 0
            line += f", limit is {mib(limit)}"
            when = f"in about {hours:.0f}h" if hours >= 1 else "very soon (less than 1h)"
            case.risk.append(
                f"with same speed (~{mib(per_hour)} per hour) it reach limit {mib(limit)} {when}, "
                "then container is OOMKilled"
            )
            _cause(
                desk,
                f"{name} is running, but memory is growing like a leak and it will hit OOM",
                line,
            )
        case.facts.append(line)


def _limit(seen: Seen, name: str) -> float | None:
    for pod in seen.pods.get(name, []):
        for c in pod.containers:
            if c.limits.get("memory"):
                return quantity(c.limits["memory"])
    m = re.search(r"Limits:\s*\n\s*memory:\s*(\S+)", seen.deploy_text.get(name, ""))
    return quantity(m.group(1)) if m else None


def _deploys(desk: Desk, seen: Seen, name: str) -> None:
    """A new revision: when it started (its ReplicaSet's age) and whether errors follow it."""
    revs = re.findall(r"^(\d+)\s", seen.history.get(name, ""), re.M)
    sets = sorted(seen.replicasets.get(name, []), key=lambda r: age_minutes(r.get("age", "")) or 0)
    if len(revs) < 2 or not sets:
        return
    new, old = sets[0], (sets[1] if len(sets) > 1 else {})
    age = new.get("age", "")
    image, before = new.get("images", ""), old.get("images", "")
    seen.rollout = (name, revs[-1], image, age)
    desk.case.facts.append(
        f"{name} has new revision {revs[-1]}: image {before or '?'} -> {image or '?'}, "
        f"new replicaset {new.get('name', '')} is {age} old"
    )
    s = seen.series.get(name, {})
    errs = s.get("error_rate") or []
    if errs and errs[-1] > errs[0] * 3:
        _cause(
            desk,
            f"new version {image or revs[-1]} of {name} bring the errors",
            f"error rate start to go up after deploy {age} ago: {pct(errs[0])} before, "
            f"{pct(errs[-1])} now, and nothing else is changed in this time",
        )


def _scheduling(desk: Desk, seen: Seen, targets: list[str]) -> None:
    for name in targets[:2]:
        for pod in seen.pods.get(name, []):
            ev = next((e for e in pod.events if "Insufficient" in e), "")
            if not ev:
                continue
            req = re.search(r"Requests:\s*\n\s*cpu:\s*(\S+)", seen.deploy_text.get(name, ""))
            alloc = sorted(
                quantity(a) or 0
                for a in re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", seen.nodes)
            )
            msg = ev.split("default-scheduler", 1)[-1].strip()
            desk.case.facts.append(f'scheduler say: "{msg[:110]}"')
            if req and alloc:
                seen.cpu_fit = (name, req.group(1), alloc[-1])
                _cause(
                    desk,
                    f"{name} ask {req.group(1)} CPU per pod, but biggest node has only "
                    f"{alloc[-1] * 1000:.0f}m allocatable, so no node can take it",
                    "FailedScheduling says Insufficient cpu on all nodes",
                )
            return


def _spans(desk: Desk, seen: Seen) -> None:
    from .operator_read import bottleneck

    path, slow = bottleneck(seen.spans)
    if not slow:
        return
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:.0f}ms)" for s in path)
    desk.case.chain.append(f"trace {seen.trace_id}: {hops}")
    own = slow.ms
    desk.case.facts.append(
        f'in trace {seen.trace_id} the span "{slow.operation}" of {slow.service} take {own:.0f}ms '
        f"of {path[0].ms:.0f}ms total" + (f" [{slow.attrs}]" if slow.attrs else "")
    )
    pool = re.search(r"db\.pool\.active=(\d+) db\.pool\.max=(\d+)", slow.attrs)
    if pool and pool.group(1) == pool.group(2):
        desk.case.facts.append(f"pool is full: active {pool.group(1)} of max {pool.group(2)}")
    if "db" in slow.operation.lower() or "query" in slow.operation.lower():
        parent = path[-2] if len(path) > 1 else path[0]
        _cause(
            desk,
            f'slow database query in {slow.service}: "{slow.operation}" take {own:.0f}ms',
            f"its parent {parent.operation} is {parent.ms:.0f}ms, so parent "
            f"own work is only {parent.ms - own:.0f}ms; every span above only wait for this query",
        )


def _network(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """A policy that selects one of the workloads in the prompt and lets in only others."""
    for pol in seen.policies:
        spec = pol.get("spec", {})
        sel = (spec.get("podSelector", {}) or {}).get("matchLabels", {})
        if sel.get("app") not in targets:
            continue
        allowed = [
            f.get("podSelector", {}).get("matchLabels", {})
            for rule in spec.get("ingress", []) or []
            for f in rule.get("from", []) or []
            if isinstance(f, dict)
        ]
        name = pol.get("metadata", {}).get("name", "")
        callers = [t for t in targets if t != sel.get("app") and {"app": t} not in allowed]
        if not callers:
            continue
        seen.blocking = (name, sel, allowed)
        seen.callee = sel.get("app")
        who = ", ".join(f"{k}={v}" for a in allowed for k, v in a.items()) or "nobody"
        desk.case.facts.append(
            f"network policy {name} select pods app={sel.get('app')} and allow ingress only from {who}"
        )
        _cause(
            desk,
            f"network policy {name} block the traffic: {callers[0]} pods is not in its "
            f"allow list, so {callers[0]} cannot reach {sel.get('app')}",
            f"policy allow only {who}, and {callers[0]} pods has label app={callers[0]}",
        )
        return


def _alerted(desk: Desk, seen: Seen) -> None:
    for alert, service, kind, values in seen.alert_reads:
        if not values:
            desk.case.facts.append(
                f"alert {alert} fire for {service}, but I get no {kind} series for it"
            )
            continue
        shown = mib(values[-1]) if kind == "memory" else f"{values[-1]:.2f} cores"
        limit = _limit(seen, service)
        line = f"because alert {alert} fire, I check {kind} of {service}: {shown} now"
        if kind == "memory" and limit:
            line += f", limit {mib(limit)} ({values[-1] / limit * 100:.0f}% of it)"
        line += f", trend {trend(values)}"
        desk.case.facts.append(line)
        if kind == "memory" and limit and values[-1] < 0.8 * limit and trend(values) != "rising":
            desk.case.unsure.append(
                f"alert {alert} fire, but memory is only {values[-1] / limit * 100:.0f}% of limit and "
                "not growing; maybe alert threshold is too low. Please ask owner of the alert to check it"
            )


def _init(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """An init container that fails: its own error is the cause, the rest is the chain."""
    for cname, patterns in sorted(seen.init_logs.items()):
        if not patterns:
            continue
        msg = patterns[0][1]
        desk.case.facts.append(f'logs of init container {cname} say: "{msg[:140]}"')
        name = targets[0] if targets else "app"
        desk.case.chain += [
            f"pods of {name} never get Ready (init container {cname} fail, main container not start)",
            f'init container {cname}: "{msg[:100]}"',
        ]
        desk.case.cause = f"init container {cname} of {name} fail: {msg[:100]}"
        desk.case.because = (
            f"{cname} fail, so {name} pods stay in Init and never Ready, so service has no "
            "endpoints, so ingress return 503"
        )
        return


def _pool(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """Connection pool exhaustion, told with every signal that shows it."""
    if "pool" not in desk.case.cause:
        return
    more = []
    for name in targets[:1]:
        s = seen.series.get(name, {})
        p99, base = last(s, "p99_latency_ms"), last(s, "normal_p99_latency_ms")
        if p99 and base:
            more.append(f"p99 {p99:.0f}ms, normal is {base:.0f}ms")
    pool = [f for f in desk.case.facts if f.startswith("pool is full")]
    slow = [f for f in desk.case.facts if f.startswith("in trace")]
    if slow:
        more.append(slow[0].split(" the span ", 1)[-1])
    more += pool
    if more:
        desk.case.because += (
            "; also " + "; ".join(more) + ". All three (metrics, logs, trace) say same thing"
        )


def _misleading(desk: Desk, seen: Seen, targets: list[str]) -> None:
    text = desk.prompt.lower()
    if "cpu" in text and seen.oom:
        top = seen.cpu_top[0] if seen.cpu_top else None
        mine = [t for t in targets if top and top[0].startswith(t)]
        who = (
            (
                f"; biggest CPU is {top[0]} = {top[1]:g}, "
                + ("it is this service" if mine else "it is not this service")
            )
            if top
            else ""
        )
        for name, value in seen.cpu_top:
            desk.case.facts.append(f"CPU metric {name} is {value:g}")
        pressure = re.findall(r"MemoryPressure\s+(True|False)", seen.nodes)
        mem = f"; nodes MemoryPressure is {', '.join(sorted(set(pressure)))}" if pressure else ""
        desk.case.not_this.append(
            "not the node CPU, because CPU saturation only make things slow (throttle), it does not "
            f"kill the container; container last state is OOMKilled, that is memory limit{who}{mem}"
        )


def panels(seen: Seen) -> list[tuple[str, str, str, str]]:
    """(title, value, status, baseline or threshold) of each panel, bad ones first."""
    rank = {"critical": 0, "elevated": 1, "warning": 1}
    out: list[tuple[str, str, str, str]] = []
    for p in seen.panels:
        ref = p.get("normal_baseline") or p.get("threshold") or ""
        out.append(
            (
                str(p.get("title", "")),
                str(p.get("current_value", "")),
                str(p.get("status", "")),
                str(ref),
            )
        )
    return sorted(out, key=lambda t: rank.get(t[2], 9))


def alert_lines(seen: Seen) -> list[str]:
    out = []
    for a in seen.alerts:
        labels: dict[str, Any] = a.get("labels", {})
        out.append(
            f"alert {labels.get('alertname', '?')} ({labels.get('severity', '')}) is "
            f"{a.get('state')} for {labels.get('service', '?')}"
        )
    return out
