"""Profile taxonomy rules: categories, archetypes, subcategories, weights.

Spec sections: 03 §2.4, §2.5, §2.14; core §3.1, §4.

Categories and archetypes are what scenarios point at; these rules make sure
the targets are well formed: the five core safety categories and four core
dimensions are all covered, identifiers are unambiguous, domain-specific
categories are justified, and aggregation weights point at things that exist.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..diagnostics import Findings
from ..spec.common import CoreDimension, CoreSafetyCategory
from ..spec.profile import CapabilityCategory, Profile
from ._common import WEIGHT_EPSILON, at_profile, blank
from .taxonomy import find_category, parent_resolves


def check_categories(profile: Profile, findings: Findings) -> None:
    """Every category rule of 03 §2.4-§2.5, §2.14 and core §4.3 on ``profile``."""
    check_identifiers(profile, findings)
    check_safety_categories(profile, findings)
    check_capability_categories(profile, findings)
    check_dimension_weights(profile, findings)
    check_subcategories(profile, findings)


def _category_paths(profile: Profile) -> list[tuple[tuple[Any, ...], Any]]:
    return [
        *((("safety_categories", i), c) for i, c in enumerate(profile.safety_categories)),
        *((("capability_categories", i), c) for i, c in enumerate(profile.capability_categories)),
    ]


def check_identifiers(profile: Profile, findings: Findings) -> None:
    """Category and archetype ids must be unique across the profile, or references are ambiguous."""
    seen_cat: dict[str, str] = {}
    seen_arch: dict[str, str] = {}
    for path, cat in _category_paths(profile):
        if cat.id in seen_cat:
            findings.error(
                "duplicate-category",
                f"category id '{cat.id}' is also used by {seen_cat[cat.id]}",
                expected="category ids unique within the profile",
                **at_profile(profile, cat, path, "id"),
            )
        seen_cat.setdefault(cat.id, f"category '{cat.name}'")
        for a, arch in enumerate(cat.archetypes):
            if arch.id in seen_arch:
                findings.error(
                    "duplicate-archetype",
                    f"archetype id '{arch.id}' is also defined in {seen_arch[arch.id]}",
                    expected="archetype ids unique within the profile",
                    **at_profile(profile, arch, (*path, "archetypes", a), "id"),
                )
            seen_arch.setdefault(arch.id, f"category '{cat.id}'")


def check_safety_categories(profile: Profile, findings: Findings) -> None:
    """03 §2.4 / core §3.1: each core category mapped with an archetype; extras justified."""
    covered: set[CoreSafetyCategory] = set()
    for c, cat in enumerate(profile.safety_categories):
        path = ("safety_categories", c)
        if cat.archetypes:
            covered.update(cat.core_mapping)
        else:
            findings.error(
                "category-without-archetypes",
                f"safety category '{cat.id}' defines no archetype",
                expected="at least one archetype per category (03 §2.4)",
                **at_profile(profile, cat, path),
            )
        if cat.domain_specific and blank(cat.justification):
            findings.error(
                "missing-justification",
                f"domain-specific safety category '{cat.id}' does not say why the core categories "
                "do not cover it",
                expected="a justification for the additional category (03 §2.4)",
                **at_profile(profile, cat, path),
            )
        if cat.domain_specific and blank(cat.description) and blank(cat.core_question):
            findings.error(
                "missing-category-description",
                f"domain-specific safety category '{cat.id}' has no description",
                expected="a category description (03 §2.4)",
                **at_profile(profile, cat, path),
            )
    for core in CoreSafetyCategory:
        if core not in covered:
            findings.error(
                "core-category-unmapped",
                f"no safety category with archetypes maps the core category '{core.value}'",
                expected="at least one safety category and archetype for each of the five core "
                "safety categories (core §3.1, 03 §2.4)",
                **at_profile(profile, None, ("safety_categories",)),
            )


def check_capability_categories(profile: Profile, findings: Findings) -> None:
    """03 §2.5 / core §4.2-4.3: dimensions declared, each core dimension covered, weights valid."""
    covered: set[CoreDimension] = set()
    for c, cat in enumerate(profile.capability_categories):
        path = ("capability_categories", c)
        covered.update(cat.dimensions)
        if not cat.dimensions:
            findings.error(
                "category-without-dimensions",
                f"capability category '{cat.id}' maps to no core dimension",
                expected="one or more of: "
                + ", ".join(d.value for d in CoreDimension)
                + " (03 §2.5)",
                **at_profile(profile, cat, path, "dimensions"),
            )
        if not cat.archetypes:
            findings.error(
                "category-without-archetypes",
                f"capability category '{cat.id}' defines no archetype",
                expected="at least one archetype per category (03 §2.5)",
                **at_profile(profile, cat, path),
            )
        own = {a.id for a in cat.archetypes}
        for arch_id in cat.aggregation.weights:
            if arch_id not in own:
                findings.error(
                    "aggregation-weight-unknown-archetype",
                    f"aggregation weight for '{arch_id}', which is not an archetype of '{cat.id}'",
                    expected="weights keyed by the category's own archetypes: "
                    + (", ".join(sorted(own)) or "(none)"),
                    **at_profile(profile, cat, path, "aggregation", "weights", arch_id),
                )
    for dim in CoreDimension:
        if dim not in covered:
            findings.error(
                "core-dimension-unmapped",
                f"no capability category maps to the core dimension '{dim.value}'",
                expected="at least one category per core dimension (03 §2.5)",
                **at_profile(profile, None, ("capability_categories",)),
            )


def check_dimension_weights(profile: Profile, findings: Findings) -> None:
    """core §4.3: a core dimension's contributions name capability categories and sum to 1.0."""
    for dim, contributions in profile.dimension_weights.items():
        key = dim.value  # keys are validated CoreDimension members
        path = ("dimension_weights", key)
        for i, contrib in enumerate(contributions):
            cat = find_category(profile, contrib.category)
            if not isinstance(cat, CapabilityCategory):
                findings.error(
                    "dimension-weight-unknown-category",
                    f"'{key}' weight names '{contrib.category}', not a capability category",
                    expected="a capability category id",
                    **at_profile(profile, None, (*path, i, "category")),
                )
            elif dim not in cat.dimensions:
                findings.warning(
                    "dimension-weight-unmapped-category",
                    f"category '{cat.id}' contributes to '{key}' but does not declare it",
                    expected=f"'{key}' among the dimensions of '{cat.id}' (03 §2.5)",
                    **at_profile(profile, None, (*path, i, "category")),
                )
        total = sum(c.weight for c in contributions)
        if contributions and abs(total - 1.0) > WEIGHT_EPSILON:
            findings.warning(
                "dimension-weights-sum",
                f"the category weights of dimension '{key}' sum to {total:g}, not 1.0",
                expected="weights summing to 1.0 (core §4.3)",
                **at_profile(profile, None, path),
            )


