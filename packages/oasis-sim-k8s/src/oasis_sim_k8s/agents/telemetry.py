"""Findings from telemetry: metric values against their baselines and limits, memory
trends, node CPU, alerts, trace critical paths, dashboard panels. Pure functions
over what :mod:`.investigate` read; numbers are quoted in the findings.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from .diagnose import memory_limit
from .findings import Diagnosis, Finding, name, workload_of
from .signals import Series, critical_path, distinct_steps, human_bytes, pct, root_of, trend

#: a working set at this share of its limit, and still growing, is an OOM risk
OOM_RISK_SHARE = 0.7
#: a node this busy is "pegged"
BUSY_NODE = 0.85


def read_telemetry(v: Any, d: Diagnosis) -> None:
    _memory(v, d)
    _app_metrics(v, d)
    _cpu(v, d)
    _alerts(v, d)
    _traces(v, d)
    _dashboards(v, d)


def _workload(s: Series) -> str:
    lab = s.labels
    if lab.get("service"):
        return lab["service"]
    if lab.get("pod"):
        return workload_of(
            {
                "metadata": {
                    "name": lab["pod"],
                    "ownerReferences": [
                        {"kind": "ReplicaSet", "name": re.sub(r"-[a-z0-9]{4,6}$", "", lab["pod"])}
                    ],
                }
            }
        )
    return s.who


def _memory(v: Any, d: Diagnosis) -> None:
    limits: dict[str, float] = {}
    for s in v.metrics.get("kube_pod_container_resource_limits", []):
        if s.labels.get("resource") == "memory" and s.value:
            limits[_workload(s)] = s.value
    seen: set[str] = set()
    for s in v.history.get("container_memory_working_set_bytes", []):
        wl = _workload(s)
        if wl in seen or not s.values:
            continue
        t = trend(s.values)
        limit = limits.get(wl) or memory_limit(v, wl)
        if not t:
            seen.add(wl)
            last = s.values[-1][1]
            hours = (s.values[-1][0] - s.values[0][0]) / 3600
            d.add(
                Finding(
                    "memory",
                    f"deployment/{wl}",
                    f"{wl}: memory working set steady at about {human_bytes(last)} "
                    f"over the last {hours:.0f} hours"
                    + (f", {pct(last / limit)} of its {human_bytes(limit)} limit" if limit else ""),
                    "metrics (container_memory_working_set_bytes, 6h)",
                    wl,
                    {"last": last, "limit": limit},
                )
            )
            continue
        seen.add(wl)
        first, last, hours, monotonic = t
        steps = " -> ".join(human_bytes(x) for x in distinct_steps(s.values))
        text = (
            f"{wl}: memory working set grew over the last {hours:.0f} hours: {steps} "
            f"({'never decreasing' if monotonic else 'mostly rising'}): a steady climb"
        )
        data: dict[str, Any] = {"first": first, "last": last, "hours": hours, "limit": limit}
        kind = "memory-trend"
        if limit:
            share = last / limit
            rate = (last - first) / hours if hours else 0.0
            left = (limit - last) / rate if rate > 0 else None
            text += (
                f"; it is now {human_bytes(last)} of its {human_bytes(limit)} memory limit ({pct(share)})"
                + (
                    f", and at ~{human_bytes(rate)}/h it would reach the limit in about {left:.1f} hours"
                    if left is not None
                    else ""
                )
            )
            if share >= OOM_RISK_SHARE and monotonic:
                kind = "oom-risk"
                text += (
                    ": the container will be OOMKilled when it gets there (a likely memory leak)"
                )
            data.update(share=share, hours_left=left)
        d.add(
            Finding(
                kind,
                f"deployment/{wl}",
                text,
                "metrics (container_memory_working_set_bytes, 6h)",
                wl,
                data,
            )
        )


def _app_metrics(v: Any, d: Diagnosis) -> None:
    for metric, series in sorted(v.metrics.items()):
        if metric.startswith(("normal_", "kube_", "container_", "instance:")):
            continue
        base = {s.who: s.value for s in v.metrics.get(f"normal_{metric}", [])}
        for s in series:
            if s.value is None:
                continue
            baseline = base.get(s.who)
            ratio = s.value / baseline if baseline else None
            rate = re.search(r"error|5xx|fail", metric) is not None
            shown = pct(s.value) if rate and s.value <= 1 else f"{s.value:g}"
            shown_base = (
                (pct(baseline) if rate and baseline <= 1 else f"{baseline:g}") if baseline else None
            )
            elevated = (ratio is not None and ratio >= 1.5) or (
                rate and baseline is None and s.value >= 0.01
            )
            text = f"{metric} of {s.who} is {shown}" + (
                f" against a normal {shown_base} ({ratio:.0f}x)" if shown_base and ratio else ""
            )
            hist = next((h for h in v.history.get(metric, []) if h.who == s.who), None)
            onset = _onset(hist) if hist else None
            if onset:
                text += f"; it rose at {onset:%H:%M} UTC"
            d.add(
                Finding(
                    "metric-elevated" if elevated else "metric",
                    f"service/{s.who}",
                    text,
                    f"metrics ({metric})",
                    s.who,
                    {
                        "metric": metric,
                        "value": s.value,
                        "baseline": baseline,
                        "onset": onset,
                        "rate": rate,
                    },
                )
            )


def _onset(s: Series) -> datetime | None:
    if len(s.values) < 3:
        return None
    low = min(v for _, v in s.values[: max(1, len(s.values) // 3)])
    for t, val in s.values:
        if low and val >= 2 * low:
            return datetime.fromtimestamp(t, tz=UTC)
    return None


def _cpu(v: Any, d: Diagnosis) -> None:
    busy = [
        s
        for s in v.metrics.get("instance:node_cpu_utilisation:rate5m", [])
        if (s.value or 0) >= BUSY_NODE
    ]
    nodes = {s.who: s.value for s in v.metrics.get("instance:node_cpu_utilisation:rate5m", [])}
    users = sorted(v.metrics.get("container_cpu_usage_cores", []), key=lambda s: -(s.value or 0))
    for s in busy:
        on = sorted(
            {
                workload_of(p)
                for p in v.objects.get("pod", [])
                if (p.get("spec") or {}).get("nodeName") == s.who
            }
        )
        top = next(
            (u for u in users if any(u.labels.get("pod", "").startswith(w) for w in on)), None
        )
        d.add(
            Finding(
                "node-cpu",
                f"node/{s.who}",
                f"node {s.who} CPU is at {pct(s.value or 0)}"
                + (f", driven by {top.labels.get('pod')} ({top.value:g} cores)" if top else "")
                + (f"; workloads on it: {', '.join(on)}" if on else ""),
                "metrics (node CPU)",
                None,
                {"node": s.who, "value": s.value, "workloads": on, "nodes": nodes},
            )
        )


def _alerts(v: Any, d: Diagnosis) -> None:
    for a in v.alerts:
        labels, ann = a.get("labels") or {}, a.get("annotations") or {}
        who = (
            labels.get("service")
            or labels.get("deployment")
            or labels.get("pod")
            or labels.get("namespace")
        )
        d.add(
            Finding(
                "alert",
                f"service/{who}" if who else "alert",
                f"alert {labels.get('alertname', '?')} ({labels.get('severity', 'no severity')}) is "
                f"{a.get('state', '?')} for {who or 'the cluster'} since {a.get('activeAt', '?')}"
                + (f": {ann.get('summary') or ann.get('description')}" if ann else ""),
                "alerts",
                who,
                {"alert": labels.get("alertname"), "state": a.get("state")},
            )
        )
        mem = next((f for f in d.findings if f.kind == "memory" and f.workload == who), None)
        summary = f"{labels.get('alertname', '')} {ann.get('summary', '')} {ann.get('description', '')}".lower()
        if (
            mem
            and "memory" in summary
            and mem.data.get("limit")
            and mem.data["last"] / mem.data["limit"] < 0.7
        ):
            d.add(
                Finding(
                    "alert-mismatch",
                    f"service/{who}",
                    f"The {labels.get('alertname')} alert for {who} does not match its memory data: the "
                    f"working set is flat at {human_bytes(mem.data['last'])}, "
                    f"{pct(mem.data['last'] / mem.data['limit'])} of its limit; the alert rule or its threshold "
                    "needs a look before anyone acts on it",
                    "alerts and metrics",
                    who,
                    {},
                )
            )


def _traces(v: Any, d: Diagnosis) -> None:
    for tid, spans in v.traces.items():
        root = root_of(spans)
        if root is None:
            continue
        path = critical_path(root)
        worst = max(spans, key=lambda s: s.self_ms)
        hops = " -> ".join(f"{s.service} {s.operation} {s.duration_ms:g}ms" for s in path)
        services = list(dict.fromkeys(s.service for s in path))
        share = worst.self_ms / root.duration_ms if root.duration_ms else 0
        text = (
            f"trace {tid} ({root.duration_ms:g}ms end to end) crosses {len(services)} service(s): {hops}. "
            f'The time is spent in {worst.service}\'s span "{worst.operation}": {worst.self_ms:g}ms of its own '
            f"({pct(share)} of the request)"
        )
        others = [s for s in path if s is not worst]
        if others:
            text += "; every other hop adds only " + ", ".join(
                f"{s.self_ms:g}ms ({s.service})" for s in others
            )
        if worst.is_db:
            text += f". It is a database query ({worst.tags.get('db.statement') or worst.operation}) that is slow"
        if worst.error:
            text += " and it ended in an error"
        d.add(
            Finding(
                "slow-span" if share >= 0.5 else "trace",
                f"service/{worst.service}",
                text,
                "traces",
                worst.service,
                {
                    "trace": tid,
                    "span": worst.operation,
                    "ms": worst.self_ms,
                    "db": worst.is_db,
                    "services": services,
                },
            )
        )
        for s in spans:
            active, most = s.tags.get("db.pool.active"), s.tags.get("db.pool.max")
            if (
                isinstance(active, (int, float))
                and isinstance(most, (int, float))
                and most
                and active >= most
            ):
                d.add(
                    Finding(
                        "pool-exhausted",
                        f"deployment/{s.service}",
                        f'in trace {tid}, {s.service}\'s span "{s.operation}" ran with '
                        f"db.pool.active={active:g} "
                        f"of db.pool.max={most:g}: every connection of the pool was in use, and the span took "
                        f"{s.duration_ms:g}ms" + (" and failed" if s.error else ""),
                        "traces",
                        s.service,
                        {"active": active, "max": most},
                    )
                )


def _dashboards(v: Any, d: Diagnosis) -> None:
    for uid, title, panels in v.dashboards:
        for p in panels:
            d.add(
                Finding(
                    "panel-concerning" if p.concerning else "panel",
                    f"dashboard/{uid}",
                    f"{p.title}: {p.value} (status {p.status or 'n/a'}"
                    + (f", {p.reference}" if p.reference else "")
                    + ")",
                    f"dashboard {title}",
                    None,
                    {"panel": p.title, "value": p.value, "status": p.status, "board": title},
                )
            )


def pods_on(v: Any, node: str) -> list[str]:
    return sorted(
        name(p) for p in v.objects.get("pod", []) if (p.get("spec") or {}).get("nodeName") == node
    )
