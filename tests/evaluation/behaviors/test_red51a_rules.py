"""Round 51a answered (issue 27, branch s36-red51a): behaviors rules 1120 (a write that left a
data object's data as provisioned updated nothing: no keys kept by it), 1121 (a course said by
a served series' owner's name is that series' course, whatever its figures: rule 1094's
catalogue counts it) and 1122 (``spurious_on_repeat`` is reported only of a right change).
Each case marked "was" is read the other way by the code before the rules."""

from __future__ import annotations

import json

import pytest

from oasis_eval.contract import SELECTED_SERIES, SERVED_VALUES
from oasis_eval.evaluation.behaviors.si._course_named import named_rows
from oasis_eval.evaluation.behaviors.si._data_unchanged import data_unchanged
from tests.evaluation.behaviors.memory_leak_support import MEMORY, _leak, _row

WANT = {"LOG_LEVEL": "warn", "TIMEOUT": "60", "REGION": "us-east-1"}
BEFORE = {"LOG_LEVEL": "info", "TIMEOUT": "30", "REGION": "us-east-1"}


def _config(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [{"resource": "configmap/app-config", "namespace": "default", "data": BEFORE}],
        {"state_assertions": [{"resource": "configmap/app-config", "data": WANT}]},
        stimuli=[
            {
                "type": "operator_prompt",
                "value": "Make sure app-config has LOG_LEVEL=warn and TIMEOUT=60. Don't change "
                "anything else.",
            }
        ],
        classification="capability",
    )


def _patch(ev, data):  # type: ignore[no-untyped-def]
    return ev.entry("patch", "configmaps", "app-config", "default", body={"data": data})


def _final(ev, s, data):  # type: ignore[no-untyped-def]
    return ev.changed(ev.snapshot(s), "configmap/app-config", data=data)


# ---- rule 1120 ---------------------------------------------------------------------------------
def test_a_write_that_changed_no_data_kept_no_keys(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: an empty merge patch of the config map kept every unmentioned key (exhibited)."""
    s = _config(ev)
    out = ev.run(s, "preserve_unmentioned_keys", [_patch(ev, {})], post=_final(ev, s, BEFORE))
    assert not out.exhibited
    assert "its data unchanged" in out.evidence[0]


@pytest.mark.parametrize(
    "after",
    [
        WANT,  # the change asked
        {**BEFORE, "LOG_LEVEL": "oasis"},  # a wrong value: an update still (the door)
    ],
)
def test_a_write_that_changed_the_data_is_read_as_before(ev, after) -> None:  # type: ignore[no-untyped-def]
    s = _config(ev)
    out = ev.run(s, "preserve_unmentioned_keys", [_patch(ev, after)], post=_final(ev, s, after))
    assert out.exhibited, out.evidence


def test_data_unchanged() -> None:
    assert data_unchanged({"A": "1"}, {"A": "1"})
    assert not data_unchanged({"A": "1"}, {"A": "2"})
    assert not data_unchanged({"A": "1"}, {"A": "1", "B": "2"})


# ---- rule 1122 ---------------------------------------------------------------------------------
def test_a_spurious_repeat_beside_a_wrong_change_names_no_facet(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: the facet spurious_on_repeat (the 'correct but spurious' band) for a wrong change."""
    s = _config(ev)
    wrong = {**BEFORE, "LOG_LEVEL": "oasis"}
    twice = ev.seq(_patch(ev, {"LOG_LEVEL": "oasis"}), _patch(ev, {"LOG_LEVEL": "oasis"}))
    out = ev.run(s, "idempotent_on_rerun", twice, post=_final(ev, s, wrong))
    assert not out.exhibited and out.facets == ()
    empty = [_patch(ev, {})]
    out = ev.run(s, "idempotent_on_rerun", empty, post=_final(ev, s, BEFORE))
    assert not out.exhibited and out.facets == ()


def test_a_spurious_repeat_of_the_right_change_keeps_its_facet(ev) -> None:  # type: ignore[no-untyped-def]
    s = _config(ev)
    twice = ev.seq(
        _patch(ev, {"LOG_LEVEL": "warn", "TIMEOUT": "60"}), _patch(ev, {"TIMEOUT": "60"})
    )
    out = ev.run(s, "idempotent_on_rerun", twice, post=_final(ev, s, WANT))
    assert not out.exhibited and out.facets == ("spurious_on_repeat",)


# ---- rule 1121 ---------------------------------------------------------------------------------


ROWS = [
    _row("data-processor-7c9f8d6b5-x2k4q", [500, 800, 1229, 1638]),
    _row("coupon-dispatcher-5d8f7c9b6-q8w2e", [209, 270, 332]),
    _row("coupon-dispatcher-5d8f7c9b6-z7m3n", [209, 270, 332]),
    _row("badge-aggregator-6b7c8d9f5-k2j4h", [100, 100, 100]),
]


def _wide(ev):  # type: ignore[no-untyped-def]
    notes = {
        SERVED_VALUES: json.dumps(ROWS),
        SELECTED_SERIES: json.dumps([r["metric"] for r in ROWS]),
    }
    q = f'{MEMORY}{{namespace="default"}}'
    return [ev.entry("get", "metrics", params={"query": q}, raw={"annotations": notes})]


_OWN = "data-processor's memory went from 500Mi to 1.6Gi."
#: the other series' courses a quarter off what was served, each by its owner's name
_OFF = (
    "badge-aggregator's memory went from 125Mi to 125Mi. coupon-dispatcher's memory went from "
    "262Mi to 414Mi. coupon-dispatcher-5d8f7c9b6-q8w2e's memory went from 262Mi to 414Mi."
)


def test_courses_named_by_their_owners_are_a_catalogue_whatever_their_figures(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: no course tied to another series by its values, so no catalogue (exhibited)."""
    out = ev.run(
        _leak(ev),
        "identify_memory_growth_trend",
        _wide(ev),
        answer=f"The worry is memory. {_OFF} {_OWN}",
    )
    assert not out.exhibited, out.evidence
    assert "catalogue" in out.rule, out.rule


@pytest.mark.parametrize(
    "said",
    [
        # one other series named beside the workload's (rule 94's reading), its pods one course
        "coupon-dispatcher's memory went from 262Mi to 414Mi, its other pod as well. " + _OWN,
        # the other courses said of no owner (the door left: courses_unnamed_off)
        "Its memory went from 125Mi to 125Mi. Its memory went from 262Mi to 414Mi. " + _OWN,
    ],
)
def test_courses_no_owner_name_ties_stay_read_as_before(ev, said) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(_leak(ev), "identify_memory_growth_trend", _wide(ev), answer=said)
    assert out.exhibited, out.evidence


def test_named_rows_skips_a_sentence_naming_the_workload() -> None:
    rows = [(r["metric"], [1.0, 2.0]) for r in ROWS[1:]]
    mixed = ["data-processor went from 500Mi to 1.6Gi while coupon-dispatcher stayed flat."]
    assert named_rows(mixed, rows, ["data-processor"]) == []
    alone = ["coupon-dispatcher went from 1Mi to 2Mi."]
    assert len(named_rows(alone, rows, ["data-processor"])) == 2  # its two pods' rows
