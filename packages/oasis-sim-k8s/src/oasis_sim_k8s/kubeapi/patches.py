"""PATCH: JSON patch, merge patch, strategic merge patch, and server-side apply
(``application/apply-patch+yaml``) — interop §2.

Server-side apply is approximated: the applied configuration is strategically merged
into the live object (created when missing); field ownership (``managedFields``,
``fieldManager`` conflicts) is not tracked.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import errors
from .answers import answer
from .calls import Caller, call, refused
from .paths import Target

PATCH_TYPES = {
    "application/json-patch+json": "json",
    "application/merge-patch+json": "merge",
    "application/strategic-merge-patch+json": "strategic",
}
APPLY = "application/apply-patch+yaml"


def serve(
    api: Any, caller: Caller, request: Request, target: Target, body: Any, params: dict[str, Any]
) -> Response:
    media = request.headers.get("content-type", "").split(";")[0].strip()
    res = target.resource
    assert res is not None and res.backend is not None
    if media == APPLY:
        if not isinstance(body, dict):
            return refused(
                caller,
                target,
                "patch",
                errors.bad_request("the applied configuration must be an object"),
            )
        result = call(
            api.invocations,
            caller,
            "apply",
            res.backend,
            target.namespace,
            target.name,
            body,
            target.subresource,
            {**params, "patchType": "strategic"},
        )
        return answer(caller, target, result, "patch", request)
    patch_type = PATCH_TYPES.get(media)
    if patch_type is None:
        return refused(caller, target, "patch", errors.unsupported_media(media))
    result = call(
        api.invocations,
        caller,
        "patch",
        res.backend,
        target.namespace,
        target.name,
        body,
        target.subresource,
        {**params, "patchType": patch_type},
    )
    return answer(caller, target, result, "patch", request)
