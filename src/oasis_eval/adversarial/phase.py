"""The adversarial phase (04 §3 step 12, 07 §4): probes, then reserved scenarios, after the core.

Runs only after a core evaluation that completed (PASS or FAIL), never after an
aborted one (07 §4.1). Every probe and reserved scenario goes through the same
provision -> stimuli -> capture -> independent verification -> verdict flow as a
corpus scenario (:func:`~oasis_eval.engine.execute.capture_scenario`, then
:func:`~oasis_eval.evaluation.judge.judge`; 07 §4.2). Attribution and
classification follow the primary archetype (07 §4.4). A runtime provider
fault ends this phase only; the block says so (``aborted`` / ``abort_reason``).
Nothing here touches the core results: the phase writes ``record.adversarial``
and ``verdict.adversarial_verification`` and nothing else (07 §4.3, §8).
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from ..engine.adversarial_record import (
    PROBE_EVIDENCE_DIR,
    AdversarialDetail,
    CoverageStatement,
    ProbeOutcome,
    ReservedDetail,
    build_block,
    failed_probe_path,
    judge_probe,
    safe_name,
)
from ..engine.configuration import applicability
from ..engine.execute import capture_scenario
from ..engine.phases import PhaseContext
from ..engine.record import RunRecord
from ..engine.runner import ProgressEvent, not_evaluable
from ..evaluation.aggregate import coverage, safety_coverage_gaps
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result, judge
from ..evaluation.results import ABOVE_TIER, ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from ..spec.probe import GenerationRequest, Probe, ProbeGenerator
from ..spec.profile import Profile, SafetyCategory
from ..spec.scenario import Scenario
from ..spec.verdict import GeneratorDeclaration
from ..validation import validate_scenario
from .reserved import ReservedSet, aliased, run_problems, seal
from .serialize import serialize_probe

#: validation codes that do not disqualify a probe: a mutated probe keeps its base scenario's intent
_PROBE_TOLERATED = frozenset({"duplicate-intent"})
RESERVED_EVIDENCE = "reserved/evidence.enc"


@dataclass
class AdversarialConfig:
    """What the evaluator asked for (``oasis run --adversarial ... --reserved ...``)."""

    generator: ProbeGenerator | None = None
    generator_name: str | None = None
    request: GenerationRequest = field(default_factory=GenerationRequest)
    reserved: ReservedSet | None = None

    async def __call__(self, ctx: PhaseContext, record: RunRecord) -> AdversarialRun:
        """Run as the engine's phase after the core (:class:`~oasis_eval.engine.phases.AfterCorePhase`)."""
        return await run_adversarial(self, ctx, record)


@dataclass
class AdversarialRun:
    """The phase's in-memory outcome: what :func:`write_adversarial` puts into the run directory."""

    detail: AdversarialDetail
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict)
    failed: list[Probe] = field(default_factory=list)
    sealed_reserved: bytes | None = None


@dataclass
class _Executed:
    result: ScenarioResult
    evidence: ScenarioEvidence | None = None
    fault: str | None = None


def _event(
    text: str,
    kind: str = "info",
    phase: str | None = None,
    total: int = 0,
    scenario_id: str | None = None,
    outcome: str | None = None,
) -> str:
    return ProgressEvent(text, kind, phase, total, scenario_id, outcome)


async def run_adversarial(
    cfg: AdversarialConfig, ctx: PhaseContext, record: RunRecord
) -> AdversarialRun:
    """Run the phase and attach its detail and verdict block to ``record``."""
    meta = record.verdict.metadata
    if meta.aborted:
        detail = AdversarialDetail(
            performed=False,
            generator_name=cfg.generator_name,
            not_performed_reason="the core evaluation aborted on a runtime "
            "provider fault; adversarial verification runs only after a "
            "completed core evaluation (07 §4.1)",
        )
        ctx.say(_event(f"adversarial verification not performed: {detail.not_performed_reason}"))
        record.adversarial = detail
        return AdversarialRun(detail=detail)
    detail = AdversarialDetail(
        performed=True,
        generator_name=cfg.generator_name,
        archetypes=list(cfg.request.archetypes),
        seed=cfg.request.seed,
        requested=cfg.request.count if cfg.generator else 0,
        option_keys=sorted(cfg.request.options),
    )
    run = AdversarialRun(detail=detail)
    if cfg.generator is not None:
        await _probes(cfg, ctx, run)
    if cfg.reserved is not None:
        await _reserved(cfg.reserved, ctx, record, run)
    record.adversarial = detail
    record.verdict.adversarial_verification = build_block(detail)
    return run


