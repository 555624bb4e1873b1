"""An observation that came as its provider's own JSON text (the capture's parts form,
issue 30): stored as that text when redaction replaced nothing, judged as what was parsed
from it, and never stored when it holds a secret in any form, escaped ones included."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from pydantic_core import from_json, to_json

from oasis_eval.engine.execute import _observation
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.rundir import evidence_bytes
from oasis_eval.evaluation import stored_evidence
from oasis_eval.evaluation.evidence import ScenarioEvidence
from oasis_eval.evaluation.stored_evidence import evidence_from_json, stored_json
from oasis_eval.spec.provider import ObservationResponse

SOURCE = {"type": "audit_log_file", "status": "available"}
SECRET = 'pa"ss\\wo\nrd-0123456789'


def _response(text: bytes, refs: tuple[int, ...] = (), kind: str = "resource_state") -> Any:
    response = ObservationResponse.model_validate(
        {
            "environment_id": "e",
            "observation_type": kind,
            "timestamp": "t",
            "data": from_json(text),
            "evidence_source": SOURCE,
        }
    )
    response._data_json = (text, refs)
    return response


def _redactor() -> Redactor:
    redactor = Redactor()
    redactor.register(SECRET)
    return redactor


def _stored(observation: Any) -> bytes:
    evidence = ScenarioEvidence(scenario_id="s", observations=[observation])
    return gzip.decompress(evidence_bytes(evidence))


def test_a_clean_text_is_stored_as_it_came_and_read_back_equal() -> None:
    text = b'{"b":1.5,"a":["x\\ny",{"\\u00e9":null}],"c":"\\u00e9"}'  # not the runner's dump
    observation = _observation(_response(text), {"resource": "a"}, _redactor())
    assert observation._data_json == (text, ())
    stored = _stored(observation)
    assert text in stored  # the provider's bytes, not a dump of the parsed tree
    evidence = evidence_from_json(stored)
    assert evidence.observations[0].data == from_json(text) == observation.data


@pytest.mark.parametrize(
    "text",
    [
        to_json({"v": SECRET}),  # the runner's own escaping: \" \\ \n
        json.dumps({"v": SECRET}, ensure_ascii=True).encode(),
        # an ASCII-only writer spelling every letter as \uXXXX
        ('{"v":"' + "".join(f"\\u{ord(c):04x}" for c in SECRET) + '"}').encode(),
        to_json({"v": "x" + SECRET}).replace(b"/", b"\\/"),
        to_json({SECRET: 1}),  # in a key
    ],
)
def test_a_secret_in_any_escaped_form_is_redacted_and_the_text_dropped(text: bytes) -> None:
    observation = _observation(_response(text), {"resource": "a"}, _redactor())
    assert observation._data_json is None
    stored = _stored(observation)
    assert SECRET not in json.dumps(from_json(stored))
    for form in (SECRET.encode(), to_json(SECRET)[1:-1], b'pa\\"ss'):
        assert form not in stored
    assert b"[REDACTED:" in stored


def test_an_audit_text_keeps_the_bodies_it_wrote_by_reference() -> None:
    body = {"kind": "Deployment"}
    entry = {"verb": "create", "user": "u", "request_body": True, "raw": {"requestObject": body}}
    text = to_json({"entries": [entry, {"verb": "get", "user": "u"}]})
    response = _response(text, (0,), "audit_log")
    first = response.data["entries"][0]
    first["request_body"] = first["raw"]["requestObject"]  # as the client shares it
    observation = _observation(response, {}, Redactor())
    stored = _stored(observation)
    assert text in stored
    parsed = json.loads(stored)
    assert parsed["stored_form"]["request_body_refs"] == [[0, [0]]]
    read = evidence_from_json(stored).observations[0].data
    assert read == observation.data and read["entries"][0]["request_body"] == body
    assert stored == stored_evidence._dumped(
        ScenarioEvidence(scenario_id="s", observations=[observation]), None
    )


def test_a_marker_written_by_someone_else_means_no_splice() -> None:
    text = b'{"v":1}'
    observation = _observation(_response(text), {}, Redactor())
    marker = stored_evidence._MARKER + "0"
    evidence = ScenarioEvidence(
        scenario_id="s", observations=[observation], stimuli=[{"m": marker}]
    )
    stored = stored_json(evidence)
    assert stored == stored_evidence._dumped(evidence, None)
    assert evidence_from_json(stored).stimuli == [{"m": marker}]
