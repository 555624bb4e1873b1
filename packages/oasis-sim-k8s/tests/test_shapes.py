"""The request-body shape check (:mod:`oasis_sim_k8s.cluster.shapes`): the field a decoder would
refuse, named by its whole path as the Kubernetes API server names it."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from oasis_sim_k8s.cluster import shapes
from oasis_sim_k8s.cluster.shapes import check


def _deployment(containers: list[object]) -> dict[str, object]:
    return {
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": containers},
            },
        },
    }


def test_a_mistyped_field_deep_in_lists_is_named_by_its_whole_path() -> None:
    bad = _deployment(
        [
            {"name": "a", "image": "nginx"},
            {"name": "b", "image": "nginx", "command": ["sh", "-c", 5]},
        ]
    )
    failure = check("deployments", bad, "Deployment")
    assert failure is not None and failure[:2] == (400, "BadRequest")
    assert failure[2] == (
        "json: cannot unmarshal number into Go struct field "
        "spec.template.spec.containers[1].command[2] of type string"
    )


def test_a_mistyped_top_level_field_and_a_well_typed_body() -> None:
    assert check("deployments", {**_deployment([]), "kind": 7}, "Deployment") == (
        400,
        "BadRequest",
        "json: cannot unmarshal number into Go struct field kind of type string",
    )
    assert check("deployments", _deployment([{"name": "a", "image": "nginx"}])) is None


def _sample(schema: Any) -> Any:
    """A value of ``schema``'s shape with every field present."""
    if schema is str:
        return "s"
    if schema is int:
        return 1
    if schema == shapes.STR_MAP:
        return {"a": "b"}
    if isinstance(schema, list):
        return [{}] if schema[0] is dict else [_sample(schema[0]), _sample(schema[0])]
    if schema is dict:
        return {"any": [1]}
    return {key: _sample(inner) for key, inner in schema.items()}


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict | list):
        for key, inner in value.items() if isinstance(value, dict) else enumerate(value):
            yield from _paths(inner, (*at, key))


def _with(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    cur = out
    for step in path[:-1]:
        cur = cur[step]
    cur[path[-1]] = new
    return out


WRONG = (7, 1.5, True, None, "s", [], [7], {}, {"a": 7}, {"a": "b"}, ["s"], [{}])


def test_the_quick_fit_agrees_with_the_walk_on_every_field_of_every_schema() -> None:
    """A body fits exactly when the walk that names a mistyped field finds none: every field
    of every schema, each with every JSON type in its place."""
    for plural in (*shapes.SCHEMAS, "namespaces"):
        schema = shapes._schema(plural)
        fits = shapes._fits(schema)
        body = _sample(schema)
        for path in _paths(body):
            for new in WRONG:
                value = _with(body, path, new)
                assert fits(value) == (shapes._find(value, schema) is None), (plural, path, new)


def test_a_body_that_fits_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    def walked(*args: Any) -> None:
        raise AssertionError("a fitting body was walked")

    monkeypatch.setattr(shapes, "_walk", walked)
    assert check("deployments", _deployment([{"name": "a", "image": "nginx"}])) is None
