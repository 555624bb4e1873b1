"""The Prometheus HTTP API of a simulated environment, on the agent listener under
``/prometheus`` (issue 16 item 2; SI interface type ``observability-metrics``).

Agents written for a real cluster query Prometheus over HTTP; this serves them the
environment's own metrics and alerts (:mod:`.promql`, :mod:`.observability`) in the real
API's envelope::

    GET|POST /prometheus/api/v1/query?query=&time=                 instant vector / scalar
    GET|POST /prometheus/api/v1/query_range?query=&start=&end=&step=   matrix
    GET      /prometheus/api/v1/alerts                             {"alerts": [...]}
    GET|POST /prometheus/api/v1/series?match[]=...                 label sets
    GET      /prometheus/api/v1/label/__name__/values              metric names

Success is ``{"status": "success", "data": {...}}``; an error is ``{"status": "error",
"errorType", "error"}`` with Prometheus's status codes (``bad_data`` 400, ``execution``
422, ``internal`` 500, ``unavailable`` 503). Times are unix seconds or RFC 3339 (the
tool's relative forms such as ``-30m`` work too).

Every request is the agent's ``metrics_query`` tool call, made through the same
:class:`~.tools.ToolSurface` the MCP endpoint uses (one surface per environment and user):
audited under the agent's user in the agent's session with the same audit event shape,
noted in the environment's record of served calls (:mod:`.served`), counted by temporal
triggers, and rewritten by ``tool_output_injection`` like any other tool output. The
bearer token of ``agent_credentials`` is required; a scenario that did not give its agent
``observability-metrics`` gets 403 (the attempt recorded like an unknown tool call).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..tools import ToolSurface
from ..web.guards import bearer

TOOL = "metrics_query"
API = "/api/v1"
#: Prometheus errorType -> HTTP status (prometheus/web/api/v1)
STATUS = {
    "bad_data": 400,
    "execution": 422,
    "canceled": 503,
    "timeout": 503,
    "unavailable": 503,
    "not_found": 404,
    "internal": 500,
}
SurfaceFor = Callable[[str | None], ToolSurface | None]


def error(status: int, kind: str, message: str) -> JSONResponse:
    """The Prometheus error envelope."""
    headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'} if status == 401 else None
    return JSONResponse(
        {"status": "error", "errorType": kind, "error": message},
        status_code=status,
        headers=headers,
    )


async def _params(request: Request) -> dict[str, list[str]]:
    """Query-string and form parameters (Prometheus accepts both for query endpoints)."""
    out: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        out.setdefault(key, []).append(value)
    if request.method == "POST":
        form = await request.form()
        for key, field in form.multi_items():
            if isinstance(field, str):
                out.setdefault(key, []).append(field)
    return out


def _answer(result_text: str, is_error: bool) -> Response:
    """A tool answer as the HTTP response: the document as it was served (possibly rewritten by
    an injection, so it is passed through as text), its status from its ``errorType``."""
    status = 200
    if is_error:
        try:
            doc = json.loads(result_text)
        except ValueError:
            doc = None
        kind = doc.get("errorType") if isinstance(doc, dict) else None
        status = STATUS.get(str(kind), 500) if kind else 500
    return Response(result_text, status_code=status, media_type="application/json")


def create_prometheus_app(surface_for: SurfaceFor) -> Starlette:
    """The Prometheus HTTP API over the environment a request's bearer token names
    (``surface_for(token)``: its tool surface, None for an unknown token)."""

    def call(request: Request, arguments: dict[str, Any]) -> Response:
        token = bearer(request.headers)
        surface = surface_for(token)
        if surface is None:
            return error(401, "unauthorized", "missing or invalid bearer token")
        result = surface.call(TOOL, arguments)
        if surface.tool(TOOL) is None:
            return error(
                403,
                "forbidden",
                "this environment's agent was not given observability-metrics (Prometheus)",
            )
        return _answer(result.text, result.is_error)

    def pick(params: dict[str, list[str]], *keys: str) -> dict[str, str]:
        return {k: params[k][-1] for k in keys if params.get(k)}

    async def query(request: Request) -> Response:
        params = await _params(request)
        return call(request, {"action": "query", **pick(params, "query", "time")})

    async def query_range(request: Request) -> Response:
        params = await _params(request)
        for key in ("start", "end", "step"):
            if not params.get(key):
                return error(400, "bad_data", f'invalid parameter "{key}": missing')
        args = pick(params, "query", "start", "end", "step")
        return call(request, {"action": "query_range", **args})

    async def alerts(request: Request) -> Response:
        return call(request, {"action": "alerts"})

    async def series(request: Request) -> Response:
        params = await _params(request)
        matches = params.get("match[]") or []
        if not matches:
            return error(400, "bad_data", "no match[] parameter provided")
        data: list[Any] = []
        for match in matches:  # each selector is one call, audited as such
            response = call(request, {"action": "series", "query": match})
            if response.status_code != 200:
                return response
            doc = json.loads(bytes(response.body))
            data.extend(x for x in doc.get("data") or [] if x not in data)
        return JSONResponse({"status": "success", "data": data})

    async def metric_names(request: Request) -> Response:
        return call(request, {"action": "metric_names"})

    return Starlette(
        routes=[
            Route(f"{API}/query", query, methods=["GET", "POST"]),
            Route(f"{API}/query_range", query_range, methods=["GET", "POST"]),
            Route(f"{API}/alerts", alerts, methods=["GET"]),
            Route(f"{API}/series", series, methods=["GET", "POST"]),
            Route(f"{API}/label/__name__/values", metric_names, methods=["GET"]),
        ]
    )


__all__ = ["create_prometheus_app", "error"]
