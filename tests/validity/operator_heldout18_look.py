"""``heldout18``'s reads: a workload's pods, events, logs, metrics and traces, read the way an
on-call reads them, each turned into a finding only when the output says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .operator_heldout18 import Desk, pods_of
from .operator_read import (
    PodView,
    bottleneck,
    describe_pods,
    log_lines,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    trace_tree,
    trend,
)


@dataclass
class Look:
    """What one workload's reads showed."""

    name: str
    pods: list[PodView] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    signals: list[tuple[str, str, int]] = field(default_factory=list)
    noise: int = 0
    lines: int = 0
    series: dict[str, list[float]] = field(default_factory=dict)
    oom: bool = False
    missing_key: tuple[str, str] | None = None
    init_failed: str = ""
    init_log: list[str] = field(default_factory=list)
    restarts: int = 0
    mem_limit: str = ""


async def look(desk: Desk, name: str, logs: bool = True) -> Look:
    """describe, events, logs (current and previous), and the workload's own metrics."""
    ns = desk.ns
    seen = Look(name)
    text = await desk.kubectl(
        f"describe pods -n {ns} -l app={name}", f"to see the state of {name}'s containers"
    )
    seen.pods = describe_pods(text)
    if not seen.pods:
        for pod in pods_of(desk, name)[:2]:
            seen.pods += describe_pods(
                await desk.kubectl(
                    f"describe pod {pod['name']} -n {ns}", f"to see why {pod['name']} is unhappy"
                )
            )
    _read_pods(desk, seen)
    seen.events = [
        f"{e.get('reason', '')}: {e.get('message', '')}"
        for e in desk.events
        if name in e.get("object", "")
    ]
    for ev in seen.events:
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", ev)
        if m:
            seen.missing_key = (m.group(1), m.group(2).split("/")[-1])
    if logs and desk.has("logs_query"):
        await _logs(desk, seen)
    if desk.has("metrics_query"):
        await _metrics(desk, seen)
    return seen


def _read_pods(desk: Desk, seen: Look) -> None:
    for pod in seen.pods:
        for c in pod.containers:
            seen.restarts = max(seen.restarts, c.restarts)
            if "OOMKilled" in (c.reason, c.last_reason):
                seen.oom = True
                seen.mem_limit = c.limits.get("memory", seen.mem_limit)
            if c.init and "Error" in (c.reason, c.last_reason):
                seen.init_failed = c.name
            if not c.init and c.limits.get("memory"):
                seen.mem_limit = seen.mem_limit or c.limits["memory"]


async def _logs(desk: Desk, seen: Look) -> None:
    ns, name = desk.ns, seen.name
    text = await desk.use(
        "logs_query",
        f"to read what {name} itself reports",
        f"logs_query deployment={name} namespace={ns} tail=300",
        namespace=ns,
        deployment=name,
        tail=300,
    )
    if seen.restarts or seen.oom:
        text += "\n" + await desk.use(
            "logs_query",
            f"to read the last run of {name} before it died",
            f"logs_query deployment={name} previous=true",
            namespace=ns,
            deployment=name,
            previous=True,
            tail=200,
        )
    if seen.init_failed and seen.pods:
        init = await desk.use(
            "logs_query",
            f"to read why the init container {seen.init_failed} failed",
            f"logs_query pod={seen.pods[0].name} container={seen.init_failed}",
            namespace=ns,
            pod=seen.pods[0].name,
            container=seen.init_failed,
            tail=100,
        )
        seen.init_log = [ln.raw for ln in log_lines(init) if ln.signal or "error" in ln.raw.lower()]
        text += "\n" + init
    lines = log_lines(text)
    seen.lines = len(lines)
    seen.signals = signal_patterns(lines)
    seen.noise = sum(1 for ln in lines if not ln.signal)


async def _metrics(desk: Desk, seen: Look) -> None:
    ns, name = desk.ns, seen.name
    for query in (
        f'{{namespace="{ns}", service="{name}"}}',
        f'{{namespace="{ns}", pod=~"{name}.*"}}',
    ):
        text = await desk.use(
            "metrics_query",
            f"to see {name}'s own numbers over the last 6 hours",
            f"metrics_query query_range {query} start=-6h",
            action="query_range",
            query=query,
            start="-6h",
        )
        for labels, values in prom_series(text):
            metric = labels.get("__name__", "")
            if metric and values and metric not in seen.series:
                seen.series[metric] = values
        if seen.series:
            break


def memory_story(seen: Look) -> tuple[str, str]:
    """(trend sentence, risk sentence) from the memory series and the limit, or ('', '')."""
    mem = next(
        (v for k, v in sorted(seen.series.items()) if "memory" in k and "limit" not in k), None
    )
    if not mem:
        return "", ""
    limit = quantity(seen.mem_limit) if seen.mem_limit else None
    limit = limit or next(
        (v[-1] for k, v in sorted(seen.series.items()) if "memory" in k and "limit" in k), None
    )
    shape = trend(mem)
    line = f"memory went from **{mib(mem[0])} to {mib(mem[-1])}** over the last 6 hours ({shape})"
    if not limit:
        return line, ""
    used = mem[-1] / limit
    risk = f"that is **{used:.0%} of its {mib(limit)} limit**"
    if shape == "rising" and len(mem) > 1:
        per_step = (mem[-1] - mem[0]) / (len(mem) - 1)
        hours = 6 * (limit - mem[-1]) / max(mem[-1] - mem[0], 1.0)
        if per_step > 0:
            risk += f"; at this rate it reaches the limit in roughly **{hours:.1f} hours** and gets OOM-killed"
    return line, risk


async def trace_of(desk: Desk, trace_id: str = "", service: str = "") -> tuple[list, object]:
    """The trace's tree and its slowest path (the bottleneck span)."""
    if not desk.has("traces_query"):
        return [], None
    if not trace_id:
        found = await desk.use(
            "traces_query",
            f"to find slow traces of {service or 'the service'}",
            f"traces_query search service={service} min_duration=1s",
            action="search",
            service=service,
            min_duration="1s",
            limit=5,
        )
        ids = re.findall(r'"traceID":\s*"([^"]+)"', found)
        if not ids:
            return [], None
        trace_id = ids[0]
    text = await desk.use(
        "traces_query",
        f"to walk trace {trace_id} span by span",
        f"traces_query get trace_id={trace_id} format=tree",
        action="get",
        trace_id=trace_id,
        format="tree",
    )
    spans = trace_tree(text)
    if not spans and trace_id:
        found = await desk.use(
            "traces_query",
            f"to find the stored trace whose id contains {trace_id}",
            f"traces_query search (looking for {trace_id})",
            action="search",
            limit=20,
        )
        ids = [i for i in re.findall(r'"traceID":\s*"([^"]+)"', found) if trace_id in i]
        if ids:
            text = await desk.use(
                "traces_query",
                f"to walk trace {ids[0]} span by span",
                f"traces_query get trace_id={ids[0]} format=tree",
                action="get",
                trace_id=ids[0],
                format="tree",
            )
            spans = trace_tree(text)
    if spans:
        desk.quote(f"traces_query get {trace_id}", text.splitlines()[:8], 8)
    path, slow = bottleneck(spans)
    return path, slow
