"""The record of an adversarial phase and the ``adversarial_verification`` block (07 §6.1, 05 §1).

:class:`AdversarialDetail` is what the run record keeps (``run.json``): every
probe as executed with its result, the generator's full method declaration
(07 §3.1) and the reserved-scenario summary, which holds counts and coverage
statements only (07 §5.3: content is never disclosed). :func:`build_block`
turns it into the verdict block; it is a pure function, so ``oasis replay``
re-judges the stored probe evidence and rebuilds the same block
(:func:`replay_block`).
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..diagnostics import UnusableInput
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import judge
from ..evaluation.results import ScenarioResult, ScenarioState
from ..evaluation.stored_evidence import evidence_from_json
from ..files import RUN_FILE_LIMIT, read_maybe_gzip
from ..spec.common import GeneratorType, Reproducibility, VerdictStatus
from ..spec.probe import GeneratorMethod, Probe
from ..spec.profile import AgentConfigurationSchema
from ..spec.verdict import (
    AdversarialCapabilityResults,
    AdversarialSafetyResults,
    AdversarialVerification,
    ArchetypeProbeScore,
    CapabilityCoverage,
    GeneratorDeclaration,
    ProbeFailure,
    ProbeSummary,
    ReservedScenarioResults,
)
from .plugin_watch import (
    DEFAULT_PLUGIN_TIMEOUT,
    JUDGEMENT_FAULTED,
    JudgementFault,
    judged_or_faulted,
    judgement_fault,
)

#: where failed probes and probe evidence go, relative to the run directory
FAILED_DIR = "probes/failed"
PROBE_EVIDENCE_DIR = "probes/evidence"


class ProbeOutcome(BaseModel):
    """One probe as executed (the exact scenario judged) and its result (07 §4.2-4.4)."""

    probe: Probe
    #: ``safety`` / ``capability``: from the primary archetype's category (07 §4.4)
    classification: str
    result: ScenarioResult
    #: failed safety probe, serialized for review (07 §3.5), relative to the run directory
    serialized: str | None = None

    @property
    def judged(self) -> bool:
        return self.result.state is ScenarioState.executed and (
            self.result.status in (VerdictStatus.PASS, VerdictStatus.FAIL)
            or self.result.score is not None
        )


class CoverageStatement(BaseModel):
    """Minimum-coverage accounting for the claimed tier (03 §2.7), as counts and category ids."""

    safety_gaps: list[str] = Field(default_factory=list)
    capability: CapabilityCoverage | None = None

    @property
    def complete(self) -> bool:
        return not self.safety_gaps and (self.capability is None or self.capability.complete)


class ReservedDetail(BaseModel):
    """Reserved scenarios (07 §5): counts only. No id, name, text or per-scenario result."""

    source: str  # "directory" | "encrypted bundle"
    loaded: int
    executed: int = 0
    passed: int = 0
    failed: int = 0
    #: executed, but a plugin faulted judging it: neither passed nor failed (counted only)
    faulted: int = 0
    #: loaded but not executed (not applicable, above the tier, not evaluable, phase cut short)
    not_executed: int = 0
    #: the profile's declaration (03 §2.12): safety category -> count
    declared: dict[str, int] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    coverage_without: CoverageStatement = Field(default_factory=CoverageStatement)
    coverage_with: CoverageStatement = Field(default_factory=CoverageStatement)
    #: how their evidence was kept: not stored, or encrypted with the bundle key
    evidence: str = "not stored"


class AdversarialDetail(BaseModel):
    """Everything the report shows about the adversarial phase (05 §2.7)."""

    performed: bool
    #: why it was configured but not performed (e.g. the core evaluation aborted)
    not_performed_reason: str | None = None
    generator_name: str | None = None
    method: GeneratorMethod | None = None
    declaration: GeneratorDeclaration | None = None
    #: the request (07 §3.2) without generator options, which may hold credentials
    archetypes: list[str] = Field(default_factory=list)
    requested: int = 0
    seed: int | None = None
    option_keys: list[str] = Field(default_factory=list)
    probes: list[ProbeOutcome] = Field(default_factory=list)
    #: probes the generator returned that were not executed, with the reason
    rejected: list[str] = Field(default_factory=list)
    #: what the generator said about its run (candidates dropped, notes), when it says anything
    generation_notes: list[str] = Field(default_factory=list)
    aborted: bool = False
    abort_reason: str | None = None
    reserved: ReservedDetail | None = None


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def build_block(detail: AdversarialDetail) -> AdversarialVerification:
    """The 07 §6.1 block. Counts follow the primary archetype (07 §4.4); the summary counts
    every probe the generator returned, the results count the probes judged."""
    probes = detail.probes
    safety = [p for p in probes if p.classification == "safety"]
    capability = [p for p in probes if p.classification != "safety"]
    passed = [p for p in safety if p.judged and p.result.status is VerdictStatus.PASS]
    failed = [p for p in safety if p.judged and p.result.status is VerdictStatus.FAIL]
    scored = [p for p in capability if p.judged and p.result.score is not None]
    per_archetype: dict[str, list[float]] = {}
    for p in sorted(scored, key=lambda p: p.probe.primary_archetype):
        per_archetype.setdefault(p.probe.primary_archetype, []).append(p.result.score or 0.0)
    reserved = detail.reserved
    declaration = detail.declaration or GeneratorDeclaration(
        type=GeneratorType.other, reproducibility=Reproducibility.deterministic
    )
    return AdversarialVerification(
        performed=True,
        generator=declaration,
        probe_summary=ProbeSummary(
            total_probes=len(probes),
            safety_probes=len(safety),
            capability_probes=len(capability),
            composition_probes=sum(1 for p in probes if p.probe.composition),
        ),
        safety_results=AdversarialSafetyResults(
            any_safety_violation=bool(failed),
            total=len(passed) + len(failed),
            passed=len(passed),
            failed=len(failed),
            failures=[
                ProbeFailure(
                    primary_archetype=p.probe.primary_archetype,
                    secondary_archetypes=list(p.probe.secondary_archetypes),
                    description=p.probe.description,
                    probe_serialized=p.serialized or failed_probe_path(p.probe),
                )
                for p in failed
            ],
        ),
        capability_results=AdversarialCapabilityResults(
            total=len(scored),
            mean_score=_mean([p.result.score or 0.0 for p in scored]),
            per_archetype={
                a: ArchetypeProbeScore(probes=len(v), mean=_mean(v) or 0.0)
                for a, v in per_archetype.items()
            }
            or None,
        ),
        reserved_scenarios=None
        if reserved is None
        else ReservedScenarioResults(
            executed=reserved.executed, passed=reserved.passed, failed=reserved.failed
        ),
        aborted=True if detail.aborted else None,
        abort_reason=detail.abort_reason if detail.aborted else None,
        judgement_faults=judgement_faults(detail) or None,
    )


def judgement_faults(detail: AdversarialDetail) -> list[str]:
    """The probes and reserved scenarios a plugin faulted judging, one line each: probes by
    id with the fault, reserved ones counted only (07 §5.3: their content never shown). Not
    PASS, not FAIL: a harness fault, which the exit code says (engine/conclude.py)."""
    out = [
        f"probe {p.probe.scenario.id}: {JUDGEMENT_FAULTED}{fault}"
        for p in sorted(detail.probes, key=lambda p: p.probe.scenario.id)
        if (fault := judgement_fault(p.result)) is not None
    ]
    faulted = detail.reserved.faulted if detail.reserved is not None else 0
    if faulted:
        out.append(
            f"{faulted} reserved scenario(s): {JUDGEMENT_FAULTED}a behavior evaluator plugin "
            "faulted (details withheld: reserved content is not disclosed, 07 §5.3)"
        )
    return out


def failed_probe_path(probe: Probe) -> str:
    """The run-directory-relative file a failed probe is serialized to."""
    return f"{FAILED_DIR}/{safe_name(probe.scenario.id)}.yaml"


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def claim_text(block: AdversarialVerification | None) -> str:
    """The conformance claim's statement (07 §8): performed or not, with method and probe count."""
    if block is None or not block.performed:
        return "not performed"
    gen = block.generator
    summary = block.probe_summary
    if (
        summary.total_probes == 0
        and gen.type is GeneratorType.other
        and block.reserved_scenarios is not None
    ):
        text = "performed: reserved scenarios only (no probe generator), 0 probes"
    else:
        method = f"{gen.type.value} generator" + (f" ({gen.model})" if gen.model else "")
        text = (
            f"performed: {method}, {gen.reproducibility.value}; {summary.total_probes} probe(s) "
            f"({summary.safety_probes} safety, {summary.capability_probes} capability)"
        )
    if block.reserved_scenarios is not None:
        text += f"; {block.reserved_scenarios.executed} reserved scenario(s) executed"
    if block.aborted:
        text += "; cut short by a runtime provider fault"
    if block.judgement_faults:
        text += "; some not judged: a behavior evaluator plugin faulted"
    return text


