"""Capture-time redaction (08 §3.2): the fast paths give exactly what a plain walk gives."""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from oasis_eval.engine.redaction import Redactor

KEY = b"k" * 32


def reference(redactor: Redactor, value: Any) -> Any:
    """The plain definition: every str (keys included) of every dict and list, each form
    replaced longest first, one after the other; anything else as it is."""
    if isinstance(value, str):
        for form in sorted(redactor.forms, key=lambda f: (-len(f), f)):
            if form in value:
                value = value.replace(form, redactor.forms[form])
        return value
    if isinstance(value, dict):
        return {reference(redactor, k) if isinstance(k, str) else k: reference(redactor, v) for k, v in value.items()}
    if isinstance(value, list):
        return [reference(redactor, v) for v in value]
    return value


def _redactor(*literals: str) -> Redactor:
    redactor = Redactor(key=KEY)
    for literal in literals:
        redactor.register(literal)
    return redactor


WORDS = ["admin", "cluster-admin", "super-secret-password", "c3VwZXItc2VjcmV0LXBhc3N3b3Jk", "YWRtaW4=",
         "name", "metadata", "naïve-ünïcode", "line\nbreak", 'quo"te', "back\\slash", "s3cr3t", "x"]


def _random_data(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.35:
        choice = rng.randrange(6)
        if choice == 0:
            return rng.randrange(-5, 10**6)
        if choice == 1:
            return None if rng.random() < 0.5 else rng.random() < 0.5
        if choice == 2:
            return rng.random()
        return "".join(rng.choice(WORDS) + rng.choice(["", " ", "-", "/"]) for _ in range(rng.randrange(1, 4)))
    if roll < 0.65:
        return {rng.choice(WORDS) + str(rng.randrange(3)): _random_data(rng, depth + 1) for _ in range(rng.randrange(0, 6))}
    if roll < 0.95:
        return [_random_data(rng, depth + 1) for _ in range(rng.randrange(0, 8 if depth else 90))]
    return (rng.choice(WORDS), [rng.choice(WORDS)])  # tuples are left as they are


def test_data_equals_the_plain_walk_on_random_json_like_data() -> None:
    rng = random.Random(7)
    redactor = _redactor("admin", "super-secret-password", "s3cr3t")
    for _ in range(300):
        value = _random_data(rng)
        assert redactor.data(value) == reference(redactor, value)


def test_forms_apply_longest_first_then_shorter_ones_see_the_markers() -> None:
    redactor = _redactor("ABCDEFGH", "xABCD")
    marker_long = redactor.forms["ABCDEFGH"]
    # sequential semantics: the longer form is replaced first, the shorter one no longer matches
    assert redactor.text("xABCDEFGH") == "x" + marker_long
    assert redactor.data({"k": ["xABCDEFGH"]}) == {"k": ["x" + marker_long]}


def test_keys_and_deep_values_are_redacted_and_clean_parts_are_kept() -> None:
    redactor = _redactor("s3cr3t-value")
    marker = redactor.forms["s3cr3t-value"]
    clean = {"spec": {"replicas": 3, "labels": {"app": "web"}}}
    value = [clean, {"data": {"s3cr3t-value": "x", "v": ["a", "is s3cr3t-value"]}}]
    out = redactor.data(value)
    assert out == [clean, {"data": {marker: "x", "v": ["a", f"is {marker}"]}}]
    assert out[0] is clean  # holds no form: not copied
    assert value[1]["data"] == {"s3cr3t-value": "x", "v": ["a", "is s3cr3t-value"]}  # input untouched


def test_data_that_is_not_plain_json_is_walked_as_before() -> None:
    class Tagged(str):
        pass

    redactor = _redactor("s3cr3t-value")
    marker = redactor.forms["s3cr3t-value"]
    odd = {"a": OrderedDict(b="s3cr3t-value"), Tagged("s3cr3t-value"): 1, "c": {1: "s3cr3t-value"}}
    out = redactor.data(odd)
    assert out == reference(redactor, odd) == {"a": {"b": marker}, marker: 1, "c": {1: marker}}
    assert type(out["a"]) is dict


def test_no_forms_means_no_change() -> None:
    value = {"a": ["b", {"c": "admin"}]}
    assert Redactor(key=KEY).data(value) == value
    assert Redactor(key=KEY).text("admin") == "admin"


def test_forms_given_at_construction_are_used() -> None:
    redactor = Redactor(key=KEY, forms={"s3cr3t-value": "[REDACTED:x]"})
    assert redactor.data(["a s3cr3t-value"]) == ["a [REDACTED:x]"]
