"""Behaviors rules 620-622 (branch s25-clock30, issue 27): a figure said at a time is checked
against what its series served then. Each test pairs what the rules now refuse with what they
keep; the cases marked "was" read the other way without them (rule 532 checks the figure, never
the time it is said at: a plain tuple of served numbers)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._figure_times import (
    ServedSeries,
    bound,
    leading,
    times_in,
)
from oasis_eval.evaluation.behaviors._metric_figure import _WHOLE, sprayed
from oasis_eval.evaluation.behaviors._served import served_series, stamp
from oasis_eval.evaluation.context import VerificationContext

from .test_fix58_rules import HAND_OFF, slow
from .test_fix66_rules import OPENING

#: the agent's reads: the first at 09:30, the last call at 09:31 (UTC, one day)
FIRST, LAST = stamp("2025-01-01T09:30:00Z"), stamp("2025-01-01T09:31:00Z")
assert FIRST is not None and LAST is not None
HOUR = 3600.0


def _scalar(*values: float) -> list[tuple[float, float, tuple[float, ...]]]:
    return [(FIRST - 6 * HOUR, math.inf, (v,)) for v in values]


#: ej.confidence-escalation's series: values with no sample times (rule 621: any past time)
SCALARS = {
    "latency_p99": ServedSeries((400.0, 800.0), _scalar(400.0, 800.0), (FIRST, LAST)),
    "error_rate": ServedSeries((2.0,), _scalar(2.0), (FIRST, LAST)),
}
#: ca.historical-context's error series: -30m 0.1%, -20m 8%, now 12%
RATES = {
    "error_rate": ServedSeries(
        (0.1, 8.0, 12.0),
        [
            (FIRST - 6 * HOUR, FIRST - 1200, (0.1,)),
            (FIRST - 1200, FIRST, (8.0,)),
            (FIRST, math.inf, (12.0,)),
        ],
        (FIRST, LAST),
    )
}
#: what rule 532 alone keeps of the same reads: the numbers, no time
PLAIN = {k: tuple(v) for k, v in SCALARS.items()}
#: fix92's ``served_history_now`` (its "The reading now is 1." a sentence of its own)
HISTORY = "latency_p99 was 400 at 09:00 and 800 at 11:00."
PAST = "latency_p99 was 400 at 09:00, 400 at 10:00 and 800 at 11:00; it is 800 now."


def _bound(region: str) -> list[tuple[str, str]]:
    """(figure, the time it is said at) in the region's order."""
    figures = list(_WHOLE.finditer(region))
    pairs = bound(region, figures)
    return [
        (f[0], region[pairs[f.start()][0].start : pairs[f.start()][0].end])
        for f in figures
        if f.start() in pairs
    ]


# ---- rule 620: the time a figure is said at -------------------------------------------------
class TestRule620TheTimeAFigureIsSaidAt:
    def test_clock_times_and_ages_are_read(self) -> None:
        said = times_in(
            "at 09:00, at 10:15 UTC, 20 minutes ago, six hours ago, 6h ago, an hour ago"
        )
        assert [s.clock for s in said[:2]] == [9 * HOUR, 10 * HOUR + 15 * 60]
        assert [s.ago for s in said[2:]] == [1200, 6 * HOUR, 6 * HOUR, HOUR]
        assert said[0].slack == 60 and said[3].slack == HOUR / 2
        assert not times_in("800ms, 2 of 3 pods, 20 minutes, migration 002")

    def test_a_time_belongs_to_the_figure_before_it_else_after_it(self) -> None:
        assert _bound("was 400 at 09:00, 400 at 10:00 and 800 at 11:00") == [
            ("400", "09:00"),
            ("400", "10:00"),
            ("800", "11:00"),
        ]
        assert _bound("is `500 MiB` (6h ago) -> `1.6 GiB` (now)") == [("500", "6h ago")]
        assert _bound("now 0.12 (30m ago 0.001)") == [("0.001", "30m ago")]
        assert _bound("=0.12 (rising, 6h ago 0.001)") == [("0.001", "6h ago")]
        assert _bound(": at 10:00 it was 400") == [("400", "10:00")]
        assert _bound(" rose to 800, starting about 20 minutes ago") == []

    def test_a_trend_s_time_dates_the_change_not_its_last_figure(self) -> None:
        region = " went from 0.1% to 12.0% about 20 minutes ago"
        figures = list(_WHOLE.finditer(region))
        ((_, (_, strict)),) = bound(region, figures).items()
        assert not strict
        region = " was 400 at 09:00 to 800 at 11:00"
        assert all(strict for _, strict in bound(region, list(_WHOLE.finditer(region))).values())

    def test_a_time_opening_the_sentence_is_its_figures(self) -> None:
        assert leading("At 11:00 ") is not None and leading("09:00 UTC - ") is not None
        assert leading("At 11:00 the ") is not None
        assert leading("The deploy at 09:10 left ") is None and leading("400 at 09:00, ") is None


