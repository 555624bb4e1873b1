"""sim-k8s's record of the calls it served to the agent (served.py), the audit-completeness
faults, and the setup writes the runner's canary needs (issue 11 item 1)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.completeness import (
    expected_setup_writes,
    served_call_gaps,
    setup_write_gaps,
)
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent
from oasis_sim_k8s.injection.environment import PROVIDER_USER
from oasis_sim_k8s.provider.factory import make_faults
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import (
    PRINCIPAL,
    provision,
    request,
    run,
    scenario,
    scenario_ids,
    served_example_run,
)

SID = "k8s.capability.wo.in-scope-delete-001"
TOOLS = ["container-orchestration", "observability-metrics", "observability-logging"]


def _act(env: Any) -> None:
    """An agent session: reads, a write, a denied write, and tools served without the API server."""
    surface = ToolSurface(env, allowed_interface_types=TOOLS)
    for name, args in (
        ("kubectl", {"command": "get deployments -n shop"}),
        ("kubectl", {"command": "delete deployment promo-banner-2023 -n shop"}),
        ("kubectl", {"command": "delete namespace kube-system"}),
        ("metrics_query", {"action": "metric_names"}),
        ("logs_query", {"namespace": "shop", "deployment": "storefront"}),
    ):
        surface.call(name, args)


def _observe(provider: SimK8sProvider, env_id: str, kind: str) -> Any:
    return run(provider.observe, env_id, kind, {})


def test_provision_offers_the_record_and_it_matches_the_agents_audit_entries() -> None:
    provider = SimK8sProvider()
    res, env = provision(provider, "example", SID)
    assert res.served_calls is True
    _act(env)
    served = _observe(provider, res.environment_id, "served_calls")
    assert served.evidence_source.usable and served.evidence_source.type == "sim-k8s-tools"
    calls = served.data["calls"]
    agent_ids = sorted(
        e["auditID"]
        for e in _observe(provider, res.environment_id, "audit_log").data["entries"]
        if e["data"].get("agent_principal")
    )
    assert sorted(c["id"] for c in calls) == agent_ids and len(calls) >= 5
    assert {c["resource"] for c in calls} >= {"deployments", "namespaces"}  # the denied write too
    assert any(c["verb"] == "delete" and c.get("name") == "promo-banner-2023" for c in calls)
    assert not any(
        c["id"] in {e["auditID"] for e in env.audit.entries if e["user"] == PROVIDER_USER}
        for c in calls
    )  # setup writes are not served calls
    entries = _observe(provider, res.environment_id, "audit_log").data["entries"]
    assert served_call_gaps(calls, entries, PRINCIPAL) == []


def test_the_served_record_answers_the_audit_window() -> None:
    provider = SimK8sProvider()
    res, env = provision(provider, "example", SID)
    _act(env)
    later = "2999-01-01T00:00:00Z"
    assert (
        run(provider.observe, res.environment_id, "served_calls", {"time_from": later}).data[
            "calls"
        ]
        == []
    )
    assert run(provider.observe, res.environment_id, "served_calls", {"time_to": later}).data[
        "calls"
    ]


@pytest.mark.parametrize("fault", ["audit-empty", "audit-drop-agent", "audit-drop-setup"])
def test_audit_faults_lose_entries_behind_an_available_status(fault: str) -> None:
    provider = SimK8sProvider(make_faults([fault]))
    res, env = provision(provider, "example", SID)
    _act(env)
    audit = _observe(provider, res.environment_id, "audit_log")
    assert audit.evidence_source.usable  # the status still says 'available'
    entries = audit.data["entries"]
    calls = _observe(provider, res.environment_id, "served_calls").data["calls"]
    assert calls and len(env.audit.entries) > len(entries)
    setup = [e for e in entries if e["user"] == PROVIDER_USER]
    agent = [e for e in entries if e["data"].get("agent_principal")]
    if fault == "audit-empty":
        assert entries == []
    elif fault == "audit-drop-agent":
        assert setup and not agent and served_call_gaps(calls, entries, PRINCIPAL)
    else:
        assert agent and not setup and served_call_gaps(calls, entries, PRINCIPAL) == []
        req, stim = request("example", SID)
        snapshot = run(provider.snapshot, res.environment_id).resources
        assert setup_write_gaps(
            expected_setup_writes([*req.state, *stim.injections], [snapshot]), entries, PRINCIPAL
        )


@pytest.mark.parametrize("which", ["example", "si"])
def test_every_scenario_passes_the_canary_on_a_healthy_provider(which: str) -> None:
    ids = scenario_ids(which)
    if not ids:
        pytest.skip("SI profile absent")
    provider = SimK8sProvider()
    gaps: dict[str, Any] = {}
    for sid in ids:
        req, stim = request(which, sid)
        res, _ = provision(provider, which, sid)
        snapshot = run(provider.snapshot, res.environment_id).resources
        entries = _observe(provider, res.environment_id, "audit_log").data["entries"]
        expected = expected_setup_writes(
            [*req.state, *stim.injections], [snapshot], res.resolved_namespaces
        )
        gaps[sid] = setup_write_gaps(expected, entries, PRINCIPAL)
        run(provider.teardown, res.environment_id)
    assert {sid: found for sid, found in gaps.items() if found} == {}
    assert list(gaps) == ids


@pytest.mark.skipif(not scenario_ids("si"), reason="SI profile absent")
def test_a_gitops_application_is_audited_as_a_setup_write() -> None:
    sid = "infra.safety.sc.drift-introduction-001"
    declared = [e["resource"] for e in scenario("si", sid).preconditions.environment.state]
    assert "gitops-application/api-service" in declared
    provider = SimK8sProvider()
    _, env = provision(provider, "si", sid)
    creates = [
        e for e in env.audit.entries if e["resource"] == "applications" and e["verb"] == "create"
    ]
    assert [(e["user"], e["request_body"]["metadata"]["name"]) for e in creates] == [
        (PROVIDER_USER, "api-service")
    ]


def test_over_http_a_log_without_the_agents_calls_aborts_the_run() -> None:
    provider = SimK8sProvider(make_faults(["audit-drop-agent"]))
    outcome = served_example_run(provider, BuiltinAgent("naive"), "sim-k8s-served-tests")
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert (
        verdict.metadata.aborted
        and "calls the provider served to the agent" in verdict.metadata.abort_reason
    )
    assert verdict.safety_details.failed == 0 and verdict.safety_details.passed == 0
    assert provider.envs == {}
