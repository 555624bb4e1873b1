"""What a metrics query selected, recorded on its audit event (docs/sim-k8s.md "What a metrics
query selected"; behaviors rule 642, core §3.4): the label sets of the series its selectors
selected, sorted, deterministic, never the values, none for a failed query."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster.audit import SELECTED_SERIES
from oasis_sim_k8s.observability import telemetry
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision, scenario_ids

SID = "k8s.capability.wo.in-scope-delete-001"
TOOLS = ["container-orchestration", "observability-metrics"]
MEMORY = "container_memory_working_set_bytes"


def _queried(args: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The tool's answer and the metrics reads it audited, in a fresh environment."""
    _res, env = provision(SimK8sProvider(), "example", SID)
    surface = ToolSurface(env, allowed_interface_types=TOOLS)
    before = len(env.audit.entries)
    text = surface.call("metrics_query", args).text
    return text, [e for e in env.audit.entries[before:] if e.get("resource") == "metrics"]


def _selected(entry: dict[str, Any]) -> list[dict[str, str]] | None:
    text = entry["raw"].get("annotations", {}).get(SELECTED_SERIES)
    return None if text is None else json.loads(text)


def test_a_query_records_the_series_its_selectors_selected() -> None:
    query = f'sum by (pod) ({MEMORY}{{namespace="shop"}}) - max by (pod) ({MEMORY})'
    text, (read,) = _queried({"action": "query", "query": query})
    series = _selected(read)
    assert series and all(s["__name__"] == MEMORY for s in series)
    assert series == sorted(series, key=lambda s: sorted(s.items()))  # sorted, each once
    assert len({json.dumps(s, sort_keys=True) for s in series}) == len(series)
    assert '"value"' in text and '"value"' not in read["raw"]["annotations"][SELECTED_SERIES]


def test_the_record_is_the_same_on_a_second_run() -> None:
    args = {"action": "query_range", "query": f'{MEMORY}{{namespace="shop"}}', "start": "-1h"}
    assert _selected(_queried(args)[1][0]) == _selected(_queried(args)[1][0])


def test_a_failed_query_or_another_action_records_nothing() -> None:
    (_, (bad,)) = _queried({"action": "query", "query": "sum by (pod ("})
    assert _selected(bad) is None
    (_, (names,)) = _queried({"action": "metric_names"})
    assert _selected(names) is None


#: instant queries of every kind of selector: named (one metric, several, a recorded one, a
#: node utilisation), by labels alone (every series), none at all
EXPRESSIONS = [
    MEMORY,
    f'sum by (pod) ({MEMORY}{{namespace="shop"}}) / 2',
    'kube_pod_container_status_restarts_total{namespace="shop"} * 2',
    "instance:node_memory_utilisation:ratio",
    'rate(kube_pod_container_status_restarts_total[5m]) + kube_deployment_spec_replicas{namespace=~"s.*"}',
    '{namespace="shop"}',
    "1 + 1",
    "error_rate",
]


def test_a_query_generates_only_the_metrics_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """An instant query and its audited series generate only the metrics their selectors name
    (session 30): the same answers as generating every series (``wanted`` None)."""
    envs = [provision(SimK8sProvider(seeded_ids=True), "example", SID)[1]]
    if "infra.capability.au.action-completeness-001" in scenario_ids("si"):
        envs.append(
            provision(
                SimK8sProvider(seeded_ids=True), "si", "infra.capability.au.action-completeness-001"
            )[1]
        )
    asked: list[frozenset[str] | None] = []
    real = telemetry.generated

    def counted(env: Any, at: float, names: frozenset[str] | None = None) -> Any:
        asked.append(names)
        return real(env, at, names)

    monkeypatch.setattr(telemetry, "generated", counted)
    for env in envs:
        for expr in EXPRESSIONS:
            narrowed = (env.metrics.query(expr), env.metrics.selected(expr))
            with monkeypatch.context() as m:
                m.setattr(telemetry, "wanted", lambda node: None)
                assert (env.metrics.query(expr), env.metrics.selected(expr)) == narrowed, expr
    assert frozenset({MEMORY}) in asked and None in asked
