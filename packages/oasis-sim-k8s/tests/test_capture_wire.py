"""``oasis-capture`` end to end (issue 30): a served run reads everything after the agent in
one ``/v1/capture`` a scenario, a provider without it gets petri's calls, a wrong delta in
the capture is a PROVIDER_FAILURE, and the capture is the runner's alone (core §3.6)."""

from __future__ import annotations

import collections
from typing import Any

import httpx
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_lean import OFFERED
from oasis_eval.adapters.providers.http_wire import provision_wire_body
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent
from oasis_sim_k8s.provider import lean_wire
from oasis_sim_k8s.provider.petri_api import create_app
from tests.sim_k8s.support import live, request, served_example_run

SID = "k8s.capability.wo.in-scope-delete-001"
TOKEN = "runner-token-for-capture-tests"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    """The runner's exchanges by path (``capture``, ``observe``, ...)."""
    counts: collections.Counter[str] = collections.Counter()
    original = HttpProvider._exchange

    async def exchange(self: Any, req: Any) -> Any:
        counts[req.url.path.removeprefix("/v1/")] += 1
        return await original(self, req)

    monkeypatch.setattr(HttpProvider, "_exchange", exchange)
    return counts


def _served(counted: collections.Counter[str]) -> Any:
    outcome = served_example_run(SimK8sProvider(), BuiltinAgent("careful"), "capture-tests")
    assert counted["provision"] >= 3
    return outcome


def test_a_served_run_reads_after_the_agent_in_one_call(counted: Any) -> None:
    outcome = _served(counted)
    assert outcome.record.verdict.safety is VerdictStatus.PASS
    assert counted["capture"] == counted["provision"]  # one a scenario
    assert counted["state-snapshot"] == 0  # the precondition snapshot: in provision's answer
    assert counted["observe"] == 0


def test_a_provider_without_the_extension_gets_petris_calls(
    counted: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lean_wire, "SUPPORTED", tuple(e for e in OFFERED if e != "oasis-capture"))
    outcome = _served(counted)
    assert outcome.record.verdict.safety is VerdictStatus.PASS
    assert counted["capture"] == 0
    assert counted["state-snapshot"] == counted["provision"]  # the final (the first: folded)
    assert counted["observe"] >= counted["provision"]  # the audit log (served record folded in)


def test_a_wrong_delta_in_the_capture_is_a_provider_failure(
    counted: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delta that holds together (runs in order, in the base) but sends a stale copy of one
    kept resource as changed: only the digest of the whole list shows it."""
    real = lean_wire._delta

    def stale(base: list[Any], resources: list[Any]) -> dict[str, Any] | None:
        delta = real(base, resources)
        first = delta["segments"][0] if delta else None
        if isinstance(first, list):
            start, stop = first
            stale_copy = {**base[stop - 1], "timestamp_note": "stale"}
            delta["segments"][0:1] = [[start, stop - 1]] if stop - 1 > start else []
            delta["segments"].insert(
                1 if stop - 1 > start else 0, {"resource": stale_copy, "replaces": stop - 1}
            )
        return delta

    monkeypatch.setattr(lean_wire, "_delta", stale)
    provider = SimK8sProvider()
    outcome = served_example_run(provider, BuiltinAgent("careful"), "capture-tests")
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert "does not match the digest" in verdict.metadata.abort_reason
    assert provider.envs == {}


def test_the_capture_is_the_runners_alone() -> None:
    """An agent's token on ``/v1/capture`` is refused and audited as its attempt; the runner
    gets a 400 for an environment that did not accept the extension."""
    provider = SimK8sProvider()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with live(create_app(provider, token=TOKEN)) as url, httpx.Client(base_url=url) as client:
        body = provision_wire_body(request("example", SID)[0])
        lean = client.post("/v1/provision", json={**body, "wire_extensions": list(OFFERED)},
                           headers=auth).json()  # fmt: skip
        assert "oasis-capture" in lean["wire_extensions"]
        env = {"environment_id": lean["environment_id"], "audit_log": {"parameters": {}}}
        agent = {"Authorization": f"Bearer {lean['agent_credentials']['token']}"}
        assert client.post("/v1/capture", json=env, headers=agent).status_code == 403
        got = client.post("/v1/capture", json=env, headers=auth).json()
        entries = got["audit_log"]["data"]["entries"]
        assert any(e.get("requestURI") == "/v1/capture" for e in entries)  # the agent's attempt
        assert set(got) == {"environment_id", "audit_log", "resource_state", "snapshot"}
        petri = client.post("/v1/provision", json=body, headers=auth).json()
        plain = {**env, "environment_id": petri["environment_id"]}
        refused = client.post("/v1/capture", json=plain, headers=auth)
        assert refused.status_code == 400 and "oasis-capture" in refused.json()["message"]
