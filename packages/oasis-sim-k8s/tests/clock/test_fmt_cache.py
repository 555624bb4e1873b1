"""The timestamp caches of ``cluster/clock.py`` (issue 30) give the text the plain formatting
gives, for any zone and any instant, and a clock's ``ts`` follows its own time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from oasis_sim_k8s.cluster.clock import SimClock, fmt


def _plain(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_fmt_is_the_utc_text_in_every_zone() -> None:
    base = datetime(2024, 5, 14, 9, 30, tzinfo=UTC)
    for hours in (-11, -5, 0, 3, 14):
        zone = timezone(timedelta(hours=hours))
        for seconds in (0, 1, 59, 3600, 86399, 10**6):
            dt = (base + timedelta(seconds=seconds, microseconds=123456)).astimezone(zone)
            assert fmt(dt) == _plain(dt)
            assert fmt(dt, ms=True) == _plain(dt)[:-1] + f".{dt.microsecond // 1000:03d}Z"


def test_ts_follows_the_clock_and_the_offset() -> None:
    clock = SimClock()
    first = clock.ts()
    assert clock.ts() == first
    clock.advance(90_000)
    assert clock.ts() != first
    assert clock.ts(90) == first
    assert clock.ts(0.5) == _plain(clock.now() - timedelta(seconds=0.5))
