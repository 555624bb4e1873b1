"""In-process sessions answered from the call prefixes of earlier sessions
(``servers/shared_calls.py``, session 35): the same answers and the same environment, to the
last uid, resourceVersion and audit entry, as the calls run (the digest of ``env_digest.py``:
every stored object, the clock, the generator state, the audit log, every component)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider import prebuilt
from oasis_sim_k8s.servers import shared_calls
from oasis_sim_k8s.servers.connect import connect
from oasis_sim_k8s.tools import base
from tests.sim_k8s.support import request, run, scenario_ids

from .env_digest import LATER_S, digest

SID = "infra.capability.da.single-signal-diagnosis-001"

#: reads, then a write, then reads of what the write changed
PREFIX = [
    ("kubectl", {"command": "get pods -A"}),
    ("kubectl", {"command": "get deployments -A -o yaml"}),
    ("kubectl", {"command": "get events -A"}),
    ("kubectl", {"command": "annotate namespace default ci35=probe"}),
    ("kubectl", {"command": "get namespace default -o yaml"}),
]
TAIL = [
    ("kubectl", {"command": "get configmaps -A -o yaml"}),
    ("kubectl", {"command": "label namespace default ci35=probe"}),
    ("kubectl", {"command": "get namespace default -o json"}),
]
OTHER = [
    ("kubectl", {"command": "get services -A"}),
    ("kubectl", {"command": "describe namespace default"}),
]


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(shared_calls, "ENABLED", True)
    prebuilt.clear()
    yield
    prebuilt.clear()


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The calls the tools really ran (not answered from the trie)."""
    calls: list[str] = []
    real = base.Surface.call

    def call(self: Any, name: str, arguments: dict[str, Any] | None = None) -> Any:
        calls.append(name)
        return real(self, name, arguments)

    monkeypatch.setattr(base.Surface, "call", call)
    return calls


def _session(calls: list[tuple[str, dict[str, Any]]], sid: str = SID) -> tuple[list[Any], Any]:
    """A fresh environment of ``sid``, ``calls`` made in one session: the answers and the
    environment after the session."""
    provider = SimK8sProvider()  # ids, tokens and addresses of their own
    req, _ = request("si", sid)
    res = run(lambda: provider.provision(req))

    async def go() -> list[Any]:
        surface = await connect(res.agent_endpoint, res.agent_credentials)
        async with surface:
            return [(r.text, r.is_error) for r in [await surface.call(n, a) for n, a in calls]]

    answers = run(go)
    return answers, provider.environment(res.environment_id)


def _live(calls: list[tuple[str, dict[str, Any]]], sid: str = SID) -> tuple[list[Any], str]:
    shared_calls.ENABLED = False
    try:
        answers, env = _session(calls, sid)
    finally:
        shared_calls.ENABLED = True
    return answers, digest(env)


def _same_later(env: Any, calls: list[tuple[str, dict[str, Any]]]) -> None:
    """Still the same environment after simulated time passes (controllers move on)."""
    shared_calls.ENABLED = False
    try:
        _, twin = _session(calls)
    finally:
        shared_calls.ENABLED = True
    env.advance(LATER_S)
    twin.advance(LATER_S)
    assert digest(env) == digest(twin)


def test_a_session_answered_whole_ends_where_its_calls_would_have(ran: list[str]) -> None:
    if SID not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    first, _ = _session(PREFIX)
    assert len(ran) == len(PREFIX)
    second, env = _session(PREFIX)
    assert len(ran) == len(PREFIX)  # every call answered from the first session's
    live, live_digest = _live(PREFIX)
    assert first == second == live
    assert digest(env) == live_digest
    _same_later(env, PREFIX)


@pytest.mark.parametrize("kept", [False, True])
def test_a_session_leaving_the_trie_runs_on_from_the_state_reached(
    ran: list[str], kept: bool
) -> None:
    """Its walked calls run again (checked) where no state is kept at the node it leaves
    from, the kept state loaded where one is (a session left there before)."""
    if SID not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    _session(PREFIX + TAIL)
    if kept:
        _session(PREFIX + OTHER)  # leaves at the end of PREFIX: the state kept there
    before = len(ran)
    answers, env = _session(PREFIX + OTHER[::-1])
    assert len(ran) - before == len(OTHER) + (0 if kept else len(PREFIX))
    live, live_digest = _live(PREFIX + OTHER[::-1])
    assert answers == live
    assert digest(env) == live_digest


def test_a_small_budget_drops_kept_states_and_stays_exact(
    ran: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if SID not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    monkeypatch.setattr(shared_calls, "BUDGET", 1)
    _session(PREFIX)
    answers, env = _session(PREFIX)
    assert not shared_calls.ROOTS.blobs
    live, live_digest = _live(PREFIX)
    assert answers == live and digest(env) == live_digest


def test_an_answer_showing_the_environments_token_is_never_served(ran: list[str]) -> None:
    if SID not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    calls = [("kubectl", {"command": "config view --raw"})]
    _session(calls)
    second, env = _session(calls)
    assert len(ran) == 2  # run again, not served
    assert env.token in second[0][0]  # its own token
