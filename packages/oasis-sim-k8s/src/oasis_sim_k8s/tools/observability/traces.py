"""``traces_query`` (observability-tracing): Jaeger-like search and trace trees. Not behind
the API server: each call is audited on its own."""

from __future__ import annotations

import json
from typing import Any

from ...cluster.clock import parse_ts
from ..base import (
    CallContext,
    Surface,
    ToolInputError,
    ToolResult,
    ToolSpec,
    arg_int,
    arg_str,
    schema,
)
from .common import _dumps, _duration_s

# ---- traces -----------------------------------------------------------------------------------------
TRACES_DESCRIPTION = (
    'Distributed traces (Jaeger). action=search finds traces by service, operation and min_duration (e.g. "1s", '
    '"500ms"); action=get shows one trace by trace_id as an indented span tree with durations and attributes '
    "(format=json for Jaeger JSON); action=services lists the traced services."
)


def tracing_tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="traces_query",
        interface_type="observability-tracing",
        description=TRACES_DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "action": {"type": "string", "enum": ["search", "get", "services"]},
                "trace_id": {"type": "string"},
                "service": {"type": "string"},
                "operation": {"type": "string"},
                "min_duration": {"type": "string", "description": "e.g. 1s, 500ms"},
                "limit": {"type": "integer"},
                "format": {"type": "string", "enum": ["tree", "json"]},
            }
        ),
    )
    return [(spec, traces_query)]


def _find_trace(env: Any, trace_id: str) -> dict[str, Any] | None:
    hit = env.traces.get(trace_id)
    if hit is not None:
        return hit
    want = trace_id.lower()
    matches = [
        t
        for tid, t in env.traces.traces.items()
        if tid.lower().endswith(want) or tid.lower().startswith(want)
    ]
    return matches[0] if len(matches) == 1 else None


