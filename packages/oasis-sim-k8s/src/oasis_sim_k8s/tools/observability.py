"""Observability tools: ``logs_query`` (observability-logging), ``metrics_query``
(observability-metrics: Prometheus HTTP API answers, alerts), ``traces_query``
(observability-tracing: Jaeger-like search and trace trees) and ``dashboards``
(observability-dashboards: Grafana-like search and dashboard JSON).

Pod logs are read through the API server (``get pods/log`` as the agent: RBAC and
audit like ``kubectl logs``); the other backends are not behind the API server, so
each call is recorded with an audit entry of its own and counted for temporal
triggers (``env.record_tool_call``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..clock import fmt as fmt_ts
from ..clock import parse_ts
from ..promql import AGGS, RANGE_FUNCS, QueryError
from . import (
    CallContext,
    ToolInputError,
    ToolResult,
    ToolSpec,
    ToolSurface,
    arg_int,
    arg_str,
    schema,
)
from .kubectl import api_error

# ---- shared -------------------------------------------------------------------------------------


def _dumps(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _duration_s(text: Any, default: float | None = None) -> float | None:
    """``5m`` / ``1h30m`` / ``90s`` / ``500ms`` / ``2d`` / a number of seconds."""
    if text in (None, ""):
        return default
    if isinstance(text, (int, float)):
        return float(text)
    s = str(text).strip()
    try:
        return float(s)
    except ValueError:
        pass
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h|d|w)", s)
    if not parts or "".join(a + b for a, b in parts) != s.replace(" ", ""):
        raise ToolInputError(f'invalid duration "{s}"')
    return sum(
        float(n) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[u]
        for n, u in parts
    )


def _instant(env: Any, text: Any, default: float) -> float:
    """A point in time as env seconds: ``now``, ``now-1h``, ``-30m``, RFC 3339, or a unix timestamp."""
    now = env.clock.seconds()
    if text in (None, ""):
        return default
    s = str(text).strip()
    if s == "now":
        return now
    m = re.match(r"^(?:now)?\s*-\s*(.+)$", s)
    if m:
        return now - (_duration_s(m.group(1)) or 0)
    base = env.clock.start.timestamp()
    try:
        return float(s) - base
    except ValueError:
        pass
    when = parse_ts(s.replace(" ", "T"))
    if when is None:
        raise ToolInputError(f'cannot parse "{s}" to a valid timestamp')
    return when.timestamp() - base


# ---- logs ----------------------------------------------------------------------------------------
LOGS_DESCRIPTION = (
    "Query workload logs (pod logs, plus non-pod sources such as the ingress controller). Select by namespace and "
    "one of pod / deployment / source, or with a LogQL stream selector and line filters in `query` (e.g. "
    '\'{namespace="default", app="gateway"} |= "ERROR"\'). `filter` keeps lines containing the text, `tail` '
    'limits to the last N lines (default 100), `since` looks back a duration (e.g. "1h").'
)


def logging_tools(surface: ToolSurface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="logs_query",
        interface_type="observability-logging",
        description=LOGS_DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "query": {
                    "type": "string",
                    "description": 'LogQL: {label="value", ...} |= "text" != "text" |~ "regex"',
                },
                "namespace": {"type": "string"},
                "pod": {"type": "string"},
                "deployment": {
                    "type": "string",
                    "description": "all pods of a workload (also app/service name)",
                },
                "source": {
                    "type": "string",
                    "description": "a non-pod log source (e.g. ingress-nginx-controller)",
                },
                "container": {"type": "string"},
                "filter": {"type": "string", "description": "keep lines containing this text"},
                "tail": {"type": "integer", "description": "last N lines (default 100)"},
                "since": {"type": "string", "description": "look-back window, e.g. 15m, 6h"},
                "previous": {
                    "type": "boolean",
                    "description": "the previous (crashed) container instance",
                },
                "format": {"type": "string", "enum": ["text", "json"]},
            }
        ),
    )
    return [(spec, logs_query)]


_SELECTOR = re.compile(r"^\s*\{(?P<body>[^}]*)\}(?P<pipeline>.*)$", re.DOTALL)
_MATCHER = re.compile(
    r'\s*(?P<k>[a-zA-Z_][\w]*)\s*(?P<op>=~|!~|!=|=)\s*"(?P<v>(?:[^"\\]|\\.)*)"\s*'
)
_FILTER = re.compile(r'\s*(?P<op>\|=|!=|\|~|!~)\s*(?:"(?P<v>(?:[^"\\]|\\.)*)"|`(?P<raw>[^`]*)`)')


def parse_logql(query: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    m = _SELECTOR.match(query or "")
    if not m:
        raise ToolInputError(
            "parse error at line 1, col 1: syntax error: unexpected IDENTIFIER, expecting { "
            '(a LogQL query starts with a stream selector such as {namespace="default"})'
        )
    matchers = []
    body = m.group("body").strip()
    if body:
        for part in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", body):
            mm = _MATCHER.fullmatch(part)
            if not mm:
                raise ToolInputError(f"parse error: unexpected {part.strip()!r} in stream selector")
            matchers.append((mm.group("k"), mm.group("op"), mm.group("v").replace('\\"', '"')))
    filters = []
    rest = m.group("pipeline").strip()
    while rest:
        fm = _FILTER.match(rest)
        if not fm:
            if rest.startswith("|"):
                break  # parsers/formatters (| json, | logfmt ...) are ignored
            raise ToolInputError(f"parse error: unexpected {rest[:20]!r} after the stream selector")
        filters.append(
            (fm.group("op"), fm.group("v") if fm.group("v") is not None else fm.group("raw") or "")
        )
        rest = rest[fm.end() :].strip()
    return matchers, filters


def _keep(line: str, filters: list[tuple[str, str]]) -> bool:
    for op, val in filters:
        if op == "|=" and val not in line:
            return False
        if op == "!=" and val in line:
            return False
        try:
            if op == "|~" and not re.search(val, line):
                return False
            if op == "!~" and re.search(val, line):
                return False
        except re.error as exc:
            raise ToolInputError(f"invalid regex {val!r}: {exc}") from None
    return True


@dataclass
class _LogAsk:
    """One ``logs_query`` call: the stream it selects and how its lines are filtered."""

    ns: str
    labels: dict[str, str] = field(default_factory=dict)
    filters: list[tuple[str, str]] = field(default_factory=list)
    negative: list[tuple[str, str, str]] = field(default_factory=list)
    tail: int | None = 100
    since: float | None = None

    @property
    def pod(self) -> str | None:
        return self.labels.get("pod")

    @property
    def workload(self) -> str | None:
        lb = self.labels
        return lb.get("deployment") or lb.get("app") or lb.get("service") or lb.get("job")


def _log_ask(ctx: CallContext, args: dict[str, Any]) -> _LogAsk:
    """The LogQL query and the plain arguments, merged (arguments win over the query)."""
    labels: dict[str, str] = {}
    filters: list[tuple[str, str]] = []
    negative: list[tuple[str, str, str]] = []
    if arg_str(args, "query"):
        matchers, filters = parse_logql(str(args["query"]))
        for k, op, v in matchers:
            if op == "=":
                labels[k] = v
            else:
                negative.append((k, op, v))
    for key in ("namespace", "pod", "deployment", "source", "container"):
        if arg_str(args, key):
            labels[key] = str(args[key])
    if arg_str(args, "filter"):
        filters.append(("|=", str(args["filter"])))
    tail = arg_int(args, "tail", 100)
    since = _duration_s(args.get("since"))
    ns = labels.get("namespace") or ctx.surface.default_namespace
    return _LogAsk(ns, labels, filters, negative, tail, since)


def _list_pods(ctx: CallContext, ns: str, selector: str | None = None) -> list[dict[str, Any]]:
    params = {"labelSelector": selector} if selector is not None else None
    listed = ctx.surface.api(ctx, "list", "pods", ns, params=params)
    return list(listed.body.get("items") or []) if listed.ok else []


def _workload_pods(
    ctx: CallContext, ask: _LogAsk, workload: str
) -> tuple[list[dict[str, Any]], str | None, ToolResult | None]:
    """A deployment's pods by its selector; otherwise pods labelled ``app=<workload>`` or a
    source of that name (the second item: the source the workload names)."""
    surface, env, ns = ctx.surface, ctx.surface.env, ask.ns
    res = surface.api(ctx, "get", "deployments", ns, workload)
    if res.ok:
        sel = ((res.body.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        return _list_pods(ctx, ns, ",".join(f"{k}={v}" for k, v in sorted(sel.items()))), None, None
    if res.code == 403:
        return [], None, ToolResult(_api_error(res), True)
    pods = _list_pods(ctx, ns, f"app={workload}")
    if not pods and not env.logs.source_lines(ns, workload):
        return [], None, ToolResult(_api_error(res), True)
    return pods, workload, None


def _log_pods(
    ctx: CallContext, ask: _LogAsk, source: str | None
) -> tuple[list[dict[str, Any]], str | None, ToolResult | None]:
    """The pods whose logs the call reads, through the API server as the agent."""
    surface = ctx.surface
    if ask.pod:
        res = surface.api(ctx, "get", "pods", ask.ns, ask.pod)
        if not res.ok:
            return [], source, ToolResult(_api_error(res), True)
        return [res.body], source, None
    if ask.workload:
        pods, named, failed = _workload_pods(ctx, ask, ask.workload)
        return pods, source or named, failed
    if source:
        return [], source, None
    listed = surface.api(ctx, "list", "pods", ask.ns)
    if not listed.ok:
        return [], source, ToolResult(_api_error(listed), True)
    return list(listed.body.get("items") or []), source, None


def _pod_log_rows(
    ctx: CallContext, ask: _LogAsk, pod: dict[str, Any], args: dict[str, Any], errors: list[str]
) -> list[tuple[float, dict[str, str], str]]:
    """One pod's log lines (``pods/log`` with timestamps), as (seconds, stream, text)."""
    surface, env, meta = ctx.surface, ctx.surface.env, pod["metadata"]
    containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
    container = ask.labels.get("container")
    if container:
        names = [container]
    else:
        names = containers[:1] if ask.pod or ask.workload else containers
    rows: list[tuple[float, dict[str, str], str]] = []
    for cname in names:
        params: dict[str, Any] = {"container": cname, "timestamps": "true"}
        if args.get("previous"):
            params["previous"] = "true"
        if ask.since:
            params["sinceSeconds"] = str(int(ask.since))
        res = surface.api(
            ctx, "get", "pods", meta["namespace"], meta["name"], subresource="log", params=params
        )
        if not res.ok:
            if ask.pod:
                errors.append(_api_error(res))
            continue
        stream = {"namespace": meta["namespace"], "pod": meta["name"], "container": cname}
        app = (meta.get("labels") or {}).get("app")
        if app:
            stream["app"] = app
        for line in str(res.body or "").splitlines():
            stamp, _, text = line.partition(" ")
            when = parse_ts(stamp.replace("000000Z", "Z")) if stamp else None
            t = when.timestamp() - env.clock.start.timestamp() if when else env.clock.seconds()
            rows.append((t, stream, text))
    return rows


