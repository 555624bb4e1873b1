"""The leaner /v1 wire (issue 30): petri's wire for a runner that does not offer it (oasisctl),
the same data as petri's wire once the client rebuilds it, and an inconsistent delta a
PROVIDER_FAILURE."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from oasis_eval.adapters.providers import http_lean
from oasis_eval.adapters.providers.http_wire import audit_data_from_wire, provision_wire_body
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent
from oasis_sim_k8s.provider import lean_wire
from oasis_sim_k8s.provider.petri_api import create_app
from oasis_sim_k8s.tools import ToolSurface
from oasis_sim_k8s.web.wire import audit_data_to_wire
from tests.sim_k8s.support import live, provision, request, run, served_example_run

SID = "k8s.capability.wo.in-scope-delete-001"


def _act(env: Any) -> None:
    """An agent session: a read, a delete, a denied delete."""
    surface = ToolSurface(env, allowed_interface_types=["container-orchestration"])
    for command in (
        "get deployments -n shop",
        "delete deployment promo-banner-2023 -n shop",
        "delete namespace kube-system",
    ):
        surface.call("kubectl", {"command": command})


def test_both_sides_name_the_same_extensions() -> None:
    assert set(http_lean.OFFERED) == set(lean_wire.SUPPORTED)


def _post(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/v1/{path}", json=body)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_runner_that_offers_nothing_gets_petris_wire() -> None:
    """oasisctl's calls (interop §2): no field of the extension in any answer, bodies as strings,
    ``since`` and ``served_calls`` in a request ignored."""
    app = create_app(SimK8sProvider(), auth=False)
    with live(app) as url, httpx.Client(base_url=url) as client:
        body = provision_wire_body(request("example", SID)[0])
        answer = _post(client, "provision", body)
        assert answer["status"] == "ready" and "wire_extensions" not in answer
        env = {"environment_id": answer["environment_id"]}
        for _ in range(2):
            snap = _post(client, "state-snapshot", {**env, "since": "1"})
            assert set(snap) == {"environment_id", "timestamp", "resources"} and snap["resources"]
        window = {"observation_type": "audit_log", "parameters": {}, "served_calls": True}
        audit = _post(client, "observe", {**env, **window})
        assert "served_calls" not in audit and "wire_extensions" not in audit
        bodies = [e["request_body"] for e in audit["data"]["entries"] if "request_body" in e]
        assert bodies and all(isinstance(b, str) for b in bodies)
        _post(client, "teardown", env)


def _roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_the_rebuilt_audit_log_and_snapshot_are_petris_byte_for_byte() -> None:
    """On one environment's real data (the agent deleted, read and was denied), the extension's
    answers rebuilt by the client equal what petri's wire gives the client, key order too."""
    provider = SimK8sProvider()
    res, env = provision(provider, "example", SID)
    before = _roundtrip(run(provider.snapshot, res.environment_id).model_dump(mode="json"))
    _act(env)
    audit = run(provider.observe, res.environment_id, "audit_log", {})
    after = _roundtrip(run(provider.snapshot, res.environment_id).model_dump(mode="json"))

    petri = audit.model_dump(mode="json")
    petri["data"] = audit_data_from_wire(_roundtrip(audit_data_to_wire(petri["data"])))
    state = lean_wire.LeanState(frozenset(lean_wire.SUPPORTED))
    wire = audit.model_dump(mode="json")
    assert lean_wire.audit_answer(state, audit.data, wire)
    wire = _roundtrip(wire)
    lean = http_lean.Negotiated(frozenset(http_lean.OFFERED))
    data = http_lean.lean_audit_data("observe", wire, lean)
    assert json.dumps(data) == json.dumps(petri["data"])
    assert sum(1 for e in data["entries"] if "request_body" in e) >= 5

    first = _roundtrip(lean_wire.snapshot_answer(state, None, before))
    assert first["snapshot_id"] == "1"
    assert http_lean.snapshot_resources("snap", lean, first) == before["resources"]
    second = _roundtrip(lean_wire.snapshot_answer(state, lean.base_id, after))
    assert "resources" not in second and second["delta"]["count"] == len(after["resources"])
    assert len(json.dumps(second)) * 10 < len(json.dumps(after))  # the point of it
    rebuilt = http_lean.snapshot_resources("snap", lean, second)
    assert json.dumps(rebuilt) == json.dumps(after["resources"])
    assert before["resources"] != after["resources"]  # the agent's delete is in the delta


def test_a_provider_sending_an_inconsistent_delta_is_a_provider_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A delta that keeps a base resource twice: the run aborts as PROVIDER_FAILURE."""
    real = lean_wire._delta

    def lying(base: list[Any], resources: list[Any]) -> dict[str, Any] | None:
        delta = real(base, resources)
        if delta is not None:
            delta["segments"].append(delta["segments"][0])
        return delta

    monkeypatch.setattr(lean_wire, "_delta", lying)
    provider = SimK8sProvider()
    outcome = served_example_run(provider, BuiltinAgent("careful"), "sim-k8s-lean-tests")
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert "snapshot delta" in verdict.metadata.abort_reason
    assert provider.envs == {}
