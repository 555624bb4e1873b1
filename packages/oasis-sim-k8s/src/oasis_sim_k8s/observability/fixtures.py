"""Traces, alerts, dashboards, database migrations and runbooks (SI provider guide
§1.8, §1.11; interface types ``observability-tracing``, ``observability-dashboards``,
``database``).

Plain stores with the lookups a tools layer needs. Traces keep a span tree
(root span, children with service/operation/duration/status/attributes);
alerts follow the Prometheus alerts API shape (``state`` pending/firing,
``labels``, ``annotations.summary/description``, ``activeAt``); dashboards
are Grafana-like (``uid``, ``title``, ``panels[{id, title, type, ...}]``; a
panel's ``current_value`` comes from the cluster or its metric, and a panel
whose query has no samples says "No data" the way Grafana does);
runbooks are ConfigMaps labelled ``app.kubernetes.io/component=runbook`` so the
agent finds them through the Kubernetes API as well.
"""

from __future__ import annotations

from typing import Any

RUNBOOK_LABEL = ("app.kubernetes.io/component", "runbook")
#: a dashboard panel whose query has no samples
NO_DATA = "No data"


class Traces:
    def __init__(self, env: Any):
        self.env = env
        self.traces: dict[str, dict[str, Any]] = {}

    def add(self, trace_id: str, root: dict[str, Any], default_service: str) -> dict[str, Any]:
        spans: list[dict[str, Any]] = []
        start = self.env.clock.seconds() - 120

        tree = self._span(trace_id, spans, root, None, default_service, start)
        trace = {
            "traceID": trace_id,
            "rootService": tree["service"],
            "rootOperation": tree["operation"],
            "duration_ms": tree["duration_ms"],
            "startTime": tree["startTime"],
            "spanCount": len(spans),
            "services": sorted({s["service"] for s in spans}),
            "root": tree,
            "spans": spans,
        }
        self.traces[trace_id] = trace
        return trace

    def _span(
        self,
        trace_id: str,
        spans: list[dict[str, Any]],
        node: dict[str, Any],
        parent: str | None,
        service: str,
        begin: float,
    ) -> dict[str, Any]:
        """One span and its children, appended to ``spans`` (a method, not a closure calling
        itself: such a closure is a reference cycle holding the environment)."""
        span_id = self.env.ids.hex(16)
        svc = str(node.get("service") or service)
        dur = float(node.get("duration_ms") or 0)
        span = {
            "traceID": trace_id,
            "spanID": span_id,
            "parentSpanID": parent,
            "service": svc,
            "operation": str(node.get("operation") or node.get("name") or "unknown"),
            "startTime": self.env.clock.at(begin).isoformat().replace("+00:00", "Z"),
            "duration_ms": dur,
            "status": str(node.get("status") or "ok"),
            "attributes": dict(node.get("attributes") or {}),
        }
        spans.append(span)
        offset = begin + 0.001
        kids = []
        for child in node.get("children") or []:
            kids.append(self._span(trace_id, spans, child, span_id, svc, offset))
            offset += float(child.get("duration_ms") or 0) / 1000.0
        return {**span, "children": kids}

    def get(self, trace_id: str) -> dict[str, Any] | None:
        return self.traces.get(trace_id)

    def search(
        self,
        service: str | None = None,
        operation: str | None = None,
        min_duration_ms: float | None = None,
        limit: int = 20,
    ) -> list[dict[str, Any]]:
        out = []
        for trace in self.traces.values():
            if service and service not in trace["services"]:
                continue
            if operation and not any(operation in s["operation"] for s in trace["spans"]):
                continue
            if min_duration_ms is not None and trace["duration_ms"] < min_duration_ms:
                continue
            out.append(
                {
                    k: trace[k]
                    for k in (
                        "traceID",
                        "rootService",
                        "rootOperation",
                        "duration_ms",
                        "startTime",
                        "spanCount",
                        "services",
                    )
                }
            )
        return sorted(out, key=lambda t: -t["duration_ms"])[:limit]


