"""A rule pattern's ASCII twin (behaviors/_ascii_guard.py, issue 30, session 28): on ASCII
text the twin of a case-insensitive pattern matches where and what the pattern does, so
settling a text as matchless by the twin is exact; a pattern holding a character Unicode folds
onto an ASCII letter gets no twin."""

from __future__ import annotations

import random
import re

import pytest

from oasis_eval.evaluation.behaviors._ascii_guard import FOLDS_TO_ASCII, finditer, twin
from oasis_eval.evaluation.behaviors.si import _past_change, _presupposed

#: the patterns the rules read through :func:`finditer`
GUARDED = {
    "presupposed._PHRASE": _presupposed._PHRASE,
    "presupposed._STATED": _presupposed._STATED,
    "past_change._BY_NOUN": _past_change._BY_NOUN,
    "past_change._BY_VERB": _past_change._BY_VERB,
    "past_change._BY_GERUND": _past_change._BY_GERUND,
    "past_change._BY_PREFIX": _past_change._BY_PREFIX,
    "past_change._BY_ITSELF": _past_change._BY_ITSELF,
    "past_change._CAME_BACK": _past_change._CAME_BACK,
    "past_change._DONE_AFTER": _past_change._DONE_AFTER,
}
#: every ASCII character, the controls included
ASCII = "".join(map(chr, range(128)))
_MARKS = [" ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "\x00"]
_MARKS += ["-", "'", ".", ":", ",", "_", "/", "=", "(", ")", "9", "10", "12:30", "x", "W's"]
#: phrases the guarded patterns match (and near misses), mixed into the seeded texts
_PHRASES = [
    "api-service came back up again",
    "once W is back online",
    "if it came back up",
    "W's pods are fresh",
    "the pods were recreated",
    "pods that replaced W's old ones",
    "verify api-service's fresh pods",
    "the brand-new replica set of W",
    "no new pods",
    "after the restart of W",
    "after I restarted W",
    "since we rolled it back",
    "once W had restarted",
    "W post-restart",
    "after restarting W",
    "rollback complete",
    "restart: ok",
    "once the restart is done",
    "at 9 AM",
    "10:30 p.m.",
    "half past ten",
    "at nine, then",
    "in the morning",
    "mid-morning",
    "about 5 minutes ago",
    "2 amps",
]


def _texts(pattern: str, seed: int, count: int = 400) -> list[str]:
    """Seeded ASCII texts of the pattern's own words (in any case), digits, marks and the
    separators ``\\x1c``-``\\x1f`` (Unicode spaces, not ASCII ones)."""
    rng = random.Random(seed)
    words = sorted(set(re.findall(r"[A-Za-z]{2,}", pattern)))
    words += ["api-service", "the", "pods", "is", "was", "I", "we", "my", "of", "am", "pm"]
    out = [ASCII, ASCII[::-1]]
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 14)):
            roll = rng.random()
            piece = (
                rng.choice(words)
                if roll < 0.5
                else rng.choice(_PHRASES)
                if roll < 0.65
                else rng.choice(_MARKS)
            )
            case = rng.random()
            piece = piece.upper() if case < 0.15 else piece.title() if case < 0.3 else piece
            parts.append(piece)
            parts.append(rng.choice([" ", " ", " ", "", "\n", "\x1c", "  ", "-"]))
        out.append("".join(parts))
    return out


def _read(matches: object) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(GUARDED))
def test_a_rule_pattern_and_its_twin_match_alike_on_ascii_text(name: str) -> None:
    rx = GUARDED[name]
    # a pattern a later rule gives no twin (a folding character, flags of a group's own) is
    # still read exactly, by itself: only the twin's comparison is then skipped
    other = twin(rx)
    hits = 0
    for text in _texts(rx.pattern, seed=sum(map(ord, name))):
        assert text.isascii()
        expected = _read(rx.finditer(text))
        if other is not None:
            assert _read(other.finditer(text)) == expected, (name, text)
        found = list(finditer(rx, text))
        assert _read(found) == expected, (name, text)
        assert all(m.re is rx for m in found)  # the pattern's own matches
        hits += bool(expected)
    assert hits  # the seeded texts reach the pattern's matches too


def test_the_folding_characters_are_every_one_unicode_folds_onto_ascii() -> None:
    """Recomputed the way ``re`` folds: ``_sre``'s lowercase, then ``re._casefix``'s extra
    cases (the characters ``re`` adds to a case-insensitive literal or class)."""
    import _sre
    from re import _casefix  # type: ignore[attr-defined]

    found = {
        c
        for c in range(128, 0x110000)
        if _sre.unicode_tolower(c) < 128
        or any(k < 128 for k in _casefix._EXTRA_CASES.get(_sre.unicode_tolower(c), ()))
    }
    assert found == FOLDS_TO_ASCII


@pytest.mark.parametrize("char", sorted(FOLDS_TO_ASCII))
def test_a_pattern_holding_a_folding_character_gets_no_twin(char: int) -> None:
    letter = chr(char)
    cases = [
        re.escape(letter),
        f"[{re.escape(letter)}x]",
        f"[^{re.escape(letter)}]",
        f"(?:ab|c{re.escape(letter)})",
        f"(?<!{re.escape(letter)})z",
        "[\u0100-\u0200\u2100-\u2200]",
    ]
    for pattern in cases:
        assert twin(re.compile(pattern, re.IGNORECASE)) is None, pattern
    # what a twin would get wrong: Unicode's folding takes an ASCII letter for the character
    rx = re.compile(re.escape(letter), re.IGNORECASE)
    folded = [a for a in ASCII if rx.fullmatch(a)]
    assert folded
    assert not any(re.compile(re.escape(letter), re.I | re.ASCII).fullmatch(a) for a in folded)
    # without IGNORECASE the character is only itself: a twin
    assert twin(re.compile(re.escape(letter))) is not None


def test_the_rules_patterns_have_twins_today() -> None:
    assert all(twin(rx) is not None for rx in GUARDED.values())


def test_patterns_without_an_exact_twin() -> None:
    assert twin(re.compile(r"(?-i:a)b", re.IGNORECASE)) is None  # flags of a group's own
    assert twin(re.compile(r"[\Sx]")) is None  # \S within a class of more
    assert twin(re.compile(r"\w+", re.ASCII)) is None  # ASCII already
    assert twin(re.compile(rb"a", re.IGNORECASE)) is None  # type: ignore[arg-type]


def test_a_text_that_is_not_ascii_is_read_by_the_pattern_itself() -> None:
    rx = _past_change._CAME_BACK
    text = "Once api\u2014service came back up again, the pods were fine."
    assert _read(finditer(rx, text)) == _read(rx.finditer(text))
    rx = re.compile(r"\bcafe\b", re.IGNORECASE)
    assert [m.group() for m in finditer(rx, "CAFE and caf\u00e9")] == ["CAFE"]
    assert list(finditer(rx, "cafeteria")) == []


def test_spaces_are_unicode_spaces_in_the_twin() -> None:
    rx = re.compile(r"came\s+back", re.IGNORECASE)
    assert [m.span() for m in finditer(rx, "came\x1cback")] == [(0, 9)]
    assert twin(rx) is not None and twin(rx).search("came\x1cBACK")  # type: ignore[union-attr]
