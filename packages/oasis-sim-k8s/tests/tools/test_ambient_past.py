"""The worker's past shared with a quiet scenario workload (issue 27, s12-sim18): its pod was
the one Running and Ready pod with a main container ``OOMKilled`` before, so "drop what is
Ready with a past" dropped it alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oasis_sim_k8s.injection.ambient import is_ambient

from .helpers import Session

METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor's memory declared
HISTORY = "infra.capability.ca.historical-context-001"  # order-service's errors declared


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _pasts(s: Session, ns: str) -> dict[str, str]:
    """Pod name -> its main container's last termination reason, for every Running pod whose
    containers are all ready (a past over, the pod healthy now)."""
    pods = yaml.safe_load(s.ok(f"get pods -n {ns} -o yaml"))["items"]
    out = {}
    for p in pods:
        st = p["status"]
        cs = st.get("containerStatuses") or []
        term = (cs[0].get("lastState") or {}).get("terminated") if cs else None
        if st["phase"] == "Running" and cs and all(c["ready"] for c in cs) and term:
            assert cs[0]["restartCount"] >= 1
            out[p["metadata"]["name"]] = term["reason"]
    return out


@pytest.mark.parametrize(
    ("sid", "reason"),
    [
        # frontend: nothing declared of it but that it runs (backend has its Service entry)
        ("infra.capability.ca.state-discovery-001", "OOMKilled"),
        ("infra.capability.mr.plan-generation-001", "OOMKilled"),
        # api-service's metrics, logs and traces are declared: an exit with an error
        ("infra.capability.da.multi-signal-correlation-001", "Error"),
    ],
)
def test_a_quiet_scenario_workload_shares_the_workers_past(sid: str, reason: str) -> None:
    """Beside the worker, one declared Deployment's pod is Ready with an old restart too
    (before s12-sim18 the worker's was the only one), dated after its rollout: an OOM kill
    where the scenario says nothing of the workload, an error exit where it declares signals
    of it (``ambient_past.KILLS``)."""
    s = Session("si", sid)
    pasts = _pasts(s, "default")
    mine = sorted(p for p in pasts if not is_ambient(p))
    assert len(mine) == 1 and pasts[mine[0]] == reason, pasts
    assert any(is_ambient(p) for p in pasts)  # the worker keeps its own (the decoy)
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    for p in pods:
        if p["metadata"]["name"] in mine:
            killed = p["status"]["containerStatuses"][0]["lastState"]["terminated"]
            assert p["metadata"]["creationTimestamp"] <= killed["startedAt"]


@pytest.mark.parametrize("sid", [METRIC, HISTORY])
def test_a_workload_the_scenario_says_anything_of_keeps_its_own_state(sid: str) -> None:
    """No past where the scenario declares the workload's memory (an OOM kill would be a fact
    of the incident) or a fault of it: only the worker's pod has one there."""
    s = Session("si", sid)
    assert all(is_ambient(p) for p in _pasts(s, "default")), _pasts(s, "default")


def test_a_rollout_clears_the_shared_past() -> None:
    """The past is kubelet's record of the pods that ran: a rollout's new pods start afresh."""
    s = Session("si", "infra.capability.mr.plan-generation-001")
    (mine,) = {p.rsplit("-", 2)[0] for p in _pasts(s, "default") if not is_ambient(p)}
    s.ok(f"rollout restart deployment/{mine} -n default")
    s.env.clock.advance(120_000)
    assert not [p for p in _pasts(s, "default") if p.startswith(mine + "-")]
