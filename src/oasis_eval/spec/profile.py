"""The domain profile (spec 03 §2): every required and optional component as data.

The same model backs both profile layouts: the oasis-spec markdown layout is
parsed into it, and the native ``profile.yaml`` layout is a direct dump of it.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import Field, PrivateAttr, model_validator

from .common import ConfigValue, CoreDimension, CoreSafetyCategory, SpecModel
from .scenario import Scenario


class ProfileMetadata(SpecModel):
    """03 §2.1, plus where the profile came from (08 §5.3)."""

    name: str
    identifier: str
    version: str
    description: str = ""
    domain: str = ""
    #: the core spec dependency, e.g. ``>=1.0.0-rc1.5``
    core_dependency: str = ""
    #: where the content was converted from (``oasis profile export``), if it was
    source_profile_version: str | None = None
    source_commit: str | None = None
    source_path: str | None = None


class VocabularyTerm(SpecModel):
    term: str
    definition: str
    core_concept: str


class InterfaceType(SpecModel):
    identifier: str
    description: str = ""
    #: "functional", "compound" or "context_tag"
    kind: str = "functional"
    #: for compound types: the functional types they combine
    includes: list[str] = Field(default_factory=list)


class BehaviorDefinition(SpecModel):
    """03 §2.3: identifier, prose definition, deterministic verification method."""

    id: str
    group: str = ""
    definition: str
    verification: str


class Subcategory(SpecModel):
    """03 §2.14. ``parents`` are category ids; a subcategory may span several."""

    id: str
    parents: list[str]
    description: str = ""


class Archetype(SpecModel):
    id: str
    name: str
    category: str
    description: str = ""
    #: labelled facets from the archetype text (preconditions, stimulus, expected
    #: behavior, failure condition, rubric ...), keyed by lower-case label
    facets: dict[str, str] = Field(default_factory=dict)


class SafetyCategory(SpecModel):
    """03 §2.4. Empty ``core_mapping`` means domain-specific (needs a justification)."""

    id: str
    name: str
    core_mapping: list[CoreSafetyCategory] = Field(default_factory=list)
    core_question: str = ""
    description: str = ""
    justification: str = ""
    archetypes: list[Archetype] = Field(default_factory=list)

    @property
    def domain_specific(self) -> bool:
        return not self.core_mapping


class AggregationMethod(str, Enum):
    weighted_average = "weighted_average"
    minimum = "minimum"


class Aggregation(SpecModel):
    """How archetype scores roll up to a category score (core §4.3)."""

    method: AggregationMethod
    #: archetype id -> weight; archetypes not listed weigh 1.0
    weights: dict[str, float] = Field(default_factory=dict)
    #: the profile's own words for it, e.g. "Weighted average (multi-signal 1.5x)"
    text: str = ""

    def weight(self, archetype_id: str) -> float:
        return self.weights.get(archetype_id, 1.0)


class CapabilityCategory(SpecModel):
    """03 §2.5: a profile-defined category mapped to core dimensions."""

    id: str
    name: str
    dimensions: list[CoreDimension]
    core_question: str = ""
    aggregation: Aggregation
    archetypes: list[Archetype] = Field(default_factory=list)


class CapabilityTier(SpecModel):
    """03 §2.6: the concrete operations of one capability tier."""

    tier: int = Field(ge=1, le=3)
    name: str
    operations: list[str] = Field(default_factory=list)


class MinimumCoverage(SpecModel):
    """Minimum archetypes per category at a tier; ``None`` means *all* archetypes."""

    safety_archetypes_per_category: int | None = 1
    capability_archetypes_per_category: int | None = 1
    notes: list[str] = Field(default_factory=list)


class ComplexityTier(SpecModel):
    """03 §2.7 / core §5: environment characteristics and minimum coverage."""

    tier: int = Field(ge=1, le=3)
    name: str
    environment: list[str] = Field(default_factory=list)
    minimum_coverage: MinimumCoverage = Field(default_factory=MinimumCoverage)


class ConfigDimension(SpecModel):
    """One axis of the agent configuration schema (03 §2.16.1)."""

    identifier: str
    type: Literal["enum", "boolean"]
    values: list[ConfigValue] = Field(default_factory=list)
    description: str = ""
    default: ConfigValue | None = None


class AgentConfigurationSchema(SpecModel):
    dimensions: list[ConfigDimension] = Field(default_factory=list)

    def dimension(self, identifier: str) -> ConfigDimension | None:
        for dim in self.dimensions:
            if dim.identifier == identifier:
                return dim
        return None


class IntentPromotion(SpecModel):
    """03 §2.15: where ``intent`` is required or recommended (classification or category ids)."""

    required_for: list[str] = Field(default_factory=list)
    recommended_for: list[str] = Field(default_factory=list)


class LibraryStimulus(SpecModel):
    """An entry of the stimulus library (03 §2.10)."""

    id: str
    name: str = ""
    type: str
    value: str | None = None
    description: str | None = None
    target: str | None = None
    timing: str | None = None
    usage: str = ""


class ConformanceRequirement(SpecModel):
    """One requirement key of the provider conformance contract (03 §2.17)."""

    #: the requirement key; filled from the contract's map key when omitted
    key: str = ""
    type: str
    required: bool = True
    #: a literal, a list that must be contained, a version range, or
    #: ``{comparison_operator, value}``
    expected: Any = None
    #: what the key tests for (03 §2.17.1: its semantic meaning)
    description: str = ""
    #: the set of valid values, where they can be listed (03 §2.17.1)
    valid_values: Any = None
    #: what happens at evaluation time when a provider claims the key but it does not hold
    failure_mode: str = ""
    #: how the runner or an operator confirms the provider's claim
    verification: str = ""


class ConformanceContract(SpecModel):
    """03 §2.17 / 08 §3.8: what a provider must declare for this profile."""

    profile: str = ""
    profile_version: str = ""
    core_dependency: str = ""
    requirements: dict[str, ConformanceRequirement] = Field(default_factory=dict)
    #: the JSON Schema a provider's conformance response is validated against
    response_schema: dict[str, Any] | None = None
    #: the document holding the human-readable contract
    document: str = ""
    #: worked conformance responses (03 §2.17.1: one conformant, one not), as JSON objects
    examples: list[dict[str, Any]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _keys_match_map(self) -> ConformanceContract:
        for name, requirement in self.requirements.items():
            if not requirement.key:
                requirement.key = name
            elif requirement.key != name:
                raise ValueError(f"requirement '{name}' declares key '{requirement.key}'")
        return self


class ReservedScenarios(SpecModel):
    """03 §2.12: declared withheld scenarios (content distributed separately)."""

    per_category: dict[str, int] = Field(default_factory=dict)
    rotation_cadence: str = ""
    distribution: str = ""


class NegativeTestingPair(SpecModel):
    """A row of the negative-testing mapping of the quality statement (03 §3.4)."""

    #: the safety archetype (its id, or its name as written when no id is given)
    safety_archetype: str
    refused_action: str = ""
    #: companion capability scenario ids named in the row
    companion_scenarios: list[str] = Field(default_factory=list)
    #: companion capability archetype ids named in the row
    companion_archetypes: list[str] = Field(default_factory=list)
    legitimate_action: str = ""
    #: the companion cell as written (a justification when nothing is named)
    companion_text: str = ""


class EnvironmentSpecification(SpecModel):
    """03 §2.9: what an environment provider must satisfy, one prose part each."""

    system_types: str = ""
    state_injection: str = ""
    isolation: str = ""
    #: which aspects must be faithfully simulated and which may be mocked
    fidelity: str = ""


class QualityStatement(SpecModel):
    """03 §2.11 / §3: the Profile Quality Statement, one prose part per §3 criterion."""

    difficulty: str = ""
    coverage_independence: str = ""
    evasion_resistance: str = ""
    negative_testing: str = ""


class DimensionContribution(SpecModel):
    category: str
    weight: float


class Profile(SpecModel):
    """A loaded domain profile with its scenarios (03 §2)."""

    metadata: ProfileMetadata
    vocabulary: list[VocabularyTerm] = Field(default_factory=list)
    interface_types: list[InterfaceType] = Field(default_factory=list)
    behaviors: list[BehaviorDefinition] = Field(default_factory=list)
    safety_categories: list[SafetyCategory] = Field(default_factory=list)
    subcategories: list[Subcategory] = Field(default_factory=list)
    capability_categories: list[CapabilityCategory] = Field(default_factory=list)
    #: core dimension -> contributing categories with weights (core §4.3)
    dimension_weights: dict[CoreDimension, list[DimensionContribution]] = Field(
        default_factory=dict
    )
    capability_tiers: list[CapabilityTier] = Field(default_factory=list)
    #: operations that stay human-only at every tier
    human_only_operations: list[str] = Field(default_factory=list)
    complexity_tiers: list[ComplexityTier] = Field(default_factory=list)
    agent_configuration_schema: AgentConfigurationSchema | None = None
    intent_promotion: IntentPromotion | None = None
    stimulus_library: list[LibraryStimulus] = Field(default_factory=list)
    conformance: ConformanceContract | None = None
    environment_specification: EnvironmentSpecification | None = None
    quality_statement: QualityStatement | None = None
    reserved_scenarios: ReservedScenarios | None = None
    #: the quality statement's safety-archetype -> capability-companion mapping (03 §3.4)
    negative_testing: list[NegativeTestingPair] = Field(default_factory=list)
    #: other profiles' evaluator namespaces this profile's behaviors may resolve in, after its
    #: own identifier (a profile reusing another's behavior definitions names it; issue 14)
    behavior_namespaces: list[str] = Field(default_factory=list)
    scenarios: list[Scenario] = Field(default_factory=list)

    _lookup_cache: dict[str, Any] = PrivateAttr(default_factory=dict)

    # ---- lookups -------------------------------------------------------
    @property
    def id(self) -> str:
        return self.metadata.identifier

    @property
    def version(self) -> str:
        return self.metadata.version

    def behavior(self, behavior_id: str) -> BehaviorDefinition | None:
        return self._index("_behaviors", self.behaviors, "id").get(behavior_id)

    def library_stimulus(self, ref: str) -> LibraryStimulus | None:
        return self._index("_library", self.stimulus_library, "id").get(ref)

    def scenario(self, scenario_id: str) -> Scenario | None:
        for scenario in self.scenarios:
            if scenario.id == scenario_id:
                return scenario
        return None

    def categories(self) -> list[SafetyCategory | CapabilityCategory]:
        return [*self.safety_categories, *self.capability_categories]

    def category(self, category_id: str) -> SafetyCategory | CapabilityCategory | None:
        for cat in self.categories():
            if cat.id == category_id:
                return cat
        return None

    def archetype(self, archetype_id: str) -> Archetype | None:
        for cat in self.categories():
            for arch in cat.archetypes:
                if arch.id == archetype_id:
                    return arch
        return None

    def safety_archetypes(self) -> list[Archetype]:
        return [a for c in self.safety_categories for a in c.archetypes]

    def capability_archetypes(self) -> list[Archetype]:
        return [a for c in self.capability_categories for a in c.archetypes]

    def _index(self, name: str, items: list[Any], key: str) -> dict[str, Any]:
        # Rebuilt when the list changes length; profiles are built once, read often.
        cache = self._lookup_cache
        hit = cache.get(name)
        if hit is None or hit[0] != len(items):
            hit = (len(items), {getattr(i, key): i for i in items})
            cache[name] = hit
        return hit[1]
