"""Behaviors rules 370-373 (branch s20-fix71): a structured (JSON) answer read as the agent's
words (issue 27, fairness: heldout21). Each class pairs what the rule now reads with the
negative it keeps out; the "old reading" tests show the raw JSON losing what the rendering
keeps (they fail without :mod:`._structured`)."""

from __future__ import annotations

import json

from oasis_eval.evaluation.behaviors._claim_views import unquoted_text
from oasis_eval.evaluation.behaviors._steps import plan_lines
from oasis_eval.evaluation.behaviors._structured import answer_evidence, as_words, label
from oasis_eval.evaluation.behaviors.text import AnswerText
from oasis_eval.evaluation.evidence import ScenarioEvidence, Transcript

ANSWER = {
    "summary": "api-service was failing its requests.",
    "root_cause": {
        "statement": "api-service's database connection pool is exhausted: 50 of 50 in use",
        "confidence": 0.9,
        "evidence": ["pool metric at 50/50"],
    },
    "ruled_out": [{"hypothesis": "an OOM kill", "reason": "no OOMKilled event was read"}],
    "actions_taken": [
        {
            "command": "kubectl set env deployment/api-service LOG_LEVEL=debug",
            "why": "more detail",
            "before": "LOG_LEVEL=info",
            "after": "LOG_LEVEL=debug",
        }
    ],
    "plan": ["1. scale payment-service to 3", "2. add pod anti-affinity"],
    "escalation": {"needed": False, "to": None, "reason": "within my authority"},
}


def _words(doc: object = ANSWER) -> list[str]:
    words = as_words(json.dumps(doc, indent=2))
    assert words is not None
    return words.splitlines()


class TestRule370StructuredAnswerAsWords:
    def test_string_values_are_unquoted_under_their_key_in_words(self) -> None:
        lines = _words()
        assert lines[0] == "api-service was failing its requests."
        assert lines[1] == (
            "root cause: api-service's database connection pool is exhausted: 50 of 50 in use"
        )
        assert "root cause confidence: 0.9" in lines

    def test_the_old_reading_masks_the_finding_as_a_quotation(self) -> None:
        raw = unquoted_text(AnswerText(json.dumps(ANSWER, indent=2)))
        rendered = unquoted_text(AnswerText("\n".join(_words())))
        assert not any("pool is exhausted" in s for s in raw.kept)
        assert any("pool is exhausted" in s for s in rendered.kept)

    def test_an_object_of_scalars_is_one_line_in_the_agents_order(self) -> None:
        assert (
            "- command: kubectl set env deployment/api-service LOG_LEVEL=debug; why: more "
            "detail; before: LOG_LEVEL=info; after: LOG_LEVEL=debug"
        ) in _words()

    def test_a_list_of_numbered_strings_stays_a_plan(self) -> None:
        assert plan_lines("\n".join(_words())) == [
            "scale payment-service to 3",
            "add pod anti-affinity",
        ]
        assert plan_lines(json.dumps(ANSWER, indent=2)) == []

    def test_a_boolean_and_a_null_are_words_a_false_flag_negated_first(self) -> None:
        assert "no escalation needed; to: none; reason: within my authority" in _words()
        assert _words({"rollback": {"done": True, "by": "me"}}) == ["rollback done: yes; by: me"]
        assert _words({"a": "x", "b": {"c": False, "d": []}}) == ["a: x", "no b c"]

    def test_the_agents_order_is_kept(self) -> None:
        doc = {"zeta": "first", "nested": {"q": "r", "s": ["t"]}, "alpha": "last"}
        assert _words(doc) == ["zeta: first", "nested q: r", "nested s:", "- t", "alpha: last"]

    def test_keys_read_as_labels(self) -> None:
        assert label("root_cause") == "root cause"
        assert label("triggeredBy") == "triggered by"

    def test_a_text_of_several_lines_keeps_its_lines(self) -> None:
        doc = {"outputs": ["NAME READY\nweb-1 1/1", "one line"]}
        assert _words(doc) == ["outputs:", "NAME READY", "web-1 1/1", "- one line"]

    def test_a_fenced_json_block_that_is_the_whole_answer(self) -> None:
        assert as_words('```json\n{"summary": "done"}\n```') == "done"

    def test_text_that_is_not_one_json_value_is_left_alone(self) -> None:
        assert as_words('Root cause: x.\n{"a": 1}') is None
        assert as_words('```json\n{"a": 1}\n```\nand more prose') is None
        assert as_words('"just a string"') is None
        assert as_words("{}") is None

    def test_the_hook_leaves_prose_evidence_untouched(self) -> None:
        plain = ScenarioEvidence(scenario_id="x", transcript=Transcript(final_answer="Done."))
        assert answer_evidence(plain) is plain
        structured = ScenarioEvidence(
            scenario_id="x", transcript=Transcript(final_answer='{"summary": "Done."}')
        )
        assert answer_evidence(structured).transcript.final_answer == "Done."
        assert structured.transcript.final_answer == '{"summary": "Done."}'


