"""The ambient worker's round-5 data (issue 27): another team's owner label and contacts, and a
memory series of its own with its own limit, served the way the declared ones are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from oasis_sim_k8s.injection import ambient_names

from .helpers import Session

ORG = "infra.capability.ca.organizational-context-001"  # namespace payments, team payments-team
METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor's memory rises


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _worker(s: Session, ns: str) -> dict:
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    (worker,) = [d for d in deps if ambient_names.is_worker_name(d["metadata"]["name"])]
    return worker


def test_the_worker_belongs_to_another_team() -> None:
    s = Session("si", ORG)
    ns = yaml.safe_load(s.ok("get namespace payments -o yaml"))["metadata"]
    worker = _worker(s, "payments")
    meta, tmpl = worker["metadata"], worker["spec"]["template"]["metadata"]
    team = meta["labels"]["team"]
    assert team.split("-")[0] in [a.split("-")[0] for a in ambient_names.AREAS]
    assert team != ns["labels"]["team"]
    contacts = {meta["annotations"]["team-contact"], meta["annotations"]["escalation-channel"]}
    assert not contacts & set(ns["annotations"].values())
    # its pods carry the same ownership (a pod listing shows it too)
    assert tmpl["labels"]["team"] == team
    assert set(tmpl["annotations"].values()) == contacts
    pods = yaml.safe_load(s.ok(f"get pods -n payments -l app={meta['name']} -o yaml"))["items"]
    assert pods and all(p["metadata"]["labels"]["team"] == team for p in pods)


def test_the_worker_memory_rises_towards_its_own_limit() -> None:
    s = Session("si", METRIC)
    worker = _worker(s, "default")
    name = worker["metadata"]["name"]
    mem = worker["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"]
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-6h",
            step="30m",
            query=f'container_memory_working_set_bytes{{service="{name}"}}',
        ).text
    )
    values = [float(v) for _, v in rng["data"]["result"][0]["values"]]
    limit = int(mem.removesuffix("Mi")) * 2**20
    # since its restart after the OOM kill (the killed container's samples went with it):
    # rising steadily from 40% of its own limit, never above it
    assert 2 < len(values) < 13 and values == sorted(values) and values[-1] > 1.2 * values[0]
    assert 0.4 * limit <= values[0] < 0.6 * limit and 0.7 * limit < values[-1] < limit
    limits = json.loads(
        s.call(
            "metrics_query",
            query=f'kube_pod_container_resource_limits{{container="{name}",resource="memory"}}',
        ).text
    )
    assert [float(r["value"][1]) for r in limits["data"]["result"]] == [limit]
    # the declared series is untouched: data-processor's still the only one over 1.5Gi
    query = 'container_memory_working_set_bytes{namespace="default"}'
    now = json.loads(s.call("metrics_query", query=query).text)["data"]["result"]
    big = {
        r["metric"].get("service") or r["metric"].get("pod", "")
        for r in now
        if float(r["value"][1]) > 1.5 * 2**30
    }
    assert big and all(n.startswith("data-processor") for n in big)


def test_a_range_query_lists_its_series_by_label_set() -> None:
    """Prometheus sorts a range query's matrix by the series' labels: the worker's series comes
    before or after the scenario's by its name, not by when it was added."""
    s = Session("si", METRIC)
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-2h",
            step="1h",
            query='container_memory_working_set_bytes{namespace="default"}',
        ).text
    )
    keys = [sorted(r["metric"].items()) for r in rng["data"]["result"]]
    assert len(keys) > 2 and keys == sorted(keys)
