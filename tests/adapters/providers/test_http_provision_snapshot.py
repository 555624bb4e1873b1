"""The precondition snapshot folded into provision's answer (issue 30, ``oasis-provision-
snapshot``) from the client's side: taken by the first whole snapshot, checked as that call's
answer; petri's separate call without the extension, when the answer has none, or when another
call on the environment came between; a folded snapshot that does not hold a ProviderFault."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_lean import (
    OFFERED,
    PROVISION_SNAPSHOT,
    snapshot_digest,
)
from oasis_eval.contract import ProviderFault

from .test_http_lean import BASE, REQUEST, _r

WHOLE = {"environment_id": "env-1", "timestamp": "t", "resources": BASE, "snapshot_id": "1"}


def _provisioned(petri: Any, accepted: list[str] | None, folded: Any = None) -> None:
    answer: dict[str, Any] = {"environment_id": "env-1", "status": "ready"}
    if accepted is not None:
        answer["wire_extensions"] = accepted
    if folded is not None:
        answer["state_snapshot"] = folded
    petri.script("/v1/provision", (200, answer))
    petri.script("/v1/teardown", (200, {"status": "destroyed"}))


def _session(petri: Any, between: bool = False) -> dict[str, Any]:
    """Provision, the precondition snapshot (an inject-state first when ``between``), the
    final snapshot, teardown."""

    async def go() -> dict[str, Any]:
        async with HttpProvider(petri.url, retry_cap=0.0, retries=0) as http:
            provisioned = await http.provision(REQUEST)
            if between:
                await http.inject_state("env-1", [])
            first = await http.snapshot("env-1")
            final = await http.snapshot("env-1")
            await http.teardown("env-1")
            return {"provisioned": provisioned, "first": first, "final": final}

    return anyio.run(go)


def _final_delta() -> dict[str, Any]:
    final = [*BASE[:3], _r("d", 2)]
    delta = {
        "since": "1",
        "count": 4,
        "segments": [[0, 3], {"resource": _r("d", 2), "replaces": 3}],
    }
    return {"environment_id": "env-1", "snapshot_id": "2",
            "delta": {**delta, "digest": snapshot_digest(final)}}  # fmt: skip


def test_the_first_snapshot_comes_with_provision_and_is_the_base(petri: Any) -> None:
    _provisioned(petri, list(OFFERED), WHOLE)
    petri.script("/v1/state-snapshot", (200, _final_delta()))
    got = _session(petri)
    assert PROVISION_SNAPSHOT in petri.calls("/v1/provision")[0].body["wire_extensions"]
    (final,) = petri.calls("/v1/state-snapshot")  # the final only
    assert final.body == {"environment_id": "env-1", "since": "1"}  # against the folded base
    assert got["first"].resources == BASE and got["first"].timestamp == "t"
    assert got["final"].resources == [*BASE[:3], _r("d", 2)]
    assert "state_snapshot" not in (got["provisioned"].model_extra or {})  # not provision evidence


@pytest.mark.parametrize(
    ("accepted", "folded"),
    [
        (None, None),  # petri: no extension at all
        ([e for e in OFFERED if e != PROVISION_SNAPSHOT], WHOLE),  # sent but never accepted
        (list(OFFERED), None),  # accepted, none sent
    ],
)
def test_without_a_folded_snapshot_the_separate_call_is_made(
    petri: Any, accepted: list[str] | None, folded: Any
) -> None:
    _provisioned(petri, accepted, folded)
    whole = {k: v for k, v in WHOLE.items() if k != "snapshot_id"}
    petri.script("/v1/state-snapshot", (200, whole))
    got = _session(petri)
    assert len(petri.calls("/v1/state-snapshot")) == 2
    assert got["first"].resources == BASE == got["final"].resources
    extra = got["provisioned"].model_extra or {}
    assert ("state_snapshot" in extra) is (folded is not None)  # unread: kept as petri's extra


def test_a_call_in_between_passes_the_folded_snapshot_by(petri: Any) -> None:
    """The state may have moved since provision (here an inject-state): it is asked for."""
    _provisioned(petri, list(OFFERED), {**WHOLE, "resources": BASE[:1]})
    petri.script("/v1/inject-state", (200, {"status": "applied"}))
    petri.script("/v1/state-snapshot", (200, WHOLE), (200, _final_delta()))
    got = _session(petri, between=True)
    assert [c.body.get("since") for c in petri.calls("/v1/state-snapshot")] == [None, "1"]
    assert got["first"].resources == BASE


def test_an_announced_capture_passes_it_by(petri: Any) -> None:
    """``plan_capture`` means the agent ran: an untaken folded snapshot is no longer the state."""
    accepted = [e for e in OFFERED if e != "oasis-capture"]
    _provisioned(petri, accepted, {**WHOLE, "resources": BASE[:1]})
    petri.script("/v1/state-snapshot", (200, WHOLE))

    async def go() -> Any:
        async with HttpProvider(petri.url, retry_cap=0.0, retries=0) as http:
            await http.provision(REQUEST)
            http.plan_capture("env-1", {}, [], False)
            return await http.snapshot("env-1")

    assert anyio.run(go).resources == BASE and len(petri.calls("/v1/state-snapshot")) == 1


@pytest.mark.parametrize(
    ("folded", "match"),
    [
        ("resources", "not a JSON object"),
        ([WHOLE], "not a JSON object"),
        ({**WHOLE, "resources": "all"}, "malformed snapshot response"),
        ({**WHOLE, "status": "error", "message": "disk"}, "reported an error"),
        ({**WHOLE, "snapshot_id": 1}, "snapshot_id"),
        ({**WHOLE, "delta": {"since": "0", "count": 0, "segments": []}}, "base"),
    ],
)
def test_a_folded_snapshot_that_does_not_hold_is_a_fault(
    petri: Any, folded: Any, match: str
) -> None:
    """As the separate answer would be: PROVIDER_FAILURE (core §3.7), never the call instead."""
    _provisioned(petri, list(OFFERED), folded)
    petri.script("/v1/state-snapshot", (200, WHOLE))
    with pytest.raises(ProviderFault, match=match):
        _session(petri)
    assert petri.calls("/v1/state-snapshot") == []
