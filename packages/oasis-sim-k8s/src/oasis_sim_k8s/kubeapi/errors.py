"""Kubernetes ``Status`` answers (interop §3: clients print ``Error from server (Reason):
message`` from them; kubectl maps 401 to "You must be logged in to the server")."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response

from ..cluster.apiserver import status

JSON = "application/json"


def json_response(body: Any, code: int = 200, media: str = JSON) -> Response:
    """A compact JSON answer (the API server's encoding)."""
    return Response(json.dumps(body, separators=(",", ":")), status_code=code, media_type=media)


def failure(
    code: int, reason: str, message: str, details: dict[str, Any] | None = None
) -> Response:
    return json_response(status(code, reason, message, details), code)


def unauthorized() -> Response:
    return failure(401, "Unauthorized", "Unauthorized")


def not_found_path(path: str) -> Response:
    """What the API server answers for a path nothing serves (kubectl: ``the server could not
    find the requested resource``)."""
    return failure(404, "NotFound", "the server could not find the requested resource", {})


def not_allowed(verb: str, resource: str) -> Response:
    return failure(
        405,
        "MethodNotAllowed",
        f"the server does not allow this method on the requested resource ({verb} {resource})",
        {},
    )


def bad_request(message: str) -> Response:
    return failure(400, "BadRequest", message)


def unsupported_media(media: str) -> Response:
    return failure(
        415,
        "UnsupportedMediaType",
        f"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {media})",
    )
