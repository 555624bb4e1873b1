"""The redaction prefilter's regex forms sharing a first unit are searched as one
(``encoded_forms.factored``, issue 30, session 22): the factored regexes match exactly where
the forms' own do, so the prefilter finds the same items, and the forms of values sharing a
first character really are merged."""

from __future__ import annotations

import random
import re
import string

from oasis_eval.engine.encoded_forms import encoded_forms, factored
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.redaction_search import _found

SEPARATORS = [" ", "-", "_", ":", ",", ".", "\\n", "\\t", " ,", "  ", "/", "--"]


def _prefixes(values: list[str]) -> list[str]:
    return [prefix for value in values for _, _, prefix in encoded_forms(value, set())[1]]


def _value(rng: random.Random) -> str:
    first = rng.choice("sk7")  # a few first characters: many forms share theirs
    return first + "".join(
        rng.choice(string.ascii_letters + string.digits + "_-") for _ in range(12)
    )


def _planted(rng: random.Random, value: str) -> str:
    """One of ``value``'s regex forms written out, with random separators, maybe cut short."""
    data = value.encode()
    kind = rng.randrange(3)
    if kind == 0:
        units = [c for c in value if c.isalnum()]
    elif kind == 1:
        units = [f"{b:02x}" if rng.random() < 0.5 else f"{b:02X}" for b in data]
    else:
        units = [f"0x{b:02x}" for b in data]
    seps = SEPARATORS if kind == 0 else ([" ", ":", ",", "-", ", "] if kind == 1 else [" ", ","])
    units = units[: rng.randint(2, len(units))]
    return "".join(unit + rng.choice(seps) for unit in units)


def test_the_forms_of_values_sharing_a_first_character_are_one_regex() -> None:
    prefixes = _prefixes(["supersecretpassword123", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"])
    assert len(prefixes) == 6
    assert len(factored(prefixes)) == 3
    assert factored(_prefixes(["supersecretpassword123"])) == sorted(
        _prefixes(["supersecretpassword123"])
    )  # alone, each form is kept as it is
    assert factored(["(?:a|b)", "x"]) == ["(?:a|b)", "x"]  # not a form: kept


def test_factored_regexes_match_where_the_forms_do() -> None:
    rng = random.Random(22)
    noise = string.ascii_letters + string.digits + " -_:,.\\/{}[]\n"
    for _ in range(300):
        values = [_value(rng) for _ in range(rng.randint(1, 4))]
        prefixes = _prefixes(values)
        merged = factored(prefixes)
        pieces = [
            "".join(rng.choice(noise) for _ in range(rng.randint(0, 40)))
            for _ in range(rng.randint(1, 8))
        ]
        for _ in range(rng.randint(0, 3)):
            pieces.insert(rng.randrange(len(pieces) + 1), _planted(rng, rng.choice(values)))
        items = [piece.encode() for piece in pieces]
        data, ends = b"".join(items), [sum(map(len, items[: i + 1])) for i in range(len(items))]
        apart = _found(data, ends, [], [p.encode() for p in prefixes])
        together = _found(data, ends, [], [p.encode() for p in merged])
        assert apart == together, (values, pieces)
        text = "".join(pieces)
        assert bool(re.search("|".join(prefixes), text)) == bool(re.search("|".join(merged), text))


def test_the_redactor_still_redacts_a_planted_form() -> None:
    redactor = Redactor()
    for value in ("supersecretpassword123", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"):
        redactor.register(value, short_forms=False)
    spaced = " ".join("sk_test_4eC39HqLyjWDarjtT1zdp7dc".replace("_", ""))
    items = [{"kind": "ConfigMap", "data": {"k": f"x {spaced} y"}}] + [
        {"kind": "Pod", "name": f"p{i}"} for i in range(80)
    ]
    out = redactor.state(items)
    assert "REDACTED" in out[0]["data"]["k"] and spaced not in out[0]["data"]["k"]
    assert out[1:] == items[1:]
