"""A controller pass on a cluster that holds what it held when its last pass changed nothing
is skipped whole (issue 30, session 13, ``settled.quiet``): the agent's calls each ran one, and
most clusters are quiet between two writes. The copies of ``test_settled.py`` (one skipping,
one re-deriving everything at every pass) are driven through what may end the quiet without
a store write (a hidden fact, a Job the controller completes later, time passing) and compared
after every step."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import settled, workloads
from oasis_sim_k8s.injection.environment import PROVIDER_USER
from tests.sim_k8s.support import provision, scenario_ids

from .env_digest import digest
from .test_settled import Step, _unready, _wait, _workloads, incremental

#: a cluster with no crash loop (the failing decoy sidecar included), HPA or GitOps Application:
#: quiet once provisioned
QUIET = "infra.safety.do.unqualified-destruction-001"


def _quiet_env() -> Any:
    if QUIET not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", QUIET)
    env.advance(1)
    env.advance(1)
    return env


def _job(ns: str) -> Step:
    """A Job the controller runs: it completes JOB_RUN_S simulated seconds after it starts,
    with no write in between that would end the quiet."""

    def step(env: Any) -> None:
        body = {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": "quiet-probe", "namespace": ns},
            "spec": {
                "template": {
                    "spec": {
                        "restartPolicy": "Never",
                        "containers": [{"name": "probe", "image": "busybox:1.36"}],
                    }
                }
            },
        }
        assert env.api.request(PROVIDER_USER, "create", "jobs", ns, body=body).ok

    return step


def test_a_quiet_cluster_is_not_reconciled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    env = _quiet_env()
    assert settled.memo(env).quiet is not None
    passes: list[int] = []
    real = workloads.reconcile_all
    monkeypatch.setattr(workloads, "reconcile_all", lambda e: passes.append(1) or real(e))
    env.advance(1)
    env.advance(30)
    assert passes == []
    ns, name = _workloads(env)[0]
    _unready(ns, name)(env)  # a hidden fact moved: the next pass runs
    env.advance(1)
    assert passes


def test_skipping_quiet_passes_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    with incremental(True):
        fast = _quiet_env()
    with incremental(False):
        full = _quiet_env()
    assert digest(fast) == digest(full)
    ns, name = _workloads(full)[0]
    steps = [_wait(1), _wait(30), _job(ns), _wait(1), _wait(1), _wait(5), _wait(1), _wait(60)]
    steps += [_unready(ns, name), _wait(1), _wait(2)]
    skipped: list[bool] = []
    real = settled.still_quiet

    def counted(env: Any, memo: Any) -> bool:
        out = real(env, memo)
        skipped.append(out)
        return out

    monkeypatch.setattr(settled, "still_quiet", counted)
    for i, step in enumerate(steps):
        with incremental(True):
            step(fast)
        with incremental(False):
            step(full)
        assert digest(fast) == digest(full), f"step {i}"
    done = next(j for j in fast.store.iter("jobs", ns) if j["metadata"]["name"] == "quiet-probe")
    assert done["status"].get("completionTime")  # the Job completed through the quiet passes
    assert skipped.count(True) >= 3


def test_a_passing_horizon_ends_the_quiet() -> None:
    """A settled rollout still progressing holds only until its deadline (``rollout_horizon``):
    the quiet ends with it, tested as ``Memo.skip`` tests it."""
    env = _quiet_env()
    memo = settled.memo(env)
    assert memo.quiet is not None and settled.still_quiet(env, memo)
    now = env.clock.seconds()
    memo.quiet = memo.quiet._replace(horizons=((now - 10.0, 10.0),))
    assert settled.still_quiet(env, memo)
    env.clock.advance(1000)
    assert not settled.still_quiet(env, memo)


def test_a_fingerprint_is_the_values_and_types_alone() -> None:
    """Facts compare as their repr compares them: by value and type, never by how the
    value is held (marshal's version 4 marks objects held twice, so the same facts gave
    other bytes after an unrelated reference came or went)."""
    shared = ["a", "b"]
    held_twice = {"x": shared, "y": shared, "n": 1}
    apart = {"x": ["a", "b"], "y": ["a", "b"], "n": 1}
    assert settled.fingerprint(held_twice) == settled.fingerprint(apart)
    for other in ({**apart, "n": 1.0}, {**apart, "n": True}, {"y": apart["y"], "x": apart["x"]}):
        assert settled.fingerprint(other) != settled.fingerprint(apart)

    class Tagged(dict[str, int]):
        pass

    assert settled.fingerprint(Tagged(n=1)) == repr({"n": 1})  # what marshal cannot write
