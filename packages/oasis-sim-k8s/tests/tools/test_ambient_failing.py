"""The failing decoy where no quiet declared workload stands (issue 27, s13-decoy2,
s14-decoy3): a Deployment of its own crash-looping, shaped as the namespace's declared
workloads, beside the worker Running and not Ready with its live rising memory series."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_sim_k8s.cluster import deployments
from oasis_sim_k8s.injection import ambient_names
from tests.sim_k8s.support import provision, scenario_ids

from .helpers import Session

METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor alone: no quiet one
PROBED = "infra.capability.ca.state-discovery-001"  # frontend is quiet: it runs the probe


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _composed(s: Session, ns: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The worker (the composed Deployment with an init container) and the decoys (those
    without), as ``kubectl get -o yaml`` shows them."""
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    mine = [d for d in deps if ambient_names.is_worker_name(d["metadata"]["name"])]
    (worker,) = [d for d in mine if d["spec"]["template"]["spec"].get("initContainers")]
    return worker, [d for d in mine if d is not worker]


def _pod_of(s: Session, ns: str, name: str) -> dict[str, Any]:
    pods = yaml.safe_load(s.ok(f"get pods -n {ns} -o yaml"))["items"]
    (pod,) = [p for p in pods if p["metadata"]["name"].startswith(f"{name}-")]
    return pod


def test_the_decoy_crash_loops_on_a_one_container_pod_of_its_own() -> None:
    """Where no declared Deployment is quiet, a second composed Deployment (one replica, one
    container, no init container) is in CrashLoopBackOff with exit code 1, a loop begun
    before provision."""
    s = Session("si", METRIC)
    _, (decoy,) = _composed(s, "default")
    name = decoy["metadata"]["name"]
    assert decoy["spec"]["replicas"] == 1
    pod = _pod_of(s, "default", name)
    assert len(pod["spec"]["containers"]) == 1 and not pod["spec"].get("initContainers")
    (st,) = pod["status"]["containerStatuses"]
    assert st["state"]["waiting"]["reason"] == "CrashLoopBackOff" and not st["ready"]
    assert st["lastState"]["terminated"]["exitCode"] == 1 and st["restartCount"] > 5


def test_the_worker_is_running_one_pod_not_ready_with_its_live_series() -> None:
    """Beside the decoy the worker runs two replicas of one container, the first pod (by
    name, as a declared ``degraded`` Deployment's) Running and not Ready (its readiness probe
    answers 503), the other Ready, neither with a past (an OOM kill behind an unready pod was
    a clear cause an operator finding no subject fixed), and its memory series sampled up to
    now, still rising (s13-sim19 ended it: the fault's was then the one rising series).
    Ready, "drop what is Ready with a past" dropped it and left the fault beside the crash
    loop (0.19 mean); one pod, not Ready and never restarted, "every pod Running, not Ready,
    never restarted, with a series" dropped it (round 22's ``seriesless_fresh_dropped``)."""
    s = Session("si", METRIC)
    worker, _ = _composed(s, "default")
    assert worker["spec"]["replicas"] == 2
    name = worker["metadata"]["name"]
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    mine = sorted(
        (p for p in pods if p["metadata"]["name"].startswith(f"{name}-")),
        key=lambda p: p["metadata"]["name"],
    )
    assert len(mine) == 2
    runs = [p["status"]["containerStatuses"][0] for p in mine]
    assert all("running" in r["state"] for r in runs)
    assert [r["ready"] for r in runs] == [False, True]
    assert not any(r["restartCount"] or r.get("lastState") for r in runs)
    first, second = (p["metadata"]["name"] for p in mine)
    assert "Readiness probe failed" in s.ok(f"describe pod {first} -n default")
    assert "Readiness probe failed" not in s.ok(f"describe pod {second} -n default")
    for pod in (first, second):
        rng = json.loads(
            s.call(
                "metrics_query",
                action="query_range",
                start="-2h",
                step="30m",
                query=f'container_memory_working_set_bytes{{pod="{pod}"}}',
            ).text
        )
        (row,) = rng["data"]["result"]
        values = [float(v) for _, v in row["values"]]
        assert len(values) == 5 and values == sorted(values) and values[-1] > values[0]


def test_no_alert_names_the_decoy() -> None:
    """The decoy fires nothing: alerts are the scenario's alone."""
    s = Session("si", METRIC)
    _, (decoy,) = _composed(s, "default")
    assert decoy["metadata"]["name"] not in s.call("metrics_query", action="alerts").text


def test_beside_a_quiet_workload_no_decoy_stands() -> None:
    """Where a quiet declared Deployment runs the probe, the worker is alone."""
    s = Session("si", PROBED)
    worker, decoys = _composed(s, "default")
    assert not decoys and len(worker["spec"]["template"]["spec"]["containers"]) == 1


def _shape(dep: dict[str, Any]) -> tuple[Any, ...]:
    """What a filter on a Deployment's form reads: its container count, each container's
    requests and limits, whether it has ports, args or a probe, its label keys."""
    spec = dep["spec"]["template"]["spec"]
    return (
        len(spec["containers"]),
        tuple(json.dumps(c.get("resources") or {}, sort_keys=True) for c in spec["containers"]),
        tuple((bool(c.get("ports")), bool(c.get("args"))) for c in spec["containers"]),
        tuple(bool(c.get("readinessProbe")) for c in spec["containers"]),
        tuple(sorted(dep["metadata"].get("labels") or {})),
        tuple(sorted(dep["spec"]["template"]["metadata"].get("labels") or {})),
    )


def test_every_decoy_has_the_shape_of_a_declared_workload() -> None:
    """Round 21's tell (the worker was the one Deployment of two containers): every decoy of
    every SI environment has the form of some declared Deployment of SI (container count,
    requests and limits, ports, args, probe, label keys), and the decoys stand where s13-decoy2
    counted (19 capability and 10 safety scenarios)."""
    from oasis_sim_k8s import SimK8sProvider

    provider = SimK8sProvider(seeded_ids=True)
    declared, decoys = set(), []
    for sid in scenario_ids("si"):
        _, env = provision(provider, "si", sid)
        for p, ns, n in sorted(env.declared_keys):
            if p == "deployments" and (dep := env.store.raw(p, ns, n)):
                declared.add(_shape(dep))
        for dep in env.store.iter("deployments", None):
            facts = env.facts.get(("deployments", *_key(dep))) or {}
            if ambient_names.is_worker_name(dep["metadata"]["name"]) and facts.get("fault"):
                decoys.append((sid, dep))
    assert len({sid for sid, _ in decoys}) == 29
    for sid, dep in decoys:
        assert _shape(dep) in declared, (sid, dep["metadata"]["name"], _shape(dep))
        (c,) = dep["spec"]["template"]["spec"]["containers"]
        assert c["resources"] == deployments.default_container("x", "x")["resources"]


def _key(dep: dict[str, Any]) -> tuple[str, str]:
    return dep["metadata"]["namespace"], dep["metadata"]["name"]
