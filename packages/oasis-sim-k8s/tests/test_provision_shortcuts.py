"""Provisioning shortcuts that keep every answer (issue 30, session 8 round 2): an admin's
escalation check looks at no rule, and a ReplicaSet's pass inputs are one text. Each test
fails on the code before the shortcut."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_sim_k8s.cluster import rbac, replicas, settled
from oasis_sim_k8s.cluster.clock import Ids, SimClock
from oasis_sim_k8s.cluster.store import ObjectStore

RULES = [{"verbs": ["get", "create"], "apiGroups": ["", "apps"], "resources": ["pods/log"]}]


def test_an_admin_may_grant_any_rule_without_a_rule_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = ObjectStore(SimClock.at_provision(), Ids(1))
    store.admins.add("root")
    looked: list[Any] = []
    real = rbac._covered

    def covered(*args: Any) -> bool:
        looked.append(args)
        return real(*args)

    monkeypatch.setattr(rbac, "_covered", covered)
    assert rbac.can_grant(store, "root", RULES, "default")
    assert rbac.can_grant(store, "root", RULES, None)
    assert looked == []
    # anyone else is still checked rule by rule, and holds nothing here
    assert not rbac.can_grant(store, "someone", RULES, "default")
    assert looked


class _Env:
    def __init__(self, facts: dict[Any, Any]) -> None:
        self.facts = facts
        self.store = type("S", (), {"resource_version": 7})()
        self.clock = type("C", (), {"ms": 1500})()


def _pod(name: str) -> dict[str, Any]:
    return {"metadata": {"namespace": "ns", "name": name}}


def test_a_replicaset_pass_reads_its_facts_as_one_text() -> None:
    env = _Env({("pods", "ns", "a"): {"restarts": 1}})
    inputs = replicas.reconcile_inputs(env, {"started": 1.0}, [_pod("a"), _pod("b")], {"x": 2})
    facts = ({"started": 1.0}, {"x": 2}, [{"restarts": 1}, None])
    assert inputs == (7, 1500, settled.fingerprint(facts))
    # a value of another type is another input, as its repr would be (1.0, 1, True)
    for started in (1, True):
        pods = [_pod("a"), _pod("b")]
        assert replicas.reconcile_inputs(env, {"started": started}, pods, {"x": 2}) != inputs
    # a fact moved from one place to another is a different input
    moved = replicas.reconcile_inputs(env, {}, [_pod("a"), _pod("b")], {"started": 1.0, "x": 2})
    assert moved != inputs
    env.facts[("pods", "ns", "b")] = {}
    assert (
        replicas.reconcile_inputs(env, {"started": 1.0}, [_pod("a"), _pod("b")], {"x": 2}) != inputs
    )
