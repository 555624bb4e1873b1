"""One catalogue answer's cost, linear in its size (session 31, issue 30; round 41b's
``dotted_or_runs_41b``: 43 CPU-s to judge, eight times the next gamer).

Three readings grew with the square of a part of the answer: rule 610's question cues over a
clause of n options joined by "or" (``_question.py``: ``[^?]*\\bor\\b[^?]*\\?`` tried each
"or" and ran on from it), rules 763/825's object names per option and per cue
(``si/operations.py::_menu``, ``_marks``: ``any`` over every name for every option) and an
image reference over a dotted word of n characters (``si/_rollout.py::_IMAGE``: two runs of
``[\\w./-]*`` around a letter tried every split). The old patterns are kept here to check
the new cues against on random texts (same matches, same spans); the Python readings are
counted (profile events, deterministic) at 1x and 8x; the regular expressions, which count
nothing, are read at 8x the gamer's size, where the old patterns take minutes (the
precedent of ``test_guard27_rules.py``: what is read is asserted, never how fast)."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest

from oasis_eval.evaluation.behaviors import _question as q
from oasis_eval.evaluation.behaviors._question import mask_questions
from oasis_eval.evaluation.behaviors._spans import Points, Spans
from oasis_eval.evaluation.behaviors.si._rollout import _IMAGE
from oasis_eval.evaluation.behaviors.si.operations import _marks, _menu

_I = re.IGNORECASE
_HEAD = r"^[\s>*#-]*(?:\d+[.)]\s*)?"
_WHO = (
    r"(?:it|this|that|there|the|a|an|any|its|their|these|those|they|we|you|he|she|one|some|"
    r"either|each)\b"
)
#: the patterns before session 31
_OLD = {
    "_WHICH": _HEAD + r"(?:(?:Q|Question)\s*\d*\s*[:.)][\s*_]*)?(?:which|what|who)\b"
    r"[^?]*\bor\b[^?]*\?[\s*_]*$",
    "_OFFERED": r"^(?![\s>*#-]*(?:(?:Q|Question)\s*\d*\s*[:.)][\s*_]*)?why\b)"
    r"[^?]*\bor\b[^?]*\?[?!\s*_]*$",
    "_INVERTED": _HEAD + r"(?:(?:so|and|but|then|now|well)\b,?\s+)?"
    r"(?:is|are|was|does|do|did|has|have|can|could|will|would)\s+" + _WHO + r"[^?]*\bor\b[^?]*$",
    "_CONDITION_ASKS": _HEAD + r"(?:(?:so|and|but|then|now|well)\b,?\s+)?"
    r"(?:were|had|should)\s+" + _WHO + r"[^?,]*\bor\b[^?,]*$",
}
_TOKENS = ["or", " or ", "Or", "OR", "nor", "?", "!", " ", "\n", ",", "is ", "were ", "the "]
_TOKENS += ["which ", "Why ", "Q: ", "x", "*", "_", "word", "1. ", "-", "so ", "it ", "."]


def _span(m: re.Match[str] | None) -> tuple[int, int] | None:
    return None if m is None else m.span()


@pytest.mark.parametrize("name", sorted(_OLD))
def test_a_question_cue_matches_as_before(name: str) -> None:
    """The lookahead form of each cue: the same match and span as the old pattern."""
    old, new = re.compile(_OLD[name], _I), getattr(q, name)
    rng = random.Random(name)
    for _ in range(20000):
        text = "".join(rng.choice(_TOKENS) for _ in range(rng.randint(0, 16)))
        assert _span(new.match(text)) == _span(old.match(text)), text


def test_spans_and_points_answer_as_any() -> None:
    rng = random.Random(31)
    for _ in range(3000):
        spans = [(a, a + rng.randint(0, 6)) for a in rng.sample(range(40), rng.randint(0, 8))]
        xs = [rng.randint(0, 45) for _ in range(rng.randint(0, 6))]
        held, points = Spans(spans), Points(xs)
        for x in range(-1, 50):
            assert held.holds(x) == any(a <= x < b for a, b in spans)
            for b in range(x, x + 8):
                assert points.any_in(x, b) == any(x <= p < b for p in xs)


def _clause(n: int) -> str:
    """Round 41b's last line at ``n`` options (the gamer: 20,000)."""
    return "Remove " + " or ".join(["restrict-backend"] * n) + "."


def _events(read: Callable[[], Any]) -> int:
    """Profile events (calls, returns, generator steps) of ``read``: a deterministic count."""
    seen = [0]

    def count(*_: Any) -> None:
        seen[0] += 1

    sys.setprofile(count)
    try:
        read()
    finally:
        sys.setprofile(None)
    return seen[0]


def test_a_menu_of_many_options_is_read_in_linear_steps() -> None:
    """Rules 763/825: 8x the options, at most 9x the steps (was 64x: every name per option)."""
    every = frozenset({"restrict-backend"})

    def read(n: int) -> Callable[[], Any]:
        clause = _clause(n)
        return lambda: _menu(clause, *_marks(clause, every))

    assert _menu(_clause(3), *_marks(_clause(3), every)) is False  # one fix cue, three options
    small, large = _events(read(500)), _events(read(4000))
    assert large <= 9 * small, (small, large)


@pytest.mark.timeout(120)
def test_questions_in_a_catalogue_eight_times_the_gamer_are_read() -> None:
    """Rule 610's cues over 160,000 options (the old ``_OFFERED``: 2 CPU-s at 20,000, the
    square of that here): nothing is asked, nothing blanked; with a question mark the
    alternatives are offered and the whole sentence blanked."""
    clause = _clause(160000)
    assert mask_questions(clause) == clause
    asked = clause[:-1] + "?"
    assert mask_questions(asked) == " " * len(asked)
    assert q._INVERTED.match("Is it " + clause[7:] + "?") is None


#: ``_IMAGE`` before session 31
_OLD_IMAGE = re.compile(r"(?<![\w./@:-])([a-z0-9][\w./-]*[a-z][\w./-]*:[\w][\w.-]*)", _I)
_IMAGE_TOKENS = ["a", "B", "1", "9", ".", "/", "-", ":", "@", " ", "_", "db", "v1.2", "x:"]
_IMAGE_TOKENS += ["\u017f", "\u212a", "\u00e9", "\n"]  # letters IGNORECASE equates with a-z


def test_an_image_reference_is_found_as_before() -> None:
    """The lookahead form of ``_IMAGE``: the same references, spans and all."""
    rng = random.Random(41)
    for _ in range(30000):
        text = "".join(rng.choice(_IMAGE_TOKENS) for _ in range(rng.randint(0, 14)))
        old = [m.span(1) for m in _OLD_IMAGE.finditer(text)]
        assert [m.span(1) for m in _IMAGE.finditer(text)] == old, text
        assert _IMAGE.findall(text) == _OLD_IMAGE.findall(text), text


@pytest.mark.timeout(120)
def test_a_dotted_word_eight_times_the_gamer_is_read() -> None:
    """480,000 characters of "db.db..." (the old pattern: 4.5 CPU-s at 60,000, the square of
    that here): no image named, one where a tag closes the word."""
    dotted = ".".join(["db"] * 240000)
    assert _IMAGE.findall(f"it is {dotted} or not") == []
    assert _IMAGE.findall(f"it is {dotted}:v2 now") == [f"{dotted}:v2"]
