"""The profile quality report (spec 03 §4.1) as pydantic models.

``QualityReport.model_dump(mode="json")`` is the JSON output of ``oasis quality``.
Nothing here is a score: every field is a count, a list of ids, or a fact.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..spec.common import Classification


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---- 1. negative testing (03 §3.4, 02 §1.2 companion_scenario) ------------------
class CompanionLink(_Model):
    """A safety scenario's declared companion capability scenario (03 §3.4)."""

    safety_scenario: str
    companion: str
    exists: bool
    #: classification of the companion, ``None`` when it does not exist
    companion_classification: Classification | None = None
    is_capability: bool


class ArchetypeCompanions(_Model):
    """The companions of one safety archetype's scenarios (03 §3.4)."""

    archetype: str
    category: str
    #: False when safety scenarios name an archetype the profile does not define
    defined: bool = True
    safety_scenarios: list[str] = Field(default_factory=list)
    companions: list[CompanionLink] = Field(default_factory=list)
    #: at least one companion exists and is a capability scenario
    covered: bool


class NegativeTesting(_Model):
    """Report 1: companion capability scenarios per safety archetype (03 §3.4)."""

    archetypes_total: int
    archetypes_covered: int
    archetypes: list[ArchetypeCompanions]
    missing_companion: list[str]
    #: companion links whose target scenario does not exist
    dangling: list[CompanionLink]
    #: companion links whose target exists but is not a capability scenario
    not_capability: list[CompanionLink]


# ---- 2. coverage independence (03 §3.2) ------------------------------------------
class AttackSurface(_Model):
    """One ``attack_surface`` value and the scenarios that declare it."""

    attack_surface: str
    scenarios: list[str]
    shared: bool


class CategorySurfaces(_Model):
    """The distinct attack surfaces of one safety category (03 §3.2)."""

    category: str
    scenarios: int
    #: number of distinct attack_surface values
    effective_coverage: int
    surfaces: list[AttackSurface]
    shared_surfaces: list[str]
    without_attack_surface: list[str]


class CoverageIndependence(_Model):
    """Report 2: attack-surface independence per safety category (03 §3.2)."""

    categories: list[CategorySurfaces]


# ---- 3. difficulty distribution (03 §3.1) ----------------------------------------
class AxisDistribution(_Model):
    """Low/medium/high counts of one difficulty axis (03 §3.1)."""

    axis: str
    counts: dict[str, int]
    #: percent of all safety scenarios, rounded to 1 decimal
    percentages: dict[str, float]
    rated: int
    unrated: int
    missing_levels: list[str]


class DifficultyDistribution(_Model):
    """Report 3: difficulty distribution over safety scenarios (03 §3.1)."""

    safety_scenarios: int
    axes: list[AxisDistribution]
    #: axes where at least one level (low/medium/high) has no scenario
    axes_with_missing_levels: list[str]
    axes_without_high: list[str]
    #: axes no safety scenario rates at all
    unrated_axes: list[str]


# ---- 4. archetype coverage (03 §2.7, core §5) ------------------------------------
class CategoryArchetypeCoverage(_Model):
    """Covered and missing archetypes of one category at a tier (03 §2.7)."""

    category: str
    classification: Classification
    archetypes_total: int
    covered: list[str]
    missing: list[str]
    #: archetypes the tier's minimum coverage asks for (``None`` in the profile = all);
    #: ``None`` here when the profile declares no such complexity tier
    required: int | None
    minimum_met: bool | None


class TierCoverage(_Model):
    """Archetype coverage at one complexity tier (03 §2.7, core §5)."""

    tier: int
    tier_declared: bool
    notes: list[str] = Field(default_factory=list)
    categories: list[CategoryArchetypeCoverage]
    #: categories whose declared minimum is not met
    below_minimum: list[str]


class ArchetypeCoverage(_Model):
    """Report 4: archetype coverage per tier (03 §2.7, core §5)."""

    tiers: list[TierCoverage]


# ---- 5. intent coverage (02 §1.1, 03 §2.15) --------------------------------------
class IntentCount(_Model):
    """Scenarios of one classification and how many state an intent (02 §1.1)."""

    classification: Classification
    scenarios: int
    with_intent: int


class ShortIntent(_Model):
    """A scenario whose intent is shorter than the minimum length."""

    scenario: str
    length: int


class IntentCoverage(_Model):
    """Report 5: presence, promotion and length of ``intent`` (02 §1.1, 03 §2.15)."""

    by_classification: list[IntentCount]
    required_for: list[str]
    recommended_for: list[str]
    missing: list[str]
    missing_required: list[str]
    short: list[ShortIntent]
    #: groups of scenario ids sharing an identical intent
    duplicates: list[list[str]]


# ---- 6. subcategory distribution (03 §2.14) --------------------------------------
class SubcategoryCount(_Model):
    """Scenarios of one (category, subcategory) pair (03 §2.14)."""

    category: str
    subcategory: str
    scenarios: list[str]
    count: int


class UndefinedSubcategory(_Model):
    """A scenario naming a subcategory the profile does not define."""

    scenario: str
    category: str
    subcategory: str


class CategoryWithout(_Model):
    """A category's scenarios that name no subcategory."""

    category: str
    scenarios: list[str]  # its scenarios with no subcategory


class SubcategoryDistribution(_Model):
    """Report 6: scenarios per subcategory; unused and undefined ones (03 §2.14)."""

    defined: bool
    distribution: list[SubcategoryCount]
    unused: list[SubcategoryCount]
    undefined: list[UndefinedSubcategory]
    #: only for categories that parent a defined subcategory
    without_subcategory: list[CategoryWithout]


class QualityReport(_Model):
    """The 03 §4.1 report: input to human review, never a score."""

    profile: str
    profile_version: str
    tier: int | None = None
    safety_scenarios: int
    capability_scenarios: int
    #: scenarios carrying a ``quality`` block (02 §1.2)
    with_quality_metadata: int
    negative_testing: NegativeTesting
    coverage_independence: CoverageIndependence
    difficulty_distribution: DifficultyDistribution
    archetype_coverage: ArchetypeCoverage
    intent_coverage: IntentCoverage
    subcategory_distribution: SubcategoryDistribution
