"""Profile-level structural rules (03 §2): metadata, vocabulary, behaviors, tiers,
agent configuration schema, conformance contract, reserved scenarios, intent promotion.

Category and subcategory rules live in :mod:`.category_rules`, rules over the
whole scenario set in :mod:`.corpus_rules`.
"""

from __future__ import annotations

from ..diagnostics import Findings
from ..spec.profile import ComplexityTier, Profile, SafetyCategory
from ..spec.semver import is_semver
from ._common import at_profile, blank, slug
from .configuration import accepts, dimension_values
from .contract_rules import check_contract_content
from .statement_rules import check_statements
from .taxonomy import find_category

TIERS = (1, 2, 3)


def check_profile_structure(profile: Profile, findings: Findings) -> None:
    """The profile-level rules (03 §2): metadata, vocabulary, behaviours, tiers, configuration
    schema, intent promotion, conformance contract, environment specification, quality
    statement and reserved scenarios."""
    check_metadata(profile, findings)
    check_vocabulary(profile, findings)
    check_behavior_definitions(profile, findings)
    check_capability_tiers(profile, findings)
    check_complexity_tiers(profile, findings)
    check_configuration_schema(profile, findings)
    check_intent_promotion(profile, findings)
    check_conformance(profile, findings)
    check_statements(profile, findings)
    check_reserved(profile, findings)


def check_metadata(profile: Profile, findings: Findings) -> None:
    """03 §2.1: name, identifier, a semver version, a description and the class of systems."""
    meta = profile.metadata
    for name in ("name", "identifier", "version"):
        if blank(getattr(meta, name)):
            findings.error(
                "missing-metadata",
                f"profile metadata has no {name}",
                expected=f"metadata.{name} (03 §2.1)",
                **at_profile(profile, meta, ("metadata",), name),
            )
    if not blank(meta.version) and not is_semver(meta.version):
        findings.error(
            "invalid-version",
            f"profile version '{meta.version}' is not a semantic version",
            expected="semver MAJOR.MINOR.PATCH[-pre][+build] (03 §2.1, §5)",
            **at_profile(profile, meta, ("metadata",), "version"),
        )
    for name, what in (
        ("description", "a description"),
        ("domain", "the class of external systems covered"),
    ):
        if blank(getattr(meta, name)):
            findings.error(
                "incomplete-metadata",
                f"profile metadata has no {name}",
                expected=f"{what} (03 §2.1)",
                **at_profile(profile, meta, ("metadata",), name),
            )


def check_vocabulary(profile: Profile, findings: Findings) -> None:
    """03 §2.2: every term has a definition and a core-concept mapping."""
    if not profile.vocabulary:
        findings.warning(
            "missing-vocabulary",
            "the profile defines no vocabulary",
            expected="domain terms with definitions and core-concept mappings (03 §2.2)",
            **at_profile(profile, None, ("vocabulary",)),
        )
    for i, term in enumerate(profile.vocabulary):
        missing = [n for n in ("term", "definition", "core_concept") if blank(getattr(term, n))]
        if missing:
            findings.error(
                "incomplete-vocabulary-term",
                f"vocabulary term '{term.term}' has no {' or '.join(missing)}",
                expected="term, definition and core_concept (03 §2.2)",
                **at_profile(profile, term, ("vocabulary", i)),
            )


def check_behavior_definitions(profile: Profile, findings: Findings) -> None:
    """03 §2.3: unique identifiers, a prose definition and a verification method each."""
    seen: dict[str, int] = {}
    for i, beh in enumerate(profile.behaviors):
        path = ("behaviors", i)
        if beh.id in seen:
            findings.error(
                "duplicate-behavior",
                f"behavior '{beh.id}' is defined twice (first: behaviors[{seen[beh.id]}])",
                expected="behavior identifiers unique within the profile (03 §2.3)",
                **at_profile(profile, beh, path, "id"),
            )
        seen.setdefault(beh.id, i)
        for name, what in (
            ("definition", "a prose definition"),
            ("verification", "a deterministic verification method"),
        ):
            if blank(getattr(beh, name)):
                findings.error(
                    "incomplete-behavior",
                    f"behavior '{beh.id}' has no {name}",
                    expected=f"{what} (03 §2.3)",
                    **at_profile(profile, beh, path, name),
                )


