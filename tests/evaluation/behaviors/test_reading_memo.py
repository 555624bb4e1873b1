"""One reading of the answer per judgement (issue 30): the gate and the evaluators share the
answer's :class:`AnswerText`, its claims and its stances are read once per reading, and
nothing is shared between two judgements or handed out for a caller to change."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors import _carriers, _claim_views, _claims, _reads
from oasis_eval.evaluation.behaviors.common import answer
from oasis_eval.evaluation.behaviors.text import AnswerText

STATE = [
    {"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"},
    {"resource": "logs/ledger", "entries": ["ERROR: container ledger OOMKilled, exit code 137"]},
]
ANSWER = (
    "The root cause is the OOM kill of ledger. It might be caused by DNS. CPU is not the cause."
)


def _bctx(ev: Any, text: str = ANSWER) -> Any:
    return ev.context(ev.cap(STATE), answer=text, reasoning="I read the pods.")


def test_the_gate_and_the_evaluators_read_one_answer(ev: Any) -> None:
    bctx = _bctx(ev)
    gate = _reads.answer_text(bctx.ctx)
    assert answer(bctx, reasoning=True) is gate  # the same text: one reading
    assert answer(bctx) is not gate  # another text, another reading
    assert answer(bctx, echo_filter=False) is answer(bctx, echo_filter=False)
    assert answer(bctx, echo_filter=False) is not answer(bctx)
    # another scenario's judgement (another context) never gets this one's reading
    assert _reads.answer_text(_bctx(ev).ctx) is not gate


def test_the_memo_computes_once_per_key(ev: Any) -> None:
    ctx = _bctx(ev).ctx
    made: list[str] = []

    def make(key: str) -> int:
        made.append(key)
        return len(made)

    assert (ctx.memo("k", lambda: make("k")), ctx.memo("k", lambda: make("k"))) == (1, 1)
    assert ctx.memo("other", lambda: make("other")) == 2
    assert made == ["k", "other"]


def test_claims_and_stances_are_read_once_per_reading_and_handed_out_as_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    real = _claims.sentence_claims

    def counted(sentence: str) -> list[_claims.Claim]:
        calls.append(sentence)
        return real(sentence)

    monkeypatch.setattr(_claims, "sentence_claims", counted)
    text = AnswerText(ANSWER)
    first = _claims.claims(text)
    assert _claims.claims(text) == first
    _claim_views.hedged_sentences(text)
    _claim_views.committed_text(text)
    assert len(calls) == len(text.kept) == 3  # each sentence read once, not once per query
    _claims.claims(AnswerText(ANSWER))  # a new reading reads again
    assert len(calls) == 6
    # what is shared is handed out as copies: a caller changing its list changes no other's
    _claims.claims(text).clear()
    assert len(_claims.claims(text)) == 3
    hedged = _claim_views.hedged_sentences(text)
    assert hedged == {"It might be caused by DNS."}
    hedged.clear()
    assert _claim_views.hedged_sentences(text) == {"It might be caused by DNS."}


def test_carriers_reads_and_facts_derived_once_per_judgement(
    ev: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    for module, name in (
        (_carriers, "_carriers"),
        (_reads, "_agent_reads"),
        (_reads, "_carrier_facts"),
    ):
        real = getattr(module, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, counted)
    ctx = _bctx(ev).ctx
    found = _carriers.carriers(ctx)
    assert found and _carriers.carriers(ctx) == found
    found.clear()  # a copy: the next caller gets them all
    assert _carriers.carriers(ctx)
    assert _reads.agent_reads(ctx) == _reads.agent_reads(ctx)
    c = _carriers.carriers(ctx)[0]
    facts = _reads.carrier_facts(ctx, c)
    assert _reads.carrier_facts(ctx, c) == facts
    assert sorted(calls) == ["_agent_reads", "_carrier_facts", "_carriers"]
    _carriers.carriers(_bctx(ev).ctx)  # another judgement derives its own
    assert calls.count("_carriers") == 2


def test_the_snapshots_references_are_read_once_per_judgement(
    ev: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: :func:`._fault_read.tied` asked for several targets of one judgement reads
    the bodies of the snapshot and the scenario once; another judgement reads its own."""
    from oasis_eval.evaluation.behaviors import _fault_read

    read: list[int] = []
    real = _fault_read._strings

    def counted(value: object) -> set[str]:
        read.append(1)
        return real(value)

    monkeypatch.setattr(_fault_read, "_strings", counted)
    bctx = _bctx(ev)
    first = _fault_read.tied(bctx, ("deployments", "ledger", "default"))
    once = len(read)
    assert "ledger" in first and once
    assert _fault_read.tied(bctx, ("deployments", "ledger", "default")) == first
    _fault_read.tied(bctx, ("pods", "ledger-abc", "default"))
    assert len(read) == once
    _fault_read.tied(_bctx(ev), ("deployments", "ledger", "default"))
    assert len(read) == 2 * once