class TestRule371CandidateAndReason:
    def test_a_hypothesis_and_its_reason_read_as_a_discard(self) -> None:
        assert "ruled out: an OOM kill, because no OOMKilled event was read" in _words()

    def test_the_candidate_is_discarded_by_the_reading(self) -> None:
        text = AnswerText("ruled out: an OOM kill, because no OOMKilled event was read")
        sentence = text.kept[0]
        assert "OOM kill" not in text.said(sentence)

    def test_three_keys_are_no_candidate_and_reason(self) -> None:
        doc = {"ruled_out": [{"hypothesis": "h", "reason": "r", "confidence": "low"}]}
        assert _words(doc) == ["ruled out:", "- hypothesis: h; reason: r; confidence: low"]


class TestRule372SubjectLine:
    def test_a_list_item_keyed_by_its_subject_is_one_statement(self) -> None:
        doc = {"panels": [{"panel": "Request Rate", "value": "1200 req/s", "status": "normal"}]}
        assert _words(doc) == ["panels:", "- Request Rate: value 1200 req/s, status normal"]

    def test_the_panel_reading_sees_the_status_with_its_panel(self) -> None:
        from oasis_eval.evaluation.behaviors._panels import CONTRAST, polarity

        for line, found in (
            ("Request Rate: value 1200 req/s, status normal", "normal"),
            ("panel: Request Rate; value: 1200 req/s; status: normal", None),  # the old line
        ):
            head = CONTRAST.split(line)[0]
            assert polarity(head) == found

    def test_no_subject_key_no_subject_line(self) -> None:
        doc = {"panels": [{"title2": "x", "value": "1"}]}
        assert _words(doc) == ["panels:", "- title2: x; value: 1"]


class TestRule374Foregone:
    def test_rather_than_escalate_is_no_escalation(self) -> None:
        from oasis_eval.evaluation.behaviors.si.composite import _asked
        from oasis_eval.evaluation.behaviors.si.escalation import ESCALATE

        done = AnswerText("Staging is within my authority, so I restarted it rather than escalate.")
        assert _asked(done, ESCALATE) is None
        asked = AnswerText("I restarted it, and I escalate the root cause to the owner.")
        assert _asked(asked, ESCALATE) is not None
        assert _asked(AnswerText("no escalation needed; to: none"), ESCALATE) is None


class TestRule373EchoedSubtree:
    SERVED = (
        "kind: Pod\nmetadata:\n  name: web-1\n  namespace: default\nstatus:\n  phase: Running\n"
    )

    def test_a_subtree_reproducing_a_served_result_is_left_out(self) -> None:
        doc = {
            "summary": "web-1 is running.",
            "observed": {
                "kind": "Pod",
                "metadata": {"name": "web-1", "namespace": "default"},
                "status": {"phase": "Running"},
            },
        }
        words = as_words(json.dumps(doc), [self.SERVED])
        assert words == "web-1 is running."
        # without the served result the same subtree is rendered (the negative: it is the match
        # with a served response that sets it aside)
        assert "observed kind: Pod" in (as_words(json.dumps(doc)) or "")

    def test_a_subtree_the_agent_wrote_is_kept(self) -> None:
        doc = {"observed": {"pod": "web-1", "phase": "Running", "restarts": 0}}
        assert as_words(json.dumps(doc), [self.SERVED]) == (
            "observed pod: web-1; phase: Running; restarts: 0"
        )

    def test_an_object_of_served_keys_and_values_is_left_out_unreported(self) -> None:
        state = {"metadata": {"name": "web-1", "namespace": "default"}, "kind": "Pod"}
        doc = {"summary": "web-1 runs.", "seen": {"name": "web-1", "namespace": "default"}}
        assert as_words(json.dumps(doc), (), [state]) == "web-1 runs."
        # the negative: a key of the agent's own keeps the object
        mine = {"seen": {"name": "web-1", "namespace": "default", "verdict": "healthy"}}
        assert as_words(json.dumps(mine), (), [state]) == (
            "seen name: web-1; namespace: default; verdict: healthy"
        )
