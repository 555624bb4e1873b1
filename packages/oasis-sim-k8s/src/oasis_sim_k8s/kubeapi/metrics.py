"""``metrics.k8s.io/v1beta1`` pods and nodes (``kubectl top``), from the usage the
in-process ``kubectl top`` reads (:func:`..observability.pod_usage`, ``node_usage``).

Authorization and audit go through the pipeline as a get/list of the core ``pods`` /
``nodes`` the metrics describe (the in-process ``kubectl top`` makes the same calls);
a real cluster authorizes ``pods.metrics.k8s.io`` instead.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ..cluster.audit import SERVING, note_usage
from ..cluster.quantity import mem_bytes
from ..observability.usage import node_usage, pod_usage
from . import errors
from .calls import Caller, call, refused
from .paths import Target

WINDOW = "15s"


def _cpu(millis: float) -> str:
    return f"{int(millis * 1_000_000)}n"


def _mem(b: float) -> str:
    return f"{int(b) // 1024}Ki"


def _meta(obj: dict[str, Any], env: Any) -> dict[str, Any]:
    meta = obj["metadata"]
    out = {"name": meta["name"], "creationTimestamp": env.clock.ts()}
    if meta.get("namespace"):
        out["namespace"] = meta["namespace"]
    if meta.get("labels"):
        out["labels"] = meta["labels"]
    return out


def pod_metrics(env: Any, pod: dict[str, Any]) -> dict[str, Any] | None:
    usage = pod_usage(env, pod)
    if usage is None:
        return None
    return {
        "kind": "PodMetrics",
        "apiVersion": "metrics.k8s.io/v1beta1",
        "metadata": _meta(pod, env),
        "timestamp": env.clock.ts(),
        "window": WINDOW,
        "containers": [
            {"name": c, "usage": {"cpu": _cpu(cpu), "memory": _mem(mem)}}
            for c, (cpu, mem) in usage.items()
        ],
    }


def node_metrics(env: Any, node: dict[str, Any]) -> dict[str, Any]:
    cpu, mem, _, _ = node_usage(env, node)
    return {
        "kind": "NodeMetrics",
        "apiVersion": "metrics.k8s.io/v1beta1",
        "metadata": _meta(node, env),
        "timestamp": env.clock.ts(),
        "window": WINDOW,
        "usage": {"cpu": _cpu(cpu), "memory": _mem(mem)},
    }


def serve(api: Any, caller: Caller, target: Target, verb: str) -> Response:
    """GET pods/nodes metrics (one or a list) as the caller."""
    res = target.resource
    assert res is not None
    if verb not in ("get", "list") or target.subresource:
        return refused(
            caller, target, verb, errors.not_allowed(verb.upper(), f"{res.name}.metrics.k8s.io")
        )
    plural = res.name
    ns = target.namespace if plural == "pods" else None
    result = call(api.invocations, caller, verb, plural, ns, target.name)
    if not result.ok:
        return errors.json_response(result.body, result.code)
    env = caller.env
    objs = [result.body] if verb == "get" else list(result.body.get("items") or [])
    made = [pod_metrics(env, o) if plural == "pods" else node_metrics(env, o) for o in objs]
    items = [m for m in made if m is not None]
    serving = SERVING.get()
    note_usage(serving.entries if serving else [], _usage(items))  # rule 703
    if verb == "get":
        if not items:
            what = f"{target.namespace}/{target.name}" if ns else target.name
            return errors.failure(
                404,
                "NotFound",
                f'{res.kind.lower()}.metrics.k8s.io "{what}" not found',
                {"name": target.name, "group": "metrics.k8s.io", "kind": plural},
            )
        return errors.json_response(items[0])
    return errors.json_response(
        {
            "kind": f"{res.kind}List",
            "apiVersion": "metrics.k8s.io/v1beta1",
            "metadata": {},
            "items": items,
        }
    )


def _usage(items: list[dict[str, Any]]) -> list[tuple[dict[str, str], float]]:
    """The memory ``items`` (PodMetrics, NodeMetrics) serve, in bytes, per labelled object."""
    out: list[tuple[dict[str, str], float]] = []
    for m in items:
        meta = m["metadata"]
        if m["kind"] == "NodeMetrics":
            out.append(({"node": meta["name"]}, float(mem_bytes(m["usage"]["memory"]) or 0)))
            continue
        for c in m["containers"]:
            labels = {
                "namespace": meta.get("namespace", ""),
                "pod": meta["name"],
                "container": c["name"],
            }
            out.append((labels, float(mem_bytes(c["usage"]["memory"]) or 0)))
    return out
