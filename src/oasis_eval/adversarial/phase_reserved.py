"""The reserved-scenario step of the adversarial phase (07 §5): run the held-back set, disclose counts only."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

from ..engine.adversarial_record import CoverageStatement, ReservedDetail
from ..engine.phases import PhaseContext
from ..engine.plugin_watch import judged_or_faulted, judgement_fault
from ..engine.record import RunRecord
from ..evaluation.aggregate import coverage, safety_coverage_gaps
from ..evaluation.behaviors.plugins import profile_namespaces
from ..evaluation.judge import judge
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from ..spec.scenario import Scenario
from .phase_execution import Executed, event, execute_all, gate
from .phase_output import RESERVED_EVIDENCE, AdversarialRun
from .reserved import ReservedSet, aliased, run_problems, seal


async def run_reserved(
    reserved: ReservedSet, ctx: PhaseContext, record: RunRecord, run: AdversarialRun
) -> None:
    """Run the reserved set after the probes; the record gets counts and coverage only (07 §5.3)."""
    detail = run.detail
    summary = _summary(reserved, ctx)
    detail.reserved = summary
    invalid, summary.warnings = run_problems(reserved, ctx.profile)
    if invalid:
        summary.not_executed = summary.loaded
        summary.warnings.append(
            f"{invalid} reserved scenario(s) do not validate against the profile; "
            "none was run (details withheld: run `oasis reserved check`)"
        )
        ctx.say(event(f"reserved scenarios: {summary.warnings[-1]}"))
        return
    summary.coverage_without = summary.coverage_with = _coverage(record.scenarios, record, ctx)
    if detail.aborted:
        summary.not_executed = summary.loaded
        return
    pairs = aliased(reserved.scenarios)
    real = {alias.id: original for alias, original in pairs}
    done = await _execute([alias for alias, _ in pairs], ctx)
    executed = _tally(summary, done)
    if any(d.fault is not None for d in done.values()):
        detail.aborted = True
        detail.abort_reason = (
            "a reserved scenario hit a runtime provider fault (details withheld: "
            "reserved content is not disclosed, 07 §5.3)"
        )
    summary.coverage_with = _coverage([*record.scenarios, *executed], record, ctx)
    if reserved.key is not None:
        run.sealed_reserved = _sealed(done, real, reserved.key)
        summary.evidence = f"encrypted with the bundle key: {RESERVED_EVIDENCE}"
    ctx.say(
        event(
            f"reserved scenarios: {summary.executed} executed, {summary.passed} passed, "
            f"{summary.failed} failed"
            + (f", {summary.faulted} not judged (a plugin fault)" if summary.faulted else "")
        )
    )


def _summary(reserved: ReservedSet, ctx: PhaseContext) -> ReservedDetail:
    """The reserved block before anything ran: where the set came from, its size, the declaration."""
    return ReservedDetail(
        source=reserved.source,
        loaded=len(reserved.scenarios),
        declared=dict(ctx.profile.reserved_scenarios.per_category)
        if ctx.profile.reserved_scenarios
        else {},
    )


async def _execute(runs: list[Scenario], ctx: PhaseContext) -> dict[str, Executed]:
    """Run the aliased scenarios that pass the corpus' gate, with logging silenced."""
    gated = {s.id: gate(s, ctx) for s in runs}
    runnable = [s for s in runs if gated[s.id] is None]
    ctx.say(
        event(
            f"phase reserved: {len(runnable)} scenario(s) (content not disclosed)",
            "phase",
            "reserved",
            len(runnable),
        )
    )
    with _logs_silenced():
        return await execute_all(
            runnable,
            ctx,
            reserved=True,
            judge_one=lambda s, ev: judged_or_faulted(
                s,
                partial(
                    judge,
                    s,
                    ev,
                    ctx.config.values,
                    ctx.inputs.agent_principal,
                    None,
                    schema=ctx.profile.agent_configuration_schema,
                    namespaces=profile_namespaces(ctx.profile),
                ),
                ctx.inputs.plugin_timeout,
            ),
        )


def _tally(summary: ReservedDetail, done: dict[str, Executed]) -> list[ScenarioResult]:
    """Count executed / passed / failed into ``summary``; the executed results."""
    executed = [d.result for d in done.values() if d.result.state is ScenarioState.executed]
    summary.executed = len(executed)
    summary.passed = sum(
        1 for r in executed if r.classification == "safety" and r.status is VerdictStatus.PASS
    )
    summary.failed = sum(
        1 for r in executed if r.classification == "safety" and r.status is VerdictStatus.FAIL
    )
    summary.faulted = sum(1 for r in executed if judgement_fault(r) is not None)
    summary.not_executed = summary.loaded - summary.executed
    return executed


def _sealed(done: dict[str, Executed], real: dict[str, Scenario], key: bytes) -> bytes:
    """Results and evidence under the real scenario ids, encrypted with the bundle key."""
    payload = [
        {
            "scenario_id": real[alias].id,
            "result": done[alias].result.model_dump(mode="json"),
            "evidence": evidence.model_dump(mode="json")
            if (evidence := done[alias].evidence)
            else None,
        }
        for alias in sorted(done)
    ]
    return seal(json.dumps(payload, sort_keys=True).encode(), key)


@contextmanager
def _logs_silenced() -> Iterator[None]:
    """No log record while reserved scenarios run: a component logging its inputs (a tool
    failure with its arguments, say) would disclose reserved content (07 §5.3)."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(previous)


def _coverage(
    results: list[ScenarioResult], record: RunRecord, ctx: PhaseContext
) -> CoverageStatement:
    """Minimum coverage at the claimed tier (07 §5.3: stated with and without reserved scenarios)."""
    tier = ctx.inputs.claimed_tier
    capability = (
        coverage(results, ctx.profile, tier) if record.verdict.capability is not None else None
    )
    return CoverageStatement(
        safety_gaps=safety_coverage_gaps(results, ctx.profile, tier), capability=capability
    )
