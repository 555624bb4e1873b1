"""heldout43's reads: the workload the request names, its pods, describe, logs, config,
metrics beside their baselines, rollout history; each read kept as a ref."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import operator_read as rd

if TYPE_CHECKING:
    from .operator_heldout43 import Op


@dataclass
class Look:
    """What the reads of one workload showed (ref numbers beside each fact)."""

    name: str
    ns: str
    kind: str = "deployment"
    pods: list[dict[str, str]] = field(default_factory=list)
    pod_views: list[rd.PodView] = field(default_factory=list)
    describe: str = ""
    ref_pods: int = 0
    ref_desc: int = 0
    ref_deploy: int = 0
    deploy_text: str = ""
    replicas: int | None = None
    image: str = ""
    logs: list[tuple[str, str, int]] = field(default_factory=list)
    ref_logs: int = 0
    prev_logs: list[tuple[str, str, int]] = field(default_factory=list)
    ref_prev: int = 0
    init_fail: tuple[str, str] | None = None
    ref_init: int = 0
    missing_keys: list[tuple[str, str]] = field(default_factory=list)
    ref_cm: int = 0
    events: list[str] = field(default_factory=list)
    metrics: dict[str, tuple[float, int]] = field(default_factory=dict)
    series: dict[str, tuple[list[float], int]] = field(default_factory=dict)
    recent_rs: tuple[str, str, str] | None = None
    ref_rs: int = 0
    limits: dict[str, str] = field(default_factory=dict)
    requests: dict[str, str] = field(default_factory=dict)
    oom: bool = False
    exit_code: str = ""


async def names_of(op: Op, kind: str, ns: str) -> tuple[list[str], int]:
    out = await op.k(f"get {kind} -n {ns}", f"list {kind} in ns {ns}")
    return [r.get("name", "") for r in rd.table(out) if r.get("name")], op.n


async def pods_of(op: Op, look: Look) -> None:
    out = await op.k(f"get pods -n {look.ns} -l app={look.name} -o wide", f"pods of {look.name}")
    look.pods = rd.table(out)
    look.ref_pods = op.n
    if not look.pods:
        out = await op.k(f"get pods -n {look.ns}", f"pods of {look.name} (no app label match)")
        look.pods = [p for p in rd.table(out) if p.get("name", "").startswith(look.name)]
        look.ref_pods = op.n


def worst(look: Look) -> dict[str, str] | None:
    def badness(p: dict[str, str]) -> tuple[int, int]:
        ok = (
            p.get("status") == "Running"
            and p.get("ready", "0/1").split("/")[0] == p.get("ready", "0/1").split("/")[-1]
        )
        restarts = int((p.get("restarts") or "0").split()[0] or 0)
        return (0 if ok else 1, restarts)

    return max(look.pods, key=badness) if look.pods else None


async def deployment(op: Op, look: Look) -> None:
    out = await op.k(f"describe deployment {look.name} -n {look.ns}", f"spec of {look.name}")
    look.deploy_text = out
    look.ref_deploy = op.n
    m = re.search(r"Replicas:\s+(\d+) desired", out)
    look.replicas = int(m.group(1)) if m else None
    body = out.split("\n  Containers:", 1)[-1]
    m = re.search(r"Image:\s+(\S+)", body)
    look.image = m.group(1) if m else ""


async def describe(op: Op, look: Look) -> None:
    pod = worst(look)
    if not pod:
        return
    out = await op.k(f"describe pod {pod['name']} -n {look.ns}", f"state/events of {pod['name']}")
    look.describe = out
    look.ref_desc = op.n
    look.pod_views = rd.describe_pods(out)
    for view in look.pod_views:
        look.events += view.events
        for c in view.containers:
            if not c.init:
                look.limits = look.limits or c.limits
                look.requests = look.requests or c.requests
                if "OOMKilled" in (c.reason, c.last_reason):
                    look.oom = True
                look.exit_code = look.exit_code or c.exit_code
    if "Exit Code:    137" in out or re.search(r"Exit Code:\s+137", out):
        look.oom = True


async def init_logs(op: Op, look: Look) -> None:
    for view in look.pod_views:
        for c in view.containers:
            if c.init and (c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error"):
                out = await op.t(
                    "logs_query",
                    f"log of failed init container {c.name}",
                    namespace=look.ns,
                    pod=view.name,
                    container=c.name,
                    tail=50,
                )
                sig = rd.signal_patterns(rd.log_lines(out))
                line = f"{sig[0][0]}: {sig[0][1]}" if sig else ""
                look.init_fail = (c.name, line)
                look.ref_init = op.n
                return


async def logs(op: Op, look: Look) -> None:
    if not op.has("logs_query"):
        return
    kw = {"namespace": look.ns, "deployment": look.name, "tail": 200}
    if look.kind == "pod":
        kw = {"namespace": look.ns, "pod": look.name, "tail": 200}
    out = await op.t("logs_query", f"app log of {look.name}", **kw)
    look.logs = rd.signal_patterns(rd.log_lines(out))
    look.ref_logs = op.n
    restarted = any(int((p.get("restarts") or "0").split()[0] or 0) > 0 for p in look.pods)
    if restarted:
        out = await op.t(
            "logs_query", f"log of crashed instance (prev) of {look.name}", previous=True, **kw
        )
        look.prev_logs = rd.signal_patterns(rd.log_lines(out))
        look.ref_prev = op.n


async def config_keys(op: Op, look: Look) -> None:
    """Each configMapKeyRef the pod reads, checked against the ConfigMap's data."""
    refs = re.findall(r"<set to the key '([^']+)' of config map '([^']+)'>", look.describe)
    maps = sorted({cm for _, cm in refs})
    for cm in maps:
        out = await op.k(
            f"get configmap {cm} -n {look.ns} -o yaml", f"keys of cm {cm} the pod reads"
        )
        look.ref_cm = op.n
        doc = rd.items(out)
        data = (doc[0].get("data") or {}) if doc else {}
        for key, name in refs:
            if name == cm and key not in data:
                look.missing_keys.append((cm, key))


