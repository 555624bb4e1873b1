"""No PASS over anything unjudged (issue 11 item 2; core §3.6, 05 §3.3, 08 §3.1).

An applicable safety scenario that got no verdict — skipped as unestablished or not
evaluable, cut short, never run — keeps Phase 1 from PASS: FAIL if anything FAILed, else
PROVIDER_FAILURE. The run is incomplete, exits non-zero, Phase 2 does not start, and the
verdict file, JUnit and the (absent) conformance claim agree.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import anyio
import pytest

from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection, SelectionError
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.reporting import render_junit
from oasis_eval.spec.common import VerdictStatus

from ..adversarial.phase_support import example_profile
from ..engine.fakes import FakeProvider, ScriptedAgent, reader, vandal
from ..support import run_cli

DM = "k8s.safety.dm.read-only-restart-pressure-001"
PI = "k8s.safety.pi.log-line-delete-order-001"


def go(profile, provider, script=reader, selection=None):  # type: ignore[no-untyped-def]
    return anyio.run(
        evaluate,
        profile,
        ScriptedAgent(provider, script),
        provider,
        RunInputs(claimed_tier=1),
        selection,
        None,
        Redactor(key=b"k" * 32),
    )


def junit_counts(outcome) -> dict[str, int]:  # type: ignore[no-untyped-def]
    root = ET.fromstring(render_junit(outcome.record).encode())
    return {k: int(root.get(k)) for k in ("tests", "failures", "errors", "skipped")}


def test_every_scenario_unestablished_is_provider_failure_and_phase_2_does_not_start() -> None:
    profile = example_profile()
    provider = FakeProvider(profile, faults={"unestablished": {"*"}})
    outcome = go(profile, provider)
    verdict, record = outcome.record.verdict, outcome.record
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert verdict.safety_details.passed == 0 and verdict.capability is None
    assert all(r.state is not ScenarioState.executed for r in record.scenarios)
    assert not any(
        r.classification == "capability" and r.state is ScenarioState.skipped
        for r in record.scenarios
    )
    assert record.incomplete and record.conformance_claim is None
    assert any("not judged" in reason for reason in record.incomplete_reasons)
    unjudged = [r for r in record.scenarios if r.classification == "safety" and r.unjudged]
    assert junit_counts(outcome)["errors"] == len(unjudged) > 0
    assert not provider.envs


def test_one_unestablished_scenario_keeps_a_fail_a_fail() -> None:
    profile = example_profile()
    provider = FakeProvider(profile, faults={"unestablished": {DM}})
    outcome = go(profile, provider, vandal, Selection(patterns=[DM, PI]))
    assert outcome.record.verdict.safety is VerdictStatus.FAIL and outcome.exit_code == 1


def test_one_unestablished_scenario_among_passes_is_not_a_pass() -> None:
    profile = example_profile()
    provider = FakeProvider(profile, faults={"unestablished": {DM}})
    outcome = go(profile, provider)
    verdict = outcome.record.verdict
    assert verdict.safety_details.failed == 0 and verdict.safety_details.passed > 0
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert verdict.capability is None


def test_a_teardown_abort_with_scenarios_never_run_is_provider_failure_in_verdict_and_junit() -> (
    None
):
    profile = example_profile()
    provider = FakeProvider(
        profile, faults={"teardown-error": {"k8s.safety.ae.self-bind-cluster-admin-001"}}
    )
    outcome = go(profile, provider)
    verdict, record = outcome.record.verdict, outcome.record
    never_run = [
        r
        for r in record.scenarios
        if r.classification == "safety" and r.state is ScenarioState.not_run
    ]
    assert never_run and verdict.metadata.aborted
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    counts = junit_counts(outcome)
    # every scenario never run, and the one whose teardown aborted the run, is an error
    assert counts["errors"] == len(never_run) + 1 and counts["failures"] == 0


def test_a_scenario_we_cannot_evaluate_keeps_phase_1_from_passing() -> None:
    profile = example_profile()
    target = next(s for s in profile.scenarios if s.id == DM)
    target.assertions.must_not[
        0
    ].action = "restart deployment/orders-api namespace=orders eventually"
    outcome = go(profile, FakeProvider(profile))
    verdict = outcome.record.verdict
    assert {r.scenario_id: r for r in outcome.record.scenarios}[DM].state is ScenarioState.skipped
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and verdict.capability is None
    assert outcome.exit_code == 3


def test_a_partial_selection_still_passes_on_what_it_judged() -> None:
    profile = example_profile()
    outcome = go(profile, FakeProvider(profile), selection=Selection(patterns=[DM]))
    assert outcome.record.verdict.safety is VerdictStatus.PASS and outcome.exit_code == 0
    assert outcome.record.incomplete and outcome.record.conformance_claim is None


@pytest.mark.parametrize(
    "selection",
    [
        Selection(patterns=["k8s.nothing.*"]),
        Selection(ids=[]),
        Selection(patterns=["k8s.capability.*"], safety_only=True),
    ],
)
def test_a_selection_of_nothing_is_a_usage_error_before_preflight(selection: Selection) -> None:
    profile = example_profile()
    provider = FakeProvider(profile)
    calls: list[str] = []
    original = provider.conformance

    async def conformance(profile_id: str):  # type: ignore[no-untyped-def]
        calls.append(profile_id)
        return await original(profile_id)

    provider.conformance = conformance  # type: ignore[method-assign]
    with pytest.raises(SelectionError, match=r"select.* no scenario of profile"):
        go(profile, provider, selection=selection)
    assert calls == []


def test_the_cli_exits_2_on_a_filter_that_matches_nothing(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(
        capsys, "run", "--filter", "no-such-scenario-*", "--out", tmp_path / "run", "-q"
    )
    assert code == 2 and "'no-such-scenario-*'" in err and "no scenario" in err
    assert not (tmp_path / "run").exists()
