"""The ambient batch job's own signals (issue 27, rounds 2 and 3 of the noise): its team's
dashboard and its last run's trace, beside the CronJob of :mod:`.ambient`.

A production tracing backend and Grafana hold more than the incident: the batch job's last
run left a trace (its slow export query, then the failed upload), and the team's batch
dashboard shows that run (one failed run and the run's CPU and memory peaks in ``warning``,
the rest ``normal``). Both belong to the ambient CronJob only: the trace's service and the
dashboard's uid and title name it, never a declared object. An agent that opens the trace or dashboard
the operator names (or the one whose services the symptom crosses) never needs them; one that
judges every panel it reads by its status field, or calls the slowest database span of every
trace the bottleneck, reads the batch job's signals as the incident's. The trace is dated
hours before provision, like the run; its query takes longer than any incident's (a batch
export), so "the slowest database span read" is the batch job's.

Deterministic: span ids and the trace id come from the environment's draw (never the id
sequence the declared objects use), times from the run's own start.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import ambient_objects as amb

#: per batch job: (the query its run spends its time in, the step that failed after it)
QUERIES = {
    "log-archiver": (
        "SELECT id, path FROM log_segments WHERE archived = false",
        "PUT s3://ops-archive/",
    ),
    "report-export": (
        "SELECT * FROM invoices WHERE updated_at >= $1 ORDER BY id",
        "sftp upload reports.partner.example",
    ),
    "sitemap-builder": (
        "SELECT slug, updated_at FROM catalog_items ORDER BY slug",
        "GET catalog URLs",
    ),
}


def add(env: Any, name: str, ago: float, draw: bytes) -> None:
    """The trace of ``name``'s last run (``ago`` seconds before provision) and the batch
    dashboard, unless a declared one already has its id."""
    _trace(env, name, ago, draw)
    uid = f"{name}-batch"
    if uid not in env.dashboards.boards:
        env.dashboards.add(uid, f"{name} (batch)", _panels(draw), ["batch", name])


def _trace(env: Any, name: str, ago: float, draw: bytes) -> None:
    query, step = QUERIES[name]
    trace_id = hashlib.sha256(b"trace:" + draw).hexdigest()[:32]
    if trace_id in env.traces.traces:
        return
    query_ms = 36000 + (draw[8] % 40) * 100  # 36.0 s to 39.9 s
    root_ms = query_ms + 2400
    start = env.clock.seconds() - ago + 2  # the container's start (the init container took 2 s)
    span = amb.span_maker(env, trace_id, name)

    root = span(f"{name} run", root_ms, start, None, status="error")
    # named by its statement, as the OpenTelemetry database conventions do
    db = span(query, query_ms, start + 0.5, root["spanID"], **{"db.system": "postgresql"})
    up = span(step, 1400, start + 0.5 + query_ms / 1000, root["spanID"], status="error")
    amb.store_trace(env, name, root, db, up)


def _panels(draw: bytes) -> list[dict[str, Any]]:
    """The batch dashboard's panels: generic titles, each with its own status."""
    memory = 86 + draw[9] % 9  # the last run's peak, 86% to 94% of its limit
    rows = [
        ("Last Run Duration", "stat", "41 s", "normal"),
        ("Failed Runs (24h)", "stat", "1", "warning"),
        ("CPU Usage", "gauge", f"{90 + draw[10] % 9}% of limit (throttled, last run)", "warning"),
        ("Memory Usage", "gauge", f"{memory}% of limit (last run peak)", "warning"),
        ("Disk Usage", "gauge", f"{30 + draw[11] % 20}%", "normal"),
    ]
    return [
        {"id": n + 1, "title": title, "type": kind, "current_value": value, "status": status}
        for n, (title, kind, value, status) in enumerate(rows)
    ]
