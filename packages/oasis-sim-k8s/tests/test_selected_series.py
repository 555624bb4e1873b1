"""What a metrics query selected, recorded on its audit event (docs/sim-k8s.md "What a metrics
query selected"; behaviors rule 642, core §3.4): the label sets of the series its selectors
selected, sorted, deterministic, never the values, none for a failed query."""

from __future__ import annotations

import json
from typing import Any

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster.audit import SELECTED_SERIES
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision

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
