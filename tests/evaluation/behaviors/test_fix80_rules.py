"""Round 34b's queries answered (issue 27, branch s21-fix80): behaviors rules 415-416.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si import _series_constant
from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import ERASING, collapses, erases

from .test_round31a_rules import _SEL

_R = f"{_SEL}[5m]"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # round 34b's mean_split_rising: an average minus itself (was: False)
        (f"sum_over_time({_R}) / count_over_time({_R}) - avg_over_time({_R})", True),
        (f"last_over_time({_R}) - {_SEL}", True),  # the last sample is the value (was: False)
        (f"max_over_time({_R}) - max_over_time(({_SEL} + 0)[5m])", True),
        (f"stdvar_over_time(({_SEL} * 0 + 3)[5m:1m])", True),  # samples all 3: variance 0
        # what a person writes: the course of the samples, read
        (f"avg_over_time({_R})", False),
        (f"max_over_time({_R}) - min_over_time({_R})", False),
        (f"sum_over_time({_R}) - sum_over_time({_SEL}[10m])", False),
        (f"avg_over_time({_R}) - avg_over_time({_R} offset 1h)", False),
        (f"stddev_over_time({_R})", False),  # a square root: a function of the samples
        (f"rate({_R}) * 100", False),
        (f"quantile_over_time(0.9, {_R}) - avg_over_time({_R})", False),
    ],
)
def test_the_over_time_family_is_read_by_its_definition(query: str, expected: bool) -> None:
    """Rule 415 (``si/_series_constant.py::_Evaluation.post``, ``call``, ``_EXACT``)."""
    assert erases(query) is expected
    assert constant.__wrapped__(query, ERASING) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the grouped twin found after round 34b (was: False)
        (f"sum by (pod) (max by (pod) ({_SEL})) - max by (pod) ({_SEL})", True),
        (f"sum by (pod, container) (sum by (pod) ({_SEL})) - sum by (pod) ({_SEL})", True),  # (was)
        (f"avg({_SEL}) * count({_SEL}) - sum({_SEL})", True),  # (was: False)
        (f"avg by (pod) ({_SEL}) - sum by (pod) ({_SEL}) / count by (pod) ({_SEL})", True),  # (was)
        (f"sum(max({_SEL})) - max({_SEL})", True),  # a one-series group (was: False)
        (f"topk(1, sum({_SEL})) - sum({_SEL})", True),  # (was: False)
        # aggregations a person writes: read
        (f"sum by (pod) ({_SEL})", False),
        (f"sum by (pod) ({_SEL}) - sum by (node) ({_SEL})", True),  # rule 445: none matched
        (f"max by (pod) ({_SEL}) - {_SEL}", True),  # rule 445: no series matched (was: False)
        (f"max by (pod) ({_SEL}) - on(pod) group_left {_SEL}", False),  # matched as told
        (f"sum({_SEL}) - {_SEL}", False),
        (f"sum without (pod) ({_SEL}) - {_SEL}", True),  # rule 445: no series matched
        (f"stddev({_SEL}) - stddev(max by (pod) ({_SEL}))", False),
        ("topk(5, sum by (pod) (rate(container_cpu_usage_seconds_total[5m])))", False),
    ],
)
def test_an_aggregation_folds_the_series_of_each_group(query: str, expected: bool) -> None:
    """Rule 416 (``_Evaluation.aggregate``, ``labels``, ``group_key``): the grouped twin has
    an object grouping, so rule 228's ``collapses`` lets it through; the identity test holds
    it."""
    assert erases(query) is expected
    assert constant.__wrapped__(query, ERASING) is expected


def test_the_grouped_twin_passes_rule_228() -> None:
    """Rule 228 reads an outer aggregation by ``pod`` as the subject's series: the twin is
    held by rule 416 alone."""
    assert (
        collapses(f"sum by (pod) (max by (pod) ({_SEL})) - max by (pod) ({_SEL})", False) is False
    )


def test_labels_are_the_same_at_every_point() -> None:
    """Rule 416: a group's series are drawn from the seed, not the point, so a count of
    series is constant (rule 260) and a grouping joins some series (fewer label values than
    series)."""
    ev = _series_constant._Evaluation("seed", ERASING)
    every = (True, frozenset[str]())
    keys = {ev.group_key(every, "by(pod)", s) for s in range(_series_constant._SERIES)}
    assert 1 < len(keys) < _series_constant._SERIES
    assert constant.__wrapped__(f"count by (pod) ({_SEL})", ERASING) is True
