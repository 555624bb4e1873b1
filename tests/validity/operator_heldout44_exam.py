"""heldout44's examination (session 36, written blind): the reads a clinician makes of a patient.

It follows the workload the request names (its spec, its pods, the worst pod's describe, its
events, its logs current and previous, the config maps it reads, its own series and alerts,
its traces, its replica sets), the namespace's labels, and the nodes when scheduling or the
node is in question. Each read is written into the chart with its command and what it showed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout44_chart import Chart, Exam, failed, pct


@dataclass
class Facts:
    """What the reads found about one workload (the patient)."""

    name: str
    kind: str = "deployment"
    spec: dict[str, Any] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    worst: rd.PodView | None = None
    events: list[str] = field(default_factory=list)
    signals: list[tuple[str, str, int]] = field(default_factory=list)
    previous: list[tuple[str, str, int]] = field(default_factory=list)
    init_logs: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    configmaps: dict[str, dict[str, str]] = field(default_factory=dict)
    missing: list[tuple[str, str]] = field(default_factory=list)
    replicasets: list[dict[str, str]] = field(default_factory=list)
    series: dict[str, list[float]] = field(default_factory=dict)
    alerts: list[str] = field(default_factory=list)
    spans: list[rd.Span] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)

    def pods_crashing(self) -> bool:
        """A pod restarting or waiting in a crash state."""
        for p in self.pods:
            if int((p.get("restarts") or "0").split()[0] or 0) or "Crash" in p.get("status", ""):
                return True
        return False

    def container(self) -> dict[str, Any]:
        tmpl = self.spec.get("spec", {}).get("template", {}).get("spec", {})
        cs = tmpl.get("containers") or [{}]
        return dict(cs[0])


def pod_of(name: str, pod: str) -> bool:
    """A pod a Deployment ``name`` owns: ``name-<rs hash>-<suffix>`` (not ``name-canary-...``)."""
    return re.fullmatch(re.escape(name) + r"-[a-z0-9]{5,10}-[a-z0-9]{4,5}", pod) is not None


def named_in(prompt: str, names: list[str]) -> list[str]:
    """The names the request spells (``web-app``) or says with spaces (``web app``)."""
    low = prompt.lower()
    hits = []
    for n in sorted(names, key=len, reverse=True):
        spaced = n.replace("-", " ")
        if (
            re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", low)
            or ("-" in n and re.search(rf"\b{re.escape(spaced)}\b", low))
        ) and not any(n in h for h in hits):
            hits.append(n)
    return hits


def _pod_row(p: dict[str, str]) -> str:
    return f"{p.get('name')} {p.get('status')} ready {p.get('ready')} restarts {p.get('restarts')}"


async def pods_and_spec(ex: Exam, f: Facts, ns: str) -> None:
    """The workload's spec and pods (a Deployment's, or the bare pod itself)."""
    if f.kind == "deployment":
        text = await ex.kl(f"get deployment {f.name} -n {ns} -o yaml", lambda t: _spec_said(f, t))
        f.spec = (rd.items(text) or [{}])[0]
        meta = f.spec.get("metadata", {})
        f.labels, f.annotations = meta.get("labels") or {}, meta.get("annotations") or {}
    table = await ex.k(f"get pods -n {ns}")
    rows = rd.table(table)
    f.pods = [r for r in rows if r.get("name") == f.name or pod_of(f.name, r.get("name", ""))]
    ex.finding(
        "kubectl",
        {"command": f"get pods -n {ns}"},
        "; ".join(_pod_row(p) for p in f.pods) or f"no pod of {f.name}",
    )


def _spec_said(f: Facts, text: str) -> str:
    doc = (rd.items(text) or [{}])[0]
    spec = doc.get("spec", {})
    c = (spec.get("template", {}).get("spec", {}).get("containers") or [{}])[0]
    res = c.get("resources", {})
    st = doc.get("status", {})
    bits = [
        f"replicas {spec.get('replicas')} ({st.get('readyReplicas', 0)} ready)",
        f"image {c.get('image')}",
    ]
    if res.get("requests"):
        bits.append("requests " + ", ".join(f"{k} {v}" for k, v in res["requests"].items()))
    if res.get("limits"):
        bits.append("limits " + ", ".join(f"{k} {v}" for k, v in res["limits"].items()))
    if spec.get("paused"):
        bits.append("rollout paused")
    return "; ".join(bits) if spec else (text.strip()[:120] if failed(text) else "")


def worst_pod(f: Facts) -> str:
    """The pod most worth describing: not ready, most restarts."""

    def badness(p: dict[str, str]) -> tuple[int, int]:
        ready = p.get("ready", "1/1").split("/")
        not_ready = int(ready[0] != ready[-1]) if len(ready) == 2 else 0
        restarts = int((p.get("restarts") or "0").split()[0] or 0)
        return (not_ready, restarts)

    return max(f.pods, key=badness).get("name", "") if f.pods else ""


async def describe_worst(ex: Exam, f: Facts, ns: str) -> None:
    name = worst_pod(f)
    if not name:
        return
    text = await ex.kl(f"describe pod {name} -n {ns}", lambda t: _describe_said(t))
    views = rd.describe_pods(text)
    f.worst = views[0] if views else None


def _describe_said(text: str) -> str:
    views = rd.describe_pods(text)
    if not views:
        return text.strip()[:120]
    v, bits = views[0], []
    for c in v.containers:
        kind = "init container" if c.init else "container"
        s = f"{kind} {c.name} {c.state or '?'}"
        if c.reason:
            s += f" ({c.reason})"
        if c.last_reason:
            s += f", last terminated {c.last_reason}"
            if c.exit_code:
                s += f" exit code {c.exit_code}"
        if c.restarts:
            s += f", {c.restarts} restarts"
        bits.append(s)
    ev = [e for e in v.events if "Warning" in e][:2]
    if ev:
        bits.append("events: " + " | ".join(re.sub(r"\s{2,}", " ", e) for e in ev))
    return f"node {v.node}; " + "; ".join(bits)


async def events_of(ex: Exam, f: Facts, ns: str) -> None:
    text = await ex.k(f"get events -n {ns}")
    rows = rd.table(text)
    mine = [
        r
        for r in rows
        if f.name in r.get("object", "") or any(p["name"] in r.get("object", "") for p in f.pods)
    ]
    f.events = [
        f"{r.get('last seen')} {r.get('reason')} {r.get('object')}: {r.get('message')}"
        for r in mine
    ]
    ex.finding(
        "kubectl",
        {"command": f"get events -n {ns}"},
        " | ".join(f.events[:4]) or f"no event names {f.name}",
    )


async def logs_of(ex: Exam, f: Facts, ns: str) -> None:
    """Current and previous logs, noise (health checks, DEBUG/TRACE/INFO) set apart."""
    if not ex.has("logs_query"):
        return
    where: dict[str, Any] = {"namespace": ns}
    where["pod" if f.kind == "pod" else "deployment"] = f.name
    text = await ex.read("logs_query", tail=200, **where)
    lines = rd.log_lines(text)
    f.signals = rd.signal_patterns(lines)
    noise = len([ln for ln in lines if ln.level in rd.NOISE_LEVELS])
    said = "; ".join(f'{n}x "{lvl}: {msg}"' for lvl, msg, n in f.signals[:3])
    ex.finding(
        "logs_query",
        {**where, "tail": 200},
        f"{len(lines)} lines, {noise} of them noise (health checks, DEBUG/TRACE/INFO); "
        + (f"signal: {said}" if said else "no error or warning line"),
    )
    restarted = any(int((p.get("restarts") or "0").split()[0] or 0) for p in f.pods)
    if restarted:
        prev = await ex.read("logs_query", previous=True, tail=100, **where)
        f.previous = rd.signal_patterns(rd.log_lines(prev))
        said = "; ".join(f'"{lvl}: {msg}"' for lvl, msg, _ in f.previous[:2])
        ex.finding(
            "logs_query",
            {**where, "previous": True, "tail": 100},
            f"the crashed instance's last lines: {said}" if said else "no line before the crash",
        )


async def init_logs(ex: Exam, f: Facts, ns: str) -> None:
    """A failed init container's own log (the main container never started)."""
    if not f.worst or not ex.has("logs_query"):
        return
    for c in f.worst.containers:
        if c.init and (c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"):
            text = await ex.read(
                "logs_query", namespace=ns, pod=f.worst.name, container=c.name, tail=50
            )
            f.init_logs[c.name] = rd.signal_patterns(rd.log_lines(text))
            said = "; ".join(f'"{lvl}: {m}"' for lvl, m, _ in f.init_logs[c.name][:2])
            ex.finding(
                "logs_query",
                {"namespace": ns, "pod": f.worst.name, "container": c.name, "tail": 50},
                f"init container {c.name}: {said or 'no error line'}",
            )


def config_refs(f: Facts) -> dict[str, set[str]]:
    """Config maps the pod template reads: {name: keys referenced} (an empty set: whole map)."""
    tmpl = f.spec.get("spec", {}).get("template", {}).get("spec", {})
    refs: dict[str, set[str]] = {}
    for c in (tmpl.get("containers") or []) + (tmpl.get("initContainers") or []):
        for e in c.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("configMapKeyRef") or {}
            if ref.get("name"):
                refs.setdefault(ref["name"], set()).add(str(ref.get("key")))
        for e in c.get("envFrom") or []:
            if (e.get("configMapRef") or {}).get("name"):
                refs.setdefault(e["configMapRef"]["name"], set())
    for v in tmpl.get("volumes") or []:
        if (v.get("configMap") or {}).get("name"):
            refs.setdefault(v["configMap"]["name"], set())
    return refs


async def configmaps_of(ex: Exam, f: Facts, ns: str) -> None:
    for name, keys in sorted(config_refs(f).items()):
        text = await ex.read("kubectl", command=f"get configmap {name} -n {ns} -o yaml")
        doc = (rd.items(text) or [{}])[0]
        data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
        f.configmaps[name] = data
        gone = sorted(k for k in keys if k not in data)
        f.missing += [(name, k) for k in gone]
        said = f"keys {', '.join(sorted(data)) or 'none'}"
        if gone:
            said += f"; the pod reads {', '.join(gone)}, which is NOT there"
        ex.finding("kubectl", {"command": f"get configmap {name} -n {ns} -o yaml"}, said)


async def history_of(ex: Exam, chart: Chart, f: Facts, ns: str) -> None:
    """Replica sets by age: when the running version went out, and what it replaced."""
    text = await ex.k(f"get replicasets -n {ns} -o wide")
    rows = [r for r in rd.table(text) if re.fullmatch(re.escape(f.name) + r"-[a-z0-9]+", r["name"])]
    rows.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 0.0)
    f.replicasets = rows
    said = "; ".join(
        f"{r['name']} ({r.get('images', '?')}) age {r.get('age')}, {r.get('desired')} desired"
        for r in rows
    )
    ex.finding("kubectl", {"command": f"get replicasets -n {ns} -o wide"}, said or "none")
    if rows:
        new = rows[0]
        chart.history.append(
            f"{f.name} running {new.get('images', '?')} since its last rollout {new.get('age')} ago"
            + (
                f" (replaced {rows[1].get('images', '?')}, out {rows[1].get('age')} ago)"
                if len(rows) > 1
                else " (no older replica set: no recent change)"
            )
        )


