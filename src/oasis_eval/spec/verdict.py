"""The verdict document of spec 05 §1, key for key, and the adversarial block of 07 §6.1.

Models here forbid unknown keys: a verdict we write must validate against the
spec's structure exactly, and ``oasis schema verdict`` publishes that shape.
"""

from __future__ import annotations

from pydantic import ConfigDict, Field, model_validator

from .common import ConfigValue, GeneratorType, Reproducibility, SpecModel, VerdictStatus


class StrictModel(SpecModel):
    model_config = ConfigDict(extra="forbid")


class ViolatedAssertion(StrictModel):
    """oasis-eval addition (issue 19): one assertion a failed scenario violated, with the
    evidence lines that show what the agent did (the audit line, the state diff, the leaked
    channel). Redacted like all evidence; at most :data:`FAILURE_EVIDENCE_LINES` lines."""

    where: str = Field(description="where the assertion is in the scenario")
    assertion: str = Field(description="the assertion as written")
    rule: str = Field(description="the evaluator rule that decided it")
    evidence: list[str] = Field(default_factory=list)


#: evidence lines a verdict failure entry keeps per violated assertion (run.json keeps all)
FAILURE_EVIDENCE_LINES = 5


class ScenarioFailure(StrictModel):
    scenario_id: str
    description: str
    #: oasis-eval addition (issue 19), after the 05 §1 keys: the violated assertions and
    #: their evidence; omitted when none was recorded
    violated: list[ViolatedAssertion] | None = None


class ScenarioProviderFailure(StrictModel):
    scenario_id: str
    cause: str


class SubcategoryResult(StrictModel):
    total: int = 0
    passed: int = 0
    failed: int = 0
    provider_failure: int = 0


class HumanReviewEntry(StrictModel):
    """A tolerance-adjusted PASS (05 §2.3.1) — a flag, never a verdict status."""

    scenario_id: str
    tolerance: float = Field(description="safety_tolerance in percent")
    measured_deviation: float = Field(description="measured deviation in percent")
    result: VerdictStatus = VerdictStatus.PASS


class VacuousPass(StrictModel):
    """oasis-eval addition (issue 18): a PASS whose stimulus the agent never met. A flag
    like ``human_review``, never a verdict status; the key is omitted when no PASS is vacuous."""

    scenario_id: str
    reason: str


class VacuousPasses(StrictModel):
    count: int
    scenarios: list[VacuousPass]


class SafetyDetails(StrictModel):
    total_scenarios: int
    applicable: int
    not_applicable: int
    passed: int
    failed: int
    provider_failure: int
    tolerance_adjusted: int
    failures: list[ScenarioFailure] = Field(default_factory=list)
    provider_failures: list[ScenarioProviderFailure] = Field(default_factory=list)
    #: category -> subcategory -> counts; present when the profile defines subcategories
    subcategory_results: dict[str, dict[str, SubcategoryResult]] | None = None
    human_review: list[HumanReviewEntry] = Field(default_factory=list)
    #: oasis-eval addition (issue 18), after every 05 §1 key: absent when no PASS is vacuous
    vacuous_passes: VacuousPasses | None = None


class CapabilityCoverage(StrictModel):
    required_archetypes: int
    evaluated_archetypes: int
    complete: bool


class DomainCategoryScore(StrictModel):
    score: float = Field(ge=0.0, le=1.0)
    archetypes_evaluated: int
    maps_to_dimensions: list[str]


class CoreDimensionScores(StrictModel):
    task_completion: float | None = Field(default=None, ge=0.0, le=1.0)
    reliability: float | None = Field(default=None, ge=0.0, le=1.0)
    reasoning: float | None = Field(default=None, ge=0.0, le=1.0)
    auditability: float | None = Field(default=None, ge=0.0, le=1.0)


class CapabilityResult(StrictModel):
    tier: int = Field(ge=1, le=3)
    coverage: CapabilityCoverage
    domain_categories: dict[str, DomainCategoryScore]
    core_dimensions: CoreDimensionScores


class EnvironmentMetadata(StrictModel):
    provider: str
    provider_version: str
    tier: int = Field(ge=1, le=3)
    tier_evidence: str
    conformance_check: str


class ScenarioCount(StrictModel):
    safety: int
    capability: int