def traces_query(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    surface, env = ctx.surface, ctx.surface.env
    trace_id = arg_str(args, "trace_id")
    action = str(args.get("action") or ("get" if trace_id else "search")).lower()
    ctx.targets.append("observability-tracing")
    if action == "services":
        services = sorted({s for t in env.traces.traces.values() for s in t["services"]})
        surface.audit_tool_call(ctx, verb="list", resource="traces")
        return ToolResult(
            _dumps(
                {"data": services, "total": len(services), "limit": 0, "offset": 0, "errors": None}
            )
        )
    if action == "get":
        return _get(ctx, trace_id, args)
    if action != "search":
        surface.audit_tool_call(ctx, verb="list", resource="traces", code=400)
        return ToolResult(f"unknown action {action!r}: use search, get or services", True)
    return _search(ctx, args)


def _errors(code: int, msg: str) -> ToolResult:
    """A Jaeger API error answer."""
    return ToolResult(
        _dumps(
            {
                "data": None,
                "total": 0,
                "limit": 0,
                "offset": 0,
                "errors": [{"code": code, "msg": msg}],
            }
        ),
        True,
    )


def _get(ctx: CallContext, trace_id: str | None, args: dict[str, Any]) -> ToolResult:
    """``action=get``: one trace as a span tree (or Jaeger JSON), by full or partial id."""
    surface, env = ctx.surface, ctx.surface.env
    if not trace_id:
        surface.audit_tool_call(ctx, verb="get", resource="traces", code=400)
        return _errors(400, "trace_id is required")
    trace = _find_trace(env, trace_id)
    ctx.targets[:0] = [f"observability-tracing/{trace_id}"] + (
        [f"observability-tracing/{trace['traceID']}"] if trace else []
    )
    surface.audit_tool_call(
        ctx, verb="get", resource="traces", name=trace_id, code=200 if trace else 404
    )
    if trace is None:
        return _errors(404, "trace not found")
    if str(args.get("format") or "tree") == "json":
        return ToolResult(
            _dumps(
                {
                    "data": [_jaeger(env, trace)],
                    "total": 0,
                    "limit": 0,
                    "offset": 0,
                    "errors": None,
                }
            )
        )
    return ToolResult(_tree(trace))


def _search(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    """``action=search``: traces by service, operation and minimum duration."""
    surface, env = ctx.surface, ctx.surface.env
    try:
        min_ms = _duration_s(args.get("min_duration"))
    except ToolInputError as exc:
        surface.audit_tool_call(ctx, verb="list", resource="traces", code=400)
        return ToolResult(_dumps({"data": None, "errors": [{"code": 400, "msg": str(exc)}]}), True)
    limit = arg_int(args, "limit", 20) or 20
    service = arg_str(args, "service")
    found = env.traces.search(
        service, arg_str(args, "operation"), min_ms * 1000 if min_ms is not None else None, limit
    )
    if service:
        ctx.targets.insert(0, f"observability-tracing/{service}")
    ctx.targets[:0] = [f"observability-tracing/{t['traceID']}" for t in found]
    surface.audit_tool_call(
        ctx,
        verb="list",
        resource="traces",
        params={
            k: v
            for k, v in {
                "service": service,
                "operation": arg_str(args, "operation"),
                "minDuration": args.get("min_duration"),
            }.items()
            if v
        },
    )
    data = [
        {
            "traceID": t["traceID"],
            "rootService": t["rootService"],
            "rootOperation": t["rootOperation"],
            "startTime": t["startTime"],
            "duration": f"{t['duration_ms']:g}ms",
            "spanCount": t["spanCount"],
            "services": t["services"],
        }
        for t in found
    ]
    return ToolResult(
        _dumps({"data": data, "total": len(data), "limit": limit, "offset": 0, "errors": None})
    )


def _tree(trace: dict[str, Any]) -> str:
    lines = [
        f"Trace {trace['traceID']}  ({trace['spanCount']} spans, {len(trace['services'])} services, "
        f"duration {trace['duration_ms']:g}ms, started {trace['startTime']})"
    ]
    root_start = parse_ts(trace["root"]["startTime"])

    def walk(node: dict[str, Any], prefix: str, last: bool, top: bool) -> None:
        start = parse_ts(node["startTime"])
        offset = (start - root_start).total_seconds() * 1000 if start and root_start else 0.0
        attrs = " ".join(
            f"{k}={json.dumps(v) if isinstance(v, str) else v}"
            for k, v in (node.get("attributes") or {}).items()
        )
        status = (
            ""
            if node.get("status", "ok") in ("ok", "OK", "unset")
            else f"  status={node.get('status')}"
        )
        branch = "" if top else ("└─ " if last else "├─ ")
        lines.append(
            f"{prefix}{branch}{node['service']}: {node['operation']}  {node['duration_ms']:g}ms "
            f"(+{offset:g}ms) span={node['spanID']}{status}" + (f"  [{attrs}]" if attrs else "")
        )
        kids = node.get("children") or []
        child_prefix = prefix + ("" if top else ("   " if last else "│  "))
        for i, kid in enumerate(kids):
            walk(kid, child_prefix, i == len(kids) - 1, False)

    walk(trace["root"], "", True, True)
    return "\n".join(lines) + "\n"


def _jaeger(env: Any, trace: dict[str, Any]) -> dict[str, Any]:
    procs: dict[str, str] = {}
    spans = []
    for s in trace["spans"]:
        pid = procs.setdefault(s["service"], f"p{len(procs) + 1}")
        start = parse_ts(s["startTime"])
        tags = [
            {"key": k, "type": "int64" if isinstance(v, int) else "string", "value": v}
            for k, v in (s.get("attributes") or {}).items()
        ]
        if s.get("status") not in (None, "ok", "OK"):
            tags.append({"key": "error", "type": "bool", "value": True})
        spans.append(
            {
                "traceID": s["traceID"],
                "spanID": s["spanID"],
                "operationName": s["operation"],
                "references": (
                    [{"refType": "CHILD_OF", "traceID": s["traceID"], "spanID": s["parentSpanID"]}]
                    if s.get("parentSpanID")
                    else []
                ),
                "startTime": int(start.timestamp() * 1e6) if start else 0,
                "duration": int(s["duration_ms"] * 1000),
                "tags": tags,
                "logs": [],
                "processID": pid,
                "warnings": None,
            }
        )
    return {
        "traceID": trace["traceID"],
        "spans": spans,
        "processes": {pid: {"serviceName": svc, "tags": []} for svc, pid in procs.items()},
        "warnings": None,
    }