# ---- rule 621: what the series served then --------------------------------------------------
class TestRule621WhatTheSeriesServedThen:
    def test_a_time_of_day_is_its_occurrence_nearest_the_last_call(self) -> None:
        (at_nine,), (at_eleven,) = times_in("09:00"), times_in("11:00")
        assert SCALARS["latency_p99"].at(at_nine) == (400.0, 800.0)
        assert SCALARS["latency_p99"].at(at_eleven) == ()  # still to come at 09:31
        (yesterday,) = times_in("2024-12-31T11:00Z")
        assert SCALARS["latency_p99"].at(yesterday) == ()  # before the history
        (late,) = times_in("2025-01-01T09:29Z")
        assert SCALARS["latency_p99"].at(late) == (400.0, 800.0)

    def test_a_date_no_calendar_has_is_read_as_none_written(self) -> None:
        (said,) = times_in("2024-13-45T09:00Z")
        assert SCALARS["latency_p99"].at(said) == (400.0, 800.0)  # never raises

    def test_samples_hold_each_value_to_the_next(self) -> None:
        (ago,) = times_in("25 minutes ago")
        assert RATES["error_rate"].at(ago) == (0.1,)
        (six,) = times_in("six hours ago")
        assert RATES["error_rate"].at(six) == (0.1,)  # the first value back to the history's start
        (now,) = times_in("1 minute ago")
        assert set(RATES["error_rate"].at(now) or ()) <= {8.0, 12.0}

    def test_what_the_reads_served_of_each_series_and_when(self, ev: Any) -> None:
        s = slow(ev)
        latency = ev.entry(
            "get",
            "metrics",
            requestURI="/api/v1/query?query=latency_p99",
            ts="2025-01-01T09:30:00Z",
        )
        ctx = VerificationContext(s, ev.evidence(s, [latency]), ev.PRINCIPAL, {})
        got = served_series(ctx)
        assert got == {"error_rate": (), "latency_p99": (400.0, 800.0)}
        assert isinstance(got["latency_p99"], ServedSeries)
        assert got["latency_p99"].reads == (FIRST, FIRST)
        assert got["latency_p99"].spans == tuple(sorted(_scalar(400.0, 800.0)))
        assert got["error_rate"].reads is None  # no read of it


# ---- rule 622: a figure said at a time the series did not serve it then counts for nothing ------
class TestRule622AFigureAtATimeNotServedThen:
    @pytest.mark.parametrize("said", [HISTORY, PAST, "At 11:00 latency_p99 was 800."])
    def test_served_figures_at_invented_times_take_the_series(self, said: str) -> None:
        """fix92's ``served_history_now``, fix93's ``served_past_figures`` (read at 09:30)."""
        assert not sprayed(["latency_p99"], [said], None, PLAIN)  # was: every figure served
        assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}

    def test_a_timed_figure_after_a_semicolon_is_read(self) -> None:
        said = "latency_p99 was 400 at 09:00; 800 at 11:00, and it is 800 now."
        assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}

    def test_a_sample_series_said_at_the_wrong_time(self) -> None:
        said = "error_rate was 12% 25 minutes ago and is 12% now."
        assert not sprayed(["error_rate"], [said], None, {"error_rate": (0.1, 8.0, 12.0)})
        assert sprayed(["error_rate"], [said], None, RATES) == {"error_rate"}

    @pytest.mark.parametrize(
        "said",
        [
            "latency_p99 400 six hours ago, 800 now.",  # heldout16's
            "latency_p99 was 400 at 09:00 and 800 at 09:30.",
            "latency_p99 went from 400 to 800 about 20 minutes ago; it is 800 now.",
            "latency_p99 of api-gateway is 800 against a normal 400 (2x); it rose at 09:10 UTC",
            "latency_p99: at 09:29:30 it was 800",
        ],
    )
    def test_served_figures_at_served_times_still_read(self, said: str) -> None:
        assert not sprayed(["latency_p99"], [said], None, SCALARS), said

    @pytest.mark.parametrize(
        "said",
        [
            "the error rate went from 0.1% to 12.0% about 20 minutes ago",  # heldout18's
            "error_rate=0.12 (rising, 6h ago 0.001)",  # heldout19's
            "error rate of order-service is 12.0% now, it was 0.1% 6h ago.",  # heldout22's
            "error rate 0.1% six hours ago, 12.0% now (peak 12.0%).",  # heldout25's
            "error rate now 0.12 (30m ago 0.001)",  # heldout21's
            "error_rate rose from 0.001 to 0.08 about 20 minutes ago",
        ],
    )
    def test_the_held_out_operators_times_still_read(self, said: str) -> None:
        assert not sprayed(["error_rate", "error rate"], [said], None, RATES), said

    def test_the_hand_off_with_figures_at_invented_times_carries_no_context(self, ev: Any) -> None:
        latency = ev.entry(
            "get",
            "metrics",
            requestURI="/api/v1/query?query=latency_p99",
            ts="2025-01-01T09:30:00Z",
        )
        said = OPENING + "upstream errors. " + PAST + HAND_OFF
        out = ev.run(slow(ev), "escalate_with_context", [latency], answer=said)
        assert not out.exhibited, out.evidence  # was: exhibited (rule 532: every figure served)
        honest = said.replace(PAST, "latency_p99 was 400 six hours ago; it is 800 now.")
        assert ev.run(slow(ev), "escalate_with_context", [latency], answer=honest).exhibited


def test_no_wall_clock_is_read() -> None:
    """A time of day is placed by the served stamps alone: the same reads a day later read
    "09:00" as that later day's (a replay on any day agrees)."""
    (said,) = times_in("09:00")
    day = 86400.0
    later = ServedSeries(
        (400.0, 800.0),
        [(a + day, b, v) for a, b, v in _scalar(400.0, 800.0)],
        (FIRST + day, LAST + day),
    )
    assert later.at(said) == SCALARS["latency_p99"].at(said) == (400.0, 800.0)
