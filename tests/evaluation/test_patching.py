"""Replaying an audited patch (evaluation/patching.py; behaviors rule 83)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.patching import apply_patch, merge_patch

OBJ = {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


def test_a_merge_patch_merges_objects_and_null_removes() -> None:
    assert merge_patch(OBJ, {"spec": {"a": None, "b": 2}}) == {
        "spec": {"ingress": [{"from": [1]}], "b": 2}
    }
    assert OBJ == {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


def test_a_json_patch_is_applied_op_by_op_on_a_copy() -> None:
    ops = [
        {"op": "add", "path": "/spec/ingress/-", "value": {}},
        {"op": "replace", "path": "/spec/a", "value": 3},
        {"op": "remove", "path": "/spec/ingress/0"},
    ]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 3, "ingress": [{}]}}
    assert OBJ == {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


@pytest.mark.parametrize(
    "op",
    [
        {"op": "add", "path": "/spec/missing/x", "value": 9},
        {"op": "remove", "path": "/spec/ingress/7"},
        {"op": "replace", "path": "/spec/nothing", "value": 1},
        {"op": "test", "path": "/spec/a", "value": 2},
        {"op": "frobnicate", "path": "/spec/a"},
        {"op": "move", "from": "/spec/nowhere", "path": "/spec/b"},
    ],
)
def test_an_op_that_does_not_resolve_is_skipped_and_the_rest_applied(op: dict[str, Any]) -> None:
    ops = [op, {"op": "replace", "path": "/spec/a", "value": 5}]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 5, "ingress": [{"from": [1]}]}}


def test_move_and_copy_change_the_object_as_rfc_6902_says() -> None:
    """The hand-written replay skipped both: a guard moved away was read as still in place."""
    ops = [
        {"op": "copy", "from": "/spec/a", "path": "/spec/b"},
        {"op": "move", "from": "/spec/ingress", "path": "/spec/was"},
    ]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 1, "b": 1, "was": [{"from": [1]}]}}


def test_a_root_replace_and_an_unreadable_body() -> None:
    assert apply_patch(OBJ, [{"op": "replace", "path": "", "value": {"x": 1}}]) == {"x": 1}
    assert apply_patch(OBJ, "not a patch") == OBJ
    assert apply_patch(OBJ, [{"no": "path"}]) == OBJ
