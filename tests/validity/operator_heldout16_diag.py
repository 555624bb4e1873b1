"""``heldout16``'s investigation of one workload (issue 27, fairness): pod states, events,
logs, metrics, traces, rollout history, migrations, network policies; then the finding with
the most specific evidence, in a causal chain, and the minimal fix it implies.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout16 import Shift, mib

#: what a recurring log line means (generic knowledge of application errors)
LOG_MEANING: tuple[tuple[str, str], ...] = (
    ("pool exhausted", "database connection pool exhaustion"),
    ("cannot get a connection", "database connection pool exhaustion"),
    ("certificate expired", "an expired TLS certificate on the upstream"),
    ("tls handshake", "a TLS handshake failure to the upstream"),
    ("does not exist", "a schema mismatch between the code and the database migration"),
    ("relation already exists", "a failed database migration"),
    ("exception", "an application exception"),
    ("connection refused", "a dependency refusing connections"),
    ("reset by peer", "upstream connections being reset"),
)


@dataclass
class Diagnosis:
    kind: str = "uncertain"
    summary: list[str] = field(default_factory=list)
    fix: list[tuple[str, str, str]] = field(default_factory=list)
    fix_text: str = ""
    risky: str = ""


def subject_pods(subject: str, pods: dict[str, Any]) -> dict[str, Any]:
    """Pods of a deployment (app label or name prefix), or the pod itself."""
    if subject in pods:
        return {subject: pods[subject]}
    return {
        n: p
        for n, p in sorted(pods.items())
        if (p.get("metadata", {}).get("labels") or {}).get("app") == subject
        or re.fullmatch(rf"{re.escape(subject)}-[a-z0-9]+-[a-z0-9]+", n)
    }


def _container_facts(pod: dict[str, Any]) -> list[str]:
    """Each container's waiting reason, last termination and restarts, in words."""
    facts = []
    status = pod.get("status", {})
    for kind in ("initContainerStatuses", "containerStatuses"):
        for c in status.get(kind) or []:
            waiting = (c.get("state") or {}).get("waiting") or {}
            last = (c.get("lastState") or {}).get("terminated") or {}
            bits = []
            if waiting.get("reason"):
                bits.append(f"waiting in {waiting['reason']}")
            if last.get("reason"):
                bits.append(f"last terminated {last['reason']} (exit code {last.get('exitCode')})")
            if c.get("restartCount"):
                bits.append(f"{c['restartCount']} restarts")
            if bits:
                label = "init container" if kind.startswith("init") else "container"
                facts.append(f"{label} {c.get('name')}: {', '.join(bits)}")
    return facts


def _errors(text: str) -> Counter[str]:
    """ERROR / WARN / FATAL messages of a log read, counted (timestamps and labels dropped)."""
    found: Counter[str] = Counter()
    for line in text.splitlines():
        m = re.search(r"\b(ERROR|WARN|WARNING|FATAL|CRITICAL)\b:?\s*(.*)", line)
        if m:
            found[f"{m.group(1)}: {m.group(2).strip()}"] += 1
    return found


def _meaning(line: str) -> str:
    low = line.lower()
    return next((m for key, m in LOG_MEANING if key in low), "")


async def _metrics(shift: Shift, subject: str) -> dict[str, list[float]]:
    """Every service-level metric of the subject over the last 6 h (oldest first)."""
    if not shift.has("metrics_query") or not subject:
        return {}
    names = json.loads(
        await shift.use("metrics_query", "list the metrics exposed", action="metric_names") or "{}"
    )
    series: dict[str, list[float]] = {}
    for name in sorted(names.get("data") or []):
        if name.startswith(("kube_", "instance:")):
            continue
        out = await shift.use(
            "metrics_query",
            f"read {name} of {subject} over time",
            action="query_range",
            query=f'{name}{{service="{subject}"}}',
            start="-6h",
            step="10m",
        )
        try:
            result = json.loads(out)["data"]["result"]
        except (ValueError, KeyError, TypeError):
            continue
        if result:
            series[name] = [float(v) for _, v in result[0].get("values", [])]
    return series


