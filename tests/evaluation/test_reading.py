"""evaluation/reading.py: one judgement reads each text once, and only that judgement (issue 30)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation import reading, verify
from oasis_eval.evaluation.behaviors import _claims, _words
from oasis_eval.evaluation.behaviors.text import AnswerText
from oasis_eval.evaluation.reading import judgement_memo, per_judgement
from oasis_eval.evaluation.verify import verify_scenario

ANSWER = "The root cause is an OOM kill. It restarts, and the pool is fine; CPU is not the cause."


def _counted(calls: list[str]) -> Any:
    @per_judgement
    def split(text: str) -> list[str]:
        calls.append(text)
        return text.split()

    return split


def test_a_text_is_read_once_per_judgement_and_each_caller_gets_its_own_list() -> None:
    calls: list[str] = []
    split = _counted(calls)
    with judgement_memo({}):
        first = split("a b c")
        first.append("changed by a caller")
        assert split("a b c") == ["a", "b", "c"]
        assert split("d") == ["d"]
    assert calls == ["a b c", "d"]


def test_nothing_carries_over_to_another_judgement_or_outside_one() -> None:
    calls: list[str] = []
    split = _counted(calls)
    with judgement_memo({}):
        split("a b")
    with judgement_memo({}):
        split("a b")
    split("a b")
    split("a b")
    assert calls == ["a b"] * 4


def test_every_argument_is_part_of_the_key_and_a_set_is_copied_too() -> None:
    calls: list[tuple[str, int]] = []

    @per_judgement
    def letters(text: str, upto: int) -> set[str]:
        calls.append((text, upto))
        return set(text[:upto])

    with judgement_memo({}):
        mine = letters("abc", 2)
        mine.add("z")
        assert letters("abc", 2) == {"a", "b"}
        assert letters("abc", 3) == {"a", "b", "c"}
    assert calls == [("abc", 2), ("abc", 3)]


def test_memoised_primitives_read_as_before() -> None:
    """The shared primitives return what they compute without the memo (a memoised result
    is the result: no verdict can change)."""
    hedge = _words.Phrases("root cause", "not*")
    plain = (
        _words.sentences(ANSWER),
        [AnswerText.negated(c, len(c)) for c in _words.clauses(ANSWER)],
        [(hedge.found(c), [m.span() for m in hedge.matches(c)]) for c in _words.clauses(ANSWER)],
        [_words.clauses(s) for s in _words.sentences(ANSWER)],
        [_words.keyword_salad(s) for s in _words.sentences(ANSWER)],
        [_claims.sentence_claims(s) for s in _words.sentences(ANSWER)],
    )
    with judgement_memo({}):
        for _ in range(2):
            sents = _words.sentences(ANSWER)
            cut = _words.clauses(ANSWER)
            assert (
                sents,
                [AnswerText.negated(c, len(c)) for c in cut],
                [(hedge.found(c), [m.span() for m in hedge.matches(c)]) for c in cut],
                [_words.clauses(s) for s in sents],
                [_words.keyword_salad(s) for s in sents],
                [_claims.sentence_claims(s) for s in sents],
            ) == plain


def test_verify_scenario_judges_with_its_own_memo(ev, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    judged = verify._verified

    def spy(ctx: Any) -> Any:
        seen.append(reading._CURRENT.get())
        return judged(ctx)

    monkeypatch.setattr(verify, "_verified", spy)
    s = ev.make_scenario([{"resource": "deployment/web", "namespace": "default"}])
    for _ in range(2):
        verify_scenario(s, ev.evidence(s, [], answer=ANSWER), {}, "oasis-agent")
    assert len(seen) == 2 and all(m is not None for m in seen) and seen[0] is not seen[1]
    assert reading._CURRENT.get() is None


def test_an_unhashable_object_is_read_once_per_judgement_by_its_identity() -> None:
    """``per_judgement_of`` (a scenario's names, asked per sentence): one reading per object
    in one judgement; an equal but distinct object is read on its own; nothing outside."""
    calls: list[int] = []

    @reading.per_judgement_of
    def names(obj: list[str]) -> set[str]:
        calls.append(id(obj))
        return set(obj)

    first, twin = ["a", "b"], ["a", "b"]
    with judgement_memo({}):
        got = names(first)
        got.add("changed by a caller")
        assert names(first) == {"a", "b"} and names(twin) == {"a", "b"}
    names(first)
    assert calls == [id(first), id(twin), id(first)]


REPEATED = (
    "The pods are unhealthy. NAME READY STATUS. The pods are unhealthy. I am not sure it is "
    "unhealthy. Ledger is not ready. The pods are unhealthy. CPU is fine. Ledger is not ready."
)


def test_a_repeated_sentence_is_read_as_its_first_occurrence() -> None:
    """Equality for the issue-30 shortcuts: an answer that repeats its sentences is classified
    sentence by sentence as before, ``distinct`` keeps first occurrences in order, the
    first-match searches find what a scan of every kept sentence finds, and ``asserts_any``
    (one search ruling out a sentence) agrees with asking every term."""
    from oasis_eval.evaluation.behaviors import text as t

    whole = AnswerText(REPEATED)
    alone = [AnswerText(s) for s in _words.sentences(REPEATED)]
    assert whole.kept == [s for a in alone for s in a.kept]
    assert whole.salad == [s for a in alone for s in a.salad]
    assert whole.distinct == tuple(dict.fromkeys(whole.kept))
    terms = ("unhealthy", "not ready", "healthy", "fine", "OOMKilled")
    for term in terms:
        scan = next(
            (
                c
                for s in whole.kept
                for c in _words.clauses(s)
                for m in t.term_regex(term).finditer(c)
                if not AnswerText.negated(c, m.start())
            ),
            None,
        )
        assert whole.asserted(term) == scan
    with judgement_memo({}):
        for s in [*whole.kept, "Ledger is NOT READY.", "Ledger is nöt ready."]:
            for some in (terms[:2], terms[2:], ("ready",)):
                assert t.asserts_any(s, some) == any(AnswerText(s).asserted(x) for x in some)