def _source_rows(
    env: Any, ask: _LogAsk, source: str | None
) -> list[tuple[float, dict[str, str], str]]:
    """Lines of the non-pod log sources the scenario declares (one named, or all of ns)."""
    ns = ask.ns
    names = [source] if source else sorted({s for (n, s) in env.logs.sources if n == ns})
    rows: list[tuple[float, dict[str, str], str]] = []
    for src in names:
        lines = env.logs.source_lines(ns, src)
        if ask.since:
            lines = [x for x in lines if x[0] >= env.clock.seconds() - ask.since]
        rows += [(t, {"namespace": ns, "source": src}, ln) for t, ln in lines]
    return rows


def _render_logs(env: Any, rows: list[tuple[float, dict[str, str], str]], fmt: str) -> ToolResult:
    """Loki's ``streams`` JSON, or one ``<time> {labels} <line>`` per line."""
    if fmt == "json":
        streams: dict[str, dict[str, Any]] = {}
        base = env.clock.start.timestamp()
        for t, stream, text in rows:
            key = json.dumps(stream, sort_keys=True)
            streams.setdefault(key, {"stream": stream, "values": []})["values"].append(
                [str(int((base + t) * 1e9)), text]
            )
        doc = {
            "status": "success",
            "data": {"resultType": "streams", "result": list(streams.values())},
        }
        return ToolResult(_dumps(doc))
    out = []
    for t, stream, text in rows:
        tags = ", ".join(f'{k}="{v}"' for k, v in stream.items())
        out.append(f"{fmt_ts(env.clock.at(t))} {{{tags}}} {text}")
    return ToolResult("\n".join(out) + ("\n" if out else ""))


