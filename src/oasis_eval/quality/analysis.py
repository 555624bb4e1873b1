"""Profile quality analysis (spec 03 §4.1): the six reports, as plain data.

The tool surfaces data that helps humans judge a profile; it never judges.
There is no quality score, no pass/fail, and no semantic check of prose:
``intent`` is only measured (length) and compared for exact duplicates
(02 §1.1). Every list is sorted, so the same profile gives the same report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from operator import attrgetter

from ..spec.common import Classification, DifficultyLevel
from ..spec.profile import CapabilityCategory, Profile, SafetyCategory
from ..spec.scenario import Scenario
from .report import (
    ArchetypeCompanions,
    ArchetypeCoverage,
    AttackSurface,
    AxisDistribution,
    CategoryArchetypeCoverage,
    CategorySurfaces,
    CategoryWithout,
    CompanionLink,
    CoverageIndependence,
    DifficultyDistribution,
    IntentCount,
    IntentCoverage,
    NegativeTesting,
    QualityReport,
    ShortIntent,
    SubcategoryCount,
    SubcategoryDistribution,
    TierCoverage,
    UndefinedSubcategory,
)

TIERS = (1, 2, 3)
DIFFICULTY_AXES = ("plausibility", "detection_complexity", "contextual_embedding")
LEVELS = tuple(level.value for level in DifficultyLevel)  # low, medium, high
MIN_INTENT_LENGTH = 20  # 02 §1.1
_by_id = attrgetter("id")


# ---- analysis ---------------------------------------------------------------------
def analyze(profile: Profile, tier: int | None = None) -> QualityReport:
    """Run the six analyses of 03 §4.1. ``tier`` limits archetype coverage to that tier."""
    if tier is not None and tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}, got {tier!r}")
    safety = _sorted(s for s in profile.scenarios if s.is_safety)
    return QualityReport(
        profile=profile.id,
        profile_version=profile.version,
        tier=tier,
        safety_scenarios=len(safety),
        capability_scenarios=len(profile.scenarios) - len(safety),
        with_quality_metadata=sum(1 for s in profile.scenarios if s.quality is not None),
        negative_testing=negative_testing(profile),
        coverage_independence=coverage_independence(profile),
        difficulty_distribution=difficulty_distribution(profile),
        archetype_coverage=archetype_coverage(profile, tier),
        intent_coverage=intent_coverage(profile),
        subcategory_distribution=subcategory_distribution(profile),
    )


def negative_testing(profile: Profile) -> NegativeTesting:
    """03 §3.4: companion capability scenarios per safety archetype."""
    by_id = {s.id: s for s in profile.scenarios}
    home = {a.id: c.id for c in profile.safety_categories for a in c.archetypes}
    by_arch: dict[str, list[Scenario]] = {a: [] for a in home}
    for s in profile.scenarios:
        if s.is_safety:
            by_arch.setdefault(s.archetype, []).append(s)
    rows: list[ArchetypeCompanions] = []
    for arch in sorted(by_arch, key=lambda a: (home.get(a, _category_of(by_arch[a])), a)):
        scenarios = _sorted(by_arch[arch])
        links = []
        for s in scenarios:
            target = s.quality.companion_scenario if s.quality else None
            if target:
                links.append(_link(s.id, target, by_id.get(target)))
        rows.append(
            ArchetypeCompanions(
                archetype=arch,
                category=home.get(arch, _category_of(scenarios)),
                defined=arch in home,
                safety_scenarios=[s.id for s in scenarios],
                companions=links,
                covered=any(link.is_capability for link in links),
            )
        )
    all_links = [link for row in rows for link in row.companions]
    return NegativeTesting(
        archetypes_total=len(rows),
        archetypes_covered=sum(1 for r in rows if r.covered),
        archetypes=rows,
        missing_companion=[r.archetype for r in rows if not r.covered],
        dangling=[link for link in all_links if not link.exists],
        not_capability=[link for link in all_links if link.exists and not link.is_capability],
    )


def coverage_independence(profile: Profile) -> CoverageIndependence:
    """03 §3.2: distinct ``attack_surface`` values per safety category."""
    by_cat: dict[str, list[Scenario]] = {c.id: [] for c in profile.safety_categories}
    for s in profile.scenarios:
        if s.is_safety:
            by_cat.setdefault(s.category, []).append(s)
    out = []
    for cat in sorted(by_cat):
        surfaces: dict[str, list[str]] = defaultdict(list)
        without = []
        for s in _sorted(by_cat[cat]):
            value = (s.quality.attack_surface or "").strip() if s.quality else ""
            if value:
                surfaces[value].append(s.id)
            else:
                without.append(s.id)
        rows = [
            AttackSurface(attack_surface=k, scenarios=v, shared=len(v) > 1)
            for k, v in sorted(surfaces.items())
        ]
        out.append(
            CategorySurfaces(
                category=cat,
                scenarios=len(by_cat[cat]),
                effective_coverage=len(rows),
                surfaces=rows,
                shared_surfaces=[r.attack_surface for r in rows if r.shared],
                without_attack_surface=without,
            )
        )
    return CoverageIndependence(categories=out)


def difficulty_distribution(profile: Profile) -> DifficultyDistribution:
    """03 §3.1: low/medium/high counts per difficulty axis over safety scenarios."""
    safety = [s for s in profile.scenarios if s.is_safety]
    total = len(safety)
    axes = []
    for axis in DIFFICULTY_AXES:
        counts = dict.fromkeys(LEVELS, 0)
        for s in safety:
            difficulty = s.quality.difficulty if s.quality else None
            level = getattr(difficulty, axis) if difficulty else None
            if level is not None:
                counts[level.value] += 1
        rated = sum(counts.values())
        axes.append(
            AxisDistribution(
                axis=axis,
                counts=counts,
                percentages={k: _percent(v, total) for k, v in counts.items()},
                rated=rated,
                unrated=total - rated,
                missing_levels=[k for k, v in counts.items() if v == 0],
            )
        )
    return DifficultyDistribution(
        safety_scenarios=total,
        axes=axes,
        axes_with_missing_levels=[a.axis for a in axes if a.missing_levels],
        axes_without_high=[a.axis for a in axes if a.counts["high"] == 0],
        unrated_axes=[a.axis for a in axes if a.rated == 0],
    )


def archetype_coverage(profile: Profile, tier: int | None = None) -> ArchetypeCoverage:
    """03 §2.7 / core §5: archetypes with a scenario runnable at tier T (scenario tier <= T)."""
    declared = {t.tier: t for t in profile.complexity_tiers}
    cats: list[tuple[SafetyCategory | CapabilityCategory, Classification]] = [
        (c, Classification.safety) for c in sorted(profile.safety_categories, key=_by_id)
    ]
    cats += [
        (c, Classification.capability) for c in sorted(profile.capability_categories, key=_by_id)
    ]
    tiers = []
    for t in TIERS if tier is None else (tier,):
        spec = declared.get(t)
        rows = []
        for cat, cls in cats:
            runnable = {
                s.archetype for s in profile.scenarios if s.tier <= t and s.classification is cls
            }
            ids = sorted(a.id for a in cat.archetypes)
            covered = [a for a in ids if a in runnable]
            required = None
            if spec is not None:
                minimum = spec.minimum_coverage
                per_cat = (
                    minimum.safety_archetypes_per_category
                    if cls is Classification.safety
                    else minimum.capability_archetypes_per_category
                )
                required = len(ids) if per_cat is None else per_cat
            rows.append(
                CategoryArchetypeCoverage(
                    category=cat.id,
                    classification=cls,
                    archetypes_total=len(ids),
                    covered=covered,
                    missing=[a for a in ids if a not in runnable],
                    required=required,
                    minimum_met=None if required is None else len(covered) >= required,
                )
            )
        tiers.append(
            TierCoverage(
                tier=t,
                tier_declared=spec is not None,
                notes=list(spec.minimum_coverage.notes) if spec else [],
                categories=rows,
                below_minimum=[r.category for r in rows if r.minimum_met is False],
            )
        )
    return ArchetypeCoverage(tiers=tiers)


def intent_coverage(profile: Profile) -> IntentCoverage:
    """02 §1.1 / 03 §2.15: presence, promotion, length and exact duplicates of ``intent``.

    No semantic evaluation (03 §4.1): an intent is compared only by its exact
    text with surrounding whitespace removed.
    """
    promotion = profile.intent_promotion
    required_for = sorted(promotion.required_for) if promotion else []
    recommended_for = sorted(promotion.recommended_for) if promotion else []
    counts = []
    for cls in Classification:
        group = [s for s in profile.scenarios if s.classification is cls]
        counts.append(
            IntentCount(
                classification=cls,
                scenarios=len(group),
                with_intent=sum(1 for s in group if _intent(s)),
            )
        )
    missing, missing_required, short = [], [], []
    texts: dict[str, list[str]] = defaultdict(list)
    for s in _sorted(profile.scenarios):
        text = _intent(s)
        if not text:
            missing.append(s.id)
            if s.classification.value in required_for or s.category in required_for:
                missing_required.append(s.id)
            continue
        texts[text].append(s.id)
        if len(text) < MIN_INTENT_LENGTH:
            short.append(ShortIntent(scenario=s.id, length=len(text)))
    return IntentCoverage(
        by_classification=counts,
        required_for=required_for,
        recommended_for=recommended_for,
        missing=missing,
        missing_required=missing_required,
        short=short,
        duplicates=sorted(ids for ids in texts.values() if len(ids) > 1),
    )


def subcategory_distribution(profile: Profile) -> SubcategoryDistribution:
    """03 §2.14: scenarios per (parent category, subcategory); unused and undefined ones."""
    defined = {(p, sub.id) for sub in profile.subcategories for p in sub.parents}
    used: dict[tuple[str, str], list[str]] = {key: [] for key in defined}
    undefined = []
    for s in _sorted(profile.scenarios):
        if not s.subcategory:
            continue
        key = (s.category, s.subcategory)
        if key in defined:
            used[key].append(s.id)
        else:
            undefined.append(
                UndefinedSubcategory(scenario=s.id, category=s.category, subcategory=s.subcategory)
            )
    rows = [
        SubcategoryCount(category=c, subcategory=sub, scenarios=ids, count=len(ids))
        for (c, sub), ids in sorted(used.items())
    ]
    without = []
    for cat in sorted({p for p, _ in defined}):
        ids = [s.id for s in _sorted(profile.scenarios) if s.category == cat and not s.subcategory]
        without.append(CategoryWithout(category=cat, scenarios=ids))
    return SubcategoryDistribution(
        defined=bool(defined),
        distribution=rows,
        unused=[r for r in rows if r.count == 0],
        undefined=undefined,
        without_subcategory=without,
    )


# ---- helpers ----------------------------------------------------------------------
def _sorted(scenarios: Iterable[Scenario]) -> list[Scenario]:
    return sorted(scenarios, key=lambda s: s.id)


def _category_of(scenarios: list[Scenario]) -> str:
    """Category of an undefined archetype: the smallest category its scenarios name."""
    return min((s.category for s in scenarios), default="")


def _link(source: str, target: str, companion: Scenario | None) -> CompanionLink:
    cls = companion.classification if companion else None
    return CompanionLink(
        safety_scenario=source,
        companion=target,
        exists=companion is not None,
        companion_classification=cls,
        is_capability=cls is Classification.capability,
    )


def _intent(scenario: Scenario) -> str:
    return (scenario.intent or "").strip()


def _percent(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0
