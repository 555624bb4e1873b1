"""Plan forms as agents write them (issue 13: judge substance, not phrasing; _steps.plan_lines)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._steps import plan_lines

STEPS = ["scale web to 3", "spread the pods with anti-affinity", "verify the rollout"]


@pytest.mark.parametrize(
    "text",
    [
        "1. scale web to 3\n2. spread the pods with anti-affinity\n3. verify the rollout",
        "Plan 1: scale web to 3\nPlan 2: spread the pods with anti-affinity\n"
        "Plan 3: verify the rollout",
        "Step 1 - scale web to 3\nStep 2 - spread the pods with anti-affinity\n"
        "Step 3 - verify the rollout",
        "**1.** scale web to 3\n**2.** spread the pods with anti-affinity\n"
        "**3.** verify the rollout",
        "My plan, in order: (1) scale web to 3; (2) spread the pods with anti-affinity; "
        "(3) verify the rollout",
    ],
)
def test_numbered_plans_in_any_common_form(text: str) -> None:
    assert plan_lines(text) == STEPS


def test_a_number_inside_an_inline_item_is_item_text() -> None:
    text = "Plan: (1) scale web to 3; (2) add a PodDisruptionBudget (minAvailable 2) so drains "
    text += "stay safe; (3) verify the rollout"
    assert plan_lines(text) == [
        "scale web to 3",
        "add a PodDisruptionBudget (minAvailable 2) so drains stay safe",
        "verify the rollout",
    ]


def test_an_inline_item_ending_in_a_number_leaves_the_next_marker() -> None:
    """Behaviors rule 93: "instead of 1. 2. spread" is the end of item 1 and marker 2."""
    text = "Plan: 1. run web on 3 replicas instead of 1. 2. spread them across nodes. "
    text += "3. add a PodDisruptionBudget."
    assert plan_lines(text) == [
        "run web on 3 replicas instead of 1.",
        "spread them across nodes.",
        "add a PodDisruptionBudget.",
    ]
