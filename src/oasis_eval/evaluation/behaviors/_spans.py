"""Positions against spans by bisection (issue 30: an answer's size is the agent's choice).

Rules 724, 763 and 825 (``si/operations.py``) asked, for each option of a clause, whether any
object name or remediation cue stands in it, and for each cue whether an object name holds
it, with ``any`` over every span: a clause of n options and n names cost n * n (round 41b's
``dotted_or_runs_41b``, 20,000 "or"). These answer the same questions in log n each."""

from __future__ import annotations

import bisect
from collections.abc import Iterable


class Points:
    """Sorted positions: :meth:`any_in` is ``any(a <= x < b for x in points)``."""

    __slots__ = ("_xs",)

    def __init__(self, points: Iterable[int]) -> None:
        self._xs = sorted(points)

    def any_in(self, a: int, b: int) -> bool:
        i = bisect.bisect_left(self._xs, a)
        return i < len(self._xs) and self._xs[i] < b


class Spans:
    """Half-open spans, overlapping or not: :meth:`holds` is ``any(a <= x < b for a, b in
    spans)``, by the furthest end among the spans opening at or before ``x``."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [a for a, _ in ordered]
        self._ends: list[int] = []
        furthest = None
        for _, b in ordered:
            furthest = b if furthest is None else max(furthest, b)
            self._ends.append(furthest)

    def holds(self, x: int) -> bool:
        i = bisect.bisect_right(self._starts, x) - 1
        return i >= 0 and self._ends[i] > x
