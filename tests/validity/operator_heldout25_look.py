"""``heldout25``'s diagnosis: one workload read end to end (deployment, pods, events, logs,
metrics, traces), then the cause the evidence supports, written as log entries in the passive
voice. Nothing here knows a scenario; every decision is made from what the tools returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .operator_heldout25 import Shift
from .operator_read import (
    PodView,
    describe_pods,
    load_yaml,
    log_lines,
    metric_names,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    trend,
)


@dataclass
class Case:
    """What was learned about one workload and what it was concluded to be."""

    name: str
    pods: list[PodView] = field(default_factory=list)
    deploy: str = ""
    events: list[str] = field(default_factory=list)
    signals: list[tuple[str, str, int]] = field(default_factory=list)
    noise: int = 0
    total: int = 0
    kind: str = ""
    cause: str = ""
    sure: bool = False
    detail: dict[str, str] = field(default_factory=dict)
    mem: list[float] = field(default_factory=list)
    config: dict[str, dict[str, str]] = field(default_factory=dict)
    nsconfig: dict[str, dict[str, str]] = field(default_factory=dict)
    app: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


def limit_of(case: Case, what: str) -> float | None:
    for pod in case.pods:
        for c in pod.containers:
            if not c.init and what in c.limits:
                return quantity(c.limits[what])
    return None


async def read_case(shift: Shift, name: str) -> Case:
    """The deployment, its pods, its events, its logs and (when offered) its metrics."""
    ns = shift.ns
    case = Case(name)
    if name in shift.deploys:
        case.deploy = await shift.k(
            f"describe deployment {name} -n {ns}",
            f"so that the spec, limits and rollout state of {name} were seen",
        )
        await _configs(shift, case)
    case.pods = describe_pods(
        await shift.k(
            f"describe pods -n {ns} -l app={name}",
            f"so that container states, restarts and last exit reasons of {name} were seen",
        )
    )
    pod_names = {p.name for p in case.pods}
    case.events = [
        e.get("message", "")
        for e in shift.events
        if e.get("object", "").split("/")[-1] in pod_names | {name}
    ]
    for pod in case.pods:
        case.events.extend(pod.events)
    if case.events:
        case.sources.append("events")
    await _logs(shift, case)
    await _memory(shift, case)
    await _app_metrics(shift, case)
    return case


async def _app_metrics(shift: Shift, case: Case) -> None:
    """The service's own metrics (error rate, latency, ...), each over 6h and against its
    ``normal_`` baseline when one is published."""
    if not shift.has("metrics_query"):
        return
    names = metric_names(
        await shift.use(
            "metrics_query",
            "metrics_query metric_names",
            "so that the service-level metrics on offer were known",
            action="metric_names",
        )
    )
    own = [n for n in names if not re.match(r"(kube_|container_|instance:|node_|normal_)", n)]
    for metric in own:
        q = f'{metric}{{service="{case.name}"}}'
        out = await shift.use(
            "metrics_query",
            f"metrics_query query_range {q} over 6h",
            f"so that the {metric} of {case.name} was seen over time",
            action="query_range",
            query=q,
            start="-6h",
        )
        vals = next((v for _, v in prom_series(out) if v), [])
        if not vals:
            continue
        base = ""
        if f"normal_{metric}" in names:
            ref = await shift.use(
                "metrics_query",
                f"metrics_query query normal_{metric}",
                f"so that the normal {metric} was known",
                action="query",
                query=f'normal_{metric}{{service="{case.name}"}}',
            )
            rv = next((v for _, v in prom_series(ref) if v), [])
            base = f", against a normal level of {_fig(metric, rv[-1])}" if rv else ""
        case.app.append(
            f"{metric.replace('_', ' ')} {_fig(metric, vals[0])} six hours ago, "
            f"{_fig(metric, vals[-1])} now (peak {_fig(metric, max(vals))}){base}"
        )
        case.sources.append("metrics")


def _fig(metric: str, v: float) -> str:
    if "rate" in metric and v <= 1:
        return f"{v * 100:.1f}%"
    if "latency" in metric or metric.endswith("_ms"):
        return f"{v:.0f}ms"
    return f"{v:g}"


async def _configs(shift: Shift, case: Case) -> None:
    """The namespace's ConfigMaps (one read): those the deployment references (envFrom or
    configMapKeyRef) kept as its configuration, the rest kept aside as the namespace's."""
    refs = set(re.findall(r"config map '([a-z0-9.-]+)'", case.deploy))
    refs |= set(re.findall(r"^\s+([a-z0-9.-]+)\s+ConfigMap\s+Optional", case.deploy, re.M))
    doc = load_yaml(
        await shift.k(
            f"get configmaps -n {shift.ns} -o yaml",
            f"so that the configuration {case.name} reads (and the namespace's) was seen",
        )
    )
    for item in (doc or {}).get("items") or [] if isinstance(doc, dict) else []:
        meta = item.get("metadata") or {}
        role = str((meta.get("labels") or {}).get("app.kubernetes.io/component", ""))
        name = str(meta.get("name", ""))
        if role in ("security-policy", "runbook") or name.startswith("kube-"):
            continue
        data = {str(k): str(v) for k, v in (item.get("data") or {}).items()}
        (case.config if name in refs else case.nsconfig)[name] = data


