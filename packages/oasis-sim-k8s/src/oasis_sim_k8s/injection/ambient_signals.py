"""The ambient batch job's own signals (issue 27, round 2 of the noise): its team's dashboard,
beside the CronJob of :mod:`.ambient`.

A production Grafana holds more than the incident's board: the batch job's team dashboard
shows its last run (one failed run, the run's CPU and memory peaks in ``warning``, the rest
``normal``), under the generic panel titles every service dashboard has. It belongs to the
ambient CronJob only: its uid, title and tags name it, never a declared object. An agent that
opens the dashboard the operator names never needs it; one that judges every panel it reads by
its own status field reads the batch job's panels as the incident's.

Deterministic: the values come from the environment's draw.
"""

from __future__ import annotations

from typing import Any


def add(env: Any, name: str, ago: float, draw: bytes) -> None:
    """The batch dashboard of ``name`` (its last run ``ago`` seconds before provision), unless
    a declared one already has its uid."""
    uid = f"{name}-batch"
    if uid not in env.dashboards.boards:
        env.dashboards.add(uid, f"{name} (batch)", _panels(draw), ["batch", name])


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
