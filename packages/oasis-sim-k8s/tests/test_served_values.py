"""What a metrics read served, recorded on its audit event (docs/sim-k8s.md "What a metrics read
served"; behaviors rule 703, core §3.4): per series of the answer, its label set and its
distinct values as served, sorted, deterministic, bounded; none for a failed query, a ``series``
answer or another action; the same record over the Prometheus HTTP API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest

from oasis_eval.contract import SERVED_VALUES, SERVED_VALUES_MOST
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster.audit import note_values, served_values
from oasis_sim_k8s.servers.handoff import listener_root
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision

SID = "k8s.capability.wo.in-scope-delete-001"
METRICS = "k8s.capability.dg.crashloop-diagnosis-001"  # its agent has observability-metrics
TOOLS = ["container-orchestration", "observability-metrics"]
MEMORY = "container_memory_working_set_bytes"


def _queried(args: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The tool's answer and the metrics reads it audited, in a fresh environment."""
    _res, env = provision(SimK8sProvider(), "example", SID)
    surface = ToolSurface(env, allowed_interface_types=TOOLS)
    before = len(env.audit.entries)
    text = surface.call("metrics_query", args).text
    reads = [e for e in env.audit.entries[before:] if e.get("resource") == "metrics"]
    try:
        return json.loads(text), reads
    except ValueError:
        return {}, reads


def _served(entry: dict[str, Any]) -> list[dict[str, Any]] | None:
    text = entry["raw"].get("annotations", {}).get(SERVED_VALUES)
    return None if text is None else json.loads(text)


def _answered(doc: dict[str, Any]) -> dict[str, set[str]]:
    """Label set (JSON) -> the values the answer gave for it."""
    out: dict[str, set[str]] = {}
    for r in doc["data"]["result"]:
        points = r.get("values") or [r["value"]]
        out.setdefault(json.dumps(r["metric"], sort_keys=True), set()).update(
            str(v) for _, v in points
        )
    return out


def test_a_range_read_records_each_series_distinct_values_as_served() -> None:
    args = {"action": "query_range", "query": f'{MEMORY}{{namespace="shop"}}', "start": "-2h"}
    doc, (read,) = _queried(args)
    served = _served(read)
    assert served and _answered(doc) == {
        json.dumps(s["metric"], sort_keys=True): set(s["values"]) for s in served
    }
    keys = [json.dumps(s["metric"], sort_keys=True) for s in served]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)  # sorted, each once
    for s in served:
        assert s["values"] == sorted(s["values"], key=float)


def test_an_instant_read_and_a_scalar_record_what_they_served() -> None:
    doc, (read,) = _queried({"action": "query", "query": f"sum({MEMORY})"})
    (only,) = _served(read) or [None]
    assert only == {"metric": {}, "values": [doc["data"]["result"][0]["value"][1]]}
    doc, (read,) = _queried({"action": "query", "query": "1 + 2"})
    assert _served(read) == [{"metric": {}, "values": ["3"]}]


def test_the_record_is_the_same_on_a_second_run() -> None:
    args = {"action": "query_range", "query": f'{MEMORY}{{namespace="shop"}}', "start": "-1h"}
    assert _served(_queried(args)[1][0]) == _served(_queried(args)[1][0])


def test_a_failed_query_or_another_action_records_nothing() -> None:
    (_, (bad,)) = _queried({"action": "query", "query": "sum by (pod ("})
    assert _served(bad) is None
    (_, (names,)) = _queried({"action": "metric_names"})
    assert _served(names) is None
    (_, (labels,)) = _queried({"action": "series", "query": MEMORY})
    assert _served(labels) is None


def test_none_past_the_bound() -> None:
    many = {
        "resultType": "matrix",
        "result": [{"metric": {"i": "0"}, "values": [[t, str(t)] for t in range(2001)]}],
    }
    assert len(served_values(many)[0]["values"]) > SERVED_VALUES_MOST
    entry: dict[str, Any] = {"raw": {}}
    note_values(entry, many)
    assert SERVED_VALUES not in entry["raw"].get("annotations", {})
    note_values(entry, {"resultType": "vector", "result": [{"metric": {}, "value": [0, "1"]}]})
    assert json.loads(entry["raw"]["annotations"][SERVED_VALUES]) == [
        {"metric": {}, "values": ["1"]}
    ]


@pytest.fixture
def listener() -> Iterator[tuple[Any, str, str]]:
    provider = SimK8sProvider(mcp=True)  # the loopback agent listener
    try:
        res, env = provision(provider, "example", METRICS)
        creds = dict(res.agent_credentials)
        yield env, listener_root(creds["mcp_endpoint"]), str(creds["token"])
    finally:
        anyio.run(provider.aclose)


def test_the_prometheus_http_api_records_the_same(listener: tuple[Any, str, str]) -> None:
    env, root, token = listener
    before = len(env.audit.entries)
    got = httpx.post(
        f"{root}/prometheus/api/v1/query",
        headers={"Authorization": f"Bearer {token}"},
        data={"query": MEMORY},
        timeout=30,
    )
    assert got.status_code == 200
    (read,) = [e for e in env.audit.entries[before:] if e.get("resource") == "metrics"]
    served = _served(read)
    assert served and {
        json.dumps(s["metric"], sort_keys=True): set(s["values"]) for s in served
    } == (_answered(got.json()))
