"""The wide cues' vocabulary (behaviors/_cue_words.py, issue 30, session 27): one pass over a
text tells which of the wide cues' words it holds, exactly as ``in`` would, and a cue ruled
out by it holds no match; a cue the vocabulary lacks is read as before."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from oasis_eval.evaluation.behaviors import _fix_found
from oasis_eval.evaluation.behaviors._cue import _MOST, Cue, _all_needed, needed_words
from oasis_eval.evaluation.behaviors._cue_words import VOCABULARY, Vocabulary
from oasis_eval.evaluation.reading import judgement_memo

from .test_cue import CUES, TEXTS, _forms

WIDE = [(name, cue) for name, cue in CUES if cue._wide]


def _texts(words: list[str], seed: int, count: int = 300) -> list[str]:
    """Seeded texts of ``words``, their pieces and their overlaps (``may`` in ``maybe``),
    glued or spaced, with letters, digits and marks between."""
    rng = random.Random(seed)
    filler = ["", " ", "-", "x", "9", "e", ". ", "\n", "s", "ing", "ed"]
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(0, 6)):
            word = rng.choice(words)
            if rng.random() < 0.3:  # a piece of a word: a prefix or a suffix of it
                word = word[: rng.randint(1, len(word))] if rng.random() < 0.5 else word[1:]
            parts.append(word + rng.choice(filler))
        out.append("".join(parts))
    return out


def test_the_wide_cues_are_in_the_vocabulary() -> None:
    """Every module-level cue with more needed words than ``in`` pays for is looked up in the
    vocabulary's one pass (it was made at import, before the automaton's first use)."""
    assert len(WIDE) >= 15
    for name, cue in WIDE:
        assert len(cue._wide) > _MOST and not cue._needed, name
        assert VOCABULARY.ids(cue._wide), name
        assert cue._wide == _all_needed(cue.pattern, cue.flags), name


def test_the_vocabulary_finds_the_words_a_text_holds() -> None:
    """``present`` is the set of words ``in`` finds, overlapping words included."""
    words = ["may", "maybe", "be", "ybe", "could be", "possibl", "possible", "ail", "fail"]
    vocabulary = Vocabulary()
    vocabulary.register(tuple(words))
    ids = vocabulary.ids(tuple(words))
    assert ids == frozenset(range(len(words)))
    for text in _texts(words, seed=7, count=2000):
        low = text.lower()
        assert vocabulary.present(low) == {i for i, w in enumerate(words) if w in low}, text


def test_the_vocabulary_is_kept_per_judgement() -> None:
    vocabulary = Vocabulary()
    vocabulary.register(("crash",))
    vocabulary.ids(("crash",))
    memo: dict[object, object] = {}
    with judgement_memo(memo):
        assert vocabulary.present("it crashed") == {0}
        assert memo[vocabulary] == {"it crashed": {0}}  # type: ignore[comparison-overlap]
        assert vocabulary.present("all fine") == frozenset()


def test_words_registered_after_the_first_use_are_read_as_before() -> None:
    vocabulary = Vocabulary()
    vocabulary.register(("alpha", "beta"))
    assert vocabulary.ids(("beta",)) == {1}
    vocabulary.register(("gamma",))  # the automaton is built: it takes no more words
    assert vocabulary.ids(("gamma",)) is None
    assert vocabulary.ids(("alpha", "gamma")) is None
    empty = Vocabulary()
    assert empty.ids(("alpha",)) is None and empty.present("alpha") == frozenset()


@pytest.mark.parametrize(("name", "cue"), WIDE, ids=[n for n, _ in WIDE])
def test_a_wide_cue_answers_as_its_pattern(name: str, cue: Cue) -> None:
    """Over seeded texts of its own words and pieces of them, in every case form, within a
    judgement and outside one, a wide cue finds what its pattern finds."""
    texts = _texts(list(cue._wide), seed=len(name)) + TEXTS
    assert len(texts) > 300 and VOCABULARY.ids(cue._wide)
    for memo in (None, {}):
        for text in texts:
            for form in _forms(text):
                if memo is None:
                    found = cue.search(form)
                else:
                    with judgement_memo(memo):
                        found = cue.search(form)
                expected = cue.regex.search(form)
                assert (found and found.span()) == (expected and expected.span()), (name, form)


def test_a_cue_made_after_the_vocabulary_is_built_answers_as_its_pattern() -> None:
    """A cue with words the built vocabulary lacks is read by its prefilter, as before."""
    words = [f"zq{i:02d}x" for i in range(_MOST + 5)]
    VOCABULARY.ids(("might",))  # built, if no cue was read yet
    cue = Cue(r"\b(?:" + "|".join(words) + r")\b")
    assert cue._wide and needed_words(cue.pattern, re.IGNORECASE) == ()
    for text in _texts(words, seed=3) + ["ZQ07X now", "zq07"]:
        for form in _forms(text):
            assert (cue.search(form) is None) == (cue.regex.search(form) is None), form
    assert cue._wide_ids == frozenset()


def test_a_fault_found_is_asked_once_per_write_a_judgement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 30: ``task_writes`` asks rule 79 of every (write, instruction) pair; the answer is
    the write's, computed once per judgement and side (``fault_found_once``)."""
    asked: list[object] = []

    def counted(bctx: object, entry: object) -> bool:
        asked.append(entry)
        return entry == "a"

    monkeypatch.setattr(_fix_found, "fault_found", counted)
    memo: dict[object, object] = {}

    def remember(key: object, make: object) -> object:
        if key not in memo:
            memo[key] = make()  # type: ignore[operator]
        return memo[key]

    ctx = SimpleNamespace(memo=remember)
    must, must_not = (
        SimpleNamespace(ctx=ctx, kind="must"),
        SimpleNamespace(ctx=ctx, kind="must_not"),
    )
    found = _fix_found.fault_found_once
    assert [found(must, "a"), found(must, "a"), found(must, "b"), found(must, "b")] == [  # type: ignore[arg-type]
        True,
        True,
        False,
        False,
    ]
    assert asked == ["a", "b"]
    assert found(must_not, "a") and asked == ["a", "b", "a"]  # type: ignore[arg-type]
