"""HttpProvider against a fake petri server: wire shapes, retries, faults."""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pytest

from oasis_eval.adapters.providers import (
    HttpProvider,
    InProcessProvider,
    known_provider_types,
    provider_from_config,
    wire_state_entry,
)
from oasis_eval.adapters.providers.http_lean import OFFERED
from oasis_eval.contract import HarnessFault, ProviderFault, ProvisionRequest
from oasis_eval.engine.preflight import PreflightError

CONFORMANCE = {
    "provider": "petri",
    "provider_version": "0.2.0",
    "oasis_core_spec_versions": ["1.0.0-rc1.5"],
    "profile": "oasis-eval-example-k8s",
    "profile_version": "0.1.0",
    "supported": True,
    "requirements": {"environment_type": "kubernetes-cluster"},
    "unmet_requirements": None,
}

OBSERVATION = {
    "environment_id": "env-1",
    "observation_type": "audit_log",
    "timestamp": "2025-01-01T00:00:00Z",
    "data": {"entries": []},
    "evidence_source": {"type": "audit_log_file", "status": "available"},
}


def run(coro_fn: Any, *args: Any) -> Any:
    return anyio.run(coro_fn, *args)


def provider(url: str, **kw: Any) -> HttpProvider:
    kw.setdefault("retry_cap", 0.0)
    kw.setdefault("teardown_poll_cap", 0.0)
    return HttpProvider(url, **kw)


def request(**overrides: Any) -> ProvisionRequest:
    data: dict[str, Any] = {
        "scenario_id": "si-bv-001",
        "environment_type": "kubernetes-cluster",
        "state": [
            {
                "resource": "deployment/checkout-api",
                "namespace": "payments",
                "status": "running",
                "replicas": 2,
            },
            {
                "resource": "configmap/api-config",
                "namespace": "payments",
                "zone": "prod",
                "labels": {"app": "api"},
                "annotations": {"note": "x"},
                "data": {"MAX": "10"},
            },
            {"resource": "namespace/payments"},
        ],
        "mode": "supervised",
        "tools": ["container-orchestration"],
        "scope": {"namespaces": ["payments"], "zones": ["prod"]},
        "principal": "oasis-agent",
        "tier": 2,
    }
    data.update(overrides)
    return ProvisionRequest.model_validate(data)


# ---- wire shapes ------------------------------------------------------------------


def test_provision_sends_exact_wire_body_and_bearer(petri: Any) -> None:
    petri.script(
        "/v1/provision",
        (
            200,
            {
                "environment_id": "env-1",
                "agent_endpoint": "https://127.0.0.1:6443",
                "agent_credentials": {
                    "type": "kubeconfig",
                    "kubeconfig": "k",
                    "token": "t",
                    "namespace": "payments",
                },
                "status": "ready",
                "resolved_namespaces": {"payments": "payments-a1b2"},
                "tier_evidence": {"nodes": 3},
            },
        ),
    )

    async def go() -> Any:
        async with provider(petri.url, token="s3cret") as p:
            return await p.provision(request())

    result = run(go)
    (call,) = petri.calls("/v1/provision")
    assert call.method == "POST"
    assert call.headers["authorization"] == "Bearer s3cret"
    body = dict(call.body)
    # an extra field petri ignores: what a timed-out provision is torn down by
    assert len(body.pop("request_id")) == 32
    # another: the leaner wire's offer (http_lean), unused as this answer does not accept it
    assert body.pop("wire_extensions") == list(OFFERED)
    assert body == {
        "scenario_id": "si-bv-001",
        "environment": {
            "type": "kubernetes-cluster",
            "state": [
                {
                    "kind": "deployment",
                    "name": "checkout-api",
                    "namespace": "payments",
                    "spec": {"status": "running", "replicas": 2},
                },
                {
                    "kind": "configmap",
                    "name": "api-config",
                    "namespace": "payments",
                    "zone": "prod",
                    "labels": {"app": "api"},
                    "annotations": {"note": "x"},
                    "data": {"MAX": "10"},
                },
                {"kind": "namespace", "name": "payments"},
            ],
        },
        "agent": {
            "mode": "supervised",
            "tools": ["container-orchestration"],
            "scope": {"namespaces": ["payments"], "zones": ["prod"]},
            "principal": "oasis-agent",
        },
        "tier": 2,
    }
    assert "stimuli" not in call.body
    assert result.environment_id == "env-1"
    assert result.resolved_namespaces == {"payments": "payments-a1b2"}
    assert result.tier_evidence == {"nodes": 3}
    assert result.agent_credentials and result.agent_credentials["type"] == "kubeconfig"


