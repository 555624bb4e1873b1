"""``spec.yaml_dump.safe_dump`` (libyaml) writes the bytes ``yaml.safe_dump`` writes (issue 30):
over odd strings in keys, values and lists, seeded random strings and documents and numbers
(the report fixtures' verdicts: tests/reporting/test_verdict_io.py); documents libyaml could lay out otherwise are
handed back to PyYAML's emitter."""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml

from oasis_eval.spec import yaml_dump
from oasis_eval.spec.yaml_dump import safe_dump, safe_dump_python

needs_libyaml = pytest.mark.skipif(yaml_dump._CDumper is None, reason="PyYAML without libyaml")

ODD = [
    "", " ", "  lead", "trail ", "a: b", "a:b", ":", "- x", "-", "#x", "a #b", "a#b",
    "multi\nline", "multi\nline\n", "multi\nline\n\n", "\nlead break", "  indented\nblock",
    "line \n trailing", "\n", "\n\n", " \n ", "tab\there", "cr\r\nlf", "yes", "no", "on",
    "off", "true", "False", "null", "~", "y", "n", "0", "007", "1.5", "1e3", "0x1F", ".inf",
    "-.nan", "12:30", "2024-05-14", "2024-05-14T09:30:00Z", "ünïcödé", "日本語", "✓ pass",
    "emoji 🚀", "bom\ufeff", "nel\x85x", "ls\u2028x", "nbsp\xa0x", "bell\x07", "esc\x1b[0m",
    "'single'", '"double"', "it's", "back\\slash", "{flow}", "[list]", "*alias", "&anchor",
    "!tag", "%percent", "@at", "`tick", "|pipe", ">fold", "?q", "? q", "a,b", "a, b",
    "k" * 99, "k" * 127, "k" * 128, "ü" * 64, "word " * 1700, "word " * 2100, "x" * 10_050,
    "[REDACTED:0123abcd4567]", "findings cited: ['2%', '800ms']", "a\u00e9 " * 30,
]  # fmt: skip


def _docs(s: str) -> list[Any]:
    return [
        {"k": s},
        {s: "v"},
        [s],
        {"a": {"b": [s, {"c": s}], "d": [[s], []], "e": {}}},
        {s: {s: [s]}},
    ]


def _check(doc: Any) -> bool:
    """Whether libyaml took ``doc``; fails when its bytes differ from PyYAML's."""
    python = safe_dump_python(doc)
    assert python == yaml.safe_dump(doc, **yaml_dump.ARGS)
    assert safe_dump(doc) == python, doc
    try:
        assert yaml_dump._CDumper is not None
        return yaml.dump(doc, Dumper=yaml_dump._CDumper, **yaml_dump.ARGS) == python
    except yaml_dump._NeedsPython:
        return False


@needs_libyaml
@pytest.mark.parametrize("s", ODD, ids=range(len(ODD)))
def test_odd_strings_dump_byte_identically(s: str) -> None:
    docs = _docs(s)
    assert len(docs) == 5
    for doc in docs:
        _check(doc)


@needs_libyaml
def test_plain_documents_take_libyaml() -> None:
    doc = {"verdict": {"safety": "PASS", "score": 0.75, "n": 3, "ok": True, "none": None}}
    assert _check(doc)
    assert _check({"list": ["a", 1, 2.5, False, {"x": "y: z"}], "empty": [], "map": {}})


@needs_libyaml
def test_numbers_and_specials_dump_byte_identically() -> None:
    values = [0, -1, 10**20, 0.1, 1e-7, 1e300, 2.5, -0.0, float("inf"), float("-inf"), True]
    for value in values:
        assert _check({"v": value, "l": [value]})
    _check({"nan": float("nan")})


@needs_libyaml
def test_random_strings_dump_byte_identically() -> None:
    """Seeded strings over the characters YAML treats specially, in every position."""
    alphabet = list(" \n:#-?,[]{}&*!|>'\"%@`\\yesnoYN0123.eE+~üé✓日🚀\t\x85\u2028\ufeff\xa0")
    rng = random.Random(30)
    taken = 0
    for _ in range(1500):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        for doc in _docs(s):
            taken += _check(doc)
    assert taken > 1500  # the fast path is the one compared, not a fallback


@needs_libyaml
def test_random_documents_dump_byte_identically() -> None:
    """Seeded nested documents of words, numbers and odd strings, as a verdict holds."""
    rng = random.Random(7)
    words = ["PASS", "FAIL", "a b", "x: y", "- z", "", "0.5", "yes", "it's", "line\nnext", "é"]

    def value(depth: int) -> Any:
        pick = rng.random()
        if depth > 3 or pick < 0.4:
            return rng.choice([*words, rng.random(), rng.randint(-5, 10**6), True, None])
        if pick < 0.7:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(words) or "k": value(depth + 1) for _ in range(rng.randint(0, 4))}

    for _ in range(400):
        _check({"verdict": value(0)})
