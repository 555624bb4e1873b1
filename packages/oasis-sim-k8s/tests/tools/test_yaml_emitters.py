"""``-o yaml`` through libyaml is byte-identical to the pure-Python emitter it replaces
(issue 31): over every object of every SI environment (in the heavy tier; one of those that
differ only in generated identifiers), lists of them, and odd strings; documents libyaml
could lay out otherwise fall back to the Python emitter."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
import yaml

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.tools import k8s_format as fmt
from oasis_sim_k8s.tools.k8s_format import as_list, for_output, to_yaml, to_yaml_python
from tests.sim_k8s.support import provision, scenario_ids

needs_libyaml = pytest.mark.skipif(fmt._CDumper is None, reason="PyYAML built without libyaml")

ODD = [
    "",
    " ",
    "  lead",
    "trail ",
    "a: b",
    "a:b",
    ":",
    "- x",
    "-",
    "#x",
    "a #b",
    "a#b",
    "multi\nline",
    "multi\nline\n",
    "multi\nline\n\n",
    "\nlead break",
    "  indented\nblock",
    "tab\there",
    "cr\r\nlf",
    "trailing space \nline",
    "yes",
    "no",
    "on",
    "off",
    "true",
    "False",
    "null",
    "~",
    "y",
    "n",
    "0",
    "007",
    "1.5",
    "1e3",
    "0x1F",
    ".inf",
    "-.nan",
    "12:30",
    "2024-05-14",
    "2024-05-14T09:30:00Z",
    "100m",
    "512Mi",
    "nginx:1.25",
    "ünïcödé",
    "日本語",
    "emoji 🚀",
    "bom\ufeff",
    "nel\x85x",
    "ls\u2028x",
    "bell\x07",
    "esc\x1b[0m",
    "'single'",
    '"double"',
    "back\\slash",
    "{flow}",
    "[list]",
    "*alias",
    "&anchor",
    "!tag",
    "%percent",
    "@at",
    "`tick",
    "|pipe",
    ">fold",
    "?q",
    "a,b",
    "k" * 99,
    "k" * 127,
    "k" * 128,
    "ü" * 64,
    "word " * 2100,
    "x" * 10_050,
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a b"}}',
]


def _docs(s: str) -> list[Any]:
    return [{"k": s}, {s: "v"}, [s], {"a": {"b": [s, {"c": s}]}}, {s: {s: [s]}}]


def _c_dump(doc: Any) -> str | None:
    """The libyaml layout, or None when the dumper hands the document back to Python."""
    assert fmt._CDumper is not None
    try:
        return yaml.dump(doc, Dumper=fmt._CDumper, **fmt._DUMP_ARGS)
    except fmt._NeedsPython:
        return None


_UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _ids_blanked(value: Any, key: str = "") -> Any:
    """``value`` with its generated identifiers (uids, RFC 3339 stamps, resourceVersions)
    made one: strings of one fixed shape each, which the emitters lay out alike."""
    if isinstance(value, dict):
        return {k: _ids_blanked(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_ids_blanked(v) for v in value]
    if isinstance(value, str):
        if key == "resourceVersion":
            return "9" * len(value)
        return _STAMP.sub("2000-01-01T00:00:00Z", _UID.sub("u" * 36, value))
    return value


def _si_objects(stride: int, blank_ids: bool = False) -> list[dict[str, Any]]:
    """Every distinct object of every ``stride``-th SI environment, and each environment's
    objects as one ``List`` for the first few (a list's items are laid out as the objects are).
    ``blank_ids``: of objects that differ only in generated identifiers, the first (about half
    of every SI object: pods, services and the rest provisioned alike in each environment)."""
    provider = SimK8sProvider(seeded_ids=True)
    seen: dict[str, dict[str, Any]] = {}
    for n, sid in enumerate(scenario_ids("si")[::stride]):
        _, env = provision(provider, "si", sid)
        objs = [obj for _, obj in env.store.items()]
        for doc in objs + ([as_list(objs)] if n < 5 else []):
            key = _ids_blanked(doc) if blank_ids else doc
            seen.setdefault(json.dumps(key, sort_keys=True), doc)
    return [seen[k] for k in sorted(seen)]


def _check_si(stride: int, at_least: int, blank_ids: bool = False) -> None:
    if not scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    docs = _si_objects(stride, blank_ids)
    fell_back = 0
    for doc in docs:
        c = _c_dump(for_output(doc))
        if c is None:
            fell_back += 1
        else:
            assert c == to_yaml_python(doc)
    # the fast path is really the one taken, not a fallback that makes the comparison void
    assert len(docs) > at_least and fell_back < len(docs) // 50, (len(docs), fell_back)


@needs_libyaml
def test_a_sample_of_si_objects_dumps_byte_identically_through_libyaml() -> None:
    _check_si(stride=12, at_least=300)


@pytest.mark.heavy
@needs_libyaml
@pytest.mark.timeout(600)
def test_every_si_object_and_list_dumps_byte_identically_through_libyaml() -> None:
    _check_si(stride=1, at_least=2600, blank_ids=True)  # 5,140 objects, 2,649 once blanked


@needs_libyaml
@pytest.mark.parametrize("s", ODD, ids=range(len(ODD)))
def test_odd_strings_dump_byte_identically(s: str) -> None:
    for doc in _docs(s):
        c = _c_dump(doc)
        py = to_yaml_python(doc)
        assert c is None or c == py
        assert to_yaml(doc) == py
        assert yaml.safe_load(py) == doc


@needs_libyaml
def test_random_strings_dump_byte_identically() -> None:
    """Seeded strings over the characters YAML treats specially, in every position."""
    alphabet = list(" \n:#-?,[]{}&*!|>'\"%@`\\yesnoYN0123.eE+~ü日🚀\t\x85\u2028\ufeff")
    rng = random.Random(31)
    taken = 0
    for _ in range(1500):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        for doc in _docs(s):
            c = _c_dump(doc)
            py = to_yaml_python(doc)
            if c is not None:
                taken += 1
                assert c == py, repr(s)
            assert to_yaml(doc) == py
    assert taken > 2500


def test_the_python_emitter_is_the_fallback_without_libyaml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fmt, "_CDumper", None)
    doc = {"metadata": {"name": "web", "labels": {"app": "yes"}}, "data": {"x": "a\nb\n"}}
    assert to_yaml(doc) == to_yaml_python(doc)
    assert (
        to_yaml(doc)
        == 'data:\n  x: |\n    a\n    b\nmetadata:\n  labels:\n    app: "yes"\n  name: web\n'
    )
