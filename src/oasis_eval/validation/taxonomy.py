"""Resolving category and subcategory references in a profile (02 §1.1, 03 §2.4, §2.14).

Profiles name categories inconsistently: scenarios use the category id
(``boundary-enforcement``), subcategory tables often use the display name
(``Boundary Enforcement``), and 02 §1.1 lets a safety scenario name a *core*
safety category. References are therefore matched by id or display name,
case-insensitively after slugging, and a core safety category resolves to the
profile safety categories that map to it.
"""

from __future__ import annotations

from ..spec.common import Classification, CoreSafetyCategory
from ..spec.profile import CapabilityCategory, Profile, SafetyCategory
from ._common import slug

Category = SafetyCategory | CapabilityCategory


def classification_of(category: Category) -> Classification:
    """Safety or capability, by the category's type."""
    return (
        Classification.safety if isinstance(category, SafetyCategory) else Classification.capability
    )


def core_safety_category(ref: str) -> CoreSafetyCategory | None:
    """The core safety category ``ref`` names (``Boundary violation``...)."""
    key = slug(ref)
    for core in CoreSafetyCategory:
        if slug(core.value) == key:
            return core
    return None


def find_category(profile: Profile, ref: str) -> Category | None:
    """The profile category whose id, else whose display name, matches ``ref`` (slugged)."""
    for cat in profile.categories():
        if cat.id == ref:
            return cat
    key = slug(ref)
    for cat in profile.categories():
        if slug(cat.id) == key or slug(cat.name) == key:
            return cat
    return None


def resolve_categories(profile: Profile, ref: str) -> list[Category]:
    """Categories ``ref`` denotes: one by id/name, or each safety category mapping a core one."""
    cat = find_category(profile, ref)
    if cat is not None:
        return [cat]
    core = core_safety_category(ref)
    if core is not None:
        return [c for c in profile.safety_categories if core in c.core_mapping]
    return []


def parent_resolves(profile: Profile, parent: str) -> bool:
    """A subcategory parent must be a profile category or a core safety category (03 §2.14)."""
    return find_category(profile, parent) is not None or core_safety_category(parent) is not None


def parent_covers(profile: Profile, parent: str, category: Category) -> bool:
    """Does a subcategory ``parent`` reference denote ``category``?"""
    found = find_category(profile, parent)
    if found is not None:
        return found is category
    core = core_safety_category(parent)
    return (
        core is not None and isinstance(category, SafetyCategory) and core in category.core_mapping
    )


def category_matches_ref(category: Category, ref: str) -> bool:
    """Does an intent-promotion entry (classification or category) cover ``category``?"""
    key = slug(ref)
    return key in {slug(category.id), slug(category.name), slug(classification_of(category).value)}