def _vector(text: str) -> list[tuple[dict[str, str], list[float]]]:
    return rd.prom_series(text)


async def metrics(op: Op, look: Look, names: list[str]) -> None:
    """The workload's own series of each app metric, and its `normal_` baseline."""
    for name in names:
        if name.startswith(("kube_", "instance:", "node_", "normal_", "container_")):
            continue
        out = await op.t(
            "metrics_query", f"{name} of {look.name}", query=f'{name}{{namespace="{look.ns}"}}'
        )
        for labels, vals in _vector(out):
            if look.name in labels.values() and vals:
                look.metrics[name] = (vals[-1], op.n)
        if name in look.metrics and f"normal_{name}" in names:
            out = await op.t(
                "metrics_query",
                f"baseline of {name}",
                query=f'normal_{name}{{namespace="{look.ns}"}}',
            )
            for labels, vals in _vector(out):
                if look.name in labels.values() and vals:
                    look.metrics[f"normal_{name}"] = (vals[-1], op.n)


async def memory(op: Op, look: Look) -> None:
    q = f'sum(container_memory_working_set_bytes{{namespace="{look.ns}",pod=~"{look.name}.*"}})'
    out = await op.t(
        "metrics_query",
        f"mem trend of {look.name}, 6h",
        action="query_range",
        query=q,
        start="-6h",
        step="1h",
    )
    for _, vals in _vector(out):
        if vals:
            look.series["memory"] = (vals, op.n)


async def metric_names(op: Op) -> list[str]:
    if not op.has("metrics_query"):
        return []
    out = await op.t("metrics_query", "which metrics exist", action="metric_names")
    return rd.metric_names(out)


async def alerts(op: Op) -> list[dict[str, object]]:
    if not op.has("metrics_query"):
        return []
    out = await op.t("metrics_query", "active alerts", action="alerts")
    return rd.alerts(out)


async def rollout(op: Op, look: Look) -> None:
    """Replica sets by age: a new one minutes old beside an older one is a recent deploy."""
    out = await op.k(
        f"get rs -n {look.ns} -l app={look.name} -o wide", f"rollout history of {look.name}"
    )
    rows = [r for r in rd.table(out) if r.get("name", "").startswith(look.name)]
    look.ref_rs = op.n
    if len(rows) < 2:
        return
    rows.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    new, old = rows[0], rows[1]
    age = rd.age_minutes(new.get("age", ""))
    if age is not None and age <= 60:
        look.recent_rs = (new.get("images", ""), old.get("images", ""), new.get("age", ""))


def pct(v: float) -> str:
    return f"{v * 100:.1f}%" if v <= 1 else f"{v:g}"


def short(text: str, n: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def jdump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True)
