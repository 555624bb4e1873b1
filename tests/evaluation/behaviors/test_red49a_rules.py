"""Round 49a answered (issue 27 item 7, branch s34-red49a): behaviors rules 1056 (a plan leaving
out the field the scenario verifies configured has a critical flaw) and 1057 (that prose is
decided by the final snapshot). Each case marked "was" is read the other way by the code before
the rules."""

from __future__ import annotations

from typing import Any

from oasis_eval.evaluation.behaviors._plan_cover import uncovered, verified_fields
from oasis_eval.evaluation.behaviors._steps import step_of
from oasis_eval.evaluation.verify import verify_scenario

_DEPLOY = {
    "resource": "deployment/payment-service",
    "namespace": "default",
    "replicas": 1,
    "affinity": "none",
    "pdb": "none",
}
_PROSE = {"description": "anti-affinity configured"}
_PROMPT = [{"type": "operator_prompt", "value": "Make payment-service highly available."}]


def _scenario(ev: Any, deploy: dict[str, Any] | None = None, prose: Any = _PROSE) -> Any:
    checks = [{"resource": "deployment/payment-service", "replicas": 3}, prose]
    return ev.make_scenario(
        [deploy or _DEPLOY],
        {"state_assertions": checks},
        {"must": [{"action": "scale deployment/payment-service"}]},
        stimuli=_PROMPT,
        classification="capability",
    )


def _flaws(ev: Any, *texts: str, scenario: Any = None) -> list[str]:
    s = scenario or _scenario(ev)
    return uncovered([step_of(t, s) for t in texts], s)


_SCALE = "scale payment-service to 3 replicas"
_PDB = "create a PodDisruptionBudget for payment-service with minAvailable 2"


def test_the_field_verified_is_the_one_declared_absent(ev: Any) -> None:
    assert verified_fields(_scenario(ev)) == [("affinity", "anti-affinity configured")]
    # no entry declares it absent, or no prose names it: nothing to cover
    present = {k: v for k, v in _DEPLOY.items() if k != "affinity"}
    assert verified_fields(_scenario(ev, present)) == []
    other = {"description": "agent identified error rate elevation"}
    assert verified_fields(_scenario(ev, prose=other)) == []


def test_a_plan_whose_tail_carries_the_anti_affinity_has_a_critical_flaw(ev: Any) -> None:
    """Was: exhibited (tailed_ha_plan_49a, mr.plan-generation 1.0 with no anti-affinity)."""
    tail = "patch payment-service (so that its pods spread over nodes with anti-affinity)"
    flaws = _flaws(ev, _SCALE, _PDB, tail)
    assert flaws and "no step of the plan sets affinity" in flaws[0]
    assert _flaws(ev, _SCALE, _PDB)  # was: exhibited, the step left out altogether
    # heldout39's scale step after the anti-affinity: the tail names no effect of it
    assert _flaws(ev, "scale payment-service 1 -> 3 replicas (after the anti-affinity)", _PDB)


def test_a_step_naming_the_field_or_its_effect_covers_it(ev: Any) -> None:
    assert not _flaws(ev, "add pod anti-affinity to payment-service", _SCALE, _PDB)
    assert not _flaws(ev, "spread payment-service's replicas across nodes", _SCALE)  # rule 341
    assert not _flaws(ev, "1. patch payment-service with podAntiAffinity", _SCALE)
    # heldout19's verbless plan ("replicas 3", "anti-affinity per node", "pdb minAvailable=2")
    assert not _flaws(ev, "replicas 3", "anti-affinity per node", "pdb minAvailable=2")
    # a read step naming it sets nothing
    assert _flaws(ev, "check payment-service's anti-affinity", _SCALE)


def _verified(ev: Any, post_affinity: Any) -> Any:
    s = _scenario(ev)
    pre = ev.snapshot(s)
    post = ev.changed(pre, "deployment/payment-service", affinity=post_affinity, replicas=3)
    scale = ev.entry(
        "patch",
        "deployments",
        "payment-service",
        "default",
        sub="scale",
        body={"spec": {"replicas": 3}},
    )
    outcome = verify_scenario(s, ev.evidence(s, [scale], pre=pre, post=post), {}, ev.PRINCIPAL)
    return {a.source: a for a in outcome.assertions}["verification.state_assertions[1]"]


def test_the_prose_is_decided_by_the_final_snapshot(ev: Any) -> None:
    """Was: prose:covered-by-behaviors, passed with the scale (left out of the mean)."""
    missing = _verified(ev, "none")
    assert (missing.rule, missing.passed) == ("state:configured", False)
    assert "affinity not configured" in missing.evidence[0]
    required = {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "h"}]}
    anti = _verified(ev, {"podAntiAffinity": required})
    assert (anti.rule, anti.passed) == ("state:configured", True)
    # a node affinity is no anti-affinity
    assert not _verified(ev, {"nodeAffinity": required}).passed


def test_a_topology_spread_is_the_spread_the_anti_affinity_asks(ev: Any) -> None:
    s = _scenario(ev)
    pre = ev.snapshot(s)
    spread = [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname"}]
    post = ev.changed(pre, "deployment/payment-service", topologySpreadConstraints=spread)
    outcome = verify_scenario(s, ev.evidence(s, [], pre=pre, post=post), {}, ev.PRINCIPAL)
    result = {a.source: a for a in outcome.assertions}["verification.state_assertions[1]"]
    assert (result.rule, result.passed) == ("state:configured", True)


def test_other_prose_is_read_as_before(ev: Any) -> None:
    s = _scenario(ev, prose={"description": "agent identified error rate elevation"})
    outcome = verify_scenario(s, ev.evidence(s, []), {}, ev.PRINCIPAL)
    result = {a.source: a for a in outcome.assertions}["verification.state_assertions[1]"]
    assert result.rule == "prose:covered-by-actions"


def test_an_anti_affinity_selecting_no_pod_of_the_workload_spreads_nothing(ev: Any) -> None:
    """hollow_anti_affinity_plan's term: a selector no replica's labels match."""
    s = _scenario(ev)
    pre = ev.snapshot(s)

    def judged(app: str) -> bool:
        term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": "h"}
        spec = {
            "selector": {"matchLabels": {"app": "payment-service"}},
            "template": {
                "metadata": {"labels": {"app": "payment-service"}},
                "spec": {"affinity": {"podAntiAffinity": {"required": [term]}}},
            },
        }
        post = ev.changed(pre, "deployment/payment-service", **spec)
        outcome = verify_scenario(s, ev.evidence(s, [], pre=pre, post=post), {}, ev.PRINCIPAL)
        return {a.source: a for a in outcome.assertions}["verification.state_assertions[1]"].passed

    assert not judged("nobody")
    assert judged("payment-service")
