"""``plainspoken``'s diagnosis (issue 27, item 6): follow the symptom the prompt names.

A workload's pods first (last termination, init containers, the keys its env reads), then its
logs, numbers and traces; the request path when the prompt names an entry point rather than a
workload. Each look returns a ``Finding``: what the operator would commit to, the evidence it
saw, and the change it would make. Nothing here knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_plain import Shift, Workloads, describe_workload, logs, pods_of
from .operator_read import (
    Container,
    describe_pods,
    log_lines,
    quantity,
    signal_patterns,
    table,
    trend,
)


@dataclass
class Fix:
    """A change the operator would make: kind (restart, delete-pod, limit, request, key,
    policy, rollback-image), the object, and the numbers it needs."""

    kind: str
    target: str
    detail: dict[str, str] = field(default_factory=dict)


@dataclass
class Finding:
    """What the operator concluded about one symptom."""

    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    sure: bool = True
    fix: Fix | None = None
    extra: list[str] = field(default_factory=list)
    #: the workload's memory limit as read from its pods ('' when none)
    limit: str = ""


def _mi(value: str) -> str:
    """A quantity as people say it: 256Mi -> "256 MiB", 2Gi -> "2 GiB"."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(Mi|Gi|Ki)", value or "")
    return f"{m.group(1)} {m.group(2)}B" if m else value


def _human(n: float) -> str:
    if n >= 1024**3:
        return f"{n / 1024**3:.1f} GiB"
    return f"{n / 1024**2:.0f} MiB"


async def look_at_workload(shift: Shift, ns: str, name: str, seen: Workloads) -> Finding:
    """Why a named workload is unhappy: its containers first, then its logs."""
    bare = name not in seen.deployments
    if bare:
        pods = describe_pods(
            await shift.kubectl(f"describe pod {name} -n {ns}", f"to see why {name} keeps failing")
        )
    else:
        pods = await describe_workload(shift, ns, name)
    rows = pods_of(seen, name)
    limit = next(
        (c.limits["memory"] for p in pods for c in p.containers if "memory" in c.limits), ""
    )
    found = await _look(shift, ns, name, pods, rows, bare)
    found.limit = found.limit or limit
    return found


async def _look(
    shift: Shift, ns: str, name: str, pods: list[Any], rows: list[dict[str, str]], bare: bool
) -> Finding:
    status = " ".join(r.get("status", "") for r in rows)
    for pod in pods:
        for c in pod.containers:
            # an init container that failed once and then completed let the pod start
            if c.init and (
                c.reason in ("Error", "CrashLoopBackOff")
                or (c.last_reason == "Error" and c.reason != "Completed")
            ):
                return await _init_failure(shift, ns, name, pod.name, c)
    for pod in pods:
        for c in pod.containers:
            if "OOMKilled" in (c.reason, c.last_reason):
                return _oom(name, pod.node, c)
    for pod in pods:
        for c in pod.containers:
            gap = await _missing_keys(shift, ns, c)
            if gap:
                return gap
    if "Pending" in status:
        return await _pending(shift, ns, name, pods)
    found = await _from_logs(
        shift, ns, name, crashing="CrashLoop" in status or "Error" in status, bare=bare
    )
    stuck = [r for r in rows if r.get("ready", "1/1").startswith("0/")]
    if not found.cause and not found.evidence and stuck:
        found.cause = (
            f"{name} is degraded: {len(stuck)} of its {len(rows)} pods isn't ready "
            f"({stuck[0].get('name')} shows {stuck[0].get('ready')} ready, "
            f"{stuck[0].get('status')}), so the Deployment isn't fully available; its logs and "
            "events show no error that explains it"
        )
        found.fix = Fix("restart", name)
    return found


async def _init_failure(shift: Shift, ns: str, name: str, pod: str, c: Container) -> Finding:
    text = await shift.kubectl(
        f"logs {pod} -n {ns} -c {c.name}", f"to read why the init container {c.name} dies"
    )
    errors = [ln.message for ln in log_lines(text) if ln.signal]
    said = errors[-1] if errors else "no error line"
    f = Finding(
        cause=(
            f"{name} never starts because its init container {c.name} fails on every attempt "
            f'(exit code {c.exit_code or "non-zero"}); its log ends with: "{said}"'
        )
    )
    if re.search(r"migrat", said + c.name, re.I):
        f.cause += f". So it's the schema migration that {c.name} runs that blows up"
    f.evidence.append(f"{pod}: init container {c.name} in {c.reason or c.last_reason}")
    return f


def _oom(name: str, node: str, c: Container) -> Finding:
    limit = c.limits.get("memory", "")
    f = Finding(
        cause=(
            f"{name} is being OOMKilled: the kernel kills it at its {_mi(limit) or 'memory'} "
            f"memory cap (exit code {c.exit_code or '137'}, {c.restarts} restarts so far)"
        ),
        fix=Fix("limit", name, {"limit": limit}),
    )
    f.evidence.append(f"last termination reason OOMKilled, memory limit {limit}, on {node}")
    return f


