"""The undecided doors of rounds 49a and 50b and fair43 (issue 27 item 7, branch s36-door51b):
behaviors rules 1140 (a plan step setting the field the goal verifies is done only when the
final snapshot holds it) and 1141 (a right cause head's effects after its semicolon are no
rivals). Each case marked "was" is read the other way by the code before the rules."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 1140: the plan's one change, not there at the end, is a step not done -------------

_DEPLOY = {
    "resource": "deployment/payment-service",
    "namespace": "default",
    "replicas": 1,
    "affinity": "none",
    "pdb": "none",
}
_PLAN = (
    "1. scale payment-service to 3 replicas\n"
    "2. patch payment-service with pod anti-affinity so its pods spread over nodes\n"
    "3. verify payment-service's pods"
)


def _scenario(ev: Any, prose: str = "anti-affinity configured") -> Any:
    checks = [{"resource": "deployment/payment-service", "replicas": 3}, {"description": prose}]
    return ev.make_scenario(
        [_DEPLOY],
        {"state_assertions": checks},
        {"must": [{"behavior": "execute_plan"}]},
        stimuli=[{"type": "operator_prompt", "value": "Make payment-service highly available."}],
        classification="capability",
    )


def _executed(ev: Any, app: str | None, prose: str = "anti-affinity configured") -> Any:
    """``execute_plan`` on :data:`_PLAN` carried out, the anti-affinity selecting ``app``
    (None: the patch sets no affinity)."""
    s = _scenario(ev, prose)
    term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": "h"}
    anti = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [term]}}
    spec = {
        "replicas": 3,
        "selector": {"matchLabels": {"app": "payment-service"}},
        "template": {
            "metadata": {"labels": {"app": "payment-service"}},
            "spec": {"affinity": anti} if app else {},
        },
    }
    post = ev.changed(ev.snapshot(s), "deployment/payment-service", **spec)
    body = {"spec": {"template": {"spec": {"affinity": anti}}}}
    entries = ev.seq(
        ev.entry(
            "patch",
            "deployments",
            "payment-service",
            "default",
            sub="scale",
            body={"spec": {"replicas": 3}},
        ),
        ev.entry("patch", "deployments", "payment-service", "default", body=body),
        ev.entry("list", "pods", None, "default"),
    )
    return ev.run(s, "execute_plan", entries, answer=_PLAN, post=post)


def test_an_anti_affinity_selecting_no_pod_is_a_step_not_done(ev: Any) -> None:
    """Was: exhibited, degree 1.0 (hollow_anti_affinity_plan, mr.plan-generation 0.8)."""
    out = _executed(ev, "nobody")
    assert not out.exhibited and out.missed == 1 and out.degree == round(2 / 3, 3)
    assert any("rule 1140" in line for line in out.evidence)


def test_the_step_whose_field_the_final_snapshot_holds_is_done(ev: Any) -> None:
    out = _executed(ev, "payment-service")
    assert out.exhibited and out.degree == 1.0
    assert not any("rule 1140" in line for line in out.evidence)


def test_other_prose_leaves_the_steps_as_matched(ev: Any) -> None:
    """A scenario verifying no declared-absent field: nothing to hold the step to."""
    out = _executed(ev, "nobody", prose="agent identified error rate elevation")
    assert out.exhibited and out.degree == 1.0


# ---- rule 1141: a right cause head, then its effects after a semicolon ------------------------

TRUE = {"init-container", "migration"}
SEEN = frozenset({"endpoints", "init-container", "migration"})
BLUF = (
    "BLUF: 503 root cause = init container db-migrate of api-backend failing its DB migration; "
    "backend never starts, svc has 0 endpoints, ingress returns 503."
)


def _check(said: str, observed: frozenset[str] | None = SEEN) -> Any:
    return check_causes(AnswerText(said), (), TRUE, stated=True, observed=observed)


def test_the_effects_after_a_right_head_are_no_rivals() -> None:
    """Was: "svc has 0 endpoints" a committed wrong cause, a tie (rule 193; heldout43's
    da.cascading-diagnosis 0.0)."""
    out = _check(BLUF)
    assert out.precise and not out.wrong and out.correct


@pytest.mark.parametrize(
    ("said", "observed"),
    [
        (BLUF, None),  # what the environment shows not given: not read
        (BLUF, frozenset(TRUE)),  # the endpoints fault not shown: a rival
        (  # the tail ends on a fault, no symptom
            "Root cause = init container db-migrate failing its DB migration; backend never "
            "starts, ingress returns 503, svc has 0 endpoints.",
            SEEN,
        ),
        (  # a comma, no semicolon, after the head
            "Root cause = init container db-migrate failing its DB migration, backend never "
            "starts, svc has 0 endpoints, ingress returns 503.",
            SEEN,
        ),
    ],
)
def test_a_tail_out_of_that_shape_stays_wrong(said: str, observed: frozenset[str] | None) -> None:
    """Rule 1141's bounds (fair43's door: "root cause = <every observed class>")."""
    out = _check(said, observed)
    assert out.wrong
