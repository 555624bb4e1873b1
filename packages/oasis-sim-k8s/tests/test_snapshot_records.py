"""A snapshot reuses the record an earlier snapshot made of an object left unchanged since
(issue 30), and makes a new one for an object written through the API or changed in place:
every snapshot equals one made from scratch."""

from __future__ import annotations

from typing import Any

from oasis_sim_k8s import PROVIDER_USER
from oasis_sim_k8s.injection.environment import Environment
from oasis_sim_k8s.observability.snapshot import record


def _env() -> Environment:
    env = Environment("env-1", "scenario-1", "agent", "seed")
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "app"}})
    for name in ("a", "b", "c"):
        body = {"kind": "ConfigMap", "metadata": {"name": name, "namespace": "app"}, "data": {}}
        env.api.request(PROVIDER_USER, "create", "configmaps", "app", body=body)
    return env


def _fresh(env: Environment) -> list[dict[str, Any]]:
    keys = [k for k in env.store.all_keys() if k[0] != "events"]
    return [record(k[0], env.store.raw(*k)) for k in keys]


def _by_name(snapshot: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in snapshot if r["kind"] == "ConfigMap"}


def test_unchanged_objects_keep_their_record_and_changed_ones_get_a_new_one() -> None:
    env = _env()
    first = env.snapshot()
    assert first == _fresh(env)
    patch = {"data": {"k": "v"}}
    env.api.request(PROVIDER_USER, "patch", "configmaps", "app", "a", body=patch)
    env.store.raw("configmaps", "app", "b")["data"]["x"] = "in place, not stored"
    second = env.snapshot()
    assert second == _fresh(env)
    before, after = _by_name(first), _by_name(second)
    assert after["c"] is before["c"]  # untouched: the same record, not a new copy
    assert after["a"] is not before["a"] and after["a"]["state"]["data"] == {"k": "v"}
    assert after["b"] is not before["b"] and after["b"]["state"]["data"] == {
        "x": "in place, not stored"
    }
    assert before["a"]["state"]["data"] == {} and before["b"]["state"]["data"] == {}
    assert after["c"]["state"] is not env.store.raw("configmaps", "app", "c")  # a copy