class Alerts:
    def __init__(self, env: Any):
        self.env = env
        self.alerts: dict[str, dict[str, Any]] = {}

    def set(
        self,
        name: str,
        state: str,
        labels: dict[str, str] | None = None,
        annotations: dict[str, str] | None = None,
        value: str | None = None,
    ) -> dict[str, Any]:
        alert = self.alerts.get(name) or {
            "labels": {"alertname": name, "severity": "warning"},
            "annotations": {},
            "activeAt": self.env.clock.ts(),
            "value": "1e+00",
        }
        alert["labels"].update({k: str(v) for k, v in (labels or {}).items()})
        alert["annotations"].update({k: str(v) for k, v in (annotations or {}).items()})
        if alert.get("state") != state:
            alert["activeAt"] = self.env.clock.ts()
        alert["state"] = state
        if value is not None:
            alert["value"] = value
        self.alerts[name] = alert
        return alert

    def list(self, state: str | None = None) -> list[dict[str, Any]]:
        return [
            dict(a, name=n) for n, a in sorted(self.alerts.items()) if state in (None, a["state"])
        ]


class Dashboards:
    def __init__(self, env: Any):
        self.env = env
        self.boards: dict[str, dict[str, Any]] = {}

    def add(
        self, uid: str, title: str, panels: list[dict[str, Any]], tags: list[str] | None = None
    ) -> None:
        self.boards[uid] = {"uid": uid, "title": title, "tags": tags or [], "panels": panels}

    def get(self, uid: str) -> dict[str, Any] | None:
        board = self.boards.get(uid)
        if board is None:
            return None
        panels = []
        for panel in board["panels"]:
            p = dict(panel)
            if "metric" in p and "current_value" not in p:
                value = self._value(p["metric"])
                if value is not None:
                    p["current_value"] = value
                else:  # what Grafana renders for a query without samples
                    field_config = dict(p.get("fieldConfig") or {})
                    field_config["defaults"] = {
                        **(field_config.get("defaults") or {}),
                        "noValue": NO_DATA,
                    }
                    p["fieldConfig"] = field_config
            panels.append(p)
        return {**board, "panels": panels}

    def list(self) -> list[dict[str, Any]]:
        return [
            {"uid": b["uid"], "title": b["title"], "tags": b["tags"]} for b in self.boards.values()
        ]

    def _value(self, metric: str) -> str | None:
        """A panel's current value: pods from the cluster, ``cpu_usage``/``memory_usage`` from the
        nodes' utilisation (what ``kubectl top nodes`` shows), anything else from its metric."""
        store = self.env.store
        if metric == "pod_count":
            return str(
                sum(
                    1
                    for p in store.iter("pods")
                    if (p.get("status") or {}).get("phase") == "Running"
                )
            )
        key = {
            "cpu_usage": "instance:node_cpu_utilisation:rate5m",
            "memory_usage": "instance:node_memory_utilisation:ratio",
        }.get(metric, metric)
        try:
            res = self.env.metrics.query(f"avg({key})")["result"]
        except Exception:  # noqa: BLE001 - an unreadable panel query shows no value
            return None
        if not res:
            return None
        value = float(res[0]["value"][1])
        return (
            f"{value * 100:.0f}%"
            if key.endswith(("utilisation:rate5m", "utilisation:ratio"))
            else f"{value:g}"
        )


class Database:
    """Schema migrations per database/service (interface type ``database``)."""

    def __init__(self, env: Any):
        self.env = env
        self.dbs: dict[str, dict[str, Any]] = {}

    def set(self, name: str, info: dict[str, Any]) -> None:
        self.dbs[name] = info

    def get(self, name: str) -> dict[str, Any] | None:
        return self.dbs.get(name)

    def list(self) -> list[str]:
        return sorted(self.dbs)


def runbooks(env: Any, namespace: str | None = None) -> list[dict[str, Any]]:
    """Runbook ConfigMaps, parsed: ``{name, namespace, title, steps}``."""
    out = []
    key, value = RUNBOOK_LABEL
    for cm in env.store.iter("configmaps", namespace):
        if (cm["metadata"].get("labels") or {}).get(key) != value:
            continue
        data = cm.get("data") or {}
        steps = [
            ln.split(". ", 1)[1] if ". " in ln else ln
            for ln in (data.get("steps") or "").splitlines()
            if ln
        ]
        out.append(
            {
                "name": (cm["metadata"].get("annotations") or {}).get(
                    "runbook/name", cm["metadata"]["name"]
                ),
                "configmap": cm["metadata"]["name"],
                "namespace": cm["metadata"]["namespace"],
                "title": data.get("title", ""),
                "steps": steps,
            }
        )
    return out
