"""``_echo._sentence_tails`` (issue 30, session 33): one sentence's comma tails read once a
run, a sentence with no figure not folded, a tail sharing no word with its line not
substituted: the same tails as folding every part (rules 965, 992, 1040, 1042, 1074)."""

from __future__ import annotations

import random

import pytest

from oasis_eval.evaluation.behaviors import _echo

_WORDS = [
    "line", "one", "anyone", "three", "3", "12.5", "twenty-one", "first", "someone", "error",
    "ERROR", "Seventh", "failed", "the", "pool", "db", "so", "other", "lines", "were",
    "filtered", "out", "timeout", "ms", "none",
]  # fmt: skip
_MARKS = [",", ":", ";", ".", "!", " "]


def _reference(sentence: str) -> frozenset[str]:
    """The tails as session 32's ``repeated_tails`` made them: every part folded."""
    flat = " ".join(sentence.split())
    first = flat.find(":")
    commas = [i for i, c in enumerate(flat) if c == "," or (c == ":" and i > first)]
    tails = set()
    for i in commas[-_echo._LAST_COMMAS :]:
        tail = " ".join(flat[i + 1 :].split()).strip(" .!").lower()
        tail = _echo._FIGURE.sub("#", _echo.line_named(tail))  # rules 1074, 1165, 1186 too
        words = {
            w
            for w in _echo._WORD.findall(_echo._FIGURE.sub("#", flat[first + 1 : i].lower()))
            if len(w) >= 3
        }
        tails |= {
            tail,
            _echo._WORD.sub(lambda m, w=words: "@" if m.group() in w else m.group(), tail),
        }
    return frozenset(t for t in tails if t.count(" ") >= 1)


def _sentences(n: int) -> list[str]:
    draw = random.Random(33)
    out = []
    for _ in range(n):
        parts = [f"{draw.choice(['log', 'Evidence', 'pod x'])}:"]
        for _ in range(draw.randrange(3, 14)):
            parts.append(draw.choice(_WORDS) + (draw.choice(_MARKS) if draw.random() < 0.4 else ""))
        out.append(" ".join(parts))
    return out


@pytest.mark.parametrize("sentence", _sentences(400))
def test_the_tails_are_those_of_folding_every_part(sentence: str) -> None:
    assert _echo._sentence_tails(sentence) == _reference(sentence)


def test_a_sentence_without_figures_and_one_with_them() -> None:
    """Both paths are taken: sentences with no figure, and tails with a figure folded."""
    drawn = _sentences(400)
    assert any(_echo._FIGURE.search(s) is None for s in drawn)
    assert any("#" in t for s in drawn for t in _echo._sentence_tails(s))
