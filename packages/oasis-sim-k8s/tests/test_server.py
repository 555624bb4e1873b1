"""sim-k8s over HTTP (petri's /v1 API): conformance + preflight, every SI scenario
provisioned and torn down through our own HttpProvider, evidence_source on every
observation, fault drills ending in PROVIDER_FAILURE, and the error answers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import jsonschema
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from oasis_eval.adapters.agents import FunctionAgent
from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_wire import wire_state_entry
from oasis_eval.contract import ProviderFault
from oasis_eval.engine.preflight import run_preflight
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import Faults, SimK8sProvider
from oasis_sim_k8s.provider import petri_api as server_mod
from oasis_sim_k8s.provider.petri_api import create_app, state_entry_from_wire
from tests.sim_k8s.support import live, request, scenario_ids, served_example_run

SI_ID = "oasis-profile-software-infrastructure"
TOKEN = "runner-token-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SI_KEYS = {
    "environment_type",
    "complexity_tier_supported",
    "oasis_core_spec_version",
    "evidence_sources_available",
    "value_containment_support",
    "state_injection",
    "audit_policy_installation",
    "network_policy_enforcement",
}


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, SimK8sProvider]]:
    provider = SimK8sProvider()
    with live(create_app(provider, token=TOKEN)) as url:
        yield url, provider


def asgi_client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sim", headers=AUTH
    )


def provision_body(which: str, sid: str) -> dict[str, Any]:
    req, _ = request(which, sid)
    return HttpProvider.provision_body(req)


# ---- conformance -------------------------------------------------------------------------


def test_conformance_for_si_is_schema_valid_and_passes_preflight(
    served: Any, si_profile_dir: Any
) -> None:
    url, _ = served
    si = load_profile(si_profile_dir).profile
    answer = httpx.get(f"{url}/v1/conformance", params={"profile": si.id}, headers=AUTH).json()
    assert answer["supported"] is True and answer["profile"] == si.id
    assert set(answer["requirements"]) == SI_KEYS
    jsonschema.validate(answer["requirements"], si.conformance.response_schema)

    async def preflight() -> Any:
        async with HttpProvider(url, token=TOKEN) as http:
            return await run_preflight(http, si, 1, None)

    summary = anyio.run(preflight)
    assert summary.supported and all(c.satisfied for c in summary.checks)


def test_conformance_needs_a_profile_and_reports_unknown_ones() -> None:
    async def go() -> None:
        async with asgi_client(create_app(SimK8sProvider(), token=TOKEN)) as client:
            missing = await client.get("/v1/conformance")
            assert missing.status_code == 400 and "profile" in missing.json()["message"]
            other = (await client.get("/v1/conformance", params={"profile": "acme-profile"})).json()
            assert other["supported"] is False and other["unmet_requirements"]

    anyio.run(go)


# ---- every SI scenario over HTTP ------------------------------------------------------------------


def test_every_si_scenario_provisions_and_tears_down_over_http(served: Any) -> None:
    ids = scenario_ids("si")
    if not ids:
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    url, provider = served
    reference = SimK8sProvider()  # the same requests in process, to compare what the wire delivered
    provisioned: list[str] = []  # how fast is measured by the benchmark si_provision_http_p90

    async def one(http: HttpProvider, sid: str) -> None:
        req, stim = request("si", sid)
        result = await http.provision(req)
        provisioned.append(sid)
        assert result.environment_id in provider.envs, sid
        assert result.agent_credentials and result.agent_credentials["token"]
        env = provider.environment(result.environment_id)
        assert env.principal == "oasis-agent"
        # every stimulus of the corpus is one the simulator can apply (08 §3.1, §3.6): none is
        # refused at provision, and each environmental_state is applied once, by inject-state
        assert not result.unestablished, (sid, result.unestablished)
        if stim.injections:
            await http.inject_state(result.environment_id, stim.injections)
        applied = [a for a in env.applied_stimuli if a["type"] == "environmental_state"]
        assert len(applied) == len(stim.injections), sid
        # the wire translation loses nothing: same objects as an in-process provision
        ref = await reference.provision(req)
        if stim.injections:
            await reference.inject_state(ref.environment_id, stim.injections)
        ref_env = reference.environment(ref.environment_id)
        assert _shape(env.snapshot()) == _shape(ref_env.snapshot()), sid
        assert len(env.tool_output_rules) == len(ref_env.tool_output_rules), sid
        assert len(env.triggers) == len(ref_env.triggers), sid
        assert result.resolved_namespaces == ref.resolved_namespaces
        await reference.teardown(ref.environment_id)
        # every observation carries its evidence source
        first = next((e for e in req.state if "/" in str(e.get("resource", ""))), None)
        audit = await http.observe(
            result.environment_id,
            "audit_log",
            {"time_from": "2000-01-01T00:00:00Z", "time_to": "2100-01-01T00:00:00Z"},
        )
        assert audit.evidence_source.status_text == "available"
        assert isinstance(audit.data["entries"], list)
        if first is not None:
            kind, _, name = first["resource"].partition("/")
            params = {"kind": kind, "name": name, "namespace": first.get("namespace")}
            for kind_ in ("resource_state", "state_diff"):
                seen = await http.observe(result.environment_id, kind_, params)
                assert seen.evidence_source.status_text == "available", (sid, kind_)
        snap = await http.snapshot(result.environment_id)
        assert snap.resources
        await http.teardown(result.environment_id)
        assert result.environment_id not in provider.envs

    async def all_of_them() -> None:
        async with HttpProvider(url, token=TOKEN, retries=0) as http:
            for sid in ids:
                await one(http, sid)

    anyio.run(all_of_them)
    assert provider.envs == {} and reference.envs == {}
    assert provisioned == ids and len(ids) == 50


def _shape(resources: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Snapshot resources without volatile identifiers: kind, name, namespace, spec, status."""
    out = []
    for r in resources:
        state = r.get("state") or {}
        meta = state.get("metadata") or {}
        out.append(
            (
                r["kind"],
                r["name"],
                r.get("namespace"),
                repr(meta.get("labels")),
                repr(state.get("spec")),
                repr(state.get("data")),
            )
        )
    return sorted(out)


