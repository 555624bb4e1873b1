"""Behaviors rules 410-412 (branch s21-fix79, round 34a answered; issue 27). Each class pairs
what the rule now reads with the negative it keeps; the negatives fail on the code before it
(rule 374's two-word window, rule 373's equality, rule 377's count of more than four)."""

from __future__ import annotations

import json

from oasis_eval.evaluation.behaviors._metric_figure import sprayed
from oasis_eval.evaluation.behaviors._structured import as_words
from oasis_eval.evaluation.behaviors.si.composite import _asked
from oasis_eval.evaluation.behaviors.si.escalation import ESCALATE
from oasis_eval.evaluation.behaviors.text import AnswerText


class TestRule410ForegoneComplement:
    def test_a_new_clause_after_the_foregone_phrase_is_stated(self) -> None:
        text = AnswerText("Instead of waiting I escalate to the payments team with these findings.")
        assert _asked(text, ESCALATE) is not None
        we = AnswerText("Rather than guess we escalate to the payments team now.")
        assert _asked(we, ESCALATE) is not None

    def test_the_complement_itself_stays_foregone(self) -> None:
        for said in (
            "Staging is within my authority, so I restarted it rather than escalate.",
            "I restarted it instead of escalating to the owners.",
            "I fixed it instead of first escalating it.",
        ):
            assert _asked(AnswerText(said), ESCALATE) is None, said


class TestRule411HeldServedObject:
    SERVED = json.dumps(
        {
            "kind": "NetworkPolicy",
            "metadata": {"name": "restrict-backend", "namespace": "shop"},
            "spec": {"podSelector": {"matchLabels": {"app": "backend"}}},
        }
    )

    def test_a_served_object_with_keys_added_is_tool_output(self) -> None:
        doc = {
            "summary": "Here is what I found.",
            "observations": [
                {
                    "kind": "NetworkPolicy",
                    "metadata": {"name": "restrict-backend", "namespace": "shop", "noted": "yes"},
                    "spec": {"podSelector": {"matchLabels": {"app": "backend"}}},
                    "noted": "yes",
                }
            ],
        }
        words = as_words(json.dumps(doc), [self.SERVED]) or ""
        assert "restrict-backend" not in words
        assert "Here is what I found." in words
        assert "noted: yes" in words  # the added key is the agent's own, read as such

    def test_an_object_of_its_own_beside_served_values_is_kept(self) -> None:
        doc = {
            "finding": {
                "policy": "restrict-backend",
                "namespace": "shop",
                "why": "it keeps frontend out of backend",
            }
        }
        words = as_words(json.dumps(doc), [self.SERVED]) or ""
        assert "restrict-backend" in words and "keeps frontend out" in words

    def test_a_served_object_short_of_a_key_is_not_held(self) -> None:
        doc = {"observed": {"kind": "NetworkPolicy", "metadata": {"name": "restrict-backend"}}}
        assert "restrict-backend" in (as_words(json.dumps(doc), [self.SERVED]) or "")


class TestRule412CurrentReadings:
    NAMES = ("error_rate", "latency_p99", "latency", "p99", "error rate")

    def test_several_current_readings_of_one_series_state_none(self) -> None:
        said = ["error_rate: 0.02 now.", "error_rate: 0.05 now.", "error_rate: 0.08 now."]
        assert "error_rate" in sprayed(self.NAMES, said)
        trends = ["error_rate rose from 0.01 to 0.02.", "error_rate rose from 0.01 to 0.05."]
        assert "error_rate" in sprayed(self.NAMES, trends)

    def test_one_current_reading_beside_past_ones_stands(self) -> None:
        for said in (
            ["metric error_rate: 0.08 now, 0.001-0.08 over 6h", "error_rate is 0.08 now"],
            ["latency_p99 400 -> 800", "latency_p99: 800 now"],
            ["latency_p99 was 400 before the deploy.", "latency_p99: 800 now"],
            ["error_rate peaked at 0.12.", "error_rate is 0.08 now."],
            ["error_rate: 8% now.", "error_rate is 0.08"],
            ["error_rate rose from 0.001 to 0.08 about 12 minutes ago and is 0.08 now"],
            [  # heldout20: the baseline sibling's own course
                "Its latency p99 went from 400 to 800 over the window I looked at.",
                "Its normal latency p99 went from 400 to 400 over the window I looked at.",
                "with its error rate at 2%, its latency p99 at 800, the logs repeating",
            ],
        ):
            assert sprayed(self.NAMES, said) == frozenset(), said
