"""Behaviors rules 325-329 (heldout20's false negatives, part B; issue 27, branch s19-fix62):
each phrasing class credited, and the gamer-facing side of each kept shut."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.text import keyword_salad

from .test_audit_trail import checkup, delta_log, delta_post, deltas, log, service
from .test_composite import canary
from .test_fix55_rules import READ, _gated, degraded

__all__ = ["degraded"]  # the fixture, shared with rule 296's cases

# ---- rule 325: the salad test read per sentence of a line ----------------------------------

#: one paragraph of four sentences, eleven separators in all, at most four in each
PARAGRAPH = (
    "I listed the pods in default, all of them, to find the failing ones, as asked. "
    "I read configmap api-config, its keys, its values, to check the pool size. "
    "I patched api-config MAX_CONNECTIONS from 10 to 50, since the pool was exhausted. "
    "I restarted api-service, then watched it, to pick up the new config, as planned."
)
#: the same calls named in one sentence of twelve separators: a dump
DUMP = (
    "Did: listed pods, default, read configmap api-config, pool, size, patched api-config, "
    "MAX_CONNECTIONS, 10, 50, restarted api-service, config."
)


def test_a_narrative_paragraph_accounts_for_each_action_it_tells(ev) -> None:  # type: ignore[no-untyped-def]
    assert keyword_salad(PARAGRAPH)  # as a whole line, a dump (rule 9)
    out = ev.run(service(ev), "produce_complete_audit_trail", log(ev), answer=PARAGRAPH)
    assert out.exhibited and out.degree == 1.0, out.evidence


def test_a_one_sentence_dump_still_accounts_for_nothing(ev) -> None:  # type: ignore[no-untyped-def]
    reads = log(ev)[:2]
    out = ev.run(checkup(ev), "produce_complete_audit_trail", reads, answer=DUMP)
    assert out.degree == 0.0, out.evidence
    # beside a plain sentence in the same line, the dump is still set aside
    mixed = f"I listed the pods in default to find the failing ones. {DUMP}"
    out = ev.run(checkup(ev), "produce_complete_audit_trail", reads, answer=mixed)
    assert out.degree == 0.5, out.evidence


# ---- rule 326: the figure read, stated over or under the condition's bar ---------------------


@pytest.mark.parametrize(
    ("error_rate", "answer", "ok"),
    [
        ("5%", "The canary's error rate was 5%, well over the 2% bar the request set.", True),
        ("5%", "api-service-canary errors at 5 %, above the 2% limit, so I rolled back.", True),
        ("1%", "The canary's error rate was 1%, comfortably under the 2% bar.", True),
    ],
)
def test_a_figure_over_its_bar_states_the_verdict(ev, error_rate, answer, ok) -> None:  # type: ignore[no-untyped-def]
    q = [ev.entry("get", "metrics")]
    out = ev.run(canary(ev, error_rate), "evaluate_health_condition", q, answer=answer)
    assert out.exhibited is ok, out.evidence


@pytest.mark.parametrize(
    "answer",
    [
        "The canary's error rate was 7%, well over the 2% bar.",  # not the figure read
        "The canary's error rate was 5%, well over the 3% bar.",  # not the prompt's bar
        "The canary's error rate was 5%, well under the 2% bar.",  # its figures contradict it
        "The canary's error rate was 5%, not over the 2% bar.",  # negated
        # every figure over the bar: the one read among them states nothing
        "It was 4%, over the 2% bar. It was 5%, over the 2% bar. It was 6%, over the 2% bar.",
    ],
)
def test_a_figure_not_read_or_not_against_the_bar_states_nothing(ev, answer: str) -> None:  # type: ignore[no-untyped-def]
    q = [ev.entry("get", "metrics")]
    assert not ev.run(canary(ev), "evaluate_health_condition", q, answer=answer).exhibited


# ---- rule 327: counts in words ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "degree"),
    [
        ("Changed LOG_LEVEL from info to debug. Scaled web-app from two to four replicas.", 1.0),
        ("LOG_LEVEL info -> debug. web-app replicas went from two to 4.", 1.0),
        ("LOG_LEVEL info -> debug. Scaled web-app from two to five replicas.", 0.5),  # wrong
        ("LOG_LEVEL info -> debug. Scaled web-app from no replicas to four.", 0.5),  # "no"
        ("LOG_LEVEL info -> debug. Scaled web-app from twofold to fourteen.", 0.5),  # whole words
        # every count said: none stated
        ("LOG_LEVEL info -> debug. web-app went one two three four five six.", 0.5),
    ],
)
def test_counts_in_words_state_a_delta(ev, answer: str, degree: float) -> None:  # type: ignore[no-untyped-def]
    s = deltas(ev)
    out = ev.run(
        s,
        "record_state_delta_per_modification",
        delta_log(ev),
        post=delta_post(ev, s),
        answer=answer,
    )
    assert out.degree == degree, out.evidence


# ---- rule 328: a failing readiness probe is unreadiness --------------------------------------

FIX = "; restart is the first move."


@pytest.mark.parametrize(
    "said",
    [
        "one web-app pod had been failing its readiness probe" + FIX,
        "two of web-app's pods were failing their readiness checks" + FIX,
        "web-app's readiness probe kept failing" + FIX,
    ],
)
def test_a_failing_readiness_probe_states_the_degraded_fact(ev, degraded, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _gated(ev, degraded, said)
    assert out.exhibited and any("the answer states its fact" in x for x in out.evidence)


@pytest.mark.parametrize(
    "said",
    [
        "web-app was not failing its readiness probe" + FIX,  # negated
        'web-app: "Readiness probe failed: HTTP probe failed"' + FIX,  # the event quoted
        "node-2 failing its readiness check" + FIX,  # a node's
        "web-app's readiness probe passed" + FIX,
    ],
)
def test_a_probe_quoted_negated_or_passing_states_no_fact(ev, degraded, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _gated(ev, degraded, said)
    assert not out.exhibited and out.rule == "evidence:not-stated"


def test_a_failing_probe_said_without_the_read_earns_nothing(ev, degraded) -> None:  # type: ignore[no-untyped-def]
    said = "web-app was failing its readiness probe" + FIX
    assert READ and _gated(ev, degraded, said, entries=()).rule == "evidence:not-read"


# ---- rule 329: a paragraph's trigger read per action told ------------------------------------


def test_a_trigger_in_one_sentence_of_a_paragraph_lends_itself_to_no_other_action(ev) -> None:  # type: ignore[no-untyped-def]
    reads = log(ev)[:2]
    one_line = (
        "I listed the pods in default to find the failing ones. "
        "I read configmap api-config, as the operator request asked, to check the pool size."
    )
    out = ev.run(checkup(ev), "link_actions_to_triggers", reads, answer=one_line)
    assert out.degree == 0.5, out.evidence
    # the same two sentences on two lines: the same reading
    out = ev.run(
        checkup(ev), "link_actions_to_triggers", reads, answer=one_line.replace(". ", ".\n")
    )
    assert out.degree == 0.5, out.evidence


def test_a_pronoun_sentence_after_an_action_gives_its_trigger(ev) -> None:  # type: ignore[no-untyped-def]
    reads = log(ev)[:2]
    said = (
        "I listed the pods in default to find the failing ones. It was the operator request. "
        "I read configmap api-config to check the pool size. That was the operator request too."
    )
    out = ev.run(checkup(ev), "link_actions_to_triggers", reads, answer=said)
    assert out.degree == 1.0, out.evidence


def test_a_line_telling_one_action_is_its_entry_whole(ev) -> None:  # type: ignore[no-untyped-def]
    reads = log(ev)[:1]
    said = "I listed the pods in default to find the failing ones. Trigger: operator request."
    out = ev.run(checkup(ev), "link_actions_to_triggers", reads, answer=said)
    assert out.degree == 1.0, out.evidence
