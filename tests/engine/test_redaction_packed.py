"""The run-wide heads' yes-or-no search through leftmost-first automata (issue 30, session 26,
``engine/redaction_search.any_head``): the same answer as every head's ``bytes.find``."""

from __future__ import annotations

import marshal
import random

import pytest

from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.redaction_search import PACKED, any_head, packed, searchers

#: bytes a head and a haystack are drawn from: few, so heads overlap, nest and share prefixes
_ALPHABET = b'ab\\"\n\x00\xff\xc3\xa9'


def _heads(rng: random.Random, count: int) -> list[bytes]:
    return [bytes(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 9))) for _ in range(count)]


def _haystack(rng: random.Random, heads: list[bytes]) -> bytes:
    parts = [bytes(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40)))]
    if heads and rng.random() < 0.5:  # a head planted at some offset, sometimes cut short
        head = rng.choice(heads)
        parts.append(head if rng.random() < 0.7 else head[:-1])
    parts.append(bytes(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40))))
    return b"".join(parts)


@pytest.mark.parametrize("count", [1, 2, 7, PACKED - 1, PACKED, PACKED + 1, 3 * PACKED + 5])
def test_any_head_answers_as_every_heads_find(count: int) -> None:
    rng = random.Random(count)
    for _ in range(60):
        heads = _heads(rng, count)
        search = any_head(heads)
        assert search is not None
        for _ in range(25):
            data = _haystack(rng, heads)
            assert bool(search(data)) == any(h in data for h in heads), (heads, data)


def test_any_head_of_nothing_or_an_empty_head() -> None:
    assert any_head([]) is None
    search = any_head([b"", b"abc"])
    assert search is not None and search(b"") and search(b"xyz")


def test_heads_are_packed_once_a_run_in_automata_of_at_most_packed_heads() -> None:
    heads = tuple(sorted({f"head-{i:04d}-value".encode() for i in range(2 * PACKED + 3)}))
    automata = packed(heads)
    assert len(automata) == 3 and packed(heads) is automata  # cached
    found = [h for h in heads if any(a.find_matches_as_indexes(b"..." + h) for a in automata)]
    assert found == list(heads)


def test_the_run_wide_bytes_search_agrees_with_its_heads_one_by_one() -> None:
    """The run-wide redactor's literal search over a structure's bytes (searchers, dfa=True)
    against a find per head, over dumps holding each head, a head cut short, or none."""
    rng = random.Random(26)
    forms = [f"secret-{rng.getrandbits(64):016x}-{n}" for n in range(90)]
    heads = sorted({form.encode() for form in forms})
    _, search_bytes, _, automaton = searchers(forms, [], None, dfa=True)
    assert automaton is not None
    for n in range(300):
        value: list[object] = [{"k": f"v{n}", "n": n}, 'plain text \\ " \u00e9']
        pick = rng.choice(forms)
        if n % 3 == 0:
            value.append({"x": f"pre {pick} post"})
        elif n % 3 == 1:
            value.append(pick[:-1])
        data = marshal.dumps(value, 4)
        assert bool(search_bytes(data)) == any(h in data for h in heads)


def test_a_redactor_still_redacts_every_run_wide_form_in_a_structure() -> None:
    root = Redactor()
    values = [f"run-wide-value-{n:03d}-abcdefgh" for n in range(80)]  # past PACKED heads
    for value in values:
        root.register(value, short_forms=False)
    copy = root.scoped()
    copy.register("scenario-token-value-0123456789", patterns=False)
    assert copy._ready() and len(copy.forms) > PACKED
    for value in values[::7]:
        out = copy.data({"items": [{"a": "clean"}, {"b": f"x {value} y"}], "c": "plain"})
        assert value not in repr(out) and "clean" in repr(out)
        assert copy.data({"a": ["clean"] * 3}) == {"a": ["clean"] * 3}
