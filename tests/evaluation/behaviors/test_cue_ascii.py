"""A cue's ASCII twins (behaviors/_cue_ascii.py, issue 30, session 27): on ASCII text, every
cue's prefilter and case-free twin compiled with ``re.ASCII`` match where and what the same
pattern compiled for Unicode does, the separators ``\\x1c``-``\\x1f`` (Unicode spaces, not
ASCII ones) and every other control character included."""

from __future__ import annotations

import random
import re
import re._compiler as _sre_compile  # type: ignore[import-not-found]  # a lowered tree
import re._parser as _sre_parse  # type: ignore[import-not-found]

import pytest

from oasis_eval.evaluation.behaviors._cue import Cue, _relaxed
from oasis_eval.evaluation.behaviors._cue_ascii import ascii_twin, lower_ascii

from .test_cue import CUES, TEXTS

#: every ASCII character, the controls included
ASCII = "".join(map(chr, range(128)))


def _texts(seed: int, words: list[str], count: int = 200) -> list[str]:
    """Seeded ASCII texts: the cue's own words, digits, marks and every control character."""
    rng = random.Random(seed)
    pieces = [*words, "x", "9", "_", "-", "'", ".", ":", " ", "  ", "\t", "\n", "\x0b", "\x0c"]
    pieces += ["\r", "\x1c", "\x1d", "\x1e", "\x1f", "\x00", "\x7f", "is", "not", "the", "a1"]
    out = [ASCII, ASCII[::-1], *(t.lower() for t in TEXTS if t.isascii())]
    for _ in range(count):
        out.append("".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))).lower())
    return out


def _same(twin: re.Pattern[str], plain: re.Pattern[str], texts: list[str], name: str) -> None:
    for text in texts:
        assert text.isascii()
        spans = [(m.span(), m.groups()) for m in plain.finditer(text)]
        assert [(m.span(), m.groups()) for m in twin.finditer(text)] == spans, (name, text)
        for at in (1, len(text) // 2):
            found, first = twin.search(text, at), plain.search(text, at)
            assert (found and found.span()) == (first and first.span()), (name, text, at)


@pytest.mark.parametrize(("name", "cue"), CUES, ids=[n for n, _ in CUES])
def test_a_cues_twins_match_ascii_text_as_its_unicode_patterns(name: str, cue: Cue) -> None:
    words = re.findall(r"[a-z]{2,}", cue.pattern.lower())[:40]
    texts = _texts(len(name) + len(cue.pattern), words)
    flags = cue.flags & ~re.IGNORECASE & ~re.UNICODE
    relaxed = _relaxed(cue.pattern)
    if cue._pre is not None and relaxed is not None:
        _same(cue._pre, re.compile(relaxed, flags), texts, name + " (prefilter)")
    if cue._lowered is not None:  # its uppercase letters read in lowercase (session 34)
        lowered = _sre_compile.compile(lower_ascii(_sre_parse.parse(cue.pattern, flags)), flags)
        _same(cue._lowered, lowered, texts, name + " (case-free)")


def test_the_evaluators_cues_have_ascii_twins() -> None:
    assert sum(c._pre is not None and bool(c._pre.flags & re.ASCII) for _, c in CUES) >= 120
    assert sum(c._lowered is not None and bool(c._lowered.flags & re.ASCII) for _, c in CUES) >= 120


@pytest.mark.parametrize(
    ("pattern", "twinned"),
    [
        (r"\bword\w*\b", True),
        (r"\s+is\s+", True),  # \s spelled out: \x1c-\x1f are spaces to Unicode
        (r"[^\s,]+", True),
        (r"\S+", True),
        (r"[^\S]", True),
        (r"[\s\d]x", True),
        (r"[\S\d]x", False),  # \S among more: no exact spelling in one class
        (r"(?i:ab)c", False),  # flags of a group's own
        (r"(?u)\w", False),  # Unicode asked for
        (r"(?:(a)|b)(?(1)\s|\d)", True),
        (r"(?<=\s)x(?!\s)", True),
        (r"(?>\s+)x", True),
    ],
)
def test_a_twin_spells_out_its_spaces(pattern: str, twinned: bool) -> None:
    twin = ascii_twin(pattern, 0)
    assert (twin is not None) == twinned
    if twin is not None:
        _same(
            twin, re.compile(pattern), _texts(len(pattern), ["is", "ab", "word", "a", "b"]), pattern
        )


def test_a_case_free_twin_is_none_for_a_case_blind_pattern() -> None:
    assert ascii_twin(r"abc", re.IGNORECASE) is None
    assert ascii_twin("[", 0) is None
