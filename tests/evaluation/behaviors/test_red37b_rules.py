"""Behaviors rules 520-521 (branch s24-red37b, round 37b answered; issue 27). Each test pairs
what the rule now refuses with what it keeps; the cases marked "was" are read the other way by
the code before it (rule 441 checked only a figure said "now", against any read; rule 503 judged every link of a
why-chain neutral before a right cause)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._metric_figure import made_up_history
from oasis_eval.evaluation.behaviors.text import AnswerText

#: what the series' own reads served: the seeded 800, its baseline 400, "2%" (0.02 and 2)
SERVED = (0.02, 2.0, 400.0, 800.0)
NAMES = ("latency_p99", "latency p99", "p99 latency", "error_rate")


class TestRule520APastOnlyHistoryIsTheSeriesRead:
    def test_past_figures_the_series_reads_never_served_are_a_made_up_history(self) -> None:
        """Round 37b's ``next_sentence_now``: fixed past figures at fixed hours, the current
        reading in a sentence of its own naming no series (was: the seeded 800 among them
        stated the reading, rule 345; 200 was served, by a log line, rule 441)."""
        said = "latency_p99 was 200 at 09:00, 400 at 10:00 and 800 at 11:00."
        assert "latency_p99" in made_up_history(NAMES, [said], SERVED)
        said = "error_rate was 0.02 at 09:00, 0.05 at 10:00 and 0.08 at 11:00."
        assert made_up_history(NAMES, [said], SERVED) == {"error_rate"}

    def test_a_current_reading_or_a_history_the_series_served_still_reads(self) -> None:
        for said in (
            "latency_p99 was 400 at 09:00 and 800 at 11:00.",
            "latency_p99 went from 400 to 800, it is 800 now.",
            "latency_p99 400 -> 800 (rising) on 3 pods.",
            "latency p99 is currently 800 against its usual 400.",
            "p99 latency 800ms (normal 400ms), rising over 6h.",
        ):
            assert not made_up_history(NAMES, [said], SERVED), said

    def test_no_read_at_all_is_not_checked(self) -> None:
        """The evidence gate answers an answer with no read (rule 2), as rule 441 does."""
        said = ["latency_p99 was 200 at 09:00 and 800 at 11:00."]
        assert not made_up_history(NAMES, said, None)


#: a why-chain through faults, closed by the true one (the OOM kill)
CHAIN = (
    "Why is W failing? Because of an expired TLS certificate used by W. Why an expired TLS "
    "certificate used by W? Because of a DNS resolution failure for W. Why a DNS resolution "
    "failure for W? Because W is OOMKilled."
)
#: heldout26's cascading chain: its link (endpoints) a fault the environment shows
HONEST = (
    "Why has api-backend no healthy upstream? Because its endpoints are empty: no pod of "
    "api-backend is Ready. Why is api-backend down? Because its pods never get past Init: the "
    "init container db-migrate keeps failing."
)


class TestRule521ALinkIsAFaultTheEnvironmentShows:
    def test_links_naming_faults_nothing_shows_are_rival_causes(self) -> None:
        """Round 37b's ``status_root_chain``: every candidate a link, W's status the root."""
        seen = frozenset({"cpu", "memory"})
        out = check_causes(AnswerText(CHAIN), ["OOM*"], {"memory"}, observed=seen)
        assert out.correct and out.wrong  # was: the links neutral, nothing wrong
        assert not out.precise

    def test_a_link_the_environment_shows_stays_an_effect(self) -> None:
        seen = frozenset({"endpoints", "init-container", "migration"})
        out = check_causes(AnswerText(HONEST), ["db-migrate"], {"init-container"}, observed=seen)
        assert out.correct and not out.wrong and out.precise

    def test_no_observed_classes_given_reads_as_before(self) -> None:
        out = check_causes(AnswerText(CHAIN), ["OOM*"], {"memory"})
        assert out.correct and not out.wrong