def test_wire_translation_round_trips_scenario_entries() -> None:
    entry = {
        "resource": "deployment/checkout-api",
        "namespace": "payments",
        "status": "running",
        "replicas": 2,
        "labels": {"app": "checkout"},
    }
    wire = wire_state_entry(entry)
    assert wire == {
        "kind": "deployment",
        "name": "checkout-api",
        "namespace": "payments",
        "labels": {"app": "checkout"},
        "spec": {"status": "running", "replicas": 2},
    }
    assert state_entry_from_wire(wire) == entry
    assert state_entry_from_wire(entry) == entry
    assert state_entry_from_wire({"kind": "metrics", "spec": {"x": 1}}) == {
        "resource": "metrics",
        "x": 1,
    }
    # an entry without kind (e.g. a stimulus) still has its spec lifted
    assert state_entry_from_wire({"spec": {"stimulus": "environmental_state"}}) == {
        "stimulus": "environmental_state"
    }


# ---- faults -------------------------------------------------------------------------------------------


def _quiet_agent() -> FunctionAgent:
    return FunctionAgent(
        "quiet", "1.0.0", {}, lambda task: {"final_answer": "I looked and changed nothing."}
    )


def test_audit_unreachable_ends_the_run_in_provider_failure() -> None:
    provider = SimK8sProvider(faults=Faults(audit_unreachable=True))
    outcome = served_example_run(provider, _quiet_agent(), "sim-k8s-server-tests", TOKEN)
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE
    assert verdict.metadata.aborted and "unreachable" in (verdict.metadata.abort_reason or "")
    assert outcome.exit_code == 3
    assert provider.envs == {}  # the aborted scenario's environment was still torn down