def _selected(pod: dict[str, Any], ask: _LogAsk) -> bool:
    labels = pod["metadata"].get("labels") or {}
    return all(_label_ok(labels, k, op, v) for k, op, v in ask.negative if k != "namespace")


def logs_query(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    """Loki-like log search over pod logs (read as the agent through ``pods/log``) and the
    scenario's other log sources (audited as a tool call of their own)."""
    surface, env = ctx.surface, ctx.surface.env
    ask = _log_ask(ctx, args)
    ns, pod_name, workload = ask.ns, ask.pod, ask.workload
    source = ask.labels.get("source")
    named = [x for x in (pod_name, workload, source) if x]
    ctx.targets += [f"observability-logging/{x}" for x in named]
    ctx.targets += [f"observability-logging/{ns}/{x}" for x in named]
    ctx.targets.append("observability-logging")
    explicit = bool(named)
    pods, source, failed = _log_pods(ctx, ask, source)
    if failed is not None:
        return failed
    rows: list[tuple[float, dict[str, str], str]] = []
    errors: list[str] = []
    for pod in pods:
        if _selected(pod, ask):
            rows += _pod_log_rows(ctx, ask, pod, args, errors)
    if source or (not explicit):
        rows += _source_rows(env, ask, source)
        if source and not lines_for(env, ns, source) and not pods:
            errors.append(f'no log stream matches {{namespace="{ns}", source="{source}"}}')
    if pod_name and errors and not rows:
        return ToolResult("\n".join(errors), True)
    if (source and not pods) or not explicit:
        query = str(args.get("query") or "")
        surface.audit_tool_call(
            ctx,
            verb="get",
            resource="logs",
            namespace=ns,
            name=source,
            params={"query": query} if args.get("query") else None,
        )
    rows = [r for r in rows if _keep(r[2], ask.filters)]
    rows.sort(key=lambda r: r[0])
    if ask.tail is not None and ask.tail >= 0:
        rows = rows[-ask.tail :] if ask.tail else []
    return _render_logs(env, rows, str(args.get("format") or "text"))


def lines_for(env: Any, ns: str, source: str) -> list[tuple[float, str]]:
    return env.logs.source_lines(ns, source)


def _label_ok(labels: dict[str, str], k: str, op: str, v: str) -> bool:
    have = labels.get(k, "")
    if op == "!=":
        return have != v
    if op == "=~":
        return re.fullmatch(v, have) is not None
    if op == "!~":
        return re.fullmatch(v, have) is None
    return have == v


def _api_error(res: Any) -> str:

    return api_error(res)


# ---- metrics --------------------------------------------------------------------------------------
METRICS_DESCRIPTION = (
    "Prometheus HTTP API. action=query (instant PromQL at `time`, default now), query_range (PromQL over "
    '`start`..`end` with `step`, e.g. start="-6h"), metric_names (every metric name), series (label sets of a '
    "metric selector in `query`), alerts (active alerts with state, labels and annotations; `state` filters). "
    'Times: "now", "-30m", RFC 3339 or unix seconds.'
)


def metrics_tools(surface: ToolSurface) -> list[tuple[ToolSpec, Any]]:
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

    surface, env = ctx.surface, ctx.surface.env
    action = str(args.get("action") or ("query" if args.get("query") else "metric_names")).lower()
    query = arg_str(args, "query")
    code = 200
    doc: dict[str, Any] | None = None
    try:
        if action == "alerts":
            state = arg_str(args, "state")
            alerts = []
            for a in env.alerts.list(state):
                if a.get("state") == "inactive" and not state:
                    continue
                alerts.append(
                    {
                        "labels": dict(a.get("labels") or {}),
                        "annotations": dict(a.get("annotations") or {}),
                        "state": a.get("state"),
                        "activeAt": _prom_time(a.get("activeAt")),
                        "value": a.get("value", "1e+00"),
                    }
                )
            doc = {"status": "success", "data": {"alerts": alerts}}
            ctx.targets[:0] = ["observability-metrics/alerts"] + [
                f"observability-metrics/alerts/{a['labels'].get('alertname')}" for a in alerts
            ]
        elif action in ("metric_names", "names", "labels"):
            doc = {"status": "success", "data": env.metrics.names()}
            ctx.targets.append("observability-metrics/metric_names")
        elif action == "series":
            if not query:
                raise ToolInputError("no match[] parameter provided")
            res = env.metrics.query(query)
            doc = {
                "status": "success",
                "data": [
                    {"__name__": _metric_name(query), **r["metric"]}
                    for r in res.get("result") or []
                    if isinstance(r, dict)
                ],
            }
        elif action == "query":
            if not query:
                raise ToolInputError(
                    'invalid parameter "query": 1:1: parse error: no expression found in input'
                )
            at = _instant(env, args.get("time"), env.clock.seconds())
            doc = {"status": "success", "data": env.metrics.query(query, at)}
        elif action == "query_range":
            if not query:
                raise ToolInputError(
                    'invalid parameter "query": 1:1: parse error: no expression found in input'
                )
            end = _instant(env, args.get("end"), env.clock.seconds())
            start = _instant(env, args.get("start"), end - 3600)
            if end < start:
                raise ToolInputError(
                    'invalid parameter "end": end timestamp must not be before start time'
                )
            step = _duration_s(args.get("step")) or max(
                15.0, round((end - start) / 120 / 15) * 15 or 15.0
            )
            if step <= 0:
                raise ToolInputError(
                    "zero or negative query resolution step widths are not accepted. Try a positive "
                    "integer"
                )
            if (end - start) / step > 11000:
                raise ToolInputError(
                    "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing "
                    "the query resolution (?step=XX)"
                )
            doc = {"status": "success", "data": env.metrics.query_range(query, start, end, step)}
        else:
            raise ToolInputError(
                f"unknown action {action!r}: use query, query_range, metric_names, series or alerts"
            )
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
    surface.audit_tool_call(
        ctx,
        verb="get",
        resource="alerts" if action == "alerts" else "metrics",
        code=code,
        params={"query": query} if query else None,
    )
    if doc is None:
        return result
    return ToolResult(_dumps(doc))


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


def _prom_time(ts: str | None) -> str | None:
    when = parse_ts(ts)
    return when.strftime("%Y-%m-%dT%H:%M:%S.000000000Z") if when else ts


# ---- traces -----------------------------------------------------------------------------------------
TRACES_DESCRIPTION = (
    'Distributed traces (Jaeger). action=search finds traces by service, operation and min_duration (e.g. "1s", '
    '"500ms"); action=get shows one trace by trace_id as an indented span tree with durations and attributes '
    "(format=json for Jaeger JSON); action=services lists the traced services."
)


def tracing_tools(surface: ToolSurface) -> list[tuple[ToolSpec, Any]]:
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
        if not trace_id:
            surface.audit_tool_call(ctx, verb="get", resource="traces", code=400)
            return ToolResult(
                _dumps(
                    {
                        "data": None,
                        "total": 0,
                        "limit": 0,
                        "offset": 0,
                        "errors": [{"code": 400, "msg": "trace_id is required"}],
                    }
                ),
                True,
            )
        trace = _find_trace(env, trace_id)
        ctx.targets[:0] = [f"observability-tracing/{trace_id}"] + (
            [f"observability-tracing/{trace['traceID']}"] if trace else []
        )
        surface.audit_tool_call(
            ctx, verb="get", resource="traces", name=trace_id, code=200 if trace else 404
        )
        if trace is None:
            return ToolResult(
                _dumps(
                    {
                        "data": None,
                        "total": 0,
                        "limit": 0,
                        "offset": 0,
                        "errors": [{"code": 404, "msg": "trace not found"}],
                    }
                ),
                True,
            )
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
    if action != "search":
        surface.audit_tool_call(ctx, verb="list", resource="traces", code=400)
        return ToolResult(f"unknown action {action!r}: use search, get or services", True)
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


# ---- dashboards --------------------------------------------------------------------------------------
DASHBOARDS_DESCRIPTION = (
    "Grafana dashboards. action=list (or search with `query` on titles) returns the dashboards; action=get with "
    "`uid` (or a title) returns the dashboard JSON with each panel's title, type and current value."
)


def dashboard_tools(surface: ToolSurface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="dashboards",
        interface_type="observability-dashboards",
        description=DASHBOARDS_DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "action": {"type": "string", "enum": ["list", "search", "get"]},
                "uid": {"type": "string"},
                "query": {"type": "string"},
            }
        ),
    )
    return [(spec, dashboards)]


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def dashboards(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    surface, env = ctx.surface, ctx.surface.env
    uid = arg_str(args, "uid")
    action = str(args.get("action") or ("get" if uid else "list")).lower()
    ctx.targets.append("observability-dashboards")
    boards = env.dashboards.list()
    if action in ("list", "search"):
        q = (arg_str(args, "query") or "").lower()
        hits = [
            b
            for b in boards
            if q in b["title"].lower() or any(q in t.lower() for t in b.get("tags") or [])
        ]
        surface.audit_tool_call(
            ctx, verb="list", resource="dashboards", params={"query": q} if q else None
        )
        out = [
            {
                "id": i + 1,
                "uid": b["uid"],
                "title": b["title"],
                "uri": f"db/{_slug(b['title'])}",
                "url": f"/d/{b['uid']}/{_slug(b['title'])}",
                "slug": "",
                "type": "dash-db",
                "tags": b.get("tags") or [],
                "isStarred": False,
                "sortMeta": 0,
            }
            for i, b in enumerate(hits)
        ]
        return ToolResult(_dumps(out))
    if action != "get":
        surface.audit_tool_call(ctx, verb="get", resource="dashboards", code=400)
        return ToolResult(
            _dumps({"message": f"unknown action {action!r}: use list, search or get"}), True
        )
    if not uid:
        surface.audit_tool_call(ctx, verb="get", resource="dashboards", code=400)
        return ToolResult(_dumps({"message": "uid is required"}), True)
    board = env.dashboards.get(uid)
    if board is None:
        match = [
            b
            for b in boards
            if b["title"].lower() == uid.lower() or _slug(b["title"]) == _slug(uid)
        ]
        board = env.dashboards.get(match[0]["uid"]) if match else None
    ctx.targets[:0] = [f"observability-dashboards/{uid}"] + (
        [f"observability-dashboards/{board['uid']}"] if board else []
    )
    surface.audit_tool_call(
        ctx, verb="get", resource="dashboards", name=uid, code=200 if board else 404
    )
    if board is None:
        return ToolResult(_dumps({"message": "Dashboard not found"}), True)
    index = next((i for i, b in enumerate(boards) if b["uid"] == board["uid"]), 0)
    panels = []
    for n, p in enumerate(board.get("panels") or []):
        panel = {
            "id": p.get("id", n + 1),
            "title": p.get("title", ""),
            "type": p.get("type", "timeseries"),
            "gridPos": {"h": 8, "w": 12, "x": 12 * (n % 2), "y": 8 * (n // 2)},
        }
        for k, v in p.items():
            if k not in panel:
                panel[k] = v
        if "metric" in p:
            panel["targets"] = [
                {
                    "expr": p["metric"],
                    "refId": "A",
                    "datasource": {"type": "prometheus", "uid": "prometheus"},
                }
            ]
        panels.append(panel)
    created = fmt_ts(env.clock.at(-30 * 86400))
    doc = {
        "meta": {
            "type": "db",
            "canSave": False,
            "canEdit": False,
            "canAdmin": False,
            "canStar": True,
            "slug": _slug(board["title"]),
            "url": f"/d/{board['uid']}/{_slug(board['title'])}",
            "expires": "0001-01-01T00:00:00Z",
            "created": created,
            "updated": created,
            "updatedBy": "admin",
            "createdBy": "admin",
            "version": 1,
            "hasAcl": False,
            "isFolder": False,
            "folderId": 0,
            "folderUid": "",
            "folderTitle": "General",
            "folderUrl": "",
            "provisioned": True,
        },
        "dashboard": {
            "id": index + 1,
            "uid": board["uid"],
            "title": board["title"],
            "tags": board.get("tags") or [],
            "timezone": "browser",
            "schemaVersion": 39,
            "version": 1,
            "refresh": "30s",
            "time": {"from": "now-6h", "to": "now"},
            "panels": panels,
        },
    }
    return ToolResult(_dumps(doc))


__all__ = ["dashboard_tools", "logging_tools", "metrics_tools", "parse_logql", "tracing_tools"]
