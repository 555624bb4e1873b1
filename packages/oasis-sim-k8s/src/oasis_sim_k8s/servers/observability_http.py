"""Grafana- and Tempo-shaped HTTP read APIs on the agent listener, under ``/grafana`` and
``/tempo`` (issue 32; SI interface types ``observability-dashboards`` and
``observability-tracing``).

Agents written for a real stack read dashboards from Grafana and traces from Tempo over HTTP;
these serve them the environment's own dashboards and traces (:mod:`.fixtures`)::

    GET /grafana/api/search?query=&tag=                   [{uid, title, url, tags, ...}]
    GET /grafana/api/dashboards/uid/<uid>                 {"meta": {...}, "dashboard": {...}}
    GET /tempo/api/traces/<id>                            {"batches": [OTLP resource spans]}
    GET /tempo/api/v2/traces/<id>                         {"trace": {"resourceSpans": [...]}}
    GET /tempo/api/search?tags=&q=&minDuration=&limit=    {"traces": [...], "metrics": {...}}
    GET /tempo/api/search/tag/service.name/values         {"tagValues": [...]}

Like :mod:`.prometheus_api`, every request is the agent's ``dashboards`` or ``traces_query``
tool call, made through the environment's :class:`~.tools.ToolSurface` (the one the MCP
endpoint uses): audited under the agent's user with the same targets, noted as served,
counted by temporal triggers and rewritten by ``tool_output_injection``, so reading a
dashboard over HTTP is evidence of reading it exactly as the MCP tool call is. The bearer
token of ``agent_credentials`` is required (:mod:`.gate`); an agent not given the interface
type gets 403 (the attempt recorded like an unknown tool call). An answer an injection
rewrote into something that is not the tool's JSON is passed through as served.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..cluster.clock import parse_ts
from ..tools import ToolResult, ToolSurface
from ..web.guards import bearer

DASHBOARDS = "dashboards"
TRACES = "traces_query"
SurfaceFor = Callable[[str | None], ToolSurface | None]
#: the TraceQL a search understands: ``{ cond && cond ... }`` over these fields
_TRACEQL_COND = re.compile(
    r"^\s*(?P<field>resource\.service\.name|\.service\.name|name|span\.name|duration)\s*"
    r'(?P<op>=|>=|>)\s*(?P<value>"[^"]*"|[0-9.]+(?:ns|us|µs|ms|s|m|h))\s*$'
)


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


class _Caller:
    """One tool call per request, on the surface the request's bearer token names."""

    def __init__(self, surface_for: SurfaceFor, tool: str, interface: str, refuse: Any) -> None:
        self.surface_for, self.tool, self.interface, self.refuse = (
            surface_for,
            tool,
            interface,
            refuse,
        )

    def __call__(self, request: Request, arguments: dict[str, Any]) -> ToolResult | Response:
        surface = self.surface_for(bearer(request.headers))
        if surface is None:  # the gate lets no such request through; kept for direct use
            return self.refuse(401, "Unauthorized")
        result = surface.call(self.tool, arguments)
        if surface.tool(self.tool) is None:
            return self.refuse(403, f"this environment's agent was not given {self.interface}")
        return result


# ---- Grafana ------------------------------------------------------------------------------------


def _grafana_error(status: int, message: str) -> Response:
    return JSONResponse({"message": message}, status_code=status)


def _grafana_status(doc: Any, text: str) -> int:
    message = str(doc.get("message") or "") if isinstance(doc, dict) else text
    return 404 if "not found" in message.lower() else 400


