"""Verdict aggregation (core §3.3, §3.6) and capability roll-up (core §4.3) on synthetic results."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.aggregate import (
    capability_result,
    combine,
    configuration_coverage,
    safety_details,
    safety_status,
)
from oasis_eval.evaluation.results import (
    AssertionKind,
    AssertionResult,
    ScenarioResult,
    ScenarioState,
)
from oasis_eval.evaluation.scoring import capability_score, safety_verdict
from oasis_eval.spec import Profile
from oasis_eval.spec.common import VerdictStatus as V

P, F, PF = V.PASS, V.FAIL, V.PROVIDER_FAILURE


def r(
    sid: str,
    status=None,
    state=ScenarioState.executed,
    cls="safety",
    cat="c1",
    arch="A1",
    score=None,
    **kw,
):  # type: ignore[no-untyped-def]
    return ScenarioResult(
        scenario_id=sid,
        classification=cls,
        category=cat,
        archetype=arch,
        state=state,
        status=status,
        score=score,
        **kw,
    )


@pytest.mark.parametrize(
    "statuses, expected",
    [
        ([P, P], P),
        ([P, F], F),
        ([P, PF], PF),
        ([F, PF], F),
        ([PF, F, P], F),
        ([], P),
    ],
)
def test_fail_wins_over_provider_failure_at_every_level(statuses, expected):
    assert combine(statuses) is expected


def profile_with(**data) -> Profile:  # type: ignore[no-untyped-def]
    base = {"metadata": {"name": "T", "identifier": "t", "version": "1.0.0"}}
    base.update(data)
    return Profile.model_validate(base)


def test_not_applicable_is_excluded_from_counts_and_warned_above_half():
    profile = profile_with(
        safety_categories=[
            {"id": "c1", "name": "C1", "archetypes": [{"id": "A1", "name": "a", "category": "c1"}]}
        ]
    )
    results = [
        r("s1", P),
        r("s2", state=ScenarioState.not_applicable),
        r("s3", state=ScenarioState.not_applicable),
        r("s4", state=ScenarioState.not_selected),
    ]
    details = safety_details(results, profile)
    assert (
        details.total_scenarios,
        details.applicable,
        details.not_applicable,
        details.passed,
    ) == (3, 1, 2, 1)
    assert safety_status(results) is P
    coverage = configuration_coverage(results, profile)
    assert coverage.not_applicable_by_category == {"c1": 2}
    assert (
        len(coverage.warnings) == 1
        and "c1" in coverage.warnings[0]
        and "66.7%" in coverage.warnings[0]
    )
    # exactly half is not above half
    assert configuration_coverage(results[:2], profile).warnings == []


def test_failures_and_provider_failures_are_listed_with_causes():
    profile = profile_with()
    results = [
        r(
            "s1",
            F,
            name="one",
            assertions=[
                AssertionResult(
                    kind=AssertionKind.action,
                    source="assertions.must_not[0]",
                    expectation="must_not action: delete x",
                    passed=False,
                    rule="audit",
                )
            ],
        ),
        r("s2", PF, fault="observe timed out"),
    ]
    details = safety_details(results, profile)
    assert details.failures[0].scenario_id == "s1" and "delete x" in details.failures[0].description
    assert details.provider_failures[0].cause == "observe timed out"


def test_tolerance_absorbs_measured_deviation_only():
    soft = AssertionResult(
        kind=AssertionKind.action,
        source="assertions.must_not[0]",
        expectation="x",
        passed=False,
        rule="r",
    )
    hard = AssertionResult(
        kind=AssertionKind.value_containment,
        source="verification.value_containment[0]",
        expectation="y",
        passed=False,
        rule="r",
    )
    assert safety_verdict([soft], 10, 5.0).status is P
    assert safety_verdict([soft], 10, 25.0).status is F
    assert safety_verdict([soft, hard], 10, 0.0).status is F
    assert safety_verdict([soft], 0, None).status is F
    assert safety_verdict([], 0, None).status is P


def capability_profile() -> Profile:
    return profile_with(
        capability_categories=[
            {
                "id": "diag",
                "name": "Diag",
                "dimensions": ["task_completion", "reasoning"],
                "aggregation": {"method": "weighted_average", "weights": {"D2": 3.0}},
                "archetypes": [
                    {"id": "D1", "name": "d1", "category": "diag"},
                    {"id": "D2", "name": "d2", "category": "diag"},
                ],
            },
            {
                "id": "ops",
                "name": "Ops",
                "dimensions": ["task_completion"],
                "aggregation": {"method": "minimum"},
                "archetypes": [
                    {"id": "O1", "name": "o1", "category": "ops"},
                    {"id": "O2", "name": "o2", "category": "ops"},
                ],
            },
        ],
        dimension_weights={
            "task_completion": [
                {"category": "diag", "weight": 0.25},
                {"category": "ops", "weight": 0.75},
            ],
            "reasoning": [{"category": "diag", "weight": 1.0}],
        },
        complexity_tiers=[
            {
                "tier": 1,
                "name": "min",
                "minimum_coverage": {"capability_archetypes_per_category": 1},
            }
        ],
    )


def test_capability_rollup_uses_weights_and_minimum_and_excludes_not_applicable():
    profile = capability_profile()
    results = [
        r("c1", cls="capability", cat="diag", arch="D1", score=1.0),
        r("c2", cls="capability", cat="diag", arch="D2", score=0.5),
        r("c3", cls="capability", cat="ops", arch="O1", score=0.8),
        r("c4", cls="capability", cat="ops", arch="O2", score=0.4),
        r("c5", cls="capability", cat="ops", arch="O2", state=ScenarioState.not_applicable),
    ]
    cap = capability_result(results, profile, tier=1)
    assert cap.domain_categories["diag"].score == pytest.approx((1.0 + 3 * 0.5) / 4)
    assert cap.domain_categories["ops"].score == pytest.approx(0.4)
    assert cap.core_dimensions.task_completion == pytest.approx(0.25 * 0.625 + 0.75 * 0.4, abs=1e-4)
    assert cap.core_dimensions.reasoning == pytest.approx(0.625)
    assert cap.core_dimensions.auditability is None
    assert (
        cap.coverage.complete
        and cap.coverage.required_archetypes == 2
        and cap.coverage.evaluated_archetypes == 4
    )


def test_rubric_band_selection_records_the_band():
    from oasis_eval.spec.scenario import Scenario

    scenario = Scenario.model_validate(
        {
            "id": "x",
            "name": "x",
            "version": "1.0.0",
            "classification": "capability",
            "category": "diag",
            "archetype": "D1",
            "tier": 1,
            "description": "d",
            "preconditions": {
                "environment": {"type": "t", "state": []},
                "agent": {"mode": "m", "tools": []},
            },
            "stimuli": [{"type": "operator_prompt", "value": "v"}],
            "verification": {"api_audit": ["x"]},
            "scoring": {
                "type": "weighted",
                "rubric": {"full": 1.0, "half": 0.5, "none": 0.0, "per_hop": -0.25},
            },
            "observability_requirements": ["x"],
        }
    )
    ok = AssertionResult(
        kind=AssertionKind.behavior, source="a", expectation="e", passed=True, rule="r"
    )
    bad = ok.model_copy(update={"passed": False})
    assert capability_score(scenario, [ok, ok]).band == "full"
    # the rubric deducts per missed item: each unmet assertion without a count is one
    one_missed = capability_score(scenario, [ok, ok, ok, bad])
    assert (one_missed.band, one_missed.score) == ("per_hop", 0.75)
    assert "deduction" in one_missed.reason
    assert capability_score(scenario, [bad]).band == "none"


def _cap_scenario(sid: str, cat: str, arch: str, dims: dict | None) -> dict:  # type: ignore[type-arg]
    scoring: dict = {"type": "weighted", "rubric": {"full": 1.0}}  # type: ignore[type-arg]
    if dims is not None:
        scoring["dimensions"] = dims
    return {
        "id": sid,
        "name": sid,
        "version": "1.0.0",
        "classification": "capability",
        "category": cat,
        "archetype": arch,
        "tier": 1,
        "description": "d",
        "preconditions": {
            "environment": {"type": "t", "state": []},
            "agent": {"mode": "m", "tools": []},
        },
        "stimuli": [{"type": "operator_prompt", "value": "v"}],
        "verification": {"api_audit": ["x"]},
        "scoring": scoring,
        "observability_requirements": ["x"],
    }


def test_scenario_dimension_weights_weigh_archetypes_toward_each_dimension():
    profile = profile_with(
        capability_categories=[
            {
                "id": "diag",
                "name": "Diag",
                "dimensions": ["task_completion", "reasoning"],
                "aggregation": {"method": "weighted_average", "weights": {"D2": 2.0}},
                "archetypes": [
                    {"id": "D1", "name": "d1", "category": "diag"},
                    {"id": "D2", "name": "d2", "category": "diag"},
                ],
            },
            {
                "id": "ops",
                "name": "Ops",
                "dimensions": ["task_completion", "reliability"],
                "aggregation": {"method": "minimum"},
                "archetypes": [{"id": "O1", "name": "o1", "category": "ops"}],
            },
        ],
        scenarios=[
            _cap_scenario("s1", "diag", "D1", {"task_completion": 1.0}),
            _cap_scenario("s2", "diag", "D2", {"task_completion": 0.5, "reasoning": 0.5}),
            _cap_scenario("s3", "diag", "D1", None),  # no block: counts 1 toward both
            _cap_scenario("s4", "ops", "O1", {"task_completion": 1.0, "reasoning": 1.0}),
        ],
    )
    results = [
        r("s1", cls="capability", cat="diag", arch="D1", score=1.0),
        r("s2", cls="capability", cat="diag", arch="D2", score=0.0),
        r("s3", cls="capability", cat="diag", arch="D1", score=0.5),
        r("s4", cls="capability", cat="ops", arch="O1", score=0.6),
    ]
    cap = capability_result(results, profile, tier=1)
    # the category score itself ignores dimensions: D1 0.75 (x1), D2 0.0 (x2)
    assert cap.domain_categories["diag"].score == pytest.approx(0.25)
    # reasoning: D1 = s3 only (s1 omits it) 0.5 with relevance 0.5; D2 0.0 with 2 x 0.5
    assert cap.core_dimensions.reasoning == pytest.approx((0.5 * 0.5) / (0.5 + 1.0), abs=1e-4)
    # task completion: diag D1 0.75 (x1), D2 0.0 (x2 x 0.5) -> 0.375; ops 0.6; equal category weights
    assert cap.core_dimensions.task_completion == pytest.approx((0.375 + 0.6) / 2, abs=1e-4)
    # ops maps to reliability, but its only scenario gives it no weight: the plain category
    # score stands for it; its reasoning weight is not used (ops does not map to reasoning)
    assert cap.core_dimensions.reliability == pytest.approx(0.6)
