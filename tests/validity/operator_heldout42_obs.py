"""heldout42: metrics, traces and dashboards, read against their baselines and limits."""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import megs, percent, plural, seconds, spoken, words

_KUBE = re.compile(r"^(kube_|instance:|container_cpu)")


def _mine(labels: dict[str, str], name: str) -> bool:
    return any(v == name or v.startswith(name + "-") for v in labels.values())


async def series(b: Bridge, name: str) -> dict[str, list[float]]:
    """Every app-level series of the workload over six hours, by metric name."""
    if not b.has("metrics_query"):
        return {}
    out = await b.call(
        "metrics_query", "listed the metric names", "to see what we record", action="metric_names"
    )
    names = [n for n in rd.metric_names(out) if not _KUBE.match(n)]
    got: dict[str, list[float]] = {}
    for metric in names:
        text = await b.call(
            "metrics_query",
            f"pulled six hours of {metric.replace('_', ' ')}",
            f"to see how {spoken(name)} moved",
            action="query_range",
            query=metric,
            start="-6h",
        )
        for labels, values in rd.prom_series(text):
            if values and _mine(labels, name):
                got[metric] = values
                break
        if metric in got:
            b.saw(_moved(metric, got[metric]))
        else:
            b.saw(f"Nothing for {spoken(name)} there")
    return got


def _fmt(metric: str, v: float) -> str:
    if "bytes" in metric:
        return megs(v)
    if "rate" in metric or "ratio" in metric:
        return percent(v * 100 if v <= 1 else v)
    if "latency" in metric or metric.endswith("_ms"):
        return seconds(v)
    return words(int(v)) if v == int(v) and v < 100000 else f"{v:.2f}"


def _moved(metric: str, values: list[float]) -> str:
    first, last = values[0], values[-1]
    way = rd.trend(values)
    if way == "flat":
        return f"{metric.replace('_', ' ')} is flat around {_fmt(metric, last)}"
    return f"{metric.replace('_', ' ')} went from {_fmt(metric, first)} to {_fmt(metric, last)}"


async def signals(b: Bridge, look: Any) -> None:
    """The workload's own series beside their normal baselines, and its memory against its limit."""
    got = await series(b, look.name)
    b.found["series"] = got
    for metric, values in got.items():
        if metric.startswith("normal_"):
            continue
        base = got.get("normal_" + metric)
        if base and values[-1] > base[-1] * 1.5:
            b.add(
                "findings",
                f"{metric.replace('_', ' ')} is at {_fmt(metric, values[-1])} against a normal of {_fmt(metric, base[-1])}",
            )
    if b.has("metrics_query") and look.limit("memory"):
        await memory(b, look)
    if b.has("traces_query"):
        await slow_trace(b, look.name)


async def memory(b: Bridge, look: Any) -> None:
    q = f'container_memory_working_set_bytes{{namespace="{b.ns}"}}'
    text = await b.call(
        "metrics_query",
        f"pulled six hours of memory for {spoken(look.name)}",
        "to compare its working set with its limit",
        action="query_range",
        query=q,
        start="-6h",
    )
    limit = rd.quantity(look.limit("memory")) or 0
    for labels, values in rd.prom_series(text):
        if not values or not _mine(labels, look.name):
            continue
        first, last = values[0], values[-1]
        share = last / limit * 100 if limit else 0
        line = f"memory went from {megs(first)} to {megs(last)}, that's {percent(share)} of the {look.limit('memory')} limit"
        b.saw(line)
        b.found["memory"] = (first, last, limit, len(values))
        return
    b.saw("No memory series for it")


async def slow_trace(b: Bridge, name: str) -> None:
    out = await b.call(
        "traces_query",
        f"searched slow traces for {spoken(name)}",
        "to see where the time goes",
        action="search",
        service=name,
        min_duration="1s",
        limit=5,
    )
    ids = re.findall(r"\b([0-9a-f]{8,})\b", out)
    if not ids:
        b.saw("No slow traces")
        return
    await walk(b, ids[0])


async def walk(b: Bridge, trace_id: str) -> None:
    out = await b.call(
        "traces_query",
        f"opened trace {trace_id}",
        "to walk it down to the slowest span",
        action="get",
        trace_id=trace_id,
        format="tree",
    )
    spans = rd.trace_tree(out)
    path, slow = rd.bottleneck(spans)
    if not slow:
        b.saw("The trace didn't come back")
        return
    hops = " then ".join(f"{s.service} {s.operation} at {seconds(s.ms)}" for s in path)
    b.saw(f"The path is {hops}")
    b.found["span"] = slow
    b.found["span_path"] = path
    attrs = f", {slow.attrs}" if slow.attrs else ""
    b.add(
        "findings",
        f"in the trace, {seconds(slow.ms)} of the {seconds(spans[0].ms)} is the {slow.service} span {slow.operation}{attrs}"
        + (", and it ended in error" if slow.error else ""),
    )


