"""heldout41's diagnosis of one workload (session 34, written blind): its worst pod's
describe, its events, its logs (the crashed instance's, a failed init container's), the
config maps its environment reads, its own series beside their baselines, a trace of it, and
its rollout history. It commits to the cause the evidence shows and says what it ruled out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout41_look import Ctx, pods_of, restarts, worst
from .operator_heldout41_react import React

STANDARD = ("kube_", "container_", "instance:", "node_")


@dataclass
class Finding:
    workload: str
    pod: str = ""
    kind: str = ""
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    signals: list[str] = field(default_factory=list)
    config_map: str = ""
    missing_key: str = ""
    limit: str = ""
    view: rd.PodView | None = None
    series: dict[str, float] = field(default_factory=dict)
    baselines: dict[str, float] = field(default_factory=dict)
    rollout_age: str = ""


def signal_lines(text: str) -> list[str]:
    """The log lines that carry a signal, each once, noise (health checks, INFO) dropped."""
    out: list[str] = []
    for ln in rd.log_lines(text):
        body = f"{ln.level}: {ln.message}" if ln.level else ln.message
        plain = not ln.level and re.search(r"error|fail|refused|reset|timeout", ln.raw, re.I)
        if (ln.signal or plain) and body not in out:
            out.append(body)
    return out


async def diagnose(r: React, ctx: Ctx, workload: str, pod: str = "") -> Finding:
    f = Finding(workload)
    pods = pods_of(ctx, workload)
    target = pod or (worst(pods) or {}).get("name", "")
    f.pod = target
    if target:
        await _describe(r, ctx, f)
    await _events(r, ctx, f)
    await _logs(r, ctx, f, pods)
    await _config(r, ctx, f)
    await _series(r, ctx, f)
    await _trace(r, ctx, f)
    await _rollout(r, ctx, f)
    decide(f)
    return f


async def _describe(r: React, ctx: Ctx, f: Finding) -> None:
    text = await r.kubectl(
        f"{f.pod} is the pod of {f.workload} to look at first (not ready or restarting). Its "
        "describe shows container states, last termination, limits and environment.",
        f"describe pod {f.pod} -n {ctx.ns}",
    )
    views = rd.describe_pods(text)
    f.view = views[0] if views else None
    shown = [
        ln.strip()
        for ln in text.splitlines()
        if re.match(r"\s+(State|Reason|Last State|Exit Code|Restart Count|memory|cpu):", ln)
    ]
    r.show(shown)
    refs = re.findall(r"key '([^']+)' of config map '([^']+)'", text)
    f.evidence += [f"{f.pod} reads {k} from config map {c}" for k, c in refs[:0]]
    f.signals += [f"ref {k} {c}" for k, c in refs]
    for c in f.view.containers if f.view else []:
        if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
            f.limit = c.limits.get("memory", "")
        if c.init and c.reason and c.reason not in ("Completed",):
            f.signals.append(f"init {c.name} {c.reason}")
        elif c.init and c.state.startswith("Waiting"):
            f.signals.append(f"init {c.name} waiting")


async def _events(r: React, ctx: Ctx, f: Finding) -> None:
    text = await r.kubectl(
        f"Events say what the cluster did to {f.workload} (back-offs, kills, scheduling, rollouts).",
        f"get events -n {ctx.ns} --sort-by=.lastTimestamp",
    )
    mine = [ln.strip() for ln in text.splitlines() if f.workload in ln]
    r.show(mine or ["(no event names " + f.workload + ")"])
    for ln in mine:
        if "ScalingReplicaSet" in ln or "couldn't find key" in ln or "FailedScheduling" in ln:
            f.signals.append("event " + re.sub(r"\s{2,}", " ", ln))


async def _logs(r: React, ctx: Ctx, f: Finding, pods: list[dict[str, str]]) -> None:
    by = {"pod": f.pod} if f.pod and not pods else {"deployment": f.workload}
    text = await r.act(
        f"The application's own words: {f.workload}'s logs, noise to be filtered.",
        "logs_query",
        namespace=ctx.ns,
        tail=100,
        **by,
    )
    lines = signal_lines(text)
    r.show(lines or ["(only start-up and health-check lines)"])
    crashed = any(restarts(p) > 0 for p in pods) or (
        f.view and any(c.restarts > 0 for c in f.view.containers if not c.init)
    )
    if crashed:
        prev = await r.act(
            "It has restarted, so the instance that died has the last words: its previous logs.",
            "logs_query",
            namespace=ctx.ns,
            previous=True,
            tail=100,
            **by,
        )
        more = [ln for ln in signal_lines(prev) if ln not in lines]
        r.show(more or ["(nothing beyond the current logs)"])
        lines += more
    for sig in list(f.signals):
        m = re.match(r"init (\S+)", sig)
        if m and f.pod:
            init = await r.act(
                f"Init container {m.group(1)} has not completed, so {f.workload}'s main "
                "container never starts: its own log says why.",
                "logs_query",
                namespace=ctx.ns,
                pod=f.pod,
                container=m.group(1),
                tail=50,
            )
            got = signal_lines(init)
            r.show(got or ["(no error line)"])
            lines += [f"[{m.group(1)}] {g}" for g in got]
    f.evidence += [f"log: {ln}" for ln in lines[:4]]


async def _config(r: React, ctx: Ctx, f: Finding) -> None:
    refs = [s.split()[1:] for s in f.signals if s.startswith("ref ")]
    maps = sorted({c for _, c in refs})
    for cm in maps:
        doc = rd.load_yaml(
            await r.kubectl(
                f"{f.workload}'s environment reads keys from config map {cm}; which of them exist?",
                f"get configmap {cm} -n {ctx.ns} -o yaml",
            )
        )
        data = (doc or {}).get("data") or {} if isinstance(doc, dict) else {}
        r.show([f"data keys: {', '.join(sorted(data)) or '(none)'}"])
        wanted = [k for k, c in refs if c == cm]
        for key in wanted:
            if key not in data:
                f.config_map, f.missing_key = cm, key
                r.thought(f"{cm} has no key {key}, yet {f.workload} requires it.")
            else:
                f.ruled_out.append(f"{key} is present in {cm}")


async def _series(r: React, ctx: Ctx, f: Finding) -> None:
    if not r.has("metrics_query"):
        return
    names = rd.metric_names(
        await r.act(
            "Which series does the metrics backend hold beyond the standard ones?",
            "metrics_query",
            action="metric_names",
        )
    )
    own = [n for n in names if not n.startswith(STANDARD)]
    for name in [n for n in own if not n.startswith("normal_")]:
        text = await r.act(
            f"{name} for {f.workload}: how far is it from normal?",
            "metrics_query",
            action="query",
            query=f'{name}{{service="{f.workload}"}}',
        )
        vals = [v for _, vs in rd.prom_series(text) for v in vs]
        if not vals:
            continue
        f.series[name] = vals[-1]
        base = f"normal_{name}"
        if base in own:
            btext = await r.act(
                f"And its baseline {base}.",
                "metrics_query",
                action="query",
                query=f'{base}{{service="{f.workload}"}}',
            )
            bvals = [v for _, vs in rd.prom_series(btext) for v in vs]
            if bvals:
                f.baselines[name] = bvals[-1]
    await _memory(r, ctx, f)


async def _memory(r: React, ctx: Ctx, f: Finding) -> None:
    text = await r.act(
        f"Memory of {f.workload}'s containers over six hours: a point says little, a trend says more.",
        "metrics_query",
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{ctx.ns}",pod=~"{f.workload}.*"}}',
        start="-6h",
        step="30m",
    )
    for labels, vals in rd.prom_series(text):
        if vals and rd.trend(vals) == "rising":
            who = labels.get("pod") or labels.get("service") or f.workload
            f.signals.append(f"memory rising {who} {rd.mib(vals[0])} {rd.mib(vals[-1])}")
            r.thought(f"Memory of {who} rose from {rd.mib(vals[0])} to {rd.mib(vals[-1])}.")
            break


async def _trace(r: React, ctx: Ctx, f: Finding) -> None:
    if not r.has("traces_query"):
        return
    found = rd.load_json(
        await r.act(
            f"Traces of {f.workload}: where does a request spend its time?",
            "traces_query",
            action="search",
            service=f.workload,
        )
    )
    rows = [t for t in (found or {}).get("data", []) if t.get("rootService") == f.workload]
    if not rows:
        return
    tid = rows[0].get("traceID", "")
    tree = await r.act(
        f"Trace {tid} of {f.workload}, span by span.", "traces_query", action="get", trace_id=tid
    )
    path, slow = rd.bottleneck(rd.trace_tree(tree))
    if slow is not None and len(path) > 1:
        err = " (status error)" if slow.error else ""
        attrs = f" [{slow.attrs}]" if slow.attrs else ""
        f.signals.append(f"span {slow.service}: {slow.operation} {slow.ms:.0f}ms{err}{attrs}")
        r.thought(
            f"The time goes to {slow.service}: {slow.operation}, {slow.ms:.0f}ms of "
            f"{path[0].ms:.0f}ms{err}{attrs}."
        )


async def _rollout(r: React, ctx: Ctx, f: Finding) -> None:
    text = await r.kubectl(
        f"Did {f.workload} change recently? Its ReplicaSets carry each rollout's age and image.",
        f"get replicasets -n {ctx.ns} -l app={f.workload} -o wide",
    )
    rows = rd.table(text)
    ages = sorted((rd.age_minutes(x.get("age", "")) or 1e9, x) for x in rows)
    if ages and ages[0][0] < 120:
        newest = ages[0][1]
        f.rollout_age = newest.get("age", "")
        f.signals.append(f"rollout {newest.get('name')} {newest.get('images', '')} {f.rollout_age}")
        if len(ages) > 1:
            f.signals.append(f"previous {ages[1][1].get('name')} {ages[1][1].get('images', '')}")


def decide(f: Finding) -> None:
    """The cause the evidence shows, strongest evidence first; none when nothing stands."""
    logs = " ".join(f.evidence).lower()
    sig = " ".join(f.signals).lower()
    if f.missing_key:
        f.kind = "config"
        f.cause = (
            f"{f.workload} crashes at start-up because config map {f.config_map} has no key "
            f"{f.missing_key}, which its environment requires"
        )
    elif "oomkilled" in sig or (
        f.view and any(c.last_reason == "OOMKilled" for c in f.view.containers)
    ):
        f.kind = "oom"
        f.cause = f"{f.workload} is OOMKilled (exit code 137): it outgrows its {f.limit or 'memory'} limit"
    elif any(s.startswith("init ") for s in f.signals):
        init = next(s.split()[1] for s in f.signals if s.startswith("init "))
        f.kind = "init"
        f.cause = f"init container {init} of {f.workload} fails, so the main container never starts"
    elif "pool" in logs and ("exhaust" in logs or "cannot get a connection" in logs):
        f.kind = "pool"
        f.cause = f"{f.workload}'s database connection pool is exhausted"
    elif re.search(r"x509|certificate|tls handshake", logs):
        f.kind = "tls"
        f.cause = f"TLS handshakes from {f.workload} to its upstream fail on the certificate"
    elif (
        re.search(r"transient|connection refused", logs)
        and f.view
        and any(c.restarts > 0 for c in f.view.containers)
    ):
        f.kind = "transient"
        dep = re.search(r"(\w+) connection refused", " ".join(f.evidence), re.I)
        f.cause = (
            f"{f.workload} exits on a transient error at start "
            f"({dep.group(1) if dep else 'a dependency'} connection refused) and is stuck in back-off"
        )
    elif f.rollout_age and f.series:
        f.kind = "rollout"
        f.cause = f"the rollout of {f.workload} {f.rollout_age} ago"
    f.evidence = f.evidence[:6]


def json_input(args: dict[str, object]) -> str:
    return json.dumps(args, sort_keys=True)
