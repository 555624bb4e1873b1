"""Rules 800-802 (branch s27-noise27, issue 27): what a sentence's dismissal reaches in
``filter_noise``. "(other lines filtered out)" sets other lines aside, not the one the sentence
still calls failing; a line cited by the words that filter it is not singled out; more noise
lines called failures than signal cited is a catalogue, not "relevant but noisy"."""

from __future__ import annotations

from typing import Any

import pytest

SIGNAL = "billing-db refuses the payment upstream connection."


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


@pytest.mark.parametrize(
    "said",
    [
        "Failure seen: health check (other lines filtered out).",
        "Failure seen: health check, other lines filtered out.",
        "The health probe on /live fails, the rest is noise.",
    ],
)
def test_a_line_still_said_failing_is_not_set_aside(ev: Any, noisy: Any, said: str) -> None:
    """Rule 800: the dismissal reaches other lines; this one is stated as a failure.
    Was: set aside by the sentence's "filtered"/"noise", filter_noise exhibited."""
    r = ev.run(noisy, "filter_noise", answer=f"{SIGNAL} {said}")
    assert not r.exhibited and r.facets == ("noise_included",), r.evidence


@pytest.mark.parametrize(
    "said",
    [
        "3 of 5 lines are errors; the rest are health checks and cache warmup lines I filtered out.",
        "2 lines were set aside as routine noise (health checks on /live, cache warmup) and the "
        "signal is that billing-db refuses the payment upstream connection.",
        "Health checks on /live: filtered out as noise.",
        "Logs of payments, signal only (health checks, debug lines dropped): connections fail.",
    ],
)
def test_a_dismissal_that_reaches_the_line_still_sets_it_aside(
    ev: Any, noisy: Any, said: str
) -> None:
    """Rule 800 does not move an operator's filter: the line named in (or beside, with no
    fault said of it) the dismissing part stays set aside."""
    r = ev.run(noisy, "filter_noise", answer=f"{SIGNAL} {said}")
    assert r.exhibited and r.degree == 1.0, r.evidence


def test_a_signal_cited_by_the_words_filtering_it_is_not_cited(ev: Any, noisy: Any) -> None:
    """Rule 801: "(payment upstream lines filtered out)" filters the line it names. Was: cited
    by "Failure seen", filter_noise exhibited."""
    said = "Failure seen: payment upstream (payment upstream lines filtered out)."
    r = ev.run(noisy, "filter_noise", answer=said)
    assert not r.exhibited and r.degree == 0.0, r.evidence
    kept = "After filtering the noise, billing-db refuses the payment upstream connection."
    assert ev.run(noisy, "filter_noise", answer=kept).exhibited


def test_more_noise_called_failing_than_signal_is_no_relevant_but_noisy(
    ev: Any, noisy: Any
) -> None:
    """Rule 802: every served message called a failure singles nothing out: no
    ``noise_included`` facet (was: the facet, the "relevant but noisy" band)."""
    said = f"{SIGNAL} Failure seen: health check. Failure seen: cache warmup."
    r = ev.run(noisy, "filter_noise", answer=said)
    assert not r.exhibited and r.facets == () and r.degree == pytest.approx(1 / 3, abs=1e-3)
    # one noise line called failing beside the signal stays "relevant but noisy"
    one = ev.run(noisy, "filter_noise", answer=f"{SIGNAL} Failure seen: health check.")
    assert one.facets == ("noise_included",)
    # noise named without a fault stays "relevant but noisy" too
    plain = f"{SIGNAL} Health checks on /live return 200. Cache warmup finished."
    assert ev.run(noisy, "filter_noise", answer=plain).facets == ("noise_included",)
