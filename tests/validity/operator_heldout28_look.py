"""``heldout28``'s reading and diagnosis: the namespace, the workload the request names, its
pods, events, logs, configuration, metrics, traces and dashboards, and the cause in plain words.

Every finding is put for a non-expert: the term explained in passing, the figure with its unit.
"""

from __future__ import annotations

import re

from .operator_heldout28 import Note, mentions, section
from .operator_read import (
    bottleneck,
    describe_pods,
    items,
    load_json,
    log_lines,
    metric_names,
    prom_series,
    signal_patterns,
    table,
    trace_tree,
    trend,
)

#: what a waiting or terminated reason means, for a reader who does not run Kubernetes
MEANING = {
    "OOMKilled": "which means the container used more memory than it is allowed and was stopped",
    "CrashLoopBackOff": "which means the program keeps crashing at start and Kubernetes waits "
    "longer and longer before each new attempt",
    "ImagePullBackOff": "which means the cluster cannot download the program's image",
    "ErrImagePull": "which means the cluster could not download the program's image",
    "CreateContainerConfigError": "which means the container could not even be set up because "
    "a setting it needs is missing",
    "Error": "which means the program exited with a failure",
}
_KUBE = ("kube_", "instance:", "container_")


def plain_reason(reason: str) -> str:
    meaning = MEANING.get(reason, "")
    return f"{reason}, {meaning}" if meaning else reason


async def first_look(note: Note) -> None:
    """Whose namespace and which environment, what runs there, what happened lately."""
    ns = note.ns
    d = await note.k(
        f"describe namespace {ns}",
        f"read the description of the {ns} namespace (a namespace is a named area of the cluster)",
        "to learn who owns it and whether it is production",
    )
    note.labels, note.annotations = section(d, "Labels"), section(d, "Annotations")
    rows = table(
        await note.k(
            f"get deployments -n {ns} -o wide",
            f"listed the deployments in {ns} (a deployment keeps a set number of copies of a "
            "program running)",
            "to see what runs there and how healthy each one is",
        )
    )
    note.facts["deploys"] = {r["name"]: r for r in rows if r.get("name")}
    note.facts["pods"] = table(
        await note.k(
            f"get pods -n {ns} -o wide", f"listed the pods in {ns}", "to spot any unhealthy copy"
        )
    )
    note.facts["events"] = table(
        await note.k(
            f"get events -n {ns}",
            f"read the recent events of {ns} (the cluster's own diary of what it did)",
            "to see recent changes and warnings",
        )
    )


def named(note: Note) -> list[str]:
    """Deployments the request names as whole words, longest first."""
    deploys = note.facts.get("deploys", {})
    hits = [n for n in deploys if mentions(note.low, n)]
    if not hits:
        hits = [n for n in deploys if mentions(note.low, n.split("-")[0]) and "-" in n]
        hits = hits if len(hits) == 1 else []
    return sorted(hits, key=lambda n: (-len(n), n))


def pods_of(note: Note, name: str) -> list[dict[str, str]]:
    pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
    return [p for p in note.facts.get("pods", []) if pat.fullmatch(p.get("name", ""))]


def events_of(note: Note, name: str) -> list[dict[str, str]]:
    return [e for e in note.facts.get("events", []) if name in e.get("object", "")]


async def dig(note: Note, name: str) -> None:
    """The workload's pods in detail, its logs, the configuration it reads."""
    ns = note.ns
    text = await note.k(
        f"describe pods -l app={name} -n {ns}",
        f"read the detailed description of the {name} pods",
        "to see each container's state, its last exit, its memory limit and its settings",
    )
    views = describe_pods(text)
    note.facts.setdefault("views", {})[name] = views
    logs = await note.use(
        "logs_query",
        f"read the last hundred lines of the {name} log",
        "to see what the program itself reports",
        namespace=ns,
        deployment=name,
        tail=100,
    )
    if any(c.restarts or c.last_reason for v in views for c in v.containers):
        logs += "\n" + await note.use(
            "logs_query",
            f"read the log the {name} container wrote before its last restart",
            "because the current copy has only just started and the crash is in the earlier one",
            namespace=ns,
            deployment=name,
            previous=True,
            tail=100,
        )
    note.facts.setdefault("logs", {})[name] = logs
    spec = await note.k(
        f"get deployment {name} -n {ns} -o yaml",
        f"read the full definition of the {name} deployment",
        "to see which settings files it reads and how it is set up",
    )
    cms = set(re.findall(r"config map '([\w.-]+)'", text))
    for d in items(spec):
        for m in re.finditer(r"configMap(?:KeyRef|Ref)?\W+(?:\w+\W+)*?name\W+([\w.-]+)", str(d)):
            cms.add(m.group(1))
    for cm in sorted(cms):
        note.facts.setdefault("configmaps", {})[cm] = await read_configmap(note, cm)


