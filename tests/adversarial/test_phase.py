"""The adversarial phase (07 §4): after the core, same execution flow, never changes the core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.adversarial.phase_output import write_adversarial
from oasis_eval.contract import ProviderFault
from oasis_eval.engine.plugin_watch import JudgementFault, judgement_fault
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.replay import replay
from oasis_eval.engine.rundir import redacted_profile, write_run
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.files import gzip_bytes, read_maybe_gzip
from oasis_eval.reporting import validate_verdict_data, verdict_data, write_reports
from oasis_eval.spec.common import VerdictStatus
from oasis_eval.spec.probe import Probe
from oasis_sim_k8s import SimK8sProvider

from ..support import faulting_evaluator
from .phase_support import ScenarioProbes, config, example_profile, run

_VOLATILE = ("timestamp", "duration")


def _core(outcome: Any) -> dict[str, Any]:
    """Everything the core evaluation produced, without timestamps/duration and the adversarial parts."""
    data = verdict_data(outcome.record.verdict)["verdict"]
    data.pop("adversarial_verification", None)
    for key in _VOLATILE:
        data["metadata"].pop(key)
    record = outcome.record.model_dump(
        mode="json", exclude={"run_id", "verdict", "adversarial", "conformance_claim"}
    )
    for scenario in record["scenarios"]:  # the audit-log window and agent seconds are wall-clock
        scenario.pop("agent_seconds", None)
        for observation in scenario["observations"]:
            for key in ("time_from", "time_to"):
                observation["parameters"].pop(key, None)
    claim = outcome.record.conformance_claim
    claim_data = (
        None if claim is None else claim.model_dump(exclude={"date", "adversarial_verification"})
    )
    return {"verdict": data, "record": record, "claim": claim_data}


class FaultyProvider:
    """sim-k8s, except that provisioning fails for the scenarios ``fails`` picks."""

    def __init__(self, fails: Any):
        self.inner, self.fails = SimK8sProvider(), fails

    async def provision(self, request: Any) -> Any:
        if self.fails(request.scenario_id):
            raise ProviderFault("simulated provider outage")
        return await self.inner.provision(request)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.fixture(scope="module")
def naive_runs() -> tuple[Any, Any]:
    return run("naive"), run("naive", config(ScenarioProbes()))


@pytest.mark.parametrize("agent", ["careful", "naive"])
def test_core_results_identical_with_and_without_the_phase(
    agent: str, naive_runs: tuple[Any, Any]
) -> None:
    plain, with_phase = (
        naive_runs if agent == "naive" else (run(agent), run(agent, config(ScenarioProbes())))
    )
    assert with_phase.record.verdict.adversarial_verification is not None
    assert plain.record.verdict.adversarial_verification is None
    assert _core(plain) == _core(with_phase)
    assert plain.exit_code == with_phase.exit_code
    assert with_phase.evidence.keys() == plain.evidence.keys()  # probe evidence is kept apart


def test_phase_runs_after_a_core_fail_and_serializes_failed_safety_probes(
    naive_runs: tuple[Any, Any], tmp_path: Path
) -> None:
    _, outcome = naive_runs
    assert outcome.record.verdict.safety is VerdictStatus.FAIL
    block = outcome.record.verdict.adversarial_verification
    assert block is not None and block.performed
    executed = [
        p for p in outcome.record.adversarial.probes if p.result.state is ScenarioState.executed
    ]
    failed = [p for p in executed if p.result.status is VerdictStatus.FAIL]
    assert failed and block.safety_results.any_safety_violation
    assert block.safety_results.failed == len(failed)
    assert block.safety_results.total == len(executed)
    assert block.probe_summary.composition_probes == 1
    composed = [f for f in block.safety_results.failures if f.secondary_archetypes]
    assert composed and composed[0].secondary_archetypes == ["C-AS-001"]
    assert not validate_verdict_data(verdict_data(outcome.record.verdict))
    write_adversarial(tmp_path, outcome.adversarial)
    for failure in block.safety_results.failures:
        path = tmp_path / failure.probe_serialized
        assert path.is_file() and failure.probe_serialized.startswith("probes/failed/")
        data = yaml.safe_load(path.read_text())
        assert data["archetype"] == failure.primary_archetype
    assert sorted(p.name for p in (tmp_path / "probes" / "evidence").iterdir()) == sorted(
        f"{p.probe.scenario.id}.json.gz" for p in executed
    )


def test_primary_archetype_decides_attribution_and_classification() -> None:
    profile = example_profile()
    base = profile.scenario("k8s.safety.pi.log-line-delete-order-001")
    capability = profile.scenario("k8s.capability.dg.log-triage-001")
    assert base is not None and capability is not None
    # a safety probe whose secondary archetype is a capability one stays a safety probe
    mixed = Probe(
        scenario=base.model_copy(update={"id": "x.mixed"}),
        primary_archetype=base.archetype,
        secondary_archetypes=(capability.archetype,),
        description="safety under load",
    )
    # a probe claiming a capability primary archetype for a safety scenario is inconsistent: rejected
    wrong = Probe(
        scenario=base.model_copy(update={"id": "x.wrong"}),
        primary_archetype=capability.archetype,
        description="inconsistent",
    )
    unanchored = Probe(
        scenario=base.model_copy(update={"id": "x.unanchored"}),
        primary_archetype="S-NOPE-9",
        description="no such archetype",
    )
    gen = ScenarioProbes("capability", compose=False, extra=[mixed, wrong, unanchored])
    outcome = run("careful", config(gen))
    detail = outcome.record.adversarial
    by_id = {p.probe.scenario.id: p for p in detail.probes}
    assert by_id["x.mixed"].classification == "safety"
    assert by_id["x.mixed"].result.status is VerdictStatus.PASS
    assert by_id["x.wrong"].result.state is ScenarioState.skipped
    assert "07 §4.4" in (by_id["x.wrong"].result.skip_reason or "")
    assert "07 §3.2" in (by_id["x.unanchored"].result.skip_reason or "")
    assert len(detail.rejected) == 2
    block = outcome.record.verdict.adversarial_verification
    scored = [
        p for p in detail.probes if p.classification == "capability" and p.result.score is not None
    ]
    assert block.capability_results.total == len(scored) > 0
    assert set(block.capability_results.per_archetype or {}) == {
        p.probe.primary_archetype for p in scored
    }
    assert block.safety_results.total == 1  # the mixed probe only
    # counted by the primary archetype: the inconsistent probe counts as a capability probe
    assert block.probe_summary.safety_probes == 2
    assert block.probe_summary.capability_probes == len(detail.probes) - 2


def test_not_performed_after_an_aborted_core() -> None:
    provider = FaultyProvider(lambda scenario_id: scenario_id.startswith("k8s.safety.ae"))
    outcome = run("careful", config(ScenarioProbes()), provider=provider)
    assert outcome.record.verdict.metadata.aborted
    assert outcome.record.verdict.adversarial_verification is None
    assert outcome.record.adversarial is not None and not outcome.record.adversarial.performed
    assert "07 §4.1" in (outcome.record.adversarial.not_performed_reason or "")


def test_a_probe_provider_failure_ends_the_phase_only() -> None:
    plain = run("careful")
    provider = FaultyProvider(
        lambda scenario_id: scenario_id.endswith(".probe") and ".bv." in scenario_id
    )
    outcome = run("careful", config(ScenarioProbes()), provider=provider)
    assert _core(plain) == _core(outcome)
    assert outcome.exit_code == plain.exit_code == 0
    block = outcome.record.verdict.adversarial_verification
    assert block.aborted is True and "simulated provider outage" in (block.abort_reason or "")
    assert block.abort_reason.startswith("probe k8s.safety.bv.")
    assert not validate_verdict_data(verdict_data(outcome.record.verdict))
    assert "cut short" in outcome.record.conformance_claim.adversarial_verification
    states = {p.result.state for p in outcome.record.adversarial.probes}
    assert (
        ScenarioState.not_run in states
        or block.safety_results.total < block.probe_summary.safety_probes
    )


def test_generator_failure_is_recorded_not_raised() -> None:
    class Broken(ScenarioProbes):
        def generate(self, profile: Any, request: Any) -> list[Probe]:
            raise RuntimeError("model endpoint unreachable")

    outcome = run("careful", config(Broken()))
    block = outcome.record.verdict.adversarial_verification
    assert block.aborted and "model endpoint unreachable" in (block.abort_reason or "")
    assert block.probe_summary.total_probes == 0


def test_conformance_claim_states_method_and_probe_count() -> None:
    outcome = run("careful", config(ScenarioProbes(), count=3))
    claim = outcome.record.conformance_claim
    assert claim is not None
    assert claim.adversarial_verification.startswith("performed: mutation generator")
    assert "3 probe(s)" in claim.adversarial_verification
    assert run("careful").record.conformance_claim.adversarial_verification == "not performed"


def test_replay_rejudges_probes_and_reproduces_the_block(
    naive_runs: tuple[Any, Any], tmp_path: Path
) -> None:
    _, outcome = naive_runs
    profile = example_profile()
    write_run(tmp_path, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))
    write_adversarial(tmp_path, outcome.adversarial)
    write_reports(outcome.record, tmp_path)
    assert replay(tmp_path).identical
    # the block is recomputed from the stored probe evidence, not copied: damage it and replay differs
    evidence = sorted((tmp_path / "probes" / "evidence").iterdir())[0]
    data = json.loads(read_maybe_gzip(evidence))
    data["fault"] = "tampered: the probe no longer has usable evidence"
    evidence.write_bytes(gzip_bytes(json.dumps(data).encode()))
    assert not replay(tmp_path).identical


# ---- a plugin fault while judging a probe stops that probe's judgement only (s22-gate38) -----------

#: the probe whose judgement the faulting evaluator breaks: the scope-boundary one (its
#: protected-zone sibling is above the claimed tier, never judged)
FAULTED_PROBES = ["k8s.safety.bv.cross-namespace-delete-001.probe"]


def _probe_faults(monkeypatch: pytest.MonkeyPatch) -> None:
    faulting_evaluator(monkeypatch, lambda s: s.id.endswith(".probe"))


@pytest.mark.parametrize("parallel", [1, 3], ids=["serial", "parallel"])
def test_a_probe_plugin_fault_stops_that_probe_only_and_exits_4_over_the_verdict(
    parallel: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """07 §4.3: the core verdict is untouched (PASS, written, claimed); the faulted probes are
    neither PASS nor FAIL, named in the block, the other probes judged; a harness fault is
    never exit 0 (4)."""
    inputs = RunInputs(evaluator="adv2-tests", parallel=parallel)
    plain = run("careful", inputs=inputs)
    _probe_faults(monkeypatch)
    said: list[str] = []
    outcome = run("careful", config(ScenarioProbes()), inputs=inputs, progress=said.append)
    assert _core(plain) == _core(outcome) and outcome.record.verdict.safety is VerdictStatus.PASS
    assert plain.exit_code == 0 and outcome.exit_code == 4
    by_id = {p.probe.scenario.id: p for p in outcome.record.adversarial.probes}
    for probe in FAULTED_PROBES:
        result = by_id[probe].result
        assert result.state is ScenarioState.executed and result.status is None
        assert judgement_fault(result) is not None and "the plugin broke" in (result.fault or "")
    judged = [p for p in by_id.values() if p.judged]
    executed = [p for p in by_id.values() if p.result.state is ScenarioState.executed]
    assert len(judged) == len(executed) - len(FAULTED_PROBES) > 0  # the others were judged
    block = outcome.record.verdict.adversarial_verification
    assert block is not None and not block.aborted
    assert [line.split(":")[0] for line in block.judgement_faults or []] == [
        f"probe {p}" for p in FAULTED_PROBES
    ]
    assert block.safety_results.total == sum(1 for p in judged if p.classification == "safety")
    assert not validate_verdict_data(verdict_data(outcome.record.verdict))
    claim = outcome.record.conformance_claim
    assert claim is not None and "plugin faulted" in claim.adversarial_verification
    assert any(f"{FAULTED_PROBES[0]}: no verdict" in line for line in said)  # said at once


def test_a_probe_plugin_fault_beside_a_core_fail_keeps_exit_1(
    naive_runs: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, clean = naive_runs
    _probe_faults(monkeypatch)
    outcome = run("naive", config(ScenarioProbes()))
    assert _core(clean) == _core(outcome) and outcome.exit_code == clean.exit_code == 1
    block = outcome.record.verdict.adversarial_verification
    assert block is not None and len(block.judgement_faults or []) == len(FAULTED_PROBES)


def test_replay_accepts_a_probe_fault_only_where_the_run_recorded_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same plugin replays the block identically; a plugin faulting on a probe the run
    judged is this replay's internal error (JudgementFault: exit 4), as in the core."""
    faulting_evaluator(monkeypatch, lambda s: s.id == FAULTED_PROBES[0])
    outcome = run("careful", config(ScenarioProbes()))
    write_run(
        tmp_path, outcome.record, outcome.evidence, redacted_profile(example_profile(), Redactor())
    )
    write_adversarial(tmp_path, outcome.adversarial)
    write_reports(outcome.record, tmp_path)
    assert replay(tmp_path).identical
    assert "not judged: plugin fault" in (tmp_path / "report.html").read_text()
    injected = "k8s.safety.pi.log-line-delete-order-001.probe"
    faulting_evaluator(monkeypatch, lambda s: s.id == injected, "ignore_embedded_instructions")
    with pytest.raises(JudgementFault) as caught:  # a probe the run judged now faults
        replay(tmp_path)
    assert caught.value.scenario_id == injected
