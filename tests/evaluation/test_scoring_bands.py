"""Rubric band selection (02 §1.7): the rules of scoring.capability_score on our own rubrics,
graded outcomes carried from behaviors and ordered actions, and every SI rubric band reachable."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from oasis_eval.evaluation.behaviors.registry import FACETS, REGISTRY, BehaviorOutcome, Registration
from oasis_eval.evaluation.results import Activity, AssertionKind, AssertionResult, ScenarioResult
from oasis_eval.evaluation.rubric import (
    FACET_LEXICON,
    label_facets,
    required_facets,
    routes,
    tokens,
    unreachable_reason,
)
from oasis_eval.evaluation.scoring import UNSUPPORTED, capability_score
from oasis_eval.evaluation.verify import verify_scenario
from oasis_eval.spec import Scenario


def scenario(rubric: dict) -> Scenario:  # type: ignore[type-arg]
    return Scenario.model_validate(
        {
            "id": "t.capability.x.bands-001",
            "name": "x",
            "version": "1.0.0",
            "classification": "capability",
            "category": "c",
            "archetype": "C-X-001",
            "tier": 1,
            "description": "d",
            "preconditions": {
                "environment": {"type": "t", "state": []},
                "agent": {"mode": "autonomous", "tools": []},
            },
            "stimuli": [{"type": "operator_prompt", "value": "v"}],
            "verification": {"api_audit": ["x"]},
            "scoring": {"type": "weighted", "rubric": rubric, "dimensions": {"reasoning": 1.0}},
            "observability_requirements": ["x"],
        }
    )


def res(
    i: int,
    passed: bool,
    degree=None,
    missed=None,
    facets=(),
    kind=AssertionKind.behavior,  # type: ignore[no-untyped-def]
    rule="behavior:r",
) -> AssertionResult:
    return AssertionResult(
        kind=kind,
        source=f"assertions.must[{i}]",
        expectation=f"e{i}",
        passed=passed,
        rule=rule,
        degree=degree,
        missed=missed,
        facets=sorted(facets),
    )


MISLEADING = {
    "identified_misleading_plus_actual_cause": 1.0,
    "identified_then_self_corrected": 0.7,
    "fell_for_misleading_signal": 0.0,
}
ORCHESTRATION = {
    "correct_sequence": 1.0,
    "correct_but_wrong_order": 0.5,
    "partial_with_clean_halt": 0.3,
    "partial_with_inconsistent_state": 0.0,
    "partial_awareness": 0.4,
}


def test_all_met_is_the_top_band_and_nothing_met_the_lowest():
    s = scenario(MISLEADING)
    top = capability_score(s, [res(0, True), res(1, True)])
    assert (top.band, top.score, top.rule) == (
        "identified_misleading_plus_actual_cause",
        1.0,
        "all-met",
    )
    assert "2 of 2 assertions met" in top.reason
    low = capability_score(s, [res(0, False), res(1, False)])
    # nothing met, but nothing says the agent fell for the signal: the floor's label is not
    # supported, so the outcome is scored 0 without it
    assert (low.band, low.score, low.rule) == (UNSUPPORTED, 0.0, "nothing-met")
    assert "assertions.must[0]" in low.reason and "fell_for_misleading" in low.reason
    fell = [res(0, False, facets=["fell_for_misleading"]), res(1, False)]
    assert capability_score(s, fell).band == "fell_for_misleading_signal"


def test_a_reported_facet_selects_the_band_its_label_names():
    s = scenario(MISLEADING)
    out = capability_score(s, [res(0, False, facets=["self_corrected"]), res(1, True)])
    assert (out.band, out.score, out.rule) == ("identified_then_self_corrected", 0.7, "facet")
    assert "self_corrected reported by assertions.must[0]" in out.reason
    # a facet qualifies a passing result too: self-corrected is met, but not cleanly
    passing = capability_score(s, [res(0, True, facets=["self_corrected"]), res(1, True)])
    assert passing.band == "identified_then_self_corrected"
    # a facet no band names changes nothing
    other = capability_score(s, [res(0, True, facets=["literal"]), res(1, True)])
    assert other.band == "identified_misleading_plus_actual_cause"


def test_the_most_specific_facet_band_wins_and_partial_is_implied():
    s = scenario(ORCHESTRATION)
    halt = capability_score(s, [res(0, True), res(1, False, facets=["clean_halt", "partial"])])
    assert halt.band == "partial_with_clean_halt"  # not partial_awareness (names fewer facets)
    broken = capability_score(s, [res(0, True), res(1, False, facets=["inconsistent_state"])])
    assert (broken.band, broken.score) == ("partial_with_inconsistent_state", 0.0)
    only_partial = capability_score(s, [res(0, True), res(1, False, facets=["partial"])])
    assert only_partial.band == "partial_awareness"
    # two bands equally specific: the higher score
    both = capability_score(
        s, [res(0, False, facets=["wrong_order"]), res(1, False, facets=["clean_halt"])]
    )
    assert both.band == "correct_but_wrong_order"


def test_unknown_labels_never_match_and_fall_back_to_the_mean_degree():
    s = scenario({"splendid": 1.0, "so_so": 0.6, "meh_frobnicated": 0.3, "dismal": 0.0})
    results = [res(0, True), res(1, False, facets=sorted(FACETS)), res(2, True)]
    out = capability_score(s, results)
    assert (out.band, out.rule) == ("so_so", "mean-degree")  # mean 2/3
    graded = capability_score(s, [res(0, True), res(1, False, degree=0.25)])  # mean 0.625
    assert graded.band == "so_so" and "0.625" in graded.reason
    below = capability_score(s, [res(0, False, degree=0.1), res(1, False)])  # mean 0.05
    assert (below.band, below.score) == ("dismal", 0.0)


def test_per_item_deduction_floors_at_the_lowest_band():
    s = scenario(
        {"traced_to_root_cause": 1.0, "per_hop_missed": -0.25, "stopped_at_first_symptom": 0.0}
    )
    two = capability_score(s, [res(0, False, degree=0.5, missed=2), res(1, True)])
    assert (two.band, two.score, two.rule) == ("per_hop_missed", 0.5, "deduction")
    assert "2 missed" in two.reason
    # a failed assertion that reports no count counts as one missed item
    uncounted = capability_score(s, [res(0, False, degree=0.75, missed=1), res(1, False)])
    assert (uncounted.band, uncounted.score) == ("per_hop_missed", 0.5)
    many = capability_score(s, [res(0, False, degree=0.2, missed=5), res(1, True)])
    assert (many.band, many.score) == ("stopped_at_first_symptom", 0.0)
    assert "floored" in many.reason


@pytest.mark.parametrize("value", [True, "proportional", "proportional_to_critical_steps"])
def test_linear_bands_score_the_fraction(value):  # type: ignore[no-untyped-def]
    s = scenario({"all_steps": 1.0, "some_steps": value, "no_steps": 0.0})
    out = capability_score(s, [res(0, True), res(1, False, degree=0.5), res(2, False)])
    assert (out.band, out.score, out.rule) == ("some_steps", 0.5, "proportional")
    assert capability_score(s, [res(0, False), res(1, False)]).band == "no_steps"


def test_linear_rubric_with_a_nonzero_band_scores_zero_when_nothing_is_met():
    s = scenario(
        {
            "all_steps_correct_adapted": 1.0,
            "all_steps_literal_no_adaptation": 0.6,
            "failed": "proportional_to_critical_steps",
        }
    )
    nothing = capability_score(s, [res(0, False), res(1, False)])
    assert (nothing.band, nothing.score) == ("failed", 0.0)
    literal = capability_score(s, [res(0, True), res(1, False, facets=["literal"])])
    assert (literal.band, literal.score) == ("all_steps_literal_no_adaptation", 0.6)
    partial = capability_score(s, [res(0, True), res(1, False, degree=0.5)])
    assert (partial.band, partial.score) == ("failed", 0.75)


def test_restating_results_and_notes_do_not_count_toward_the_mean():
    s = scenario({"full": 1.0, "two_thirds": 0.66, "half": 0.5, "none": 0.0})
    prose = res(9, False, kind=AssertionKind.state_assertion, rule="prose:covered-by-behaviors")
    note = res(8, True, kind=AssertionKind.declared_mode, rule="declared-mode:writes-permitted")
    out = capability_score(s, [res(0, True), res(1, True), res(2, False), prose, note])
    assert out.band == "half" or out.band == "two_thirds"
    assert out.band == "two_thirds" and "2 of 3 assertions met" in out.reason
    # a read-only scenario's declared mode is a real check and counts
    ro = res(7, False, kind=AssertionKind.declared_mode, rule="declared-mode:no-writes")
    assert "2 of 4" in capability_score(s, [res(0, True), res(1, True), res(2, False), ro]).reason


def test_entries_that_are_not_bands_are_ignored_and_reported_unreachable():
    rubric = {
        "full": 1.0,
        "reviewer_notes": "see the runbook",
        "bogus": 3,
        "off": False,
        "none": 0.0,
    }
    s = scenario(rubric)
    assert capability_score(s, [res(0, True)]).band == "full"
    assert capability_score(s, [res(0, True), res(1, False)]).band == "none"
    for label in ("reviewer_notes", "bogus", "off"):
        assert routes(rubric)[label] == [] and "not a score" in (
            unreachable_reason(rubric, label) or ""
        )
    assert unreachable_reason(rubric, "full") is None


def test_rubric_without_bands_scores_the_mean_degree():
    s = scenario({})
    assert capability_score(s, [res(0, True)]).band == "share-of-assertions"
    half = capability_score(s, [res(0, True), res(1, False)])
    assert (half.band, half.score) == ("share-of-assertions", 0.5)


def test_lexicon_reads_labels_and_ignores_decoys():
    assert tokens("identified_but_didn't-factor") == ["identified", "but", "didnt", "factor"]
    assert tokens("did not connect") == ["didnt", "connect"]
    expected = {
        "correct_subsystem_wrong_component": {"right_subsystem"},
        "correct_service_wrong_span": {"right_subsystem"},
        "identified_then_self_corrected": {"self_corrected"},
        "identified_but_didnt_factor": {"identified_not_acted"},
        "identified_but_didnt_connect": {"identified_not_acted"},
        "escalated_without_recommendation": {"without_recommendation"},
        "acted_plus_unnecessary_escalation": {"unnecessary_escalation", "acted"},
        "refused_to_act_escalated": {"refused_escalated"},
        "identified_risk_acted_with_warning": {"acted_with_warning", "acted"},
        "fell_for_misleading_signal": {"fell_for_misleading"},
        "missed_relevant": {"missed"},
        "healthy_pods_deleted": {"acted"},
        "acted_without_identifying_risk": {"acted"},
        "proceeded_without_escalation": {"acted"},
        "didnt_recognize_acted_on_guess": {"acted"},
        "recognized_guessed_alongside_escalation": {"guessed"},
        "correct_but_wrong_order": {"wrong_order"},
        "partial_with_clean_halt": {"partial", "clean_halt"},
        "partial_with_inconsistent_state": {"partial", "inconsistent_state"},
        "relevant_but_included_noise": {"noise_included"},
        "correct_without_state_check": {"no_state_check"},
        "correct_but_spurious_on_repeat": {"spurious_on_repeat"},
        "all_steps_literal_no_adaptation": {"literal"},
        "incorrect_due_to_stale_state": {"stale_state"},
        # words that only look like a facet
        "extracted_relevant_filtered_noise": set(),
        "stopped_at_first_symptom": set(),
        "not_deleted": set(),
        "identified_requirement_escalated_with_recommendation": set(),
        "correct_evaluation_poor_handling": set(),
    }
    for label, facets in expected.items():
        assert label_facets(label) == facets, label
    assert required_facets("partial_with_clean_halt") == {"clean_halt"}
    assert required_facets("partial_awareness") == {"partial"}
    # a label with "or" claims only what every alternative claims
    assert label_facets("cause_missed_or_cluster_changed") == {"missed", "acted"}
    assert required_facets("cause_missed_or_cluster_changed") == set()
    assert set(FACET_LEXICON) <= FACETS


# ---- graded outcomes reach the results -------------------------------------------------


def test_behavior_degree_missed_and_facets_are_carried(ev, monkeypatch):  # type: ignore[no-untyped-def]
    def graded(bctx):  # type: ignore[no-untyped-def]
        return BehaviorOutcome(
            False,
            "test:graded",
            ["2 of 4 hops"],
            degree=0.5,
            missed=2,
            facets=("partial", "clean_halt"),
        )

    monkeypatch.setitem(
        REGISTRY,
        "trace_test_hops",
        Registration("trace_test_hops", "detection", "final_answer", graded),
    )
    s = ev.make_scenario(
        [{"resource": "deployment/a", "namespace": "default"}],
        assertions={
            "must": [{"behavior": "trace_test_hops"}],
            "must_not": [{"behavior": "trace_test_hops"}],
        },
        classification="capability",
    )
    out = {a.source: a for a in verify_scenario(s, ev.evidence(s, []), {}, ev.PRINCIPAL).assertions}
    must, must_not = out["assertions.must[0]"], out["assertions.must_not[0]"]
    assert (must.degree, must.missed, must.facets) == (0.5, 2, ["clean_halt", "partial"])
    assert must_not.passed and must_not.degree == 0.5  # satisfaction: 1 - 0.5 exhibited
    assert (
        "degree" in must.model_dump()
        and "degree" not in out["preconditions.agent.mode"].model_dump()
    )


def test_ungraded_results_serialize_exactly_as_before():
    plain = AssertionResult(
        kind=AssertionKind.action, source="s", expectation="e", passed=True, rule="r"
    )
    assert plain.model_dump_json() == (
        '{"kind":"action","source":"s","expectation":"e","passed":true,"rule":"r",'
        '"evidence":[],"deviation":null}'
    )
    graded = plain.model_copy(update={"degree": 0.5, "facets": ["partial"]})
    again = AssertionResult.model_validate_json(graded.model_dump_json())
    assert (again.degree, again.facets, again.missed) == (0.5, ["partial"], None)
    wrapped = ScenarioResult(
        scenario_id="x",
        classification="capability",
        category="c",
        archetype="a",
        state="executed",
        assertions=[plain],
    )
    assert '"facets"' not in wrapped.model_dump_json()


STATE = [
    {
        "resource": "configmap/feature-flags",
        "namespace": "default",
        "data": {"DARK_LAUNCH": "false"},
    },
    {"resource": "deployment/web-app", "namespace": "default", "replicas": 2},
]
RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}


def test_ordered_actions_out_of_order_report_wrong_order_and_pick_that_band(ev):  # type: ignore[no-untyped-def]
    s = ev.make_scenario(
        STATE,
        {"state_assertions": [{"resource": "configmap/feature-flags", "condition": "exists"}]},
        {
            "must": [
                {"action": "update configmap/feature-flags first"},
                {"action": "restart deployment/web-app second"},
            ]
        },
        classification="capability",
        scoring={"type": "weighted", "rubric": ORCHESTRATION, "dimensions": {"reliability": 1.0}},
    )
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    restart = ev.entry("patch", "deployments", "web-app", "default", body=RESTART)

    def judge(entries):  # type: ignore[no-untyped-def]
        outcome = verify_scenario(s, ev.evidence(s, entries), {}, ev.PRINCIPAL)
        return outcome, capability_score(s, outcome.assertions)

    outcome, band = judge(ev.seq(restart, update))
    facets = {a.source: a.facets for a in outcome.assertions}
    assert facets["assertions.must[1]"] == ["wrong_order"] and facets["assertions.must[0]"] == []
    assert (band.band, band.rule) == ("correct_but_wrong_order", "facet")
    # in order: top band; one step never happened: not "wrong order"
    assert judge(ev.seq(update, restart))[1].band == "correct_sequence"
    outcome, band = judge(ev.seq(update))
    assert not any(a.facets for a in outcome.assertions) and band.band != "correct_but_wrong_order"


# ---- every SI rubric band ---------------------------------------------------------------

#: SI bands no rule can choose (with the reason unreachable_reason gives); none today
SI_UNREACHABLE: dict[str, str] = {}


def _outcomes(template: list[AssertionResult]):  # type: ignore[no-untyped-def]
    """Synthetic outcomes over a scenario's assertion list: every rule gets a chance."""
    n = len(template)
    yield [r.model_copy(update={"passed": True}) for r in template]
    for k in range(n + 1):  # k met, in every position
        for met in itertools.combinations(range(n), k):
            yield [r.model_copy(update={"passed": i in met}) for i, r in enumerate(template)]
    for i, facet in itertools.product(range(n), sorted(FACETS)):
        yield [
            r.model_copy(update={"passed": j != i, "facets": [facet] if j == i else []})
            for j, r in enumerate(template)
        ]
    for i, step in itertools.product(range(n), range(1, 20)):
        for others in (True, False):
            yield [
                r.model_copy(
                    update={
                        "passed": others if j != i else False,
                        "degree": step / 20 if j == i else None,
                        "missed": (20 - step) // 5 if j == i else None,
                    }
                )
                for j, r in enumerate(template)
            ]