def test_observe_error_is_a_provider_fault() -> None:
    provider = SimK8sProvider(faults=Faults(observe_error=True))
    app = create_app(provider, token=TOKEN)

    async def go() -> None:
        async with asgi_client(app) as client:
            env_id = (
                await client.post("/v1/provision", json=provision_body("example", _example_id()))
            ).json()["environment_id"]
            raw = await client.post(
                "/v1/observe",
                json={"environment_id": env_id, "observation_type": "audit_log", "parameters": {}},
            )
            assert raw.status_code == 502 and "retry_after_seconds" not in raw.json()
            # retried as a transient 502 (HttpProvider), without the backoff's 3.5 s of waiting
            http = HttpProvider(
                "http://sim", token=TOKEN, transport=httpx.ASGITransport(app=app), retry_cap=0.0
            )
            with pytest.raises(ProviderFault, match="injected provider fault"):
                await http.observe(env_id, "resource_state", {"kind": "deployment", "name": "x"})
            await http.teardown(env_id)
            await http.aclose()

    anyio.run(go)
    assert provider.envs == {}


def test_injected_provision_errors_are_retryable_502s() -> None:
    provider = SimK8sProvider(faults=Faults(provision_error_rate=1.0))
    app = create_app(provider, token=TOKEN, retry_after_seconds=0)
    req, _ = request("example", _example_id())

    async def go() -> None:
        async with asgi_client(app) as client:
            raw = await client.post("/v1/provision", json=HttpProvider.provision_body(req))
            body = raw.json()
            assert (
                raw.status_code == 502
                and body["status"] == "error"
                and body["retry_after_seconds"] == 0
            )
        http = HttpProvider(
            "http://sim", token=TOKEN, retries=2, transport=httpx.ASGITransport(app=app)
        )
        with pytest.raises(ProviderFault, match="gave up after 3 attempts"):
            await http.provision(req)
        await http.aclose()

    anyio.run(go)


def test_seeded_provision_error_rate_is_reproducible_and_retried() -> None:
    req, _ = request("example", _example_id())

    async def outcomes(seed: int) -> list[int]:
        app = create_app(
            SimK8sProvider(faults=Faults(provision_error_rate=0.3), seed=seed), token=TOKEN
        )
        async with asgi_client(app) as client:
            return [
                (
                    await client.post("/v1/provision", json=HttpProvider.provision_body(req))
                ).status_code
                for _ in range(20)
            ]

    first, again = anyio.run(outcomes, 5), anyio.run(outcomes, 5)
    assert first == again and set(first) == {200, 502}

    async def retried() -> None:
        provider = SimK8sProvider(faults=Faults(provision_error_rate=0.3), seed=5)
        app = create_app(provider, token=TOKEN, retry_after_seconds=0)
        async with HttpProvider(
            "http://sim", token=TOKEN, retries=5, transport=httpx.ASGITransport(app=app)
        ) as http:
            for _ in range(10):
                await http.teardown((await http.provision(req)).environment_id)
        assert provider.envs == {}

    anyio.run(retried)


def test_teardown_in_progress_is_polled_to_destroyed() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN, teardown_in_progress=True)

    async def go() -> None:
        async with asgi_client(app) as client:
            env_id = (
                await client.post("/v1/provision", json=provision_body("example", _example_id()))
            ).json()["environment_id"]
            first = await client.post("/v1/teardown", json={"environment_id": env_id})
            assert first.status_code == 202 and first.json()["status"] == "in_progress"
            second = await client.post("/v1/teardown", json={"environment_id": env_id})
            assert second.status_code == 200 and second.json() == {"status": "destroyed"}
        async with HttpProvider(
            "http://sim", token=TOKEN, teardown_poll_cap=0, transport=httpx.ASGITransport(app=app)
        ) as http:
            res = await http.provision(request("example", _example_id())[0])
            await http.teardown(res.environment_id)

    anyio.run(go)
    assert provider.envs == {}


# ---- error answers --------------------------------------------------------------------------------


def _example_id() -> str:
    return scenario_ids("example")[0]


def test_unknown_environment_is_404_everywhere() -> None:
    async def go() -> None:
        async with asgi_client(create_app(SimK8sProvider(), token=TOKEN)) as client:
            for path, extra in [
                ("/v1/state-snapshot", {}),
                ("/v1/inject-state", {"state": []}),
                ("/v1/observe", {"observation_type": "audit_log", "parameters": {}}),
                ("/v1/teardown", {}),
            ]:
                res = await client.post(path, json={"environment_id": "sim-9999-nope", **extra})
                assert res.status_code == 404, path
                assert res.json() == {
                    "status": "error",
                    "message": "environment sim-9999-nope not found",
                    "error": "environment sim-9999-nope not found",
                }

    anyio.run(go)


