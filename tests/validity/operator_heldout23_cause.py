"""``heldout23``'s evidence gathering and conclusion for one or more workloads.

``gather`` reads what each workload shows (container states, events, logs, metrics, traces,
rollout history, the database's migrations, NetworkPolicies) into a ``Facts``; ``conclude``
names the cause the evidence supports, rules the others out in the hypotheses table, and hands
a fix to ``operator_heldout23_fix`` when the request asks for one.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout23 import Desk
from .operator_heldout23_look import Seen, describe, firing, logs, query
from .operator_heldout23_why import _state, signals
from .operator_read import PodView, items, load_json, mib, quantity


@dataclass
class Facts:
    """What one workload showed."""

    name: str
    pods: list[PodView] = field(default_factory=list)
    sig: dict[str, Any] = field(default_factory=dict)
    missing_key: tuple[str, str] | None = None
    init_fail: tuple[str, str] | None = None
    oom: bool = False
    limit: str = ""
    unschedulable: str = ""
    requests_cpu: str = ""
    revisions: list[str] = field(default_factory=list)
    images: tuple[str, str] = ("", "")
    trace: list[str] = field(default_factory=list)
    migrations: list[dict[str, str]] = field(default_factory=list)
    policies: list[dict[str, Any]] = field(default_factory=list)
    node_cpu: dict[str, float] = field(default_factory=dict)
    not_ready: int = 0
    alerts: list[str] = field(default_factory=list)


async def gather(desk: Desk, s: Seen, focus: list[str]) -> list[Facts]:
    out = []
    for name in focus:
        f = Facts(name)
        f.pods = await _state(desk, s, name)
        f.sig = await signals(desk, s, name)
        f.not_ready = sum(
            1
            for p in s.pods_of(name)
            if p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
        )
        await _containers(desk, s, f)
        await _events(desk, s, f)
        if name in s.deployments:
            await _history(desk, s, f)
        if desk.has("traces_query"):
            await _traces(desk, f)
        if desk.has("database") and _mentions(desk, f, r"migration|column|schema|relation"):
            await _migrations(desk, f)
        if re.search(r"\breach\b|network|connect", desk.low) and len(focus) > 1:
            await _policies(desk, s, f, focus)
        if re.search(r"\bcpu\b", desk.low):
            await _node_cpu(desk, f)
        await _alerts(desk, s, f)
        out.append(f)
    return out


async def _alerts(desk: Desk, s: Seen, f: Facts) -> None:
    """Alerts that fired on the workload while I looked: followed up, marked as their trigger."""
    if not desk.has("metrics_query"):
        return
    for alert in await firing(desk, f"check for alerts on `{f.name}`"):
        labels = alert.get("labels") or {}
        if f.name not in " ".join(str(v) for v in labels.values()):
            continue
        name = str(labels.get("alertname", "alert"))
        desk.see(
            f"alert `{name}`",
            f"{alert.get('state')}: {(alert.get('annotations') or {}).get('summary', '')}",
        )
        desk.trigger = f"alert: {name}"
        expr = f'container_memory_working_set_bytes{{namespace="{s.ns}", pod=~"{f.name}-.*"}}'
        for labels2, values in await query(
            desk, expr, f"the `{name}` alert fired: check memory of `{f.name}`"
        ):
            if values:
                desk.see(
                    f"memory of {labels2.get('pod', f.name)}",
                    f"{mib(values[-1])} now, {mib(values[0])} an hour ago",
                )
        await describe(desk, s.ns, f.name)
        desk.trigger = "operator request"
        f.alerts.append(name)


def _mentions(desk: Desk, f: Facts, pattern: str) -> bool:
    text = desk.low + " " + " ".join(m for _, m, _ in f.sig.get("signals", []))
    return re.search(pattern, text, re.I) is not None


async def _containers(desk: Desk, s: Seen, f: Facts) -> None:
    for pod in f.pods:
        for c in pod.containers:
            if c.init and (c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"):
                text = await logs(desk, s.ns, pod.name, container=c.name, pod=True)
                lines = [ln for ln in text.splitlines() if re.search(r"error|fail", ln, re.I)]
                msg = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", lines[-1]) if lines else ""
                f.init_fail = (c.name, msg)
                if msg:
                    desk.excerpt.append(msg)
                desk.see(
                    f"init container `{c.name}` of `{pod.name}`",
                    f"state {c.reason or c.state}, exit code {c.exit_code or '1'}; log: {msg or 'empty'}",
                )
            if c.init:
                continue
            if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                f.oom = True
                f.limit = c.limits.get("memory", "")
                desk.see(
                    f"`describe pod {pod.name}`",
                    f"container `{c.name}` last terminated: OOMKilled (exit code {c.exit_code or '137'}), "
                    f"restarts {c.restarts}, memory limit {f.limit or 'none'}",
                )
            f.requests_cpu = f.requests_cpu or c.requests.get("cpu", "")
            if c.limits.get("memory") and not f.limit:
                f.limit = c.limits["memory"]


async def _events(desk: Desk, s: Seen, f: Facts) -> None:
    for e in s.events_of(f.name):
        msg = e.get("message", "")
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)/(\S+)", msg)
        if m and not f.missing_key:
            f.missing_key = (m.group(1), m.group(3))
            text = await desk.kubectl(
                f"get configmap {m.group(3)} -n {m.group(2)} -o yaml",
                f"confirm which keys `{m.group(3)}` holds",
            )
            found = items(text)
            keys = sorted(((found[0].get("data") or {}) if found else {}).keys())
            desk.see(
                f"ConfigMap `{m.group(3)}`",
                f"keys present: {', '.join(f'`{k}`' for k in keys) or 'none'}; `{m.group(1)}` is missing",
            )
        if e.get("reason") == "FailedScheduling" and not f.unschedulable:
            f.unschedulable = msg


async def _history(desk: Desk, s: Seen, f: Facts) -> None:
    text = await desk.kubectl(
        f"rollout history deployment/{f.name} -n {s.ns}",
        f"check for a recent rollout of `{f.name}`",
    )
    f.revisions = revisions(text)
    if len(f.revisions) < 2:
        return
    cur, prev = f.revisions[-1], f.revisions[-2]
    images = []
    for rev in (prev, cur):
        out = await desk.kubectl(
            f"rollout history deployment/{f.name} -n {s.ns} --revision={rev}",
            f"read the image of revision {rev}",
        )
        m = re.search(r"Image:\s+(\S+)", out)
        images.append(m.group(1) if m else "")
    f.images = (images[0], images[1])
    age = next(
        (
            e.get("last seen", "")
            for e in s.events_of(f.name)
            if e.get("reason") == "ScalingReplicaSet"
        ),
        "",
    )
    pods = s.pods_of(f.name)
    age = age if not pods else pods[0].get("age", age)
    desk.see(
        f"`rollout history deployment/{f.name}`",
        f"revision {cur} rolled out `{images[1]}` (was `{images[0]}` in revision {prev}); current pods are {age} old",
    )


async def _traces(desk: Desk, f: Facts) -> None:
    text = await desk.use(
        "traces_query",
        f"traces_query search service={f.name}",
        f"find slow requests of `{f.name}`",
        action="search",
        service=f.name,
    )
    doc = load_json(text) or {}
    found = doc.get("data") or [] if isinstance(doc, dict) else []
    if not found:
        return
    slow = max(found, key=lambda t: float(str(t.get("duration", "0")).rstrip("ms") or 0))
    tid = str(slow.get("traceID"))
    tree = await desk.use(
        "traces_query",
        f"traces_query get {tid}",
        f"open the slowest trace of `{f.name}`",
        action="get",
        trace_id=tid,
    )
    f.trace = [ln for ln in tree.splitlines() if "ms" in ln and "span=" in ln]
    for ln in f.trace:
        desk.see(f"trace `{tid[:12]}`", ln.strip(" │├└─"))


async def _migrations(desk: Desk, f: Facts) -> None:
    text = await desk.use(
        "database",
        f"database `migrations status` ({f.name})",
        f"check the migration history of `{f.name}`",
        query="migrations status",
        database=f.name,
    )
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and cells[1] and cells[1][0].isdigit():
            rows.append({"version": cells[1], "what": cells[2], "on": cells[4], "state": cells[5]})
    f.migrations = rows
    for r in rows[-2:]:
        desk.see(
            "`migrations status`", f"{r['version']} `{r['what']}` applied {r['on']}: {r['state']}"
        )


async def _policies(desk: Desk, s: Seen, f: Facts, focus: list[str]) -> None:
    text = await desk.kubectl(
        f"get networkpolicies -n {s.ns} -o yaml", "check which NetworkPolicies select the target"
    )
    for pol in items(text):
        spec = pol.get("spec") or {}
        sel = ((spec.get("podSelector") or {}).get("matchLabels")) or {}
        if sel.get("app") == f.name:
            f.policies.append(pol)


async def _node_cpu(desk: Desk, f: Facts) -> None:
    if not desk.has("metrics_query"):
        return
    text = await desk.use(
        "metrics_query",
        "metrics_query instance:node_cpu_utilisation:rate5m",
        "check the node CPU the request mentions",
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    doc = load_json(text) or {}
    for r in (doc.get("data") or {}).get("result", []) if isinstance(doc, dict) else []:
        try:
            node = r["metric"].get("node") or r["metric"].get("instance", "")
            f.node_cpu[str(node)] = float(r["value"][1])
        except (KeyError, TypeError, ValueError, IndexError):
            continue
    for node, v in sorted(f.node_cpu.items()):
        desk.see("`instance:node_cpu_utilisation:rate5m`", f"{node}: {v * 100:.0f}% CPU")


def revisions(text: str) -> list[str]:
    """Revision numbers of ``rollout history`` output, oldest first."""
    return re.findall(r"^(\d+)\s", text, re.M)


def mem_trend(values: list[float]) -> tuple[float, float, bool]:
    """First value, last value, and whether it never went down."""
    if not values:
        return 0.0, 0.0, False
    rising = all(b >= a for a, b in itertools.pairwise(values)) and values[-1] > values[0]
    return values[0], values[-1], rising


def limit_bytes(text: str) -> float:
    return quantity(text) or 0.0


async def conclude(desk: Desk, s: Seen, focus: list[str], facts: list[Facts]) -> None:
    from .operator_heldout23_verdict import verdict

    await verdict(desk, s, focus, facts)
