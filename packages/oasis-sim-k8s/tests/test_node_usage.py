"""A node's usage reads each recorded series once per instant, not once per pod (issue 30:
range queries over the nodes' utilisation were a tenth of a validity run's simulator time),
and gives what summing each pod's own usage gives."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.observability import telemetry, usage
from tests.sim_k8s.support import provision, scenario_ids

#: an SI scenario with a recorded memory series for a workload (``service`` label, no pod)
SID = "infra.capability.au.action-completeness-001"


def _env() -> Any:
    if SID not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SID)
    return env


def test_node_usage_reads_each_recorded_metric_once_and_sums_the_pods(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = _env()
    at = env.clock.seconds()
    nodes = list(env.store.iter("nodes"))
    expected = []
    for node in nodes:  # each pod's usage on its own, as ``kubectl top pod`` computes it
        name = node["metadata"]["name"]
        pods = [p for p in env.store.iter("pods") if p["spec"].get("nodeName") == name]
        used = [u for u in (usage.pod_usage(env, p, at) for p in pods) if u]
        expected.append(sum(c for u in used for c, _ in u.values()))
    assert any(
        usage._recorded_value(
            env, "container_memory_working_set_bytes", p["metadata"]["namespace"], w, at
        )
        is not None
        for p in env.store.iter("pods")
        if (w := env.workload_of(p))
    ), "the scenario records a workload's memory"

    calls: list[str] = []
    real = usage._recorded_by_workload

    def counted(env: Any, metric: str, at: float) -> Any:
        calls.append(metric)
        return real(env, metric, at)

    monkeypatch.setattr(usage, "_recorded_by_workload", counted)
    monkeypatch.setattr(telemetry, "_recorded_by_workload", counted)
    for node, cpu in zip(nodes, expected):
        calls.clear()
        used_cpu, _, _, _ = usage.node_usage(env, node, at)
        if "cpu_utilisation" not in env.facts.get(("nodes", "", node["metadata"]["name"]), {}):
            assert used_cpu == usage.NODE_SYSTEM_CPU_MILLIS + cpu
        assert len(calls) == len(set(calls)) <= 2, calls
    calls.clear()
    telemetry.generated(env, at, telemetry.NODE_UTILISATION)
    assert len(calls) == len(set(calls)) <= 2, calls


@pytest.mark.parametrize(
    "expr",
    [
        "container_memory_working_set_bytes",
        'sum by (namespace) (container_memory_working_set_bytes{namespace!="kube-system"})',
        "max_over_time(container_memory_working_set_bytes[10m])",
        "sum(container_memory_working_set_bytes) + sum(kube_deployment_spec_replicas)",
    ],
)
def test_a_memory_range_query_walks_the_objects_once(
    expr: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A range query of the recorded memory walks the objects once and looks the recorded
    values up per step (session 30): the same answer as generating every step's series."""
    env = _env()
    end = env.clock.seconds()
    fast = env.metrics.query_range(expr, end - 6 * 3600, end, 60)
    walks: list[float] = []
    real = telemetry._samples
    monkeypatch.setattr(
        telemetry, "_samples", lambda e, at, *a: walks.append(at) or real(e, at, *a)
    )
    env.metrics.query_range(expr, end - 6 * 3600, end, 60)
    assert walks == [end]
    # every step generated, as before: memory taken for a node utilisation (which only makes
    # the nodes' usage computed and dropped, unasked)
    monkeypatch.setattr(
        telemetry, "NODE_UTILISATION", telemetry.NODE_UTILISATION | {telemetry.MEMORY}
    )
    walks.clear()
    assert env.metrics.query_range(expr, end - 6 * 3600, end, 60) == fast
    assert len(walks) > 100  # one walk a step
    assert any(r["values"] for r in fast["result"])
