"""The leaner /v1 wire from the client's side (issue 30, http_lean): petri's wire against a
provider that does not accept it, one call fewer and the data rebuilt against one that does,
and every inconsistency a ProviderFault."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_lean import (
    OFFERED,
    SNAPSHOT_DELTA,
    Negotiated,
    rebuilt_snapshot,
    snapshot_digest,
)
from oasis_eval.contract import ProviderFault, ProvisionRequest

SOURCE = {"type": "audit_log_file", "status": "available"}
BODY = {"kind": "Deployment", "metadata": {"name": "api"}}
RAW = {"kind": "Event", "requestObject": BODY}
ENTRY = {"auditID": "a1", "verb": "create", "user": "p", "request_body": None, "raw": RAW}
WINDOW = {"time_from": "2025-01-01T00:00:00Z", "time_to": "2025-01-01T00:01:00Z"}


REQUEST = ProvisionRequest(
    scenario_id="s",
    environment_type="k",
    state=[],
    mode="supervised",
    tools=[],
    principal="p",
    tier=1,
)


def _r(name: str, replicas: int = 1) -> dict[str, Any]:
    return {"kind": "deployment", "name": name, "namespace": "a", "state": {"r": replicas}}


BASE = [_r("a"), _r("b"), _r("c"), _r("d")]


def _provisioned(petri: Any, accepted: list[str] | None) -> None:
    answer: dict[str, Any] = {"environment_id": "env-1", "status": "ready", "served_calls": True}
    if accepted is not None:
        answer["wire_extensions"] = accepted
    petri.script("/v1/provision", (200, answer))
    petri.script("/v1/teardown", (200, {"status": "destroyed"}))


def _session(petri: Any) -> dict[str, Any]:
    """Provision, two whole snapshots, served_calls then audit_log, teardown: the engine's flow."""

    async def go() -> dict[str, Any]:
        async with HttpProvider(petri.url, retry_cap=0.0) as http:
            await http.provision(REQUEST)
            first = await http.snapshot("env-1")
            final = await http.snapshot("env-1")
            served = await http.observe("env-1", "served_calls", dict(WINDOW))
            audit = await http.observe("env-1", "audit_log", dict(WINDOW))
            await http.teardown("env-1")
            return {"first": first, "final": final, "served": served, "audit": audit}

    return anyio.run(go)


def _observation(kind: str, data: Any, **extra: Any) -> dict[str, Any]:
    return {"environment_id": "env-1", "observation_type": kind, "timestamp": "t",
            "data": data, "evidence_source": SOURCE, **extra}  # fmt: skip


def test_a_provider_without_the_extension_gets_petris_wire(petri: Any) -> None:
    _provisioned(petri, None)
    petri.script("/v1/state-snapshot", (200, {"environment_id": "env-1", "resources": BASE}))
    petri.script(
        "/v1/observe",
        (200, _observation("served_calls", {"calls": []})),
        (200, _observation("audit_log", {"entries": [{**ENTRY, "request_body": '{"a": 1}'}]})),
    )
    got = _session(petri)
    snapshots = [c.body for c in petri.calls("/v1/state-snapshot")]
    assert snapshots == [{"environment_id": "env-1"}] * 2  # no `since`
    observed = [(c.body["observation_type"], set(c.body)) for c in petri.calls("/v1/observe")]
    keys = {"environment_id", "observation_type", "parameters"}
    assert observed == [("served_calls", keys), ("audit_log", keys)]
    assert got["final"].resources == BASE
    assert got["audit"].data["entries"][0]["request_body"] == {"a": 1}


