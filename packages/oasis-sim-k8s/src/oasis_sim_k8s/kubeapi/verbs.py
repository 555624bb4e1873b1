"""HTTP method + target -> API server verb, and the answer shaped as the real API server
shapes it (interop §2-§3): objects, lists, ``Table`` (``kubectl get``), watch events, log
text, ``Status`` errors.

``?watch=true`` answers the current state as ``ADDED`` events (and the
``initial-events-end`` bookmark client-go's watch-list asks for), then holds the stream
idle: later changes are not streamed (:func:`watch_stream`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import yaml
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..apiserver import ApiResult
from ..store import KINDS
from ..tools.k8s_format import for_output
from . import errors, metrics, patches, protobuf, subresources
from .calls import Caller, call
from .events import from_core
from .paths import Target
from .tables import to_table, wants_table

READ_ONLY = {"get", "list", "watch"}
#: the longest a watch stream stays open after its initial events (seconds)
WATCH_HOLD_S = 60.0
JSON_MEDIA = (
    "application/json",
    "application/yaml",
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "",
)


async def read_body(request: Request) -> tuple[Any, Response | None]:
    """The request body (JSON, or YAML for server-side apply); an error answer if unreadable."""
    raw = await request.body()
    if not raw:
        return None, None
    media = request.headers.get("content-type", "application/json").split(";")[0].strip()
    if "protobuf" in media:
        try:
            return protobuf.decode(raw), None
        except (protobuf.ProtobufError, UnicodeDecodeError) as exc:
            return None, errors.failure(415, "UnsupportedMediaType", str(exc))
    if media not in JSON_MEDIA:
        return None, errors.unsupported_media(media)
    try:
        if media in ("application/apply-patch+yaml", "application/yaml"):
            return yaml.safe_load(raw.decode()), None
        return json.loads(raw), None
    except (ValueError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return None, errors.bad_request(f"the body of the request was in an unknown format: {exc}")


def _verb(method: str, target: Target, params: dict[str, Any]) -> str | None:
    named = target.name is not None
    if method in ("GET", "HEAD"):
        if params.get("watch") in ("true", "1"):
            return "watch"
        return "get" if named else "list"
    return {
        "POST": "create",
        "PUT": "update" if named else None,
        "PATCH": "patch" if named else None,
        "DELETE": "delete" if named else "deletecollection",
    }.get(method)


async def serve(api: Any, caller: Caller, request: Request, target: Target) -> Response:
    """Serve one resource request as ``caller``."""
    params: dict[str, Any] = dict(request.query_params)
    verb = _verb(request.method, target, params)
    if verb is None:
        return errors.not_allowed(request.method, target.raw)
    body, bad = await read_body(request)
    if bad is not None:
        return bad
    res = target.resource
    if res is None or (res.backend is None and target.gv != "metrics.k8s.io/v1beta1"):
        # not served: the pipeline refuses it (404) and audits the attempt
        return _answer(
            caller,
            target,
            call(
                api.invocations,
                caller,
                verb,
                target.raw,
                target.namespace,
                target.name,
                body,
                target.subresource,
                params,
            ),
            verb,
            request,
        )
    if target.gv == "metrics.k8s.io/v1beta1":
        return metrics.serve(api, caller, target, verb)
    if verb not in READ_ONLY and params.get("dryRun"):
        return errors.bad_request("dry-run requests are not supported by this server")
    if target.subresource is not None:
        return await subresources.serve(api, caller, request, target, verb, body, params)
    if verb == "patch":
        return patches.serve(api, caller, request, target, body, params)
    if verb in ("delete", "deletecollection") and isinstance(body, dict):
        if body.get("propagationPolicy"):
            params["propagationPolicy"] = body["propagationPolicy"]
        body = None
    if target.gv == "events.k8s.io/v1" and verb not in READ_ONLY:
        return errors.not_allowed(
            request.method, "events.events.k8s.io (read-only view of core events)"
        )
    result = call(
        api.invocations,
        caller,
        verb,
        res.backend or target.raw,
        target.namespace,
        target.name,
        body,
        None,
        params,
    )
    return _answer(caller, target, result, verb, request)


def _answer(
    caller: Caller, target: Target, result: ApiResult, verb: str, request: Request
) -> Response:
    """The pipeline's result as the HTTP answer (Table, watch stream, view conversion)."""
    if not result.ok:
        return errors.json_response(result.body, result.code)
    body = for_output(result.body)
    plural = target.resource.backend if target.resource else target.raw
    if target.gv == "events.k8s.io/v1":
        body = _events_view(body, verb)
    table = wants_table(request.headers.get("accept", "")) and plural is not None
    include = request.query_params.get("includeObject")
    rv = str(caller.env.store.resource_version)
    if verb == "watch":
        return watch_stream(caller, request, plural or "", body, table, include, rv)
    if table and verb == "list":
        body = to_table(caller.env, plural or "", list(body.get("items") or []), rv, include)
    elif table and verb == "get" and isinstance(body, dict) and "metadata" in body:
        body = to_table(caller.env, plural or "", [body], rv, include)
    return errors.json_response(body, result.code)


def watch_stream(
    caller: Caller,
    request: Request,
    plural: str,
    body: Any,
    table: bool,
    include: str | None,
    rv: str,
) -> Response:
    """A watch: the initial events (when asked for: no ``resourceVersion``, or
    ``sendInitialEvents=true``, then the ``initial-events-end`` bookmark), then an idle
    stream until the client leaves or ``timeoutSeconds`` (at most :data:`WATCH_HOLD_S`).
    Changes made after the watch started are not streamed; a client sees them on its
    next list or watch."""
    params = request.query_params
    since = params.get("resourceVersion") or ""
    initial = params.get("sendInitialEvents") == "true" or since in ("", "0")
    lines = []
    for event in (body.get("events") or []) if initial else []:
        obj = event["object"]
        if table:
            obj = to_table(caller.env, plural, [obj], rv, include)
        lines.append({"type": event["type"], "object": obj})
    if params.get("sendInitialEvents") == "true":
        mark = {"resourceVersion": rv, "annotations": {"k8s.io/initial-events-end": "true"}}
        kind = KINDS[plural][0] if plural in KINDS else ""
        lines.append(
            {"type": "BOOKMARK", "object": {"kind": kind, "apiVersion": "", "metadata": mark}}
        )
    try:
        hold = min(float(params.get("timeoutSeconds") or WATCH_HOLD_S), WATCH_HOLD_S)
    except ValueError:
        hold = WATCH_HOLD_S

    async def stream() -> AsyncIterator[bytes]:
        for line in lines:
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()
        await anyio.sleep(hold)  # Starlette cancels the stream when the client leaves

    return StreamingResponse(stream(), media_type="application/json")


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