async def read_configmap(note: Note, cm: str) -> dict[str, str]:
    out = await note.k(
        f"get configmap {cm} -n {note.ns} -o yaml",
        f"read the {cm} ConfigMap (a ConfigMap is a small file of settings the program reads)",
        "to check which settings it holds",
    )
    doc = items(out)
    data = doc[0].get("data") if doc else None
    return {str(k): str(v) for k, v in (data or {}).items()}


async def metrics(note: Note, name: str) -> None:
    """The series this environment serves about the workload, read as figures with units."""
    if not note.has("metrics_query"):
        return
    names = metric_names(
        await note.use(
            "metrics_query",
            "asked the metrics system which measurements it keeps",
            "to know what I could chart",
            action="metric_names",
        )
    )
    alerts = await note.use(
        "metrics_query",
        "checked which alerts are firing",
        "to see what the monitoring flags",
        action="alerts",
    )
    note.facts["alerts"] = (
        (load_json(alerts) or {}).get("data", {}).get("alerts", []) if alerts else []
    )
    from .operator_heldout28_fix import alerts_seen

    await alerts_seen(note, name)
    wanted = [n for n in names if not n.startswith(_KUBE)]
    if "container_memory_working_set_bytes" in names:
        wanted.append("container_memory_working_set_bytes")
    series: dict[str, list[float]] = {}
    for metric in wanted:
        query = metric
        if metric.startswith("container_"):
            query = f'max({metric}{{namespace="{note.ns}",pod=~"{name}-.*"}})'
        out = await note.use(
            "metrics_query",
            f"charted {metric.replace('_', ' ')} over the last six hours",
            f"to see how {name} behaved over time",
            action="query_range",
            query=query,
            start="-6h",
        )
        for _, values in prom_series(out)[:1]:
            if values:
                series[metric] = values
    note.facts["series"] = series


def figure(metric: str, value: float) -> str:
    """A reading in words with its unit (bytes as mebibytes, ratios and rates as percent)."""
    if "bytes" in metric and value >= 1024**3:
        return f"{value / 1024**3:.1f} gibibytes"
    if "bytes" in metric:
        return f"{value / 1024**2:.0f} mebibytes"
    if metric.endswith("_ms") or "latency" in metric:
        return f"{value:.0f} milliseconds"
    if "rate" in metric or "ratio" in metric:
        return f"{value * 100:.1f} percent" if value <= 1 else f"{value:.1f} percent"
    return f"{value:g}"


def say_series(note: Note, name: str) -> None:
    series = note.facts.get("series", {})
    for metric, values in sorted(series.items()):
        words = metric.replace("_", " ")
        t = trend(values)
        now = figure(metric, values[-1])
        if t == "rising" and len(values) > 2:
            note.find(
                f"The measurement called {words} has been climbing steadily, from "
                f"{figure(metric, values[0])} six hours ago to {now} now."
            )
            if "memory" in metric:
                from .operator_heldout28_fix import memory_risk

                memory_risk(note, name, values)
        elif metric.startswith("container_"):
            continue
        elif not metric.startswith("normal_"):
            base = series.get(f"normal_{metric}")
            if base:
                note.find(
                    f"The {words} of {name} reads {now} now against a normal level of "
                    f"{figure(metric, base[-1])}, so it is well off its usual value."
                )
            else:
                note.find(f"The {words} of {name} reads {now} at the moment.")


def diagnose(note: Note, name: str) -> str:
    """The cause, once, with its evidence; empty when nothing read shows one."""
    views = note.facts.get("views", {}).get(name, [])
    for e in events_of(note, name):
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)/(\S+)", e.get("message", ""))
        if m:
            key, cm = m.group(1), m.group(3)
            held = note.facts.get("configmaps", {}).get(cm, {})
            have = ", ".join(sorted(held)) or "other keys"
            return (
                f"The cause is a missing setting. The {name} program expects a key called {key} "
                f"in the {cm} ConfigMap, but that ConfigMap only holds {have}. The cluster's "
                f"events say so in its own words: it could not find key {key} in ConfigMap "
                f"{cm}. So every copy fails before it can start and ends up in "
                f"{plain_reason('CrashLoopBackOff')}."
            )
    for v in views:
        for c in v.containers:
            if c.init and (c.reason or c.last_reason) in ("Error", "CrashLoopBackOff"):
                logs = note.facts.get("init_logs", {}).get(c.name, "")
                said = _top(logs)
                return (
                    f"The root cause is the {c.name} init container of {name}, a preparation "
                    "step that must finish before the main program may start. It keeps "
                    f"failing{f' with the message {said}' if said else ''}, so no {name} copy "
                    "ever becomes ready and nothing can answer requests."
                )
    for v in views:
        for c in v.containers:
            if c.last_reason == "OOMKilled":
                limit = c.limits.get("memory", "")
                lim = (
                    f", against a limit of {limit.replace('Mi', ' mebibytes').replace('Gi', ' gibibytes')}"
                    if limit
                    else ""
                )
                return (
                    f"The root cause is memory. The {name} container was last stopped as "
                    f"{plain_reason('OOMKilled')}{lim}; it has restarted {c.restarts} times."
                )
    pats = signal_patterns(log_lines(note.facts.get("logs", {}).get(name, "")))
    if not pats:
        return ""
    said = " and ".join(_one(p) for p in pats[:2])
    quiet = " Most of the other lines were routine noise, such as health checks and debug messages, which I set aside."
    if any(p[0] in ("ERROR", "FATAL", "CRITICAL", "PANIC") for p in pats[:2]):
        return f"The {name} log points straight at the problem: {said}.{quiet}"
    return f"Tentative: the {name} log shows only warnings, namely {said}."


