"""``profile.json`` is written by ``indented_json.indented`` (issue 30, session 22): the text
of ``json.dumps(value, indent=1, sort_keys=True)``, byte for byte, for a profile's dump and
for random JSON-like data, odd values and non-JSON values included."""

from __future__ import annotations

import enum
import json
import math
import random
from typing import Any

import pytest

from oasis_eval.engine.indented_json import indented
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.rundir import redacted_profile


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True)


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


def _random_key(rng: random.Random) -> str:
    return "".join(rng.choice('abZ_ \u00e9\\"') for _ in range(rng.randrange(4)))


def test_a_profiles_dump_is_written_as_json_dumps_writes_it(si_profile: Any) -> None:
    dumped = redacted_profile(si_profile, Redactor())
    assert indented(dumped) == _dumps(dumped)


@pytest.mark.parametrize("seed", range(3))
def test_random_json_data_is_written_as_json_dumps_writes_it(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        value = _random(rng)
        assert indented(value) == _dumps(value)


class _Colour(str, enum.Enum):
    RED = "red"


def test_what_is_not_plain_json_data_is_left_to_json_dumps() -> None:
    values: list[Any] = [{1: "a", 2: "b"}, {"a": _Colour.RED}, [True, 1, 1.0], {"k": {}}]
    for value in values:
        assert indented(value) == _dumps(value)
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular"):
        indented(cycle)
    with pytest.raises(TypeError):
        indented({"a": object()})
    with pytest.raises(TypeError):
        indented({1: "a", "b": 2})  # keys that do not sort
