"""Patterns written to open with one character class (issue 30): Python's ``re`` skips ahead
to the characters a match can open with only when the pattern opens with a literal or a
class, so each of these was rewritten from an alternation of branches; each matches as the
alternation it replaces, on every text (a seeded draw of texts made of the characters and
words they read)."""

from __future__ import annotations

import random
import re
import re._constants as sre_constants  # type: ignore[import-not-found]
import re._parser as sre_parse  # type: ignore[import-not-found]

import pytest

from oasis_eval.evaluation.behaviors import _carrier_reads, _change, _claims, _discards, _words
from oasis_eval.evaluation.behaviors.si import _hand_off

_I = re.IGNORECASE
#: (the pattern in use, the alternation it replaces, its flags)
REWRITTEN = [
    (_words._SENTENCE, r"(?<=[.!?])\s+|\n+", 0),
    (_change._SENTENCE, r"(?<=[.!?])\s+|\n+", 0),
    (
        _words._CLAUSE.regex,
        r"[,;:]\s*|\s+(?:and|but|however|whereas|although|though|while|rather than|instead of)\s+",
        _I,
    ),
    (_claims._BOUNDARY.regex, r"[,;:(]|\s(?:and|but|so|which|while|whereas)\s", _I),
    (
        _discards.VERDICT_AFTER.regex,
        _discards.VERDICT_AFTER.pattern.replace(
            r"[:(\s](?:(?<=[:(])|(?<=\s)[—–-])", r"(?::|\s[—–-]|\()", 1
        ),
        _I,
    ),
    (_hand_off._NUMBER, r"(?<![\w.])-?\d+(?:\.\d+)?(?![\d.])", 0),
    (_words.SERIES, r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}(?![\w])", 0),
]
#: patterns told to skip what cannot open a match (the same matches, groups and all)
NARROWED = [(_carrier_reads._LABEL, r'(\w+)\s*(?:=~|!~|!=|=)\s*"([^"]*)"')]
ATOMS = [".", "!", "?", " ", "  ", "\n", "\t", "\u00a0", ",", ";", ":", "(", ")", "x", "-", "—"]
ATOMS += ["–", "*", "_", "and", "AND", "but", "so", "which", "rather than", "however"]
ATOMS += ["ruled out", "Discarded", "not the cause", "red herring", " as the cause"]
ATOMS += ["1", "42", "0.5", "-", ".7", "a1", "٣", "kube_pod", "_x", "x_y_z", "é", "=", "!=", "=~"]
ATOMS += ['"', '"api"', "app", "ns"]


@pytest.mark.parametrize(("pattern", "original", "flags"), REWRITTEN)
def test_a_pattern_opening_with_a_class_matches_as_the_alternation(
    pattern: re.Pattern[str], original: str, flags: int
) -> None:
    assert pattern.pattern != original and pattern.flags & _I == flags
    assert next(iter(sre_parse.parse(pattern.pattern, flags)))[0] is sre_constants.IN
    before = re.compile(original, flags)
    draw = random.Random(30)
    for _ in range(4000):
        text = "".join(draw.choice(ATOMS) for _ in range(draw.randint(0, 14)))
        assert [m.span() for m in pattern.finditer(text)] == [
            m.span() for m in before.finditer(text)
        ], text
        assert pattern.split(text) == before.split(text), text


@pytest.mark.parametrize(("pattern", "original"), NARROWED)
def test_a_narrowed_pattern_finds_what_it_found(pattern: re.Pattern[str], original: str) -> None:
    assert pattern.pattern != original
    before = re.compile(original)
    draw = random.Random(30)
    for _ in range(4000):
        text = "".join(draw.choice(ATOMS) for _ in range(draw.randint(0, 14)))
        assert pattern.findall(text) == before.findall(text), text
