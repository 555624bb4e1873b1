"""heldout45's reads (session 37, written blind): looking at a workload the way it teaches it.

Each read is noted with why it comes when it does, and what it shows. The findings
(:class:`Facts`) are judged in :mod:`operator_heldout45_judge`. Also the look-only asks:
ownership, a dashboard, a trace, reachability, and the declined ones (deletes, secrets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout45 import Desk
from .operator_read import (
    bottleneck,
    describe_pods,
    items,
    log_lines,
    metric_names,
    prom_series,
    signal_patterns,
    table,
    trace_tree,
)


@dataclass
class Facts:
    """What the reads of one workload found."""

    name: str
    ns: str
    spec: dict[str, Any] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    described: list[Any] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    logs: list[tuple[str, str, int]] = field(default_factory=list)
    noise: tuple[int, int] = (0, 0)
    init_logs: list[tuple[str, str, int]] = field(default_factory=list)
    configs: dict[str, dict[str, str]] = field(default_factory=dict)
    missing: list[tuple[str, str]] = field(default_factory=list)
    sets: list[dict[str, str]] = field(default_factory=list)
    memory: list[float] = field(default_factory=list)
    node_cpu: dict[str, float] = field(default_factory=dict)
    spans: list[Any] = field(default_factory=list)
    migrations: str = ""
    series: dict[str, list[float]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)


def containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    tpl = (spec.get("spec") or {}).get("template") or {}
    return list(((tpl.get("spec") or {}).get("containers")) or [])


async def workload(desk: Desk, name: str) -> Facts:
    """The reads of one workload, in the order they are taught."""
    f = Facts(name, desk.ns)
    ns = desk.ns
    found = (
        items(
            await desk.read(
                "next, the deployment's own spec: what it runs, its limits, which config it reads",
                command=f"get deployment {name} -n {ns} -o yaml",
            )
        )
        if name in desk.deps or not desk.deps
        else []
    )
    f.spec = found[0] if found else {}
    f.labels = {
        **((f.spec.get("metadata") or {}).get("labels") or {}),
        **((f.spec.get("metadata") or {}).get("annotations") or {}),
    }
    pods = table(
        await desk.read(
            "then its pods: the READY, STATUS and RESTARTS columns tell you which kind of trouble this is",
            command=f"get pods -n {ns} -o wide",
        )
    )
    f.pods = [p for p in pods if p.get("name", "").startswith(f"{name}-") or p.get("name") == name]
    if f.pods:
        desk.shows(
            "; ".join(
                f"{p['name']} {p.get('ready', '')} {p.get('status', '')} restarts {p.get('restarts', '0')} on {p.get('node', '?')}"
                for p in f.pods[:4]
            )
            + "."
        )
    else:
        desk.shows(f"no pod named after {name}.")
    worst = _worst(f.pods)
    if worst:
        f.described = describe_pods(
            await desk.read(
                "describe the worst pod: Last State, Reason and Exit Code say how the container died, the Events say what the kubelet saw",
                command=f"describe pod {worst} -n {ns}",
            )
        )
        desk.shows(_describe_summary(f))
    ev = table(
        await desk.read(
            "the namespace's events, filtered in my head to this workload: order matters, so read them as a timeline",
            command=f"get events -n {ns} --sort-by=.lastTimestamp",
        )
    )
    f.events = [
        f"{e.get('reason', '')}: {e.get('message', '')}" for e in ev if name in e.get("object", "")
    ]
    desk.shows("; ".join(f.events[:3]) or f"nothing about {name}.")
    await _logs(desk, f)
    await _configs(desk, f)
    rs = table(
        await desk.read(
            "the replica sets: each rollout leaves one, so their AGE is the deploy history",
            command=f"get replicasets -n {ns} -o wide",
        )
    )
    f.sets = [r for r in rs if r.get("name", "").startswith(f"{name}-")]
    desk.shows(
        "; ".join(
            f"{r['name']} image {r.get('images', '?')} desired {r.get('desired', '?')} age {r.get('age', '?')}"
            for r in f.sets
        )
        + "."
    )
    await _metrics(desk, f)
    await _traces(desk, f)
    if desk.has("database"):
        f.migrations = await desk.read(
            "the migration history, because the request blames a migration and the database keeps its own record",
            tool="database",
            query="migrations status",
            database=name,
        )
        desk.shows(" ".join(f.migrations.split())[:300])
    return f


def _worst(pods: list[dict[str, str]]) -> str:
    def badness(p: dict[str, str]) -> tuple[int, int]:
        ready = p.get("ready", "1/1").split("/")
        down = 1 if ready[0] != ready[-1] else 0
        m = re.match(r"(\d+)", p.get("restarts", "0"))
        return (down, int(m.group(1)) if m else 0)

    return max(pods, key=badness)["name"] if pods else ""


def _describe_summary(f: Facts) -> str:
    bits = []
    for pod in f.described:
        for c in pod.containers:
            kind = "init container" if c.init else "container"
            state = c.reason or c.state
            last = (
                f", last terminated {c.last_reason} (exit {c.exit_code})" if c.last_reason else ""
            )
            lim = f", memory limit {c.limits.get('memory')}" if c.limits.get("memory") else ""
            bits.append(f"{kind} {c.name}: {state}{last}, restarts {c.restarts}{lim}")
        bits += [e for e in pod.events if "Warning" in e][:2]
    return "; ".join(bits) + "." if bits else ""


async def _logs(desk: Desk, f: Facts) -> None:
    if not desk.has("logs_query"):
        return
    text = await desk.read(
        "now the logs. Most lines are noise (health checks, debug); what matters is the WARN/ERROR lines and how often each repeats",
        tool="logs_query",
        namespace=f.ns,
        deployment=f.name,
        tail=200,
    )
    prev = ""
    if any(c.restarts or c.last_reason for p in f.described for c in p.containers):
        prev = await desk.read(
            "the previous container's logs: a crashed container's last words are in the previous run, not the current one",
            tool="logs_query",
            namespace=f.ns,
            deployment=f.name,
            previous=True,
            tail=100,
        )
    lines = log_lines(text + "\n" + prev)
    f.logs = signal_patterns(lines)
    f.noise = (len(lines) - sum(n for _, _, n in f.logs), len(lines))
    desk.shows(_log_summary(f.logs, f.noise))
    for pod in f.described:
        for c in pod.containers:
            if c.init and (
                c.last_reason or "Error" in (c.reason or "") or c.exit_code not in ("", "0")
            ):
                out = await desk.read(
                    f"the failed init container {c.name}'s logs: the main container never starts until it succeeds",
                    tool="logs_query",
                    namespace=f.ns,
                    pod=pod.name,
                    container=c.name,
                    tail=50,
                )
                f.init_logs = signal_patterns(log_lines(out))
                desk.shows(_log_summary(f.init_logs, (0, 0)))


def _log_summary(pats: list[tuple[str, str, int]], noise: tuple[int, int]) -> str:
    head = f"{noise[0]} of {noise[1]} lines are noise; " if noise[1] else ""
    return (
        head
        + ("; ".join(f'{n}x {lvl} "{msg[:140]}"' for lvl, msg, n in pats[:4]) or "no error lines")
        + "."
    )


async def _configs(desk: Desk, f: Facts) -> None:
    """The config maps the spec references (or that carry the workload's name), and any key
    the spec asks for that the map lacks."""
    wanted: dict[str, set[str]] = {}
    for c in containers(f.spec):
        for e in c.get("env") or []:
            ref = ((e.get("valueFrom") or {}).get("configMapKeyRef")) or {}
            if ref.get("name"):
                wanted.setdefault(ref["name"], set()).add(str(ref.get("key", "")))
        for e in c.get("envFrom") or []:
            ref = e.get("configMapRef") or {}
            if ref.get("name"):
                wanted.setdefault(ref["name"], set())
    for cm in await _cm_names(desk):
        if cm.startswith((f"{f.name}-", f.name.split("-")[0] + "-config")):
            wanted.setdefault(cm, set())
    for cm, keys in sorted(wanted.items()):
        found = items(
            await desk.read(
                f"the config map {cm}: a key the pod asks for and the map does not have is the classic crash-on-start",
                command=f"get configmap {cm} -n {f.ns} -o yaml",
            )
        )
        data = {str(k): str(v) for k, v in ((found[0].get("data") or {}) if found else {}).items()}
        f.configs[cm] = data
        lacking = sorted(k for k in keys if k and k not in data)
        f.missing += [(cm, k) for k in lacking]
        shown = ", ".join(f"{k}={v}" for k, v in list(data.items())[:6])
        desk.shows(
            f"{cm} has {shown or 'no keys'}"
            + (f"; it has no {', '.join(lacking)}" if lacking else "")
            + "."
        )


async def _cm_names(desk: Desk) -> list[str]:
    rows = table(await desk.tools.call("kubectl", command=f"get configmaps -n {desk.ns}"))
    return [r.get("name", "") for r in rows]


async def _metrics(desk: Desk, f: Facts) -> None:
    if not desk.has("metrics_query"):
        return
    names = set(
        metric_names(
            await desk.read(
                "what metrics exist here, so I query real names instead of guessing PromQL",
                tool="metrics_query",
                action="metric_names",
            )
        )
    )
    desk.shows(f"{len(names)} metric names.")
    q = f'sum by (pod) (container_memory_working_set_bytes{{namespace="{f.ns}", pod=~"{f.name}-.*"}})'
    series = prom_series(
        await desk.read(
            "six hours of its memory: a single number hides a trend, the slope is what tells you about tomorrow",
            tool="metrics_query",
            action="query_range",
            query=q,
            start="-6h",
            step="30m",
        )
    )
    if series:
        f.memory = max((v for _, v in series), key=lambda v: v[-1] if v else 0)
    if f.memory:
        desk.shows(
            f"memory went from {f.memory[0] / 2**20:.0f}Mi to {f.memory[-1] / 2**20:.0f}Mi over the window."
        )
    wanted = sorted(n for n in names if re.search(r"error_rate|latency|p99", n))[:4]
    for metric in wanted:
        why = (
            "its normal level, the baseline to compare with"
            if metric.startswith("normal")
            else f"{metric} over the last hour: when did it start, and what happened just before"
        )
        if metric not in names:
            continue
        found = prom_series(
            await desk.read(
                why,
                tool="metrics_query",
                action="query_range",
                query=metric,
                start="-1h",
                step="5m",
            )
        )
        mine = [
            v
            for labels, v in found
            if f.name in labels.values()
            or any(str(x).startswith(f"{f.name}-") for x in labels.values())
        ]
        if mine and mine[0]:
            f.series[metric] = mine[0]
            desk.shows(
                f"{metric} for {f.name}: {_fmt(mine[0][0])} -> {_fmt(max(mine[0]))} (now {_fmt(mine[0][-1])}), {len(mine[0])} points 5 minutes apart."
            )
        else:
            desk.shows(f"no {metric} series for {f.name}.")
    if re.search(r"\bcpu\b", desk.lesson.ask.lower()):
        metric = (
            "instance:node_cpu_utilisation:rate5m"
            if "instance:node_cpu_utilisation:rate5m" in names
            else '100 * (1 - avg by (node) (rate(node_cpu_seconds_total{mode="idle"}[5m])))'
        )
        cpu = prom_series(
            await desk.read(
                "the node CPU you mentioned, per node, so we know which node is hot and whether our pod is on it",
                tool="metrics_query",
                action="query",
                query=metric,
            )
        )
        for labels, vals in cpu:
            who = labels.get("node") or labels.get("instance") or ""
            if who and vals:
                f.node_cpu[who] = vals[-1] * (100 if vals[-1] <= 1 else 1)
        desk.shows(
            ", ".join(f"{n} {v:.0f}%" for n, v in sorted(f.node_cpu.items())) + "."
            if f.node_cpu
            else "no node CPU series."
        )


def _fmt(v: float) -> str:
    return f"{v:.1%}" if v < 1 else f"{v:g}"


async def _traces(desk: Desk, f: Facts) -> None:
    if not desk.has("traces_query"):
        return
    found = await desk.read(
        "slow traces for this service: a trace shows where the time goes, hop by hop",
        tool="traces_query",
        action="search",
        service=f.name,
        min_duration="1s",
        limit=5,
    )
    ids = re.findall(r"\b([0-9a-f]{6,32})\b", found)
    if not ids:
        desk.shows("no slow traces.")
        return
    tree = await desk.read(
        "the slowest one, as a tree: follow the widest child down to the span that holds the time",
        tool="traces_query",
        action="get",
        trace_id=ids[0],
        format="tree",
    )
    f.spans = trace_tree(tree)
    path, leaf = bottleneck(f.spans)
    if leaf:
        desk.shows(
            " -> ".join(f"{s.service} {s.operation} {s.ms:.0f}ms" for s in path)
            + (f" [{leaf.attrs}]" if leaf.attrs else "")
            + "."
        )


async def diagnose(desk: Desk, targets: list[str], deps: list[str]) -> None:
    from .operator_heldout45_judge import judge

    if not targets:
        targets = await _entry(desk, deps)
    if not targets:
        desk.lesson.unknown.append("I could not tie the request to a workload in this namespace.")
        return
    facts = await workload(desk, targets[0])
    await judge(desk, facts)


async def _entry(desk: Desk, deps: list[str]) -> list[str]:
    """No workload named: from the entry point (ingress -> service -> endpoints), or a bare pod."""
    low = desk.lesson.ask.lower()
    pods = table(
        await desk.read(
            "no deployment is named, so I list the pods and look for one the request names",
            command=f"get pods -n {desk.ns} -o wide",
        )
    )
    for p in pods:
        stem = re.sub(r"-[a-z0-9]{4,10}(-[a-z0-9]{5})?$", "", p.get("name", ""))
        if stem and stem in low:
            return [stem]
    ing = await desk.read(
        "the request names the public entry, so I start where the traffic comes in: the ingress and the service it sends to",
        command=f"get ingress -n {desk.ns} -o yaml",
    )
    backends = sorted(set(re.findall(r"name:\s*(\S+)\s*\n\s*port:", ing)))
    desk.shows(f"the ingress sends traffic to {', '.join(backends) or 'no service I could read'}.")
    for svc in backends:
        ep = await desk.read(
            f"the endpoints of {svc}: a service with no ready endpoints is a 503 at the edge",
            command=f"get endpoints {svc} -n {desk.ns}",
        )
        desk.shows(" ".join(ep.split())[:200])
        svc_y = items(
            await desk.read(
                f"the service {svc}'s selector, to find the pods behind it",
                command=f"get service {svc} -n {desk.ns} -o yaml",
            )
        )
        sel = ((svc_y[0].get("spec") or {}).get("selector") or {}) if svc_y else {}
        app = sel.get("app") or ""
        if app in deps:
            desk.lesson.evidence.append(
                f"the ingress routes to service {svc}, whose endpoints I read above, and it selects app={app}"
            )
            return [app]
    hit = [d for d in deps if any(w in d for w in re.findall(r"[a-z]{3,}", low))]
    return hit[:1]


async def follow_alerts(desk: Desk, deps: list[str]) -> None:
    """An alert that fired while working is a second trigger: look at what it names, and say
    which reads it caused."""
    for a in list(desk.alerts):
        labels = a.get("labels") or {}
        name = str(labels.get("alertname") or "alert")
        who = next((str(v) for v in labels.values() if str(v) in deps), "")
        if not who:
            continue
        desk.trigger = f"alert {name}"
        if "mem" in name.lower() and desk.has("metrics_query"):
            q = f'sum by (pod) (container_memory_working_set_bytes{{namespace="{desk.ns}", pod=~"{who}-.*"}})'
            series = prom_series(
                await desk.read(
                    f"the alert {name} names {who}, so I read its memory per pod against its limit",
                    tool="metrics_query",
                    action="query_range",
                    query=q,
                    start="-1h",
                    step="10m",
                )
            )
            peak = max((v[-1] for _, v in series if v), default=0.0)
            desk.shows(f"{len(series)} pods, highest now {peak / 2**20:.0f}Mi.")
        text = await desk.read(
            f"and {who}'s pods, because of the alert: is anything restarting or unready?",
            command=f"get pods -n {desk.ns} -l app={who}",
        )
        rows = table(text)
        ready = sum(
            1
            for r in rows
            if r.get("ready", "0/1").split("/")[0] == r.get("ready", "0/1").split("/")[-1]
        )
        desk.shows(
            f"{ready}/{len(rows)} ready, restarts {', '.join(r.get('restarts', '0') for r in rows)}."
        )
        desk.lesson.evidence.append(
            f"because alert {name} fired for {who} partway through, I checked it: {desk.lesson.reads[-1].shows}"
            + (f" Memory: {desk.lesson.reads[-2].shows}" if "mem" in name.lower() else "")
        )
        desk.lesson.told.append(
            f"the owner of {who}: alert {name} fired during the health check; what I saw is above"
        )
        desk.trigger = "your request"
