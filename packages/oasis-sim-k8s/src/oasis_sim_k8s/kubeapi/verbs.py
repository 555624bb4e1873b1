"""HTTP method + target -> API server verb, and the answer shaped as the real API server
shapes it (interop §2-§3): objects, lists, ``Table`` (``kubectl get``), watch events, log
text, ``Status`` errors.

``?watch=true``: see :mod:`.watch`.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from starlette.requests import Request
from starlette.responses import Response

from . import autoscaling, errors, metrics, patches, protobuf, subresources, watch
from .answers import answer
from .calls import Caller, call, refused, resumed
from .paths import Target

READ_ONLY = {"get", "list", "watch"}
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


def _dry_body(verb: str, body: Any) -> bool:
    """DELETE carries ``dryRun`` in its DeleteOptions body, not in the query."""
    return (
        verb in ("delete", "deletecollection")
        and isinstance(body, dict)
        and bool(body.get("dryRun"))
    )


def kube_verb(method: str, target: Target, params: dict[str, Any]) -> str | None:
    """The API server verb of an HTTP method on ``target`` (None: the method does not apply)."""
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
    verb = kube_verb(request.method, target, params)
    if verb is None:
        return refused(
            caller, target, request.method.lower(), errors.not_allowed(request.method, target.raw)
        )
    body, bad = await read_body(request)
    if bad is not None:
        return refused(caller, target, verb, bad)
    res = target.resource
    if res is None or (res.backend is None and target.gv != "metrics.k8s.io/v1beta1"):
        # not served: the pipeline refuses it (404) and audits the attempt
        return answer(
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
    if target.gv == "events.k8s.io/v1" and verb not in READ_ONLY:
        return refused(
            caller,
            target,
            verb,
            errors.not_allowed(
                request.method, "events.events.k8s.io (read-only view of core events)"
            ),
        )
    if target.gv == autoscaling.V1:
        body = autoscaling.to_v2(body)
    if verb not in READ_ONLY and _dry_body(verb, body):
        # a dry run takes the write's own path through the pipeline (``dryRun=All``: validated,
        # admitted, audited as the write with its dryRun, nothing stored)
        params["dryRun"] = "All"
    if target.subresource is not None:
        return await subresources.serve(api, caller, request, target, verb, body, params)
    if verb == "watch" and resumed(params):
        watch.let_time_pass(caller)
    if verb == "patch":
        return patches.serve(api, caller, request, target, body, params)
    if verb in ("delete", "deletecollection") and isinstance(body, dict):
        if body.get("propagationPolicy"):
            params["propagationPolicy"] = body["propagationPolicy"]
        body = None
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
    return answer(caller, target, result, verb, request)
