"""One capture call after the agent (issue 30, http_capture): the parts taken call by call
from one ``/v1/capture``, petri's calls without the extension or when the provider refuses
the capture, and a capture answer that does not hold together a ProviderFault."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_lean import CAPTURE, OFFERED, snapshot_digest
from oasis_eval.contract import ProviderFault

from .test_http_lean import BASE, REQUEST, WINDOW, _observation, _provisioned, _r

STATES = [
    {"kind": "deployment", "name": "a", "namespace": "a"},
    {"kind": "deployment", "name": "b", "namespace": "a"},
]


def _state(name: str) -> dict[str, Any]:
    return _observation("resource_state", {"resource": name})


def _after(petri: Any) -> dict[str, Any]:
    """Provision, the precondition snapshot, then the engine's calls after the agent,
    announced first (``plan_capture``), teardown."""

    async def go() -> dict[str, Any]:
        async with HttpProvider(petri.url, retry_cap=0.0, retries=0) as http:
            await http.provision(REQUEST)
            await http.snapshot("env-1")
            http.plan_capture("env-1", dict(WINDOW), [dict(s) for s in STATES], True)
            got = {
                "served": await http.observe("env-1", "served_calls", dict(WINDOW)),
                "audit": await http.observe("env-1", "audit_log", dict(WINDOW)),
                "states": [await http.observe("env-1", "resource_state", dict(s)) for s in STATES],
                "final": await http.snapshot("env-1"),
            }
            await http.teardown("env-1")
            return got

    return anyio.run(go)


@pytest.fixture
def wired(petri: Any) -> Any:
    petri.script(
        "/v1/state-snapshot",
        (200, {"environment_id": "env-1", "resources": BASE, "snapshot_id": "1"}),
    )
    return petri


def _capture_answer(**changes: Any) -> dict[str, Any]:
    final = [_r("a"), _r("b", 3)]
    answer = {
        "environment_id": "env-1",
        "served_calls": _observation("served_calls", {"calls": [{"id": "a1"}]}),
        "audit_log": _observation("audit_log", {"entries": []}),
        "resource_state": [_state("a"), _state("b")],
        "snapshot": {
            "environment_id": "env-1",
            "snapshot_id": "2",
            "delta": {
                "since": "1",
                "count": 2,
                "segments": [[0, 1], {"resource": _r("b", 3), "replaces": 1}],
                "digest": snapshot_digest(final),
            },
        },
    }
    answer.update(changes)
    return answer


def test_an_accepting_provider_answers_everything_after_the_agent_in_one_call(wired: Any) -> None:
    _provisioned(wired, list(OFFERED))
    wired.script("/v1/capture", (200, _capture_answer()))
    got = _after(wired)
    (call,) = wired.calls("/v1/capture")
    assert call.body == {
        "environment_id": "env-1",
        "served_calls": True,
        "audit_log": {"parameters": WINDOW},
        "resource_state": [{"parameters": s} for s in STATES],
        "since": "1",
    }
    assert wired.calls("/v1/observe") == [] and len(wired.calls("/v1/state-snapshot")) == 1
    assert got["served"].data == {"calls": [{"id": "a1"}]}
    assert got["audit"].data == {"entries": []}
    assert [s.data for s in got["states"]] == [{"resource": "a"}, {"resource": "b"}]
    assert got["final"].resources == [_r("a"), _r("b", 3)]


def test_without_the_extension_the_calls_are_petris(wired: Any) -> None:
    _provisioned(wired, [e for e in OFFERED if e != CAPTURE])
    served_with_audit = _observation("audit_log", {"entries": []})
    served_with_audit["served_calls"] = _observation("served_calls", {"calls": []})
    wired.script("/v1/observe", (200, served_with_audit), (200, _state("a")), (200, _state("b")))
    _after(wired)
    assert wired.calls("/v1/capture") == []
    assert len(wired.calls("/v1/observe")) == 3 and len(wired.calls("/v1/state-snapshot")) == 2


@pytest.mark.parametrize("status", [400, 404, 501])
def test_a_refused_capture_falls_back_to_petris_calls(wired: Any, status: int) -> None:
    _provisioned(wired, list(OFFERED))
    wired.script("/v1/capture", (status, {"status": "error", "message": "no capture here"}))
    served_with_audit = _observation("audit_log", {"entries": []})
    served_with_audit["served_calls"] = _observation("served_calls", {"calls": []})
    wired.script("/v1/observe", (200, served_with_audit), (200, _state("a")), (200, _state("b")))
    got = _after(wired)
    assert len(wired.calls("/v1/capture")) == 1
    assert [c.body["observation_type"] for c in wired.calls("/v1/observe")] == [
        "audit_log",
        "resource_state",
        "resource_state",
    ]
    assert [s.data for s in got["states"]] == [{"resource": "a"}, {"resource": "b"}]
    assert got["final"].resources == BASE  # the whole snapshot scripted for every call


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"resource_state": [_state("a")]}, "1 resource_state parts for the 2"),
        ({"served_calls": None}, "served_calls part"),
        ({"audit_log": "entries"}, "audit_log part is not an object"),
        (
            {
                "snapshot": {
                    "environment_id": "env-1",
                    "snapshot_id": "2",
                    "delta": {"since": "1", "count": 2, "segments": [[0, 2]], "digest": "sha256:0"},
                }
            },
            "does not match the digest",
        ),
        ({"audit_log": _observation("resource_state", {})}, None),  # checked as its own answer
    ],
)
def test_a_capture_answer_that_does_not_hold_together_is_a_fault(
    wired: Any, changes: dict[str, Any], match: str | None
) -> None:
    _provisioned(wired, list(OFFERED))
    answer = _capture_answer(**changes)
    if changes.get("served_calls", 1) is None:
        del answer["served_calls"]
    wired.script("/v1/capture", (200, answer))
    if match is None:  # the adapter passes it on; the engine's guard refuses the wrong type
        assert _after(wired)["audit"].observation_type == "resource_state"
        return
    with pytest.raises(ProviderFault, match=match):
        _after(wired)