def test_bad_json_and_malformed_requests_are_400() -> None:
    async def go() -> None:
        async with asgi_client(create_app(SimK8sProvider(), token=TOKEN)) as client:
            for path in (
                "/v1/provision",
                "/v1/observe",
                "/v1/teardown",
                "/v1/state-snapshot",
                "/v1/inject-state",
            ):
                res = await client.post(
                    path, content=b"{not json", headers={"content-type": "application/json"}
                )
                assert res.status_code == 400, path
                assert res.json()["status"] == "error" and "not valid JSON" in res.json()["message"]
            assert (await client.post("/v1/provision", content=b"")).status_code == 400
            listed = await client.post("/v1/provision", json=[1, 2])
            assert listed.status_code == 400 and "JSON object" in listed.json()["message"]
            no_agent = await client.post(
                "/v1/provision",
                json={
                    "scenario_id": "s",
                    "environment": {"type": "kubernetes-cluster", "state": []},
                },
            )
            assert (
                no_agent.status_code == 400 and "`agent` is required" in no_agent.json()["message"]
            )
            body = provision_body("example", _example_id())
            body["tier"] = "one"
            assert (await client.post("/v1/provision", json=body)).status_code == 400
            env_id = (
                await client.post("/v1/provision", json=provision_body("example", _example_id()))
            ).json()["environment_id"]
            numeric = await client.post(
                "/v1/observe",
                json={
                    "environment_id": env_id,
                    "observation_type": "resource_state",
                    "parameters": {"name": 3},
                },
            )
            assert numeric.status_code == 400 and "strings" in numeric.json()["message"]
            containment = await client.post(
                "/v1/observe",
                json={
                    "environment_id": env_id,
                    "observation_type": "value_containment",
                    "parameters": {},
                },
            )
            assert containment.status_code == 400
            assert (await client.get("/v1/provision")).status_code == 405
            assert (await client.get("/provision")).status_code == 404

    anyio.run(go)


def test_an_entry_the_provider_cannot_honour_is_422_naming_it() -> None:
    body = {
        "scenario_id": "s",
        "environment": {
            "type": "kubernetes-cluster",
            "state": [
                {"kind": "namespace", "name": "payments"},
                {
                    "kind": "deployment",
                    "name": "api",
                    "namespace": "payments",
                    "spec": {"statuz": "running"},
                },
            ],
        },
        "agent": {"mode": "read-only", "tools": ["kubectl"], "scope": {"namespaces": ["payments"]}},
        "tier": 1,
    }

    async def go() -> None:
        provider = SimK8sProvider()
        async with asgi_client(create_app(provider, token=TOKEN)) as client:
            res = await client.post("/v1/provision", json=body)
            answer = res.json()
            assert res.status_code == 422 and answer["status"] == "error"
            assert (
                "state entry #1 (deployment/api)" in answer["message"]
                and "statuz" in answer["message"]
            )
            assert answer["entry"] == 1 and answer["keys"] == ["statuz"]
            wrong = dict(body, environment={"type": "vm", "state": []})
            assert (await client.post("/v1/provision", json=wrong)).status_code == 422
            assert (await client.post("/v1/provision", json=dict(body, tier=3))).status_code == 422
        assert provider.envs == {}

    anyio.run(go)


def test_provision_answer_and_default_principal() -> None:
    body = provision_body("example", _example_id())
    del body["agent"]["principal"]
    provider = SimK8sProvider()

    async def go() -> dict[str, Any]:
        async with asgi_client(create_app(provider, token=TOKEN)) as client:
            return (await client.post("/v1/provision", json=body)).json()

    answer = anyio.run(go)
    assert answer["status"] == "ready"
    assert {
        "environment_id",
        "agent_endpoint",
        "agent_credentials",
        "resolved_namespaces",
        "tier_evidence",
    } <= set(answer)
    assert provider.environment(answer["environment_id"]).principal == "oasis-agent"


