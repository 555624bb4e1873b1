"""``-o yaml`` / ``-o json`` texts kept by the document's exact value (tools/kept_text.py,
issue 30, session 34) are the texts made afresh, byte for byte: for random documents, for
values that compare equal but print apart (``1``, ``1.0``, ``True``; ``0.0``, ``-0.0``), for
subclasses and shared containers, and whatever was kept before."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from oasis_sim_k8s.tools import k8s_format as fmt
from oasis_sim_k8s.tools import kept_text
from oasis_sim_k8s.tools.k8s_format import output_object, to_json, to_yaml, to_yaml_python

WORDS = ["a", "b: c", "", "yes", "1.5", "007", "multi\nline", "ünï", "- x", "#x", "null", "~"]


def _doc(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(10 if depth < 4 else 6)
    if pick == 0:
        return rng.choice(WORDS)
    if pick == 1:
        return rng.choice([0, 1, -3, 10**20])
    if pick == 2:
        return rng.choice([0.0, -0.0, 1.0, 1.5, 1e300, float("inf")])
    if pick == 3:
        return rng.choice([True, False])
    if pick == 4:
        return None
    if pick == 5:
        return rng.choice(WORDS) + str(rng.randrange(100))
    if pick in (6, 7):
        return [_doc(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(WORDS) + str(k): _doc(rng, depth + 1) for k in range(rng.randrange(5))}


def _fresh(kind: str, doc: Any) -> str:
    """The text made afresh, as ``output_object`` makes it."""
    doc = fmt.for_output(doc)
    return fmt._yaml_text(doc) if kind == "yaml" else fmt._json_text(doc)


def _kept(kind: str, doc: Any) -> str:
    emit = fmt._yaml_text if kind == "yaml" else fmt._json_text
    return kept_text.kept(kind, doc, fmt.for_output, emit)


@pytest.fixture(autouse=True)
def _clear() -> Any:
    kept_text.clear()
    yield
    kept_text.clear()


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_random_documents_same_bytes_kept_or_not(kind: str) -> None:
    rng, hits = random.Random(34), kept_text.STATS["hits"]
    docs = [{"metadata": {"name": f"x{i % 40}"}, "spec": _doc(rng)} for i in range(1500)]
    for doc in docs + docs:  # the second round is served from the kept texts
        want = _fresh(kind, doc)
        assert _kept(kind, doc) == want
    assert kept_text.STATS["hits"] - hits >= len(docs)


@pytest.mark.parametrize(
    "values", [[1, 1.0, True], [0, False, 0.0, -0.0, None, ""], ["1", 1], [[], {}], ["a", ["a"]]]
)
@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_equal_values_printed_apart_are_kept_apart(kind: str, values: list[Any]) -> None:
    for _ in range(2):
        for v in values:
            doc = {"spec": {"replicas": v}}
            assert _kept(kind, doc) == _fresh(kind, doc)


def test_subclasses_are_never_kept() -> None:
    class Text(str):
        pass

    class Map(dict):  # type: ignore[type-arg]
        pass

    def outcome(emit: Any, doc: Any) -> Any:
        try:
            return emit(doc)
        except Exception as exc:  # noqa: BLE001 - the same refusal either way
            return type(exc)

    hits = kept_text.STATS["hits"]
    for doc in ({"a": Text("b")}, Map(a="b"), {"a": [Map(b=1)]}) * 2:
        for emit in (fmt._yaml_text, fmt._json_text):
            kind = "yaml" if emit is fmt._yaml_text else "json"
            got = outcome(lambda d, k=kind, e=emit: kept_text.kept(k, d, fmt.for_output, e), doc)
            assert got == outcome(lambda d, e=emit: e(fmt.for_output(d)), doc)
    assert kept_text.STATS["hits"] == hits and not kept_text._KEPT


def test_a_tuple_is_kept_for_json_only() -> None:
    """``marshal`` writes a tuple apart from a list; ``-o yaml`` keeps only plain trees."""
    for _ in range(2):
        doc = {"a": (1, 2)}
        assert kept_text.kept("yaml", doc, fmt.for_output, to_yaml_python) == to_yaml_python(doc)
        assert _kept("json", doc) == fmt._json_text({"a": [1, 2]})
    assert [key[0] for key in kept_text._KEPT] == ["json"]


def test_a_shared_container_is_not_kept_for_yaml() -> None:
    """An alias (a container met twice) prints as ``&id001``: a text laid out from such a
    document is never kept, so an equal tree of distinct containers is laid out afresh; a
    source sharing containers is copied by ``for_output``, so its text has no alias."""
    shared = {"k": "v"}
    aliased = {"a": shared, "b": shared}
    distinct = {"a": {"k": "v"}, "b": {"k": "v"}}
    same = lambda d: d  # noqa: E731 - a build that copies nothing
    assert "&id001" in kept_text.kept("yaml", aliased, same, fmt._yaml_text)
    assert kept_text.kept("yaml", distinct, same, fmt._yaml_text) == fmt._yaml_text(distinct)
    assert "&" not in _kept("yaml", aliased) and _kept("yaml", aliased) == _fresh("yaml", distinct)
    assert not kept_text.plain(aliased) and kept_text.plain(distinct)


def test_output_object_and_to_yaml_kept_the_same() -> None:
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "labels": {}, "managedFields": [{"x": 1}], "namespace": "d"},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}]},
        "status": {"phase": "Running"},
    }
    hits = kept_text.STATS["hits"]
    for _ in range(3):
        assert output_object(pod, "yaml") == to_yaml_python(pod)
        assert output_object([pod, pod], "yaml") == to_yaml_python(fmt.as_list([pod, pod]))
        assert to_yaml(pod) == to_yaml_python(pod)
        assert output_object(pod, "json") == to_json(pod)
        assert json.loads(to_json(pod))["metadata"] == {"name": "p", "namespace": "d"}
    assert kept_text.STATS["hits"] > hits


def test_budget_drops_least_recently_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_text, "BUDGET", 4000)
    docs = [{"n": i, "pad": "x" * 500} for i in range(20)]
    for doc in docs:
        _kept("json", doc)
    assert kept_text._SIZE[0] <= 4000
    assert len(kept_text._KEPT) < len(docs)
    assert _kept("json", docs[0]) == _fresh("json", docs[0])