# ---- probes ---------------------------------------------------------------------------------


async def _probes(cfg: AdversarialConfig, ctx: PhaseContext, run: AdversarialRun) -> None:
    generator, request, detail = cfg.generator, cfg.request, run.detail
    assert generator is not None
    try:
        method = generator.method()
        detail.method = method
        model = " ".join(p for p in (method.model, method.model_version) if p) or None
        detail.declaration = GeneratorDeclaration(
            type=method.type,
            model=model,
            reproducibility=generator.reproducibility(request),
            config_hash=generator.config_hash(request),
        )
        probes = await anyio.to_thread.run_sync(generator.generate, ctx.profile, request)
    except Exception as exc:  # noqa: BLE001 - any generator failure ends this phase, never the run
        detail.aborted, detail.abort_reason = (
            True,
            f"probe generation failed: {type(exc).__name__}: {exc}",
        )
        ctx.say(_event(f"adversarial: {detail.abort_reason}", "abort"))
        return
    detail.generation_notes = _generation_notes(generator)
    if len(probes) > request.count:
        detail.rejected.append(
            f"the generator returned {len(probes)} probes for {request.count} "
            f"requested; the first {request.count} were kept (07 §3)"
        )
        probes = probes[: request.count]
    outcomes, runnable = _prepare(probes, ctx, detail)
    ctx.say(
        _event(
            f"phase adversarial: {len(runnable)} probe(s) from {cfg.generator_name or generator.name}",
            "phase",
            "adversarial",
            len(runnable),
        )
    )
    by_id = {o.probe.scenario.id: o.probe for o in runnable}
    done = await _execute_all(
        [o.probe.scenario for o in runnable],
        ctx,
        reserved=False,
        judge_one=lambda s, ev: judge_probe(
            by_id[s.id],
            ev,
            ctx.config.values,
            ctx.inputs.agent_principal,
            ctx.profile.agent_configuration_schema,
        ),
    )
    for outcome in runnable:
        executed = done.get(outcome.probe.scenario.id)
        if executed is None:
            outcome.result.state = ScenarioState.not_run
            continue
        outcome.result = executed.result
        if executed.evidence is not None:
            run.evidence[outcome.probe.scenario.id] = executed.evidence
        if outcome.classification == "safety" and executed.result.status is VerdictStatus.FAIL:
            outcome.serialized = failed_probe_path(outcome.probe)
            run.failed.append(outcome.probe)
    fault = _first_fault(done, [o.probe.scenario.id for o in runnable])
    if fault is not None:
        detail.aborted, detail.abort_reason = True, f"probe {fault[0]}: {fault[1]}"
    detail.probes = sorted(outcomes, key=lambda o: o.probe.scenario.id)


def _generation_notes(generator: ProbeGenerator) -> list[str]:
    """The optional ``last_report`` (a GenerationReport) of this package's generators."""
    report = getattr(generator, "last_report", None)
    notes = [str(n) for n in getattr(report, "notes", None) or []]
    dropped = getattr(report, "dropped", None) or []
    if dropped:
        notes.append(
            f"{len(dropped)} candidate probe(s) dropped by the generator before emission "
            "(invalid or not decidable, 07 §3.3)"
        )
    return notes


def classification_of(probe: Probe, profile: Profile) -> str:
    """07 §4.4: the primary archetype's category decides; an unknown archetype falls back to
    the scenario's own classification (the probe is then rejected anyway)."""
    arch = profile.archetype(probe.primary_archetype)
    category = profile.category(arch.category) if arch is not None else None
    if category is None:
        return probe.classification
    return "safety" if isinstance(category, SafetyCategory) else "capability"


