"""The redaction prefilter's regex searches behind a ``bytes.find`` of their literal prefix
(issue 30, session 37): the same match as the regex's own search, from any position."""

from __future__ import annotations

import random
import re

import pytest

from oasis_eval.engine import redaction_search
from oasis_eval.engine.encoded_forms import encoded_forms, factored
from oasis_eval.engine.redaction_search import (
    _each,
    items_holding,
    literal_prefix,
    prefixed_search,
)

SECRETS = ["s3cr3t-Token-9a8b", "sk_live_4fGhq92LmNx", "uKq8-pass-Phrase-77"]


def _patterns() -> list[bytes]:
    regexes = []
    for secret in SECRETS:
        _, patterns = encoded_forms(secret, set())
        regexes += [p for _, whole, head in patterns for p in (whole, head)]
    return [r.encode() for r in sorted(set(regexes) | set(factored(regexes)))]


def _texts() -> list[bytes]:
    rng = random.Random(37)
    alphabet = b"s73x0 :,-_6bB5fF\\n" + bytes(range(97, 123))
    texts = [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 300))) for _ in range(300)]
    for secret in SECRETS:
        raw = secret.encode()
        texts += [
            b"pre " + b" ".join(b"%02x" % c for c in raw) + b" post",
            b"0x73 " + b", ".join(b"0x%02X" % c for c in raw),
            b"73 73 " + b":".join(b"%02x" % c for c in raw),
            b"ss " + b"-".join(bytes([c]) for c in raw if chr(c).isalnum()),
        ]
    return texts


@pytest.mark.parametrize(
    ("pattern", "prefix"),
    [
        (rb"(?:73[ :,-]{1,2}6[bB])", b"73"),
        (rb"(?:0x73[ ,]{1,2}0x6[bB])", b"0x73"),
        (rb"(?:s(?:[ _]){1,3}k)", b"s"),
        (rb"(?i)ab", b""),  # a letter a case-insensitive flag lets differ
        (rb"(?i)12a", b"12"),
        (rb"a|b", b""),  # an alternation first
        (rb"ab|ac", b"a"),  # the compiler's own: the alternatives' common start
        (rb"\bab", b""),  # an assertion first
        (rb"(?<=x)ab", b""),
        (rb"(?:ab)?c", b""),  # an optional group first
        (rb"ab*", b"a"),  # a repeat ends it
        (rb"[aA]b", b""),
    ],
)
def test_literal_prefix_is_the_compilers(pattern: bytes, prefix: bytes) -> None:
    assert literal_prefix(pattern) == prefix


def test_prefixed_search_finds_what_the_regex_finds() -> None:
    patterns, texts = _patterns(), _texts()
    assert any(literal_prefix(p) for p in patterns)  # the hex forms have one
    matched = 0
    for pattern in patterns:
        regex, search = re.compile(pattern), prefixed_search(pattern)
        for text in texts:
            for pos in (0, 1, 5, len(text) // 2, len(text)):
                want, got = regex.search(text, pos), search(text, pos)
                assert (want and want.span()) == (got and got.span()), (pattern, text, pos)
                matched += want is not None
    assert matched > 0


def test_lookbehind_before_the_position_still_seen() -> None:
    search = prefixed_search(rb"ab(?<=xab)")  # prefix "ab"; the lookbehind reads before it
    assert literal_prefix(rb"ab(?<=xab)") == b"ab"
    assert search(b"xab", 1) is not None
    assert search(b"yab", 1) is None


def test_items_holding_and_each_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    patterns, texts = _patterns(), _texts()
    items = [t.decode("latin-1") for t in texts]
    found = [items_holding(items, [], [p]) for p in patterns]
    each = [[bool(_each([p.decode()])(t)) for t in texts] for p in patterns]
    monkeypatch.setattr(redaction_search, "prefixed_search", lambda p: re.compile(p).search)
    assert found == [items_holding(items, [], [p]) for p in patterns]
    assert each == [[bool(_each([p.decode()])(t)) for t in texts] for p in patterns]
    assert any(found) and any(map(any, each))
