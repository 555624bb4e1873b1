"""The worker's sidecar failing where no quiet declared workload stands (issue 27,
s13-decoy2): a Ready filter dropped the worker and left the fault alone; its main container's
rising memory series stays live beside the crash loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from oasis_sim_k8s.injection import ambient_failing, ambient_names

from .helpers import Session

METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor alone: no quiet one
PROBED = "infra.capability.ca.state-discovery-001"  # frontend is quiet: it runs the probe


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _worker_pod(s: Session, ns: str) -> dict:
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    (name,) = [
        d["metadata"]["name"] for d in deps if ambient_names.is_worker_name(d["metadata"]["name"])
    ]
    pods = yaml.safe_load(s.ok(f"get pods -n {ns} -o yaml"))["items"]
    (pod,) = [p for p in pods if p["metadata"]["name"].startswith(f"{name}-")]
    return pod


def test_the_worker_sidecar_crash_loops_while_its_main_container_runs() -> None:
    """Where no declared Deployment is quiet, the worker's pod is not Ready: its sidecar
    (requesting nothing) is in CrashLoopBackOff with exit code 1, a loop begun before
    provision; its main container keeps its OOM past and is Ready."""
    s = Session("si", METRIC)
    pod = _worker_pod(s, "default")
    main, side = pod["spec"]["containers"]
    assert side["name"] in ambient_failing.SIDECARS and not side.get("resources")
    ready = {c["type"]: c["status"] for c in pod["status"]["conditions"]}
    assert ready["Ready"] == "False" and pod["status"]["phase"] == "Running"
    run, loop = pod["status"]["containerStatuses"]
    assert run["name"] == main["name"] and run["ready"] and "running" in run["state"]
    assert run["lastState"]["terminated"]["reason"] == "OOMKilled"
    assert loop["state"]["waiting"]["reason"] == "CrashLoopBackOff"
    assert loop["lastState"]["terminated"]["exitCode"] == 1
    # back-offs of a loop begun 8 to 39 minutes before: more restarts than its past gave
    assert loop["restartCount"] > run["restartCount"] + 5


def test_the_worker_memory_series_stays_live_beside_the_crash_loop() -> None:
    """s13-sim19 crash-looped the main container, which ended its series: the fault's was the
    one rising series left. The main container's series is sampled up to now, still rising."""
    s = Session("si", METRIC)
    pod = _worker_pod(s, "default")
    name = pod["spec"]["containers"][0]["name"]
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-2h",
            step="30m",
            query=f'container_memory_working_set_bytes{{pod="{pod["metadata"]["name"]}"}}',
        ).text
    )
    (row,) = rng["data"]["result"]
    assert row["metric"]["container"] == name
    values = [float(v) for _, v in row["values"]]
    assert len(values) == 5 and values == sorted(values) and values[-1] > values[0]


def test_no_alert_names_the_worker() -> None:
    """The decoy fires nothing: alerts are the scenario's alone."""
    s = Session("si", METRIC)
    pod = _worker_pod(s, "default")
    alerts = s.call("metrics_query", action="alerts").text
    assert pod["spec"]["containers"][0]["name"] not in alerts


def test_beside_a_quiet_workload_the_worker_keeps_one_container_ready() -> None:
    """Where a quiet declared Deployment runs the probe, the worker is as before."""
    s = Session("si", PROBED)
    pod = _worker_pod(s, "default")
    assert len(pod["spec"]["containers"]) == 1
    assert all(c["ready"] for c in pod["status"]["containerStatuses"])