def probe_problems(probe: Probe, profile: Profile, taken: set[str]) -> list[str]:
    """Why a generated probe cannot be executed as it stands (07 §3.2, §3.3, §4.4)."""
    problems = []
    if profile.archetype(probe.primary_archetype) is None:
        problems.append(
            f"primary archetype '{probe.primary_archetype}' is not an archetype of the "
            "profile (07 §3.2: every probe is anchored to a declared archetype)"
        )
    elif probe.classification != classification_of(probe, profile):
        problems.append(
            f"classification '{probe.classification}' differs from that of its primary "
            f"archetype's category (07 §4.4)"
        )
    unknown = [a for a in probe.secondary_archetypes if profile.archetype(a) is None]
    if unknown:
        problems.append("secondary archetype(s) not in the profile: " + ", ".join(unknown))
    if probe.scenario.id in taken:
        problems.append(
            f"id '{probe.scenario.id}' is already used by a scenario or an earlier probe"
        )
    findings = [
        f
        for f in validate_scenario(probe.scenario, profile).errors
        if f.code not in _PROBE_TOLERATED and f.code != "duplicate-scenario-id"
    ]
    problems += [f"{f.field or f.code}: {f.message}" for f in findings[:3]]
    if len(findings) > 3:
        problems.append(f"... and {len(findings) - 3} more validation error(s)")
    return problems


def _prepare(
    probes: list[Probe], ctx: PhaseContext, detail: AdversarialDetail
) -> tuple[list[ProbeOutcome], list[ProbeOutcome]]:
    taken = {s.id for s in ctx.profile.scenarios}
    outcomes, runnable = [], []
    for probe in probes:
        scenario = probe.scenario
        classification = classification_of(probe, ctx.profile)
        problems = probe_problems(probe, ctx.profile, taken)
        taken.add(scenario.id)
        gate: ScenarioResult | None
        if problems:
            gate = base_result(scenario, ScenarioState.skipped)
            gate.skip_reason = "probe rejected: " + "; ".join(problems)
            detail.rejected.append(f"{scenario.id}: " + "; ".join(problems))
        else:
            gate = _gate(scenario, ctx)
        result = gate or base_result(scenario, ScenarioState.not_run)
        result.archetype = probe.primary_archetype
        outcome = ProbeOutcome(probe=probe, classification=classification, result=result)
        outcomes.append(outcome)
        if gate is None:
            runnable.append(outcome)
    return outcomes, runnable


# ---- shared execution -------------------------------------------------------------------------


def _gate(scenario: Scenario, ctx: PhaseContext) -> ScenarioResult | None:
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


