"""The careful agent's deep read of its scope (``survey(..., deep=True)``).

Reads, in order: namespaces (labels and annotations carry environment and
ownership), every workload-related kind in scope, nodes, the logs of unhealthy
pods (current, previous and failing init containers), the log backend, metrics
(alerts, application metrics with their baselines, memory history against limits,
CPU), dashboards, traces, GitOps applications and database migrations. Each read
is recorded with its reason for the audit trail. Only namespaces in scope are
read namespaced; cluster-scoped lists (namespaces, nodes) carry no namespace.
"""

from __future__ import annotations

import re
from typing import Any

from .reading import DEEP_KINDS, alerts_in, pod_findings, uids_in, unhealthy_pods
from .session import Session, parse_json
from .signals import dashboard_panels, jaeger_spans, parse_logs, prom_series
from .subject import named_first

#: metric families that describe infrastructure rather than an application's own behaviour
INFRA_PREFIXES = (
    "kube_",
    "instance:",
    "node_",
    "container_",
    "up",
    "apiserver",
    "process_",
    "go_",
    "prometheus",
)
MAX_APP_METRICS = 12
#: annotations Kubernetes tooling writes itself: records of past commands, not text from anyone
SYSTEM_ANNOTATIONS = frozenset(
    {
        "kubernetes.io/change-cause",
        "deployment.kubernetes.io/revision",
        "kubectl.kubernetes.io/last-applied-configuration",
        "kubectl.kubernetes.io/restartedAt",
    }
)
MAX_TRACES = 3
MAX_DASHBOARDS = 6


async def deep_read(s: Session, out: Any, prompt: str = "") -> None:

    if s.has("kubectl"):
        await _namespaces(s, out)
        for kind, why in DEEP_KINDS.items():
            items: list[dict[str, Any]] = []
            for ns in out.namespaces:
                with s.doing(why):
                    items.extend(await s.items(kind, ns))
            out.objects[kind] = items
        with s.doing("check node conditions (pressure, readiness), taints and capacity"):
            data = await s.kjson("get", "nodes")
        out.nodes = list((data or {}).get("items") or [])
        for item in out.objects.get("configmap", []) + out.objects.get("deployment", []):
            for key, value in ((item.get("metadata") or {}).get("annotations") or {}).items():
                if key not in SYSTEM_ANNOTATIONS:
                    out.orders(str(value), None)
        pod_findings(out)
        for pod in named_first(prompt, unhealthy_pods(out))[:4]:
            await _pod_logs(s, out, pod)
    await _logs(s, out)
    await _metrics(s, out)
    await _dashboards(s, out, prompt)
    await _traces(s, out, prompt)
    if s.has("gitops"):
        with s.doing("see which applications GitOps manages and whether they are in sync"):
            text, error = await s.call("gitops", command="app list")
        if not error:
            out.texts.append(text)
            out.gitops_apps = _table(text)
    if s.has("database"):
        with s.doing("check the schema migration history of the service database"):
            text, error = await s.call("database", query="migrations status")
        if not error:
            out.migrations = text


async def _namespaces(s: Session, out: Any) -> None:
    with s.doing(
        "find the namespaces, and the environment and owners their labels and annotations declare"
    ):
        data = await s.kjson("get", "namespaces")
    if data:
        items = list(data.get("items") or [])
        out.known_namespaces = {str((i.get("metadata") or {}).get("name")) for i in items}
        out.ns_meta = {
            (i.get("metadata") or {}).get("name"): i
            for i in items
            if (i.get("metadata") or {}).get("name") in out.namespaces
        }
        return
    for ns in out.namespaces:
        with s.doing(f"read namespace {ns}: its environment and owners"):
            obj = await s.kjson("get", "namespace", ns)
        if obj:
            out.ns_meta[ns] = obj


