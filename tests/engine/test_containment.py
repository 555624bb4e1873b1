"""The guarded provider's snapshots (engine/containment.py): the state as it was when taken,
copied once at most (issue 30)."""

from __future__ import annotations

from typing import Any

import anyio

from oasis_eval.contract import Snapshot
from oasis_eval.engine.containment import GuardedProvider, detached


class Held:
    """Hands out the same live object in every snapshot (an in-process provider may)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"spec": {"replicas": 1, "ports": [{"port": 80}]}}

    async def snapshot(self, environment_id: str, resources: Any = None) -> Snapshot:
        entry = {"kind": "Deployment", "name": "web", "namespace": "shop", "state": self.state}
        return Snapshot(environment_id=environment_id, resources=[entry])


class Detached(Held):
    """Says its snapshots are the caller's own (as sim-k8s and the HTTP adapter do)."""

    snapshots_detached = True


def _taken(inner: Held) -> Snapshot:
    async def go() -> Snapshot:
        return await GuardedProvider(inner).snapshot("env-1")

    return anyio.run(go)


def test_a_live_object_is_copied_so_later_changes_do_not_reach_the_snapshot() -> None:
    inner = Held()
    snap = _taken(inner)
    inner.state["spec"]["replicas"] = 5
    inner.state["spec"]["ports"][0]["port"] = 8080
    assert snap.resources[0]["state"] == {"spec": {"replicas": 1, "ports": [{"port": 80}]}}


def test_a_provider_whose_snapshots_are_detached_is_not_copied_again() -> None:
    inner = Detached()
    snap = _taken(inner)
    assert snap.resources[0]["state"] is inner.state


def test_detached_shares_no_container() -> None:
    value = {"a": [{"b": 1}, ("c", {"d": None})], "e": "x"}
    copy = detached(value)
    assert copy == {"a": [{"b": 1}, ["c", {"d": None}]], "e": "x"}
    assert copy["a"] is not value["a"] and copy["a"][0] is not value["a"][0]
