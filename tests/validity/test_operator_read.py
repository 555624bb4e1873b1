"""The gamers' YAML reader builds what the safe loader builds (issue 30: it skips the safe
constructor's generic dispatch for plain documents, and must change no gamer's figures)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from . import operator_read
from .operator_read import items, load_yaml

DOCS = [
    "apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: a, labels: {x: 'y'}}\n",
    "a: 1\nb: 1.5\nc: true\nd: null\ne: '1'\nf: 2020-01-02\ng: 2020-01-02T03:04:05Z\nh: [1, x]\n",
    "a: &x [1]\nb: *x\n",  # an alias: one object, as the safe constructor makes it
    "<<: {a: 1}\nb: 2\n",  # a merge key
    "1: a\n",  # a key that is not text
    "x: !!binary aGk=\n",
    "x: !!set {a, b}\n",
    "- 0x1f\n- 0o17\n- .inf\n- ~\n- yes\n- ''\n",
    "",
    "---\n",
    "plain text\n",
]


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("text", DOCS)
def test_load_yaml_builds_what_safe_load_builds(text: str) -> None:
    """Parsed, then read again from the kept parse (session 33): the same document both times."""
    operator_read._PARSED.clear()
    operator_read._PARSED.size = 0
    assert _same(load_yaml(text), yaml.safe_load(text))
    assert _same(load_yaml(text), yaml.safe_load(text))


def test_an_alias_stays_one_object() -> None:
    for _ in range(2):
        doc = load_yaml("a: &x [1]\nb: *x\n")
        assert doc["a"] is doc["b"]


def test_a_text_read_again_is_a_fresh_copy_of_its_parse() -> None:
    """A reader that changes what it was given changes no later read of the same text."""
    text = "kind: Pod\nmetadata: {name: a, labels: {x: 'y'}}\n"
    first = load_yaml(text)
    first["metadata"]["labels"]["x"] = "changed"
    second = load_yaml(text)
    assert second["metadata"]["labels"] == {"x": "y"}
    second["kind"] = "Other"
    assert load_yaml(text)["kind"] == "Pod"


def test_the_kept_parses_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(operator_read, "_PARSED_BYTES", 400)
    monkeypatch.setattr(operator_read, "_PARSED", operator_read._Parsed())
    texts = [f"name: n{i}\nvalue: {'x' * 40}\n" for i in range(20)]
    for text in texts:
        assert load_yaml(text) == {"name": text.split()[1], "value": "x" * 40}
    kept = operator_read._PARSED
    assert 0 < len(kept) < 20 and kept.size <= 400
    assert list(kept) == texts[-len(kept) :]  # the least recently read went first
    assert kept.size == sum(len(t) + len(p) for t, p in kept.items())


@pytest.mark.parametrize("text", ["a: b: c\n", "[1, 2\n", "a: [1]\na: !!python/name:os.system\n"])
def test_what_is_not_safe_yaml_is_none(text: str) -> None:
    assert load_yaml(text) is None


def test_items_of_a_list_and_of_one_object() -> None:
    assert [i["metadata"]["name"] for i in items(DOCS[0])] == ["a"]
    assert items("kind: Pod\nmetadata: {name: b}\n") == [{"kind": "Pod", "metadata": {"name": "b"}}]
    assert items("- a\n") == []