def test_an_accepting_provider_answers_in_fewer_calls_and_bytes(petri: Any) -> None:
    _provisioned(petri, list(OFFERED))
    changed = _r("c", 2)
    petri.script(
        "/v1/state-snapshot",
        (200, {"environment_id": "env-1", "resources": BASE, "snapshot_id": "1"}),
        (
            200,
            {
                "environment_id": "env-1",
                "snapshot_id": "2",
                "delta": {
                    "since": "1",
                    "count": 4,
                    "segments": [
                        [0, 2],
                        {"resource": changed, "replaces": 2},
                        {"resource": _r("e")},
                    ],
                    "digest": snapshot_digest([_r("a"), _r("b"), changed, _r("e")]),
                },
            },
        ),
    )
    entry = {**ENTRY, "request_body": True}
    audit = _observation(
        "audit_log", {"entries": [entry]}, wire_extensions=["oasis-audit-body-ref"]
    )
    audit["served_calls"] = _observation("served_calls", {"calls": [{"id": "a1"}]})
    petri.script("/v1/observe", (200, audit))
    got = _session(petri)
    assert [c.body.get("since") for c in petri.calls("/v1/state-snapshot")] == [None, "1"]
    (call,) = petri.calls("/v1/observe")  # served_calls and audit_log in one
    assert call.body["observation_type"] == "audit_log" and call.body["served_calls"] is True
    assert call.body["parameters"] == WINDOW
    assert got["final"].resources == [_r("a"), _r("b"), changed, _r("e")]
    assert got["served"].data == {"calls": [{"id": "a1"}]}
    (rebuilt,) = got["audit"].data["entries"]
    assert list(rebuilt) == list(ENTRY) and rebuilt["request_body"] == BODY  # in its place
    assert "wire_extensions" not in (got["audit"].model_extra or {})


@pytest.mark.parametrize(
    ("segments", "count"),
    [
        ([[0, 2], [1, 4]], 5),  # a run overlapping the one before
        ([[2, 4], [0, 2]], 4),  # runs out of order
        ([[0, 5]], 5),  # past the base
        ([[0, 4]], 3),  # not the count the provider stated
        ([[0, 3], {"resource": _r("c", 2), "replaces": 2}], 4),  # kept and replaced
        ([[0, 3], {"resource": _r("x"), "replaces": 3}], 4),  # replaced by another resource
        ([[0, 4], {"resource": _r("b")}], 5),  # "new" although in the base
        ([[0, 4], {"resource": _r("x")}, {"resource": _r("x")}], 6),  # new twice
        ([{"resource": _r("a"), "replaces": 0}, {"resource": _r("a"), "replaces": 0}], 2),
        (["0-4"], 4),
    ],
)
def test_an_inconsistent_delta_is_a_provider_fault(segments: list[Any], count: int) -> None:
    with pytest.raises(ProviderFault, match="snapshot delta"):
        rebuilt_snapshot("snap", BASE, {"since": "1", "count": count, "segments": segments})


@pytest.mark.parametrize(
    ("snapshot", "audit", "match"),
    [
        ({"resources": [], "delta": {"since": "9", "count": 0, "segments": []}}, None, "base"),
        # a delta that holds together but is not the provider's whole list: the digest says so
        (
            {
                "delta": {
                    "since": "1",
                    "count": 4,
                    "segments": [[0, 4]],
                    "digest": snapshot_digest([*BASE[:3], _r("d", 2)]),
                }
            },
            None,
            "does not match the digest",
        ),
        ({"delta": {"since": "1", "count": 4, "segments": [[0, 4]]}}, None, "digest"),
        (None, {"request_body": True, "raw": {}}, "requestObject"),
        (None, {"request_body": {"a": 1}, "raw": RAW}, "requestObject"),
    ],
)
def test_a_marked_answer_that_does_not_hold_together_is_a_fault(
    petri: Any, snapshot: Any, audit: Any, match: str
) -> None:
    _provisioned(petri, list(OFFERED))
    whole = {"environment_id": "env-1", "resources": BASE, "snapshot_id": "1"}
    petri.script(
        "/v1/state-snapshot",
        (200, whole),
        (200, {"environment_id": "env-1", **(snapshot or whole)}),
    )
    answer = _observation("audit_log", {"entries": [{**ENTRY, **(audit or {})}]})
    answer["wire_extensions"] = ["oasis-audit-body-ref"]
    answer["served_calls"] = _observation("served_calls", {"calls": []})
    petri.script("/v1/observe", (200, answer))
    with pytest.raises(ProviderFault, match=match):
        _session(petri)


def test_accepting_what_was_never_offered_is_a_fault(petri: Any) -> None:
    _provisioned(petri, ["oasis-something-else"])
    with pytest.raises(ProviderFault, match="never offered"):
        _session(petri)


def test_a_client_offering_nothing_sends_petris_provision(petri: Any) -> None:
    _provisioned(petri, None)

    async def go() -> None:
        async with HttpProvider(petri.url, wire_extensions=()) as http:
            await http.provision(REQUEST)

    anyio.run(go)
    (call,) = petri.calls("/v1/provision")
    assert "wire_extensions" not in call.body
    assert Negotiated(frozenset({SNAPSHOT_DELTA})).base is None
