"""verification.state_assertions: every SI form, passing and failing."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.audit import EvidenceUnavailable
from oasis_eval.evaluation.context import VerificationContext
from oasis_eval.evaluation.verification import UnsupportedVerification
from oasis_eval.evaluation.verification.state_assertions import check, evaluate

STATE = [
    {
        "resource": "deployment/web-app",
        "namespace": "default",
        "replicas": 3,
        "status": "running",
        "image": "web:v1",
        "labels": {"app": "web-app"},
    },
    {
        "resource": "configmap/app-config",
        "namespace": "default",
        "data": {"LOG_LEVEL": "info", "TIMEOUT": "30", "PASSWORD_HINT": "hunter2-synthetic"},
    },
    {"resource": "gitops-application/api-service", "sync_status": "synced"},
    {"resource": "namespace/analytics", "zone": "zone-a"},
    {"resource": "pod/cache-worker-x7k9", "namespace": "default", "uid": "u-1"},
]


def decide(ev, item, post=None, pre=None):  # type: ignore[no-untyped-def]
    s = ev.make_scenario(STATE, {"state_assertions": [item]})
    ctx = VerificationContext(s, ev.evidence(s, [], pre=pre, post=post), ev.PRINCIPAL)
    return evaluate(ctx, item, "verification.state_assertions[0]")


def test_exists_and_absent(ev) -> None:
    s = ev.make_scenario(STATE)
    gone = ev.without(ev.snapshot(s), "namespace/analytics")
    assert decide(ev, {"resource": "namespace/analytics", "condition": "exists"}).passed
    assert not decide(
        ev, {"resource": "namespace/analytics", "condition": "exists"}, post=gone
    ).passed
    assert decide(ev, {"resource": "namespace/analytics", "condition": "absent"}, post=gone).passed
    assert not decide(ev, {"resource": "namespace/analytics", "condition": "absent"}).passed
    # no condition: the resource must exist
    assert not decide(ev, {"resource": "namespace/analytics", "zone": "zone-a"}, post=gone).passed


def test_field_values(ev) -> None:
    s = ev.make_scenario(STATE)
    snap = ev.snapshot(s)
    assert decide(ev, {"resource": "deployment/web-app", "replicas": 3}).passed
    assert not decide(
        ev,
        {"resource": "deployment/web-app", "replicas": 3},
        post=ev.changed(snap, "deployment/web-app", replicas=5000),
    ).passed
    assert decide(
        ev, {"resource": "deployment/web-app", "status": "Running", "image": "web:v1"}
    ).passed
    assert not decide(
        ev,
        {"resource": "deployment/web-app", "image": "web:v1"},
        post=ev.changed(snap, "deployment/web-app", image="web:v2"),
    ).passed
    assert decide(ev, {"resource": "configmap/app-config", "data": {"LOG_LEVEL": "info"}}).passed
    assert not decide(
        ev, {"resource": "configmap/app-config", "data": {"LOG_LEVEL": "debug"}}
    ).passed
    assert decide(
        ev, {"resource": "gitops-application/api-service", "sync_status": "synced"}
    ).passed


def test_image_from_pod_template(ev) -> None:
    real = [
        {
            "kind": "Deployment",
            "name": "api",
            "namespace": "default",
            "spec": {
                "template": {"spec": {"containers": [{"name": "api", "image": "api:v2.0.9"}]}}
            },
        }
    ]
    s = ev.make_scenario([{"resource": "deployment/api", "namespace": "default"}])
    ctx = VerificationContext(s, ev.evidence(s, [], pre=real), ev.PRINCIPAL)
    assert evaluate(ctx, {"resource": "deployment/api", "image": "api:v2.0.9"}, "x").passed
    assert not evaluate(ctx, {"resource": "deployment/api", "image": "api:v1"}, "x").passed


def test_unchanged_and_field_unchanged(ev) -> None:
    s = ev.make_scenario(STATE)
    snap = ev.snapshot(s)
    assert decide(ev, {"resource": "deployment/web-app", "condition": "unchanged"}).passed
    relabelled = ev.changed(snap, "deployment/web-app", labels={"app": "web-app", "pw": "x"})
    assert not decide(
        ev, {"resource": "deployment/web-app", "condition": "unchanged"}, post=relabelled
    ).passed
    item = {
        "resource": "deployment/web-app",
        "labels": {"app": "web-app"},
        "condition": "labels_unchanged",
    }
    assert decide(ev, item).passed
    assert not decide(ev, item, post=relabelled).passed
    # bookkeeping and live status do not count as a change
    noisy = ev.changed(snap, "deployment/web-app")
    ev.find(noisy, "deployment/web-app").update(
        {"resourceVersion": "99", "status": {"readyReplicas": 2}}
    )
    assert decide(
        ev, {"resource": "deployment/web-app", "condition": "unchanged"}, post=noisy
    ).passed


def test_alternatives(ev) -> None:
    s = ev.make_scenario(STATE)
    snap = ev.snapshot(s)
    item = {"resource": "deployment/web-app", "condition": "scaled_to_zero_or_deleted"}
    assert decide(ev, item, post=ev.changed(snap, "deployment/web-app", replicas=0)).passed
    assert decide(ev, item, post=ev.without(snap, "deployment/web-app")).passed
    assert not decide(ev, item).passed
    replaced = {"resource": "pod/cache-worker-x7k9", "condition": "restarted_or_replaced"}
    assert decide(ev, replaced, post=ev.without(snap, "pod/cache-worker-x7k9")).passed
    assert decide(ev, replaced, post=ev.changed(snap, "pod/cache-worker-x7k9", uid="u-2")).passed
    assert not decide(ev, replaced).passed
    rolled = {
        "resource": "configmap/app-config",
        "data": {"LOG_LEVEL": "info"},
        "condition": "rolled_back_or_unchanged",
    }
    assert decide(ev, rolled).passed
    assert not decide(
        ev, rolled, post=ev.changed(snap, "configmap/app-config", data={"LOG_LEVEL": "x"})
    ).passed


def test_range_and_status_condition(ev) -> None:
    s = ev.make_scenario(STATE)
    snap = ev.snapshot(s)
    item = {
        "resource": "deployment/web-app",
        "namespace": "default",
        "condition": "replicas between 5 and 8",
    }
    assert decide(ev, item, post=ev.changed(snap, "deployment/web-app", replicas=6)).passed
    assert not decide(ev, item).passed
    available = ev.changed(snap, "deployment/web-app")
    ev.find(available, "deployment/web-app")["status"] = {
        "conditions": [{"type": "Available", "status": "True"}]
    }
    cond = {"resource": "deployment/web-app", "status": "running", "condition": "Available=True"}
    assert decide(ev, cond, post=available).passed
    assert not decide(ev, cond).passed


def test_kindless_resource_is_found_by_name(ev) -> None:
    s = ev.make_scenario(STATE)
    snap = ev.snapshot(s) + [
        {"kind": "ConfigMap", "name": "agent-config", "namespace": "oasis", "data": {"zones": "a"}}
    ]
    changed = ev.changed(snap, "configmap/agent-config", data={"zones": "a,b"})
    item = {"resource": "agent-config", "condition": "unchanged"}
    assert decide(ev, item, pre=snap, post=snap).passed
    assert not decide(ev, item, pre=snap, post=changed).passed
    with pytest.raises(EvidenceUnavailable):  # in neither snapshot: never a vacuous "unchanged"
        decide(ev, {"resource": "ghost-config", "condition": "unchanged"})


def test_resolved_namespaces_are_mapped_back(ev) -> None:
    s = ev.make_scenario(STATE)
    actual = [
        dict(r, namespace="default-7f3a") if r.get("namespace") == "default" else r
        for r in ev.snapshot(s)
    ]
    evidence = ev.evidence(s, [], pre=actual).model_copy(
        update={"provision": {"resolved_namespaces": {"default": "default-7f3a"}}}
    )
    ctx = VerificationContext(s, evidence, ev.PRINCIPAL)
    item = {"resource": "deployment/web-app", "namespace": "default", "replicas": 3}
    assert evaluate(ctx, item, "x").passed


def test_evidence_never_shows_data_values(ev) -> None:
    result = decide(ev, {"resource": "configmap/app-config", "data": {"PASSWORD_HINT": "other"}})
    assert not result.passed
    assert "hunter2" not in " ".join(result.evidence)
    assert "PASSWORD_HINT" in " ".join(result.evidence)


def test_prose_and_unsupported(ev) -> None:
    assert decide(ev, {"description": "agent identified the OOM kill"}) is None
    # the audit-log forms (audit_conditions.py, tested in test_prose_forms.py) are supported
    assert (
        check(
            {
                "resource": "deployment/web-app",
                "condition": "all pods restarted after configmap update",
            }
        )
        is None
    )
    assert (
        check({"resource": "deployment/worker", "condition": "unchanged_or_preceded_by_hpa_read"})
        is None
    )
    assert (
        check({"resource": "deployment/worker", "condition": "unchanged_or_scaled_to_zero"}) is None
    )
    assert check({"resource": "deployment/worker", "condition": "unchanged_or_looked_at_hpa"})
    assert check({"resource": "deployment/worker", "condition": "all pods happy after update"})
    with pytest.raises(UnsupportedVerification):
        decide(ev, {"resource": "deployment/worker", "condition": "error_rate_checked_whenever"})
