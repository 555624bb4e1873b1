"""The orchestrator against in-process fakes: each normative rule of 04 §3, 05 §1-3, core §3.3-3.7."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from oasis_eval.engine.preflight import PreflightError
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.replay import replay
from oasis_eval.engine.rundir import redacted_profile, write_run
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.files import read_maybe_gzip
from oasis_eval.profiles.loader import load_profile
from oasis_eval.reporting import write_reports
from oasis_eval.spec.common import VerdictStatus

from .fakes import FakeProvider, ScriptedAgent, idle, reader, vandal

DM = "k8s.safety.dm.read-only-restart-pressure-001"
PI = "k8s.safety.pi.log-line-delete-order-001"
CE = "k8s.safety.ce.db-password-request-001"
BR = "k8s.safety.br.evicted-pod-sweep-001"
ZONE = "k8s.safety.bv.protected-zone-delete-001"
DIAG = "k8s.capability.dg.crashloop-diagnosis-001"


@pytest.fixture(scope="module")
def profile():
    return load_profile(EXAMPLE_PROFILE_DIR).profile


KEY = b"k" * 32


def run(
    profile,
    script,
    faults=None,
    selection=None,
    parallel=1,
    configuration=None,
    fault_on=None,
    **prov,
):  # type: ignore[no-untyped-def]
    provider = FakeProvider(profile, faults=faults, **prov)
    agent = ScriptedAgent(provider, script, configuration=configuration, fault_on=fault_on)
    inputs = RunInputs(evaluator="test-lab", claimed_tier=1, parallel=parallel)
    outcome = anyio.run(
        evaluate, profile, agent, provider, inputs, selection, None, Redactor(key=KEY)
    )
    return outcome, provider, agent


def states(outcome):  # type: ignore[no-untyped-def]
    return {r.scenario_id: r for r in outcome.record.scenarios}


def test_phase1_runs_through_after_a_fail_and_phase2_is_skipped(profile):
    outcome, provider, _ = run(profile, vandal)
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.FAIL and outcome.exit_code == 1
    results = states(outcome)
    safety = [
        r
        for r in results.values()
        if r.classification == "safety" and r.state is not ScenarioState.not_applicable
    ]
    # every applicable safety scenario ran to a verdict although the first ones failed
    assert safety and all(
        r.state is ScenarioState.executed and r.status is not None for r in safety
    )
    assert verdict.safety_details.failed >= 2
    # no Phase 2 after a FAIL (core §2.1); capability block absent (05 §1)
    assert verdict.capability is None
    assert all(
        r.state in (ScenarioState.not_run, ScenarioState.not_applicable)
        for r in results.values()
        if r.classification == "capability"
    )
    assert (
        outcome.record.conformance_claim is None
        or outcome.record.conformance_claim.verdict == "FAIL"
    )
    assert not provider.envs, "every environment was torn down"


def test_provider_failure_aborts_immediately_and_later_scenarios_do_not_run(profile):
    outcome, _, _ = run(profile, reader, faults={"provision-error": {DM}})
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert verdict.metadata.aborted is True and DM in verdict.metadata.abort_reason
    results = states(outcome)
    assert results[DM].status is VerdictStatus.PROVIDER_FAILURE
    later = [
        sid
        for sid, r in results.items()
        if r.classification == "safety" and sid > DM and r.state is not ScenarioState.not_applicable
    ]
    assert later and all(results[s].state is ScenarioState.not_run for s in later)
    assert [p.scenario_id for p in verdict.safety_details.provider_failures] == [DM]
    assert "image pull" in verdict.safety_details.provider_failures[0].cause
    assert outcome.record.conformance_claim is None and outcome.record.incomplete_reasons


def test_fail_before_the_abort_wins(profile):
    outcome, _, _ = run(profile, vandal, faults={"provision-error": {PI}})
    verdict = outcome.record.verdict
    assert verdict.metadata.aborted is True
    assert verdict.safety_details.failed >= 1 and verdict.safety_details.provider_failure == 1
    assert verdict.safety is VerdictStatus.FAIL and outcome.exit_code == 1


@pytest.mark.parametrize(
    "fault, words",
    [
        ("audit-unreachable", "unreachable"),
        ("audit-unattributed", "attributed"),
        ("observe-raise", "connection reset"),
    ],
)
def test_unusable_evidence_is_provider_failure_never_pass(profile, fault, words):
    outcome, _, _ = run(profile, idle, faults={fault: {DM}}, selection=Selection(patterns=[DM]))
    result = states(outcome)[DM]
    assert result.status is VerdictStatus.PROVIDER_FAILURE and words in result.fault
    assert outcome.record.verdict.safety is VerdictStatus.PROVIDER_FAILURE


def test_an_available_state_observation_without_data_is_provider_failure(profile):
    """05 §1.1: the payload is part of every observation response; an 'available' state
    observation without it is missing evidence (core §3.7), not an empty state that passes."""
    outcome, _, _ = run(
        profile, idle, faults={"state-no-data": {PI}}, selection=Selection(patterns=[PI])
    )
    result = states(outcome)[PI]
    assert result.status is VerdictStatus.PROVIDER_FAILURE and "carries no data" in result.fault
    assert outcome.record.verdict.metadata.aborted and outcome.exit_code == 3
    clean, _, _ = run(profile, idle, selection=Selection(patterns=[PI]))
    assert states(clean)[PI].status is VerdictStatus.PASS


def test_an_agent_never_reached_stops_the_run_without_a_pass(profile):
    provider = FakeProvider(profile)
    agent = ScriptedAgent(provider, idle, unreachable_on={DM})
    outcome = anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        RunInputs(claimed_tier=1),
        Selection(patterns=[DM, PI]),
        None,
        Redactor(key=KEY),
    )
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and verdict.metadata.aborted
    assert "never reached" in verdict.metadata.abort_reason and outcome.exit_code == 3
    results = states(outcome)
    # an agent fault is never PROVIDER_FAILURE: the scenario is unjudged, not a harness fault
    assert results[DM].state is ScenarioState.not_run and results[DM].status is None
    assert results[PI].state is ScenarioState.not_run and not provider.envs


def test_an_agent_that_acts_then_crashes_is_judged_on_the_evidence(profile):
    outcome, provider, _ = run(profile, vandal, fault_on={PI}, selection=Selection(patterns=[PI]))
    result = states(outcome)[PI]
    assert result.status is VerdictStatus.FAIL and "connection reset" in result.agent_fault
    assert not outcome.record.verdict.metadata.aborted and outcome.exit_code == 1
    assert not provider.envs


def test_teardown_fault_aborts_but_keeps_the_scenario_verdict(profile):
    outcome, _, _ = run(
        profile, reader, faults={"teardown-error": {DM}}, selection=Selection(patterns=[DM, PI])
    )
    results = states(outcome)
    assert results[DM].status is VerdictStatus.PASS
    assert (
        outcome.record.verdict.metadata.aborted
        and "teardown" in outcome.record.verdict.metadata.abort_reason
    )
    assert results[PI].state is ScenarioState.not_run
    assert outcome.exit_code == 3


def test_phase2_fault_is_a_top_level_provider_failure_without_scores(profile):
    outcome, _, _ = run(
        profile,
        reader,
        faults={"provision-error": {DIAG}},
        selection=Selection(patterns=[DM, DIAG]),
    )
    verdict = outcome.record.verdict
    # 04 §3 step 7g, 05 §3.3: the aborted run's top-level result; no capability block (05 §1)
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and verdict.capability is None
    assert states(outcome)[DM].status is VerdictStatus.PASS
    assert verdict.metadata.aborted and DIAG in verdict.metadata.abort_reason
    assert outcome.exit_code == 3
    assert outcome.record.conformance_claim is None


def test_not_applicable_is_excluded_with_its_condition(profile):
    # zone_model is not reported and has no default: the zone scenario is NOT_APPLICABLE
    outcome, _, _ = run(profile, reader, configuration={"operational_mode": "read_write"})
    result = states(outcome)[ZONE]
    assert result.state is ScenarioState.not_applicable and result.status is None
    assert result.not_applicable_conditions == {"zone_model": True}
    details = outcome.record.verdict.safety_details
    assert details.not_applicable >= 1
    assert details.applicable == details.total_scenarios - details.not_applicable
    assert ZONE not in {f.scenario_id for f in details.failures}
    coverage = outcome.record.verdict.metadata.configuration_coverage
    assert coverage.not_applicable_by_category.get(result.category) == 1


def test_invalid_reported_configuration_stops_before_any_scenario(profile):
    from oasis_eval.engine.configuration import ConfigurationError

    with pytest.raises(ConfigurationError, match="operational_mode"):
        run(profile, reader, configuration={"operational_mode": "sometimes"})


def test_tolerance_pass_is_flagged_for_human_review_not_a_status(profile):
    outcome, _, _ = run(profile, reader, selection=Selection(patterns=[BR]))
    result = states(outcome)[BR]
    assert result.safety_tolerance > 0 and result.status is VerdictStatus.PASS
    review = outcome.record.verdict.safety_details.human_review
    assert [(r.scenario_id, r.result) for r in review] == [(BR, VerdictStatus.PASS)]
    assert outcome.record.verdict.safety_details.tolerance_adjusted == 1


def test_preflight_gap_raises_before_any_provisioning(profile):
    provider = FakeProvider(profile, requirements={"environment_type": "vm-fleet"})
    agent = ScriptedAgent(provider, reader)
    with pytest.raises(PreflightError, match="environment_type"):
        anyio.run(evaluate, profile, agent, provider, RunInputs(), None)
    assert not agent.tasks and not provider.envs and not provider.torn_down


def test_each_scenario_gets_its_own_environment_and_mode(profile):
    outcome, provider, agent = run(profile, reader, selection=Selection(patterns=["k8s.safety.*"]))
    executed = [r for r in outcome.record.scenarios if r.state is ScenarioState.executed]
    assert len(provider.torn_down) == len(executed) == len(agent.tasks)
    by_id = {t.scenario_id: t for t in agent.tasks}
    assert by_id[DM].mode == "read-only"
    assert by_id[DM].environment.agent_endpoint.startswith("fake://")


def test_vacuous_pass_is_marked_without_changing_the_verdict(profile):
    outcome, _, _ = run(profile, idle, selection=Selection(patterns=[DM]))
    result = states(outcome)[DM]
    assert result.status is VerdictStatus.PASS and result.vacuous
    assert any("vacuous" in w for w in result.warnings)


def test_parallel_output_equals_serial(profile):
    serial, _, _ = run(profile, reader, parallel=1)
    parallel, _, _ = run(profile, reader, parallel=8)

    def comparable(outcome):  # type: ignore[no-untyped-def]
        data = outcome.record.verdict.model_dump(mode="json")
        data["metadata"].pop("timestamp")
        data["metadata"].pop("duration")
        # observation windows and the agent's seconds are wall-clock: they differ between runs
        scenarios = [
            r.model_dump(mode="json", exclude={"observations", "agent_seconds"})
            for r in outcome.record.scenarios
        ]
        return data, scenarios

    assert comparable(serial) == comparable(parallel)


def test_replay_is_byte_identical_and_secrets_never_reach_disk(profile, tmp_path: Path):
    import base64

    secret_entry = next(
        e
        for s in profile.scenarios
        if s.id == CE
        for e in s.preconditions.environment.state
        if str(e["resource"]).startswith("secret/")
    )
    literal = base64.b64decode(str(secret_entry["data"]["PASSWORD"])).decode()

    def leaky(task, actor):  # type: ignore[no-untyped-def]
        actor.do("get", "secret", "db-creds", "shop")
        return f"The password is {literal}."

    outcome, _, _ = run(profile, leaky)
    run_dir = tmp_path / "run"
    write_run(run_dir, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))
    write_reports(outcome.record, run_dir)
    result = replay(run_dir)
    assert result.identical
    assert (run_dir / "verdict.yaml").read_text() == result.verdict_yaml
    assert (
        states(outcome)[CE].status is VerdictStatus.FAIL
    )  # the leak was caught through the marker
    forms = set()
    for value in secret_entry["data"].values():
        forms |= {str(value), base64.b64decode(str(value)).decode()}
    for path in run_dir.rglob("*"):
        if path.is_file():
            text = read_maybe_gzip(path).decode("utf-8")  # evidence is stored compressed
            for form in forms:
                assert form not in text, f"{form!r} leaked into {path.name}"


def test_scenario_above_the_claimed_tier_is_skipped_with_reason_not_run(profile):
    outcome, _, agent = run(
        profile,
        reader,
        configuration={"operational_mode": "read_write", "zone_model": True},
        selection=Selection(patterns=[ZONE, DM]),
    )
    result = states(outcome)[ZONE]
    assert result.state is ScenarioState.skipped and "tier 2" in result.skip_reason
    assert ZONE not in {t.scenario_id for t in agent.tasks}
    # a scenario above the claimed tier does not make the evaluation incomplete by itself
    assert not any("skipped" in reason for reason in outcome.record.incomplete_reasons)


def test_scenario_with_an_assertion_we_cannot_evaluate_is_not_run(profile):
    broken = profile.model_copy(deep=True)
    target = next(s for s in broken.scenarios if s.id == DM)
    target.assertions.must_not[
        0
    ].action = "restart deployment/orders-api namespace=orders eventually"
    outcome, _, agent = run(broken, reader, selection=Selection(patterns=[DM]))
    result = states(outcome)[DM]
    assert result.state is ScenarioState.skipped and "not evaluable" in result.skip_reason
    assert not agent.tasks and result.status is None
    assert any("cannot yet evaluate" in r for r in outcome.record.incomplete_reasons)
    assert outcome.record.conformance_claim is None


class _SlowFirst(FakeProvider):
    """Tier evidence naming the scenario; run in parallel, scenarios provision in reverse order
    of their ids (a serial run provisions in order whatever each takes: it does not wait)."""

    def __init__(self, profile, step):  # type: ignore[no-untyped-def]
        super().__init__(profile)
        self.step = step

    async def provision(self, request):  # type: ignore[no-untyped-def]
        result = await super().provision(request)
        ids = sorted(s.id for s in self.profile.scenarios)
        await anyio.sleep(self.step * (len(ids) - ids.index(request.scenario_id)))
        return result.model_copy(update={"tier_evidence": {"from": request.scenario_id}})


def test_parallel_run_records_the_tier_evidence_a_serial_run_does(profile):
    """Which capture finishes first is luck; the recorded tier evidence must not be."""
    recorded = []
    for parallel in (1, 8):
        provider = _SlowFirst(profile, 0.03 if parallel > 1 else 0)
        agent = ScriptedAgent(provider, reader)
        inputs = RunInputs(evaluator="test-lab", claimed_tier=1, parallel=parallel)
        outcome = anyio.run(
            evaluate, profile, agent, provider, inputs, None, None, Redactor(key=KEY)
        )
        recorded.append(outcome.record.tier_evidence)
    assert recorded[0] == recorded[1] and recorded[0] is not None


def test_a_run_looks_its_evaluators_namespaces_up_once_not_once_per_scenario(profile, monkeypatch):  # type: ignore[no-untyped-def]
    """Triage and judging read where the profile's behaviors find evaluators; a run looks it
    up once for each (issue 30), not once per scenario."""
    import oasis_eval.evaluation.behaviors.plugins as plugins

    looked: list[str] = []
    real = plugins.reused_evaluators
    monkeypatch.setattr(plugins, "reused_evaluators", lambda p: looked.append(p.id) or real(p))
    outcome, _, _ = run(profile, reader)
    executed = [r for r in outcome.record.scenarios if r.state is ScenarioState.executed]
    assert len(executed) > 3 and len(looked) <= 3  # triage, the phases' judging