async def alerts_and_series(ex: Exam, f: Facts, ns: str) -> None:
    """Firing alerts, and the workload's own series (those labelled with its name)."""
    if not ex.has("metrics_query"):
        return
    text = await ex.read("metrics_query", action="alerts")
    f.alerts = [
        f"{a.get('labels', {}).get('alertname')} ({a.get('state')}) "
        f"{a.get('annotations', {}).get('summary') or a.get('annotations', {}).get('description') or ''}".strip()
        for a in rd.alerts(text)
        if f.name in str(a)
    ]
    ex.finding(
        "metrics_query", {"action": "alerts"}, "; ".join(f.alerts) or f"no alert for {f.name}"
    )
    if f.alerts:
        ex.chart.trigger = "trigger: alert " + f.alerts[0].split(" (")[0]
        await ex.kl(
            f"top pods -n {ns}",
            lambda t: (
                "; ".join(
                    f"{r.get('name')} {r.get('memory(bytes)')}"
                    for r in rd.table(t)
                    if pod_of(f.name, r.get("name", ""))
                )
                or f"no usage row for {f.name}"
            ),
        )
    names = rd.metric_names(await ex.read("metrics_query", action="metric_names"))
    own = [n for n in names if not n.startswith(("kube_", "instance:"))]
    for n in own:
        label = "pod" if n.startswith("container_") and f.kind == "pod" else "service"
        q = f'{n}{{namespace="{ns}",{label}="{f.name}"}}'
        got = rd.prom_series(
            await ex.read("metrics_query", action="query_range", query=q, start="-6h", step="30m")
        )
        if not got and label == "service":
            q = f'{n}{{namespace="{ns}",pod=~"{f.name}-.*"}}'
            got = rd.prom_series(
                await ex.read(
                    "metrics_query", action="query_range", query=q, start="-6h", step="30m"
                )
            )
        if got and got[0][1]:
            f.series[n] = got[0][1]
            ex.finding(
                "metrics_query",
                {"action": "query_range", "query": q, "start": "-6h"},
                f"{n}: {series_said(n, got[0][1])}",
            )


