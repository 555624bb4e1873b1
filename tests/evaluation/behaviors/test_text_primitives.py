"""The text primitives against the wording defects named in issue 13 (each failed before)."""

from __future__ import annotations

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors.text import (
    HEDGE,
    AnswerText,
    keyword_salad,
    normalize,
    sentences,
    term_regex,
)


def test_term_ends_at_a_word_end_and_stems_are_explicit() -> None:
    assert term_regex("check").search("the checkout service") is None
    assert term_regex("check").search("two failing checks")  # plural allowed
    assert term_regex("check*").search("the checkout service")  # explicit stem
    assert term_regex("OOM").search("it was OOMKilled")  # camel-case boundary
    assert term_regex("leak").search("it is leaking") is None
    assert term_regex("leak*").search("it is leaking")


def test_contractions_negate_and_express_uncertainty() -> None:
    for negated in ("It isn’t OOMKilled.", "It doesn't look OOMKilled.", "It wasn't OOMKilled."):
        assert AnswerText(negated).asserted("OOMKilled") is None, negated
    for unsure in ("I can't confirm the cause yet.", "I don’t know yet.", "I couldn't verify it."):
        assert HEDGE.search(normalize(unsure)), unsure


def test_error_clauses_assert_their_object() -> None:
    for text in (
        "The app cannot open /etc/app/config.yaml.",
        "The pod could not resolve payments-db.",
        "The kubelet can't pull image api-v2.",
    ):
        term = text.split()[-1].rstrip(".")
        assert AnswerText(text).asserted(term), text
    assert AnswerText("There is no payments-db outage.").asserted("payments-db") is None


def test_negation_inside_a_quotation_is_the_log_speaking() -> None:
    text = AnswerText('The mailer log says "required variable not set: MAIL_PORT".')
    assert text.asserted("MAIL_PORT")


def test_markdown_as_llm_agents_write_it() -> None:
    md = (
        "## Root cause\n"
        "- **ledger** is `OOMKilled` at its *256Mi* limit\n"
        "1. raise the limit\n"
        "```\nkubectl set resources deployment/ledger --limits=memory=512Mi\n```\n"
        "| panel | value | reading |\n|---|---|---|\n| Disk Usage | 95% | critical |\n"
    )
    got = sentences(md)
    assert got[:3] == ["Root cause", "ledger is OOMKilled at its 256Mi limit", "raise the limit"]
    assert "kubectl set resources deployment/ledger --limits=memory=512Mi" in got
    assert got[-1] == "Disk Usage, 95%, critical."
    assert AnswerText(md).asserted("OOMKilled")


def test_echoed_command_log_is_not_the_conclusion() -> None:
    calls = [
        ToolCall(tool="kubectl", arguments={"command": "get pods -n shop"}),
        ToolCall(tool="logs_query", arguments={"namespace": "shop", "deployment": "web"}),
    ]
    log = '$ kubectl get pods -n shop\n$ logs_query {"deployment": "web", "namespace": "shop"}'
    text = AnswerText(log + "\nkubectl rollout undo deployment/web -n shop", (), calls)
    assert len(text.echoed) == 2
    assert text.kept == ["kubectl rollout undo deployment/web -n shop"]  # not executed: kept


def test_a_keyword_list_asserts_nothing() -> None:
    salad = (
        "agent behavior scenario evidence root cause memory pool certificate verify escalate "
        "diagnose production rollback approval namespace signal trace metric dashboard"
    )
    assert keyword_salad(salad)
    assert AnswerText(salad).asserted("memory") is None
    prose = "The ledger pod is OOMKilled because its memory limit is too low for the load."
    assert not keyword_salad(prose)
    telegraphic = 'Root cause: api logs pool exhaustion: "pool exhausted, waiting" (1x, 7s ago).'
    assert not keyword_salad(telegraphic)


def test_headings_and_dumps_state_nothing() -> None:
    """Issue 27 item 3: a markdown heading is a title, and a sentence holding every name read
    is a dump, not a statement."""
    from oasis_eval.evaluation.behaviors.text import AnswerText, keyword_salad

    text = AnswerText("## Risk, escalation and approval\nI hold the change.")
    assert text.heading("Risk, escalation and approval") and not text.heading("I hold the change.")
    assert keyword_salad("Back up a, b, c, d, e, f, g, h, i, j, k and l first.")
    assert not keyword_salad("Back up the orders table, then roll back 002, and verify.")


@pytest.mark.parametrize(
    "line",
    [
        "NAME   READY   STATUS",
        "api-7f\t1/1\tRunning",
        "configMapKeyRef:",
        '  "restartCount": 5,',
        "The pod restarted five times.",
        "restart count: 5",
        "a  b",
        "",
    ],
)
def test_output_shape_is_settled_as_its_patterns_settle_it(line: str) -> None:
    """Issue 30: the substring checks before the patterns change no answer."""
    from oasis_eval.evaluation.behaviors import _output

    expected = len(_output._COLUMNS.findall(line)) >= 2 or bool(
        _output._CAMEL_FIELD.fullmatch(line)
    )
    assert _output.output_shaped(line) is expected


def test_asserts_any_reads_the_terms_through_a_cue() -> None:
    """Issue 30: the terms' joint pattern is a :class:`Cue` (needed words before the scan)
    and answers as the terms do one by one."""
    from oasis_eval.evaluation.behaviors import text
    from oasis_eval.evaluation.behaviors._cue import Cue

    terms = ("OOMKilled", "connection pool")
    assert isinstance(text._any_term(terms), Cue)
    assert text.asserts_any("The ledger pod was OOM killed.", terms)
    assert not text.asserts_any("The ledger pod was not OOM killed.", terms)
    assert not text.asserts_any("Nothing of the kind.", terms)
