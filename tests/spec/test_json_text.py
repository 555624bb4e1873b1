"""``spec.json_text.indented_json`` is ``json.dumps`` byte for byte, errors included, in each
layout the project writes: ``profile.json`` (indent 1, sorted keys; issue 30, session 22) and
the simulator's observability answers (indent 2, the document's order, ``ensure_ascii=False``;
session 33), for a profile's dump, a metrics answer, seeded random documents and non-JSON
values."""

from __future__ import annotations

import enum
import json
import math
import random
from typing import Any

import pytest

from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.rundir import redacted_profile
from oasis_eval.spec.json_text import indented_json

#: (indent, sort_keys, ensure_ascii): profile.json's, the simulator's, and one more
LAYOUTS = [(1, True, True), (2, False, False), (4, False, True)]


def _both(value: Any, layout: tuple[int, bool, bool]) -> tuple[str, str]:
    indent, sort_keys, ensure_ascii = layout
    ours = indented_json(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    theirs = json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    return ours, theirs


def _random(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(10 if depth < 4 else 7)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, -1, 2**70, -(2**63), 7])
    if pick == 2:
        return rng.choice([0.0, -0.0, 1.5, 1e300, 1e-7, math.inf, -math.inf, math.nan, 0.1])
    if pick in (3, 4, 5, 6):
        return "".join(rng.choice('ab "\\\n\t\x00\x1f\u00e9\u2028\U0001f600/') for _ in range(4))
    if pick == 7:
        return [_random(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 8:
        return tuple(_random(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {_random_key(rng): _random(rng, depth + 1) for _ in range(rng.randrange(5))}


def _random_key(rng: random.Random) -> Any:
    if rng.randrange(12) == 0:  # a key json.dumps converts (or, sorted among str, refuses)
        return rng.choice([1, 2.5, True, None])
    return "".join(rng.choice('abZ_ \u00e9\\"') for _ in range(rng.randrange(4)))


def test_a_profiles_dump_is_written_as_json_dumps_writes_it(si_profile: Any) -> None:
    dumped = redacted_profile(si_profile, Redactor())
    ours, theirs = _both(dumped, LAYOUTS[0])
    assert ours == theirs


def test_a_range_answer_is_written_as_json_dumps_writes_it() -> None:
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
    ours, theirs = _both(doc, LAYOUTS[1])
    assert ours == theirs


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("seed", range(3))
def test_random_json_data_is_written_as_json_dumps_writes_it(
    seed: int, layout: tuple[int, bool, bool]
) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        value = _random(rng)
        try:
            ours, theirs = _both(value, layout)
        except TypeError as refused:  # sorted keys of two types: json.dumps refuses them too
            with pytest.raises(TypeError) as also:
                json.dumps(value, indent=layout[0], sort_keys=layout[1])
            assert str(also.value) == str(refused)
            continue
        assert ours == theirs


class _Colour(str, enum.Enum):
    RED = "red"


class _Str(str):
    pass


@pytest.mark.parametrize("layout", LAYOUTS)
def test_what_is_not_plain_json_data_is_left_to_json_dumps(layout: tuple[int, bool, bool]) -> None:
    values: list[Any] = [
        {1: "a", 2: "b"},
        {"a": _Colour.RED},
        [True, 1, 1.0],
        {"k": {}},
        {_Str("k"): [_Str("v"), {1: 2}], "n": [True, 1, 1.0]},
    ]
    written = [_both(value, layout) for value in values]
    assert [ours for ours, _ in written] == [theirs for _, theirs in written]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("value", [{(1, 2): 1}, {"a": {1, 2}}, [object()], {"a": b"x"}])
def test_what_json_dumps_refuses_raises_its_own_error(
    value: Any, layout: tuple[int, bool, bool]
) -> None:
    with pytest.raises(TypeError) as ours:
        _both(value, layout)
    with pytest.raises(TypeError) as theirs:
        json.dumps(value, indent=layout[0], sort_keys=layout[1], ensure_ascii=layout[2])
    assert str(ours.value) == str(theirs.value)


def test_a_cycle_raises_as_json_dumps_does() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular"):
        indented_json(cycle, indent=1, sort_keys=True)
    with pytest.raises(TypeError):
        indented_json({1: "a", "b": 2}, indent=1, sort_keys=True)  # keys that do not sort