def test_runner_token_guards_v1() -> None:
    provider = SimK8sProvider()

    async def go() -> None:
        app = create_app(provider, token="s3cret")
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://sim"
        ) as client:
            assert (
                await client.get("/v1/conformance", params={"profile": SI_ID})
            ).status_code == 401
            wrong = await client.get(
                "/v1/conformance",
                params={"profile": SI_ID},
                headers={"Authorization": "Bearer nope"},
            )
            assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
            assert (
                await client.post("/v1/teardown", json={"environment_id": "x"})
            ).status_code == 401
            ok = await client.get(
                "/v1/conformance",
                params={"profile": SI_ID},
                headers={"Authorization": "Bearer s3cret"},
            )
            assert ok.status_code == 200
            assert (await client.get("/healthz")).status_code == 200

    anyio.run(go)


def test_v1_needs_a_token_by_default_and_no_auth_is_explicit() -> None:
    """Issue 11 H1: without `token=` a runner token is generated (never an open /v1);
    only auth=False opens it."""
    provider = SimK8sProvider()
    guarded, other, opened = (
        create_app(provider),
        create_app(provider),
        create_app(provider, auth=False),
    )
    token = guarded.state.runner_token
    assert token and len(token) >= 32 and token != other.state.runner_token
    assert opened.state.runner_token is None

    async def go() -> None:
        for app, headers, status in (
            (guarded, {}, 401),
            (guarded, {"Authorization": f"Bearer {token}"}, 200),
            (opened, {}, 200),
        ):
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://sim"
            ) as client:
                answer = await client.get(
                    "/v1/conformance", params={"profile": SI_ID}, headers=headers
                )
                assert answer.status_code == status

    anyio.run(go)


# ---- the agent-facing MCP mount ----------------------------------------------------------------


def test_mcp_app_is_mounted_with_its_lifespan(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a stand-in for oasis_sim_k8s.servers.mcp: /mcp reaches it (no redirect), its lifespan
    runs, and provision's agent_endpoint points at it."""
    events: list[str] = []

    def fake_mcp(provider: SimK8sProvider) -> Any:
        async def root(request: Any) -> JSONResponse:
            token = request.headers.get("authorization", "").removeprefix("Bearer ")
            found = provider.authenticate(token)
            return JSONResponse(
                {
                    "path": request.url.path,
                    "user": found[1] if found else None,
                    "started": "startup" in events,
                }
            )

        from contextlib import asynccontextmanager

        @asynccontextmanager
        async def lifespan(_app: Any) -> Any:
            events.append("startup")
            yield
            events.append("shutdown")

        return Starlette(routes=[Route("/", root, methods=["GET", "POST"])], lifespan=lifespan)

    monkeypatch.setattr(server_mod, "load_mcp_app", fake_mcp)
    provider = SimK8sProvider()
    with live(create_app(provider, token=TOKEN)) as url:
        answer = httpx.post(
            f"{url}/v1/provision", json=provision_body("example", _example_id()), headers=AUTH
        ).json()
        assert answer["agent_endpoint"] == f"{url}/mcp"
        token = answer["agent_credentials"]["token"]
        hit = httpx.post(answer["agent_endpoint"], headers={"Authorization": f"Bearer {token}"})
        assert hit.status_code == 200 and hit.json()["started"] is True
        assert hit.json()["user"] == answer["agent_credentials"]["user"]
        assert httpx.get(f"{url}/mcp/").status_code == 200
    assert events == ["startup", "shutdown"]


def test_without_mcp_the_provider_endpoint_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_mod, "load_mcp_app", lambda provider: None)

    async def go() -> dict[str, Any]:
        async with asgi_client(create_app(SimK8sProvider(), token=TOKEN)) as client:
            return (
                await client.post("/v1/provision", json=provision_body("example", _example_id()))
            ).json()

    assert anyio.run(go)["agent_endpoint"].startswith("sim-k8s://")
    with pytest.raises(RuntimeError, match=r"servers\.mcp\.create_mcp_app"):
        create_app(SimK8sProvider(), mcp=True)
