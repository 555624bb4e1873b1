"""The API server pipeline's result as the HTTP answer real clients read (interop §2-§3):
objects and lists as stored, ``Table`` for ``kubectl get``, watch streams, the
``events.k8s.io/v1`` and ``autoscaling/v1`` views, and ``Status`` errors. Shared by every
verb (:mod:`.verbs`), dry runs, patches and subresources."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..cluster.apiserver import ApiResult
from ..tools.k8s_format import for_output
from . import autoscaling, errors, watch
from .calls import Caller
from .events import from_core
from .paths import Target
from .tables import to_table, wants_table


def _pod_defaults(body: Any) -> Any:
    """The fields the real API server defaults on every pod that clients dereference
    (issue 32: ``kubectl debug`` crashed on a pod without ``spec.securityContext``)."""
    for pod in body.get("items") or [body] if isinstance(body, dict) else []:
        spec = pod.get("spec") if isinstance(pod, dict) else None
        if isinstance(spec, dict):
            spec.setdefault("securityContext", {})
    return body


def answer(
    caller: Caller, target: Target, result: ApiResult, verb: str, request: Request
) -> Response:
    """The pipeline's result as the HTTP answer (Table, watch stream, view conversion)."""
    if not result.ok:
        return errors.json_response(result.body, result.code)
    body = for_output(result.body)
    plural = target.resource.backend if target.resource else target.raw
    if plural == "pods":
        body = _pod_defaults(body)
    table = wants_table(request.headers.get("accept", "")) and plural is not None
    if target.gv == "events.k8s.io/v1" and not table:
        body = _events_view(body, verb)
    if target.gv == autoscaling.V1 and not table:
        body = autoscaling.view(body, verb)
    include = request.query_params.get("includeObject")
    rv = str(caller.env.store.resource_version)
    if verb == "watch":
        return watch.stream(
            caller, request, plural or "", body, table, include, rv, target.namespace
        )
    if table and verb == "list":
        body = to_table(caller.env, plural or "", list(body.get("items") or []), rv, include)
    elif table and verb == "get" and isinstance(body, dict) and "metadata" in body:
        body = to_table(caller.env, plural or "", [body], rv, include)
    return errors.json_response(body, result.code)


def _events_view(body: Any, verb: str) -> Any:
    """Core events as ``events.k8s.io/v1`` events."""
    if verb == "watch":
        return {
            "events": [
                {"type": e["type"], "object": from_core(e["object"])}
                for e in body.get("events") or []
            ]
        }
    if isinstance(body, dict) and "items" in body:
        return {
            **body,
            "apiVersion": "events.k8s.io/v1",
            "items": [from_core(i) for i in body["items"]],
        }
    return from_core(body)
