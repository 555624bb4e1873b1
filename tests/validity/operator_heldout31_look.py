"""heldout31's investigation: what the symptom points at is read, and nothing is changed.

The workload the operator names is taken as the subject (a Deployment, a bare pod, a Service,
an Ingress's backend when only the public entry is named); its pods, events, rollout history,
logs, Services, policies, claims and metrics are read, then the other sources the
environment offers (a trace named in the request, a dashboard named in it, the migration
history, a runbook). Generic parsers come from ``operator_read``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from . import operator_read as rd
from .operator_heldout31_rec import Record

ISO = re.compile(r"\b20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")


@dataclass
class Look:
    ns: str
    prompt: str
    ns_meta: dict[str, Any] = field(default_factory=dict)
    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    focus: list[str] = field(default_factory=list)
    bare_pods: list[str] = field(default_factory=list)
    objs: dict[str, dict[str, Any]] = field(default_factory=dict)
    views: list[rd.PodView] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    previous: dict[str, str] = field(default_factory=dict)
    init_logs: dict[str, str] = field(default_factory=dict)
    replicasets: list[dict[str, str]] = field(default_factory=list)
    services: list[dict[str, Any]] = field(default_factory=list)
    endpoints: list[dict[str, Any]] = field(default_factory=list)
    policies: list[dict[str, Any]] = field(default_factory=list)
    configmaps: list[dict[str, Any]] = field(default_factory=list)
    pvcs: list[dict[str, Any]] = field(default_factory=list)
    ingresses: list[dict[str, Any]] = field(default_factory=list)
    series: dict[str, list[tuple[dict[str, str], list[float], list[float]]]] = field(
        default_factory=dict
    )
    alerts: list[dict[str, Any]] = field(default_factory=list)
    spans: list[rd.Span] = field(default_factory=list)
    trace_head: str = ""
    trace_named: bool = False
    panels: list[dict[str, Any]] = field(default_factory=list)
    dashboard: str = ""
    migrations: str = ""
    runbook: dict[str, str] = field(default_factory=dict)
    runbook_name: str = ""
    nodes: list[dict[str, Any]] = field(default_factory=list)
    source_logs: dict[str, str] = field(default_factory=dict)
    times: list[str] = field(default_factory=list)

    def labels(self) -> dict[str, str]:
        return dict((self.ns_meta.get("metadata") or {}).get("labels") or {})

    def annotations(self) -> dict[str, str]:
        return dict((self.ns_meta.get("metadata") or {}).get("annotations") or {})

    def now(self) -> str:
        return max(self.times) if self.times else ""


def _mentioned(prompt: str, names: list[str]) -> list[str]:
    """Names the request mentions (``api gateway`` matches ``api-gateway``), longest first,
    a name that is a prefix of a longer mentioned one dropped."""
    text = prompt.lower()
    hits = []
    for n in names:
        pat = r"[-\s_]".join(re.escape(part) for part in re.split(r"[-_]", n.lower()))
        if n and re.search(rf"(?<![\w-]){pat}(?![\w])", text):
            hits.append(n)
    hits = sorted(set(hits), key=lambda n: (-len(n), n))
    return [n for n in hits if not any(o != n and o.startswith(n + "-") for o in hits)]


def _note_times(look: Look, text: str) -> None:
    look.times.extend(ISO.findall(text))


async def survey(rec: Record, ns: str, prompt: str) -> Look:
    """The namespace's shape: its labels, workloads, pods and events."""
    look = Look(ns, prompt)
    why = "the namespace's labels and annotations say which environment it is and who owns it"
    ns_yaml = await rec.kubectl(f"get namespace {ns} -o yaml", "read", f"namespace {ns}", why)
    look.ns_meta = rd.load_yaml(ns_yaml) or {}
    why = "the workloads of the namespace were listed to find the one the request names"
    look.deployments = rd.table(
        await rec.kubectl(f"get deployments -n {ns} -o wide", "list", f"deployments in {ns}", why)
    )
    why = "pod status, restarts and placement show whether the workload is running"
    look.pods = rd.table(
        await rec.kubectl(f"get pods -n {ns} -o wide", "list", f"pods in {ns}", why)
    )
    why = "recent events show scheduling, rollout and restart history"
    look.events = rd.table(await rec.kubectl(f"get events -n {ns}", "list", f"events in {ns}", why))
    return look


