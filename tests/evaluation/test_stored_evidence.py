"""The stored form of evidence (evaluation/stored_evidence.py, issue 30): the final snapshot as
runs of the precondition snapshot, each audited body once. It must read back as the very
evidence stored (values, types, key order), write whole what is not the same JSON value, and
refuse a stored form that does not hold together."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.evaluation.evidence import ScenarioEvidence
from oasis_eval.evaluation.stored_evidence import evidence_from_json, stored_json


def _resource(name: str, **state: Any) -> dict[str, Any]:
    return {"kind": "Deployment", "name": name, "namespace": "shop", "state": state}


def _entry(body: Any, raw_body: Any) -> dict[str, Any]:
    return {"verb": "create", "request_body": body, "raw": {"requestObject": raw_body}}


def _evidence(final: list[Any], entries: list[Any] | None = None) -> ScenarioEvidence:
    pre = [_resource(n, replicas=1) for n in ("a", "b", "c", "d")]
    audit = {"agent_principal": "agent", "entries": entries or []}
    return ScenarioEvidence.model_validate(
        {
            "scenario_id": "s-1",
            "precondition_snapshot": pre,
            "final_snapshot": final,
            "observations": [
                {"observation_type": "resource_state", "data": {"entries": [_entry(1, 1)]},
                 "evidence_source": {"type": "sim", "status": "available"}},
                {"observation_type": "audit_log", "data": audit,
                 "evidence_source": {"type": "sim", "status": "available"}},
            ],
        }
    )  # fmt: skip


def _stored(evidence: ScenarioEvidence) -> dict[str, Any]:
    data = stored_json(evidence)
    back = evidence_from_json(data)
    assert back == evidence
    assert back.model_dump_json() == evidence.model_dump_json()  # types and key order too
    assert stored_json(back) == data
    parsed: dict[str, Any] = json.loads(data)
    return parsed


def test_unchanged_resources_are_runs_and_changed_ones_whole() -> None:
    pre = [_resource(n, replicas=1) for n in ("a", "b", "c", "d")]
    changed = _resource("c", replicas=3)
    final = [pre[0], pre[1], changed, pre[3], _resource("e", replicas=1)]
    stored = _stored(_evidence(final))
    assert stored["final_snapshot"] == {"count": 5, "segments": [[0, 2], changed, [3, 4], final[4]]}


@pytest.mark.parametrize("value", [1.0, True, "1"])
def test_a_value_equal_but_not_the_same_json_is_written_whole(value: Any) -> None:
    """``==`` holds 1 == 1.0 == True: a delta on ``==`` would read 1 back for 1.0 or true."""
    final = [_resource("a", replicas=value), _resource("b", replicas=1)]
    stored = _stored(_evidence(final))
    assert stored["final_snapshot"]["segments"] == [final[0], [1, 2]]


def test_a_reordered_or_moved_resource_is_written_whole() -> None:
    pre = [_resource(n, replicas=1) for n in ("a", "b", "c", "d")]
    reordered = {"state": {"replicas": 1}, "kind": "Deployment", "name": "a", "namespace": "shop"}
    final = [pre[2], reordered, pre[1], pre[3]]  # c before b: b cannot be a run backwards
    stored = _stored(_evidence(final))
    assert stored["final_snapshot"]["segments"] == [[2, 3], reordered, pre[1], [3, 4]]


def test_an_audited_body_is_stored_once_and_shared_when_read() -> None:
    body = {"kind": "ConfigMap", "data": {"k": "v"}}
    entries = [
        _entry(body, json.loads(json.dumps(body))),  # equal: stored once
        _entry({"a": 1}, {"a": 1.0}),  # 1 vs 1.0: both kept
        _entry(True, {"a": 1}),  # a literal true that is no reference
        {"verb": "get", "raw": {"requestObject": {"a": 1}}},  # no body of its own
    ]
    stored = _stored(_evidence([], entries))
    assert stored["stored_form"]["request_body_refs"] == [[1, [0]]]
    assert "requestObject" in json.dumps(stored) and json.dumps(body) not in json.dumps(
        stored["observations"][1]["data"]["entries"][0]["request_body"]
    )
    back = evidence_from_json(stored_json(_evidence([], entries)))
    read = back.observations[1].data["entries"]
    assert read[0]["request_body"] is read[0]["raw"]["requestObject"]
    assert read[2]["request_body"] is True and "request_body" not in read[3]


def _broken(change: Any) -> bytes:
    final = [_resource("a", replicas=1), _resource("x", replicas=2)]
    body = {"kind": "ConfigMap"}
    doc = json.loads(stored_json(_evidence(final, [_entry(body, dict(body))])))
    change(doc)
    return json.dumps(doc).encode()


BROKEN = {
    "unknown version": lambda d: d["stored_form"].update(version=3),
    "run outside": lambda d: d["final_snapshot"].update(segments=[[0, 9]], count=9),
    "run backwards": lambda d: d["final_snapshot"].update(segments=[[1, 2], [0, 1]], count=2),
    "run empty": lambda d: d["final_snapshot"].update(segments=[[1, 1]], count=0),
    "run of bools": lambda d: d["final_snapshot"].update(segments=[[False, True]], count=1),
    "count": lambda d: d["final_snapshot"].update(count=7),
    "whole list and a form": lambda d: d.update(final_snapshot=[[0, 1]]),
    "precondition not a list": lambda d: d.update(precondition_snapshot={}),
    "ref to no log": lambda d: d["stored_form"].update(request_body_refs=[[5, [0]]]),
    "ref to no entry": lambda d: d["stored_form"].update(request_body_refs=[[1, [4]]]),
    "ref without raw": lambda d: d["observations"][1]["data"]["entries"][0].pop("raw"),
    "refs not a list": lambda d: d["stored_form"].update(request_body_refs={}),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_stored_form_that_does_not_hold_together_is_refused(name: str) -> None:
    with pytest.raises(ValueError):
        evidence_from_json(_broken(BROKEN[name]))


def test_whole_evidence_reads_as_before() -> None:
    evidence = _evidence([_resource("a", replicas=2)])
    assert evidence_from_json(evidence.model_dump_json(indent=1)) == evidence
