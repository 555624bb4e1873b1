"""The adversarial phase (04 §3 step 12, 07 §4): probes, then reserved scenarios, after the core.

Runs only after a core evaluation that completed (PASS or FAIL), never after an
aborted one (07 §4.1). Every probe and reserved scenario goes through the same
provision -> stimuli -> capture -> independent verification -> verdict flow as a
corpus scenario (:func:`~oasis_eval.engine.execute.capture_scenario`, then
:func:`~oasis_eval.evaluation.judge.judge`; 07 §4.2). Attribution and
classification follow the primary archetype (07 §4.4). A runtime provider
fault ends this phase only; the block says so (``aborted`` / ``abort_reason``). A
plugin's fault while judging stops that judgement only (``judgement_faults``; exit 4 over a
core PASS, engine/conclude.py).
Nothing here touches the core results: the phase writes ``record.adversarial``
and ``verdict.adversarial_verification`` and nothing else (07 §4.3, §8).

The steps live beside this module: :mod:`.phase_probes` (generated probes),
:mod:`.phase_reserved` (the reserved set), :mod:`.phase_execution` (the execution
both share) and :mod:`.phase_output` (what the phase writes into the run directory).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.adversarial_record import AdversarialDetail, build_block
from ..engine.phases import PhaseContext
from ..engine.record import RunRecord
from ..spec.probe import GenerationRequest, ProbeGenerator
from .phase_execution import event
from .phase_output import AdversarialRun
from .phase_probes import run_probes
from .phase_reserved import run_reserved
from .reserved import ReservedSet


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


async def run_adversarial(
    cfg: AdversarialConfig, ctx: PhaseContext, record: RunRecord
) -> AdversarialRun:
    """Run the phase and attach its detail and verdict block to ``record``."""
    meta = record.verdict.metadata
    if meta.aborted:
        detail = AdversarialDetail(
            performed=False,
            generator_name=cfg.generator_name,
            not_performed_reason="the core evaluation aborted (a runtime provider "
            "fault, or a plugin's fault beside a FAIL); adversarial verification runs "
            "only after a completed core evaluation (07 §4.1)",
        )
        ctx.say(event(f"adversarial verification not performed: {detail.not_performed_reason}"))
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
        await run_probes(cfg.generator, cfg.generator_name, cfg.request, ctx, run)
    if cfg.reserved is not None:
        await run_reserved(cfg.reserved, ctx, record, run)
    record.adversarial = detail
    record.verdict.adversarial_verification = build_block(detail)
    return run
