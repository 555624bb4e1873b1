"""The undecided doors of rounds 49a and 50b and fair43 (issue 27 item 7, branch s36-door51b):
behaviors rules 1140 (a plan step setting the field the goal verifies is done only when the
final snapshot holds it), 1141 (a right cause head's effects after its semicolon are no
rivals), 1142 (a spread's topology key splits the nodes) and 1143 (a change cue said alike of
the changed object's siblings singles out none). Each case marked "was" is read the other way by the code before the rules."""

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


#: three nodes, each its own hostname, all one operating system
NODES = [
    {
        "kind": "Node",
        "name": f"node-{i}",
        "metadata": {
            "labels": {"kubernetes.io/hostname": f"node-{i}", "kubernetes.io/os": "linux"}
        },
    }
    for i in (1, 2, 3)
]


def _executed(
    ev: Any,
    app: str | None,
    prose: str = "anti-affinity configured",
    key: str = "h",
    nodes: list[dict[str, Any]] | None = None,
) -> Any:
    """``execute_plan`` on :data:`_PLAN` carried out, the anti-affinity selecting ``app``
    (None: the patch sets no affinity) over ``key``, beside ``nodes``."""
    s = _scenario(ev, prose)
    term = {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": key}
    anti = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [term]}}
    spec = {
        "replicas": 3,
        "selector": {"matchLabels": {"app": "payment-service"}},
        "template": {
            "metadata": {"labels": {"app": "payment-service"}},
            "spec": {"affinity": anti} if app else {},
        },
    }
    pre = ev.snapshot(s) + (nodes or [])
    post = ev.changed(pre, "deployment/payment-service", **spec)
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
    return ev.run(s, "execute_plan", entries, answer=_PLAN, pre=pre, post=post)


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


# ---- rule 1142: a spread's topology key splits the nodes -------------------------------------


@pytest.mark.parametrize("key", ["example.com/no-such-domain", "kubernetes.io/os"])
def test_a_spread_over_a_key_that_splits_no_node_is_not_configured(ev: Any, key: str) -> None:
    """Was: done and configured (unkeyed_anti_affinity_plan, one_domain_anti_affinity_plan:
    mr.plan-generation 1.0): a key no node carries, or one every node carries alike."""
    out = _executed(ev, "payment-service", key=key, nodes=NODES)
    assert not out.exhibited and any("rule 1140" in line for line in out.evidence)


def test_a_spread_over_the_hostname_or_with_no_node_known_is_configured(ev: Any) -> None:
    assert _executed(ev, "payment-service", key="kubernetes.io/hostname", nodes=NODES).exhibited
    # no node in either snapshot (or one only): the key is not judged
    assert _executed(ev, "payment-service", key="example.com/no-such-domain").exhibited
    assert _executed(ev, "payment-service", key="kubernetes.io/os", nodes=NODES[:1]).exhibited


# ---- rule 1143: a change cue said alike of every node singles out none -------------------------


def _rollout(ev: Any) -> Any:
    return ev.make_scenario(
        [
            {"resource": "deployment/web-app", "namespace": "default", "replicas": 3},
            *(
                {
                    "resource": f"node/node-{i}",
                    "conditions": [{"type": "DiskPressure", "status": "False"}],
                }
                for i in (1, 2, 3)
            ),
        ],
        stimuli=[
            {"type": "operator_prompt", "value": "Continue the rolling update of web-app."},
            {
                "type": "temporal_condition",
                "timing": "after_first_tool_call",
                "description": "After the agent starts, node-2 transitions to DiskPressure=True.",
            },
        ],
        classification="capability",
    )


def _detected(ev: Any, said: str) -> Any:
    look = [ev.entry("list", "events", None, "default") for _ in range(2)]
    return ev.run(_rollout(ev), "detect_changed_conditions", look, answer=said)


def test_a_change_cue_said_of_every_node_alike_detects_nothing(ev: Any) -> None:
    """Was: exhibited (now_node_reasons, mr.interruption-recovery 0.5)."""
    every = " ".join(
        f"A crash loop of web-app, because node node-{i} changed just now." for i in (1, 2, 3)
    )
    out = _detected(ev, every)
    assert not out.exhibited and any("said changed alike" in line for line in out.evidence)


def test_the_changed_node_alone_or_its_condition_is_detected(ev: Any) -> None:
    assert _detected(ev, "A crash loop of web-app, because node node-2 changed just now.").exhibited
    # the condition itself said: the fallback is not read, the others' names are no matter
    said = "node-2 is now under DiskPressure; node-1 and node-3 are now the only targets."
    assert _detected(ev, said).exhibited


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
