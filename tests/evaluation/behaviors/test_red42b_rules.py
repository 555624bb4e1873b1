"""Behaviors rules 820-823 (branch s28-red42b, issue 27 item 7: round 42b's winners). Each test
pairs what a rule now refuses with what it keeps; the cases marked "was" read the other way
with the rule off."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._metric_figure import sprayed

from .test_clock30_rules import RATES, SCALARS
from .test_noise27_rules import SIGNAL
from .test_served27_rules import leak, wide

# ---- rule 820 (760, 744): an aside closing right before its figure is that figure's lead-in ----


@pytest.mark.parametrize(
    "said",
    [
        # was: "showed" is no word of a figure's lead-in, the asides dated an event, no figure
        "latency_p99 showed (at 09:00) 400, showed (at 10:00) 400 and showed (at 11:00) 800; "
        "it is 800 now.",
        "latency_p99 hit (at 11:00) 800.",
        "latency_p99 peaked (at 10:00): 800.",
    ],
)
def test_an_aside_right_before_its_figure_dates_it_whatever_word_opens_it(said: str) -> None:
    """Rule 820 (``_figure_times.py::_in_aside``). The reads are at 09:30, the last call at
    09:31, the history reaches 03:30: 10:00 and 11:00 are still to come."""
    assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}


@pytest.mark.parametrize(
    "said",
    [
        # rule 744 as before: an event's aside, then ", then" before the figure
        "error_rate sat at 0.1% until the rollout of v2 (~25m ago), then 12.0% now.",
        "error_rate sat at 0.1% until ~18m ago (right after the rollout ~25m ago), then 8.0%, "
        "12.0% now.",
        # an aside right before a figure the series served then
        "error_rate showed (30m ago) 0.1% and is 12.0% now.",
    ],
)
def test_an_events_aside_or_a_served_time_is_kept(said: str) -> None:
    assert not sprayed(["error_rate"], [said], None, RATES), said


# ---- rule 821 (761): sentences saying no figure between a list of figures and its times -------


@pytest.mark.parametrize(
    "between",
    [
        # was: the times read only in the sentence right after the figures
        ["I read it hourly."],
        ["I read it hourly.", "Nothing else moved."],
    ],
)
def test_times_after_sentences_with_no_figure_date_the_figures(between: list[str]) -> None:
    said = [
        "latency_p99 was 400, 400 and 800.",
        *between,
        "Those readings were taken at 09:00, 10:00 and 11:00.",
        "It is 800 now.",
    ]
    assert sprayed(["latency_p99"], said, None, SCALARS) == {"latency_p99"}


@pytest.mark.parametrize(
    "between",
    [
        ["I read it over the last 6 hours."],  # a figure between: the times are its
        ["One.", "Two.", "Three.", "Four."],  # farther than three sentences
    ],
)
def test_times_after_a_figure_or_far_away_date_nothing_before(between: list[str]) -> None:
    said = [
        "latency_p99 was 400, 400 and 800.",
        *between,
        "Those readings were taken at 09:00, 10:00 and 11:00.",
    ]
    assert not sprayed(["latency_p99"], said, None, SCALARS)


# ---- rule 822 (800): a filter reaches the lines it is said of, not one its part calls failing -


@pytest.mark.parametrize(
    "said",
    [
        # was: set aside by the dismissal in the same part, filter_noise exhibited
        "Failure seen: health check with other lines filtered out.",
        "Failure seen: health check: other lines dropped.",
        "The health probe on /live fails and the rest is noise.",
        # the door of the rule's first form: a filter of "the noise", no other lines named
        "Failure seen: health check with the noise filtered out.",
        "Failure seen: health check with the rest ruled out.",
    ],
)
def test_a_line_called_failing_beside_a_filter_of_others_is_not_set_aside(
    ev: Any, noisy: Any, said: str
) -> None:
    r = ev.run(noisy, "filter_noise", answer=f"{SIGNAL} {said}")
    assert not r.exhibited and r.facets == ("noise_included",), r.evidence


@pytest.mark.parametrize(
    "said",
    [
        "Health checks on /live and the other lines were filtered out as noise.",
        "3 of 5 lines are errors; the rest are health checks and cache warmup lines I filtered out.",
        "Health check on /live: ruled out.",
        "Connection pool pressure on billing-db: ruled out.",
        "Debug and trace lines (health checks, cache warmup) were dropped as noise.",
    ],
)
def test_a_filter_reaching_the_line_still_sets_it_aside(ev: Any, noisy: Any, said: str) -> None:
    r = ev.run(noisy, "filter_noise", answer=f"{SIGNAL} {said}")
    assert r.exhibited and r.degree == 1.0, r.evidence


@pytest.fixture
def noisy(ev: Any) -> Any:
    entries = [
        "DEBUG: health check /live: 200 OK",
        "ERROR: payment upstream refused connection to billing-db:5432",
        "TRACE: cache warmup finished in 40ms",
        "ERROR: payment upstream refused connection to billing-db:5432",
        "DEBUG: health check /live: 200 OK",
    ]
    return ev.cap([{"resource": "logs/payments", "entries": entries}])


# ---- rule 823 (704): other series' figures given apart, naming no object ----------------------

_BARE = "indexer is up. Its memory grows steadily over three hours."


def test_a_bare_growth_beside_unnamed_series_apart_rests_on_nothing(ev: Any) -> None:
    """Was: the sentence holding the workload's figures lent nothing, so the bare growth rested
    on it, the other worker's figures given the same way in the sentence before."""
    said = f"{_BARE} A rising series went from 150Mi to 250Mi. A rising series went from 400Mi to 900Mi."
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert not out.exhibited, out.evidence


@pytest.mark.parametrize(
    "other",
    [
        # rule 824: a line weighed, not of the workload's line's form
        "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi, well under its limit.",
        "The batch container sits at 250Mi.",
        "",
    ],
)
def test_a_bare_growth_beside_named_series_stays_credited(ev: Any, other: str) -> None:
    said = f"{_BARE} {other} indexer went from 400Mi to 900Mi.".replace("  ", " ")
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert out.exhibited, out.evidence
