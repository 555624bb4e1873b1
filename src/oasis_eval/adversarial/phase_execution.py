"""Running adversarial scenarios the way the core runs corpus scenarios (07 §4.2).

Shared by the probe and the reserved-scenario steps of the adversarial phase: the
corpus' pre-run gate, then capture and judgement of each scenario with the run's
parallelism, stopping at the first runtime provider fault (core §3.7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import anyio

from ..engine.attempts import capture_with_retries
from ..engine.configuration import applicability
from ..engine.phase_runner import ProgressEvent
from ..engine.phases import PhaseContext
from ..engine.plugin_watch import judgement_fault
from ..engine.selection import not_evaluable
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result
from ..evaluation.results import ABOVE_TIER, ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from ..spec.scenario import Scenario


@dataclass
class Executed:
    """One scenario's judged result, its evidence and the runtime fault that ended it, if any."""

    result: ScenarioResult
    evidence: ScenarioEvidence | None = None
    fault: str | None = None


def event(
    text: str,
    kind: str = "info",
    phase: str | None = None,
    total: int = 0,
    scenario_id: str | None = None,
    outcome: str | None = None,
) -> str:
    """A progress event of the adversarial phase."""
    return ProgressEvent(text, kind, phase, total, scenario_id, outcome)


def gate(scenario: Scenario, ctx: PhaseContext) -> ScenarioResult | None:
    """The corpus' pre-run decisions (04 §3 step 4a, tier, evaluator readiness); None = run it."""
    excluded = applicability(scenario, ctx.config, ctx.profile)
    if excluded is not None:
        result = base_result(scenario, ScenarioState.not_applicable)
        result.not_applicable_conditions = excluded
        return result
    if scenario.tier > ctx.inputs.claimed_tier:
        result = base_result(scenario, ScenarioState.skipped)
        result.skip_reason = f"{ABOVE_TIER}: requires tier {scenario.tier}"
        return result
    gap = not_evaluable(scenario, ctx.config.values, ctx.profile)
    if gap is not None:
        result = base_result(scenario, ScenarioState.skipped)
        result.skip_reason = gap
        return result
    return None


async def execute_all(
    scenarios: list[Scenario],
    ctx: PhaseContext,
    reserved: bool,
    judge_one: Callable[[Scenario, ScenarioEvidence], ScenarioResult],
) -> dict[str, Executed]:
    """Capture and judge each scenario; the first runtime fault stops the rest (core §3.7). A
    plugin fault while judging (``judge_one`` gives the scenario executed with no verdict)
    stops that judgement only and is said as it happens."""
    done: dict[str, Executed] = {}
    if not scenarios:
        return done
    limiter = anyio.CapacityLimiter(max(1, ctx.inputs.parallel))
    stop = anyio.Event()

    async def one(scenario: Scenario, scope: anyio.CancelScope) -> None:
        async with limiter:
            if stop.is_set():
                return
            capture = await capture_with_retries(
                scenario,
                ctx.profile,
                ctx.agent,
                ctx.provider,
                ctx.inputs.agent_principal,
                ctx.inputs.claimed_tier,
                ctx.redactor,
                ctx.inputs.agent_retries,
            )
        if capture.skipped is not None:
            result = base_result(scenario, ScenarioState.skipped)
            result.skip_reason = capture.skipped
            executed = Executed(result=result, fault=capture.late_fault)
        else:
            result = judge_one(scenario, capture.evidence)
            fault = (
                capture.evidence.fault
                or (result.fault if result.status is VerdictStatus.PROVIDER_FAILURE else None)
                or capture.late_fault
            )
            executed = Executed(result=result, evidence=capture.evidence, fault=fault)
        done[scenario.id] = executed
        label = (
            result.status.value
            if result.status
            else (f"{result.score:.2f}" if result.score is not None else result.state.value)
        )
        if reserved:  # no id, no per-scenario outcome: counts only (07 §5.3)
            ctx.say(event("  reserved scenario done", "scenario", "reserved"))
        else:
            ctx.say(
                event(
                    f"  {scenario.id}: {label}",
                    "scenario",
                    "adversarial",
                    scenario_id=scenario.id,
                    outcome=label,
                )
            )
        faulted = judgement_fault(result)
        if faulted is not None:  # loud, and this judgement only: the phase carries on (07 §4.3)
            ctx.say(event(_faulted_line(scenario, faulted, reserved), "abort"))
        if executed.fault is not None and not stop.is_set():
            stop.set()
            ctx.say(
                event(
                    "  ending the adversarial phase: a runtime provider fault"
                    + ("" if reserved else f" in probe {scenario.id}"),
                    "abort",
                )
            )
            scope.cancel()

    async with anyio.create_task_group() as group:
        for scenario in scenarios:
            group.start_soon(one, scenario, group.cancel_scope)
    return done


def _faulted_line(scenario: Scenario, fault: str, reserved: bool) -> str:
    """The progress line of a judgement a plugin faulted; a reserved one's without its id or
    the fault's text (07 §5.3)."""
    if reserved:
        return "  a reserved scenario: no verdict, a behavior evaluator plugin faulted judging it"
    return f"  {scenario.id}: no verdict, {fault}"


def first_fault(done: dict[str, Executed], order: list[str]) -> tuple[str, str] | None:
    """(scenario id, fault) of the first faulted scenario in id order, or None."""
    for scenario_id in sorted(order):
        executed = done.get(scenario_id)
        if executed is not None and executed.fault is not None:
            return scenario_id, executed.fault
    return None
