"""``logs_query`` (observability-logging): pod logs read through the API server (``get
pods/log`` as the agent: RBAC and audit like ``kubectl logs``), non-pod sources, LogQL."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ...cluster.clock import fmt as fmt_ts
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
from ..kubectl import api_error
from .common import _dumps, _duration_s

# ---- logs ----------------------------------------------------------------------------------------
LOGS_DESCRIPTION = (
    "Query workload logs (pod logs, plus non-pod sources such as the ingress controller). Select by namespace and "
    "one of pod / deployment / source, or with a LogQL stream selector and line filters in `query` (e.g. "
    '\'{namespace="default", app="gateway"} |= "ERROR"\'). `filter` keeps lines containing the text, `tail` '
    'limits to the last N lines (default 100), `since` looks back a duration (e.g. "1h").'
)


def logging_tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
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
    if not ask.pod:  # a search has no stream of a container that never started
        names = [n for n in names if _ever_started(pod, n)]
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


def _ever_started(pod: dict[str, Any], name: str) -> bool:
    """Whether container ``name`` ever ran (so wrote a log stream): running or terminated now
    or before; a pod with no status for it is taken to have run."""
    for cs in (pod.get("status") or {}).get("containerStatuses") or []:
        if cs.get("name") == name:
            now, last = cs.get("state") or {}, cs.get("lastState") or {}
            return bool(now.get("running") or now.get("terminated") or last.get("terminated"))
    return True


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