def choose_focus(look: Look) -> None:
    names = [d.get("name", "") for d in look.deployments if d.get("name")]
    look.focus = _mentioned(look.prompt, names)
    owned = {
        p.get("name", "")
        for p in look.pods
        if any(p.get("name", "").startswith(d + "-") for d in names)
    }
    bare = [p.get("name", "") for p in look.pods if p.get("name") and p.get("name") not in owned]
    stems = {re.sub(r"-[a-z0-9]{4,5}$", "", b): b for b in bare}
    for stem in _mentioned(look.prompt, list(stems)):
        look.bare_pods.append(stems[stem])


def pods_of(look: Look, name: str) -> list[str]:
    return [
        p.get("name", "")
        for p in look.pods
        if re.fullmatch(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}", p.get("name", ""))
    ]


async def follow_ingress(rec: Record, look: Look) -> None:
    """With no workload named, the public entry is followed: Ingress -> Service -> pods."""
    ns = look.ns
    why = "no workload was named, so the public entry point was read to find its backend"
    look.ingresses = rd.items(
        await rec.kubectl(f"get ingress -n {ns} -o yaml", "read", f"ingresses in {ns}", why)
    )
    backends = []
    for ing in look.ingresses:
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for path in ((rule.get("http") or {}).get("paths")) or []:
                svc = ((path.get("backend") or {}).get("service") or {}).get("name")
                if svc:
                    backends.append(svc)
    if rec.has("logs_query") and backends:
        why = "the proxies in front of the backend log the upstream failures behind a 503"
        text = await rec.call(
            "logs_query",
            "query",
            f"upstream errors in {ns}",
            why,
            query=f'{{namespace="{ns}"}} |~ "upstream|503"',
            tail=50,
        )
        for line in text.splitlines():
            m = re.search(r'source="([^"]+)"', line)
            if m:
                look.source_logs[m.group(1)] = look.source_logs.get(m.group(1), "") + line + "\n"
    names = [d.get("name", "") for d in look.deployments]
    look.focus = [b for b in dict.fromkeys(backends) if b in names] or look.focus


async def detail(rec: Record, look: Look) -> None:
    """The subject's object, pods, logs and rollout history."""
    ns = look.ns
    for name in look.focus:
        why = f"the spec of {name} (image, replicas, limits, probes, env) was needed"
        obj = rd.load_yaml(
            await rec.kubectl(
                f"get deployment {name} -n {ns} -o yaml", "read", f"deployment {name}", why
            )
        )
        if isinstance(obj, dict):
            look.objs[name] = obj
            _note_times(look, str(obj))
        pods = pods_of(look, name)
        if pods:
            why = f"container states, last terminations and events of the {name} pods"
            text = await rec.kubectl(
                f"describe pods -n {ns} -l app={name}", "describe", f"pods of {name}", why
            )
            look.views += [v for v in rd.describe_pods(text) if v.name in pods]
        why = f"the log lines of {name} were searched for errors"
        look.logs[name] = await rec.call(
            "logs_query", "query", f"logs of {name}", why, namespace=ns, deployment=name, tail=200
        )
        _note_times(look, look.logs[name])
        if any(
            c.restarts or c.last_reason for v in look.views if v.name in pods for c in v.containers
        ):
            why = f"the {name} container had restarted, so the crashed instance's log was read"
            look.previous[name] = await rec.call(
                "logs_query",
                "query",
                f"previous logs of {name}",
                why,
                namespace=ns,
                deployment=name,
                previous=True,
                tail=200,
            )
    for pod in look.bare_pods:
        why = f"the pod {pod} named in the request was described"
        look.views += rd.describe_pods(
            await rec.kubectl(f"describe pod {pod} -n {ns}", "describe", f"pod {pod}", why)
        )
        why = f"the log of {pod} was read for the crash message"
        look.logs[pod] = await rec.kubectl(
            f"logs {pod} -n {ns} --tail=100", "read", f"log of pod {pod}", why
        )
        look.previous[pod] = await rec.kubectl(
            f"logs {pod} -n {ns} --previous --tail=100", "read", f"previous log of pod {pod}", why
        )
    await _init_logs(rec, look)
    if look.focus:
        why = "the ReplicaSets give the rollout history: which image ran before and when it changed"
        look.replicasets = rd.table(
            await rec.kubectl(
                f"get replicasets -n {ns} -o wide", "list", f"replicasets in {ns}", why
            )
        )


