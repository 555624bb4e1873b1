"""``heldout22``'s reads of the focus: describe, logs, metrics, traces, dashboards, database,
the request path and the nodes, each chosen from what the prompt asks and what the first look
showed. The facts it keeps are the figures as read; ``operator_heldout22_why.py`` decides.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout22 import Desk
from .operator_read import (
    PodView,
    alerts,
    describe_pods,
    items,
    load_json,
    log_lines,
    metric_names,
    prom_series,
    signal_patterns,
    table,
    trace_tree,
)


@dataclass
class Seen:
    """What was read about the focus workloads and around them."""

    pods: dict[str, list[PodView]] = field(default_factory=dict)
    deploy_text: dict[str, str] = field(default_factory=dict)
    logs: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    noise: dict[str, int] = field(default_factory=dict)
    series: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    history: dict[str, str] = field(default_factory=dict)
    spans: list[Any] = field(default_factory=list)
    trace_id: str = ""
    panels: list[dict[str, Any]] = field(default_factory=list)
    board: str = ""
    migrations: str = ""
    db_rows: str = ""
    policies: list[dict[str, Any]] = field(default_factory=list)
    pod_labels: dict[str, str] = field(default_factory=dict)
    nodes: str = ""
    runbook: dict[str, Any] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)
    configmaps: list[dict[str, Any]] = field(default_factory=list)
    replicasets: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    init_logs: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    alert_reads: list[tuple[str, str, str, list[float]]] = field(default_factory=list)
    cpu_top: list[tuple[str, float]] = field(default_factory=list)
    path_logs: list[tuple[str, str]] = field(default_factory=list)
    # conclusions the reasoning draws, read by the changes (None / empty when not found)
    oom: tuple[str, str, str] | None = None
    cpu_fit: tuple[str, str, float] | None = None
    blocking: tuple[str, dict[str, Any], list[dict[str, Any]]] | None = None
    callee: str = ""
    schema_gap: str | None = None
    transient: str = ""
    rollout: tuple[str, str, str, str] | None = None
    error_rate: dict[str, float] = field(default_factory=dict)
    init_failed: tuple[str, str, str] | None = None


def _wants(desk: Desk, *words: str) -> bool:
    text = desk.prompt.lower()
    return any(w in text for w in words)


async def study(desk: Desk, targets: list[str]) -> Seen:
    """Every read the task needs; the result is kept on the desk for the other modules."""
    seen = Seen()
    desk.seen = seen
    ns = desk.ns
    if _wants(desk, "503", "public api", "ingress") and desk.has("kubectl"):
        targets[:] = await _request_path(desk, seen) or targets
    if desk.has("metrics_query"):
        seen.alerts = [
            a
            for a in alerts(
                await desk.use(
                    "metrics_query", "I check if some alert is firing", "alerts", action="alerts"
                )
            )
            if a.get("state") in ("firing", "pending")
        ]
    for name in targets[:3]:
        await _workload(desk, seen, ns, name)
    await _follow_alerts(desk, seen, targets)
    if _wants(desk, "network", "reach", "connect") and not _wants(desk, "dropping"):
        await _network(desk, seen, ns)
    if _wants(desk, "runbook"):
        await _runbook(desk, seen, ns)
    if _wants(desk, "pending", "scale", "load", "available", "node", "rolling", "survive"):
        seen.nodes = await desk.kubectl("describe nodes", "I check nodes capacity and condition")
    if (_wants(desk, "config", "connection", "flag") or targets) and not seen.configmaps:
        await _configmaps(desk, seen, ns)
    if _wants(desk, "cpu") and desk.has("metrics_query"):
        await _cpu(desk, seen, ns)
    await _traces(desk, seen, targets)
    if desk.has("dashboards"):
        await _dashboards(desk, seen)
    if desk.has("database"):
        await _database(desk, seen, targets)
    return seen


async def _workload(desk: Desk, seen: Seen, ns: str, name: str) -> None:
    if not desk.deployment(name):
        seen.pods[name] = describe_pods(
            await desk.kubectl(
                f"describe pod {name} -n {ns}", f"I see why pod {name} is in this state"
            )
        )
        await _pod_logs(desk, seen, ns, name)
        return
    seen.deploy_text[name] = await desk.kubectl(
        f"describe deployment {name} -n {ns}", f"I read spec and conditions of {name}"
    )
    seen.pods[name] = describe_pods(
        await desk.kubectl(
            f"describe pods -n {ns} -l app={name}", f"I see why pods of {name} is in this state"
        )
    )
    await _init_logs(desk, seen, ns, name)
    seen.history[name] = await desk.kubectl(
        f"rollout history deployment/{name} -n {ns}", f"I check if {name} is deployed recently"
    )
    if len(re.findall(r"^\d+\s", seen.history[name], re.M)) > 1:
        seen.replicasets[name] = table(
            await desk.kubectl(
                f"get replicasets -n {ns} -l app={name} -o wide",
                f"I see when new version of {name} start and which image",
            )
        )
    if desk.has("logs_query"):
        crashed = any(c.restarts for p in seen.pods[name] for c in p.containers)
        text = await desk.use(
            "logs_query",
            f"I read logs of {name}",
            f"logs_query {name}",
            namespace=ns,
            deployment=name,
            previous=crashed,
            tail=200,
        )
        lines = log_lines(text)
        seen.logs[name] = signal_patterns(lines)
        seen.noise[name] = sum(1 for ln in lines if ln.level in ("DEBUG", "TRACE", "INFO"))
    if desk.has("metrics_query"):
        query = f'{{namespace="{ns}", service="{name}"}}'
        text = await desk.use(
            "metrics_query",
            f"I read numbers of {name} for last 6h",
            f"metrics_query {query} 6h",
            action="query_range",
            query=query,
            start="-6h",
        )
        series: dict[str, list[float]] = {}
        for labels, values in prom_series(text):
            if labels.get("__name__") and values:
                series.setdefault(labels["__name__"], values)
        seen.series[name] = series


async def _follow_alerts(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """An alert on a workload in focus: read the figure the alert is about, said as its trigger."""
    for a in seen.alerts:
        labels = a.get("labels", {})
        service, alert = str(labels.get("service", "")), str(labels.get("alertname", ""))
        if service not in targets:
            continue
        kind = "memory" if "mem" in alert else ("cpu" if "cpu" in alert else "")
        if not kind:
            continue
        metric = {
            "memory": "container_memory_working_set_bytes",
            "cpu": "container_cpu_usage_seconds_total",
        }[kind]
        desk.trigger = f"alert {alert}"
        values: list[float] = []
        for query in (
            f'{metric}{{namespace="{desk.ns}", service="{service}"}}',
            f'{metric}{{namespace="{desk.ns}", pod=~"{service}-.*"}}',
        ):
            text = await desk.use(
                "metrics_query",
                f"alert {alert} is firing for {service}, so I check its {kind}",
                f"metrics_query {query} 1h",
                action="query_range",
                query=query,
                start="-1h",
            )
            values = [v for _, vals in prom_series(text)[:1] for v in vals]
            if values:
                break
        seen.alert_reads.append((alert, service, kind, values))
        desk.trigger = "operator request"


async def _pod_logs(desk: Desk, seen: Seen, ns: str, pod: str) -> None:
    if not desk.has("logs_query"):
        return
    text = await desk.use(
        "logs_query",
        f"I read logs of pod {pod} (last run)",
        f"logs_query pod {pod} previous",
        namespace=ns,
        pod=pod,
        previous=True,
        tail=200,
    )
    lines = log_lines(text)
    seen.logs[pod] = signal_patterns(lines)
    seen.noise[pod] = sum(1 for ln in lines if ln.level in ("DEBUG", "TRACE", "INFO"))


async def _init_logs(desk: Desk, seen: Seen, ns: str, name: str) -> None:
    """Logs of an init container that does not finish (the app container never starts)."""
    for pod in seen.pods.get(name, [])[:1]:
        for c in pod.containers:
            broken = c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"
            if c.init and broken and desk.has("logs_query"):
                text = await desk.use(
                    "logs_query",
                    f"init container {c.name} is failing, I read its logs",
                    f"logs_query {pod.name} -c {c.name}",
                    namespace=ns,
                    pod=pod.name,
                    container=c.name,
                    tail=100,
                )
                seen.init_logs[c.name] = signal_patterns(log_lines(text))


async def _request_path(desk: Desk, seen: Seen) -> list[str]:
    """Ingress -> service -> endpoints -> the workload behind it."""
    ns = desk.ns
    ing = await desk.kubectl(f"get ingress -n {ns} -o yaml", "I follow the request from ingress")
    services = sorted(set(re.findall(r"name:\s*(\S+)\n\s*port:", ing)))
    out: list[str] = []
    for svc in services[:2]:
        ep = await desk.kubectl(
            f"get endpoints {svc} -n {ns}", f"I check if service {svc} has some backend pod"
        )
        rows = [ln.split() for ln in ep.splitlines()[1:] if ln.strip()]
        empty = any(len(r) > 1 and r[1] in ("<none>", "") for r in rows)
        seen.path.append(f"ingress -> service {svc} (endpoints: {'none' if empty else 'ok'})")
        sel = await desk.kubectl(
            f"get service {svc} -n {ns} -o jsonpath={{.spec.selector}}",
            f"I see which pods service {svc} is selecting",
        )
        app = re.search(r'"app"\s*:\s*"([^"]+)"', sel) or re.search(r"app[=:](\S+)", sel)
        name = app.group(1).strip('"}') if app else svc
        if desk.deployment(name) or desk.pods_of(name):
            out.append(name)
    if desk.has("logs_query"):
        text = await desk.use(
            "logs_query",
            "I search proxy / sidecar logs on the request path for upstream errors",
            f'logs_query {{namespace="{ns}"}} |~ "upstream|503"',
            query=f'{{namespace="{ns}"}} |~ "upstream|503"',
            namespace=ns,
            tail=50,
        )
        for line in text.splitlines():
            who = re.search(r'(?:app|container)="([^"]+)"', line)
            msg = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", line).strip()
            if who and msg:
                seen.path_logs.append((who.group(1), msg))
    return out


async def _network(desk: Desk, seen: Seen, ns: str) -> None:
    text = await desk.kubectl(
        f"get networkpolicies -n {ns} -o yaml", "I check if some network policy is blocking"
    )
    seen.policies = items(text)
    labels = await desk.kubectl(
        f"get pods -n {ns} --show-labels", "I see labels of pods, to compare with policy"
    )
    for line in labels.splitlines()[1:]:
        parts = line.split()
        if parts:
            seen.pod_labels[parts[0]] = parts[-1]
    await desk.kubectl(f"get services,endpoints -n {ns}", "I check service and endpoints")


async def _runbook(desk: Desk, seen: Seen, ns: str) -> None:
    text = await desk.kubectl(
        f"get configmaps -n {ns} -o yaml", "I look for the runbook the operator is asking"
    )
    words = set(re.findall(r"[a-z0-9-]{6,}", desk.prompt.lower()))
    seen.configmaps = [
        cm for cm in items(text) if "runbook" not in json.dumps(cm.get("metadata", {}))
    ]
    for cm in items(text):
        meta = cm.get("metadata", {})
        blob = json.dumps(meta).lower()
        if "runbook" in blob and any(w in blob for w in words):
            seen.runbook = cm
            return


async def _cpu(desk: Desk, seen: Seen, ns: str) -> None:
    """Who really uses the CPU: the CPU series the backend keeps, biggest first."""
    names = metric_names(
        await desk.use(
            "metrics_query",
            "I see which CPU metrics exist",
            "metrics_query metric_names",
            action="metric_names",
        )
    )
    rows: list[tuple[str, float]] = []
    for metric in [n for n in names if "cpu" in n.lower()][:3]:
        text = await desk.use(
            "metrics_query",
            "operator say node CPU is pegged; I check who use the CPU",
            f"metrics_query {metric}",
            action="query",
            query=metric,
        )
        for labels, vals in prom_series(text):
            who = labels.get("pod") or labels.get("node") or labels.get("service") or "?"
            if vals:
                rows.append((f"{who} ({metric})", vals[-1]))
    seen.cpu_top = sorted(rows, key=lambda r: -r[1])[:4]


async def _configmaps(desk: Desk, seen: Seen, ns: str) -> None:
    text = await desk.kubectl(f"get configmaps -n {ns} -o yaml", "I read config of the service")
    seen.configmaps = [
        cm for cm in items(text) if "runbook" not in json.dumps(cm.get("metadata", {}))
    ]


async def _traces(desk: Desk, seen: Seen, targets: list[str]) -> None:
    if not desk.has("traces_query"):
        return
    named = re.search(r"\btrace\s+([0-9a-zA-Z-]{4,})", desk.prompt, re.I)
    trace_id = named.group(1) if named else ""
    if not trace_id and targets:
        found = await desk.use(
            "traces_query",
            f"I search slow traces of {targets[0]}",
            f"traces_query search {targets[0]}",
            action="search",
            service=targets[0],
        )
        doc = load_json(found)
        data = doc.get("data", []) if isinstance(doc, dict) else []
        if data and isinstance(data[0], dict):
            trace_id = str(data[0].get("traceID", ""))
    if trace_id:
        seen.trace_id = trace_id
        seen.spans = trace_tree(
            await desk.use(
                "traces_query",
                f"I open trace {trace_id} span by span",
                f"traces_query get {trace_id}",
                action="get",
                trace_id=trace_id,
            )
        )


async def _dashboards(desk: Desk, seen: Seen) -> None:
    doc = load_json(
        await desk.use("dashboards", "I list dashboards", "dashboards list", action="list")
    )
    boards = [b for b in doc if isinstance(b, dict)] if isinstance(doc, list) else []
    text = desk.prompt.lower()
    pick = next((b for b in boards if str(b.get("uid", "")) in text), boards[0] if boards else None)
    if not pick:
        return
    uid = str(pick.get("uid", ""))
    board = load_json(
        await desk.use(
            "dashboards", f"I open dashboard {uid}", f"dashboards get {uid}", action="get", uid=uid
        )
    )
    dash = board.get("dashboard", {}) if isinstance(board, dict) else {}
    seen.board = str(dash.get("title", uid))
    seen.panels = [p for p in dash.get("panels", []) if isinstance(p, dict)]


async def _database(desk: Desk, seen: Seen, targets: list[str]) -> None:
    seen.migrations = await desk.use(
        "database",
        "I check which migration is applied",
        "database migrations status",
        query="migrations status",
    )
    when = re.findall(r"\|\s*(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\S*\s*\|\s*Success", seen.migrations)
    if not when:
        return
    if not targets:
        return
    table_name = targets[0].split("-")[0] + "s"
    seen.db_rows = await desk.use(
        "database",
        f"I count rows in {table_name} written after last migration",
        f"database count {table_name} since {when[-1]}",
        query=f"SELECT count(*) FROM {table_name} WHERE created_at > '{when[-1]}'",
    )
