"""``bodies.arguments_text``: a call's arguments as ``json.dumps(..., sort_keys=True,
default=str)`` writes them, once per call within a judgement (issue 30, s26-perf44p)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors._output import command_forms
from oasis_eval.evaluation.bodies import arguments_text
from oasis_eval.evaluation.reading import judgement_memo

_ARGS = (
    {},
    {"command": "get pods -n default -o json"},
    {"b": [1, 2.5, None, True], "a": {"z": "é", "y": ["\n", "\u2028"]}, "n": float("inf")},
    {"when": __import__("datetime").date(2024, 5, 14), "ns": "x"},
)


def test_the_text_is_json_dumps_sorted_with_str_default() -> None:
    for args in _ARGS:
        call = SimpleNamespace(tool="kubectl", arguments=args)
        assert arguments_text(call) == json.dumps(args, sort_keys=True, default=str)
    assert arguments_text(SimpleNamespace(tool="t")) == "{}"
    assert arguments_text(SimpleNamespace(tool="t", arguments=None)) == "{}"


def test_once_per_call_within_a_judgement() -> None:
    call = ToolCall(id="c1", tool="kubectl", arguments={"command": "get pods"})
    memo: dict[object, object] = {}
    with judgement_memo(memo):
        first = arguments_text(call)
        assert arguments_text(call) is first
        assert len(memo) == 1
        forms = command_forms([call])
    assert forms == command_forms([call])  # outside a judgement: computed, the same
    assert {"kubectl", "get", "pods", "command"} <= forms.held