async def _execute_all(
    scenarios: list[Scenario],
    ctx: PhaseContext,
    reserved: bool,
    judge_one: Callable[[Scenario, ScenarioEvidence], ScenarioResult],
) -> dict[str, _Executed]:
    """Capture and judge each scenario; the first runtime fault stops the rest (core §3.7)."""
    done: dict[str, _Executed] = {}
    if not scenarios:
        return done
    limiter = anyio.CapacityLimiter(max(1, ctx.inputs.parallel))
    stop = anyio.Event()

    async def one(scenario: Scenario, scope: anyio.CancelScope) -> None:
        async with limiter:
            if stop.is_set():
                return
            capture = await capture_scenario(
                scenario,
                ctx.profile,
                ctx.agent,
                ctx.provider,
                ctx.inputs.agent_principal,
                ctx.inputs.claimed_tier,
                ctx.redactor,
            )
        if capture.skipped is not None:
            result = base_result(scenario, ScenarioState.skipped)
            result.skip_reason = capture.skipped
            executed = _Executed(result=result, fault=capture.late_fault)
        else:
            result = judge_one(scenario, capture.evidence)
            fault = (
                capture.evidence.fault
                or (result.fault if result.status is VerdictStatus.PROVIDER_FAILURE else None)
                or capture.late_fault
            )
            executed = _Executed(result=result, evidence=capture.evidence, fault=fault)
        done[scenario.id] = executed
        label = (
            result.status.value
            if result.status
            else (f"{result.score:.2f}" if result.score is not None else result.state.value)
        )
        if reserved:  # no id, no per-scenario outcome: counts only (07 §5.3)
            ctx.say(_event("  reserved scenario done", "scenario", "reserved"))
        else:
            ctx.say(
                _event(
                    f"  {scenario.id}: {label}",
                    "scenario",
                    "adversarial",
                    scenario_id=scenario.id,
                    outcome=label,
                )
            )
        if executed.fault is not None and not stop.is_set():
            stop.set()
            ctx.say(
                _event(
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


def _first_fault(done: dict[str, _Executed], order: list[str]) -> tuple[str, str] | None:
    for scenario_id in sorted(order):
        executed = done.get(scenario_id)
        if executed is not None and executed.fault is not None:
            return scenario_id, executed.fault
    return None


# ---- reserved scenarios -------------------------------------------------------------------------


async def _reserved(
    reserved: ReservedSet, ctx: PhaseContext, record: RunRecord, run: AdversarialRun
) -> None:
    detail = run.detail
    summary = ReservedDetail(
        source=reserved.source,
        loaded=len(reserved.scenarios),
        declared=dict(ctx.profile.reserved_scenarios.per_category)
        if ctx.profile.reserved_scenarios
        else {},
    )
    detail.reserved = summary
    invalid, summary.warnings = run_problems(reserved, ctx.profile)
    if invalid:
        summary.not_executed = summary.loaded
        summary.warnings.append(
            f"{invalid} reserved scenario(s) do not validate against the profile; "
            "none was run (details withheld: run `oasis reserved check`)"
        )
        ctx.say(_event(f"reserved scenarios: {summary.warnings[-1]}"))
        return
    summary.coverage_without = summary.coverage_with = _coverage(record.scenarios, record, ctx)
    if detail.aborted:
        summary.not_executed = summary.loaded
        return
    pairs = aliased(reserved.scenarios)
    runs = [alias for alias, _ in pairs]
    real = {alias.id: original for alias, original in pairs}
    gated = {s.id: _gate(s, ctx) for s in runs}
    runnable = [s for s in runs if gated[s.id] is None]
    ctx.say(
        _event(
            f"phase reserved: {len(runnable)} scenario(s) (content not disclosed)",
            "phase",
            "reserved",
            len(runnable),
        )
    )
    with _logs_silenced():
        done = await _execute_all(
            runnable,
            ctx,
            reserved=True,
            judge_one=lambda s, ev: judge(
                s,
                ev,
                ctx.config.values,
                ctx.inputs.agent_principal,
                None,
                schema=ctx.profile.agent_configuration_schema,
            ),
        )
    executed = [d.result for d in done.values() if d.result.state is ScenarioState.executed]
    summary.executed = len(executed)
    summary.passed = sum(
        1 for r in executed if r.classification == "safety" and r.status is VerdictStatus.PASS
    )
    summary.failed = sum(
        1 for r in executed if r.classification == "safety" and r.status is VerdictStatus.FAIL
    )
    summary.not_executed = summary.loaded - summary.executed
    if any(d.fault is not None for d in done.values()):
        detail.aborted = True
        detail.abort_reason = (
            "a reserved scenario hit a runtime provider fault (details withheld: "
            "reserved content is not disclosed, 07 §5.3)"
        )
    summary.coverage_with = _coverage([*record.scenarios, *executed], record, ctx)
    if reserved.key is not None:
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
        run.sealed_reserved = seal(json.dumps(payload, sort_keys=True).encode(), reserved.key)
        summary.evidence = f"encrypted with the bundle key: {RESERVED_EVIDENCE}"
    ctx.say(
        _event(
            f"reserved scenarios: {summary.executed} executed, {summary.passed} passed, "
            f"{summary.failed} failed"
        )
    )


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


# ---- run directory ----------------------------------------------------------------------------------


def write_adversarial(run_dir: Path, run: AdversarialRun | None) -> None:
    """Probe evidence, failed probes (07 §3.5) and sealed reserved evidence into the run directory."""
    if run is None or not run.detail.performed:
        return
    if run.evidence:
        ev_dir = run_dir / PROBE_EVIDENCE_DIR
        ev_dir.mkdir(parents=True, exist_ok=True)
        for probe_id in sorted(run.evidence):
            (ev_dir / f"{safe_name(probe_id)}.json").write_text(
                run.evidence[probe_id].model_dump_json(indent=1), encoding="utf-8"
            )
    for probe in run.failed:
        target = run_dir / failed_probe_path(probe)
        target.parent.mkdir(parents=True, exist_ok=True)
        written = serialize_probe(probe, target.parent, run.detail.method)
        if written.resolve() != target.resolve():
            shutil.move(str(written), target)
    if run.sealed_reserved is not None:
        path = run_dir / RESERVED_EVIDENCE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(run.sealed_reserved)
