"""Evidence completeness, the pure checks (evaluation/completeness.py; issue 11 item 1).

The canary (the provider's own setup writes must be in the audit log), the served-call
record (every call the provider served to the agent must be in it, as the agent's) and
entries sharing an auditID. The self-report flag is in test_reported_calls.py."""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.evaluation.completeness import (
    conflicting_audit_ids,
    entries_of,
    expected_setup_writes,
    served_call_gaps,
    served_calls_of,
    setup_write_gaps,
)

AGENT = "oasis-agent"
AGENT_USER = "system:serviceaccount:shop:oasis-agent"
SETUP = "system:serviceaccount:sim-k8s:provisioner"


def entry(
    user: str,
    verb: str,
    resource: str,
    name: str | None = None,
    namespace: str | None = None,
    audit_id: str | None = None,
    session: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {"verb": verb, "resource": resource, "user": user, **extra}
    if name:
        out["name"] = name
    if namespace:
        out["namespace"] = namespace
    if audit_id:
        out["auditID"] = audit_id
    out["data"] = {"agent_principal": AGENT} if session else {}
    return out


def obj(
    kind: str, name: str, namespace: str | None = None, state: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"kind": kind, "name": name, "namespace": namespace, "state": state or {"kind": kind}}


SNAPSHOT = [
    obj("Namespace", "shop"),
    obj("Deployment", "web", "shop"),
    obj("ConfigMap", "settings", "shop"),
    obj("ClusterRole", "cluster-admin"),
]
STATE = [
    {"resource": "namespace/shop"},
    {"resource": "deployment/web", "namespace": "shop"},
    {"resource": "configmap/settings", "namespace": "shop"},
    {"resource": "clusterrole/cluster-admin"},
    {"resource": "metrics/web", "namespace": "shop"},
    {"resource": "pod/web-1/logs", "namespace": "shop"},
]


def labels(expected: list[Any]) -> list[str]:
    return [e.label for e in expected]


# ---- the canary -----------------------------------------------------------------------------------------
def test_every_declared_api_object_needs_a_setup_write_and_fixtures_and_sub_paths_do_not() -> None:
    expected = expected_setup_writes(STATE, [SNAPSHOT])
    assert labels(expected) == [
        "namespace/shop",
        "deployment/web (namespace shop)",
        "configmap/settings (namespace shop)",
        "clusterrole/cluster-admin",
    ]
    log = [
        entry(SETUP, "create", "namespaces", "shop"),
        entry(SETUP, "create", "deployments", "web", "shop"),
        entry(SETUP, "patch", "configmaps", "settings", "shop"),
        entry(SETUP, "create", "clusterroles", "cluster-admin"),
    ]
    assert setup_write_gaps(expected, log, AGENT) == []
    assert setup_write_gaps(expected, [], AGENT) == labels(
        expected
    )  # available but empty: every one missing
    assert setup_write_gaps(expected, log[1:], AGENT) == ["namespace/shop"]


def test_reads_and_the_agents_own_writes_are_not_setup_writes() -> None:
    expected = expected_setup_writes(
        [{"resource": "deployment/web", "namespace": "shop"}], [SNAPSHOT]
    )
    for log in (
        [entry(SETUP, "get", "deployments", "web", "shop")],
        [entry(AGENT_USER, "create", "deployments", "web", "shop")],
        [entry("someone-else", "patch", "deployments", "web", "shop", session=True)],
        [entry(SETUP, "create", "deployments", "web", "other")],
    ):  # another namespace's object
        assert setup_write_gaps(expected, log, AGENT) == ["deployment/web (namespace shop)"], log


def test_a_write_names_its_object_by_field_body_or_raw_object_ref() -> None:
    expected = expected_setup_writes([{"resource": "deploy/web", "namespace": "shop"}], [SNAPSHOT])
    body = {"metadata": {"name": "web", "namespace": "shop"}}
    for named in (
        entry(SETUP, "create", "deployments", namespace="shop", request_body=body),
        entry(SETUP, "create", "deployments", namespace="shop", request_body=json.dumps(body)),
        entry(
            SETUP, "create", "deployment", raw={"objectRef": {"name": "web", "namespace": "shop"}}
        ),
    ):
        assert setup_write_gaps(expected, [named], AGENT) == [], named


def test_kinds_compare_by_any_spelling_and_the_snapshot_objects_own_kind() -> None:
    # a profile noun (gitops-application) reported with the object's API kind (Application)
    app = obj(
        "gitops-application", "api", "argocd", {"kind": "Application", "metadata": {"name": "api"}}
    )
    expected = expected_setup_writes([{"resource": "gitops-application/api"}], [[app]])
    assert (
        setup_write_gaps(expected, [entry(SETUP, "create", "applications", "api", "argocd")], AGENT)
        == []
    )
    assert setup_write_gaps(expected, [], AGENT) == ["gitops-application/api"]


def test_namespaces_resolved_by_the_provider_are_accepted() -> None:
    resolved = {"shop": "env-0001-shop"}
    snapshot = [obj("namespace", "env-0001-shop"), obj("deployment", "web", "env-0001-shop")]
    expected = expected_setup_writes(STATE[:2], [snapshot], resolved)
    log = [
        entry("system:petri:provisioner", "create", "namespaces", "env-0001-shop"),
        entry("system:petri:provisioner", "create", "deployments", "web", "env-0001-shop"),
    ]
    assert len(expected) == 2 and setup_write_gaps(expected, log, AGENT) == []


def test_controller_owned_and_absent_objects_are_not_required() -> None:
    owned = obj(
        "Pod",
        "web-abc12",
        "shop",
        {
            "kind": "Pod",
            "metadata": {
                "ownerReferences": [{"kind": "ReplicaSet", "name": "web-6b7f9", "controller": True}]
            },
        },
    )
    state = [
        {"resource": "pod/web-abc12", "namespace": "shop"},
        {"resource": "deployment/gone", "namespace": "shop"},
    ]
    assert expected_setup_writes(state, [[owned, obj("Deployment", "web", "shop")]]) == []


def test_an_injected_object_only_in_the_final_snapshot_is_required_too() -> None:
    injected = [{"resource": "configmap/flag", "stimulus": "environmental_state"}]
    expected = expected_setup_writes(
        injected, [SNAPSHOT, [*SNAPSHOT, obj("ConfigMap", "flag", "shop")]]
    )
    assert labels(expected) == ["configmap/flag"]
    assert (
        setup_write_gaps(expected, [entry(SETUP, "update", "configmaps", "flag", "shop")], AGENT)
        == []
    )


# ---- the served-call record -----------------------------------------------------------------------------
SERVED = [
    {"id": "a1", "verb": "list", "resource": "pods", "namespace": "shop"},
    {"id": "a2", "verb": "delete", "resource": "deployments", "name": "web", "namespace": "shop"},
]


def test_every_served_call_must_be_in_the_audit_log_as_the_agents() -> None:
    log = [
        entry(AGENT_USER, "list", "pods", None, "shop", "a1", session=True),
        entry(AGENT_USER, "delete", "deployments", "web", "shop", "a2", session=True),
    ]
    assert served_call_gaps(SERVED, log, AGENT) == []
    assert served_call_gaps(SERVED, [], AGENT) == [
        "a1: list pods in shop (no audit entry with this id)",
        "a2: delete deployments web in shop (no audit entry with this id)",
    ]
    dropped = served_call_gaps(SERVED, log[:1], AGENT)
    assert len(dropped) == 1 and dropped[0].startswith("a2: delete deployments web")


def test_a_session_mark_in_service_account_form_is_the_agents_as_in_verification() -> None:
    """The same attribution rule as the audit index (bodies.attributed): a call logged under
    another user but marked as made in the agent's session, with the mark in service-account
    form, is the agent's call."""
    log = [
        {
            **entry("kube-proxy", "list", "pods", None, "shop", "a1"),
            "data": {"agent_principal": AGENT_USER},
        },
        {
            **entry("kube-proxy", "delete", "deployments", "web", "shop", "a2"),
            "data": {"agent_principal": AGENT_USER},
        },
    ]
    assert served_call_gaps(SERVED, log, AGENT) == []


def test_a_served_call_logged_as_someone_else_or_as_another_call_is_a_gap() -> None:
    relabelled = [
        entry(AGENT_USER, "list", "pods", None, "shop", "a1", session=True),
        entry(SETUP, "delete", "deployments", "web", "shop", "a2"),
    ]  # "made by the provisioner"
    assert served_call_gaps(SERVED, relabelled, AGENT) == [
        f"a2: delete deployments web in shop (its audit entry names user '{SETUP}', not the agent)"
    ]
    rewritten = [
        relabelled[0],
        entry(AGENT_USER, "get", "deployments", "web", "shop", "a2", session=True),
    ]
    assert served_call_gaps(SERVED, rewritten, AGENT) == [
        "a2: delete deployments web in shop (its audit entry says get deployments web in shop)"
    ]


def test_served_calls_without_ids_match_as_a_multiset() -> None:
    served = [{"verb": "get", "resource": "pod", "name": "x", "namespace": "shop"}] * 2
    one = [entry(AGENT, "get", "pods", "x", "shop")]
    assert served_call_gaps(served, one, AGENT) == ["get pod x in shop (no matching audit entry)"]
    assert served_call_gaps(served, one * 2, AGENT) == []
    assert served_call_gaps(served, [entry(SETUP, "get", "pods", "x", "shop")] * 2, AGENT) != []


def test_a_malformed_served_call_record_is_not_read_as_empty() -> None:
    assert served_calls_of({"calls": []}) == []
    for bad in (
        None,
        {},
        {"calls": "x"},
        {"calls": [{"verb": "get"}]},
        [{"verb": "get", "resource": "pods"}],
    ):
        assert served_calls_of(bad) is None, bad
    assert entries_of({"entries": [1, {"verb": "get"}]}) == [{"verb": "get"}]


def test_entries_sharing_an_id_are_compared_however_far_apart_and_lone_ids_never_conflict() -> None:
    """Only ids logged more than once are read (issue 30); two stories under one id are found
    with other entries between them, in log order, and an id logged once is never a conflict."""
    log = [
        entry(AGENT_USER, "delete", "deployments", "web", "shop", audit_id="a1"),
        *(entry(SETUP, "get", "pods", f"p{i}", "shop", audit_id=f"x{i}") for i in range(20)),
        entry(AGENT_USER, "get", "deployments", "web", "shop", audit_id="a1"),
        entry(SETUP, "create", "configmaps", "settings", "shop", audit_id="b2"),
        entry(AGENT_USER, "create", "configmaps", "settings", "shop", audit_id="b2"),
        entry(AGENT_USER, "patch", "deployments", "web", "shop", audit_id="c3"),
        entry(AGENT_USER, "patch", "deployments", "web", "shop", audit_id="c3"),
        entry(AGENT_USER, "patch", "deployments", "web", "shop", audit_id=""),
        entry(SETUP, "patch", "deployments", "web", "shop", audit_id=""),
    ]
    found = conflicting_audit_ids(log, AGENT)
    assert [line.split(":")[0] for line in found] == ["a1", "b2"]
    assert conflicting_audit_ids(log[1:21], AGENT) == []


def test_an_object_whose_kind_is_no_string_is_read_as_before() -> None:
    """A snapshot's kinds are remembered by (reported kind, API kind); a kind that is a list
    or a mapping (a provider's odd answer) is read without being remembered, never a crash."""
    odd = [
        {"kind": ["Deployment"], "name": "web", "namespace": "shop", "state": {"kind": {}}},
        obj("ConfigMap", "settings", "shop"),
    ]
    state = [
        {"resource": "deployment/web", "namespace": "shop"},
        {"resource": "configmap/settings", "namespace": "shop"},
    ]
    expected = expected_setup_writes(state, [odd])
    assert [e.label for e in expected] == ["configmap/settings (namespace shop)"]
    log = [entry(SETUP, "create", "configmaps", "settings", "shop")]
    assert setup_write_gaps(expected, log, AGENT) == []
    assert setup_write_gaps(expected, [], AGENT) == ["configmap/settings (namespace shop)"]
