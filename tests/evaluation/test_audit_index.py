"""The audit index: attribution, order, de-duplication, queries, missing evidence."""

from __future__ import annotations

from oasis_eval.evaluation.actions import parse_action
from oasis_eval.evaluation.audit import AuditIndex, audit_entries, is_write
from oasis_eval.evaluation.evidence import Observation, ScenarioEvidence


def test_agent_entries_exclude_provider_setup_writes(ev) -> None:
    e = ev.entry
    log = [
        e("create", "deployments", "web", "shop", user=ev.PROVIDER),
        e("get", "deployments", "web", "shop"),
        e("delete", "deployments", "web", "shop", user=ev.PROVIDER),
    ]
    index = AuditIndex(log, ev.PRINCIPAL)
    assert [x.verb for x in index.agent_entries] == ["get"]
    assert index.find(parse_action("delete deployment/web")) == []
    assert index.writes() == []


def test_log_order_is_timestamp_then_audit_id(ev) -> None:
    e = ev.entry
    log = [
        e("get", "pods", "c", "n", ts="2025-01-01T00:00:03Z", audit_id="a"),
        e("get", "pods", "b", "n", ts="2025-01-01T00:00:01.5+00:00", audit_id="b"),
        e("get", "pods", "a", "n", ts="2025-01-01T00:00:01Z", audit_id="z"),
        e("get", "pods", "d", "n", ts="2025-01-01T00:00:01Z", audit_id="y"),
    ]
    index = AuditIndex(log, ev.PRINCIPAL)
    assert [x.name for x in index.agent_entries] == ["d", "a", "b", "c"]
    assert [index.position(x) for x in index.agent_entries] == [0, 1, 2, 3]


def test_stages_collapse_to_one_event(ev) -> None:
    e = ev.entry
    received = e("delete", "pods", "a", "n", audit_id="same", stage="RequestReceived", code=None)
    complete = e("delete", "pods", "a", "n", audit_id="same", code=403)
    index = AuditIndex([received, complete], ev.PRINCIPAL)
    (only,) = index.agent_entries
    assert only.response_code == 403


def test_find_uses_indexes_and_honours_namespace(ev) -> None:
    e = ev.entry
    log = [e("delete", "pods", f"p{i}", "a" if i % 2 else "b") for i in range(10)]
    log += [e("get", "pods", "p0", "a"), e("deletecollection", "pods", None, "a")]
    index = AuditIndex(log, ev.PRINCIPAL)
    hits = index.find(parse_action("delete pod/* namespace=a"))
    assert [h.name for h in hits] == ["p1", "p3", "p5", "p7", "p9", None]
    assert len(index.find(parse_action("* * namespace=a"))) == 7
    assert len(index.in_namespace("b")) == 5
    assert len(index.writes_in("a")) == 6


def test_kubectl_selector_expansion(ev) -> None:
    e = ev.entry
    log = ev.seq(
        e("list", "pods", None, "d", label_selector="app=api"),
        e("delete", "pods", "api-1", "d"),
        e("delete", "pods", "api-2", "d"),
        e("get", "deployments", "api", "d"),
        e("delete", "pods", "web-1", "d"),
    )
    index = AuditIndex(log, ev.PRINCIPAL)
    hits = index.find(parse_action("delete pod/* labels=app:api"))
    assert [h.name for h in hits] == ["api-1", "api-2"]
    assert index.find(parse_action("delete pod/* labels=app:web")) == []


def test_access_reviews_are_not_writes(ev) -> None:
    e = ev.entry
    assert not is_write(e("create", "selfsubjectaccessreviews", None, None))
    assert is_write(e("create", "rolebindings", "x", "ops"))
    assert is_write(e("deletecollection", "pods", None, "ops"))
    assert not is_write(e("watch", "pods", None, "ops"))


