"""The review of the series modules (branch s22-review22): ``si/_series_parse.py``,
``_series_constant.py``, ``_series_query.py`` (behaviors rules 357, 390-392, 415-416).
An agent writes the query, so no query may raise in the evaluator (a plugin fault stops the
scenario's judgement: a harness fault the agent provoked) or hang it. Each case marked "was"
fails on the code before its mend; the others hold what was read before."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import ERASING, erases

from ...support import stack_depth

_X = 'container_memory_working_set_bytes{namespace="ns"}'


@contextmanager
def _frames(free: int) -> Iterator[None]:
    """Only ``free`` frames left above the caller (an engine's stack is deeper than a test's)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + free)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def _judged(query: str) -> bool:
    constant.cache_clear()
    with _frames(400):
        return constant(query, ERASING)


@pytest.mark.parametrize(
    "query",
    [
        "(" * 300 + _X + ")" * 300,  # was: RecursionError
        "abs(" * 150 + _X + ")" * 150,  # was: RecursionError
        "sum(" * 100 + _X + ")" * 100,  # was: RecursionError
        " + ".join([_X] * 400),  # a left-deep tree: was RecursionError in the evaluation
        " ^ ".join([_X] * 400),  # was: RecursionError
        "-(" * 100 + _X + ")" * 100,  # was: RecursionError
    ],
)
def test_a_query_nested_past_the_bound_reads_no_course_and_raises_nothing(query: str) -> None:
    """Rule 392 (``_series_parse._TooDeep``): no query a person writes nests so."""
    assert _judged(query) is True
    with _frames(400):
        assert erases(query) is True


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("-" * 2000 + _X, False),  # signs in a loop (was: RecursionError); an even count: X
        ("-" * 2001 + _X + " + " + _X, True),  # -X + X
        ("(" * 20 + _X + ")" * 20, False),  # nested within the bound: read as before
        ("abs(" * 20 + f"{_X} - {_X}" + ")" * 20, True),
        (" + ".join([_X] * 40), False),
    ],
)
def test_a_query_within_the_bound_is_read_as_before(query: str, expected: bool) -> None:
    assert _judged(query) is expected


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "query",
    [
        f"{_X} - {_X} + 1e99999999",  # was: minutes building 10^99999999
        f"{_X} * 1e-99999999",  # was: minutes
        f"{_X} + {'7' * 5000}",  # was: False, or True where PYTHONINTMAXSTRDIGITS=0
        f"{_X}" + "[1m:]" * 12,  # ranges of ranges: was 4^12 values, minutes
        "stdvar_over_time(" * 12 + _X + "[1m:])" * 12,  # was: bits doubled 12 times, minutes
    ],
)
def test_a_query_too_large_to_evaluate_reads_no_course_in_bounded_time(query: str) -> None:
    """Rule 392 (``_series_constant._TooLarge``): a literal, a value or a count of values
    past what a person writes, never built."""
    assert _judged(query) is True


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"{_X} - {_X} + 1e300", True),  # a large literal within the bound, evaluated
        (f"{_X} * 1e-300", False),
        (f"max_over_time(rate({_X}[5m])[1h:1m])", False),  # a range of a range, evaluated
        (f"max_over_time((({_X}) - ({_X}))[1h:1m])", True),
    ],
)
def test_a_literal_and_a_range_within_the_bounds_are_read_as_before(
    query: str, expected: bool
) -> None:
    assert _judged(query) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"abs({_X} - {_X} + {' * '.join(['1e1000'] * 6)})", True),  # was: False at 4300
        (f"abs({_X} * {' * '.join(['1e1000'] * 6)})", False),
        (f"abs(max_over_time(({_X} * {' * '.join(['1e900'] * 6)})[5m]))", False),
    ],
)
def test_the_verdict_does_not_depend_on_pythons_digit_limit(query: str, expected: bool) -> None:
    """Rule 390 (``_series_constant._text``): a drawn value's text is hexadecimal, so the
    interpreter's int-to-str digit limit (``PYTHONINTMAXSTRDIGITS``) decides nothing."""
    before = sys.get_int_max_str_digits()
    seen = []
    try:
        for limit in (640, 4300, 0):
            sys.set_int_max_str_digits(limit)
            seen.append(_judged(query))
    finally:
        sys.set_int_max_str_digits(before)
    assert seen == [expected] * 3


_MANY = "X{" + ",".join(f'l{i}="v"' for i in range(20_000)) + "}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('X{pod="a b"} - X{pod="ab"}', False),  # two pods (was: True, spaces dropped in values)
        ('X{pod="a,b", ns="n"} - X{ns="n", pod="a,b"}', True),  # one selector, sorted
        ('X{pod=\'w\', ns="n"} - X{ns="n", pod="w"}', True),  # was: False (quotes)
        ('X{ns="n", a!="}"} - X{ns="n", a!="}"}', True),  # a brace in a value (was: False)
        ('X{pod=~"w"} - X{pod="w"}', True),  # rule 357 as before
        (f"{_MANY} - {_MANY}", True),  # a hang guard: a split per comma was quadratic (~13 CPU-s)
    ],
)
def test_a_selectors_matchers_are_read_as_prometheus_reads_them(query: str, expected: bool) -> None:
    """Rule 357 (``_series_parse._canonical_matchers``)."""
    assert _judged(query) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"-{_X} ^ 2 + {_X} ^ 2", True),  # -(X^2) + X^2 (was: False, read (-X)^2 + X^2)
        (f"-{_X} ^ 2 - {_X} ^ 2", False),
        (f"(-{_X}) ^ 2 - {_X} ^ 2", True),
        (f"{_X} ^ -1 * {_X}", True),  # a sign in the exponent
        (f"-{_X} * 2 + 2 * {_X}", True),
    ],
)
def test_a_sign_binds_looser_than_a_power(query: str, expected: bool) -> None:
    """``_series_parse._Parser.unary``: PromQL's precedence since prometheus#6575."""
    assert _judged(query) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Http_Requests_Total - http_requests_total", False),  # two metrics (was: True)
        ('X{ns="n"} - x{ns="n"}', False),  # was: True
        ('SUM(X{ns="n"}) - sum(X{ns="n"})', True),  # a keyword in any case
        ('X{ns="n"} - X{ns="n"} OFFSET 1h', False),
        ('X{ns="n"} UNLESS X{ns="n"}', True),
        ('X{ns="n"} - X{ns="n"} + Inf', True),
    ],
)
def test_a_metric_name_keeps_its_case_and_a_keyword_has_none(query: str, expected: bool) -> None:
    """``_series_parse._canonical_token``: metric names are case-sensitive, keywords not."""
    assert _judged(query) is expected


@pytest.mark.parametrize(
    ("query", "erased"),
    [
        (f"{_X} + up * 0", False),  # X + 0 reads X (was: True, "* 0" at the end)
        (f"0 * up + {_X}", False),  # was: True
        (f"{_X} + (up > bool 1)", False),  # was: True, a bool anywhere
        (f"{_X} * 0", True),  # the whole answer times zero, read by the constancy test
        (f"0 * rate({_X}[5m])", True),
        (f"({_X} + 1) * 0.0", True),
        (f"{_X} > bool 1e30", True),
        (f"{_X} unless on() vector(1)", True),
    ],
)
def test_a_zero_or_a_bool_erases_only_the_answer_it_is_applied_to(query: str, erased: bool) -> None:
    """Rule 260 (``_series_query._ZEROED``): precedence is the constancy test's to read."""
    with _frames(400):
        assert erases(query) is erased
