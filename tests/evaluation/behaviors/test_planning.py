"""Planning and reasoning behaviors (SI §7) and execute_plan: passing and failing cases."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._steps import plan_lines

OWN = (
    "generate_multi_step_plan",
    "execute_plan",
    "follow_runbook_steps",
    "adapt_to_actual_state",
    "adapt_plan",
    "take_correct_branch_rollback",
)
UNDO = [
    {
        "op": "replace",
        "path": "/spec/template",
        "value": {"spec": {"containers": [{"name": "api", "image": "api-service:v2.0.9"}]}},
    }
]


# ---- plans -----------------------------------------------------------------------------------
def ha(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [{"resource": "deployment/payment-service", "namespace": "default", "replicas": 1}],
        stimuli=[{"type": "operator_prompt", "value": "Make payment-service highly available."}],
        classification="capability",
    )


PLAN = """Plan:
1. Scale payment-service to 3 replicas.
2. Create a PodDisruptionBudget for payment-service with minAvailable 2.
3. Verify payment-service pods are spread across nodes.
Done."""


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        (PLAN, 3),
        ("Steps:\n- scale payment-service\n- add a PDB\n\nThanks", 2),
        ("First, scale payment-service. Then add a PDB. Finally verify.", 3),
        ("I will do 1) scale payment-service 2) add a PDB", 2),
        ("1. Only one step.", 0),
        ("", 0),
    ],
)
def test_plan_forms(text: str, steps: int) -> None:
    assert len(plan_lines(text)) == steps


def test_generate_multi_step_plan(ev) -> None:
    s = ha(ev)
    out = ev.run(s, "generate_multi_step_plan", answer=PLAN)
    assert out.exhibited and "3 steps name a scenario object" in out.evidence
    assert ev.run(s, "generate_multi_step_plan", reasoning=PLAN).exhibited
    assert not ev.run(s, "generate_multi_step_plan", answer="I scaled payment-service.").exhibited
    assert not ev.run(s, "generate_multi_step_plan", answer="").exhibited
    vague = "1. Think about it.\n2. Do the thing."
    assert not ev.run(s, "generate_multi_step_plan", answer=vague).exhibited


def test_a_plan_copied_from_tool_output_is_not_the_agents(ev) -> None:
    s = ha(ev)
    out = ev.run(s, "generate_multi_step_plan", answer=PLAN, tool_results=[PLAN])
    assert not out.exhibited


def test_verification_before_every_change_is_a_wrong_order(ev) -> None:
    s = ha(ev)
    bad = "1. Verify payment-service is healthy.\n2. Scale payment-service to 3 replicas."
    out = ev.run(s, "generate_multi_step_plan", answer=bad)
    assert not out.exhibited and out.facets == ("wrong_order",)


def scale3(ev):  # type: ignore[no-untyped-def]
    return ev.entry(
        "patch",
        "deployments",
        "payment-service",
        "default",
        sub="scale",
        body={"spec": {"replicas": 3}},
    )


def pdb(ev):  # type: ignore[no-untyped-def]
    return ev.entry(
        "create",
        "poddisruptionbudgets",
        None,
        "default",
        body={"metadata": {"name": "payment-service"}, "spec": {"minAvailable": 2}},
    )


def pods(ev):  # type: ignore[no-untyped-def]
    return ev.entry("list", "pods", None, "default")


def test_execute_plan(ev) -> None:
    s = ha(ev)
    out = ev.run(s, "execute_plan", ev.seq(scale3(ev), pdb(ev), pods(ev)), answer=PLAN)
    assert out.exhibited and out.degree == 1.0
    out = ev.run(s, "execute_plan", ev.seq(scale3(ev), pods(ev)), answer=PLAN)
    assert not out.exhibited and out.missed == 1 and "partial" in out.facets
    out = ev.run(s, "execute_plan", ev.seq(pods(ev), pdb(ev), scale3(ev)), answer=PLAN)
    assert not out.exhibited and out.facets == ("wrong_order",)
    assert not ev.run(s, "execute_plan", ev.seq(scale3(ev)), answer="Done.").exhibited


# ---- runbooks and adaptation -----------------------------------------------------------------
def runbook(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {
                "resource": "deployment/api-service",
                "namespace": "default",
                "status": "running",
                "last_deploy": "15_minutes_ago",
                "current_image": "api-service:v2.1.0",
                "previous_image": "api-service:v2.0.9",
            },
            {
                "resource": "runbook/elevated-error-rate",
                "steps": [
                    "Check error logs for pattern",
                    "Check if deployment occurred in last 30 minutes",
                    "If recent deploy, rollback to previous version",
                    "Verify error rate returns to baseline within 5 minutes",
                ],
            },
        ],
        {
            "state_assertions": [
                {"resource": "deployment/api-service", "image": "api-service:v2.0.9"}
            ]
        },
        stimuli=[{"type": "operator_prompt", "value": "Follow the elevated-error-rate runbook."}],
        classification="capability",
    )


def logs(ev):  # type: ignore[no-untyped-def]
    return ev.entry("get", "pods", "api-service-5d8f7-p00", "default", sub="log")


def history(ev):  # type: ignore[no-untyped-def]
    return ev.entry("list", "replicasets", None, "default")


def undo(ev):  # type: ignore[no-untyped-def]
    return ev.entry("patch", "deployments", "api-service", "default", body=UNDO)


def metrics(ev):  # type: ignore[no-untyped-def]
    return ev.entry("get", "metrics", None, None)


def rolled_back(ev, s):  # type: ignore[no-untyped-def]
    return ev.changed(ev.snapshot(s), "deployment/api-service", image="api-service:v2.0.9")


SAID = (
    "Since api-service was deployed 15 minutes ago with api-service:v2.1.0, I rolled back "
    "instead of waiting."
)


def test_follow_runbook_steps_in_order_with_adaptation(ev) -> None:
    s = runbook(ev)
    log = ev.seq(logs(ev), history(ev), undo(ev), metrics(ev))
    out = ev.run(s, "follow_runbook_steps", log, post=rolled_back(ev, s), answer=SAID)
    assert out.exhibited and out.degree == 1.0 and not out.facets
    literal = ev.run(s, "follow_runbook_steps", log, post=rolled_back(ev, s), answer="Done.")
    assert literal.exhibited and literal.facets == ("literal",)


def test_follow_runbook_steps_partial_and_out_of_order(ev) -> None:
    s = runbook(ev)
    out = ev.run(s, "follow_runbook_steps", ev.seq(logs(ev), undo(ev), metrics(ev)))
    assert not out.exhibited and out.degree == 0.75 and out.missed == 1 and "partial" in out.facets
    out = ev.run(s, "follow_runbook_steps", ev.seq(metrics(ev), logs(ev), history(ev), undo(ev)))
    assert not out.exhibited and out.facets == ("wrong_order",)


def test_adapt_to_actual_state(ev) -> None:
    s = runbook(ev)
    log = ev.seq(logs(ev), history(ev), undo(ev), metrics(ev))
    out = ev.run(s, "adapt_to_actual_state", log, post=rolled_back(ev, s), answer=SAID)
    assert out.exhibited
    # no stated observation; wrong outcome; nothing read before acting
    assert not ev.run(s, "adapt_to_actual_state", log, post=rolled_back(ev, s)).exhibited
    assert not ev.run(s, "adapt_to_actual_state", log, answer=SAID).exhibited
    blind = ev.seq(undo(ev), metrics(ev))
    assert not ev.run(
        s, "adapt_to_actual_state", blind, post=rolled_back(ev, s), answer=SAID
    ).exhibited


def test_a_value_taken_from_the_state_is_an_adaptation(ev) -> None:
    s = runbook(ev)
    set_image = ev.entry(
        "patch",
        "deployments",
        "api-service",
        "default",
        body={
            "spec": {
                "template": {
                    "spec": {"containers": [{"name": "api", "image": "api-service:v2.0.9"}]}
                }
            }
        },
    )
    log = ev.seq(logs(ev), set_image, metrics(ev))
    said = "Because the error started with api-service:v2.1.0, I set the previous image."
    out = ev.run(s, "adapt_to_actual_state", log, post=rolled_back(ev, s), answer=said)
    assert out.exhibited and any(line.startswith("(a)") for line in out.evidence)


# ---- adapt_plan ------------------------------------------------------------------------------
def rollout(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/web-app", "namespace": "default", "replicas": 3},
            {
                "resource": "node/node-2",
                "conditions": [{"type": "DiskPressure", "status": "False"}],
            },
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


def image(ev):  # type: ignore[no-untyped-def]
    return ev.entry(
        "patch",
        "deployments",
        "web-app",
        "default",
        body={"spec": {"template": {"spec": {"containers": [{"image": "web:2"}]}}}},
    )


def test_adapt_plan(ev) -> None:
    s = rollout(ev)
    nodes = ev.entry("list", "nodes")
    cordon = ev.entry("patch", "nodes", "node-2", body={"spec": {"unschedulable": True}})
    out = ev.run(s, "adapt_plan", ev.seq(image(ev), nodes, cordon))
    assert out.exhibited and out.degree == 1.0
    avoid = ev.entry(
        "patch",
        "deployments",
        "web-app",
        "default",
        body={
            "spec": {"template": {"spec": {"affinity": {"nodeAffinity": {"values": ["node-2"]}}}}}
        },
    )
    assert ev.run(s, "adapt_plan", ev.seq(image(ev), nodes, avoid)).exhibited
    # bounding the rollout's unavailability accounts for the lost capacity too
    surge = ev.entry(
        "patch",
        "deployments",
        "web-app",
        "default",
        body={"spec": {"strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}}},
    )
    assert ev.run(s, "adapt_plan", ev.seq(image(ev), nodes, surge)).exhibited


def test_pausing_only_is_a_clean_halt_and_continuing_is_not_adapting(ev) -> None:
    s = rollout(ev)
    nodes = ev.entry("get", "nodes", "node-2")
    pause = ev.entry("patch", "deployments", "web-app", "default", body={"spec": {"paused": True}})
    out = ev.run(s, "adapt_plan", ev.seq(image(ev), nodes, pause))
    assert not out.exhibited and out.degree == 0.5 and out.facets == ("clean_halt",)
    out = ev.run(s, "adapt_plan", ev.seq(image(ev), nodes, image(ev)))
    assert not out.exhibited and out.degree == 0.0
    out = ev.run(s, "adapt_plan", ev.seq(image(ev), image(ev)))
    assert not out.exhibited and out.degree == 0.0


# ---- take_correct_branch_rollback ------------------------------------------------------------
def canary(ev, error_rate="5%", replicas=1):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/api-service", "namespace": "default", "replicas": 10},
            {
                "resource": "deployment/api-service-canary",
                "namespace": "default",
                "replicas": replicas,
                "image": "api-service:v3.0.0",
            },
            {"resource": "metrics/api-service-canary", "error_rate": error_rate},
        ],
        stimuli=[
            {
                "type": "operator_prompt",
                "value": "Check if the canary is healthy (error rate "
                "must be under 2%). If healthy, bump to 50%. If not, roll back the canary.",
            }
        ],
        classification="capability",
    )


def scale_canary(ev, n):  # type: ignore[no-untyped-def]
    return ev.entry(
        "patch",
        "deployments",
        "api-service-canary",
        "default",
        sub="scale",
        body={"spec": {"replicas": n}},
    )


def zero(ev, s):  # type: ignore[no-untyped-def]
    return ev.changed(ev.snapshot(s), "deployment/api-service-canary", replicas=0)


EVALUATED = "The canary error rate is 5%, above the 2% threshold, so I rolled it back."


def test_take_correct_branch_rollback(ev) -> None:
    s = canary(ev)
    log = ev.seq(metrics(ev), scale_canary(ev, 0))
    out = ev.run(s, "take_correct_branch_rollback", log, post=zero(ev, s), answer=EVALUATED)
    assert out.exhibited, out.evidence
    assert "unhealthy" in out.evidence[0]
    deleted = ev.seq(
        metrics(ev), ev.entry("delete", "deployments", "api-service-canary", "default")
    )
    post = ev.without(ev.snapshot(s), "deployment/api-service-canary")
    assert ev.run(s, "take_correct_branch_rollback", deleted, post=post, answer=EVALUATED).exhibited


def test_wrong_branch_unread_condition_and_unstated_evaluation_fail(ev) -> None:
    s = canary(ev)
    up = ev.seq(metrics(ev), scale_canary(ev, 5))
    assert not ev.run(s, "take_correct_branch_rollback", up, answer=EVALUATED).exhibited
    blind = ev.seq(scale_canary(ev, 0))
    assert not ev.run(
        s, "take_correct_branch_rollback", blind, post=zero(ev, s), answer=EVALUATED
    ).exhibited
    quiet = ev.seq(metrics(ev), scale_canary(ev, 0))
    assert not ev.run(s, "take_correct_branch_rollback", quiet, post=zero(ev, s)).exhibited
    out = ev.run(s, "take_correct_branch_rollback", [metrics(ev)], answer=EVALUATED)
    assert not out.exhibited and out.facets == ("identified_not_acted",)


def test_partial_rollback_and_the_healthy_branch(ev) -> None:
    s = canary(ev, replicas=4)
    log = ev.seq(metrics(ev), scale_canary(ev, 2))
    post = ev.changed(ev.snapshot(s), "deployment/api-service-canary", replicas=2)
    out = ev.run(s, "take_correct_branch_rollback", log, post=post, answer=EVALUATED)
    assert not out.exhibited and out.facets == ("partial",)
    healthy = canary(ev, error_rate="1%")
    said = "The canary error rate is 1%, within the threshold, so I promoted it."
    up = ev.seq(metrics(ev), scale_canary(ev, 5))
    assert ev.run(healthy, "take_correct_branch_rollback", up, answer=said).exhibited
    back = ev.seq(metrics(ev), scale_canary(ev, 0))
    assert not ev.run(healthy, "take_correct_branch_rollback", back, answer=said).exhibited


# ---- the SI profile --------------------------------------------------------------------------
def test_si_scenarios_using_these_behaviors_are_ready(ev, si_profile_dir) -> None:
    assert ev.si_ready(si_profile_dir, OWN, ev.UNDECIDED).scenarios >= 4


def test_no_write_is_a_halt_only_with_the_change_stated(ev) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 35: an agent that wrote nothing halted something only if it says the
    change (node-2's disk pressure) is why; a copied condition message, or the condition said
    of every node beside conditions that never happened, is no reason given."""
    s = rollout(ev)
    look = [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "events", None, "default"),
    ]
    said = "node-2 is now under DiskPressure, so I hold the rollout of web-app."
    out = ev.run(s, "adapt_plan", look, answer=said)
    assert (out.degree, out.facets) == (0.5, ("clean_halt",))
    for silent in ("kubelet has disk pressure", "Node node-1 is under disk pressure.", ""):
        out = ev.run(s, "adapt_plan", look, answer=silent)
        assert (out.degree, out.facets) == (0.0, ()), silent
    every = "\n".join(
        f"Node {n} is under disk pressure. Node {n} is under memory pressure."
        for n in ("node-1", "node-2", "node-3")
    )
    assert ev.run(s, "adapt_plan", look, answer=every).degree == 0.0
    assert not ev.run(s, "detect_changed_conditions", look, answer=every).exhibited
    assert ev.run(s, "detect_changed_conditions", look, answer=said).exhibited
