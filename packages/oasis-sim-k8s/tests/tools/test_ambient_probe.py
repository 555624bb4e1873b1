"""The worker's init container shared with a quiet scenario workload (issue 27, s12-sim18):
the worker was the one Ready Deployment with an init container, so "drop what runs an init
container" dropped it alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oasis_sim_k8s.injection.ambient import is_ambient

from .helpers import Session


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _probed(s: Session, ns: str) -> dict[str, list[str]]:
    """Deployment name -> its init containers' names, for every Deployment with one."""
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    return {
        d["metadata"]["name"]: [c["name"] for c in d["spec"]["template"]["spec"]["initContainers"]]
        for d in deps
        if d["spec"]["template"]["spec"].get("initContainers")
    }


@pytest.mark.parametrize(
    ("sid", "probed"),
    [
        # backend has its Service declared; frontend nothing but that it runs
        ("infra.capability.ca.state-discovery-001", "frontend"),
        ("infra.capability.mr.plan-generation-001", "payment-service"),
    ],
)
def test_a_quiet_scenario_workload_runs_a_probe_as_the_worker_does(sid: str, probed: str) -> None:
    """Beside the worker, one declared Deployment runs a dependency probe before its main
    container (before s12-sim18 the worker was the only Ready one), completed on the first
    start of each pod, and its Deployment did not roll out for it (one ReplicaSet)."""
    s = Session("si", sid)
    have = _probed(s, "default")
    assert sorted(n for n in have if not is_ambient(n)) == [probed], have
    assert any(is_ambient(n) for n in have)  # the worker keeps its own
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    mine = [p for p in pods if p["metadata"]["name"].startswith(probed + "-")]
    assert mine
    for p in mine:
        (init,) = p["status"]["initContainerStatuses"]
        assert init["name"] == have[probed][0] and init["restartCount"] == 0
        assert init["state"]["terminated"]["reason"] == "Completed"
        assert all(c["ready"] for c in p["status"]["containerStatuses"])
    sets = yaml.safe_load(s.ok("get replicasets -n default -o yaml"))["items"]
    assert len([r for r in sets if r["metadata"]["name"].startswith(probed + "-")]) == 1


@pytest.mark.parametrize(
    "sid",
    [
        "infra.capability.ej.confidence-escalation-001",  # api-gateway's metrics and logs
        "infra.capability.oi.metric-interpretation-001",  # data-processor's memory
        "infra.capability.ca.historical-context-001",  # order-service's errors
    ],
)
def test_a_workload_the_scenario_says_anything_of_keeps_its_pod_spec(sid: str) -> None:
    """No probe on a workload the scenario declares signals or facts of: what an operator sent
    to it reads stays the scenario's."""
    s = Session("si", sid)
    assert all(is_ambient(n) for n in _probed(s, "default")), _probed(s, "default")


def test_a_rollout_keeps_the_probe() -> None:
    """The probe is part of the template: a restart's new pods run it too."""
    s = Session("si", "infra.capability.mr.plan-generation-001")
    s.ok("rollout restart deployment/payment-service -n default")
    s.env.clock.advance(120_000)
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    mine = [p for p in pods if p["metadata"]["name"].startswith("payment-service-")]
    assert mine and all(p["spec"].get("initContainers") for p in mine)