def test_provision_carries_provider_stimuli_only_when_present(petri: Any) -> None:
    petri.script(
        "/v1/provision",
        (200, {"environment_id": "env-2", "status": "ready", "resolved_namespaces": None}),
    )
    stimulus = {
        "type": "temporal_condition",
        "timing": "after_first_tool_call",
        "description": "pod crashes",
    }

    async def go() -> Any:
        async with provider(petri.url) as p:
            return await p.provision(request(provider_stimuli=[stimulus], scope={}))

    result = run(go)
    body = petri.calls("/v1/provision")[0].body
    assert body["stimuli"] == [stimulus]
    assert body["agent"]["scope"] == {"namespaces": [], "zones": []}
    assert "authorization" not in petri.calls("/v1/provision")[0].headers
    assert result.resolved_namespaces == {}


def test_wire_state_entry_merges_explicit_spec_and_keeps_kind_name() -> None:
    assert wire_state_entry({"kind": "Pod", "name": "p", "spec": {"a": 1}, "b": 2}) == {
        "kind": "Pod",
        "name": "p",
        "spec": {"a": 1, "b": 2},
    }
    assert wire_state_entry({"resource": "deployment/a/b", "replicas": 0}) == {
        "kind": "deployment",
        "name": "a/b",
        "spec": {"replicas": 0},
    }


def test_inject_state_and_snapshot_use_wire_shapes(petri: Any) -> None:
    petri.script("/v1/inject-state", (200, {"status": "applied"}))
    petri.script(
        "/v1/state-snapshot",
        (
            200,
            {
                "environment_id": "env-1",
                "timestamp": "t",
                "resources": [
                    {"kind": "deployment", "name": "a", "namespace": "n", "state": {"replicas": 1}}
                ],
            },
        ),
    )

    async def go() -> Any:
        async with provider(petri.url) as p:
            await p.inject_state(
                "env-1", [{"resource": "pod/x", "namespace": "n", "status": "CrashLoopBackOff"}]
            )
            return await p.snapshot("env-1", [{"resource": "deployment/a", "namespace": "n"}])

    snap = run(go)
    assert petri.calls("/v1/inject-state")[0].body == {
        "environment_id": "env-1",
        "state": [
            {"kind": "pod", "name": "x", "namespace": "n", "spec": {"status": "CrashLoopBackOff"}}
        ],
    }
    assert petri.calls("/v1/state-snapshot")[0].body == {
        "environment_id": "env-1",
        "resources": [{"kind": "deployment", "name": "a", "namespace": "n"}],
    }
    assert snap.resources[0]["state"] == {"replicas": 1}


def test_inject_state_error_status_is_fault(petri: Any) -> None:
    petri.script("/v1/inject-state", (200, {"status": "error", "message": "unknown kind widget"}))

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.inject_state("env-1", [{"resource": "widget/x"}])

    with pytest.raises(ProviderFault, match="unknown kind widget"):
        run(go)


# ---- provision errors and retries -------------------------------------------------------


def test_provision_error_status_is_provider_fault(petri: Any) -> None:
    petri.script(
        "/v1/provision", (200, {"status": "error", "error": "nodes cannot be provisioned"})
    )

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.provision(request())

    with pytest.raises(ProviderFault) as info:
        run(go)
    assert "nodes cannot be provisioned" in str(info.value)
    assert "si-bv-001" in str(info.value)
    assert isinstance(info.value, HarnessFault)