def test_credential_entries(ev) -> None:
    e = ev.entry
    log = [
        e("list", "nodes", user="kubernetes-admin", data={"agent_principal": ev.PRINCIPAL}),
        e("list", "nodes"),
        e("list", "nodes", user=ev.PROVIDER),
    ]
    index = AuditIndex(log, ev.PRINCIPAL)
    assert [x.user for x in index.credential_entries] == ["kubernetes-admin"]
    assert len(index.agent_entries) == 2
    auth = index.find(parse_action("authenticate external-credentials"))
    assert [x.user for x in auth] == ["kubernetes-admin"]


def test_resolved_namespaces_are_mapped_back(ev) -> None:
    e = ev.entry
    log = [e("delete", "deployments", "x", "shop-7f3a"), e("delete", "namespaces", "shop-7f3a")]
    index = AuditIndex(log, ev.PRINCIPAL, namespace_map={"shop": "shop-7f3a"})
    assert len(index.find(parse_action("delete * namespace=shop"))) == 2


def test_audit_entries_never_invents_an_empty_log(ev, scenario) -> None:
    s = scenario("k8s.safety.dm.read-only-restart-pressure-001")
    missing = ScenarioEvidence(scenario_id=s.id)
    assert audit_entries(missing) is None
    broken = missing.model_copy(update={"observations": [ev.audit_obs([], status="unreachable")]})
    assert audit_entries(broken) is None
    reserved = missing.model_copy(update={"observations": [ev.audit_obs([], status="partial")]})
    assert audit_entries(reserved) is None
    empty = missing.model_copy(update={"observations": [ev.audit_obs([])]})
    assert audit_entries(empty) == []
    two = [
        ev.audit_obs([ev.entry("get", "pods", "a", "n")]),
        ev.audit_obs([ev.entry("get", "pods", "b", "n")]),
    ]
    assert len(audit_entries(missing.model_copy(update={"observations": two})) or []) == 2
    other = Observation(
        observation_type="resource_state",
        data={"entries": [1]},
        evidence_source={"type": "kube_api", "status": "available"},
    )
    assert audit_entries(missing.model_copy(update={"observations": [other]})) is None


def test_index_over_many_entries_finds_each_write(ev) -> None:
    """20k entries, every tenth a delete: each query finds exactly its own delete. How fast
    (200k entries, 200 queries) is measured by the benchmarks ``audit_index_*``."""
    base = ev.entry("get", "pods", "p", "n", ts="2025-01-01T00:00:00Z")
    log = [
        base.model_copy(
            update={
                "audit_id": f"{i:07d}",
                "verb": "get" if i % 10 else "delete",
                "name": f"p{i}",
                "namespace": f"ns{i % 50}",
                "timestamp": f"2025-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
            }
        )
        for i in range(20_000)
    ]
    index = AuditIndex(log, ev.PRINCIPAL)
    assert len(index.writes()) == 2_000
    found = [
        index.find(parse_action(f"delete pod/p{i * 10} namespace=ns{(i * 10) % 50}"))
        for i in range(200)
    ]
    assert [[e.name for e in hits] for hits in found] == [[f"p{i * 10}"] for i in range(200)]
    assert index.find(parse_action("delete pod/p11 namespace=ns11")) == []


def test_an_entry_marked_no_action_is_neither_a_call_nor_credential_use(ev) -> None:
    """Issue 25: a request that named nothing (a probed path, audited with ``data.no_action``)
    stays in the log but earns no credit and is no credential use, whatever its credential."""
    e = ev.entry
    mark = {"agent_principal": ev.PRINCIPAL, "no_action": True}
    probe = e("get", "pods", None, "shop", data=mark)
    foreign = e("get", "pods", None, "shop", user="system:anonymous", code=404, data=mark)
    foreign = foreign.model_copy(update={"external_credentials": True})
    index = AuditIndex([probe, foreign], ev.PRINCIPAL)
    assert index.agent_entries == [] and index.credential_entries == []
    assert index.find(parse_action("get pod")) == []
    assert len(index.entries) == 2  # still evidence in the log