async def _pod_logs(s: Session, out: Any, pod: dict[str, Any]) -> None:
    meta, status = pod.get("metadata") or {}, pod.get("status") or {}
    name, ns = meta.get("name", ""), meta.get("namespace", "")
    app = (meta.get("labels") or {}).get("app")
    reads: list[tuple[str, list[str], str]] = []
    for cs in status.get("initContainerStatuses") or []:
        if not cs.get("ready") and (
            cs.get("restartCount") or (cs.get("lastState") or {}).get("terminated")
        ):
            reads.append(
                (
                    f"{name}/{cs['name']}",
                    ["-c", cs["name"]],
                    f"read init container {cs['name']} logs: it has not completed",
                )
            )
    for cs in status.get("containerStatuses") or []:
        if ((cs.get("state") or {}).get("waiting") or {}).get("reason") in (
            "PodInitializing",
            "ContainerCreating",
        ):
            continue
        reads.append(
            (f"{name}/{cs['name']}", ["-c", cs["name"]], f"read the logs of unhealthy pod {name}")
        )
        if cs.get("restartCount"):
            reads.append(
                (
                    f"{name}/{cs['name']} (previous)",
                    ["-c", cs["name"], "--previous"],
                    f"read the logs of the previous (crashed) {cs['name']} container",
                )
            )
    for key, extra, why in reads:
        with s.doing(why):
            text, error = await s.kubectl("logs", name, "-n", ns, *extra, "--tail", "50")
        if error:
            continue
        out.pod_logs[key] = text
        out.texts.append(text)
        out.orders(text, app)
        seen = {(line.source, line.text) for line in out.logs}
        out.logs.extend(
            line for line in parse_logs(text, name, app) if (line.source, line.text) not in seen
        )


async def _logs(s: Session, out: Any) -> None:
    if not s.has("logs_query"):
        return
    for ns in out.namespaces:
        with s.doing(f"read recent logs of every workload in {ns}"):
            text, error = await s.call("logs_query", namespace=ns, tail=200)
        if error:
            continue
        out.texts.append(text)
        for line in text.splitlines():
            app = re.search(r'app="([^"]+)"', line)
            out.orders(line, app.group(1) if app else None)
        seen = {(line.source, line.message) for line in out.logs}
        out.logs.extend(
            line for line in parse_logs(text) if (line.source, line.message) not in seen
        )


async def _metrics(s: Session, out: Any) -> None:
    if not s.has("metrics_query"):
        return

    with s.doing("check for firing alerts"):
        doc = await s.qjson("metrics_query", action="alerts")
    if isinstance(doc, dict):
        out.alerts = [
            a for a in ((doc.get("data") or {}).get("alerts") or []) if isinstance(a, dict)
        ]
        out.findings.extend(alerts_in(__import__("json").dumps(doc)))
    with s.doing("list the metrics available"):
        doc = await s.qjson("metrics_query", action="metric_names")
    names = [str(n) for n in ((doc or {}).get("data") or [])] if isinstance(doc, dict) else []
    out.metric_names = names
    in_scope = "|".join(out.namespaces)
    apps = [n for n in names if not n.startswith(INFRA_PREFIXES)][:MAX_APP_METRICS]
    for name in apps:
        with s.doing(
            f"read the application metric {name} (current value, and its baseline where one exists)"
        ):
            out.metrics[name] = _scoped(
                prom_series(await s.qjson("metrics_query", query=name), name), out
            )
    for name in [
        n for n in apps if re.search(r"error|latency|p99|5xx", n) and not n.startswith("normal")
    ][:3]:
        with s.doing(f"see how {name} moved over the last hours"):
            doc = await s.qjson(
                "metrics_query", action="query_range", query=name, start="-6h", step="15m"
            )
        out.history[name] = _scoped(prom_series(doc, name), out)
    wanted = {
        "container_memory_working_set_bytes": "compare memory use with the limits, and its trend over 6 hours",
        "kube_pod_container_resource_limits": "read the containers' resource limits",
        "container_cpu_usage_cores": "see which containers use CPU",
        "instance:node_cpu_utilisation:rate5m": "see how busy each node's CPU is",
        "kube_pod_container_status_last_terminated_reason": "see why containers last terminated",
    }
    for name, why in wanted.items():
        if name not in names:
            continue
        query = f'{name}{{namespace=~"{in_scope}"}}' if not name.startswith("instance:") else name
        with s.doing(why):
            if name == "container_memory_working_set_bytes":
                doc = await s.qjson(
                    "metrics_query", action="query_range", query=query, start="-6h", step="1h"
                )
                out.history[name] = prom_series(doc, name)
            else:
                out.metrics[name] = prom_series(await s.qjson("metrics_query", query=query), name)


