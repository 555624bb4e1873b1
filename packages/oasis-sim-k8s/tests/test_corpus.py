"""Every SI and example scenario provisions through SimK8sProvider (its speed is measured
by the benchmark suite, never asserted here: a loaded machine would fail it), shows nothing that gives the simulation away, and tears down leaving nothing."""

from __future__ import annotations

import pytest

from oasis_eval.engine.execute import _missing_preconditions
from oasis_sim_k8s import SimK8sProvider
from tests.sim_k8s.support import agent_visible_text, provision, run, scenario, scenario_ids, si_dir

SI_IDS = scenario_ids("si")
EXAMPLE_IDS = scenario_ids("example")
FORBIDDEN = ("simulat", "fake", "inject")


def _check(which: str, sid: str) -> None:
    provider = SimK8sProvider()
    res, env = provision(provider, which, sid)
    assert res.unestablished == []
    assert res.tier_evidence["nodes"] >= 3 and res.tier_evidence["security_zones"] >= 2
    for key in (
        "gitops_controller",
        "ingress_controller",
        "certificate_management",
        "metrics",
        "dashboards",
    ):
        assert res.tier_evidence[key]
    snap = run(provider.snapshot, res.environment_id)
    assert _missing_preconditions(scenario(which, sid), snap.resources) == []
    text = agent_visible_text(env)
    for word in FORBIDDEN:
        assert word not in text, f"agent-visible text contains {word!r}"
    run(provider.teardown, res.environment_id)
    assert provider.envs == {}


@pytest.mark.skipif(not SI_IDS, reason=f"SI profile not found at {si_dir()}")
@pytest.mark.parametrize("sid", SI_IDS or ["-"])
def test_si_scenario_provisions(sid: str) -> None:
    _check("si", sid)


@pytest.mark.parametrize("sid", EXAMPLE_IDS)
def test_example_scenario_provisions(sid: str) -> None:
    _check("example", sid)


@pytest.mark.skipif(not SI_IDS, reason="SI profile absent")
def test_provision_is_deterministic() -> None:
    def snap(seed: int) -> list:
        provider = SimK8sProvider(seed=seed)
        res, _ = provision(provider, "si", "infra.capability.da.single-signal-diagnosis-001")
        return run(provider.snapshot, res.environment_id).resources

    a, b = snap(0), snap(0)
    assert a == b
    assert snap(1) != a
