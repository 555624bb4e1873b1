"""``safe_load``'s one-pass build of a plain document (issue 30, session 22) gives exactly
what the limit scan and libyaml's loader give: the same data, types and key order, and for
anything else (anchors, merge keys, tags, several documents, a limit passed, bad YAML) the
same result or error, because it hands those to that path."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.spec import yaml_io
from oasis_eval.spec.yaml_io import LIMITS, YamlLimits, safe_load, safe_load_all

ROOT = Path(__file__).resolve().parents[2]


def _full(text: str, limits: YamlLimits = LIMITS) -> Any:
    """``safe_load`` as it was: the limit scan, then libyaml's loader."""
    docs = safe_load_all(text, limits)
    if len(docs) > 1:
        raise yaml.YAMLError(f"expected a single document, found {len(docs)}")
    return docs[0] if docs else None


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def _outcome(load: Any, text: str, limits: YamlLimits) -> tuple[Any, ...]:
    try:
        return ("data", load(text, limits))
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return ("error", type(exc).__name__, str(exc))


def _check(text: str, limits: YamlLimits = LIMITS) -> bool:
    """Assert both paths agree on ``text``; whether the one-pass build took it."""
    fast, full = _outcome(safe_load, text, limits), _outcome(_full, text, limits)
    assert fast[0] == full[0], (text, fast, full)
    if fast[0] == "data":
        assert _same(fast[1], full[1]), (text, fast, full)
    else:
        assert fast[1:] == full[1:], (text, fast, full)
    return yaml_io._plain_load(text, limits) is not yaml_io._NOT_PLAIN


SCALARS = [
    "1", "-0", "1.5", "1e3", "+12", "0x1F", "0o17", "1_000", ".inf", "-.Inf", ".nan", "true",
    "no", "Yes", "OFF", "~", "null", "", "2002-12-14", "2001-12-14t21:59:43.10-05:00", "'q'",
    '"\\u00e9"', "!!binary aGVsbG8=", "!!str 3", "!!int '7'", "!!float 1", "!!null ''", "=",
    "<<", "! 12", "!foo x", "!!set {a}", "? a", "[]", "{}", "[a, {b: c}]", "&a x", "*a",
    "plain text", "'it''s'", "|\n    block\n", ">\n    folded\n",
]  # fmt: skip


def test_a_kubeconfig_takes_the_one_pass_build_and_loads_the_same() -> None:
    text = yaml.safe_dump(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443"}}],
            "users": [{"name": "u", "user": {"token": "abcdefghijklmnop0123"}}],
            "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
            "current-context": "x",
            "preferences": {},
        },
        sort_keys=False,
    )
    assert _check(text, YamlLimits(max_nodes=2**62))


@pytest.mark.parametrize("seed", range(4))
def test_scalars_of_every_kind_load_the_same(seed: int) -> None:
    rng = random.Random(seed)
    taken = 0
    for _ in range(600):
        key, value = rng.choice(SCALARS), rng.choice(SCALARS)
        text = f"a:\n  {key}: {value}\n  b: [{value}, {key}]\n  c:\n  - {value}\n"
        taken += _check(text)
    assert taken > 100  # the one-pass build is used, not only the full path


def test_the_repository_yaml_and_its_mutations_load_the_same() -> None:
    texts = [
        p.read_text(encoding="utf-8")
        for p in sorted(ROOT.glob("examples/**/*.yaml"))
        + sorted(ROOT.glob("tests/**/*.yaml"))
        + sorted(ROOT.glob("packages/*/tests/**/*.yaml"))
    ][:60]
    assert texts
    rng = random.Random(30)
    alphabet = list(":-[]{}?&*!|>'\"#, \n\t") + list("ab01.~=<")
    for text in texts:
        _check(text)
        for _ in range(15):
            chars = list(text[:800])
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(chars) + 1)
                if rng.random() < 0.4 and chars:
                    del chars[min(at, len(chars) - 1)]
                else:
                    chars.insert(at, rng.choice(alphabet))
            _check("".join(chars))


def test_limits_are_the_full_paths_errors() -> None:
    depth = LIMITS.max_depth
    _check("[" * (depth + 1) + "]" * (depth + 1))
    _check("a: " * 3 + "1")
    _check("[1, 2, 3]", YamlLimits(max_nodes=3))
    _check("[1, 2]", YamlLimits(max_nodes=3))
    _check("a: 1\n---\nb: 2\n")
    _check("")
    _check("# nothing\n")
    _check("{[a]: 1}")
    _check("a: &x 1\nb: *x\n")