def test_409_then_success_retries_after_retry_after(petri: Any) -> None:
    petri.script(
        "/v1/provision",
        (
            409,
            {
                "status": "error",
                "message": "namespace payments still terminating",
                "retry_after_seconds": 5,
            },
        ),
        (200, {"environment_id": "env-3", "status": "ready"}),
    )
    slept: list[float] = []

    async def go() -> Any:
        async with HttpProvider(petri.url, retries=2, retry_cap=1.5) as p:

            async def fake_sleep(seconds: float) -> None:
                slept.append(seconds)

            p._sleep = fake_sleep  # type: ignore[method-assign]
            return await p.provision(request())

    result = run(go)
    assert result.environment_id == "env-3"
    assert len(petri.calls("/v1/provision")) == 2
    assert slept == [1.5]  # retry_after_seconds 5, capped at 1.5


def test_502_forever_gives_up_after_retries(petri: Any) -> None:
    petri.script(
        "/v1/provision",
        (
            502,
            {
                "status": "error",
                "message": "image pull failed",
                "reason": "ErrImagePull",
                "retry_after_seconds": 1,
            },
        ),
    )

    async def go() -> None:
        async with provider(petri.url, retries=2) as p:
            await p.provision(request())

    with pytest.raises(ProviderFault) as info:
        run(go)
    message = str(info.value)
    assert len(petri.calls("/v1/provision")) == 3
    assert "provision of scenario si-bv-001" in message
    assert "3 attempts" in message and "502" in message and "ErrImagePull" in message


def test_409_without_retry_after_is_not_retried(petri: Any) -> None:
    petri.script("/v1/provision", (409, {"status": "error", "message": "conflict"}))

    async def go() -> None:
        async with provider(petri.url, retries=3) as p:
            await p.provision(request())

    with pytest.raises(ProviderFault, match="HTTP 409: conflict"):
        run(go)
    assert len(petri.calls("/v1/provision")) == 1


def test_404_not_found_is_fault(petri: Any) -> None:
    petri.script(
        "/v1/observe", (404, {"status": "error", "message": "environment env-9 not found"})
    )

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.observe("env-9", "audit_log", {})

    with pytest.raises(ProviderFault, match=r"404.*env-9 not found"):
        run(go)


def test_non_json_500_is_fault_with_text(petri: Any) -> None:
    petri.script("/v1/teardown", (500, "kaboom"))

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.teardown("env-1")

    with pytest.raises(ProviderFault, match="HTTP 500: kaboom"):
        run(go)


# ---- observe ---------------------------------------------------------------------


def test_observe_without_evidence_source_is_fault(petri: Any) -> None:
    body = {k: v for k, v in OBSERVATION.items() if k != "evidence_source"}
    petri.script("/v1/observe", (200, body))

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.observe("env-1", "audit_log", {})

    with pytest.raises(
        ProviderFault, match=r"observation response has no evidence_source \(05 §1.1\)"
    ):
        run(go)


def test_observe_converts_parameters_to_strings(petri: Any) -> None:
    petri.script("/v1/observe", (200, OBSERVATION))
    when = dt.datetime(2025, 1, 1, 12, 0, 0, tzinfo=dt.UTC)

    async def go() -> Any:
        async with provider(petri.url) as p:
            return await p.observe(
                "env-1",
                "audit_log",
                {
                    "time_from": when,
                    "limit": 5,
                    "denied": True,
                    "namespace": "payments",
                    "verb": None,
                },
            )

    obs = run(go)
    sent = petri.calls("/v1/observe")[0].body
    assert sent == {
        "environment_id": "env-1",
        "observation_type": "audit_log",
        "parameters": {
            "time_from": "2025-01-01T12:00:00Z",
            "limit": "5",
            "denied": "true",
            "namespace": "payments",
        },
    }
    assert obs.evidence_source.usable
    assert obs.data == {"entries": []}


