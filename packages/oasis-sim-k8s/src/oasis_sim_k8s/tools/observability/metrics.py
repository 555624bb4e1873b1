"""``metrics_query`` (observability-metrics): Prometheus HTTP API answers; the ``alerts``
action is :mod:`.alerts`. Not behind the API server: each call is audited on its own."""

from __future__ import annotations

import re
from typing import Any

from ...cluster.audit import note_series, note_values
from ...observability.promql import AGGS, RANGE_FUNCS, QueryError
from ..base import (
    CallContext,
    Surface,
    ToolInputError,
    ToolResult,
    ToolSpec,
    arg_str,
    schema,
)
from .alerts import alerts_doc
from .common import _dumps, _duration_s, _instant

# ---- metrics --------------------------------------------------------------------------------------
METRICS_DESCRIPTION = (
    "Prometheus HTTP API. action=query (instant PromQL at `time`, default now), query_range (PromQL over "
    '`start`..`end` with `step`, e.g. start="-6h"), metric_names (every metric name), series (label sets of a '
    "metric selector in `query`), alerts (active alerts with state, labels and annotations; `state` filters). "
    'Times: "now", "-30m", RFC 3339 or unix seconds.'
)


def metrics_tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="metrics_query",
        interface_type="observability-metrics",
        description=METRICS_DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "action": {
                    "type": "string",
                    "enum": ["query", "query_range", "metric_names", "series", "alerts"],
                    "description": "default: query",
                },
                "query": {"type": "string", "description": "PromQL expression"},
                "time": {"type": "string"},
                "start": {"type": "string"},
                "end": {"type": "string"},
                "step": {"type": "string", "description": "resolution, e.g. 60s or 5m"},
                "state": {"type": "string", "enum": ["firing", "pending", "inactive"]},
            }
        ),
    )
    return [(spec, metrics_query)]


def _prom_error(kind: str, message: str) -> ToolResult:
    return ToolResult(_dumps({"status": "error", "errorType": kind, "error": message}), True)


def metrics_query(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    surface = ctx.surface
    action = str(args.get("action") or ("query" if args.get("query") else "metric_names")).lower()
    query = arg_str(args, "query")
    code = 200
    doc: dict[str, Any] | None = None
    try:
        doc = _answer(ctx, action, query, args)
    except QueryError as exc:
        code, doc = 400, None
        result = _prom_error("bad_data", f'invalid parameter "query": {exc}')
    except ToolInputError as exc:
        code, doc = 400, None
        result = _prom_error("bad_data", str(exc))
    if query:
        metric = _metric_name(query)
        if metric:
            ctx.targets.insert(0, f"observability-metrics/{metric}")
    ctx.targets.append("observability-metrics")
    entry = surface.audit_tool_call(
        ctx,
        verb="get",
        resource="alerts" if action == "alerts" else "metrics",
        code=code,
        params={"query": query} if query else None,
    )
    if doc is None:
        return result
    if entry is not None and query and action in ("query", "query_range", "series"):
        # rule 642: the series the query was computed from, on its audit event
        note_series(entry, surface.env.metrics.selected(query))
        if action != "series":  # rule 703: the values it served, per series of the answer
            note_values(entry, doc.get("data"))
    return ToolResult(_dumps(doc))


_NO_EXPRESSION = 'invalid parameter "query": 1:1: parse error: no expression found in input'


def _answer(
    ctx: CallContext, action: str, query: str | None, args: dict[str, Any]
) -> dict[str, Any]:
    """The Prometheus API document of one action (ToolInputError / QueryError: a bad_data answer)."""
    env = ctx.surface.env
    if action == "alerts":
        return alerts_doc(ctx, arg_str(args, "state"))
    if action in ("metric_names", "names", "labels"):
        ctx.targets.append("observability-metrics/metric_names")
        return {"status": "success", "data": env.metrics.names()}
    if action == "series":
        if not query:
            raise ToolInputError("no match[] parameter provided")
        res = env.metrics.query(query)
        return {
            "status": "success",
            "data": [
                {"__name__": _metric_name(query), **r["metric"]}
                for r in res.get("result") or []
                if isinstance(r, dict)
            ],
        }
    if action == "query":
        if not query:
            raise ToolInputError(_NO_EXPRESSION)
        at = _instant(env, args.get("time"), env.clock.seconds())
        return {"status": "success", "data": env.metrics.query(query, at)}
    if action == "query_range":
        if not query:
            raise ToolInputError(_NO_EXPRESSION)
        return _query_range(env, query, args)
    raise ToolInputError(
        f"unknown action {action!r}: use query, query_range, metric_names, series or alerts"
    )


def _query_range(env: Any, query: str, args: dict[str, Any]) -> dict[str, Any]:
    end = _instant(env, args.get("end"), env.clock.seconds())
    start = _instant(env, args.get("start"), end - 3600)
    if end < start:
        raise ToolInputError('invalid parameter "end": end timestamp must not be before start time')
    step = _duration_s(args.get("step")) or max(15.0, round((end - start) / 120 / 15) * 15 or 15.0)
    if step <= 0:
        raise ToolInputError(
            "zero or negative query resolution step widths are not accepted. Try a positive integer"
        )
    if (end - start) / step > 11000:
        raise ToolInputError(
            "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing "
            "the query resolution (?step=XX)"
        )
    return {"status": "success", "data": env.metrics.query_range(query, start, end, step)}


def _metric_name(query: str) -> str | None:
    m = re.search(r"([a-zA-Z_:][\w:]*)\s*(?:\{|\[|$|\))", query or "")
    words = re.findall(r"[a-zA-Z_:][\w:]*", query or "")

    skip = (
        AGGS
        | RANGE_FUNCS
        | {
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "and",
            "or",
            "unless",
            "offset",
            "bool",
        }
    )
    for w in words:
        if w not in skip:
            return w
    return m.group(1) if m else None