def create_grafana_app(surface_for: SurfaceFor) -> Starlette:
    """Grafana's dashboard read API over the environment a request's bearer token names."""
    call = _Caller(surface_for, DASHBOARDS, "observability-dashboards (Grafana)", _grafana_error)

    async def search(request: Request) -> Response:
        query = request.query_params.get("query") or ""
        tags = request.query_params.getlist("tag")
        result = call(request, {"action": "search", "query": query})
        if isinstance(result, Response):
            return result
        doc = _parse(result.text)
        if result.is_error or not isinstance(doc, list):
            status = _grafana_status(doc, result.text) if result.is_error else 200
            return Response(result.text, status_code=status, media_type="application/json")
        hits = [d for d in doc if all(t in (d.get("tags") or []) for t in tags)]
        return JSONResponse(hits)

    async def dashboard(request: Request) -> Response:
        result = call(request, {"action": "get", "uid": request.path_params["uid"]})
        if isinstance(result, Response):
            return result
        status = _grafana_status(_parse(result.text), result.text) if result.is_error else 200
        return Response(result.text, status_code=status, media_type="application/json")

    return Starlette(
        routes=[
            Route("/api/search", search, methods=["GET"]),
            Route("/api/dashboards/uid/{uid}", dashboard, methods=["GET"]),
        ]
    )


# ---- Tempo --------------------------------------------------------------------------------------


def _tempo_error(status: int, message: str) -> Response:
    return PlainTextResponse(message, status_code=status)