def test_observe_unreachable_status_is_returned_not_hidden(petri: Any) -> None:
    body = dict(OBSERVATION, evidence_source={"type": "kube_api", "status": "unreachable"})
    petri.script("/v1/observe", (200, body))

    async def go() -> Any:
        async with provider(petri.url) as p:
            return await p.observe("env-1", "resource_state", {"kind": "deployment"})

    assert not run(go).evidence_source.usable


# ---- teardown --------------------------------------------------------------------


def test_teardown_polls_202_until_destroyed(petri: Any) -> None:
    petri.script(
        "/v1/teardown",
        (202, {"status": "in_progress", "estimated_remaining_seconds": 3}),
        (202, {"status": "in_progress", "estimated_remaining_seconds": 1}),
        (200, {"status": "destroyed"}),
    )

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.teardown("env-1")

    run(go)
    calls = petri.calls("/v1/teardown")
    assert len(calls) == 3
    assert all(c.body == {"environment_id": "env-1"} for c in calls)


def test_teardown_in_progress_forever_is_fault(petri: Any) -> None:
    petri.script("/v1/teardown", (202, {"status": "in_progress", "estimated_remaining_seconds": 1}))

    async def go() -> None:
        async with provider(petri.url, teardown_polls=4) as p:
            await p.teardown("env-1")

    with pytest.raises(ProviderFault, match="not destroyed after 4 teardown attempts"):
        run(go)
    assert len(petri.calls("/v1/teardown")) == 4


def test_teardown_404_after_202_counts_as_destroyed(petri: Any) -> None:
    petri.script(
        "/v1/teardown",
        (202, {"status": "in_progress"}),
        (404, {"status": "error", "message": "environment env-1 not found"}),
    )

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.teardown("env-1")

    run(go)
    assert len(petri.calls("/v1/teardown")) == 2


# ---- transport --------------------------------------------------------------------


def test_connection_refused_is_fault_naming_the_call(free_port_url: str) -> None:
    async def go() -> None:
        async with provider(free_port_url, timeout=2) as p:
            await p.provision(request())

    with pytest.raises(ProviderFault) as info:
        run(go)
    assert "provision of scenario si-bv-001" in str(info.value)
    assert "cannot reach provider" in str(info.value)


def test_timeout_is_fault(petri: Any) -> None:
    import time

    original = petri.next_response

    def slow(path: str) -> Any:
        time.sleep(0.5)
        return original(path)

    petri.next_response = slow
    petri.script("/v1/observe", (200, OBSERVATION))

    async def go() -> None:
        async with provider(petri.url, timeout=0.1) as p:
            await p.observe("env-1", "audit_log", {})

    with pytest.raises(ProviderFault, match=r"did not answer .* within 0\.1s"):
        run(go)


# ---- conformance -----------------------------------------------------------------


def test_conformance_parses_and_sends_profile_query(petri: Any) -> None:
    petri.script("/v1/conformance", (200, dict(CONFORMANCE, simulated=True)))

    async def go() -> Any:
        async with provider(petri.url, token="tok") as p:
            return await p.conformance("oasis-eval-example-k8s")

    response = run(go)
    call = petri.calls("/v1/conformance")[0]
    assert call.method == "GET"
    assert call.query == {"profile": ["oasis-eval-example-k8s"]}
    assert call.headers["authorization"] == "Bearer tok"
    assert response.provider == "petri" and response.supported
    assert response.model_extra == {"simulated": True}


def test_conformance_unreachable_is_preflight_error(free_port_url: str) -> None:
    async def go() -> None:
        async with provider(free_port_url, timeout=2) as p:
            await p.conformance("oasis-eval-example-k8s")

    with pytest.raises(PreflightError) as info:
        run(go)
    assert not isinstance(info.value, HarnessFault)
    assert "cannot reach the provider conformance endpoint" in str(info.value)
    assert "/v1/conformance" in str(info.value)


def test_conformance_404_is_preflight_error(petri: Any) -> None:
    async def go() -> None:
        async with provider(petri.url) as p:
            await p.conformance("oasis-eval-example-k8s")

    with pytest.raises(PreflightError, match=r"HTTP 404.*must implement GET /v1/conformance"):
        run(go)


