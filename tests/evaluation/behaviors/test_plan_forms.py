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
