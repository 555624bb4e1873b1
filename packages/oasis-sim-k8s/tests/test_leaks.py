"""No leaks (issue 15 item 4): many provision -> agent tool calls over MCP -> teardown cycles
leave no live environment, tool surface or MCP session behind, and every torn-down
environment is collectable (04 §2.2 teardown)."""

from __future__ import annotations

import gc
import tempfile
import weakref
from typing import Any

import anyio
import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster.store import ObjectStore
from oasis_sim_k8s.servers.connect import connect
from tests.sim_k8s.support import provision, request, run, scenario_ids

needs_si = pytest.mark.skipif(not scenario_ids("si"), reason="SI profile absent")

SCENARIO = "k8s.capability.wo.in-scope-delete-001"
CYCLES = 12


def test_mcp_cycles_leave_nothing_alive() -> None:
    provider = SimK8sProvider(mcp=True)
    req, _ = request("example", SCENARIO)
    gone: list[weakref.ref[Any]] = []
    answers: list[str] = []

    async def cycles() -> None:
        for _ in range(CYCLES):
            res = await provider.provision(req)
            gone.append(weakref.ref(provider.envs[res.environment_id]))
            async with await connect(str(res.agent_endpoint), res.agent_credentials) as surface:
                answers.append(
                    (await surface.call("kubectl", {"command": "get deploy -n shop"})).text
                )
                await surface.call("kubectl", {"command": "get pods -n shop"})
            await provider.teardown(res.environment_id)
        await anyio.sleep(0.2)  # the server closes the last session after the client's DELETE

    try:
        anyio.run(cycles)
        (app,) = provider.mcp_apps()
        gc.collect()
        assert all("storefront" in text for text in answers)  # the calls really ran
        assert provider.envs == {}
        assert app.live_surfaces() == 0
        assert app.live_sessions() == 0
        assert [ref for ref in gone if ref() is not None] == []
    finally:
        provider.stop_mcp()


def test_surfaces_of_a_torn_down_environment_are_dropped_without_further_traffic() -> None:
    from oasis_sim_k8s.servers.mcp import create_mcp_app

    provider = SimK8sProvider()
    app = create_mcp_app(provider)
    req, _ = request("example", SCENARIO)
    res = anyio.run(provider.provision, req)
    assert app.surface_for(res.agent_credentials["token"]) is not None
    assert app.live_surfaces() == 1
    anyio.run(provider.teardown, res.environment_id)
    assert app.live_surfaces() == 0
    assert app.surface_for(res.agent_credentials["token"]) is None


def _unreclaimed(kind: type) -> int:
    """Live instances of ``kind`` (the collector tracks them whether or not it runs)."""
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


@needs_si
def test_a_torn_down_environment_is_freed_without_a_collection() -> None:
    """Every SI scenario provisioned, its stimuli applied, read through the API and torn down
    with the collector off: nothing of it is left for a collection to find (its parts hold it
    and its triggers close over it; teardown drops them). Before, a process running many
    evaluations grew by tens of megabytes an evaluation until a full collection."""
    provider = SimK8sProvider()
    gone: list[weakref.ref[Any]] = []
    gc.collect()
    stores = _unreclaimed(ObjectStore)
    gc.disable()
    try:
        for sid in scenario_ids("si"):
            res, env = provision(provider, "si", sid)
            env.api.request(env.agent_user, "list", "pods", "default", None)
            gone.append(weakref.ref(env))
            del env
            run(provider.teardown, res.environment_id)
        alive = [ref().scenario_id for ref in gone if ref() is not None]  # type: ignore[union-attr]
        assert alive == [] and len(gone) == len(scenario_ids("si"))
        assert _unreclaimed(ObjectStore) <= stores + 1  # the platform template's, kept once
    finally:
        gc.enable()


def test_a_run_leaves_no_environment_behind_without_a_collection() -> None:
    """A whole run in process (the example profile, the careful agent) with the collector off:
    no store is left (the engine tears every environment down through the same path)."""
    import oasis_eval
    from oasis_eval.examples import EXAMPLE_PROFILE_DIR

    gc.collect()
    stores = _unreclaimed(ObjectStore)
    gc.disable()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            result = oasis_eval.evaluate(
                profile=EXAMPLE_PROFILE_DIR,
                agent="builtin:careful",
                provider="sim-k8s",
                out=f"{tmp}/run",
                quiet=True,
            )
        assert result.safety == "PASS" and len(result.scenarios) > 5
        assert _unreclaimed(ObjectStore) <= stores
    finally:
        gc.enable()
