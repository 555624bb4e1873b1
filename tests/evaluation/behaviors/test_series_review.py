"""The review of the series modules (branch s22-review22): ``si/_series_parse.py``,
``_series_constant.py``, ``_series_query.py`` (behaviors rules 357, 390-392, 415-416).
An agent writes the query, so no query may raise in the evaluator (a plugin fault stops the
scenario's judgement: a harness fault the agent provoked) or hang it. Each test fails on the
code before its mend."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import ERASING, erases

_X = 'container_memory_working_set_bytes{namespace="ns"}'


@contextmanager
def _frames(free: int) -> Iterator[None]:
    """Only ``free`` frames left above the caller (an engine's stack is deeper than a test's)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + free)
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