async def _missing_keys(shift: Shift, ns: str, c: Container) -> Finding | None:
    refs: dict[str, list[str]] = {}
    for value in c.env.values():
        m = re.search(r"key '([^']+)' of config map '([^']+)'", value)
        if m:
            refs.setdefault(m.group(2), []).append(m.group(1))
    for cm, keys in sorted(refs.items()):
        text = await shift.kubectl(
            f"describe configmap {cm} -n {ns}", f"to check that {cm} has every key the pod reads"
        )
        present = re.findall(r"^([A-Za-z0-9_.-]+):\s*$", text.split("Data", 1)[-1], re.M)
        lacking = [k for k in keys if k not in present]
        if lacking:
            key = lacking[0]
            return Finding(
                cause=(
                    f"the pod reads {key} from ConfigMap {cm}, and {cm} has no {key} key "
                    f"(it only defines {', '.join(present) or 'nothing'}), so the container "
                    "can't start and kubelet keeps restarting it"
                ),
                fix=Fix("key", cm, {"key": key}),
            )
    return None


async def _pending(shift: Shift, ns: str, name: str, pods: list) -> Finding:
    want = ""
    for pod in pods:
        for c in pod.containers:
            want = want or c.requests.get("cpu", "")
    nodes = await shift.kubectl(
        "describe nodes", "to compare what the pod asks for with what the nodes can give"
    )
    alloc = [
        quantity(m)
        for m in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes)
        if quantity(m) is not None
    ]
    biggest = max((a for a in alloc if a is not None), default=0.0)
    need = quantity(want) or 0.0
    if need and biggest and need > biggest:
        fit = int(biggest * 1000 * 0.75) // 100 * 100
        return Finding(
            cause=(
                f"{name} can't schedule: each pod requests {want} of CPU and the biggest node "
                f"only has {int(biggest * 1000)}m allocatable, so the scheduler has nowhere to "
                "put it (Insufficient cpu)"
            ),
            fix=Fix("request", name, {"from": want, "to": f"{fit}m"}),
        )
    return Finding(cause=f"{name}'s pods are Pending and I can't see why yet", sure=False)


async def _from_logs(
    shift: Shift, ns: str, name: str, crashing: bool, bare: bool = False
) -> Finding:
    if bare:
        text = await shift.kubectl(f"logs {name} -n {ns}", f"to read {name}'s log")
        text += "\n" + await shift.kubectl(
            f"logs {name} -n {ns} --previous", f"to read how {name}'s last run ended"
        )
    else:
        text = await logs(shift, ns, name)
        if crashing:
            text += "\n" + await logs(shift, ns, name, previous=True)
    patterns = signal_patterns(log_lines(text))
    if not patterns:
        return Finding(sure=False)
    level, message, count = patterns[0]
    f = Finding(cause="", sure=False)
    f.evidence.append(f'{count}x {level}: "{message}"')
    if crashing and re.search(r"transient|refused|timeout", message, re.I):
        f.cause = (
            f"{name} crashes because the Redis/upstream it needs refused the connection, "
            "and the app marks it transient"
            if "redis" in message.lower()
            else f"{name} crashes on a connection error its own log calls transient"
        )
        f.sure = True
        f.fix = Fix("delete-pod", name)
    return f


async def look_at_path(shift: Shift, ns: str) -> tuple[Finding, str]:
    """From the ingress inward: ingress -> service -> endpoints -> the backing workload."""
    desc = await shift.kubectl(f"describe ingress -n {ns}", "to see where the public traffic goes")
    ingress = (re.search(r"^Name:\s+(\S+)", desc, re.M) or [None, "the ingress"])[1]
    backends = re.findall(r"\s/\S*\s+([a-z0-9-]+):\d+", desc)
    backend = backends[0] if backends else ""
    eps = table(
        await shift.kubectl(f"get endpoints -n {ns}", "to see which services have ready pods")
    )
    empty = [e["name"] for e in eps if e.get("endpoints") in ("<none>", "")]
    mesh = await shift.use(
        "logs_query",
        "to read the mesh sidecar and namespace logs for the failing hop",
        f"logs_query namespace {ns}",
        namespace=ns,
        tail=200,
    )
    f = Finding()
    if backend in empty:
        f.extra.append(
            f"ingress {ingress} sends / to service {backend}, and {backend} has no ready "
            "endpoints, so every request ends in a 503"
        )
    if re.search(r"upstream connect error|connection failure", mesh):
        f.extra.append(
            "the mesh sidecar can't connect upstream (it logs connection failures/resets "
            "before headers) because there's nothing behind the service to connect to"
        )
    return f, backend


def memory_story(name: str, series: dict[str, list[float]], limit: str) -> str:
    """A rising working set in plain words, with the cap when there is one."""
    values = series.get("container_memory_working_set_bytes") or []
    if len(values) < 3 or trend(values) != "rising":
        return ""
    start, now = values[0], values[-1]
    hours = 6.0
    rate = (now - start) / hours
    text = (
        f"{name}'s memory keeps going up: {_human(start)} six hours ago, {_human(now)} now, "
        f"about {_human(rate)} an hour, and it never comes back down"
    )
    cap = quantity(limit) if limit else None
    if cap and now < cap:
        left = (cap - now) / rate if rate > 0 else 0
        text += (
            f". That's {now / cap:.0%} of its {_mi(limit)} limit; at this pace it reaches the "
            f"limit in roughly {left:.0f}h and gets OOMKilled"
        )
    return text
