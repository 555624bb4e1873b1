"""The few-heads literal search asks only the heads that fit (issue 30, session 35): the same
answer as ``any(h in data for h in heads)`` for str and bytes, empty heads and data included."""

from __future__ import annotations

import random

import pytest

from oasis_eval.engine.redaction_search import FEW, literal_search

_ALPHABET = "ab\u00e9\u2713\U0001f600-_ "


def _text(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, longest)))


def _plain_any(heads: list, data: object) -> bool:
    return any(h in data for h in heads)


@pytest.mark.parametrize("as_bytes", [False, True])
def test_same_answer_as_every_head_asked(as_bytes: bool) -> None:
    rng = random.Random(35 + as_bytes)
    for _ in range(600):
        heads = [_text(rng, 9) for _ in range(rng.randint(1, FEW))]
        data = rng.choice([_text(rng, 4), _text(rng, 12), _text(rng, 40), rng.choice(heads)])
        if as_bytes:
            heads = [h.encode("utf-8") for h in heads]
            data = data.encode("utf-8")
        search = literal_search(heads)
        assert bool(search(data)) is _plain_any(heads, data)


def test_short_data_longer_heads_found_none() -> None:
    search = literal_search(["x" * 43, "y" * 60])
    assert search("xy") is False
    assert search("") is False
    assert search("a" + "x" * 43) is True


def test_an_empty_head_occurs_in_anything() -> None:
    search = literal_search(["", "long head"])
    assert search("") is True
    assert search("z") is True


def test_no_heads_no_search() -> None:
    assert literal_search([]) is None