def test_conformance_malformed_names_the_field(petri: Any) -> None:
    petri.script("/v1/conformance", (200, dict(CONFORMANCE, supported="perhaps")))

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.conformance("oasis-eval-example-k8s")

    with pytest.raises(PreflightError, match="field `supported`"):
        run(go)


def test_conformance_without_requirements_is_malformed(petri: Any) -> None:
    """08 §3.8.2: the response carries its `requirements` map; a missing one is not `{}`."""
    body = {k: v for k, v in CONFORMANCE.items() if k != "requirements"}
    petri.script("/v1/conformance", (200, body))

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.conformance("oasis-eval-example-k8s")

    with pytest.raises(PreflightError, match="field `requirements`"):
        run(go)


# ---- configuration -----------------------------------------------------------------


def test_provider_from_config_http_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    p = provider_from_config("http://127.0.0.1:9/")
    assert isinstance(p, HttpProvider) and p.base_url == "http://127.0.0.1:9"
    monkeypatch.setenv("PETRI_TEST_TOKEN", "abc")
    q = provider_from_config(
        {"type": "http", "url": "http://x", "token_env": "PETRI_TEST_TOKEN", "retries": 1}
    )
    assert isinstance(q, HttpProvider) and q.retries == 1
    assert q._headers["authorization"] == "Bearer abc"
    run(p.aclose)
    run(q.aclose)


def test_token_env_may_name_the_default_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: ``token_env: OASIS_PROVIDER_TOKEN`` is that variable's value, although the
    variable itself leaves the environment before the spec is read."""
    import os

    from oasis_eval import secrecy

    monkeypatch.setenv("OASIS_PROVIDER_TOKEN", "the-default-one")
    p = provider_from_config(
        {"type": "http", "url": "http://x", "token_env": "OASIS_PROVIDER_TOKEN"}
    )
    assert p._headers["authorization"] == "Bearer the-default-one"
    assert "OASIS_PROVIDER_TOKEN" not in os.environ
    # read once and kept for this process (issue 25, oasis_eval.secrecy): a second provider
    # (a second evaluate()) gets the same token; once forgotten, the variable is not set
    again = provider_from_config(
        {"type": "http", "url": "http://x", "token_env": "OASIS_PROVIDER_TOKEN"}
    )
    assert again._headers["authorization"] == "Bearer the-default-one"
    secrecy.forget()
    with pytest.raises(ValueError, match="OASIS_PROVIDER_TOKEN is not set"):
        provider_from_config(
            {"type": "http", "url": "http://x", "token_env": "OASIS_PROVIDER_TOKEN"}
        )
    run(p.aclose)
    run(again.aclose)


class _PyImpl:
    def __init__(self, label: str = "default") -> None:
        self.label = label

    def conformance(self, profile_id: str) -> dict[str, Any]:
        return dict(CONFORMANCE, profile=profile_id, provider=self.label)

    def provision(self, request: Any) -> dict[str, Any]:
        return {"environment_id": "x"}

    def observe(self, *args: Any) -> dict[str, Any]:
        return OBSERVATION

    def teardown(self, environment_id: str) -> None:
        return None


def test_provider_from_config_python_object() -> None:
    p = provider_from_config(
        {"type": "python", "object": f"{__name__}:_PyImpl", "options": {"label": "mine"}}
    )
    assert isinstance(p, InProcessProvider)
    assert run(p.conformance, "prof").provider == "mine"


def test_unknown_provider_type_lists_known_types() -> None:
    with pytest.raises(ValueError) as info:
        provider_from_config({"type": "carrier-pigeon"})
    assert "carrier-pigeon" in str(info.value)
    assert "http" in str(info.value) and "python" in str(info.value)
    assert known_provider_types()[:2] == ["http", "python"]
    with pytest.raises(ValueError, match="not an http"):
        provider_from_config("petri.local:8080")


def test_the_runner_token_comes_from_a_file_or_the_default_variable_and_leaves_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Issue 11 H1: the token of `oasis provider serve` reaches the runner, and a variable it
    was read from is removed so agent processes started later cannot inherit it."""
    import os

    token_file = tmp_path / "token"
    token_file.write_text("from-file\n")
    by_file = provider_from_config(
        {"type": "http", "url": "http://x", "token_file": str(token_file)}
    )
    assert by_file._headers["authorization"] == "Bearer from-file"
    monkeypatch.setenv("OASIS_PROVIDER_TOKEN", "from-env")
    by_env = provider_from_config("http://x")
    assert by_env._headers["authorization"] == "Bearer from-env"
    assert "OASIS_PROVIDER_TOKEN" not in os.environ
    monkeypatch.setenv("PETRI_TEST_TOKEN", "named")
    provider_from_config({"type": "http", "url": "http://x", "token_env": "PETRI_TEST_TOKEN"})
    assert "PETRI_TEST_TOKEN" not in os.environ
    with pytest.raises(ValueError, match="cannot read the provider token file"):
        provider_from_config(
            {"type": "http", "url": "http://x", "token_file": str(tmp_path / "missing")}
        )
    for p in (by_file, by_env):
        run(p.aclose)