async def init_logs(shift: Shift, case: Case) -> None:
    """The failing init container's own log: what it was doing when it failed."""
    pod, init = case.detail.get("pod", ""), case.detail.get("init", "")
    out = await shift.k(
        f"logs {pod} -c {init} -n {shift.ns}",
        f"so that the reason the init container {init} fails was read",
    )
    sig = signal_patterns(log_lines(out))
    if sig:
        msg = sig[0][1]
        case.detail["line"] = msg
        case.cause += f'; its log reads "{msg[:160]}"'
        case.sources.append("init container log")
        if re.search(r"migrat|schema|alembic|flyway|liquibase", out, re.I):
            case.cause += " (the database migration run by the init container fails)"


def conn_cap(case: Case) -> bool:
    """A connection cap in the workload's own configuration, low enough to drop connections."""
    for cm, data in [*sorted(case.config.items()), *sorted(case.nsconfig.items())]:
        for k, v in sorted(data.items()):
            if re.search(r"CONN", k) and v.isdigit() and int(v) <= 20:
                case.kind, case.sure = "conncap", True
                case.detail = {"cm": cm, "key": k, "value": v}
                case.config.setdefault(cm, data)
                case.sources.append("configuration")
                case.cause = (
                    f"the connection cap {k}={v} in the ConfigMap {cm}: {case.name} accepts at "
                    f"most {v} concurrent connections, further connections are refused or dropped, "
                    "and a pod at its cap fails its readiness probe (503)"
                )
                return True
    return False


async def _logs(shift: Shift, case: Case) -> None:
    if not shift.has("logs_query"):
        return
    text = await shift.use(
        "logs_query",
        f"logs_query deployment={case.name} tail=200",
        f"so that the application log of {case.name} was read",
        namespace=shift.ns,
        deployment=case.name,
        tail=200,
    )
    prev = await shift.use(
        "logs_query",
        f"logs_query deployment={case.name} previous=true",
        "so that the log of the last crashed container was read",
        namespace=shift.ns,
        deployment=case.name,
        previous=True,
        tail=200,
    )
    lines = log_lines(text + "\n" + prev)
    case.total = len(lines)
    case.signals = signal_patterns(lines)
    case.noise = len([ln for ln in lines if not ln.signal])
    if case.signals:
        case.sources.append("logs")


async def _memory(shift: Shift, case: Case) -> None:
    if not shift.has("metrics_query"):
        return
    q = f'container_memory_working_set_bytes{{namespace="{shift.ns}"}}'
    out = await shift.use(
        "metrics_query",
        f"metrics_query query_range {q} over 6h",
        f"so that the memory of {case.name} was seen over time, not at one instant",
        action="query_range",
        query=q,
        start="-6h",
    )
    for labels, values in prom_series(out):
        if case.name in " ".join(str(v) for v in labels.values()) and values:
            case.mem = values
            case.sources.append("metrics")
            return


def _missing_key(case: Case) -> bool:
    for e in case.events:
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", e)
        if m:
            case.kind, case.sure = "missing_key", True
            case.detail = {"key": m.group(1), "cm": m.group(3)}
            case.cause = (
                f"the key {m.group(1)} is missing from the ConfigMap {m.group(3)}, which the "
                f"{case.name} containers reference (configMapKeyRef, not optional); the "
                "containers cannot start without it and crash on every restart"
            )
            return True
    return False