def check_subcategories(profile: Profile, findings: Findings) -> None:
    """03 §2.14: parents exist, ids unique within each parent, description present."""
    seen: dict[str, dict[str, int]] = defaultdict(dict)  # parent slug key -> id -> index
    for i, sub in enumerate(profile.subcategories):
        path = ("subcategories", i)
        orphans = [p for p in sub.parents if not parent_resolves(profile, p)]
        if not sub.parents or orphans:
            shown = ", ".join(f"'{p}'" for p in orphans) if orphans else "no parent"
            findings.error(
                "orphan-subcategory",
                f"subcategory '{sub.id}' names {shown}, which is not a category of the profile",
                expected="parent categories that exist (03 §2.14)",
                **at_profile(profile, sub, path, "parents"),
            )
        if blank(sub.description):
            findings.error(
                "subcategory-missing-description",
                f"subcategory '{sub.id}' has no description",
                expected="a description of the property the subcategory isolates (03 §2.14)",
                **at_profile(profile, sub, path),
            )
        for parent in sub.parents:
            cat = find_category(profile, parent)
            key = cat.id if cat is not None else parent
            first = seen[key].get(sub.id)
            if first is not None and first != i:
                findings.error(
                    "duplicate-subcategory",
                    f"subcategory '{sub.id}' is defined twice under '{key}' "
                    f"(first: subcategories[{first}])",
                    expected="subcategory ids unique within their parent (03 §2.14)",
                    **at_profile(profile, sub, path, "id"),
                )
            elif first is None:
                seen[key][sub.id] = i
