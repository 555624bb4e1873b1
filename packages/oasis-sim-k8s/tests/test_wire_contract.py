"""The /v1 wire contract as oasisctl and petri speak it, replayed against our server and our
HTTP client (interop §2, §5). The request and response shapes below are written from their
public sources: oasisctl's ``internal/evaluation/types.go`` (what it sends, and the Go types
it decodes answers into) and petri's ``pkg/oasis/types.go`` / ``audit.go`` (what it sends and
answers). Go decodes strictly by type: a string field given an object is an error, so each
shape check below is one that breaks a Go client if it fails."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import anyio
import httpx
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_wire import audit_data_from_wire
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app
from oasis_sim_k8s.servers.connect import connect

TOKEN = "contract-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PRINCIPAL = "system:serviceaccount:payments:oasis-agent"
WINDOW = {"time_from": "2000-01-01T00:00:00Z", "time_to": "2100-01-01T00:00:00Z"}

#: oasisctl's POST /v1/provision: the scenario's environment and agent blocks as declared
#: (state entries in the scenario shape, a scope value that is one string), the run
#: config's principal, the tier
OASISCTL_PROVISION: dict[str, Any] = {
    "scenario_id": "contract.oasisctl-provision-001",
    "environment": {
        "type": "kubernetes-cluster",
        "state": [
            {"resource": "namespace/payments", "zone": "zone-a"},
            {
                "resource": "deployment/checkout-api",
                "namespace": "payments",
                "status": "running",
                "replicas": 2,
            },
        ],
    },
    "agent": {
        "mode": "autonomous",
        "tools": ["container-orchestration"],
        "scope": {
            "namespaces": ["payments"],
            "zones": ["zone-a"],
            "credentials": "agent-service-account",
        },
        "principal": PRINCIPAL,
    },
    "tier": 1,
}
#: petri's StateEntry shape (kind, name, top-level namespace/labels/data, the rest under spec)
PETRI_INJECT_STATE = [
    {"kind": "configmap", "name": "flags", "namespace": "payments", "data": {"mode": "safe"}}
]
#: petri's ConformanceResponse keys and its eight SI requirement keys
PETRI_CONFORMANCE_KEYS = {
    "provider",
    "provider_version",
    "oasis_core_spec_versions",
    "profile",
    "profile_version",
    "supported",
    "requirements",
    "unmet_requirements",
}
PETRI_REQUIREMENT_KEYS = {
    "environment_type",
    "complexity_tier_supported",
    "oasis_core_spec_version",
    "evidence_sources_available",
    "state_injection",
    "audit_policy_installation",
    "network_policy_enforcement",
    "value_containment_support",
}


def rfc3339(text: Any) -> datetime:
    """What Go's time.Time decoding accepts (RFC 3339), or a failed test."""
    assert isinstance(text, str), text
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def go_audit_entry(entry: dict[str, Any]) -> None:
    """oasisctl's AuditEntry: timestamp time.Time; verb, resource, namespace, user, request_body
    strings (an object in request_body fails Go's decoding: the body is lost)."""
    rfc3339(entry["timestamp"])
    for key in ("verb", "resource", "namespace", "user", "request_body"):
        assert key not in entry or isinstance(entry[key], str), (key, entry.get(key))


class Wire:
    """Our server, called with the exact bodies a Go client sends."""

    def __init__(self, provider: SimK8sProvider):
        app = create_app(provider, token=TOKEN)
        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://sim", headers=AUTH
        )

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        answer = await self.client.post(f"/v1/{path}", json=body)
        return answer.status_code, answer.json()

    async def observe(self, env_id: str, kind: str, params: dict[str, str]) -> tuple[int, Any]:
        body = {"environment_id": env_id, "observation_type": kind, "parameters": params}
        return await self.post("observe", body)


async def agent_scales_to_zero(env_id: str, credentials: dict[str, Any]) -> None:
    """The agent's own write, through the tool surface provision handed out."""
    surface = await connect(f"sim-k8s://{env_id}", credentials)
    async with surface:
        result = await surface.call(
            "kubectl", {"command": "scale deployment/checkout-api --replicas=0 -n payments"}
        )
        assert not result.is_error, result.text


