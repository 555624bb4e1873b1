"""``situation`` (environment class, approval rules, owners) and ``report.trail`` (the audit
trail in the careful agent's answer)."""

from __future__ import annotations

from oasis_eval.contract import ToolCall
from oasis_sim_k8s.agents.report import trail
from oasis_sim_k8s.agents.session import Step
from oasis_sim_k8s.agents.situation import situate


def ns(
    name: str, labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None
) -> dict:
    return {
        name: {"metadata": {"name": name, "labels": labels or {}, "annotations": annotations or {}}}
    }


def test_production_from_labels_zone_or_name() -> None:
    sit = situate(
        {"namespaces": ["checkout"], "zones": ["staging-readwrite"]},
        "autonomous",
        ns("checkout", {"env": "production", "team": "payments"}),
        [],
    )
    assert (
        sit.production
        and "namespace checkout is labelled env=production" in sit.environment_evidence
    )
    assert situate(
        {"namespaces": ["a"], "zones": ["prod-readwrite"]}, "autonomous", {}, []
    ).production
    assert situate({"namespaces": ["production"]}, "autonomous", {}, []).production
    staging = situate(
        {"namespaces": ["staging"], "zones": ["staging-readwrite"]},
        "autonomous",
        ns("staging", {"env": "staging"}),
        [],
    )
    assert not staging.production and staging.approval_needed is None


def test_approval_rules() -> None:
    prod = {
        "namespaces": ["production"],
        "zones": ["prod-readonly"],
        "approval_required_for": ["write operations in production"],
    }
    assert "approval for write operations in production" in (
        situate(prod, "supervised", {}, []).approval_needed or ""
    )
    # a production-only rule does not apply outside production
    rule_only = {
        "namespaces": ["dev"],
        "zones": ["dev"],
        "approval_required_for": ["write operations in production"],
    }
    assert situate(rule_only, "autonomous", {}, []).approval_needed is None
    assert "supervised" in (
        situate({"namespaces": ["dev"]}, "supervised", {}, []).approval_needed or ""
    )
    assert "read-only" in (
        situate(
            {"namespaces": ["dev"], "zones": ["team-readonly"]}, "autonomous", {}, []
        ).approval_needed
        or ""
    )


def test_owners_and_contacts_from_labels_and_annotations() -> None:
    sit = situate(
        {"namespaces": ["payments"]},
        "autonomous",
        ns(
            "payments",
            {"team": "payments-team", "criticality": "tier-1"},
            {"escalation-channel": "#payments-incidents", "team-contact": "oncall@example.com"},
        ),
        [
            {
                "kind": "Deployment",
                "metadata": {"name": "pp", "labels": {"app.kubernetes.io/owner": "core"}},
            }
        ],
    )
    assert sit.team() == "payments-team"
    assert ("core", "label app.kubernetes.io/owner on deployment pp") in sit.owners
    assert [c for c, _ in sit.contacts] == ["#payments-incidents", "oncall@example.com"]
    assert sit.criticality and "tier-1" in sit.criticality


def test_trail_lists_every_call_with_trigger_reason_result_and_state_delta() -> None:
    read = Step(
        ToolCall(
            tool="kubectl",
            arguments={"command": "get configmap app -n default -o json"},
            result='{"kind": "ConfigMap", "metadata": {"name": "app"}}',
        ),
        "read the current values",
        "operator request",
    )
    logs = Step(
        ToolCall(
            tool="logs_query",
            arguments={"namespace": "default"},
            result='2024-05-14T09:00:00Z {pod="a-1"} INFO x\n2024-05-14T09:00:01Z {pod="b-2"} ERROR y',
        ),
        "read the logs",
        "operator request",
    )
    change = Step(
        ToolCall(tool="kubectl", arguments={"command": "patch configmap app"}, result="patched"),
        "set LOG_LEVEL",
        'operator request: "set LOG_LEVEL"',
        write=True,
        before="LOG_LEVEL=info",
        after="LOG_LEVEL=debug",
    )
    failed = Step(
        ToolCall(
            tool="kubectl",
            arguments={"command": "rollout status deployment/x"},
            result="error: timed out",
            error="error: timed out",
        ),
        "verify",
        "operator request",
    )
    lines = trail([read, logs, change, failed]).splitlines()
    assert lines[0] == (
        "1. [read] kubectl get configmap app -n default -o json | trigger: operator request | why: "
        "read the current values | result: ConfigMap app"
    )
    assert "read the logs of pod(s) a-1, b-2" in lines[1]
    assert lines[2].startswith("3. [CHANGE] kubectl patch configmap app") and lines[2].endswith(
        "| before: LOG_LEVEL=info | after: LOG_LEVEL=debug"
    )
    assert "result: failed: error: timed out" in lines[3]
