"""Which logged writes explain a lost object (issue 26 item 1; 05 §1.1): every write that can
remove it, and none that cannot."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.completeness import expected_setup_writes, unexplained_losses

AGENT = "system:serviceaccount:oasis:agent"
POD = {
    "kind": "Pod",
    "name": "web-1",
    "namespace": "shop",
    "state": {"metadata": {"labels": {"app": "web"}}, "spec": {"nodeName": "node-a"}},
}
DEPLOYMENTS = [
    {
        "kind": "Deployment",
        "name": name,
        "namespace": "shop",
        "state": {"spec": {"selector": {"matchLabels": {"app": app}}}},
    }
    for name, app in (("web", "web"), ("api", "api"))
]
INITIAL = [POD, *DEPLOYMENTS]
FINAL = list(DEPLOYMENTS)


def entry(
    verb: str,
    resource: str,
    name: str | None = None,
    *,
    user: str = AGENT,
    ns: str | None = "shop",
    sub: str | None = None,
    body: Any = None,
    code: int = 200,
) -> dict[str, Any]:
    return {
        "verb": verb,
        "resource": resource,
        "subresource": sub,
        "name": name,
        "namespace": ns,
        "user": user,
        "request_body": body,
        "response_code": code,
    }


def lost(
    *entries: dict[str, Any],
    initial: list[dict[str, Any]] = INITIAL,
    final: list[dict[str, Any]] = FINAL,
) -> list[str]:
    state = [{"resource": "pod/web-1", "namespace": "shop"}]
    expected = expected_setup_writes(state, [initial])
    assert expected, "the declared pod is expected"
    return unexplained_losses(expected, [initial, final], list(entries), AGENT)


GONE = ["pod/web-1 (namespace shop)"]
EXPLAINING = {
    "an eviction": entry("create", "pods", "web-1", sub="eviction", body={"kind": "Eviction"}),
    "an eviction logged as pods/eviction": entry("create", "pods/eviction", "web-1"),
    "a scale-down through the scale subresource": entry(
        "patch", "deployments", "web", sub="scale", body={"spec": {"replicas": 0}}
    ),
    "a scale-down of spec.replicas": entry(
        "patch", "deployments", "web", body={"spec": {"replicas": 0}}
    ),
    "a rollout restart": entry(
        "patch",
        "deployments",
        "web",
        body=[
            {
                "op": "add",
                "path": "/spec/template/metadata/annotations",
                "value": {"kubectl.kubernetes.io/restartedAt": "now"},
            }
        ],
    ),
    "a workload change whose body the log does not keep": entry("update", "deployments", "web"),
    "the delete of the workload": entry("delete", "deployments", "web"),
    "a change of an autoscaler": entry(
        "patch", "horizontalpodautoscalers", "web", body={"spec": {"maxReplicas": 1}}
    ),
    "a cordon of its node": entry(
        "patch", "nodes", "node-a", ns=None, body={"spec": {"unschedulable": True}}
    ),
    "the delete of its node": entry("delete", "nodes", "node-a", ns=None),
    "a change of its labels": entry(
        "patch", "pods", "web-1", body={"metadata": {"labels": {"app": "other"}}}
    ),
    "the delete of its namespace": entry("delete", "namespaces", "shop", ns=None),
}
NOT_EXPLAINING = {
    "a refused eviction": entry("create", "pods", "web-1", sub="eviction", code=429),
    "a refused delete": entry("delete", "pods", "web-1", code=403),
    "an empty patch of its workload": entry("patch", "deployments", "web", body={}),
    "a change of its workload's labels only": entry(
        "patch", "deployments", "web", body={"metadata": {"labels": {"x": "y"}}}
    ),
    "a scale-down of a workload that does not select it": entry(
        "patch", "deployments", "api", sub="scale", body={"spec": {"replicas": 0}}
    ),
    "a scale-down in another namespace": entry(
        "patch", "deployments", "web", ns="other", sub="scale"
    ),
    "a cordon of another node": entry(
        "patch", "nodes", "node-b", ns=None, body={"spec": {"unschedulable": True}}
    ),
    "a change of its annotations": entry(
        "patch", "pods", "web-1", body={"metadata": {"annotations": {"a": "b"}}}
    ),
    "the provider's own scale-down": entry(
        "patch", "deployments", "web", user="provider", sub="scale"
    ),
    "a read": entry("get", "pods", "web-1"),
}


@pytest.mark.parametrize("case", sorted(EXPLAINING))
def test_every_write_that_can_remove_an_object_explains_its_loss(case: str) -> None:
    assert lost() == GONE  # with no write at all, the loss is the provider's
    assert lost(EXPLAINING[case]) == []


@pytest.mark.parametrize("case", sorted(NOT_EXPLAINING))
def test_a_write_that_cannot_remove_it_explains_nothing(case: str) -> None:
    # paired with a write that does: the same log with it is explained
    assert lost(NOT_EXPLAINING[case], EXPLAINING["an eviction"]) == []
    assert lost(NOT_EXPLAINING[case]) == GONE


def test_garbage_collection_of_an_owner_the_log_deleted() -> None:
    owned = {
        **POD,
        "state": {
            "metadata": {"labels": {}, "ownerReferences": [{"kind": "ConfigMap", "name": "bundle"}]}
        },
    }
    assert lost(entry("delete", "configmaps", "bundle"), initial=[owned, *DEPLOYMENTS]) == []
    assert lost(entry("delete", "configmaps", "other"), initial=[owned, *DEPLOYMENTS]) == GONE


def test_a_workload_without_a_known_selector_removes_any_replica_in_its_namespace() -> None:
    bare = [
        {"kind": "pod", "name": "web-1", "namespace": "shop", "state": {"labels": {"app": "web"}}}
    ]
    scale = entry("patch", "deployments", "api", sub="scale", body={"spec": {"replicas": 0}})
    assert lost(scale, initial=bare, final=[]) == []
    assert lost(initial=bare, final=[]) == ["pod/web-1 (namespace shop)"]


def test_the_logs_writes_are_read_only_when_an_object_was_lost(monkeypatch: Any) -> None:
    """Nothing lost, nothing to explain: the log's writes are not even read (issue 30: the
    usual capture); a loss still reads them all."""
    import oasis_eval.evaluation.completeness as completeness

    read: list[int] = []
    real = completeness.writes_of
    monkeypatch.setattr(completeness, "writes_of", lambda *a: read.append(1) or real(*a))
    deleted = entry("delete", "pods", "web-1")
    assert lost(deleted, final=INITIAL) == [] and read == []
    assert lost(deleted) == [] and read == [1]
    assert lost() == ["pod/web-1 (namespace shop)"] and read == [1, 1]
