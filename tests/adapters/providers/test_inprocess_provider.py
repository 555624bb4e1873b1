"""InProcessProvider: sync and async objects, result validation, fault conversion."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import pytest

from oasis_eval.adapters.providers import InProcessProvider
from oasis_eval.contract import ProviderFault, ProvisionRequest
from oasis_eval.engine.preflight import PreflightError

REQUEST = ProvisionRequest(
    scenario_id="s-1",
    environment_type="kubernetes-cluster",
    state=[],
    mode="supervised",
    tools=[],
    principal="oasis-agent",
    tier=1,
)
OBSERVATION = {
    "environment_id": "e",
    "observation_type": "audit_log",
    "timestamp": "t",
    "data": {"entries": []},
    "evidence_source": {"type": "simulated_audit", "status": "available"},
}


class SyncImpl:
    def __init__(self) -> None:
        self.threads: list[str] = []
        self.closed = False

    def conformance(self, profile_id: str) -> dict[str, Any]:
        raise RuntimeError("config file missing")

    def provision(self, request: ProvisionRequest) -> dict[str, Any]:
        self.threads.append(threading.current_thread().name)
        return {"environment_id": f"env-{request.scenario_id}", "status": "ready", "extra": 1}

    def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> dict[str, Any]:
        return {k: v for k, v in OBSERVATION.items() if k != "evidence_source"}

    def teardown(self, environment_id: str) -> None:
        raise KeyError(environment_id)

    def close(self) -> None:
        self.closed = True


class AsyncImpl:
    async def conformance(self, profile_id: str) -> dict[str, Any]:
        return {
            "provider": "p",
            "provider_version": "1",
            "oasis_core_spec_versions": ["1.0.0"],
            "profile": profile_id,
            "profile_version": "1",
            "supported": True,
            "requirements": {},
        }

    async def provision(self, request: ProvisionRequest) -> dict[str, Any]:
        return {"status": "error", "error": "quota exceeded"}

    async def observe(self, *args: Any) -> dict[str, Any]:
        return OBSERVATION

    async def snapshot(self, environment_id: str, resources: Any) -> dict[str, Any]:
        return {"environment_id": environment_id, "resources": "not a list"}


def test_sync_methods_run_in_a_worker_thread_and_validate() -> None:
    impl = SyncImpl()
    provider = InProcessProvider(impl)
    result = anyio.run(provider.provision, REQUEST)
    assert result.environment_id == "env-s-1" and result.model_extra == {"extra": 1}
    assert impl.threads and impl.threads[0] != threading.main_thread().name
    anyio.run(provider.aclose)
    assert impl.closed


def test_unthreaded_sync_methods_run_on_the_loop() -> None:
    impl = SyncImpl()
    anyio.run(InProcessProvider(impl, threaded=False).provision, REQUEST)
    assert impl.threads == [threading.main_thread().name]


def test_exceptions_become_faults() -> None:
    provider = InProcessProvider(SyncImpl())
    with pytest.raises(ProviderFault, match=r"teardown of environment e-7.*KeyError"):
        anyio.run(provider.teardown, "e-7")
    with pytest.raises(PreflightError, match="config file missing"):
        anyio.run(provider.conformance, "prof")
    with pytest.raises(ProviderFault, match="no `inject_state` method"):
        anyio.run(provider.inject_state, "e", [])


def test_observation_without_evidence_source_is_fault() -> None:
    with pytest.raises(ProviderFault, match=r"no evidence_source \(05 §1.1\)"):
        anyio.run(InProcessProvider(SyncImpl()).observe, "e", "audit_log", {})
    obs = anyio.run(InProcessProvider(AsyncImpl()).observe, "e", "audit_log", {})
    assert obs.evidence_source.usable


def test_async_methods_and_error_results() -> None:
    provider = InProcessProvider(AsyncImpl())
    assert anyio.run(provider.conformance, "prof").profile == "prof"
    with pytest.raises(ProviderFault, match=r"s-1.*quota exceeded"):
        anyio.run(provider.provision, REQUEST)
    with pytest.raises(ProviderFault, match="malformed Snapshot"):
        anyio.run(provider.snapshot, "e", None)
    anyio.run(provider.aclose)  # no aclose/close on the object: nothing to do


# ---- timeouts (issue 11 H5) -------------------------------------------------------------------


class HangingImpl:
    """Every call hangs (async) or blocks (sync) until released; provision then succeeds."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.torn_down: list[str] = []

    async def conformance(self, profile_id: str) -> dict[str, Any]:
        await anyio.sleep(3600)
        return {}

    def provision(self, request: ProvisionRequest) -> dict[str, Any]:
        self.release.wait(30)
        return {"environment_id": "late-env"}

    async def observe(self, *args: Any) -> dict[str, Any]:
        await anyio.sleep(3600)
        return OBSERVATION

    def teardown(self, environment_id: str) -> None:
        self.torn_down.append(environment_id)


def test_a_hanging_call_is_a_provider_fault_and_a_hanging_preflight_a_preflight_error() -> None:
    impl = HangingImpl()
    provider = InProcessProvider(impl, timeout=0.1)

    async def go() -> None:
        with pytest.raises(
            ProviderFault,
            match=r"observe audit_log in environment e: .* did not answer within 0.1s",
        ):
            await provider.observe("e", "audit_log", {})
        with pytest.raises(PreflightError, match=r"did not answer within 0\.1s"):
            await provider.conformance("p")

    anyio.run(go)


def test_a_provision_that_completes_after_its_timeout_is_torn_down() -> None:
    impl = HangingImpl()
    provider = InProcessProvider(impl, timeouts={"provision": 0.1})
    assert provider.timeouts["observe"] == 300.0

    async def go() -> None:
        with pytest.raises(ProviderFault, match=r"did not answer within 0\.1s"):
            await provider.provision(REQUEST)

    anyio.run(go)
    impl.release.set()
    for _ in range(200):
        if impl.torn_down:
            break
        threading.Event().wait(0.01)
    assert impl.torn_down == ["late-env"]


@pytest.mark.parametrize(
    "bad",
    [
        {"timeout": 0},
        {"timeout": "soon"},
        {"timeouts": {"provison": 1}},
        {"timeouts": {"observe": -1}},
    ],
)
def test_bad_timeouts_are_config_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="timeout"):
        InProcessProvider(HangingImpl(), **bad)
