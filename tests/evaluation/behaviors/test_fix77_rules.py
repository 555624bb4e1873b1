"""Behaviors rules 400-404 (branch s21-fix77): a markdown answer with tables read as the
agent's words (issue 27, fairness: heldout23's incident ticket). Each class pairs what the rule
now reads with the negative it keeps out; the "old reading" tests show the raw markdown losing
what the rendering keeps (they fail without :mod:`._markdown`)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors._markdown import as_words, has_table, verdict_stance
from oasis_eval.evaluation.behaviors._structured import answer_evidence
from oasis_eval.evaluation.behaviors.si.correlation import CALLED_SLOW
from oasis_eval.evaluation.behaviors.si.observability import DISMISS
from oasis_eval.evaluation.behaviors.text import AnswerText, unnegated_cue
from oasis_eval.evaluation.evidence import ScenarioEvidence, Transcript

TICKET = """# Incident report: `api-service` is slow

## Root cause

**The connection pool of `api-service` is exhausted.**

## Hypotheses

| hypothesis | verdict | evidence |
|---|---|---|
| connection pool exhausted | **confirmed** | 50 of 50 connections in use |
| node out of memory | **ruled out** | no OOMKilled event |
| DNS failure | **possible, not confirmed** | one timeout in the logs |

## Timeline

| # | command | why | trigger | result |
|---|---|---|---|---|
| 1 | `kubectl rollout history deployment/api-service -n default` | check for a bad rollout | operator request | ok |

## Follow-ups

