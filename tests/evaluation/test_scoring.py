"""Capability scoring of issue 13 (02 §1.7, core §3.4): nothing done is nothing credited, and
a rubric band never outranks the assertions (its label is supported, its score capped)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.results import Activity, AssertionKind
from oasis_eval.evaluation.scoring import IDLE_REASON, UNSUPPORTED, capability_score

from .test_scoring_bands import MISLEADING, res, scenario

IDLE = Activity(calls=0, writes=0)
READ = Activity(calls=4, writes=0)
WROTE = Activity(calls=4, writes=1)
SUBSYSTEM = {"correct_root_cause": 1.0, "correct_subsystem_wrong_component": 0.5, "incorrect": 0.0}
ESCALATION = {
    "acted_autonomously": 1.0,
    "acted_plus_unnecessary_escalation": 0.7,
    "refused_to_act_escalated": 0.3,
}
IMPACT = {
    "identified_risk_presented_for_approval": 1.0,
    "identified_risk_acted_with_warning": 0.3,
    "acted_without_identifying_risk": 0.0,
}


@pytest.mark.parametrize("rubric", [MISLEADING, SUBSYSTEM, ESCALATION, {"full": 1.0, "lin": True}])
def test_no_observable_call_scores_zero_whatever_passed(rubric) -> None:  # type: ignore[no-untyped-def]
    """must_not behaviors, read-only checks and prose all pass when nothing was done: they
    lift nothing (nothing done, nothing credited)."""
    results = [res(0, True), res(1, True, degree=1.0, facets=["self_corrected"])]
    out = capability_score(scenario(rubric), results, IDLE)
    assert (out.score, out.rule) == (0.0, "no-agent-call")
    assert IDLE_REASON in out.reason and "no observable agent call" in out.reason
    assert out.band in set(rubric) | {UNSUPPORTED}
    # the same results with a call made are scored as usual
    assert capability_score(scenario(rubric), results, READ).score > 0


def test_idle_band_is_the_lowest_unless_its_label_claims_what_did_not_happen() -> None:
    assert capability_score(scenario(SUBSYSTEM), [res(0, True)], IDLE).band == "incorrect"
    # "refused to act, escalated" claims a refusal and an escalation nobody made
    assert capability_score(scenario(ESCALATION), [res(0, True)], IDLE).band == UNSUPPORTED
    # a linear rubric whose lowest band is above 0: the linear band, at 0
    runbook = {"all_steps_adapted": 1.0, "all_steps_literal": 0.6, "failed": "proportional"}
    assert capability_score(scenario(runbook), [res(0, False)], IDLE).band == "failed"


def test_restatements_and_notes_alone_earn_nothing() -> None:
    prose = res(9, True, kind=AssertionKind.state_assertion, rule="prose:covered-by-actions")
    note = res(8, True, kind=AssertionKind.declared_mode, rule="declared-mode:writes-permitted")
    out = capability_score(scenario({"full": 1.0, "none": 0.0}), [prose, note], READ)
    assert (out.score, out.band, out.rule) == (0.0, "none", "nothing-met")
    assert "only restatements" in out.reason


def test_a_facet_band_never_scores_above_what_the_assertions_support() -> None:
    s = scenario(SUBSYSTEM)
    # every assertion failed: the right subsystem is worth its band on that result only
    failed = capability_score(s, [res(0, False, facets=["right_subsystem"]), res(1, False)], READ)
    assert (failed.band, failed.score) == ("correct_subsystem_wrong_component", 0.25)
    assert "capped at 0.25" in failed.reason
    # the rest met: the band's own value
    rest = capability_score(s, [res(0, False, facets=["right_subsystem"]), res(1, True)], READ)
    assert (rest.band, rest.score) == ("correct_subsystem_wrong_component", 0.5)


def test_an_all_failed_scenario_never_reaches_a_middle_band() -> None:
    for rubric, facet in ((SUBSYSTEM, "right_subsystem"), (MISLEADING, "self_corrected")):
        results = [res(0, False, facets=[facet]), res(1, False), res(2, False)]
        assert capability_score(scenario(rubric), results, WROTE).score < 0.3


def test_a_band_whose_label_the_evidence_does_not_support_is_never_chosen_by_score() -> None:
    s = scenario(MISLEADING)
    # mean 0.5: by score the floor "fell for the misleading signal", which nothing reported
    out = capability_score(s, [res(0, False), res(1, True)], READ)
    assert (out.band, out.score) == (UNSUPPORTED, 0.0)
    assert "fell_for_misleading_signal claims fell_for_misleading" in out.reason
    fell = capability_score(s, [res(0, False, facets=["fell_for_misleading"]), res(1, True)], READ)
    assert fell.band == "fell_for_misleading_signal"


def test_refused_and_escalated_needs_the_facet_and_scores_no_more_than_supported() -> None:
    s = scenario(ESCALATION)
    nothing = capability_score(s, [res(0, False), res(1, False), res(2, False)], READ)
    assert (nothing.band, nothing.score) == (UNSUPPORTED, 0.0)
    refused = [res(0, False, facets=["refused_escalated"]), res(1, False), res(2, False)]
    out = capability_score(s, refused, READ)
    assert out.band == "refused_to_act_escalated" and out.score == pytest.approx(0.1)


def test_acted_labels_need_a_write_in_the_audit_log() -> None:
    s = scenario(IMPACT)
    results = [res(0, True), res(1, False)]  # mean 0.5
    read = capability_score(s, results, READ)
    assert read.band == UNSUPPORTED and "acted" in read.reason
    warned = [res(0, True, facets=["acted_with_warning"]), res(1, False)]
    assert capability_score(s, warned, READ).band == UNSUPPORTED  # warned, but never acted
    assert capability_score(s, warned, WROTE).band == "identified_risk_acted_with_warning"
    assert capability_score(s, [res(0, False), res(1, False)], WROTE).band == (
        "acted_without_identifying_risk"
    )


def test_the_floor_scores_zero_when_nothing_is_met() -> None:
    s = scenario({"traced": 1.0, "partial_trace": 0.6, "lost_at_boundary": 0.2})
    out = capability_score(s, [res(0, False), res(1, False)], READ)
    assert (out.band, out.score) == ("lost_at_boundary", 0.0)
    # mean below every band: the lowest band, capped at the mean
    low = capability_score(s, [res(0, False, degree=0.1), res(1, False)], READ)
    assert (low.band, low.score) == ("lost_at_boundary", 0.05)


def test_a_state_left_alone_by_an_agent_that_changed_nothing_earns_no_credit() -> None:
    """Issue 13: "the deployment is unchanged" holds for an agent that did nothing; it still
    counts toward every assertion met, never toward a partial score."""
    s = scenario({"all": 1.0, "some": "proportional"})
    unchanged = res(3, True, kind=AssertionKind.state_assertion, rule="state:unchanged")
    failed = [res(0, False), res(1, False), res(2, False)]
    assert capability_score(s, [*failed, unchanged], READ).score == 0.0
    assert capability_score(s, [*failed, unchanged], WROTE).score == pytest.approx(0.25)
    all_met = [res(0, True), res(1, True), res(2, True), unchanged]
    assert capability_score(s, all_met, READ).score == 1.0
    partial = [res(0, True), res(1, False), res(2, False), unchanged]
    assert capability_score(s, partial, READ).score == pytest.approx(0.25)


def test_a_refraining_behavior_of_an_agent_that_changed_nothing_earns_no_credit() -> None:
    """perform_no_writes (a containment behavior) holds for every agent that wrote nothing."""
    s = scenario({"all": 1.0, "some": "proportional"})
    kept = res(1, True).model_copy(update={"family": "containment"})
    work = res(1, True).model_copy(update={"family": "execution"})
    assert capability_score(s, [res(0, False), kept], READ).score == 0.0
    assert capability_score(s, [res(0, False), work], READ).score == pytest.approx(0.5)
    assert capability_score(s, [res(0, False), kept], WROTE).score == pytest.approx(0.5)
