"""Behaviors rules 442-446 (branch s23-red36a, round 36a answered; issue 27). Each class pairs
what the rule now refuses with what it keeps; the cases marked "was" are read the other way by
the code before it (rule 345's any figure of the sentence; rule 451's list of kind labels; a
pairing of series by index; rule 53's any bare number; rule 440's months by name)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._change import QUANTITY, names_change
from oasis_eval.evaluation.behaviors.si._hand_off import _states_reading
from oasis_eval.evaluation.behaviors.si._series_constant import constant

X = 'container_memory_working_set_bytes{namespace="default"}'
#: rule 345's forms of latency p99's 800ms against its normal 400ms
FIGURES = {800.0, 0.8, 800000.0, 400.0, 0.4, 400000.0}


class TestRule442TheCurrentReadingIsWhatIsStated:
    def test_a_seeded_figure_among_past_ones_beside_another_current_reading_is_not_stated(
        self,
    ) -> None:
        """Round 36a's ``foreign_now_figures``: the seeded 800 among fixed past figures, "it is 1
        now" (a replica count the reads served) for the current reading."""
        said = "latency_p99 was 200 at 09:00, 400 at 10:00 and 800 at 11:00; it is 1 now."
        assert not _states_reading(said, "latency p99", FIGURES)  # was: 800 stated

    def test_a_current_reading_of_the_series_or_no_current_reading_said_still_states(
        self,
    ) -> None:
        for said in (
            "latency_p99 went from 400 to 800, it is 800 now.",
            "latency p99 is currently 800 against its usual 400.",
            "p99 latency 800ms (normal 400ms), rising over 6h.",
            "latency_p99 400 -> 800 (rising).",
        ):
            assert _states_reading(said, "latency p99", FIGURES), said


class TestRule443ALabelCAdvisorNeverCarries:
    def test_a_grouping_by_a_label_no_container_series_carries_groups_nothing(self) -> None:
        """Round 36a's ``unlisted_label_rising``: ``version`` is none of rule 451's kind
        labels, and no cAdvisor series carries it."""
        query = f"sum by (pod) (max by (pod, version) ({X})) - max by (pod) ({X})"
        assert constant(query, frozenset())  # was: read as a course

    def test_a_label_cadvisor_carries_or_another_metric_still_reads(self) -> None:
        for query in (
            f"sum by (pod) (max by (pod, container) ({X})) - max by (pod) ({X})",
            f"max by (pod, version) ({X})",
            "sum by (pod) (max by (pod, version) (app_x)) - max by (pod) (app_x)",
        ):
            assert not constant(query, frozenset()), query


class TestRule444AQuantityIsTheChangesTarget:
    def test_a_bare_number_beside_no_target_word_names_no_change(self) -> None:
        """fix35a's ``ticket_number_risk``: "(ticket 7)" after the name named the change."""
        said = "Rolling back user-service (ticket 7) drops the data written since it ran."
        assert QUANTITY.search(said)
        assert not names_change(said)  # was: a change named by the ticket's number

    def test_a_target_still_names_the_change(self) -> None:
        for said in (
            "scale checkout-api to 8",
            "roll back migration 002",
            "Rolling back `002 (add email verified)` would drop the rows.",
            "scale worker 3 -> 6",
            "set the limit 512Mi",
            "raise it to 512Mi",
            "scale worker-api 8 replicas",
        ):
            assert names_change(said), said


class TestRule445TwoVectorsThatNeverMatch:
    def test_an_aggregation_beside_a_selector_or_another_grouping_answers_nothing(self) -> None:
        """Round 36a's ``unmatched_max_rising``: the left keeps ``pod`` only, the right every
        label: Prometheus matches no series."""
        for query in (f"max by (pod) ({X}) - {X}", f"sum by (pod) ({X}) - sum by (node) ({X})"):
            assert constant(query, frozenset()), query  # was: read as a course

    def test_matched_sides_or_a_modifier_still_read(self) -> None:
        y = 'kube_pod_container_resource_limits{namespace="default"}'
        for query in (
            f"max by (pod) ({X}) - on(pod) group_left {X}",
            f"sum by (pod) ({X}) / sum by (pod) ({y})",
            f"{X} / {y}",
            f"{X} - {X} offset 1h",
            f"sum by (pod) (rate({X}[5m])) / 2",
        ):
            assert not constant(query, frozenset()), query


class TestRule446ARomanMonth:
    def test_a_day_before_a_roman_month_and_a_year_is_no_quantity(self) -> None:
        """Round 36a's ``roman_date_risk``: "(last changed 30 XI 2026)"."""
        assert "30" not in QUANTITY.findall("last changed 30 XI 2026")  # was: 30 a quantity
        assert "3" in QUANTITY.findall("scale to 3 v 2")
