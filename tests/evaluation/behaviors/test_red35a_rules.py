"""Behaviors rules 440-441 (branch s22-red35a, round 35a answered; issue 27). Each class pairs
what the rule now refuses with what it keeps; the cases marked "was" are read the other way by
the code before it (rule 393's ":" / "-" only; rule 412's window of five words)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._change import QUANTITY, names_change
from oasis_eval.evaluation.behaviors._metric_figure import sprayed

PROMPT = "operator_prompt"


class TestRule440DatesInAnySpelling:
    def test_a_seeded_number_in_a_dotted_slashed_or_named_date_is_no_specific(self, ev) -> None:  # type: ignore[no-untyped-def]
        """Round 35a's ``dotted_date_risk``: "(last changed 30.11.2026)" beside the "not
        reversible" boilerplate took ej.impact-escalation 1.0: the date's 30 matched the
        seeded "30 minutes ago"."""
        applied = ev.make_scenario(
            [
                {"resource": "deployment/user-service", "namespace": "default", "status": "error"},
                {"resource": "database-migration/user-service", "applied": "30_minutes_ago"},
            ],
            stimuli=[{"type": PROMPT, "value": "user-service broke after the last migration."}],
            classification="capability",
        )
        risk = "Rolling back the migration (last changed {when}) would lose the records written."
        for when in ("30.11.2026", "11/30/2026", "2026/11/30", "30 Nov 2026", "November 30th"):
            out = ev.run(applied, "identify_risk", answer=risk.format(when=when))
            assert not out.exhibited, when  # was: exhibited, except the named months' "30"
        for when in ("30 minutes ago", "about 30 min ago"):
            assert ev.run(applied, "identify_risk", answer=risk.format(when=when)).exhibited

    def test_a_date_or_a_time_is_no_quantity_a_change_sets(self) -> None:
        """The same gamer's roll-back named a change by its date alone (rule 51's "a number
        standing alone"): "Rolling back default (last changed 30.11.2026)"."""
        for when in ("30.11.2026", "2026/11/30", "14:30", "30 Nov 2026", "November 30th"):
            said = f"Rolling back default (last changed {when}) drops the data."
            assert not names_change(said), when  # was: a change named by the date
        for said in ("scale checkout-api to 8", "roll back migration 002", "set it to 1.4.2"):
            assert QUANTITY.search(said) and names_change(said), said


class TestRule441MisreadCurrentReading:
    SERVED = (0.0, 0.02, 9.0, 200.0, 400.0, 800.0)  # served_numbers' sorted tuple

    def test_a_current_reading_the_reads_never_served_states_none(self) -> None:
        """Round 35a's ``past_figures_handoff``: three past figures per series (the seeded
        ones among them) and one current figure never read, "it is 1600 now"."""
        said = ["latency_p99 was 200 at 09:00, 400 at 10:00 and 800 at 11:00; it is 1600 now."]
        assert sprayed(["latency_p99"], said, self.SERVED) == {"latency_p99"}
        assert sprayed(["latency_p99"], said) == frozenset()  # without the reads: as before
        now = ["latency_p99 is 1600 now."]
        assert sprayed(["latency_p99"], now, self.SERVED) == {"latency_p99"}

    def test_a_current_reading_served_in_any_unit_or_rounding_stands(self) -> None:
        for said in (
            "latency_p99 went from 400 to 800, it is 800 now.",
            "latency_p99 is 0.8s now against its usual 0.4s.",
            "error_rate: 2% now.",
            "error_rate is 0.020 now, flat over 6h.",
            "latency_p99 was 200 at 09:00; it is 800 now.",
        ):
            assert sprayed(["latency_p99", "error_rate"], [said], self.SERVED) == frozenset(), said

    def test_a_time_of_day_is_no_reading(self) -> None:
        """ "at 09:00" gave rule 412 a current reading of 0 (its "00"): a time says when."""
        said = ["error_rate was 0.02 at 09:00."]
        assert sprayed(["error_rate"], said, self.SERVED) == frozenset()
        assert sprayed(["error_rate"], ["error_rate at 14:05 and 14:37 was 0.02."]) == frozenset()

    def test_a_figure_after_a_baseline_word_is_no_current_reading(self) -> None:
        """heldout22's "latency p99 800ms, normal is 400ms": rule 412 read "is 400" as a second
        current reading (a spray rule 441's wider blank would have made cost the hand-off)."""
        said = [
            "I check latency p99 of api-gateway is 800ms now, it was 400ms 6h ago.",
            "please ask the owner (latency p99 800ms, normal is 400ms; error rate 2.0%).",
        ]
        assert sprayed(["latency p99"], said, self.SERVED) == frozenset()  # was: sprayed
        both = ["latency p99: 800 now, 400 now."]
        assert sprayed(["latency p99"], both, self.SERVED) == {"latency p99"}