async def _init_logs(rec: Record, look: Look) -> None:
    for view in look.views:
        for c in view.containers:
            bad = (
                c.init
                and (c.reason or c.last_reason)
                and "Completed" not in (c.reason + c.last_reason)
            )
            if bad or (c.init and "Error" in (c.state + c.reason + c.last_reason)):
                why = f"init container {c.name} of {view.name} had not completed; its log holds the failure"
                text = await rec.kubectl(
                    f"logs {view.name} -c {c.name} -n {look.ns} --tail=100",
                    "read",
                    f"log of init container {c.name}",
                    why,
                )
                look.init_logs[f"{view.name}/{c.name}"] = text
                return


async def wiring(rec: Record, look: Look) -> None:
    """Services, endpoints, policies, ConfigMaps and claims of the namespace."""
    ns = look.ns
    reads = (
        ("services", "services", "which Services front the workloads and what they select"),
        ("endpoints", "endpoints", "whether each Service has ready endpoints behind it"),
        ("networkpolicies", "policies", "which NetworkPolicies restrict traffic to the pods"),
        ("configmaps", "configmaps", "the configuration the pods consume"),
        ("persistentvolumeclaims", "pvcs", "whether the volumes the pods mount are bound"),
    )
    for kind, attr, why in reads:
        out = await rec.kubectl(f"get {kind} -n {ns} -o yaml", "read", f"{kind} in {ns}", why)
        setattr(look, attr, rd.items(out))


async def signals(rec: Record, look: Look, trigger: str = "") -> None:
    """Alerts, and every series labelled with the subject's name (read over six hours)."""
    if not rec.has("metrics_query"):
        return
    why = "firing and pending alerts show what the monitoring already flags"
    look.alerts = rd.alerts(
        await rec.call("metrics_query", "query", "active alerts", why, trigger, action="alerts")
    )
    for name in look.focus:
        for label in ("service", "deployment", "pod"):
            sel = (
                f'{{{label}=~"{name}.*",namespace="{look.ns}"}}'
                if label == "pod"
                else f'{{{label}="{name}"}}'
            )
            why = f"the series recorded for {name} were listed by their {label} label"
            doc = rd.load_json(
                await rec.call(
                    "metrics_query",
                    "list",
                    f"series of {name} by {label}",
                    why,
                    trigger,
                    action="series",
                    query=sel,
                )
            )
            metrics = sorted(
                {str(s.get("__name__")) for s in (doc or {}).get("data", []) if isinstance(s, dict)}
            )
            for metric in [m for m in metrics if not m.startswith("kube_deployment")][:4]:
                await _range(rec, look, metric + sel, f"{metric} of {name}", trigger)


async def _range(rec: Record, look: Look, query: str, obj: str, trigger: str) -> None:
    why = f"the six-hour history of {obj} shows whether it moved and when"
    text = await rec.call(
        "metrics_query",
        "query",
        obj,
        why,
        trigger,
        action="query_range",
        query=query,
        start="-6h",
        step="30m",
    )
    doc = rd.load_json(text) or {}
    for r in (doc.get("data") or {}).get("result") or []:
        vals = r.get("values") or []
        try:
            ts = [float(v[0]) for v in vals]
            ys = [float(v[1]) for v in vals]
        except (TypeError, ValueError, IndexError):
            continue
        metric = dict(r.get("metric") or {})
        if ts:
            look.times.append(datetime.fromtimestamp(ts[-1], UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
        look.series.setdefault(str(metric.get("__name__", "")), []).append((metric, ys, ts))
