"""``oasis-provision-snapshot`` end to end (issue 30): provision's answer carries the
precondition snapshot, which is exactly what the separate ``/v1/state-snapshot`` returns; a
served run then makes three exchanges a scenario, its evidence unchanged; a provider without
the extension gets the separate call; a folded snapshot that does not hold is a
PROVIDER_FAILURE (core §3.7)."""

from __future__ import annotations

import collections
from typing import Any

import httpx
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_lean import OFFERED, PROVISION_SNAPSHOT
from oasis_eval.adapters.providers.http_wire import provision_wire_body
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent
from oasis_sim_k8s.provider import lean_wire
from oasis_sim_k8s.provider.petri_api import create_app
from tests.sim_k8s.support import live, request, scenario_ids, served_example_run

TOKEN = "runner-token-for-provision-snapshot-tests"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    """The runner's exchanges by path (``provision``, ``state-snapshot``, ...)."""
    counts: collections.Counter[str] = collections.Counter()
    original = HttpProvider._exchange

    async def exchange(self: Any, req: Any) -> Any:
        counts[req.url.path.removeprefix("/v1/")] += 1
        return await original(self, req)

    monkeypatch.setattr(HttpProvider, "_exchange", exchange)
    return counts


def _without_folding(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server as it was before the extension (petri's separate call)."""
    kept = tuple(e for e in lean_wire.SUPPORTED if e != PROVISION_SNAPSHOT)
    monkeypatch.setattr(lean_wire, "SUPPORTED", kept)


#: what differs between any two runs (ids, tokens, the wall-clock window, the agent's time)
VOLATILE = {"environment_id", "agent_endpoint", "agent_seconds"}


def _evidence(outcome: Any) -> dict[str, Any]:
    """Each scenario's snapshots, provision and transcript as stored (what differs between
    any two runs aside)."""
    out = {}
    for sid, evidence in sorted(outcome.evidence.items()):
        dumped = evidence.model_dump(mode="json")
        provision = {k: v for k, v in dumped["provision"].items() if k not in VOLATILE}
        kept = ("precondition_snapshot", "final_snapshot", "transcript", "stimuli", "fault")
        out[sid] = {"provision": provision, **{k: dumped[k] for k in kept}}
    return out


@pytest.mark.parametrize("which", ["example", "si"])
def test_the_folded_snapshot_is_what_the_separate_call_answers(which: str) -> None:
    """For every scenario: provision's ``state_snapshot`` and a ``/v1/state-snapshot`` asked
    right after it hold the same resources (the snapshot is the state at provision's end)."""
    ids = scenario_ids(which)
    if not ids:
        pytest.skip("the SI profile is not available (OASIS_SPEC_DIR)")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with (
        live(create_app(SimK8sProvider(), token=TOKEN)) as url,
        httpx.Client(base_url=url, timeout=60) as c,
    ):
        folded = 0
        for sid in ids:
            body = {**provision_wire_body(request(which, sid)[0]), "wire_extensions": list(OFFERED)}
            answer = c.post("/v1/provision", json=body, headers=auth).json()
            assert PROVISION_SNAPSHOT in answer["wire_extensions"]
            env = {"environment_id": answer["environment_id"]}
            if answer.get("unestablished"):
                assert "state_snapshot" not in answer  # no snapshot follows a skipped scenario
            else:
                asked = c.post("/v1/state-snapshot", json=env, headers=auth).json()
                snap = answer["state_snapshot"]
                assert snap["environment_id"] == answer["environment_id"]
                assert snap["resources"] == asked["resources"] and snap["resources"]
                assert snap["snapshot_id"] == "1" and asked["snapshot_id"] == "2"  # a base each
                folded += 1
            c.post("/v1/teardown", json=env, headers=auth)
        assert folded >= len(ids) // 2


def test_a_served_run_makes_three_exchanges_a_scenario_with_the_same_evidence(
    counted: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    folded = served_example_run(SimK8sProvider(), BuiltinAgent("careful"), "folded")
    assert folded.record.verdict.safety is VerdictStatus.PASS
    assert counted["provision"] >= 3 and counted["state-snapshot"] == 0
    assert counted["capture"] == counted["teardown"] == counted["provision"]
    counted.clear()
    _without_folding(monkeypatch)
    separate = served_example_run(SimK8sProvider(), BuiltinAgent("careful"), "folded")
    assert counted["state-snapshot"] == counted["provision"]  # the precondition snapshot
    assert _evidence(folded) == _evidence(separate)
    assert folded.record.verdict.model_dump(mode="json", exclude={"metadata"}) == (
        separate.record.verdict.model_dump(mode="json", exclude={"metadata"})
    )


@pytest.mark.parametrize(
    ("spoil", "match"),
    [
        (lambda snap: "resources", "not a JSON object"),
        (lambda snap: {**snap, "resources": "all"}, "malformed snapshot response"),
        (lambda snap: {**snap, "environment_id": "sim-other"}, "cannot be attributed"),
        (lambda snap: {**snap, "status": "error", "message": "disk"}, "reported an error"),
    ],
)
def test_a_folded_snapshot_that_does_not_hold_is_a_provider_failure(
    monkeypatch: pytest.MonkeyPatch, spoil: Any, match: str
) -> None:
    real = lean_wire.snapshot_answer
    seen: list[str] = []

    def spoiled(state: Any, since: Any, wire: dict[str, Any]) -> Any:
        answer = real(state, since, wire)
        if since is None and not seen:  # provision's folded snapshot (the first whole one)
            seen.append("spoiled")
            return spoil(answer)
        return answer

    monkeypatch.setattr("oasis_sim_k8s.provider.petri_handlers.snapshot_answer", spoiled)
    provider = SimK8sProvider()
    outcome = served_example_run(provider, BuiltinAgent("careful"), "folded")
    verdict = outcome.record.verdict
    assert seen and verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert match in verdict.metadata.abort_reason
    assert provider.envs == {}  # torn down all the same
