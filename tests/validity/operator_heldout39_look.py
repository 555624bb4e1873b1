"""heldout39's reads: the namespace, the workload the request is about, its pods, events,
logs, config, series and traces. Nothing here knows a scenario: names come from the
request and from what the cluster lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout39_sheet import Sheet


@dataclass
class Work:
    """What was read about one workload."""

    ns: str
    name: str
    kind: str = "deployment"
    spec: dict[str, Any] = field(default_factory=dict)
    selector: str = ""
    pods: list[rd.PodView] = field(default_factory=list)
    pod_rows: list[dict[str, str]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    logs: list[rd.LogLine] = field(default_factory=list)
    prev_logs: list[rd.LogLine] = field(default_factory=list)
    init_logs: dict[str, list[rd.LogLine]] = field(default_factory=dict)
    configmaps: dict[str, dict[str, str]] = field(default_factory=dict)
    key_refs: list[tuple[str, str, str]] = field(default_factory=list)
    series: dict[str, list[float]] = field(default_factory=dict)
    memory: list[float] = field(default_factory=list)
    rs_rows: list[dict[str, str]] = field(default_factory=list)
    spans: list[rd.Span] = field(default_factory=list)
    trace_id: str = ""

    @property
    def containers(self) -> list[dict[str, Any]]:
        tpl = self.spec.get("spec", {}).get("template", {}).get("spec", {})
        return list(tpl.get("containers") or [])

    @property
    def replicas(self) -> int:
        return int(self.spec.get("spec", {}).get("replicas") or 0)

    @property
    def ready(self) -> int:
        return int(self.spec.get("status", {}).get("readyReplicas") or 0)


async def namespace(sheet: Sheet, ns: str) -> dict[str, Any]:
    """The namespace object (labels and annotations say environment and owners)."""
    out = await sheet.read(
        f"see what the {ns} namespace is (env label, owners)",
        command=f"get namespace {ns} -o yaml",
    )
    doc = rd.load_yaml(out)
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    labels = meta.get("labels") or {}
    shown = ", ".join(f"{k}={v}" for k, v in labels.items() if "kubernetes.io" not in k)
    sheet.saw(f"labels {shown or 'none'}")
    return dict(meta)


async def deployments(sheet: Sheet, ns: str) -> list[dict[str, str]]:
    out = await sheet.read(f"list the workloads in {ns}", command=f"get deployments -n {ns}")
    rows = rd.table(out)
    sheet.saw(", ".join(f"{r.get('name')} {r.get('ready')}" for r in rows) or "none")
    return rows


def named(prompt: str, names: list[str]) -> list[str]:
    """The names the request spells, longest first ("API gateway" is api-gateway)."""
    text = prompt.lower()
    flat = re.sub(r"[^a-z0-9]+", " ", text)
    hits = []
    for n in sorted(names, key=len, reverse=True):
        low = n.lower()
        spelled = re.search(rf"(?<![\w-]){re.escape(low)}(?![\w-])", text)
        spaced = f" {low.replace('-', ' ')} " in f" {flat} "
        if (spelled or spaced) and not any(low in h for h in hits):
            hits.append(low)
    return hits


async def workload(sheet: Sheet, ns: str, name: str) -> Work:
    """The deployment's spec, its pods (describe) and the namespace events about them."""
    w = Work(ns, name)
    out = await sheet.read(
        f"read {name}'s spec (image, config refs, resources)",
        command=f"get deployment {name} -n {ns} -o yaml",
    )
    doc = rd.load_yaml(out)
    w.spec = doc if isinstance(doc, dict) else {}
    labels = w.spec.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    w.selector = ",".join(f"{k}={v}" for k, v in labels.items())
    sheet.saw(f"{w.replicas} replicas wanted, {w.ready} ready, image {image(w)}")
    out = await sheet.read(
        f"see the state of {name}'s pods", command=f"get pods -n {ns} -l {w.selector} -o wide"
    )
    w.pod_rows = rd.table(out)
    sheet.saw(pod_summary(w.pod_rows))
    out = await sheet.read(
        f"read container states, restarts and events of {name}'s pods",
        command=f"describe pods -n {ns} -l {w.selector}",
    )
    w.pods = rd.describe_pods(out)
    sheet.saw(describe_summary(w.pods))
    return w


def image(w: Work) -> str:
    return ", ".join(str(c.get("image")) for c in w.containers) or "?"


