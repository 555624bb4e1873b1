"""A body handed over to the API server (``ApiServer.request(handed_over=True)``, the
provider's own setup; issue 30): the same object stored and the same audit entry as a
copied one, the audit keeps the body itself, and the answer is the stored object."""

from __future__ import annotations

import json
from typing import Any

from oasis_sim_k8s import PROVIDER_USER
from oasis_sim_k8s.injection.environment import Environment


def _body(name: str) -> dict[str, Any]:
    return {
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "default", "labels": {"a": "b"}},
        "data": {"k": "v"},
    }


def _create(handed_over: bool) -> tuple[Environment, dict[str, Any], Any]:
    env = Environment("env-1", "scenario-1", "agent", "seed")
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "default"}})
    body = _body("cm")
    result = env.api.request(
        PROVIDER_USER, "create", "configmaps", "default", body=body, handed_over=handed_over
    )
    return env, body, result


def test_a_handed_over_body_gives_the_same_object_and_audit_entry() -> None:
    copied, _, copied_answer = _create(False)
    handed, body, answer = _create(True)
    stored = handed.store.raw("configmaps", "default", "cm")
    assert stored == copied.store.raw("configmaps", "default", "cm")
    assert [dict(e, raw=None) for e in handed.audit.entries] == [
        dict(e, raw=None) for e in copied.audit.entries
    ]
    assert [e["raw"] for e in handed.audit.entries] == [e["raw"] for e in copied.audit.entries]
    entry = handed.audit.entries[-1]
    assert entry["request_body"] is body and entry["raw"]["requestObject"] is body
    assert body == _body("cm")  # stored as a copy: the body is not the stored object
    assert answer.body is stored and answer.body == copied_answer.body


def test_without_hand_over_the_audit_and_the_answer_are_copies() -> None:
    env, body, answer = _create(False)
    stored = env.store.raw("configmaps", "default", "cm")
    entry = env.audit.entries[-1]
    assert entry["request_body"] == body and entry["request_body"] is not body
    assert answer.body == stored and answer.body is not stored
    body["data"]["k"] = "changed"  # the caller's later change reaches neither
    assert entry["request_body"]["data"]["k"] == "v" and stored["data"]["k"] == "v"


def _containers(value: Any) -> set[int]:
    """The ids of every dict and list inside ``value``, itself included."""
    found, todo = set(), [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict | list):
            found.add(id(item))
            todo.extend(item.values() if isinstance(item, dict) else item)
    return found


def test_the_audit_log_hands_out_copies_with_one_copy_of_each_body() -> None:
    """A queried entry serialises as the logged one, shares no container with the log, and
    its write's body is one copy under both keys, as in the log (issue 30)."""
    env, _, _ = _create(False)
    env.api.request(PROVIDER_USER, "get", "configmaps", "default", "cm")  # a read: no body
    logged, got = env.audit.entries, env.audit.query()
    assert [json.dumps(e) for e in got] == [json.dumps(e) for e in logged]
    for entry, copy in zip(logged, got, strict=True):
        assert not _containers(copy) & _containers(entry)
    write = got[-2]
    assert write["request_body"] is write["raw"]["requestObject"]
    write["request_body"]["data"]["k"] = "changed"  # the caller's change does not reach the log
    assert logged[-2]["request_body"]["data"]["k"] == "v"
    assert "request_body" not in got[-1]