def _tempo_failure(result: ToolResult) -> Response:
    """A tool error as Tempo answers it: its message as text, with the tool's status."""
    doc = _parse(result.text)
    errors = doc.get("errors") if isinstance(doc, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        return _tempo_error(int(errors[0].get("code") or 500), str(errors[0].get("msg") or ""))
    return _tempo_error(400, result.text)


def _value(v: Any) -> dict[str, Any]:
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    return {"stringValue": str(v)}


def otlp(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """A Jaeger trace (the tool's ``format=json``) as OTLP/JSON resource spans, one per
    service (ids in hex, times in unix nanoseconds as strings: the OTLP/JSON encoding)."""
    services = {k: p.get("serviceName", "") for k, p in (trace.get("processes") or {}).items()}
    by_service: dict[str, list[dict[str, Any]]] = {}
    for s in trace.get("spans") or []:
        tags = {t["key"]: t.get("value") for t in s.get("tags") or [] if isinstance(t, dict)}
        failed = tags.pop("error", None) is True
        parent = next(
            (r["spanID"] for r in s.get("references") or [] if r.get("refType") == "CHILD_OF"), ""
        )
        start = int(s.get("startTime") or 0) * 1000
        span = {
            "traceId": s.get("traceID", ""),
            "spanId": s.get("spanID", ""),
            "parentSpanId": parent,
            "name": s.get("operationName", ""),
            "kind": "SPAN_KIND_SERVER" if not parent else "SPAN_KIND_INTERNAL",
            "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + int(s.get("duration") or 0) * 1000),
            "attributes": [{"key": k, "value": _value(v)} for k, v in tags.items()],
            "status": {"code": "STATUS_CODE_ERROR"} if failed else {},
        }
        by_service.setdefault(services.get(s.get("processID", ""), ""), []).append(span)
    return [
        {
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": svc}}]},
            "scopeSpans": [{"scope": {"name": "oasis-sim-k8s"}, "spans": spans}],
        }
        for svc, spans in by_service.items()
    ]


def search_arguments(params: Any) -> dict[str, Any] | str:
    """The ``traces_query`` search a Tempo search asks for (``tags`` in logfmt, or the TraceQL
    subset ``{ resource.service.name = "x" && name = "op" && duration > 1s }``), or the reason
    it cannot be answered."""
    args: dict[str, Any] = {"action": "search"}
    conds: list[tuple[str, str, str]] = []
    try:
        for pair in shlex.split(params.get("tags") or ""):
            key, _, value = pair.partition("=")
            conds.append((key, "=", value))
    except ValueError as exc:
        return f"invalid tags: {exc}"
    q = (params.get("q") or "").strip()
    if q and q != "{}":
        if not (q.startswith("{") and q.endswith("}")):
            return f"unsupported TraceQL {q!r}: use {{ cond && cond }}"
        for part in q[1:-1].split("&&"):
            m = _TRACEQL_COND.match(part)
            if m is None:
                return f"unsupported TraceQL condition {part.strip()!r}"
            conds.append((m["field"], m["op"], m["value"].strip('"')))
    for key, op, value in conds:
        if key.endswith("service.name") and op == "=":
            args["service"] = value
        elif key in ("name", "span.name") and op == "=":
            args["operation"] = value
        elif key == "duration" and op != "=":
            args["min_duration"] = value
        else:
            return f"unsupported search condition {key}{op}{value}"
    if params.get("minDuration"):
        args["min_duration"] = params["minDuration"]
    if str(params.get("limit") or "").isdigit():
        args["limit"] = int(params["limit"])
    return args


def _summary(t: dict[str, Any]) -> dict[str, Any]:
    start = parse_ts(str(t.get("startTime") or ""))
    duration = str(t.get("duration") or "0ms").removesuffix("ms")
    try:
        ms = round(float(duration))
    except ValueError:
        ms = 0
    return {
        "traceID": t.get("traceID", ""),
        "rootServiceName": t.get("rootService", ""),
        "rootTraceName": t.get("rootOperation", ""),
        "startTimeUnixNano": str(int(start.timestamp()) * 10**9) if start else "0",
        "durationMs": ms,
    }


def create_tempo_app(surface_for: SurfaceFor) -> Starlette:
    """Tempo's trace read API over the environment a request's bearer token names."""
    call = _Caller(surface_for, TRACES, "observability-tracing (Tempo)", _tempo_error)

    def trace(request: Request, wrap: Callable[[list[Any]], Any]) -> Response:
        tid = request.path_params["trace_id"]
        result = call(request, {"action": "get", "trace_id": tid, "format": "json"})
        if isinstance(result, Response):
            return result
        if result.is_error:
            return _tempo_failure(result)
        doc = _parse(result.text)
        data = doc.get("data") if isinstance(doc, dict) else None
        if not (isinstance(data, list) and data and isinstance(data[0], dict)):
            return Response(result.text, media_type="application/json")
        return JSONResponse(wrap(otlp(data[0])))

    async def trace_v1(request: Request) -> Response:
        return trace(request, lambda batches: {"batches": batches})

    async def trace_v2(request: Request) -> Response:
        return trace(request, lambda batches: {"trace": {"resourceSpans": batches}})

    async def search(request: Request) -> Response:
        args = search_arguments(request.query_params)
        if isinstance(args, str):  # refused before the tool: the gate audits the 400
            return _tempo_error(400, args)
        result = call(request, args)
        if isinstance(result, Response):
            return result
        if result.is_error:
            return _tempo_failure(result)
        doc = _parse(result.text)
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, list):
            return Response(result.text, media_type="application/json")
        traces = [_summary(t) for t in data if isinstance(t, dict)]
        return JSONResponse({"traces": traces, "metrics": {"inspectedTraces": len(traces)}})

    def services(request: Request, wrap: Callable[[list[str]], Any]) -> Response:
        result = call(request, {"action": "services"})
        if isinstance(result, Response):
            return result
        doc = _parse(result.text)
        data = doc.get("data") if isinstance(doc, dict) else None
        if result.is_error or not isinstance(data, list):
            return _tempo_failure(result) if result.is_error else Response(result.text)
        return JSONResponse(wrap([str(s) for s in data]))

    async def tag_values(request: Request) -> Response:
        if request.path_params["tag"] not in ("service.name", "resource.service.name"):
            return JSONResponse({"tagValues": []})
        return services(request, lambda names: {"tagValues": names})

    async def tag_values_v2(request: Request) -> Response:
        if request.path_params["tag"] not in ("service.name", "resource.service.name"):
            return JSONResponse({"tagValues": []})
        return services(
            request,
            lambda names: {"tagValues": [{"type": "string", "value": n} for n in names]},
        )

    return Starlette(
        routes=[
            Route("/api/traces/{trace_id}", trace_v1, methods=["GET"]),
            Route("/api/v2/traces/{trace_id}", trace_v2, methods=["GET"]),
            Route("/api/search", search, methods=["GET"]),
            Route("/api/search/tag/{tag}/values", tag_values, methods=["GET"]),
            Route("/api/v2/search/tag/{tag}/values", tag_values_v2, methods=["GET"]),
        ]
    )


__all__ = ["create_grafana_app", "create_tempo_app", "otlp", "search_arguments"]