async def _logs(shift: Shift, subject: str, pods: dict[str, Any]) -> tuple[Counter[str], int]:
    """Error lines of the subject's containers (current, previous, failing init containers)."""
    if not shift.has("logs_query") or not subject:
        return Counter(), 0
    key = {"pod": subject} if subject in shift.pods else {"deployment": subject}
    text = await shift.use(
        "logs_query", f"read {subject}'s logs", namespace=shift.ns, tail=300, **key
    )
    total = len([x for x in text.splitlines() if x.strip()])
    if any("restarts" in f for p in pods.values() for f in _container_facts(p)):
        text += "\n" + await shift.use(
            "logs_query",
            "logs of the crashed instance",
            namespace=shift.ns,
            previous=True,
            tail=100,
            **key,
        )
    for p in pods.values():
        for c in p.get("status", {}).get("initContainerStatuses") or []:
            if not c.get("ready"):
                text += "\n" + await shift.use(
                    "logs_query",
                    f"logs of the failing init container {c['name']}",
                    namespace=shift.ns,
                    container=c["name"],
                    tail=100,
                    **key,
                )
    return _errors(text), total


async def diagnose(shift: Shift, subject: str) -> Diagnosis:
    """Read everything about the subject, then state the best-supported cause."""
    r = shift.report
    pods = subject_pods(subject, shift.pods)
    if subject in shift.deployments:
        await shift.kubectl(
            f"describe deployment {subject} -n {shift.ns}",
            "read the workload's spec and conditions",
        )
    for name in sorted(pods)[:2]:
        await shift.kubectl(f"describe pod {name} -n {shift.ns}", "read the pod's state and events")
    facts = {n: _container_facts(p) for n, p in pods.items()}
    for name, fs in sorted(facts.items()):
        if fs:
            r.evidence.append(f"Pod {name}: {'; '.join(fs)}.")
    events = [
        e
        for e in shift.events.splitlines()
        if any(p in e for p in pods) or (subject and f"/{subject}" in e)
    ]
    errors, total = await _logs(shift, subject, pods)
    series = await _metrics(shift, subject)
    from .operator_heldout16_faults import (
        _init_failed,
        _migration,
        _missing_key,
        _oom,
        _unschedulable,
    )
    from .operator_heldout16_signals import (
        _log_pattern,
        _memory_risk,
        _network,
        _not_ready,
        _recent_deploy,
    )

    diag = Diagnosis()
    for finder in (
        _network,
        _missing_key,
        _oom,
        _unschedulable,
        _init_failed,
        _migration,
        _recent_deploy,
        _log_pattern,
        _memory_risk,
        _not_ready,
    ):
        found = await finder(shift, subject, pods, events, errors, series)
        if found:
            diag = found
            break
    if not errors and total:
        r.evidence.append(
            f"Logs of {subject}: {total} line(s) read, no ERROR or WARN line: nothing in them explains it."
        )
    if errors:
        kept = ", ".join(f'"{e}" x{n}' for e, n in errors.most_common(3))
        r.evidence.append(f"Logs of {subject}: {total} line(s) read, signal kept: {kept}.")
    if diag.kind == "uncertain":
        diag.summary = [
            f"{subject}: {'; '.join(functools.reduce(operator.iadd, facts.values(), [])) or 'pods Running'}"
        ]
        diag.summary += [f"logs: {e} (x{n})" for e, n in errors.most_common(2)]
        diag.summary += _series_lines(series)
        r.cause.append(
            "Not confirmed. The signals read do not single out one cause: "
            + "; ".join(diag.summary)
        )
    return diag


def with_unit(name: str, value: float) -> str:
    """A metric value in the unit its name implies: a ratio as %, a latency in ms, bytes."""
    if "bytes" in name:
        return mib(value)
    if "latency" in name or name.endswith("_ms"):
        return f"{value:g} ms"
    if "rate" in name and value <= 1:
        return f"{value * 100:g}%"
    return f"{value:g}"


def _series_lines(series: dict[str, list[float]]) -> list[str]:
    out = []
    for name, vals in sorted(series.items()):
        if vals and "memory" not in name:
            out.append(
                f"{name} {with_unit(name, vals[0])} six hours ago, {with_unit(name, vals[-1])} now"
            )
    return out
