"""A constant query by identity test (issue 27, branch s20-fix75): behaviors rule 390.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si import _series_constant
from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import ERASING, erases

from .test_round31a_rules import _MEM, _POD, _SEL

_OTHER = 'kube_pod_container_status_restarts_total{namespace="default"}'


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # fix73's sum_divided_rising: every value 0 wherever it is defined (was: False)
        (f"(({_SEL} + 1) * {_SEL}) / ({_SEL} + 1) - {_SEL}", True),
        (f"({_SEL} * {_POD} + {_SEL}) / ({_POD} + 1) - {_SEL}", True),  # (was: False)
        (f"(({_SEL} - 1) ^ 2 + 2 * {_SEL} - 1) / {_SEL} ^ 2", True),
        # one call of one argument, however spelled
        (f"abs({_SEL} - {_SEL} + {_POD}) - abs({_POD})", True),  # (was: False)
        (f"rate(({_SEL} + 0)[5m:1m]) - rate({_SEL}[5m:1m])", True),
        # a comparison decided the same way at every point answers nothing (was: False)
        (f"{_SEL} > {_SEL} + 1", True),
        (f"({_SEL} != {_SEL}) + {_SEL}", True),
        # the earlier rules' cases still read
        (f"({_SEL} / {_SEL}) * {_SEL} - {_SEL}", True),
        (f"{_SEL} - {_SEL}", True),
        (f"({_SEL} + {_SEL}) - 2 * {_SEL}", True),
        (f'{_SEL} - {_MEM}{{namespace=~"default"}}', True),
        # a divisor zero at every draw: the answer is Inf or NaN for every series
        (f"{_SEL} / ({_POD} - {_POD})", True),  # (was: False)
        # what a human writes: a value of a series, read
        (f"rate({_SEL}[5m]) * 100", False),
        (f"{_SEL} / {_OTHER}", False),
        (f"{_SEL} - {_SEL} offset 1h", False),
        (f"sum by (pod) ({_SEL}) / sum by (pod) ({_OTHER})", False),
        (f"{_SEL} > 0.9 * {_POD}", False),
        (f"{_SEL} / ({_SEL} + {_POD})", False),
        (f"{_SEL} ^ 0.5 * {_SEL} ^ 0.5 - {_SEL}", False),  # a non-integer power: a function
        # rule 445: the two groupings' series never match (Prometheus answers nothing)
        (f"sum by (pod) ({_SEL}) - sum by (node) ({_SEL})", True),
        (f"minute({_SEL})", False),  # the series' values read as times (was: True)
        (f"{_SEL} or {_OTHER}", False),
    ],
)
def test_a_query_is_constant_where_every_point_gives_one_value(query: str, expected: bool) -> None:
    """Rule 390 (``si/_series_constant.py::constant``, ``_Evaluation``)."""
    assert erases(query) is expected
    assert constant.__wrapped__(query, ERASING) is expected  # the same without the cache


def test_a_division_by_zero_draws_the_point_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 390: with series valued 2 or 3 only, ``X - 2`` is zero at half the draws; the
    point is drawn again and the identity still holds."""
    monkeypatch.setattr(_series_constant, "_SPAN", 2)
    query = f"({_SEL} / ({_SEL} - 2)) * ({_SEL} - 2) - {_SEL}"
    assert constant.__wrapped__(query, ERASING) is True


def test_the_points_are_drawn_from_the_query_itself() -> None:
    """Rule 390: the points are a pure function of the query's normalised text, so a query's
    atoms take other values in a query spelled otherwise, and the same in a respelling."""
    a = _series_constant._Parser(f"{_SEL} - {_SEL}")
    b = _series_constant._Parser(f'{_MEM}{{ namespace = "default" }} - {_SEL}')
    assert a.toks == b.toks
    one = _series_constant._Evaluation("seed-a", ERASING)
    two = _series_constant._Evaluation("seed-b", ERASING)
    atom = _series_constant._Expr("atom", _SEL)
    assert one.run(atom) != two.run(atom)
    assert len(set(one.run(atom))) == _series_constant._POINTS


def test_a_value_too_large_reads_no_course() -> None:
    """Rule 392 (was: rule 390's known limit, not judged, read as a course): a power of a
    power of a power grows past what is evaluated, and no query a person writes does: it reads
    no course. A plain power still reads one."""
    query = f"(({_SEL} ^ 64) ^ 64) ^ 64 - (({_SEL} ^ 64) ^ 64) ^ 64"
    assert constant(query, ERASING) is True
    assert constant(f"(({_SEL} ^ 64) ^ 64) ^ 64", ERASING) is True
    assert constant(f"{_SEL} ^ 2", ERASING) is False
