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