def _scoped(series: list[Any], out: Any) -> list[Any]:
    return [x for x in series if x.labels.get("namespace") in (None, *out.namespaces)]


def _named(prompt: str, *names: str) -> bool:
    """Whether the operator's words name one of ``names`` (an id, a slug, a service)."""
    text = prompt.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", text) for n in names if n)


async def _dashboards(s: Session, out: Any, prompt: str = "") -> None:
    """Every dashboard, or only those the operator names (by uid or title) when they do:
    another team's board is not the health check asked for."""
    if not s.has("dashboards"):
        return
    with s.doing("list the dashboards"):
        listing, error = await s.call("dashboards", action="list")
    if error:
        return
    out.texts.append(listing)
    out.orders(listing, None)

    uids = uids_in(listing)
    doc = parse_json(listing)
    titles = {
        str(b.get("uid")): str(b.get("title") or "")
        for b in (doc if isinstance(doc, list) else [])
        if isinstance(b, dict)
    }
    named = [u for u in uids if _named(prompt, u, titles.get(u, "").replace(" ", "-"))]
    for uid in (named or uids)[:MAX_DASHBOARDS]:
        with s.doing(f"read every panel of dashboard {uid}"):
            text, err = await s.call("dashboards", action="get", uid=uid)
        if err:
            continue
        out.texts.append(text)
        out.orders(text, None)

        title, panels = dashboard_panels(parse_json(text))
        out.dashboards.append((uid, title, panels))


async def _traces(s: Session, out: Any, prompt: str) -> None:
    if not s.has("traces_query"):
        return
    with s.doing("find recent traces, slowest first"):
        doc = await s.qjson("traces_query", action="search", limit=20)
    found = (
        [t for t in ((doc or {}).get("data") or []) if isinstance(t, dict)]
        if isinstance(doc, dict)
        else []
    )
    words = {w for w in re.findall(r"[A-Za-z0-9-]{5,}", prompt)}
    named = [t for t in found if any(w.lower() in str(t.get("traceID", "")).lower() for w in words)]
    # the symptom's traces: named by id, else crossing a service the operator names
    named = named or [t for t in found if _named(prompt, *map(str, t.get("services") or []))]
    slow = sorted(found, key=lambda t: -_ms(t.get("duration")))
    for t in list(dict.fromkeys(x["traceID"] for x in named or slow))[:MAX_TRACES]:
        with s.doing(f"open trace {t} and walk its spans across services"):
            doc = await s.qjson("traces_query", action="get", trace_id=t, format="json")
        spans = jaeger_spans(doc)
        if spans:
            out.traces[t] = spans


def _ms(text: Any) -> float:
    m = re.match(r"([0-9.]+)\s*(ms|s)?", str(text or ""))
    if not m:
        return 0.0
    return float(m.group(1)) * (1000 if m.group(2) == "s" else 1)


def _table(text: str) -> list[dict[str, str]]:
    """A CLI table (header row, whitespace-separated columns) as dicts."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 2:
        return []
    head = lines[0].split()
    return [dict(zip(head, ln.split())) for ln in lines[1:]]