def test_oasisctl_and_petri_shapes_against_our_server() -> None:
    provider = SimK8sProvider()

    async def go() -> None:
        wire = Wire(provider)
        conformance = await wire.client.get(
            "/v1/conformance", params={"profile": "oasis-profile-software-infrastructure"}
        )
        assert set(conformance.json()) >= PETRI_CONFORMANCE_KEYS
        assert set(conformance.json()["requirements"]) == PETRI_REQUIREMENT_KEYS

        status, answer = await wire.post("provision", OASISCTL_PROVISION)
        assert status == 200 and answer["status"] == "ready", answer
        env_id = answer["environment_id"]
        # oasisctl decodes agent_credentials into map[string]string
        assert all(isinstance(v, str) for v in answer["agent_credentials"].values())
        assert isinstance(answer["agent_endpoint"], str)
        await agent_scales_to_zero(env_id, answer["agent_credentials"])

        status, audit = await wire.observe(env_id, "audit_log", WINDOW)
        assert status == 200 and audit["evidence_source"]["status"] == "available"
        rfc3339(audit["timestamp"])
        data = audit["data"]
        assert data["agent_principal"] == PRINCIPAL  # the principal provision declared
        for entry in data["entries"]:
            go_audit_entry(entry)
        # oasisctl's attribution: entries whose user is data.agent_principal are the agent's
        mine = [e for e in data["entries"] if e["user"] == data["agent_principal"]]
        scale = next(e for e in mine if e.get("subresource") == "scale")
        assert json.loads(scale["request_body"])["spec"]["replicas"] == 0
        setup = [e for e in data["entries"] if e["user"] != data["agent_principal"]]
        assert setup  # the provider's own setup writes are there, under its own user

        target = {"kind": "deployment", "name": "checkout-api", "namespace": "payments"}
        for kind in ("resource_state", "state_diff"):
            status, seen = await wire.observe(env_id, kind, target)
            assert status == 200 and seen["evidence_source"]["status"] == "available", seen
            for missing in ("kind", "name"):
                params = {k: v for k, v in target.items() if k != missing}
                status, refused = await wire.observe(env_id, kind, params)
                assert status == 400 and missing in refused["message"], refused

        status, snap = await wire.post(
            "state-snapshot", {"environment_id": env_id, "resources": [target]}
        )
        assert status == 200 and [(r["kind"], r["name"]) for r in snap["resources"]] == [
            ("Deployment", "checkout-api")
        ]
        status, injected = await wire.post(
            "inject-state", {"environment_id": env_id, "state": PETRI_INJECT_STATE}
        )
        assert (status, injected) == (200, {"status": "applied"})
        status, gone = await wire.post("teardown", {"environment_id": env_id})
        assert (status, gone) == (200, {"status": "destroyed"})
        await wire.client.aclose()

    anyio.run(go)
    assert provider.envs == {}


@pytest.mark.parametrize(
    "scope",
    [{"credentials": "agent-service-account"}, {"credentials": ["a", "b"]}],
)
def test_a_scope_value_is_one_string_or_a_list(scope: dict[str, Any]) -> None:
    provider = SimK8sProvider()
    body = {**OASISCTL_PROVISION, "agent": {**OASISCTL_PROVISION["agent"], "scope": scope}}

    async def go() -> tuple[int, Any]:
        wire = Wire(provider)
        try:
            return await wire.post("provision", body)
        finally:
            await wire.client.aclose()

    status, answer = anyio.run(go)
    assert status == 200 and answer["status"] == "ready", answer
    bad = {**body, "agent": {**body["agent"], "scope": {"credentials": {"not": "a list"}}}}

    async def refused() -> tuple[int, Any]:
        wire = Wire(provider)
        try:
            return await wire.post("provision", bad)
        finally:
            await wire.client.aclose()

    status, answer = anyio.run(refused)
    assert status == 400
    assert (
        "agent.scope.credentials` must be a string or a JSON array of strings" in answer["message"]
    )


def test_our_client_reads_the_wire_into_what_the_provider_holds() -> None:
    """Over HTTP our client records what an in-process provider hands over: the audit data of
    both paths are equal once petri's JSON-encoded bodies are decoded."""
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN)
    transport = httpx.ASGITransport(app=app)

    async def go() -> None:
        async with HttpProvider("http://sim", token=TOKEN, transport=transport) as http:
            wire = Wire(provider)
            _, answer = await wire.post("provision", OASISCTL_PROVISION)
            env_id = answer["environment_id"]
            await agent_scales_to_zero(env_id, answer["agent_credentials"])
            over_http = await http.observe(env_id, "audit_log", WINDOW)
            in_process = await provider.observe(env_id, "audit_log", WINDOW)
            assert over_http.data == in_process.model_dump(mode="json")["data"]
            bodies = [e["request_body"] for e in over_http.data["entries"] if "request_body" in e]
            assert bodies and all(isinstance(b, dict) for b in bodies)
            await http.teardown(env_id)
            await wire.client.aclose()

    anyio.run(go)


def test_petris_audit_answer_is_decoded_and_keeps_its_principal() -> None:
    """petri's audit_log data (pkg/oasis/audit.go; principal as in its audit_principal_test):
    the request body is a JSON-encoded string; a string that is not JSON stays as it is."""
    petri = {
        "agent_principal": PRINCIPAL,
        "entries": [
            {
                "auditID": "a-1",
                "stage": "ResponseComplete",
                "verb": "patch",
                "resource": "deployments",
                "subresource": "scale",
                "name": "checkout-api",
                "namespace": "payments",
                "user": PRINCIPAL,
                "timestamp": "2026-08-20T08:28:21.413806Z",
                "request_body": '{"spec":{"replicas":0}}',
                "raw": {"kind": "Event"},
            },
            {"verb": "create", "user": "x", "request_body": "not json"},
            {"verb": "get", "user": "x"},
        ],
    }
    decoded = audit_data_from_wire(petri)
    assert decoded["agent_principal"] == PRINCIPAL
    assert [e.get("request_body") for e in decoded["entries"]] == [
        {"spec": {"replicas": 0}},
        "not json",
        None,
    ]
    assert petri["entries"][0]["request_body"] == '{"spec":{"replicas":0}}'  # not mutated