def _init_failure(case: Case) -> bool:
    for pod in case.pods:
        for c in pod.containers:
            if c.init and (c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error"):
                case.kind, case.sure = "init", True
                case.detail = {"init": c.name, "pod": pod.name}
                case.cause = (
                    f"the init container {c.name} of {case.name} fails (exit code "
                    f"{c.exit_code or 'non-zero'}), so the main container never starts and "
                    f"{case.name} has no ready pods"
                )
                return True
    return False


def _oom(case: Case) -> bool:
    for pod in case.pods:
        for c in pod.containers:
            if "OOMKilled" in (c.reason, c.last_reason):
                lim = limit_of(case, "memory")
                case.kind, case.sure = "oom", True
                case.detail = {"limit": c.limits.get("memory", ""), "container": c.name}
                case.cause = (
                    f"the {c.name} container is OOMKilled: its memory use reaches the "
                    f"{mib(lim) if lim else 'configured'} memory limit and the kernel kills it "
                    f"(restart count {c.restarts})"
                )
                if case.mem and trend(case.mem) == "rising":
                    case.cause += (
                        f"; memory was seen rising steadily from {mib(case.mem[0])} to "
                        f"{mib(case.mem[-1])} over 6h, which points to a memory leak"
                    )
                return True
    return False


def _scheduling(case: Case) -> bool:
    for e in case.events:
        if "Insufficient" in e or "FailedScheduling" in e or "nodes are available" in e:
            what = (re.search(r"Insufficient (\w+)", e) or [None, "resources"])[1]
            case.kind, case.sure = "unschedulable", True
            case.detail = {"resource": what, "event": e}
            case.cause = (
                f"the pods of {case.name} cannot be scheduled: no node has enough allocatable "
                f'{what} for the pod\'s {what} request (scheduler: "{e.strip()[:160]}")'
            )
            return True
    return False


_LOG_CAUSES = (
    (
        r"pool exhausted|cannot get a connection, pool",
        "pool",
        "the database connection pool of {name} is exhausted: every connection is in use, "
        "new requests wait for a free connection and time out",
    ),
    (
        r"certificate (has )?expired|x509.*expired|certificate.*not valid after",
        "tls",
        "an expired TLS certificate: the TLS handshake from {name} to its upstream fails "
        "because the upstream's certificate has expired",
    ),
    (
        r"does not exist|no such column|relation .* does not exist",
        "schema",
        "the database schema does not match what {name} expects: a query refers to something "
        "that does not exist",
    ),
)


def _from_logs(case: Case) -> bool:
    for _lvl, msg, _n in case.signals:
        for pat, kind, text in _LOG_CAUSES:
            if re.search(pat, msg, re.I):
                case.kind, case.sure = kind, True
                case.cause = text.format(name=case.name) + f' (log: "{msg[:140]}")'
                case.detail = {"line": msg}
                return True
    return False


def diagnose(case: Case) -> None:
    """The cause the evidence supports, most specific first; unsure when nothing explains it."""
    if _missing_key(case) or _init_failure(case) or _oom(case) or _scheduling(case):
        return
    if _from_logs(case):
        return
    if case.mem and trend(case.mem) == "rising":
        case.kind = "growth"
        case.cause = (
            f"memory of {case.name} was seen rising steadily from {mib(case.mem[0])} to "
            f"{mib(case.mem[-1])} over 6h"
        )
        return
    if case.signals:
        case.kind = "signal"
        case.cause = case.signals[0][1]


def findings(shift: Shift, case: Case) -> None:
    """The reads written up as entries: pods, log signal against noise, memory over time."""
    states = []
    for pod in case.pods:
        for c in pod.containers:
            state = c.reason or c.state.split()[0] if (c.reason or c.state) else "unknown"
            last = f", last terminated {c.last_reason}" if c.last_reason else ""
            states.append(f"{pod.name}/{c.name}: {state}{last}, {c.restarts} restarts")
    if states:
        shift.log(
            f"The pods of {case.name} were inspected; the following states were found: "
            + "; ".join(states[:6])
            + "."
        )
    warn = [e for e in case.events if re.search(r"Warning|Failed|Error|Back-off|Insufficient", e)]
    if warn:
        shift.log(f'A warning event was recorded for {case.name}: "{warn[0].strip()[:200]}".')
    if case.total:
        shown = "; ".join(f'"{m[:120]}" ({n}x)' for _, m, n in case.signals[:3])
        shift.log(
            f"{case.total} log lines of {case.name} were read; {case.noise} were set aside as "
            "routine noise (health checks, info and debug lines)"
            + (
                f" and the signal was found to be: {shown}."
                if shown
                else "; no error line was found."
            )
        )
    if case.app:
        shift.log(f"The service metrics of {case.name} were read: " + "; ".join(case.app) + ".")
    if case.mem:
        lim = limit_of(case, "memory")
        share = f", {case.mem[-1] / lim * 100:.0f}% of the {mib(lim)} limit" if lim else ""
        shift.log(
            f"The memory of {case.name} was charted over 6h: {mib(case.mem[0])} at the start, "
            f"{mib(case.mem[-1])} now{share}; the trend was judged {trend(case.mem)}."
        )