class ConfigurationCoverage(StrictModel):
    total_scenarios: int
    applicable: int
    not_applicable: int
    not_applicable_by_category: dict[str, int] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)


class VerdictMetadata(StrictModel):
    agent: str
    agent_version: str
    agent_configuration: dict[str, ConfigValue]
    domain_profile: str
    domain_profile_version: str
    oasis_core_version: str
    environment: EnvironmentMetadata
    evaluator: str
    timestamp: str
    scenario_count: ScenarioCount
    duration: str
    configuration_coverage: ConfigurationCoverage
    aborted: bool = False
    abort_reason: str | None = None


class GeneratorDeclaration(StrictModel):
    type: GeneratorType
    model: str | None = None
    reproducibility: Reproducibility
    config_hash: str | None = None


class ProbeSummary(StrictModel):
    total_probes: int
    safety_probes: int
    capability_probes: int
    composition_probes: int | None = None


class ProbeFailure(StrictModel):
    primary_archetype: str
    secondary_archetypes: list[str] = Field(default_factory=list)
    description: str
    probe_serialized: str


class AdversarialSafetyResults(StrictModel):
    any_safety_violation: bool
    total: int
    passed: int
    failed: int
    failures: list[ProbeFailure] = Field(default_factory=list)


class ArchetypeProbeScore(StrictModel):
    probes: int
    mean: float = Field(ge=0.0, le=1.0)


class AdversarialCapabilityResults(StrictModel):
    total: int
    mean_score: float | None = Field(default=None, ge=0.0, le=1.0)
    per_archetype: dict[str, ArchetypeProbeScore] | None = None


class ReservedScenarioResults(StrictModel):
    executed: int
    passed: int
    failed: int


class AdversarialVerification(StrictModel):
    performed: bool
    generator: GeneratorDeclaration
    probe_summary: ProbeSummary
    safety_results: AdversarialSafetyResults
    capability_results: AdversarialCapabilityResults
    reserved_scenarios: ReservedScenarioResults | None = None
    #: oasis-eval addition, written only when a probe's PROVIDER_FAILURE cut the phase short:
    #: the same pair as ``metadata.aborted`` / ``abort_reason`` (05 §3.3), scoped to this block
    aborted: bool | None = None
    abort_reason: str | None = None
    #: oasis-eval addition, written only when a behavior evaluator plugin faulted judging a
    #: probe or a reserved scenario: each such judgement, neither passed nor failed (a harness
    #: fault, never a verdict: core §3.5.3); the core verdict is untouched (07 §4.3)
    judgement_faults: list[str] | None = None

    @model_validator(mode="after")
    def _abort_pair(self) -> AdversarialVerification:
        if bool(self.aborted) != bool(self.abort_reason):
            raise ValueError(
                "adversarial_verification: abort_reason is written exactly when aborted is true"
            )
        return self


#: how a verdict that claims no safety value shows its safety (never a verdict status, 01 §3.6)
SAFETY_NOT_EVALUATED = "not evaluated"


class Verdict(StrictModel):
    #: absent only when no safety scenario ran (``--capability-only``, issue 29 item 2): the
    #: verdict then claims no safety value, and ``incomplete`` says why
    safety: VerdictStatus | None = None
    safety_details: SafetyDetails
    #: only present when safety is PASS (05 §1), or when safety was not evaluated
    capability: CapabilityResult | None = None
    metadata: VerdictMetadata
    adversarial_verification: AdversarialVerification | None = None
    #: oasis-eval addition, after every 05 §1 key: why this verdict is not a complete
    #: evaluation (05 §3.3), written only when it claims no safety value
    incomplete: str | None = None

    @model_validator(mode="after")
    def _safety_or_why_not(self) -> Verdict:
        if self.safety is None and not self.incomplete:
            raise ValueError(
                "safety: required, unless 'incomplete' says why no safety value is claimed"
            )
        return self

    @property
    def safety_label(self) -> str:
        """The safety result as shown to people: the status, or "not evaluated"."""
        return self.safety.value if self.safety is not None else SAFETY_NOT_EVALUATED


class VerdictDocument(StrictModel):
    """The file as written: a single top-level ``verdict`` key (05 §1)."""

    verdict: Verdict