def pod_summary(rows: list[dict[str, str]]) -> str:
    if not rows:
        return "no pods"
    ready = sum(
        1 for r in rows if r.get("ready", "").split("/")[0] == r.get("ready", "/").split("/")[-1]
    )
    states: dict[str, int] = {}
    for r in rows:
        states[r.get("status", "?")] = states.get(r.get("status", "?"), 0) + 1
    parts = ", ".join(f"{n} {s}" for s, n in states.items())
    return f"{ready} of {len(rows)} ready ({parts})"


def describe_summary(pods: list[rd.PodView]) -> str:
    bits = []
    for p in pods:
        for c in p.containers:
            s = f"{p.name}/{c.name}{' (init)' if c.init else ''}: {c.state or '?'}"
            if c.reason:
                s += f" {c.reason}"
            if c.last_reason:
                s += f", last {c.last_reason}"
                if c.exit_code:
                    s += f" exit {c.exit_code}"
            if c.restarts:
                s += f", {c.restarts} restarts"
            bits.append(s)
    return "; ".join(bits[:6]) or "no pods"


async def events(sheet: Sheet, ns: str, about: str = "") -> list[str]:
    out = await sheet.read(f"read recent events in {ns}", command=f"get events -n {ns}")
    rows = [ln for ln in out.splitlines()[1:] if ln.strip()]
    mine = [r for r in rows if not about or about in r]
    sheet.saw(f"{len(rows)} events, {len(mine)} about {about}" if about else f"{len(rows)} events")
    return mine


async def logs(sheet: Sheet, w: Work, previous: bool = False) -> list[rd.LogLine]:
    args: dict[str, Any] = {"namespace": w.ns, "deployment": w.name, "tail": 200}
    if previous:
        args["previous"] = True
    what = "crashed containers' last logs" if previous else "current logs"
    if sheet.has("logs_query"):
        out = await sheet.read(f"read {w.name}'s {what}", tool="logs_query", **args)
    else:
        pod = next((r["name"] for r in w.pod_rows if r.get("status") != "Pending"), "")
        if not pod:
            return []
        flag = " --previous" if previous else ""
        out = await sheet.read(
            f"read {w.name}'s {what}", command=f"logs {pod} -n {w.ns} --tail=200{flag}"
        )
    lines = rd.log_lines(out)
    sig = rd.signal_patterns(lines)
    sheet.saw(
        f"{len(lines)} lines, {sum(n for _, _, n in sig)} error/warn"
        + (f', top: "{sig[0][0]}: {sig[0][1][:90]}" x{sig[0][2]}' if sig else "")
    )
    return lines