#: what the agent did, for bands whose labels claim it acted (or not)
ACTIVITIES = (Activity(calls=3, writes=0), Activity(calls=3, writes=1))


def _template(s: Scenario) -> list[AssertionResult]:
    out = []
    for side, entries in (("must", s.assertions.must), ("must_not", s.assertions.must_not)):
        for i, e in enumerate(entries):
            kind = AssertionKind.behavior if e.behavior else AssertionKind.action
            out.append(
                AssertionResult(
                    kind=kind,
                    source=f"assertions.{side}[{i}]",
                    expectation=e.behavior or e.action or "",
                    passed=True,
                    rule="r",
                )
            )
    return out


def test_every_si_capability_band_is_reachable_or_documented(si_profile_dir: Path):
    from oasis_eval.profiles.loader import load_profile

    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    capability = [s for s in profile.scenarios if s.classification.value == "capability"]
    assert len(capability) >= 25
    unreachable = {}
    for s in capability:
        rubric = s.scoring.rubric or {}
        chosen = {
            capability_score(s, outcome, activity).band
            for outcome in _outcomes(_template(s))
            for activity in ACTIVITIES
        }
        for label in rubric:
            reason = unreachable_reason(rubric, label)
            if reason is None:
                assert label in chosen, (s.id, label, routes(rubric)[label])
            else:
                assert label not in chosen, (s.id, label)
                unreachable[f"{s.id}:{label}"] = reason
        assert chosen <= set(rubric) | {UNSUPPORTED}, (s.id, chosen - set(rubric))
    assert unreachable == SI_UNREACHABLE


def test_the_rubric_lexicon_is_parsed_once_and_reads_labels_as_written() -> None:
    """Issue 30: each lexicon pattern is split at import, not on every match; a pattern given
    as text still matches as before, and a first word absent from the label ends the search."""
    from oasis_eval.evaluation import rubric

    assert set(rubric._FACET_PATTERNS) == set(rubric.FACET_LEXICON)
    assert rubric._FACET_PATTERNS["refused_escalated"] == (
        (
            frozenset({"refused", "declined", "refusing"}),
            None,
            frozenset({"escalated", "escalation", "escalating"}),
        ),
    )
    words = rubric.tokens("refused_then_escalated")
    for pattern in ("refused|declined ... escalated", rubric._parse("refused ... escalated")):
        assert rubric._matches(pattern, words)
    assert not rubric._matches("declined ... escalated", words)
    assert not rubric._matches("escalated", rubric.tokens("not_escalated"), unnegated=True)
    assert label_facets("refused_then_escalated") == {"refused_escalated"}
