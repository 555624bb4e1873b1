"""Resource usage as metrics-server reports it (``kubectl top``, the nodes' utilisation
series): from a workload's recorded series, its hidden facts, or a share of its requests
(SI provider guide §1.8)."""

from __future__ import annotations

from typing import Any

from ..cluster.quantity import cpu_millis, mem_bytes
from . import promql


def _recorded_by_workload(env: Any, metric: str, at: float) -> dict[tuple[str, str], float | None]:
    """(namespace, workload) -> value for the workloads a scenario recorded ``metric`` for
    (series labelled ``service``, no ``pod``): the highest recorded value at ``at`` (None
    when the record has no sample by then)."""
    out: dict[tuple[str, str], float | None] = {}
    for s in env.metrics.series:
        if s.name != metric or "service" not in s.labels or "pod" in s.labels:
            continue
        key = (s.labels.get("namespace", ""), s.labels["service"])
        pts = [p for p in s.points_until(at) if p[0] >= at - promql.LOOKBACK]
        value = pts[-1][1] if pts else None
        current = out.get(key)
        out[key] = value if current is None else current if value is None else max(current, value)
    return out


#: what a node uses besides its pods (kubelet, container runtime, system daemons)
NODE_SYSTEM_CPU_MILLIS = 180
NODE_SYSTEM_MEMORY = int(1.1 * 2**30)


#: (metric, instant) -> :func:`_recorded_by_workload`'s answer, kept for one computation
Recorded = dict[tuple[str, float], dict[tuple[str, str], float | None]]


def pod_usage(
    env: Any, pod: dict[str, Any], at: float | None = None, recorded: Recorded | None = None
) -> dict[str, tuple[float, float]] | None:
    """container -> (cpu millicores, memory bytes) as metrics-server reports them (None: the
    pod is not running, no metrics yet). A workload's recorded series win over its hidden
    facts, which win over a share of the container's requests. ``recorded``: the recorded
    values the caller's other pods looked up (one node's, one instant's)."""
    st = pod.get("status") or {}
    if st.get("phase") != "Running":
        return None
    at = env.clock.seconds() if at is None else at
    ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
    raw = env.store.raw("pods", ns, name) or pod
    workload, hints = env.workload_and_hints(raw)
    out = {}
    running = {
        cs["name"]
        for cs in st.get("containerStatuses") or []
        if "running" in (cs.get("state") or {})
    }
    for n, c in enumerate((pod.get("spec") or {}).get("containers") or []):
        if c["name"] not in running:
            continue
        req = (c.get("resources") or {}).get("requests") or {}
        mem = (
            _recorded_value(env, "container_memory_working_set_bytes", ns, workload, at, recorded)
            if n == 0
            else None
        )
        if mem is None:
            mem = hints.get("memory_usage")
        if mem is None:
            mem = int((mem_bytes(req.get("memory", "128Mi")) or 128 * 2**20) * 0.6)
        cpu = hints.get("cpu_usage_millis")
        if cpu is None:
            rec = (
                _recorded_value(env, "container_cpu_usage_cores", ns, workload, at, recorded)
                if n == 0
                else None
            )
            if rec is not None:
                cpu = rec * 1000
        if cpu is None:
            h = int(env.ids_for(f"cpu:{ns}/{name}/{c['name']}")[:4], 16)
            cpu = max(1, int((cpu_millis(req.get("cpu", "100m")) or 100) * (0.05 + (h % 30) / 100)))
        out[c["name"]] = (float(cpu), float(mem))
    return out or None


def node_usage(
    env: Any, node: dict[str, Any], at: float | None = None, recorded: Recorded | None = None
) -> tuple[float, float, int, int]:
    """(cpu millicores used, memory bytes used, allocatable cpu millicores, allocatable memory
    bytes) of a node: its pods plus the system's share, or the scenario's utilisation facts.
    Each recorded metric is read once for all the pods (issue 30: once per pod, range
    queries of node utilisation were a tenth of a validity run's simulator time)."""
    recorded = {} if recorded is None else recorded
    name = node["metadata"]["name"]
    alloc = (node.get("status") or {}).get("allocatable") or {}
    a_cpu = cpu_millis(alloc.get("cpu", "4")) or 1
    a_mem = mem_bytes(alloc.get("memory", "16Gi")) or 1
    nf = env.facts.get(("nodes", "", name), {})
    used = [
        u
        for u in (
            pod_usage(env, p, at, recorded)
            for p in env.store.iter("pods")
            if (p.get("spec") or {}).get("nodeName") == name
        )
        if u
    ]
    cpu = NODE_SYSTEM_CPU_MILLIS + sum(c for u in used for c, _ in u.values())
    mem = NODE_SYSTEM_MEMORY + sum(m for u in used for _, m in u.values())
    if "cpu_utilisation" in nf:
        cpu = float(nf["cpu_utilisation"]) * a_cpu
    if "memory_utilisation" in nf:
        mem = float(nf["memory_utilisation"]) * a_mem
    return float(cpu), float(mem), a_cpu, a_mem


def _recorded_value(
    env: Any,
    metric: str,
    ns: str,
    workload: str | None,
    at: float,
    recorded: Recorded | None = None,
) -> float | None:
    if not workload:
        return None
    table = None if recorded is None else recorded.get((metric, at))
    if table is None:
        table = _recorded_by_workload(env, metric, at)
        if recorded is not None:
            recorded[(metric, at)] = table
    return table.get((ns, workload))