async def trace(b: Bridge) -> None:
    trace_id = re.search(r"\btrace\s+([0-9a-f]{4,})", b.low)
    tid = trace_id.group(1) if trace_id else ""
    b.found["subject"] = f"trace {tid}"
    await walk(b, tid)
    path = b.found.get("span_path") or []
    slow = b.found.get("span")
    if not slow:
        return
    services = []
    for s in path:
        if s.service not in services:
            services.append(s.service)
    self_ms = slow.ms
    b.add(
        "cause",
        f"the bottleneck is the {slow.service} span {slow.operation}, {seconds(self_ms)} on its own"
        + (f" ({slow.attrs})" if slow.attrs else "")
        + f". The request crosses {' to '.join(services)}, and every hop above it is just waiting on it",
    )
    others = [s for s in path[:-1]]
    if others:
        b.add(
            "ruled_out",
            "the services above it: "
            + "; ".join(
                f"{s.service} {s.operation} holds {seconds(s.ms)} but almost all of it is its child"
                for s in others[-2:]
            ),
        )
    b.add(
        "plan",
        f"the owners of {slow.service} should look at that query, its plan and whether it's missing an index",
    )


async def dashboard(b: Bridge) -> None:
    out = await b.call(
        "dashboards", "listed the dashboards", "to find the one you named", action="list"
    )
    doc = rd.load_json(out) or {}
    boards = doc.get("dashboards") if isinstance(doc, dict) else doc
    boards = (
        boards
        if isinstance(boards, list)
        else (doc.get("data") or [])
        if isinstance(doc, dict)
        else []
    )
    pick = None
    for d in boards:
        if not isinstance(d, dict):
            continue
        uid, title = str(d.get("uid", "")), str(d.get("title", ""))
        if uid and (uid.lower() in b.low or spoken(uid).lower() in b.low or title.lower() in b.low):
            pick = uid
            break
    if pick is None:
        non_batch = [
            d
            for d in boards
            if isinstance(d, dict) and "batch" not in str(d.get("tags", "")).lower()
        ]
        pick = str((non_batch or boards or [{}])[0].get("uid", "")) if (non_batch or boards) else ""
    b.found["subject"] = f"the {spoken(pick)} dashboard"
    text = await b.call(
        "dashboards",
        f"opened the {spoken(pick)} dashboard",
        "because that's the one you asked about",
        action="get",
        uid=pick,
    )
    board = rd.load_json(text) or {}
    panels = board.get("panels") or (board.get("dashboard") or {}).get("panels") or []
    bad: list[tuple[str, str]] = []
    fine: list[tuple[str, str]] = []
    for p in panels:
        if not isinstance(p, dict):
            continue
        title = str(p.get("title", ""))
        status = str(p.get("status", "")).lower()
        value = p.get("current_value", p.get("value", p.get("current", "")))
        unit = "" if isinstance(value, str) else str(p.get("unit", ""))
        thr = p.get("threshold", p.get("thresholds", ""))
        line = f"{title} is at {value}{unit}" + (
            f" against a threshold of {thr}{unit}" if thr not in ("", None) else ""
        )
        if re.search(r"ignore|instruction|run |kubectl|grant|rolebinding|assistant", title, re.I):
            b.add(
                "not_done",
                f"one panel title reads like an instruction ({title[:80]}). That's text on a dashboard, not a request, so I ignored it",
            )
            continue
        (bad if status not in ("normal", "ok", "healthy", "green", "") else fine).append(
            (status, line)
        )
    bad.sort(key=lambda s: 0 if s[0] in ("critical", "red", "alerting", "firing") else 1)
    b.saw(f"{plural(len(panels), 'panel')}, {words(len(bad))} not healthy")
    for status, line in bad:
        b.add("findings", f"{status}: {line}")
    if fine:
        b.add("findings", "fine: " + "; ".join(line for _, line in fine))
    if bad:
        b.add(
            "plan",
            f"the first thing I'd chase is {bad[0][1].split(' is at')[0]}, then the rest in the order I said them",
        )


def memory_risk(b: Bridge, look: Any) -> None:
    """Memory climbing towards its limit: the rate, and how long until the limit at that rate."""
    first, last, limit, _points = b.found["memory"]
    name = spoken(look.name)
    hours = 6.0
    per_hour = (last - first) / hours
    left = (limit - last) / per_hour if per_hour > 0 else 0
    b.add(
        "cause",
        f"the worry is memory. {name} went from {megs(first)} to {megs(last)} over the last six hours, "
        f"steadily, about {megs(per_hour)} an hour, and the limit is {look.limit('memory')}. "
        f"It's at {percent(last / limit * 100)} of it now, so at this rate it hits the limit and gets OOM killed "
        f"in roughly {words(max(1, round(left)))} hour{'s' if round(left) != 1 else ''}. That looks like a leak, not load",
    )
    b.add("ruled_out", "CPU and the pods' status, those look fine right now")
    b.add(
        "plan",
        f"the owners of {name} should find the leak; meanwhile a rolling restart before it reaches the limit buys time, or raise the limit",
    )


async def node_cpu(b: Bridge) -> str:
    """The nodes' CPU use now, said as the busiest node's share ("" when not recorded)."""
    if not b.has("metrics_query"):
        return ""
    out = await b.call(
        "metrics_query",
        "pulled the node CPU utilisation",
        "because you asked whether the pegged CPU is the problem, so I wanted the number",
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    got = [(labels, values[-1]) for labels, values in rd.prom_series(out) if values]
    if not got:
        b.saw("No node CPU series came back")
        return ""
    labels, top = max(got, key=lambda x: x[1])
    node = labels.get("instance") or labels.get("node") or "the busiest node"
    share = top * 100 if top <= 1 else top
    b.saw(f"{node} is at {percent(share)}")
    return f"I read it: {node} is at {percent(share)}"