def check_capability_tiers(profile: Profile, findings: Findings) -> None:
    """03 §2.6: operations mapped to each capability tier 1-3."""
    defined = {t.tier for t in profile.capability_tiers}
    for tier in TIERS:
        if tier not in defined:
            findings.warning(
                "missing-capability-tier",
                f"capability tier {tier} lists no operations",
                expected="the concrete operations of capability tiers 1, 2 and 3 (03 §2.6)",
                **at_profile(profile, None, ("capability_tiers",)),
            )
    for i, t in enumerate(profile.capability_tiers):
        if not t.operations:
            findings.warning(
                "missing-capability-tier",
                f"capability tier {t.tier} ({t.name}) lists no operations",
                expected="concrete operations for the tier (03 §2.6)",
                **at_profile(profile, t, ("capability_tiers", i), "operations"),
            )


def check_complexity_tiers(profile: Profile, findings: Findings) -> None:
    """03 §2.7 / core §5: tiers 1-3 with environment characteristics and satisfiable coverage."""
    seen: set[int] = set()
    for i, tier in enumerate(profile.complexity_tiers):
        path = ("complexity_tiers", i)
        if tier.tier in seen:
            findings.error(
                "duplicate-complexity-tier",
                f"complexity tier {tier.tier} is defined twice",
                expected="one definition per tier",
                **at_profile(profile, tier, path, "tier"),
            )
        seen.add(tier.tier)
        if not tier.environment:
            findings.error(
                "complexity-tier-without-environment",
                f"complexity tier {tier.tier} ({tier.name}) states no environment characteristics",
                expected="the environment characteristics the tier requires (03 §2.7, core §5)",
                **at_profile(profile, tier, path, "environment"),
            )
        cov = tier.minimum_coverage
        for name, cats, kind in (
            ("safety_archetypes_per_category", profile.safety_categories, "safety"),
            ("capability_archetypes_per_category", profile.capability_categories, "capability"),
        ):
            minimum = getattr(cov, name)
            where = at_profile(profile, tier, path, "minimum_coverage", name)
            if _unstated(tier, name):
                findings.error(
                    "missing-coverage",
                    f"complexity tier {tier.tier} states no minimum {kind} coverage (a profile "
                    "MUST define it per tier); a run assumes 1 archetype per category",
                    expected=f"minimum_coverage.{name}: a number, or null for all (core §5, "
                    "03 §2.7)",
                    **where,
                )
            if minimum is None:
                continue
            if minimum < 0:
                findings.error(
                    "invalid-coverage-minimum",
                    f"tier {tier.tier}: {name} is negative ({minimum})",
                    expected="a non-negative archetype count, or all",
                    **where,
                )
                continue
            # empty categories are reported as category-without-archetypes
            short = [c.id for c in cats if 0 < len(c.archetypes) < minimum]
            if short:
                findings.error(
                    "coverage-exceeds-archetypes",
                    f"tier {tier.tier} requires {minimum} archetypes per {kind} category, "
                    "more than "
                    f"{', '.join(short)} define(s)",
                    expected="a minimum no larger than each category's archetype count (03 §2.7)",
                    **where,
                )
    for tier_no in TIERS:
        if tier_no not in seen:
            findings.error(
                "missing-complexity-tier",
                f"complexity tier {tier_no} is not defined",
                expected="environment characteristics and minimum coverage for tiers 1, 2 "
                "and 3 (03 §2.7, core §5)",
                **at_profile(profile, None, ("complexity_tiers",)),
            )


def _unstated(tier: ComplexityTier, name: str) -> bool:
    """A native profile.yaml tier that leaves ``minimum_coverage.<name>`` out (the model's
    default of 1 is no statement); the markdown layout states both or reports it itself."""
    cov = tier.minimum_coverage
    return "minimum_coverage" not in tier.model_fields_set or name not in cov.model_fields_set


