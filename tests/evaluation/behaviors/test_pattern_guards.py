"""Patterns rewritten for speed match what they replace (issue 30, s26-perf44p).

Each rewritten pattern is compared with the one it replaces, span and groups, over seeded
strings built from the characters and words it reads: the rewrite must change how many steps
``re`` takes, never what it finds.
"""

from __future__ import annotations

import random
import re

from oasis_eval.evaluation.behaviors import _change, _fix
from oasis_eval.evaluation.behaviors._dates import NOT_AFTER_DATE, NOT_BEFORE_DATE

_WORDS = (
    "change", "proposal", "plan", "scale", "request", "needs", "approval", "not", "applied",
    "order-service's", "memory", "limit", "256Mi", "512Mi", "to", "http", "https", "a/b",
    "it's", "web-app", "(rolling", "pods)", "(needs approval)", "Nov", "november", "jan.",
    "sept", "XI", "iv", "2026", "30", "30th", "of", "may", "14", "1.4.2", "v2", "x",
    "٣", "١٢", "ﬀ", "İ",
)  # fmt: skip
_MARKS = (" ", "  ", "\t", "\n", ":", ": ", "://", ",", ", ", ".", ". ", "-", "/", "(", ")",
          "'", "%", "Mi", "")  # fmt: skip


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = [
            rng.choice(_WORDS if rng.random() < 0.6 else _MARKS) for _ in range(rng.randint(0, 10))
        ]
        out.append("".join(p + (" " if rng.random() < 0.5 else "") for p in parts))
    return out


def _same_match(old: re.Pattern[str], new: re.Pattern[str], text: str, pos: int = 0) -> None:
    a, b = old.match(text, pos), new.match(text, pos)
    assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (text, pos)


def _same(old: re.Pattern[str], new: re.Pattern[str], text: str) -> None:
    _same_match(old, new, text)
    found = [(m.span(), m.groups()) for m in old.finditer(text)]
    assert found == [(m.span(), m.groups()) for m in new.finditer(text)], text


def test_label_words_taken_whole_match_as_before() -> None:
    old = re.compile(r"((?:\s*(?:[\w'/-]+|\([^()]{0,60}\)|,)){0,5}?)\s*:(?!//)")
    assert _fix._LABEL.pattern == old.pattern.replace("]+|", "]++|", 1)
    # the replaced pattern is the slow one (seconds over these texts): matched only, as
    # _label_end matches it, at a few positions of each text
    for text in _texts(440, 700):
        for pos in range(0, len(text), 7):
            _same_match(old, _fix._LABEL, text, pos)


def test_quantity_opening_with_a_digit_matches_as_before() -> None:
    old = re.compile(
        rf"(?<![\w-]){NOT_AFTER_DATE}\d+(?:\.\d+)?{NOT_BEFORE_DATE}(?:[a-zA-Z%]{{1,3}})?(?![\w-])",
        re.IGNORECASE,
    )
    assert _change.QUANTITY.pattern == "(?=\\d)" + old.pattern
    for text in _texts(393, 3000):
        _same(old, _change.QUANTITY, text)


def test_seeded_numbers_opening_with_a_digit_match_as_before() -> None:
    """``escalation.specifics``' number alternative: a seeded number is ``\\d+(?:\\.\\d+)?``."""
    found = 0
    for numbers in (["256", "512", "30"], ["1.4", "2026", "14"], ["١٢", "99"]):
        alts = "|".join(sorted(numbers, key=len, reverse=True))
        tail = rf"(?:{alts})(?!\d){NOT_BEFORE_DATE}"
        old = re.compile(rf"(?<![\w-])(?:web-app)(?![\w-])|{NOT_AFTER_DATE}{tail}", re.I)
        new = re.compile(rf"(?<![\w-])(?:web-app)(?![\w-])|(?=\d){NOT_AFTER_DATE}{tail}", re.I)
        for text in _texts(len(alts), 1500) + [f"{n} Nov, Nov {n}, 30.{n}, v{n}" for n in numbers]:
            _same(old, new, text)
            found += new.search(text) is not None
    assert found > 500  # the texts do hold the names and numbers compared