def test_a_timed_out_provision_asks_for_teardown_by_its_request_id(petri: Any) -> None:
    """A provision whose outcome is unknown (no answer) is abandoned by request id; one the
    provider refused outright is not (nothing to tear down)."""
    import time as _time

    petri.script("/v1/provision", (422, {"status": "error", "message": "no"}))

    async def refused() -> None:
        async with provider(petri.url) as p:
            with pytest.raises(ProviderFault, match="HTTP 422"):
                await p.provision(request())

    run(refused)
    assert petri.calls("/v1/teardown") == []

    def slow() -> tuple[int, dict[str, Any]]:
        _time.sleep(1.0)
        return 200, {"environment_id": "late"}

    petri.script("/v1/provision", slow)

    async def timed_out() -> None:
        async with HttpProvider(petri.url, timeout=0.2, retries=0) as p:
            with pytest.raises(ProviderFault, match="did not answer"):
                await p.provision(request())

    run(timed_out)
    (provision_call, *_) = petri.calls("/v1/provision")[-1:]
    (teardown_call,) = petri.calls("/v1/teardown")
    assert teardown_call.body == {"request_id": provision_call.body["request_id"]}


def test_a_refused_preflight_says_how_to_give_the_runner_token(petri: Any) -> None:
    petri.script(
        "/v1/conformance", (401, {"status": "error", "message": "missing or wrong bearer token"})
    )

    async def go() -> None:
        async with provider(petri.url) as p:
            await p.conformance("oasis-eval-example-k8s")

    with pytest.raises(
        PreflightError, match=r"HTTP 401: missing or wrong bearer token .*OASIS_PROVIDER_TOKEN"
    ):
        run(go)


# ---- transient faults retried (issue 17 item 2) ------------------------------------------


def test_a_503_then_success_is_retried_after_its_retry_after_header(petri: Any) -> None:
    petri.script(
        "/v1/observe",
        (503, {"status": "error", "message": "busy"}, {"Retry-After": "0.2"}),
        (200, OBSERVATION),
    )

    async def go() -> Any:
        async with HttpProvider(petri.url, retries=2, retry_base_wait=0.01) as p:
            started = anyio.current_time()
            observed = await p.observe("env-1", "audit_log", {})
            return observed, anyio.current_time() - started

    observed, waited = run(go)
    assert observed.evidence_source.usable
    assert len(petri.calls("/v1/observe")) == 2
    assert waited >= 0.2  # the server's Retry-After, not the 10 ms base wait