async def init_logs(sheet: Sheet, w: Work) -> None:
    """Logs of an init container that failed (the main container never started)."""
    for p in w.pods:
        for c in p.containers:
            bad = c.init and (c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error")
            if bad and c.name not in w.init_logs:
                out = await sheet.read(
                    f"init container {c.name} is failing; read its log",
                    command=f"logs {p.name} -c {c.name} -n {w.ns}",
                )
                w.init_logs[c.name] = rd.log_lines(out)
                sig = rd.signal_patterns(w.init_logs[c.name])
                sheet.saw(f'"{sig[0][0]}: {sig[0][1]}"' if sig else "no error line")


async def config_refs(sheet: Sheet, w: Work) -> None:
    """The ConfigMaps the pod template references (env keys and volumes)."""
    names: list[str] = []
    for c in w.containers:
        for e in c.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("configMapKeyRef")
            if ref:
                w.key_refs.append((e.get("name", ""), ref.get("name", ""), ref.get("key", "")))
                names.append(ref.get("name", ""))
        for ef in c.get("envFrom") or []:
            if ef.get("configMapRef"):
                names.append(ef["configMapRef"].get("name", ""))
    tpl = w.spec.get("spec", {}).get("template", {}).get("spec", {})
    for v in tpl.get("volumes") or []:
        if v.get("configMap"):
            names.append(v["configMap"].get("name", ""))
    for n in dict.fromkeys(x for x in names if x):
        await configmap(sheet, w, n)


async def configmap(sheet: Sheet, w: Work, name: str) -> dict[str, str]:
    out = await sheet.read(
        f"read ConfigMap {name}", command=f"get configmap {name} -n {w.ns} -o yaml"
    )
    doc = rd.load_yaml(out)
    data = (doc.get("data") or {}) if isinstance(doc, dict) else {}
    w.configmaps[name] = {str(k): str(v) for k, v in data.items()}
    if sheet.failed():
        sheet.saw("not found")
    else:
        sheet.saw(", ".join(f"{k}={v}" for k, v in w.configmaps[name].items()) or "no data")
    return w.configmaps[name]


async def metric_names(sheet: Sheet) -> list[str]:
    if not sheet.has("metrics_query"):
        return []
    out = await sheet.read("see which series exist", tool="metrics_query", action="metric_names")
    names = rd.metric_names(out)
    sheet.saw(f"{len(names)} metric names")
    return names


async def app_series(sheet: Sheet, w: Work, names: list[str]) -> None:
    """The workload's own series (error rate, latency...) and their normal_ baselines."""
    own = [n for n in names if not n.startswith(("kube_", "instance:", "container_"))]
    for n in own:
        out = await sheet.read(
            f"read {n} for {w.name}" + (" (its baseline)" if n.startswith("normal_") else ""),
            tool="metrics_query",
            action="query_range",
            query=f'{n}{{service=~"{w.name}.*"}}',
            start="-1h",
            step="5m",
        )
        vals = [v for _, vs in rd.prom_series(out) for v in vs]
        if vals:
            w.series[n] = vals
            sheet.saw(f"from {fmt(vals[0])} to {fmt(vals[-1])} (max {fmt(max(vals))})")
        else:
            sheet.saw("no series for it")


async def memory(sheet: Sheet, w: Work, why: str = "") -> list[float]:
    q = f'container_memory_working_set_bytes{{service="{w.name}"}}'
    out = await sheet.read(
        why or f"read {w.name}'s memory over 6h",
        tool="metrics_query",
        action="query_range",
        query=q,
        start="-6h",
        step="30m",
    )
    series = rd.prom_series(out)
    if not series:
        sheet.saw("no series by service label")
        out = await sheet.read(
            f"no series by service label; read {w.name}'s pods' memory",
            tool="metrics_query",
            action="query_range",
            query=f'container_memory_working_set_bytes{{namespace="{w.ns}",pod=~"{w.name}-.*"}}',
            start="-6h",
            step="30m",
        )
        series = rd.prom_series(out)
    if series:
        w.memory = max((vs for _, vs in series), key=lambda vs: vs[-1] if vs else 0)
        if w.memory:
            sheet.saw(f"{rd.mib(w.memory[0])} -> {rd.mib(w.memory[-1])}, {rd.trend(w.memory)}")
    else:
        sheet.saw("no memory series")
    return w.memory


async def alerts(sheet: Sheet) -> list[dict[str, Any]]:
    if not sheet.has("metrics_query"):
        return []
    out = await sheet.read("check active alerts", tool="metrics_query", action="alerts")
    found = rd.alerts(out)
    sheet.saw(
        ", ".join(
            f"{a.get('labels', {}).get('alertname')} {a.get('state')} on "
            f"{a.get('labels', {}).get('service') or a.get('labels', {}).get('pod') or '?'}"
            for a in found
        )
        or "none firing"
    )
    return found


async def traces(sheet: Sheet, w: Work) -> None:
    if not sheet.has("traces_query"):
        return
    out = await sheet.read(
        f"find slow traces through {w.name}",
        tool="traces_query",
        action="search",
        service=w.name,
    )
    doc = rd.load_json(out) or {}
    found = [t for t in (doc.get("data") or []) if isinstance(t, dict)]
    sheet.saw(f"{len(found)} traces")
    if not found:
        return
    slow = max(found, key=lambda t: float(re.sub(r"[^0-9.]", "", str(t.get("duration"))) or 0))
    await trace(sheet, w, str(slow.get("traceID")))


async def trace(sheet: Sheet, w: Work, tid: str) -> None:
    out = await sheet.read(
        f"open trace {tid} to see where the time goes",
        tool="traces_query",
        action="get",
        trace_id=tid,
    )
    w.spans = rd.trace_tree(out)
    w.trace_id = tid
    _path, leaf = rd.bottleneck(w.spans)
    if leaf:
        sheet.saw(
            f"{len(w.spans)} spans; slowest path ends at {leaf.service}: {leaf.operation[:70]} "
            f"{leaf.ms:.0f}ms"
        )


async def replicasets(sheet: Sheet, w: Work) -> list[dict[str, str]]:
    out = await sheet.read(
        f"check {w.name}'s rollout history (replica sets, ages, images)",
        command=f"get replicasets -n {w.ns} -l {w.selector} -o wide",
    )
    w.rs_rows = rd.table(out)
    sheet.saw(
        "; ".join(
            f"{r.get('name')} {r.get('desired')} desired, age {r.get('age')}, {r.get('images')}"
            for r in w.rs_rows
        )
    )
    return w.rs_rows


def fmt(v: float) -> str:
    if 0 < abs(v) < 1:
        return f"{v * 100:.1f}%"
    return f"{v:g}"
