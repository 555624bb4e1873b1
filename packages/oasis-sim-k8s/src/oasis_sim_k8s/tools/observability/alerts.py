"""The ``alerts`` action of ``metrics_query`` (observability-metrics): active alerts as the
Prometheus ``/api/v1/alerts`` answer, with state, labels and annotations."""

from __future__ import annotations

from typing import Any

from ...cluster.clock import parse_ts
from ..base import CallContext


def alerts_doc(ctx: CallContext, state: str | None) -> dict[str, Any]:
    """The alerts in ``state`` (default: all but inactive); their targets lead ``ctx.targets``."""
    alerts = []
    for a in ctx.surface.env.alerts.list(state):
        if a.get("state") == "inactive" and not state:
            continue
        alerts.append(
            {
                "labels": dict(a.get("labels") or {}),
                "annotations": dict(a.get("annotations") or {}),
                "state": a.get("state"),
                "activeAt": _prom_time(a.get("activeAt")),
                "value": a.get("value", "1e+00"),
            }
        )
    ctx.targets[:0] = ["observability-metrics/alerts"] + [
        f"observability-metrics/alerts/{a['labels'].get('alertname')}" for a in alerts
    ]
    return {"status": "success", "data": {"alerts": alerts}}


def _prom_time(ts: str | None) -> str | None:
    when = parse_ts(ts)
    return when.strftime("%Y-%m-%dT%H:%M:%S.000000000Z") if when else ts
