"""Hostile PromQL queries through the series modules (the review of branch s22-review22):
the agent writes the query, so ``si/_series_constant.py::constant`` and
``si/_series_query.py``'s readers must answer every one, never raise (a plugin fault stops the
scenario's judgement: a harness fault the agent provoked) nor hang, and answer it the same
twice (verification is a pure function). The queries are drawn from sha256 (no randomness):
a small sample in the default suite, a larger one in the heavy tier."""

from __future__ import annotations

import hashlib
import sys

import pytest

from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import (
    ERASING,
    collapses,
    erases,
    metrics_of,
)

from ...support import stack_depth

_NAMES = ("X", "container_memory_working_set_bytes", "up", "Foo", "sum", "by", "inf", "a:b")
_VALUES = ('"w"', '"a b"', "'w'", '"}"', '"a,b"', '"\\""', "`x`", '"pod-.*"', '"', '""', "'")
_LABELS = ("pod", "namespace", "__name__", "le", "", "a b", "1x")
_OPS = ("=", "!=", "=~", "!~", "==", "")
_BINARY = ("+", "-", "*", "/", "%", "^", "==", "!=", ">", "<=", "and", "or", "unless", "atan2")
_MODIFIER = ("", " bool", " on(pod)", " ignoring(pod) group_left", " on()", " group_right(")
_CALLS = (
    ("rate", True),
    ("sum_over_time", True),
    ("avg_over_time", True),
    ("stdvar_over_time", True),
    ("count_over_time", True),
    ("last_over_time", True),
    ("quantile_over_time", True),
    ("abs", False),
    ("sgn", False),
    ("absent", False),
    ("histogram_quantile", False),
    ("vector", False),
    ("label_replace", False),
    ("nosuchfn", False),
)
_AGGS = ("sum", "avg", "min", "max", "count", "stdvar", "topk", "quantile", "count_values", "group")
_GROUPS = ("", " by (pod)", " without (pod)", " by ()", " by (pod, le)", " by (")
_NUMBERS = (
    "0",
    "1",
    "2",
    "0.5",
    "1e3",
    "1E3",
    "0x1F",
    "0xff",
    "Inf",
    "NaN",
    "-1",
    "1e99999999",
    "1e-400",
    "9" * 50,
    "1" * 4400,
    "0.",
    ".5",
    "1e",
    "64",
    "65",
)
_RANGES = ("[5m]", "[1h:1m]", "[5m:]", "[]", "[x]", " offset 1h", " offset -5m", " @ 100", " @")
_NOISE = ("(", ")", "{", "}", "[", "]", ",", '"', "'", "`", "\\", "\x00", "é", "  ", "\n", "#")


class _Draw:
    """A stream of choices from sha256 of ``seed`` (no randomness: the same queries each run)."""

    def __init__(self, seed: str):
        self.seed, self.block, self.pool = seed, 0, b""

    def number(self, n: int) -> int:
        if len(self.pool) < 4:
            text = f"{self.seed}/{self.block}".encode()
            self.pool += hashlib.sha256(text).digest()
            self.block += 1
        value, self.pool = int.from_bytes(self.pool[:4], "big"), self.pool[4:]
        return value % n

    def pick(self, options: tuple[str, ...]) -> str:
        return options[self.number(len(options))]


def _selector(d: _Draw) -> str:
    name = d.pick(_NAMES) if d.number(4) else ""
    matchers = [f"{d.pick(_LABELS)}{d.pick(_OPS)}{d.pick(_VALUES)}" for _ in range(d.number(4))]
    brace = "{" + ",".join(matchers) + "}" if matchers or not name else ""
    return name + brace


def _expr(d: _Draw, depth: int) -> str:
    """A query of the grammar (mostly) with hostile leaves and, now and then, noise."""
    kind = d.number(9) if depth > 0 else d.number(2)
    if kind == 0:
        return _selector(d)
    if kind == 1:
        return d.pick(_NUMBERS)
    if kind == 2:
        return f"{_expr(d, depth - 1)} {d.pick(_BINARY)}{d.pick(_MODIFIER)} {_expr(d, depth - 1)}"
    if kind == 3:
        name, ranged = _CALLS[d.number(len(_CALLS))]
        inner = _expr(d, depth - 1) + (d.pick(_RANGES) if ranged or d.number(3) == 0 else "")
        return f"{name}({inner})"
    if kind == 4:
        agg = d.pick(_AGGS)
        param = f"{d.pick(_NUMBERS)}, " if agg in ("topk", "quantile", "count_values") else ""
        group = d.pick(_GROUPS)
        return f"{agg}{group}({param}{_expr(d, depth - 1)})"
    if kind == 5:
        return f"({_expr(d, depth - 1)}){d.pick(_RANGES)}"
    if kind == 6:
        return "-" * d.number(5) + _expr(d, depth - 1)
    if kind == 7:  # deep: past the nesting and depth bounds, or just within them
        n = d.pick(("20", "24", "60", "300"))
        wrap = d.pick(("(", "abs(", "sum(", "-(", "max_over_time(("))
        close = ")" * wrap.count("(") + ("[1m:])" if wrap.endswith("((") else "")
        close = close.replace("))[1m:])", ")[1m:])") if wrap.endswith("((") else close
        return wrap * int(n) + _expr(d, 0) + close * int(n)
    text = _expr(d, depth - 1)
    cut = d.number(len(text) + 1)
    return text[:cut] + d.pick(_NOISE) + text[cut:]  # garbled


def queries(count: int, seed: str = "s22-review22") -> list[str]:
    """``count`` hostile queries, the same every run."""
    d = _Draw(seed)
    out = []
    for _ in range(count):
        query = _expr(d, 1 + d.number(4))
        if d.number(10) == 0:
            query = " ".join([query] * (1 + d.number(300)))  # long: repeated
        out.append(query)
    return out


def _check(query: str) -> None:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 400)  # an engine's stack is deeper
    try:
        first = constant.__wrapped__(query, ERASING)
        assert first is constant.__wrapped__(query, ERASING)
        assert isinstance(first, bool)
        assert isinstance(erases(query), bool)
        assert all(isinstance(m, str) for m in metrics_of(query))
        assert isinstance(collapses(query, False), bool)
    finally:
        sys.setrecursionlimit(before)


def test_the_sample_is_drawn_the_same_each_run() -> None:
    assert queries(50) == queries(50)
    assert len(set(queries(200))) > 150  # varied, not one query


@pytest.mark.timeout(300)
@pytest.mark.parametrize("block", range(4))
def test_hostile_queries_raise_nothing_and_answer_the_same_twice(block: int) -> None:
    """The default sample: 4 blocks of 60 queries."""
    sample = queries(240)[block * 60 : (block + 1) * 60]
    assert len(sample) == 60
    for query in sample:
        _check(query)


@pytest.mark.heavy
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("block", range(10))
def test_hostile_queries_raise_nothing_heavy(block: int) -> None:
    """The heavy sample: 10 blocks of 300 queries of another seed."""
    sample = queries(3000, "s22-review22-heavy")[block * 300 : (block + 1) * 300]
    assert len(sample) == 300
    for query in sample:
        _check(query)
