"""The observability tools' JSON (``observability.common._dumps``, session 33) is
``json.dumps(doc, indent=2, ensure_ascii=False)`` byte for byte, errors included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from oasis_sim_k8s.tools.observability.common import _dumps

_LEAVES: list[Any] = [
    None,
    True,
    False,
    0,
    -3,
    2**70,
    1.5,
    -0.0,
    1e300,
    float("nan"),
    float("inf"),
    -float("inf"),
    "",
    'a"b\\c\n\u00e9\u2028\x01',
    "x",
]
_KEYS: list[Any] = ["k", "\u00e9", 'a"', 1, 2.5, True, False, None, ""]


def _value(rnd: random.Random, depth: int) -> Any:
    roll = rnd.random()
    if depth > 4 or roll < 0.5:
        return rnd.choice(_LEAVES)
    if roll < 0.65:
        return tuple(_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3)))
    if roll < 0.8:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    return {rnd.choice(_KEYS): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}


def test_random_documents_are_json_dumps_byte_for_byte() -> None:
    rnd = random.Random(33)
    for _ in range(3000):
        doc = _value(rnd, 0)
        assert _dumps(doc) == json.dumps(doc, indent=2, ensure_ascii=False)


def test_a_range_answer_is_json_dumps_byte_for_byte() -> None:
    doc = {
        "status": "success",
        "data": {
            "resultType": "matrix",
            "result": [
                {
                    "metric": {"pod": f"p{k}"},
                    "values": [[1715679000 + 60 * i, str(0.1 * i)] for i in range(61)],
                }
                for k in range(3)
            ],
        },
    }
    assert _dumps(doc) == json.dumps(doc, indent=2, ensure_ascii=False)


class _Str(str):
    pass


def test_subclasses_are_written_as_json_dumps_writes_them() -> None:
    doc = {_Str("k"): [_Str("v"), {1: 2}], "n": [True, 1, 1.0]}
    assert _dumps(doc) == json.dumps(doc, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("doc", [{(1, 2): 1}, {"a": {1, 2}}, [object()], {"a": b"x"}])
def test_what_json_dumps_refuses_raises_its_own_error(doc: Any) -> None:
    with pytest.raises(TypeError) as ours:
        _dumps(doc)
    with pytest.raises(TypeError) as theirs:
        json.dumps(doc, indent=2, ensure_ascii=False)
    assert str(ours.value) == str(theirs.value)


def test_a_cycle_raises_as_json_dumps_does() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        _dumps(loop)