@pytest.mark.parametrize("status", [500, 502, 504, 408])
def test_safe_calls_retry_5xx_and_408_with_backoff(petri: Any, status: int) -> None:
    petri.script("/v1/state-snapshot", (status, "flaky"), (200, {"resources": []}))

    async def go() -> Any:
        async with HttpProvider(petri.url, retries=1, retry_base_wait=0.01) as p:
            return await p.snapshot("env-1")

    assert run(go).resources == []
    assert len(petri.calls("/v1/state-snapshot")) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_4xx_other_than_429_are_not_retried(petri: Any, status: int) -> None:
    petri.script("/v1/observe", (status, {"status": "error", "message": "no"}))

    async def go() -> None:
        async with HttpProvider(petri.url, retries=3, retry_base_wait=0.01) as p:
            await p.observe("env-1", "audit_log", {})

    with pytest.raises(ProviderFault, match=f"HTTP {status}: no"):
        run(go)
    assert len(petri.calls("/v1/observe")) == 1


def test_provision_retries_only_what_proves_nothing_was_provisioned(petri: Any) -> None:
    """429 and 503 mean "not taken": retried. A 500 may have half-provisioned: not repeated
    (a second environment could be created), abandoned by its request id instead."""
    petri.script(
        "/v1/provision",
        (429, {"status": "error", "message": "slow down"}, {"retry-after-ms": "10"}),
        (503, {"status": "error", "message": "starting"}),
        (200, {"environment_id": "env-7", "status": "ready"}),
    )
    petri.script("/v1/teardown", (200, {"status": "destroyed"}))

    async def go(retries: int = 3) -> Any:
        async with HttpProvider(petri.url, retries=retries, retry_base_wait=0.01) as p:
            return await p.provision(request())

    assert run(go).environment_id == "env-7"
    calls = petri.calls("/v1/provision")
    assert len(calls) == 3
    assert len({c.body["request_id"] for c in calls}) == 1, "one request id for every attempt"

    petri.script("/v1/provision", (500, {"status": "error", "message": "half done"}))
    with pytest.raises(ProviderFault, match="HTTP 500: half done"):
        run(go)
    assert len(petri.calls("/v1/provision")) == 4
    [abandon] = petri.calls("/v1/teardown")
    assert abandon.body == {"request_id": petri.calls("/v1/provision")[-1].body["request_id"]}


def test_a_retried_teardown_answered_404_is_destroyed(petri: Any) -> None:
    petri.script(
        "/v1/teardown",
        (503, {"status": "error", "message": "busy"}),
        (404, {"status": "error", "message": "environment env-1 not found"}),
    )

    async def go() -> None:
        async with HttpProvider(petri.url, retries=2, retry_base_wait=0.01) as p:
            await p.teardown("env-1")

    run(go)
    assert len(petri.calls("/v1/teardown")) == 2


def test_conformance_is_retried_too(petri: Any) -> None:
    petri.script("/v1/conformance", (502, "bad gateway"), (200, CONFORMANCE))

    async def go() -> Any:
        async with HttpProvider(petri.url, retries=1, retry_base_wait=0.01) as p:
            return await p.conformance("oasis-eval-example-k8s")

    assert run(go).supported
    assert len(petri.calls("/v1/conformance")) == 2


def test_audit_request_bodies_decode_as_json_decodes_them() -> None:
    """petri's JSON-encoded request bodies, decoded by pydantic-core's parser (issue 30), give
    what ``json.loads`` gives: odd numbers, a lone surrogate escape (which that parser
    refuses), and a body that is not JSON (kept as the string it is)."""
    import json

    from oasis_eval.adapters.providers.http_wire import audit_data_from_wire

    bodies = [
        '{"spec": {"replicas": 3}, "x": [1e400, -0.0, 12345678901234567890123, 2.50]}',
        '{"note": "\\ud800 alone", "n": NaN}',
        '{"a": 1} trailing',
        "not json",
        '"just a string"',
    ]
    entries = [{"verb": "patch", "request_body": b} for b in bodies]
    decoded = audit_data_from_wire({"entries": entries})["entries"]
    assert len(decoded) == len(bodies)
    for entry, body in zip(decoded, bodies, strict=True):
        try:
            expected = json.loads(body)
        except ValueError:
            expected = body
        assert repr(entry["request_body"]) == repr(expected)
