"""Metrics and logs (SI provider guide §1.4 log lines, §1.8 metrics).

:class:`Metrics` holds recorded series (scenario ``metrics/*`` entries: scalars,
``{t, value}`` lists, ``series:`` maps) plus series generated on the fly from
the cluster the way kube-state-metrics and cAdvisor expose them
(``kube_deployment_status_replicas_available``, ``kube_pod_container_status_restarts_total``,
``container_memory_working_set_bytes`` ...). :meth:`Metrics.query` answers PromQL
(:mod:`.promql`); an unknown metric gives an empty result. A recorded series tied
to a workload fault returns to its baseline once the fault is gone (rollback).

:class:`Logs` keeps injected lines per pod/container, per workload (shown by the
workload's pods running the image the lines were produced under) and per
non-pod source (a sidecar, the ingress controller). Beyond those it adds only neutral
background from the workload's real state (start-up and health-check lines) and a cause the
scenario itself set up (a missing ConfigMap key); never a crash message or error line the
scenario did not write (issue 15: nothing invented).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from ..cluster.quantity import cpu_millis, mem_bytes
from . import promql
from .logs_store import Logs as Logs
from .usage import Recorded, _recorded_by_workload, node_usage

STEP = 30.0


class Series:
    def __init__(
        self,
        name: str,
        labels: dict[str, str],
        points: list[tuple[float, float]],
        help: str = "",
        unit: str = "",
        live: Callable[[float], float | None] | None = None,
        hold_from: float | None = None,
    ):
        self.name, self.labels, self.help, self.unit = name, dict(labels), help, unit
        self.points = sorted(points)
        self.live = live
        self.hold_from = hold_from

    def points_until(self, at: float) -> list[tuple[float, float]]:
        pts = [p for p in self.points if p[0] <= at]
        if not pts:
            return pts
        last_t, last_v = pts[-1]
        if self.hold_from is None or last_t < self.hold_from - STEP:
            return pts
        t = last_t + STEP
        while t <= at:
            value = self.live(t) if self.live else None
            pts.append((t, last_v if value is None else value))
            t += STEP
        return pts


#: the most points :meth:`Metrics.query_range` evaluates per series (issue 32: Grafana's
#: panels ask for a few hundred; a 6 h range at 15 s is 1,440)
MAX_POINTS = 250


class Metrics:
    def __init__(self, env: Any):
        self.env = env
        self.series: list[Series] = []
        #: non-numeric facts per service, readable by the tools layer (e.g. ``memory_usage_trend``)
        self.facts: dict[str, dict[str, Any]] = {}

    def add(
        self, name: str, labels: dict[str, str], points: list[tuple[float, float]], **kw: Any
    ) -> Series:
        s = Series(name, labels, points, **kw)
        self.series = [x for x in self.series if not (x.name == name and x.labels == s.labels)] + [
            s
        ]
        return s

    def names(self) -> list[str]:
        return sorted({s.name for s in self._all(self.env.clock.seconds())})

    def _all(self, at: float, names: frozenset[str] | None = None) -> list[Series]:
        return self.series + generated(self.env, at, names)

    def query(self, expr: str, at: float | None = None) -> dict[str, Any]:
        """Prometheus ``/api/v1/query`` data: ``{resultType, result}``. Raises ``promql.QueryError``."""
        at = self.env.clock.seconds() if at is None else at
        node = promql.parse(expr)
        res = promql.evaluate(node, at, self._lookup(at, wanted(node)))
        ts = self.env.clock.start.timestamp() + at
        if isinstance(res, float):
            return {"resultType": "scalar", "result": [ts, _fmt(res)]}
        return {
            "resultType": "vector",
            "result": [{"metric": lb, "value": [ts, _fmt(v)]} for lb, v in res],
        }

    def selected(self, expr: str, at: float | None = None) -> list[dict[str, str]]:
        """The label sets (``__name__`` included) of the series ``expr``'s selectors select
        at ``at`` (default now), each once, sorted: what the query was computed from (rule
        642, :func:`~..cluster.audit.note_series`). Raises ``promql.QueryError``."""
        at = self.env.clock.seconds() if at is None else at
        node = promql.parse(expr)
        lookup = self._lookup(at, wanted(node))
        found: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
        for name, matchers in promql.selectors(node):
            for s in lookup(name, matchers):
                labels = {"__name__": s.name, **s.labels}
                found[tuple(sorted(labels.items()))] = labels
        return [found[k] for k in sorted(found)]

    def query_range(
        self, expr: str, start: float, end: float, step: float = 60.0
    ) -> dict[str, Any]:
        """Prometheus ``/api/v1/query_range`` data. A range of more than :data:`MAX_POINTS`
        steps is downsampled to that many (a wider step, aligned to the requested one), so any
        range answers in bounded time and never blocks the listener (issue 32)."""
        node = promql.parse(expr)
        rows: dict[tuple, dict[str, Any]] = {}
        if (end - start) / step > MAX_POINTS:
            step = step * math.ceil((end - start) / step / MAX_POINTS)
        names = None if "__name__" in expr else frozenset(_IDENTS.findall(expr))
        # series computed from the current objects alone are computed once, not per step
        static = stepped = None
        if names is not None and not names & AT_DEPENDENT:
            static = [(s.name, s.labels, s.points[-1][1]) for s in generated(self.env, end, names)]
        elif names is not None and not names & NODE_UTILISATION:
            stepped = _Stepped(self.env, end, names)
        base = self.env.clock.start.timestamp()
        # start + i * step, counted (Prometheus steps in whole milliseconds): a float sum
        # drifts past ``end`` and drops the last point
        for i in range(int((end - start) / step + 1e-6) + 1):
            t = start + i * step
            if static is not None:
                at_t = [Series(name, labels, [(t, v)]) for name, labels, v in static]
                lookup = _lookup_in(self.series + at_t)
            elif stepped is not None:
                lookup = _lookup_in(self.series + stepped.at(t))
            else:
                lookup = self._lookup(t, names)
            res = promql.evaluate(node, t, lookup)
            for lb, v in [({}, res)] if isinstance(res, float) else res:
                key = tuple(sorted(lb.items()))
                rows.setdefault(key, {"metric": lb, "values": []})["values"].append(
                    [base + t, _fmt(v)]
                )
        # Prometheus sorts a range query's series by their label sets
        return {"resultType": "matrix", "result": [rows[k] for k in sorted(rows)]}

    def _lookup(self, at: float, names: frozenset[str] | None = None) -> promql.Lookup:
        return _lookup_in(self._all(at, names))


def wanted(node: tuple) -> frozenset[str] | None:
    """The metric names a parsed expression's selectors name, or None when one selects by
    its labels alone: its lookups (``promql.evaluate``, :meth:`Metrics.selected`) ask only
    for series of those names, so only those need generating (issue 30, session 30: every
    instant query and every audited query's series generated every node's utilisation, from
    every pod's usage; :func:`generated` with ``names`` is the same series, filtered)."""
    names = [name for name, _ in promql.selectors(node)]
    return frozenset(n for n in names if n is not None) if None not in names else None


def _lookup_in(everything: list[Series]) -> promql.Lookup:
    """PromQL's selector lookup over ``everything``."""

    def lookup(name: str | None, matchers: list[tuple[str, str, str]]) -> list[Series]:
        out = []
        for s in everything:
            if name is not None and s.name != name:
                continue
            if promql.label_match({"__name__": s.name, **s.labels}, matchers):
                out.append(s)
        return out

    return lookup


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(round(v, 6))


#: the generated series that need every pod's usage (the costly part of :func:`generated`)
NODE_UTILISATION = frozenset(
    {"instance:node_cpu_utilisation:rate5m", "instance:node_memory_utilisation:ratio"}
)
#: the generated series whose value depends on the instant (recorded memory, node usage)
AT_DEPENDENT = NODE_UTILISATION | {"container_memory_working_set_bytes"}
#: identifiers of a PromQL expression: a superset of the metric names it selects
_IDENTS = re.compile(r"[a-zA-Z_:][\w:]*")

#: adds one sample (metric name, labels, value) when the metric is wanted
_Add = Callable[[str, dict[str, str], Any], None]


MEMORY = "container_memory_working_set_bytes"


def generated(env: Any, at: float, names: frozenset[str] | None = None) -> list[Series]:
    """kube-state-metrics / cAdvisor style series computed from the current objects; only
    the metrics in ``names`` when given (a range query evaluates hundreds of instants)."""
    out: list[Series] = []

    def add(name: str, labels: dict[str, str], value: float) -> None:
        if names is None or name in names:
            out.append(Series(name, labels, [(at, float(value))]))

    recorded_memory = (
        _recorded_by_workload(env, MEMORY, at) if names is None or MEMORY in names else {}
    )
    _samples(env, at, names, add, recorded_memory)
    return out


class _Recorded:
    """A recorded workload's memory in :class:`_Stepped`'s samples: looked up at each step."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[str, str]):
        self.key = key


class _Stepped:
    """:func:`generated` of ``names`` (no node utilisation) at each step of a range query,
    walking the objects once (issue 30, session 30: a memory range query generated every
    pod's series at each of up to :data:`MAX_POINTS` steps). Only a workload's recorded
    memory moves with the instant: the pods' series read it from a table whose keys (the
    recorded workloads) do not depend on it, so the samples are gathered once with a
    :class:`_Recorded` where that value goes, and each step looks the values up, leaving out
    a series whose record has no sample then, as :func:`generated` leaves it out."""

    def __init__(self, env: Any, end: float, names: frozenset[str]):
        self.env = env
        self.rows: list[tuple[str, dict[str, str], Any]] = []
        self.recorded = MEMORY in names and {
            key: _Recorded(key) for key in _recorded_by_workload(env, MEMORY, end)
        }

        def add(name: str, labels: dict[str, str], value: Any) -> None:
            if name in names:
                self.rows.append((name, labels, value))

        _samples(env, end, names, add, self.recorded or {})

    def at(self, t: float) -> list[Series]:
        values = _recorded_by_workload(self.env, MEMORY, t) if self.recorded else {}
        out = []
        for name, labels, value in self.rows:
            if type(value) is _Recorded:
                value = values[value.key]
                if value is None:
                    continue
            out.append(Series(name, labels, [(t, float(value))]))
        return out


def _samples(
    env: Any,
    at: float,
    names: frozenset[str] | None,
    add: _Add,
    recorded_memory: dict[tuple[str, str], Any],
) -> None:
    """Every sample of :func:`generated` in its order, handed to ``add``; a family of series
    none of ``names`` is left alone (each family's work only reads: issue 30, session 34, a
    node utilisation range query made every pod's series at each step to drop them)."""
    if names is None or not names.isdisjoint(DEPLOYMENT_SERIES):
        _deployment_series(env, add)
    if names is None or not names.isdisjoint(POD_SERIES):
        for pod in env.store.iter("pods"):
            _pod_series(env, pod, add, recorded_memory)
    if names is None or not names.isdisjoint(NODE_SERIES):
        recorded: Recorded = {}
        for node in env.store.iter("nodes"):
            _node_series(env, node, at, names, add, recorded)


#: the series each family of :func:`_samples` adds (``test_generated_families.py``)
DEPLOYMENT_SERIES = frozenset(
    {
        "kube_deployment_spec_replicas",
        "kube_deployment_status_replicas_available",
        "kube_deployment_status_replicas_unavailable",
        "kube_deployment_status_replicas_updated",
    }
)
POD_SERIES = frozenset(
    {
        "kube_pod_status_phase",
        "kube_pod_container_status_restarts_total",
        "kube_pod_container_status_ready",
        "kube_pod_container_status_waiting_reason",
        "kube_pod_container_status_last_terminated_reason",
        "kube_pod_container_resource_limits",
        "kube_pod_container_resource_requests",
        MEMORY,
        "container_cpu_usage_cores",
    }
)
NODE_SERIES = NODE_UTILISATION | {"kube_node_status_condition", "kube_node_status_allocatable"}


def _deployment_series(env: Any, add: _Add) -> None:
    """Every Deployment's replica counts."""
    for dep in env.store.iter("deployments"):
        lb = {"namespace": dep["metadata"]["namespace"], "deployment": dep["metadata"]["name"]}
        st = dep.get("status") or {}
        add("kube_deployment_spec_replicas", lb, dep["spec"].get("replicas", 1))
        add("kube_deployment_status_replicas_available", lb, st.get("availableReplicas", 0))
        add("kube_deployment_status_replicas_unavailable", lb, st.get("unavailableReplicas", 0))
        add("kube_deployment_status_replicas_updated", lb, st.get("updatedReplicas", 0))


def _pod_series(
    env: Any, pod: dict[str, Any], add: _Add, recorded_memory: dict[tuple[str, str], Any]
) -> None:
    """A pod's phase and, per container, restarts, readiness, reasons, resources and usage."""
    ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
    phase = (pod.get("status") or {}).get("phase", "Pending")
    for p in ("Pending", "Running", "Succeeded", "Failed", "Unknown"):
        add(
            "kube_pod_status_phase",
            {"namespace": ns, "pod": name, "phase": p},
            1 if p == phase else 0,
        )
    specs = {c["name"]: c for c in pod["spec"].get("containers") or []}
    main = next(iter(specs), None)
    workload, hints = env.workload_and_hints(pod)
    for cs in (pod.get("status") or {}).get("containerStatuses") or []:
        lb = {"namespace": ns, "pod": name, "container": cs["name"]}
        add("kube_pod_container_status_restarts_total", lb, cs.get("restartCount", 0))
        add("kube_pod_container_status_ready", lb, 1 if cs.get("ready") else 0)
        waiting = (cs.get("state") or {}).get("waiting")
        if waiting:
            add(
                "kube_pod_container_status_waiting_reason",
                {**lb, "reason": waiting.get("reason", "")},
                1,
            )
        term = (cs.get("lastState") or {}).get("terminated")
        if term:
            add(
                "kube_pod_container_status_last_terminated_reason",
                {**lb, "reason": term.get("reason", "")},
                1,
            )
        limits = ((specs.get(cs["name"]) or {}).get("resources") or {}).get("limits") or {}
        requests = ((specs.get(cs["name"]) or {}).get("resources") or {}).get("requests") or {}
        if "memory" in limits:
            add(
                "kube_pod_container_resource_limits",
                {**lb, "resource": "memory", "unit": "byte"},
                mem_bytes(limits["memory"]) or 0,
            )
        if "cpu" in requests:
            add(
                "kube_pod_container_resource_requests",
                {**lb, "resource": "cpu", "unit": "core"},
                (cpu_millis(requests["cpu"]) or 0) / 1000,
            )
        if "running" in (cs.get("state") or {}):
            if main is not None and cs["name"] == main and (ns, workload) in recorded_memory:
                # the scenario recorded this workload's memory: the per-pod series follows it
                # (the value ``kubectl top`` shows), or is absent where the record has no sample
                usage = recorded_memory[(ns, workload)]
            else:
                usage = hints.get("memory_usage")
                if usage is None and "memory" in requests:
                    usage = int((mem_bytes(requests["memory"]) or 0) * 0.6)
            if usage is not None:
                add("container_memory_working_set_bytes", lb, usage)
            cpu = hints.get("cpu_usage_millis")
            if cpu is not None:
                add("container_cpu_usage_cores", lb, cpu / 1000)


def _node_series(
    env: Any,
    node: dict[str, Any],
    at: float,
    names: frozenset[str] | None,
    add: _Add,
    recorded: Recorded,
) -> None:
    """A node's conditions and allocatable; its utilisation only when asked (it is costly)."""
    name = node["metadata"]["name"]
    for c in node["status"].get("conditions") or []:
        for status in ("true", "false", "unknown"):
            add(
                "kube_node_status_condition",
                {"node": name, "condition": c["type"], "status": status},
                1 if c["status"].lower() == status else 0,
            )
    alloc = node["status"].get("allocatable") or {}
    add(
        "kube_node_status_allocatable",
        {"node": name, "resource": "cpu", "unit": "core"},
        (cpu_millis(alloc.get("cpu", 0)) or 0) / 1000,
    )
    add(
        "kube_node_status_allocatable",
        {"node": name, "resource": "memory", "unit": "byte"},
        mem_bytes(alloc.get("memory", 0)) or 0,
    )
    if names is not None and not names & NODE_UTILISATION:
        return
    cpu, mem, a_cpu, a_mem = node_usage(env, node, at, recorded)
    add(
        "instance:node_cpu_utilisation:rate5m",
        {"node": name, "instance": name},
        round(cpu / a_cpu, 4),
    )
    add(
        "instance:node_memory_utilisation:ratio",
        {"node": name, "instance": name},
        round(mem / a_mem, 4),
    )
