"""The ``events.k8s.io/v1`` view of the store's core events (the same objects under the
newer field names: ``note``, ``regarding``, ``deprecated*``)."""

from __future__ import annotations

from typing import Any


def from_core(event: dict[str, Any]) -> dict[str, Any]:
    source = event.get("source") or {}
    out: dict[str, Any] = {
        "kind": "Event",
        "apiVersion": "events.k8s.io/v1",
        "metadata": event.get("metadata") or {},
        "eventTime": event.get("eventTime"),
        "reportingController": event.get("reportingComponent") or source.get("component", ""),
        "reportingInstance": event.get("reportingInstance") or source.get("host", ""),
        "action": event.get("action", ""),
        "reason": event.get("reason", ""),
        "regarding": event.get("involvedObject") or {},
        "note": event.get("message", ""),
        "type": event.get("type", "Normal"),
        "deprecatedSource": source,
        "deprecatedFirstTimestamp": event.get("firstTimestamp"),
        "deprecatedLastTimestamp": event.get("lastTimestamp"),
        "deprecatedCount": event.get("count", 1),
    }
    if event.get("related"):
        out["related"] = event["related"]
    return out