- [ ] Find what holds connections (an OOM kill of the pooler, a rollout)
"""


def _words(text: str = TICKET) -> list[str]:
    words = as_words(text)
    assert words is not None
    return words.splitlines()


def _claim(text: str, needle: str):  # type: ignore[no-untyped-def]
    found = [c for c in claims(AnswerText(text)) if needle in c.text]
    assert found, needle
    return found[0]


class TestRule400HeadingEndsTheSection:
    def test_a_heading_is_said_as_a_label(self) -> None:
        lines = _words()
        assert "## Timeline:" in lines and "## Follow-ups:" in lines
        assert "# Incident report: `api-service` is slow:" in lines

    def test_the_old_reading_keeps_the_follow_up_a_hedged_candidate(self) -> None:
        old = _claim(TICKET, "Find what holds connections")
        assert old.candidate and old.hedged
        new = _claim("\n".join(_words()), "Find what holds connections")
        assert not new.candidate and not new.hedged

    def test_an_answer_without_a_table_is_left_as_written(self) -> None:
        text = "## Hypotheses\n\n- pool exhausted\n\n## Timeline\n\n- read logs\n"
        assert not has_table(text) and as_words(text) is None
        row_only = "| a | b |\n| c | d |\n"  # no rule line under a header: no table
        assert as_words(row_only) is None


class TestRule401RowIsOneStatement:
    def test_a_table_without_a_verdict_column_is_kept_as_written(self) -> None:
        # not "<source>: <finding>": a call as the head of a colon is a trail entry (rule 215),
        # and the evidence row states a finding; a trail table is read by rule 249
        text = "| source | finding |\n|---|---|\n| `kubectl get pods` | 0/1 CrashLoopBackOff |\n"
        assert _words(text) == text.splitlines()  # kept as written, the old reading

    def test_the_header_row_is_no_sentence(self) -> None:
        assert not any("hypothesis" in line and "verdict" in line for line in _words())

    def test_fenced_lines_are_kept_as_written(self) -> None:
        text = "| a | b |\n|---|---|\n| x | y |\n\n```text\n| not | a row |\n## no heading\n```\n"
        assert _words(text)[-3:] == ["| not | a row |", "## no heading", "```"]


class TestRule402VerdictColumn:
    def test_a_confirmed_row_commits(self) -> None:
        assert "The root cause is connection pool exhausted (confirmed)." in "\n".join(_words())
        new = _claim("\n".join(_words()), "connection pool exhausted (confirmed)")
        assert new.asserted

    def test_the_old_reading_keeps_the_confirmed_row_a_candidate(self) -> None:
        old = _claim(TICKET, "confirmed, 50 of 50")
        assert not old.asserted and old.hedged

    def test_a_ruled_out_row_rebuts_and_a_possible_row_hedges(self) -> None:
        words = "\n".join(_words())
        assert _claim(words, "node out of memory").rebutted
        possible = _claim(words, "DNS failure")
        assert possible.hedged and not possible.asserted

    def test_verdict_words(self) -> None:
        assert verdict_stance("**confirmed**") == "committed"
        assert verdict_stance("not confirmed") == "hedged"
        assert verdict_stance("possible, not confirmed") == "hedged"
        for rebut in ("ruled out", "unlikely", "excluded", "Ruled-out"):
            assert verdict_stance(rebut) == "rebutted"
        assert verdict_stance("Running") is None

    def test_a_status_column_of_no_verdict_is_a_plain_row(self) -> None:
        text = "| pod | status |\n|---|---|\n| api-1 | Running |\n"
        assert _words(text) == ["api-1, Running."]

    def test_a_verdict_under_another_header_is_no_verdict(self) -> None:
        text = "| cause | note |\n|---|---|\n| OOM kill | confirmed by nobody |\n"
        assert _words(text) == text.splitlines()


class TestRule403CallsAndFollowUps:
    def test_a_table_of_calls_is_kept_as_written_for_rule_249(self) -> None:
        lines = _words()
        assert "| # | command | why | trigger | result |" in lines
        assert any(line.startswith("| 1 | `kubectl rollout history") for line in lines)

    def test_the_old_reading_makes_the_timeline_row_a_hedged_cause(self) -> None:
        old = _claim(TICKET, "kubectl rollout history")
        assert old.candidate
        new = _claim("\n".join(_words()), "kubectl rollout history")
        assert not new.candidate and not new.causal

    def test_checkboxes_are_follow_ups(self) -> None:
        assert (
            "- follow-up: Find what holds connections (an OOM kill of the pooler, a rollout)"
            in (_words())
        )
        assert _words("| a | b |\n|--|--|\n| x | y |\n- [x] paged the owner\n")[-1] == (
            "- done: paged the owner"
        )

    def test_the_hook_renders_the_answer_and_keeps_a_plain_one(self) -> None:
        ev = ScenarioEvidence(scenario_id="x", transcript=Transcript(final_answer=TICKET))
        assert answer_evidence(ev).transcript.final_answer == "\n".join(_words())
        plain = ScenarioEvidence(
            scenario_id="x", transcript=Transcript(final_answer="The pool is exhausted.")
        )
        assert answer_evidence(plain) is plain


class TestRule404RebuttalIsNoInclusion:
    ROW = (
        "| hypothesis | verdict | evidence |\n|---|---|---|\n"
        "| api-gateway GET /api/orders/123 is slow itself | **ruled out** | only 200ms of its own |\n"
    )

    def test_a_rebutted_row_calls_no_span_slow(self) -> None:
        # rule 12 reads the rendered row through rule 335 ("X: ruled out; ..."): no span called
        # slow; the old reading ("X is slow itself, ruled out, ...") called it slow
        (line,) = _words(self.ROW)
        assert line.startswith("api-gateway GET /api/orders/123 is slow itself: ruled out;")
        assert unnegated_cue(line, CALLED_SLOW) is None
        old = AnswerText(self.ROW).kept[-1]
        assert old.startswith("api-gateway GET /api/orders/123 is slow itself, ruled out,")
        assert unnegated_cue(old, CALLED_SLOW) == "slow"

    def test_a_span_called_slow_in_a_row_still_is(self) -> None:
        text = (
            "| span | verdict | evidence |\n|---|---|---|\n| api-gateway is slow | unknown | - |\n"
        )
        assert unnegated_cue(_words(text)[0], CALLED_SLOW) == "slow"

    def test_ruled_out_sets_a_noise_line_aside(self) -> None:
        assert DISMISS.search("connection pool pressure: ruled out; pool stats show free ones.")
        assert not DISMISS.search("connection pool pressure cannot be ruled out.")
        assert not DISMISS.search("connection pool pressure has not been ruled out.")