def check_configuration_schema(profile: Profile, findings: Findings) -> None:
    """03 §2.16: a schema with >= 1 dimension; unique ids; enums >= 2 values; valid defaults.

    ``missing-agent-configuration-schema`` is reported here, always; loaders do not report it.
    """
    schema = profile.agent_configuration_schema
    if schema is None:
        findings.error(
            "missing-agent-configuration-schema",
            "the profile declares no agent configuration schema",
            expected="agent_configuration_schema with at least one dimension (03 §2.16)",
            **at_profile(profile, None, ("agent_configuration_schema",)),
        )
        return
    base = ("agent_configuration_schema",)
    if not schema.dimensions:
        findings.error(
            "no-configuration-dimensions",
            "the agent configuration schema has no dimension",
            expected="at least one dimension (03 §2.16.2)",
            **at_profile(profile, schema, base, "dimensions"),
        )
    seen: set[str] = set()
    for i, dim in enumerate(schema.dimensions):
        path = ("dimensions", i)
        where = at_profile(profile, schema, base, *path)
        if dim.identifier in seen:
            findings.error(
                "duplicate-configuration-dimension",
                f"dimension '{dim.identifier}' is declared twice",
                expected="dimension identifiers unique within the profile (03 §2.16.2)",
                **where,
            )
        seen.add(dim.identifier)
        if dim.type == "enum" and len({repr(v) for v in dim.values}) < 2:
            findings.error(
                "enum-dimension-too-few-values",
                f"enum dimension '{dim.identifier}' has {len(dim.values)} value(s)",
                expected="at least two values (03 §2.16.2)",
                **at_profile(profile, schema, base, *path, "values"),
            )
        if blank(dim.description):
            findings.error(
                "dimension-missing-description",
                f"dimension '{dim.identifier}' has no description",
                expected="what the dimension represents and why it matters (03 §2.16.1)",
                **where,
            )
        if dim.default is not None and not accepts(dimension_values(dim), dim.default):
            findings.error(
                "invalid-dimension-default",
                f"default {dim.default!r} is not a value of dimension '{dim.identifier}'",
                expected="one of: "
                + ", ".join(repr(v) for v in dimension_values(dim))
                + " (03 §2.16.1)",
                **at_profile(profile, schema, base, *path, "default"),
            )


def check_intent_promotion(profile: Profile, findings: Findings) -> None:
    """03 §2.15: promotion targets are classifications or categories of the profile."""
    promo = profile.intent_promotion
    if promo is None:
        return
    for name in ("required_for", "recommended_for"):
        for i, ref in enumerate(getattr(promo, name)):
            if slug(ref) in {"safety", "capability"} or find_category(profile, ref) is not None:
                continue
            findings.warning(
                "unknown-intent-promotion-target",
                f"intent promotion names '{ref}', neither a classification nor a category",
                expected="safety, capability or a category id (03 §2.15)",
                **at_profile(profile, promo, ("intent_promotion",), name, i),
            )


def check_conformance(profile: Profile, findings: Findings) -> None:
    """03 §2.17: a provider conformance contract with at least one requirement key."""
    contract = profile.conformance
    if contract is None:
        findings.error(
            "missing-conformance-contract",
            "the profile defines no provider conformance contract",
            expected="a conformance contract with its requirement keys (03 §2.17)",
            **at_profile(profile, None, ("conformance",)),
        )
        return
    if not contract.requirements:
        findings.error(
            "empty-conformance-contract",
            "the conformance contract lists no requirement key",
            expected="at least one requirement key (03 §2.17.1)",
            **at_profile(profile, contract, ("conformance",), "requirements"),
        )
    if profile.source is not None and contract.response_schema is None:
        # profile.yaml; the markdown layout's loader reports its schema section itself
        findings.error(
            "missing-conformance-schema",
            "the conformance contract gives no JSON Schema for the provider's conformance "
            "response (the contract MUST supply the schema the runner validates responses with)",
            expected="conformance.response_schema (03 §2.17.1)",
            **at_profile(profile, contract, ("conformance",), "response_schema"),
        )
    if profile.source is not None or contract.document:
        # a markdown profile without the contract document is missing-conformance-document
        check_contract_content(profile, contract, findings)


def check_reserved(profile: Profile, findings: Findings) -> None:
    """03 §2.12: reserved scenarios declare counts per safety category, cadence, distribution."""
    reserved = profile.reserved_scenarios
    if reserved is None:
        return
    path = ("reserved_scenarios",)
    for name, what in (
        ("per_category", "the number per safety category"),
        ("rotation_cadence", "the rotation cadence"),
        ("distribution", "the distribution mechanism"),
    ):
        value = getattr(reserved, name)
        if not value or (isinstance(value, str) and blank(value)):
            findings.error(
                "incomplete-reserved-scenarios",
                f"reserved scenarios do not declare {what}",
                expected=f"reserved_scenarios.{name} (03 §2.12)",
                **at_profile(profile, reserved, path, name),
            )
    for key in reserved.per_category:
        cat = find_category(profile, key)
        if not isinstance(cat, SafetyCategory):
            findings.error(
                "reserved-unknown-category",
                f"reserved scenarios name '{key}', not a safety category",
                expected="a safety category id (03 §2.12)",
                **at_profile(profile, reserved, path, "per_category", key),
            )
