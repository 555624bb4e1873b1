"""``autoscaling/v1`` HorizontalPodAutoscalers: a view of the stored ``autoscaling/v2`` objects
(issue 32: kubectl before 1.30 creates its ``autoscale`` HPA as ``autoscaling/v1``).

As the API server converts between versions: v1's ``targetCPUUtilizationPercentage`` is v2's
one CPU ``Resource`` metric with an ``Utilization`` target (and back; other v2 metrics have
no v1 form and are left out of the v1 view, as the real server keeps them in an annotation).
"""

from __future__ import annotations

import copy
from typing import Any

V1 = "autoscaling/v1"
V2 = "autoscaling/v2"


def to_v2(body: Any) -> Any:
    """A v1 request body as the stored v2 object."""
    if not isinstance(body, dict) or body.get("apiVersion") != V1:
        return body
    out = copy.deepcopy(body)
    out["apiVersion"] = V2
    spec = out.get("spec")
    if isinstance(spec, dict):
        cpu = spec.pop("targetCPUUtilizationPercentage", None)
        if isinstance(cpu, int):
            spec["metrics"] = [
                {
                    "type": "Resource",
                    "resource": {
                        "name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": cpu},
                    },
                }
            ]
    return out


def _cpu(spec: dict[str, Any]) -> int | None:
    for metric in spec.get("metrics") or []:
        resource = metric.get("resource") if isinstance(metric, dict) else None
        if isinstance(resource, dict) and resource.get("name") == "cpu":
            value = (resource.get("target") or {}).get("averageUtilization")
            if isinstance(value, int):
                return value
    return None


def to_v1(obj: Any) -> Any:
    """A stored v2 object as its v1 view."""
    if not isinstance(obj, dict) or "spec" not in obj:
        return obj
    out = copy.deepcopy(obj)
    out["apiVersion"] = V1
    spec = out["spec"] if isinstance(out["spec"], dict) else {}
    cpu = _cpu(spec)
    spec.pop("metrics", None)
    spec.pop("behavior", None)
    if cpu is not None:
        spec["targetCPUUtilizationPercentage"] = cpu
    status = out.get("status")
    if isinstance(status, dict):
        current = _current_cpu(status)
        for key in ("currentMetrics", "conditions"):
            status.pop(key, None)
        if current is not None:
            status["currentCPUUtilizationPercentage"] = current
    return out


def _current_cpu(status: dict[str, Any]) -> int | None:
    for metric in status.get("currentMetrics") or []:
        resource = metric.get("resource") if isinstance(metric, dict) else None
        if isinstance(resource, dict) and resource.get("name") == "cpu":
            value = (resource.get("current") or {}).get("averageUtilization")
            if isinstance(value, int):
                return value
    return None


def view(body: Any, verb: str) -> Any:
    """An answer of the v2 pipeline (object, list or watch events) as v1."""
    if verb == "watch" and isinstance(body, dict) and "events" in body:
        return {"events": [{**e, "object": to_v1(e["object"])} for e in body["events"]]}
    if isinstance(body, dict) and isinstance(body.get("items"), list):
        return {**body, "apiVersion": V1, "items": [to_v1(i) for i in body["items"]]}
    return to_v1(body)


__all__ = ["to_v1", "to_v2", "view"]