def figure(name: str, v: float) -> str:
    if "bytes" in name:
        return rd.mib(v)
    if "rate" in name and v <= 1:
        return pct(v)
    if name.endswith("_ms") or "latency" in name:
        return f"{v:.0f}ms"
    return f"{v:g}"


def series_said(name: str, vals: list[float]) -> str:
    t = rd.trend(vals)
    if t == "flat" and vals[0] > 0 and vals[-1] > vals[0] * 2:
        t = "rising"
    if t == "flat" and vals[0] > 0 and vals[-1] < vals[0] / 2:
        t = "falling"
    return f"{figure(name, vals[0])} six hours ago -> {figure(name, vals[-1])} now ({t})"


async def traces_of(ex: Exam, f: Facts) -> None:
    if not ex.has("traces_query"):
        return
    text = await ex.read("traces_query", action="search", service=f.name, limit=5)
    ids = re.findall(r"\b([0-9a-f]{6,32})\b", text)
    ex.finding(
        "traces_query",
        {"action": "search", "service": f.name},
        f"{len(set(ids))} trace(s) of {f.name}" if ids else f"no trace of {f.name}",
    )
    if ids:
        await trace_tree(ex, f, ids[0])


async def trace_tree(ex: Exam, f: Facts, trace_id: str) -> None:
    text = await ex.read("traces_query", action="get", trace_id=trace_id, format="tree")
    f.spans = rd.trace_tree(text)
    path, slow = rd.bottleneck(f.spans)
    if slow:
        hops = " -> ".join(f"{s.service} {s.operation} {s.ms:.0f}ms" for s in path)
        extra = f" [{slow.attrs}]" if slow.attrs else ""
        ex.finding(
            "traces_query",
            {"action": "get", "trace_id": trace_id},
            f"{hops}{extra}; the slowest leaf is {slow.service} '{slow.operation}'",
        )


async def namespace_of(ex: Exam, chart: Chart, ns: str) -> tuple[dict[str, str], dict[str, str]]:
    text = await ex.read("kubectl", command=f"get namespace {ns} -o yaml")
    meta = (rd.items(text) or [{}])[0].get("metadata", {})
    labels, notes = dict(meta.get("labels") or {}), dict(meta.get("annotations") or {})
    shown = {k: v for k, v in labels.items() if not k.startswith("kubernetes.io/")}
    said = ", ".join(f"{k}={v}" for k, v in {**shown, **notes}.items())
    ex.finding("kubectl", {"command": f"get namespace {ns} -o yaml"}, said or "no labels")
    return labels, notes


async def examine(ex: Exam, chart: Chart, f: Facts, ns: str, deep: bool = True) -> None:
    """The whole examination of one workload."""
    await pods_and_spec(ex, f, ns)
    await describe_worst(ex, f, ns)
    await events_of(ex, f, ns)
    await logs_of(ex, f, ns)
    await init_logs(ex, f, ns)
    if not deep:
        return
    await configmaps_of(ex, f, ns)
    if f.kind == "deployment":
        await history_of(ex, chart, f, ns)
    await alerts_and_series(ex, f, ns)
    await traces_of(ex, f)