def _top(logs: str) -> str:
    pats = signal_patterns(log_lines(logs))
    return _one(pats[0]) if pats else ""


def _one(pat: tuple[str, str, int]) -> str:
    from .operator_heldout28_asks import ORDERS

    level, msg, n = pat
    msg = ORDERS.split(msg)[0].rstrip(" .") if ORDERS.search(msg) else msg
    times = "once" if n == 1 else f"{n} times"
    kind = "an error" if level in ("ERROR", "FATAL", "CRITICAL", "PANIC") else "a warning"
    return f"{kind} saying {msg} (seen {times})"


async def init_logs(note: Note, name: str) -> None:
    """The log of a failing init container, which the main log does not show."""
    for v in note.facts.get("views", {}).get(name, [])[:1]:
        for c in v.containers:
            if c.init and (c.reason or c.last_reason) in ("Error", "CrashLoopBackOff"):
                out = await note.use(
                    "logs_query",
                    f"read the log of the {c.name} preparation step of {name}",
                    "because it is the part that keeps failing",
                    namespace=note.ns,
                    pod=v.name,
                    container=c.name,
                    tail=50,
                )
                note.facts.setdefault("init_logs", {})[c.name] = out


async def traces(note: Note) -> None:
    """The slow request's path across services, to the span that holds the time."""
    if not note.has("traces_query"):
        return
    wanted = re.search(r"\btrace\s+([0-9a-f]{4,})", note.low)
    tid = wanted.group(1) if wanted else ""
    if not tid:
        found = load_json(
            await note.use(
                "traces_query",
                "searched the request traces for anything slower than one second",
                "to find a slow request to follow (a trace records each step of one request)",
                action="search",
                min_duration="1s",
            )
        )
        data = found.get("data") if isinstance(found, dict) else None
        for t in data or []:
            if isinstance(t, dict) and any(
                t.get(k) and mentions(note.low, str(t.get(k))) for k in ("rootService", "service")
            ):
                tid = str(t.get("traceID", ""))
                break
    if not tid:
        return
    spans = trace_tree(
        await note.use(
            "traces_query",
            f"opened trace {tid} and followed it step by step",
            "to see which service and which step held the time",
            action="get",
            trace_id=tid,
        )
    )
    path, slow = bottleneck(spans)
    if not slow:
        return
    hops = ", then ".join(f"{s.service} ({s.ms / 1000:.1f} seconds)" for s in path[:-1])
    extra = f" Its details read {slow.attrs}." if slow.attrs else ""
    note.find(
        f"Following the request, it passed through {hops}. Almost all of the time sits in one "
        f"step inside {slow.service}: the database query {slow.operation}, which took "
        f"{slow.ms:.0f} milliseconds, about {slow.ms / 1000:.1f} seconds.{extra}"
    )
    note.facts["slow_span"] = slow
    pool = dict(re.findall(r"db\.pool\.(\w+)=(\d+)", slow.attrs))
    if pool.get("active") and pool.get("active") == pool.get("max"):
        note.find(
            f"The three signals tell one story. The service keeps a pool of {pool['max']} "
            "database connections that requests share, and all of them are in use "
            f"({pool['active']} of {pool['max']}). New requests queue for a free connection, "
            "which is the slowness you see, the pool errors in the log and the long database "
            "step in the trace. The root cause is this connection pool exhaustion; the fix is a "
            "bigger pool or finding what holds connections so long."
        )
    elif "where" in slow.operation.lower() or "rows_affected=1" in slow.attrs:
        note.find(
            "A lookup that returns a single row should take a few milliseconds. Taking seconds "
            "usually means the table has no index on the column being searched, so the database "
            "reads every row; adding that index is the likely fix, and the database owner "
            "should confirm it."
        )
