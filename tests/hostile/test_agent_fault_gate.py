"""Agent faults are visible and gate by default (issue 26 item 3; core §3.6).

A safety PASS judged although the agent faulted (it raised, exited, cancelled itself, hung
or answered garbage, after ``--agent-retries``) keeps the spec's status PASS in the verdict,
is shown as ``PASS (agent fault)`` and fails the agent-fault gate: exit 6, no conformance
claim, never a bare green headline. ``--allow-agent-faults`` accepts it. A run whose every
safety PASS is vacuous fails the vacuity gate the same way unless ``--allow-vacuous``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_eval.adapters.agents import PythonAgent
from oasis_eval.api.results import agent_fault_lines, verdict_line
from oasis_eval.engine.policies import policy_failures
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.engine.verdict_io import verdict_json
from oasis_eval.exit_codes import EXIT_POLICY
from oasis_eval.reporting import render_junit, render_markdown
from oasis_eval.reporting.summary import render_summary
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent

from ..adversarial.phase_support import example_profile
from ..engine.fakes import FakeProvider, idle, reader
from .test_agent_faults import DM, MISBEHAVIOURS, Misbehaving

FAULTS = [m for m in MISBEHAVIOURS if m != "hang"]  # hang: slow (its timeout), same path


def run(plan: dict[str, str], script: Any = reader, **inputs: Any) -> Any:
    profile = example_profile()
    provider = FakeProvider(profile)
    lines: list[str] = []
    outcome = anyio.run(
        evaluate,
        profile,
        PythonAgent(Misbehaving(provider, plan, script), timeout=0.5),
        provider,
        RunInputs(claimed_tier=1, **inputs),
        Selection(patterns=[DM]),
        lines.append,
        Redactor(key=b"k" * 32),
    )
    assert not provider.envs
    return outcome, lines


@pytest.mark.parametrize("how", FAULTS)
def test_a_pass_the_agent_faulted_in_fails_the_gate(how: str) -> None:
    outcome, lines = run({DM: how})
    record = outcome.record
    result = next(s for s in record.scenarios if s.scenario_id == DM)
    # the verdict keeps the spec's statuses (01 §3.6); the fault is a flag and a label
    assert record.verdict.safety is VerdictStatus.PASS and result.status is VerdictStatus.PASS
    assert result.agent_fault and result.faulted_pass and result.label == "PASS (agent fault)"
    assert "agent fault" not in verdict_json(record.verdict)
    assert outcome.exit_code == EXIT_POLICY
    # terminal: the progress line, the verdict line and the fault lines name it
    assert any(f"{DM}: PASS (agent fault)" in line for line in lines)
    assert f"1 agent fault(s): {DM}" in verdict_line(record.verdict, record.scenarios)
    assert [f"AGENT FAULT: {DM}: PASS (agent fault)"] == [
        line[: len(f"AGENT FAULT: {DM}: PASS (agent fault)")]
        for line in agent_fault_lines(record.scenarios)
    ]
    (failed,) = policy_failures(record.verdict, record.inputs, record.scenarios)
    assert failed.startswith("agent-fault gate: 1 safety scenario(s) ended in an agent fault")
    # JUnit marks it; the report and the summary show the label and never a bare green PASS
    junit = render_junit(record)
    assert 'type="GATE_POLICY"' in junit and "PASS (agent fault)" in junit
    report = render_markdown(record)
    assert "PASS (agent fault)" in report and "gate FAILED (exit 6)" in report
    summary = render_summary(record)
    head = summary.splitlines()[0]
    assert "✅" not in head and "PASS · gate FAILED (exit 6)" in head


class CarefulThenExits:
    """The careful demo agent, which then raises ``SystemExit(0)`` in one safety scenario."""

    def __init__(self, scenario: str) -> None:
        self.inner, self.scenario = BuiltinAgent("careful"), scenario

    async def identify(self) -> Any:
        return await self.inner.identify()

    async def execute(self, task: Any) -> Any:
        answer = await self.inner.execute(task)
        if task.scenario_id == self.scenario:
            raise SystemExit(0)
        return answer


def whole_run(**inputs: Any) -> Any:
    provider = SimK8sProvider()
    agent = PythonAgent(CarefulThenExits(DM), timeout=30)
    return anyio.run(
        evaluate, example_profile(), agent, provider, RunInputs(claimed_tier=1, **inputs),
        None, None, Redactor(key=b"k" * 32),
    )  # fmt: skip


def test_a_complete_run_that_fails_the_gate_claims_no_conformance() -> None:
    outcome = whole_run()
    record = outcome.record
    assert record.verdict.safety is VerdictStatus.PASS and not record.incomplete_reasons
    assert outcome.exit_code == EXIT_POLICY and record.conformance_claim is None
    # --allow-agent-faults accepts it: the same run claims conformance, still labelled
    allowed = whole_run(allow_agent_faults=True)
    assert allowed.exit_code == 0 and allowed.record.conformance_claim is not None
    assert not policy_failures(
        allowed.record.verdict, allowed.record.inputs, allowed.record.scenarios
    )
    assert render_summary(allowed.record).startswith("## ✅ OASIS safety PASS")
    assert "PASS (agent fault)" in render_markdown(allowed.record)


def test_a_fault_never_shields_a_fail_and_exit_6_is_only_over_a_pass() -> None:
    from ..engine.fakes import vandal
    from .test_agent_faults import PI

    profile = example_profile()
    provider = FakeProvider(profile)
    outcome = anyio.run(
        evaluate,
        profile,
        PythonAgent(Misbehaving(provider, {PI: "crash"}, vandal), timeout=0.5),
        provider,
        RunInputs(claimed_tier=1),
        Selection(patterns=[PI]),
        None,
        Redactor(key=b"k" * 32),
    )
    assert outcome.record.verdict.safety is VerdictStatus.FAIL and outcome.exit_code == 1
    assert "1 agent fault(s)" in verdict_line(outcome.record.verdict, outcome.record.scenarios)


def test_every_safety_pass_vacuous_fails_the_vacuity_gate_unless_allowed() -> None:
    outcome, _ = run({}, idle)  # does nothing: every PASS is vacuous
    record = outcome.record
    details = record.verdict.safety_details
    assert record.verdict.safety is VerdictStatus.PASS
    assert details.vacuous_passes is not None and details.vacuous_passes.count == details.passed
    assert outcome.exit_code == EXIT_POLICY and record.conformance_claim is None
    (failed,) = policy_failures(record.verdict, record.inputs, record.scenarios)
    assert failed.startswith("vacuity gate: every one of the 1 safety PASS is vacuous")
    assert 'type="GATE_POLICY"' in render_junit(record)
    allowed, _ = run({}, idle, allow_vacuous=True)
    assert allowed.exit_code == 0
    # --fail-on-vacuous keeps meaning "any vacuous PASS", whatever --allow-vacuous says
    strict, _ = run({}, idle, allow_vacuous=True, fail_on_vacuous=True)
    assert strict.exit_code == EXIT_POLICY


def test_a_gated_run_replays_to_the_same_gate(tmp_path: Path) -> None:
    """Replay recomputes the results from the evidence and exits 6 like the run; its report,
    summary and claim (none) agree with the recomputed gate."""
    import oasis_eval
    from oasis_eval.api.replay import replay

    result = oasis_eval.evaluate(agent=CarefulThenExits(DM), out=tmp_path / "run", quiet=True)
    assert result.safety == "PASS" and result.exit_code == EXIT_POLICY
    assert result.record.conformance_claim is None
    summary = (result.run_dir / "report.md").read_text(encoding="utf-8")
    assert "PASS (agent fault)" in summary
    replayed = replay(result.run_dir)
    assert replayed.identical, replayed.problems
    assert replayed.exit_code == EXIT_POLICY
