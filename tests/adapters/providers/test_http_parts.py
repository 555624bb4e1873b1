"""The capture's parts form (issue 30, http_parts): asked for in ``Accept``, each
observation's ``data`` its own JSON text kept beside what was parsed from it; a parts body
that lies is a ProviderFault with its reason, never a guess; a JSON answer is read as before."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_core import from_json, to_json

from oasis_eval.adapters.providers import http_parts
from oasis_eval.adapters.providers.http_lean import OFFERED
from oasis_eval.adapters.providers.http_parts import PARTS_MEDIA, parts_answer
from oasis_eval.contract import ProviderFault

from .test_http_capture import _after, _capture_answer
from .test_http_lean import BASE, ENTRY, _observation, _provisioned


@pytest.fixture
def wired(petri: Any) -> Any:
    petri.script(
        "/v1/state-snapshot",
        (200, {"environment_id": "env-1", "resources": BASE, "snapshot_id": "1"}),
    )
    return petri


def _body(answer: dict[str, Any], texts: dict[str, bytes] | None = None) -> bytes:
    """``answer`` in the parts form (as sim-k8s writes it); ``texts`` overrides a part's."""
    envelope = dict(answer)
    names, lines = [], []

    def split(part: dict[str, Any], name: str) -> dict[str, Any]:
        names.append(name)
        lines.append((texts or {}).get(name, to_json(part["data"])))
        return {k: v for k, v in part.items() if k != "data"}

    if "served_calls" in envelope:
        envelope["served_calls"] = split(envelope["served_calls"], "served_calls")
    envelope["audit_log"] = split(envelope["audit_log"], "audit_log")
    envelope["resource_state"] = [
        split(p, f"resource_state/{i}") for i, p in enumerate(envelope["resource_state"])
    ]
    envelope["data_parts"] = names
    return b"\n".join([to_json(envelope), *lines]) + b"\n"


def test_the_capture_asks_for_the_parts_form_and_keeps_each_text(wired: Any) -> None:
    _provisioned(wired, list(OFFERED))
    audit = {"entries": [{**ENTRY, "request_body": True}]}
    answer = _capture_answer(audit_log=_observation("audit_log", audit, wire_extensions=[
        "oasis-audit-body-ref"]))  # fmt: skip
    wired.script("/v1/capture", (200, _body(answer)))
    got = _after(wired)
    (call,) = wired.calls("/v1/capture")
    assert call.headers["accept"] == f"{PARTS_MEDIA}, application/json"
    assert got["served"]._data_json == (b'{"calls":[{"id":"a1"}]}', ())
    assert [s._data_json for s in got["states"]] == [
        (b'{"resource":"a"}', ()),
        (b'{"resource":"b"}', ()),
    ]
    text, refs = got["audit"]._data_json
    assert text == to_json(audit) and refs == (0,)
    entry = got["audit"].data["entries"][0]
    assert entry["request_body"] is entry["raw"]["requestObject"]  # shared, as before


def test_a_json_answer_is_read_as_before(wired: Any) -> None:
    _provisioned(wired, list(OFFERED))
    wired.script("/v1/capture", (200, _capture_answer()))
    got = _after(wired)
    assert got["served"].data == {"calls": [{"id": "a1"}]}
    assert got["served"]._data_json is None and got["audit"]._data_json is None


def _lying(body: bytes) -> str:
    with pytest.raises(ProviderFault) as caught:
        parts_answer("capture of environment env-1", body)
    return str(caught.value)


GOOD = _body(_capture_answer())


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (GOOD[:-1], "truncated"),
        (GOOD[: GOOD.rindex(b"\n", 0, len(GOOD) - 1) + 1], "3 data texts for the 4 parts"),
        (GOOD + b'{"extra":1}\n', "5 data texts for the 4 parts"),
        (GOOD.replace(b'{"resource":"a"}', b'{"resource":"a"'), "resource_state/0 data is not"),
        (GOOD.replace(b'{"resource":"a"}', b'{"resource":"a"} {}'), "resource_state/0 data is not"),
        (GOOD.replace(b'"resource_state/1"', b'"resource_state/0"'), "a part twice"),
        (GOOD.replace(b'"resource_state/1"', b'"resource_state/7"'), "names no part"),
        (GOOD.replace(b'"resource_state/1"', b'"snapshot"'), "names no part"),
        (GOOD.replace(b'"resource_state/1"', b'"resource_state/01"'), "names no part"),
        (GOOD.replace(b'"data_parts":', b'"parts":'), "no data_parts list"),
        (b"[]\n" + GOOD.partition(b"\n")[2], "envelope is not a JSON object"),
        (b"{\n" + GOOD, "envelope is not one JSON text"),
    ],
)
def test_a_parts_body_that_lies_is_a_fault(body: bytes, reason: str) -> None:
    assert reason in _lying(body)


def test_a_part_with_data_in_the_envelope_and_a_text_is_data_twice() -> None:
    answer = _capture_answer()
    body = _body(answer).split(b"\n")
    envelope = to_json({**from_json(body[0]), "audit_log": answer["audit_log"]})
    assert "audit_log's data twice" in _lying(b"\n".join([envelope, *body[1:]]))


def test_a_line_over_the_limit_is_a_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_parts, "PART_LIMIT", 20)
    assert "line 1 is over 20 bytes" in _lying(GOOD)


def test_a_lying_capture_fails_the_call_that_sent_it(wired: Any) -> None:
    _provisioned(wired, list(OFFERED))
    wired.script("/v1/capture", (200, GOOD.replace(b'"resource_state/1"', b'"resource_state/0"')))
    with pytest.raises(ProviderFault, match=r"capture of environment env-1: .*names a part twice"):
        _after(wired)


@pytest.mark.parametrize(
    "content",
    [b"\n", b"a\n", b"a\nb\n", b"\n\n", b"a\n\nb\n", b'{"x":1}\n' + b"y" * 100 + b"\n\n"],
)
def test_lines_split_as_split_does(content: bytes) -> None:
    """The lines found with ``find`` (issue 30, session 37) are ``split``'s."""
    from oasis_eval.adapters.providers.http_parts import _split_lines

    assert _split_lines(content) == content[:-1].split(b"\n")