def replay_block(
    detail: AdversarialDetail,
    run_dir: Path,
    configuration: dict[str, Any],
    principal: str,
    schema: AgentConfigurationSchema | None = None,
    namespaces: tuple[str, ...] | None = None,
) -> AdversarialVerification:
    """Re-judge every executed probe from its stored evidence and rebuild the block.

    The public part is replayed; reserved-scenario counts are taken from the record
    (their evidence is not stored in the clear, 07 §5.3)."""
    rebuilt = detail.model_copy(deep=True)
    for outcome in rebuilt.probes:
        if outcome.result.state is not ScenarioState.executed:
            continue
        stem = run_dir / PROBE_EVIDENCE_DIR / safe_name(outcome.probe.scenario.id)
        path = stem.with_name(stem.name + ".json.gz")  # compressed since issue 19
        if not path.is_file():
            path = stem.with_name(stem.name + ".json")
        try:
            evidence = evidence_from_json(read_maybe_gzip(path, RUN_FILE_LIMIT))
        except (OSError, ValueError) as exc:
            raise UnusableInput(
                f"no readable evidence for probe {outcome.probe.scenario.id}: {exc}",
                file=str(run_dir),
            ) from None
        recorded = judgement_fault(outcome.result)
        outcome.result = judge_probe(
            outcome.probe, evidence, configuration, principal, schema, namespaces
        )
        fault = judgement_fault(outcome.result)
        if fault is not None and fault != recorded:  # a fault the run did not record: exit 4
            raise JudgementFault(outcome.probe.scenario.id, fault)
    return build_block(rebuilt)


def judge_probe(
    probe: Probe,
    evidence: ScenarioEvidence,
    configuration: dict[str, Any],
    principal: str,
    schema: AgentConfigurationSchema | None,
    namespaces: tuple[str, ...] | None = None,
    bound: float = DEFAULT_PLUGIN_TIMEOUT,
) -> ScenarioResult:
    """Judge one probe exactly as the phase did (no tolerance override: probes have no id of
    the corpus), attributing the result to the primary archetype (07 §4.4). A plugin fault
    stops this probe's judgement only: executed with no verdict, the fault named
    (plugin_watch.judged_or_faulted), never a PASS or a FAIL of it."""
    result = judged_or_faulted(
        probe.scenario,
        partial(
            judge,
            probe.scenario,
            evidence,
            configuration,
            principal,
            None,
            schema=schema,
            namespaces=namespaces,
        ),
        bound,
    )
    result.archetype = probe.primary_archetype
    return result
