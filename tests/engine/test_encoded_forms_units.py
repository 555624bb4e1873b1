"""encoded_forms' regex forms built from per-unit tables (issue 30, session 34): the
letter-spaced form's units and the two hex-separated forms are the ones the earlier code
built unit by unit (kept here verbatim), for every kind of character."""

from __future__ import annotations

import random
import re

from oasis_eval.engine import encoded_forms as ef


def _spaced_before(value: str) -> tuple[str, str] | None:
    chars = [c for c in value if c.isalnum()]
    if len(chars) < ef.SPACED_MIN_UNITS:
        return None
    return ef._joined([re.escape(c) for c in chars], ef.SEPARATOR)


def _hex_before(data: bytes) -> list[tuple[str, str]]:
    return [
        ef._joined([ef._hex_byte(b) for b in data], ef._HEX_SEPARATOR),
        ef._joined(["0x" + ef._hex_byte(b) for b in data], ef._HEX_0X_SEPARATOR),
    ]


def _samples() -> list[str]:
    rng = random.Random(3434)
    pool = "aZ09_-+/=.()[]{}?*|^$\\&~# \t\n\r\x0b\x0cäöß✓中٣²Ⅻ\U0001f600\U0001d7d8"
    out = ["s3cr3t-Token_value+/=", "".join(map(chr, range(32, 127))), "short", "ab.cd.ef"]
    out += ["".join(rng.choice(pool) for _ in range(rng.randrange(0, 60))) for _ in range(600)]
    return out


def test_spaced_and_hex_forms_are_the_unit_by_unit_ones() -> None:
    spaced = 0
    for value in _samples():
        assert ef._spaced(value) == _spaced_before(value), value
        data = value.encode("utf-8", "surrogatepass")
        assert ef._hex_separated(data) == _hex_before(data), value
        spaced += ef._spaced(value) is not None
    assert spaced > 200  # most draws have a letter-spaced form to compare


def test_every_byte_has_its_hex_unit() -> None:
    data = bytes(range(256))
    assert ef._hex_separated(data) == _hex_before(data)
