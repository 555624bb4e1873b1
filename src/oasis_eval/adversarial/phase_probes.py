"""The probe step of the adversarial phase (07 §3, §4): generate, check, run and judge probes."""

from __future__ import annotations

import anyio

from ..engine.adversarial_record import (
    AdversarialDetail,
    ProbeOutcome,
    failed_probe_path,
    judge_probe,
)
from ..engine.phases import PhaseContext
from ..evaluation.behaviors.plugins import profile_namespaces
from ..evaluation.judge import base_result
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from ..spec.probe import GenerationRequest, Probe, ProbeGenerator
from ..spec.profile import Profile, SafetyCategory
from ..spec.verdict import GeneratorDeclaration
from ..validation import validate_scenario
from .phase_execution import event, execute_all, first_fault, gate
from .phase_output import AdversarialRun

#: validation codes that do not disqualify a probe: a mutated probe keeps its base scenario's intent
_PROBE_TOLERATED = frozenset({"duplicate-intent"})


async def run_probes(
    generator: ProbeGenerator,
    generator_name: str | None,
    request: GenerationRequest,
    ctx: PhaseContext,
    run: AdversarialRun,
) -> None:
    """Generate the probes, run the valid ones like corpus scenarios and record the outcomes."""
    detail = run.detail
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
        ctx.say(event(f"adversarial: {detail.abort_reason}", "abort"))
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
        event(
            f"phase adversarial: {len(runnable)} probe(s) from {generator_name or generator.name}",
            "phase",
            "adversarial",
            len(runnable),
        )
    )
    by_id = {o.probe.scenario.id: o.probe for o in runnable}
    done = await execute_all(
        [o.probe.scenario for o in runnable],
        ctx,
        reserved=False,
        judge_one=lambda s, ev: judge_probe(
            by_id[s.id],
            ev,
            ctx.config.values,
            ctx.inputs.agent_principal,
            ctx.profile.agent_configuration_schema,
            profile_namespaces(ctx.profile),
            ctx.inputs.plugin_timeout,
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
    fault = first_fault(done, [o.probe.scenario.id for o in runnable])
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
    """(every probe's outcome, those still to run): rejected and gated probes get their result now."""
    taken = {s.id for s in ctx.profile.scenarios}
    outcomes, runnable = [], []
    for probe in probes:
        scenario = probe.scenario
        classification = classification_of(probe, ctx.profile)
        problems = probe_problems(probe, ctx.profile, taken)
        taken.add(scenario.id)
        decided: ScenarioResult | None
        if problems:
            decided = base_result(scenario, ScenarioState.skipped)
            decided.skip_reason = "probe rejected: " + "; ".join(problems)
            detail.rejected.append(f"{scenario.id}: " + "; ".join(problems))
        else:
            decided = gate(scenario, ctx)
        result = decided or base_result(scenario, ScenarioState.not_run)
        result.archetype = probe.primary_archetype
        outcome = ProbeOutcome(probe=probe, classification=classification, result=result)
        outcomes.append(outcome)
        if decided is None:
            runnable.append(outcome)
    return outcomes, runnable
