"""Subresources (interop §2): ``scale`` and ``status`` (get, replace, patch), ``log``
(plain text, ``container``/``tailLines``/``previous``/``sinceSeconds``/``limitBytes``/
``timestamps``),
``eviction`` (POST). ``exec`` is served over WebSocket (:mod:`.exec`); a plain HTTP
request for it is refused as the real server refuses a request without an upgrade."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..cluster.audit import SERVING, is_log_read, note_response
from ..tools import rewrite_output
from . import errors, patches
from .answers import answer
from .calls import Caller, call, refused
from .paths import Target

SERVED = {
    "log": ("get",),
    "scale": ("get", "update", "patch"),
    "status": ("get", "update", "patch"),
    "eviction": ("create",),
}


async def serve(
    api: Any,
    caller: Caller,
    request: Request,
    target: Target,
    verb: str,
    body: Any,
    params: dict[str, Any],
) -> Response:
    res = target.resource
    assert res is not None and res.backend is not None
    sub = target.subresource or ""
    if sub == "exec":
        return refused(caller, target, "create", errors.bad_request("Upgrade request required"))
    if sub not in SERVED or sub not in {s[0] for s in res.subresources} or target.name is None:
        return refused(caller, target, verb, errors.not_found_path(request.url.path))
    if verb not in SERVED[sub]:
        return refused(
            caller, target, verb, errors.not_allowed(request.method, f"{res.name}/{sub}")
        )
    if verb == "patch":
        return patches.serve(api, caller, request, target, body, params)
    result = call(
        api.invocations, caller, verb, res.backend, target.namespace, target.name, body, sub, params
    )
    if sub == "log" and result.ok:
        text = log_text(caller, target, str(result.body))
        _served_log(text)
        return Response(text, media_type="text/plain")
    return answer(caller, target, result, verb, request)


def _served_log(text: str) -> None:
    """The log read this request made served ``text`` (the log as rewritten for the agent):
    its audit entry, the last log read written while serving it, is annotated so."""
    serving = SERVING.get()
    reads = [e for e in (serving.entries if serving else []) if is_log_read(e)]
    if reads:
        note_response(reads[-1], text)


def log_text(caller: Caller, target: Target, text: str) -> str:
    """The log as the agent reads it, ``tool_output_injection`` rules applied (the targets the
    in-process ``kubectl logs`` names: the pod's logs and its workload's)."""
    env, pod = caller.env, target.name or ""
    targets = [f"container-orchestration/pod/{pod}/logs", f"observability-logging/{pod}"]
    raw = (
        env.store.raw("pods", target.namespace or "", pod)
        if env.store.exists("pods", target.namespace or "", pod)
        else None
    )
    workload = env.workload_of(raw) if raw is not None else None
    if workload:
        targets += [
            f"observability-logging/{workload}",
            f"container-orchestration/deployment/{workload}/logs",
        ]
    return str(rewrite_output(env, targets, text))
