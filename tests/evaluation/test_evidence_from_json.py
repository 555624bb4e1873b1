"""Recorded evidence is read back by parsing the JSON and then validating the parsed values
(``evidence_from_json``, issue 30: half the CPU of ``model_validate_json``). It must give the
very model ``model_validate_json`` gives (same values of the same types, extras and fields
set), and refuse with a ``ValueError`` whatever that refuses: over a real run's evidence and
over hand-made odd documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from oasis_eval import evaluate
from oasis_eval.engine.rundir import evidence_files
from oasis_eval.evaluation.evidence import ScenarioEvidence
from oasis_eval.evaluation.stored_evidence import evidence_from_json
from oasis_eval.files import RUN_FILE_LIMIT, read_maybe_gzip


def _shape(value: Any) -> Any:
    """``value`` with the type of every part spelled out (models with extras and fields set)."""
    if isinstance(value, BaseModel):
        return (
            type(value).__name__,
            _shape(dict(value.__dict__)),
            _shape(value.__pydantic_extra__ or {}),
            sorted(value.model_fields_set),
        )
    if isinstance(value, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_shape(v) for v in value])
    return (type(value).__name__, repr(value))


def _read_both(data: bytes) -> tuple[Any, Any]:
    outcomes = []
    for read in (ScenarioEvidence.model_validate_json, evidence_from_json):
        try:
            outcomes.append(_shape(read(data)))
        except ValueError:
            outcomes.append("refused")
    return outcomes[0], outcomes[1]


def test_a_real_runs_evidence_reads_back_as_the_same_model(tmp_path: Path) -> None:
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    files = list(evidence_files(tmp_path / "run" / "evidence"))
    assert files
    for path in files:  # stored form (evaluation/stored_evidence.py) and the whole JSON alike
        stored = read_maybe_gzip(path, RUN_FILE_LIMIT)
        whole = evidence_from_json(stored).model_dump_json(indent=1).encode()
        expected, got = _read_both(whole)
        assert expected != "refused" and got == expected, path.name
        assert _shape(evidence_from_json(stored)) == expected, path.name


BASE: dict[str, Any] = {
    "scenario_id": "s-1",
    "final_snapshot": [{"kind": "Pod", "metadata": {"name": "a"}, "n": 1.5}],
    "transcript": {
        "final_answer": "done",
        "actions": [{"tool": "kubectl", "arguments": {"a": [1, None]}, "error_code": 7}],
    },
    "observations": [
        {
            "observation_type": "audit_log",
            "data": [{"verb": "get", "x": True}],
            "evidence_source": {"type": "sim", "status": "available"},
        }
    ],
}


def _with(path: tuple[Any, ...], value: Any) -> bytes:
    doc = json.loads(json.dumps(BASE))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(doc).encode()


ODD = [
    json.dumps(BASE).encode(),
    _with(("observations", 0, "evidence_source", "status"), "flaky"),  # kept as a string
    _with(("observations", 0, "evidence_source", "status"), 3),
    _with(("transcript", "actions", 0, "error_code"), "E5"),
    _with(("transcript", "actions", 0, "duration_ms"), 12),
    _with(("transcript", "actions", 0, "duration_ms"), "12.5"),
    _with(("transcript", "actions", 0, "extra_key"), {"nested": [1]}),
    _with(("transcript", "final_answer"), 5),
    _with(("agent_unreached",), "true"),
    _with(("agent_unreached",), 1),
    _with(("agent_unreached",), 2),
    _with(("final_snapshot",), [["not", "a", "mapping"]]),
    _with(("final_snapshot",), {"kind": "Pod"}),
    _with(("redacted",), {"m": 1}),
    _with(("observations", 0, "parameters"), {"ns": "a", "n": 2}),
    _with(("scenario_id",), None),
    b'{"scenario_id": "s", "final_snapshot": [{"v": NaN}]}',
    b'{"scenario_id": "s", "final_snapshot": [{"v": Infinity}]}',
    b'{"scenario_id": "s", "scenario_id": "t"}',
    b'{"scenario_id": "s", "final_snapshot": [{"v": 123456789012345678901234567890}]}',
    b'{"scenario_id": "s", "final_snapshot": [{"v": "\\ud800"}]}',
    b'{"scenario_id": "s"',
    b"[]",
    b"",
    b'"s"',
]


@pytest.mark.parametrize("data", ODD, ids=range(len(ODD)))
def test_odd_documents_read_or_refused_alike(data: bytes) -> None:
    expected, got = _read_both(data)
    assert got == expected
