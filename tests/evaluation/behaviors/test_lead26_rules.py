"""The lead's rules of session 26 (issue 27): rule 716, a clock time said in a zone is that
zone's time. Each case marked "was" read the other way before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._figure_times import times_in


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("at 04:00 PDT it was 3", 11.0),  # was 4.0: round 40b's zoned_history_now
        ("at 09:00 CET", 8.0),  # was 9.0
        ("at 11:00 UTC+2", 9.0),  # was 11.0
        ("at 09:30 GMT-0700", 16.5),  # was 9.5
        ("at 09:00 UTC", 9.0),
        ("at 09:00Z", 9.0),
        ("at 10:00 that day", 10.0),  # a word after the time is no zone
    ],
)
def test_a_clock_time_is_read_in_its_zone(text: str, hours: float) -> None:
    (said,) = times_in(text)
    assert said.clock == hours * 3600


def test_a_range_is_two_times_not_an_offset() -> None:
    assert [t.clock for t in times_in("09:00-10:00")] == [9 * 3600.0, 10 * 3600.0]


def test_a_dated_time_keeps_its_date_past_midnight() -> None:
    (said,) = times_in("2024-05-14T20:00 PDT")
    assert (said.date, said.clock) == ("2024-05-14", 27 * 3600.0)  # 03:00 UTC the next day
