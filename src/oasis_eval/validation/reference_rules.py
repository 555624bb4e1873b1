"""Scenario rules that need the profile (spec 02 §1, 03 §2.3, §2.10, §2.14-2.16, core §3.4).

Each rule checks that a name a scenario uses — category, archetype,
subcategory, behavior, library stimulus, companion scenario, tool, agent
configuration dimension — means something in the active profile.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Findings
from ..spec.common import Classification
from ..spec.profile import AgentConfigurationSchema, Profile
from ..spec.scenario import Scenario
from ._common import at_scenario, slug, where_scenario
from .configuration import AccessLevel, accepts, access_level, dimension_values, required_access
from .taxonomy import (
    Category,
    category_matches_ref,
    classification_of,
    find_category,
    parent_covers,
    resolve_categories,
)


def check_references(scenario: Scenario, profile: Profile, findings: Findings) -> None:
    """Every profile-dependent rule for one scenario."""
    categories = check_category(scenario, profile, findings)
    if categories:
        check_archetype(scenario, profile, categories, findings)
        check_subcategory(scenario, profile, categories, findings)
    check_behaviors(scenario, profile, findings)
    check_library_refs(scenario, profile, findings)
    check_companion(scenario, profile, findings)
    check_tools(scenario, profile, findings)
    check_configuration_keys(scenario, profile.agent_configuration_schema, findings)
    check_mode_consistency(scenario, findings)


def intent_required(scenario: Scenario, profile: Profile) -> bool:
    """Does the profile promote ``intent`` to required for this scenario (03 §2.15)?"""
    promo = profile.intent_promotion
    if promo is None or not promo.required_for:
        return False
    keys = {slug(scenario.classification.value), slug(scenario.category)}
    cat = find_category(profile, scenario.category)
    for ref in promo.required_for:
        if slug(ref) in keys or (cat is not None and category_matches_ref(cat, ref)):
            return True
    return False


# ---- 02 §1.1 category / archetype / subcategory ----------------------------
def check_category(scenario: Scenario, profile: Profile, findings: Findings) -> list[Category]:
    """The profile categories the scenario's category denotes, of the right classification."""
    resolved = resolve_categories(profile, scenario.category)
    kind = scenario.classification
    if not resolved:
        names = [
            c.id
            for c in (
                profile.safety_categories if scenario.is_safety else profile.capability_categories
            )
        ]
        findings.error(
            "unknown-category",
            f"category '{scenario.category}' is not defined by the profile",
            expected=f"a {kind.value} category: "
            + (", ".join(names) or "(profile defines none)")
            + " (02 §1.1)",
            **at_scenario(scenario, "category"),
        )
        return []
    right = [c for c in resolved if classification_of(c) is kind]
    if not right:
        other = classification_of(resolved[0]).value
        findings.error(
            "category-classification-mismatch",
            f"category '{scenario.category}' is a {other} category, the scenario {kind.value}",
            expected=f"a {kind.value} category (02 §1.1)",
            **at_scenario(scenario, "category"),
        )
    return right


def check_archetype(
    scenario: Scenario, profile: Profile, categories: list[Category], findings: Findings
) -> None:
    """The scenario's archetype must belong to its category (02 §1.1, 03 §2.8)."""
    if any(a.id == scenario.archetype for c in categories for a in c.archetypes):
        return
    owner = next(
        (c for c in profile.categories() for a in c.archetypes if a.id == scenario.archetype), None
    )
    expected = (
        ", ".join(a.id for c in categories for a in c.archetypes) or "(category defines none)"
    )
    if owner is None:
        findings.error(
            "unknown-archetype",
            f"archetype '{scenario.archetype}' is not defined by the profile",
            expected=f"an archetype of '{scenario.category}': {expected} (02 §1.1)",
            **at_scenario(scenario, "archetype"),
        )
    else:
        findings.error(
            "archetype-category-mismatch",
            f"archetype '{scenario.archetype}' belongs to category '{owner.id}', "
            f"not '{scenario.category}'",
            expected=f"an archetype of '{scenario.category}': {expected} (02 §1.1)",
            **at_scenario(scenario, "archetype"),
        )


def check_subcategory(
    scenario: Scenario, profile: Profile, categories: list[Category], findings: Findings
) -> None:
    """The scenario's subcategory must be defined under its category (03 §2.14)."""
    if scenario.subcategory is None:
        return
    key = slug(scenario.subcategory)
    subs = [s for s in profile.subcategories if s.id == scenario.subcategory or slug(s.id) == key]
    if not subs:
        findings.error(
            "unknown-subcategory",
            f"subcategory '{scenario.subcategory}' is not defined by the profile",
            expected="one of: "
            + (", ".join(sorted({s.id for s in profile.subcategories})) or "(none defined)")
            + " (02 §1.1, 03 §2.14)",
            **at_scenario(scenario, "subcategory"),
        )
        return
    if any(parent_covers(profile, p, cat) for s in subs for p in s.parents for cat in categories):
        return
    parents = sorted({p for s in subs for p in s.parents})
    findings.error(
        "subcategory-parent-mismatch",
        f"subcategory '{scenario.subcategory}' belongs to {', '.join(parents) or 'no category'}, "
        f"not to '{scenario.category}'",
        expected=f"a subcategory whose parents include '{scenario.category}' (02 §1.1)",
        **at_scenario(scenario, "subcategory"),
    )


# ---- 02 §1.5 / 03 §2.3 behaviors -------------------------------------------
def check_behaviors(scenario: Scenario, profile: Profile, findings: Findings) -> None:
    """Every asserted behaviour must be defined by the profile (02 §1.5, 03 §2.3)."""
    for path, entry in scenario.all_assertion_entries():
        if entry.behavior and profile.behavior(entry.behavior) is None:
            findings.error(
                "undefined-behavior",
                f"behavior '{entry.behavior}' has no definition in the profile",
                expected="a behavior of the profile's behavior definitions (02 §1.5, 03 §2.3)",
                **at_scenario(scenario, *path, "behavior"),
            )


# ---- 02 §1.4 / 03 §2.10 stimulus library -----------------------------------
def check_library_refs(scenario: Scenario, profile: Profile, findings: Findings) -> None:
    """Every ``library_ref`` stimulus must name a stimulus of the profile's library (03 §2.10)."""
    for i, stim in enumerate(scenario.stimuli):
        if stim.library_ref is None:
            continue
        entry = profile.library_stimulus(stim.library_ref)
        if entry is None:
            findings.error(
                "dangling-library-ref",
                f"library_ref '{stim.library_ref}' is not in the profile's stimulus library",
                expected="an id from the stimulus library (02 §1.4, 03 §2.10)",
                **at_scenario(scenario, "stimuli", i, "library_ref"),
            )
        elif entry.type != stim.type.value:
            findings.error(
                "library-ref-type-mismatch",
                f"library stimulus '{entry.id}' is a {entry.type} stimulus, "
                f"used as {stim.type.value}",
                expected=f"stimulus type {entry.type} (02 §1.4)",
                **at_scenario(scenario, "stimuli", i, "type"),
            )


# ---- 02 §1.2 / 03 §3.4 companion scenarios ---------------------------------
def check_companion(scenario: Scenario, profile: Profile, findings: Findings) -> None:
    """A declared companion scenario must exist and be a capability scenario (03 §3.4)."""
    ref = scenario.quality.companion_scenario if scenario.quality else None
    if not ref:
        return
    companion = profile.scenario(ref)
    if companion is None:
        findings.error(
            "missing-companion-scenario",
            f"companion_scenario '{ref}' is not a scenario of the profile",
            expected="the id of a capability scenario (02 §1.2, 03 §3.4)",
            **at_scenario(scenario, "quality", "companion_scenario"),
        )
    elif companion.classification is not Classification.capability:
        findings.error(
            "companion-not-capability",
            f"companion_scenario '{ref}' ({where_scenario(companion)}) is a "
            f"{companion.classification.value} scenario",
            expected="the id of a capability scenario (02 §1.2, 03 §3.4)",
            **at_scenario(scenario, "quality", "companion_scenario"),
        )


# ---- 02 §1.3 tools ---------------------------------------------------------
def check_tools(scenario: Scenario, profile: Profile, findings: Findings) -> None:
    """Tools the agent is given should be interface types of the profile (02 §1.3, 03 §2.9); a warning."""
    known = {t.identifier for t in profile.interface_types}
    if not known:
        return
    for i, tool in enumerate(scenario.preconditions.agent.tools):
        if tool not in known:
            findings.warning(
                "unknown-tool",
                f"tool '{tool}' is not an interface type of the profile",
                expected="one of: " + ", ".join(sorted(known)),
                **at_scenario(scenario, "preconditions", "agent", "tools", i),
            )


# ---- 02 §1.9-1.10, 03 §2.16 agent configuration ----------------------------
def _conditions(scenario: Scenario) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    out: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    if scenario.applicability:
        out.append((("applicability",), scenario.applicability))
    if scenario.assertions is not None:
        for i, cond in enumerate(scenario.assertions.conditional):
            out.append((("assertions", "conditional", i, "when"), cond.when))
    return out


def check_configuration_keys(
    scenario: Scenario, schema: AgentConfigurationSchema | None, findings: Findings
) -> None:
    """applicability / conditional ``when`` keys are schema dimensions with valid values."""
    conditions = _conditions(scenario)
    if not conditions:
        return
    if schema is None:
        path, _ = conditions[0]
        findings.error(
            "configuration-without-schema",
            "the scenario conditions on agent configuration but the profile declares no agent "
            "configuration schema",
            expected="an agent configuration schema in the profile (02 §1.9, 03 §2.16)",
            **at_scenario(scenario, *path),
        )
        return
    for path, cond in conditions:
        for key, wanted in cond.items():
            dim = schema.dimension(key)
            if dim is None:
                findings.error(
                    "unknown-configuration-dimension",
                    f"'{key}' is not a dimension of the agent configuration schema",
                    expected="one of: "
                    + (", ".join(d.identifier for d in schema.dimensions) or "(none)")
                    + " (02 §1.9)",
                    **at_scenario(scenario, *path, key),
                )
                continue
            valid = dimension_values(dim)
            bad = [
                v
                for v in (wanted if isinstance(wanted, list) else [wanted])
                if not accepts(valid, v)
            ]
            if bad or wanted == []:
                shown = ", ".join(repr(v) for v in bad) or "an empty list"
                findings.error(
                    "invalid-configuration-value",
                    f"{shown} is not a valid value of dimension '{key}'",
                    expected="one of: " + ", ".join(repr(v) for v in valid) + " (03 §2.16.1)",
                    **at_scenario(scenario, *path, key),
                )


def check_mode_consistency(scenario: Scenario, findings: Findings) -> None:
    """03 §2.16.3: applicability and preconditions.agent.mode must agree on read-only vs writing."""
    if not scenario.applicability:
        return
    mode = scenario.preconditions.agent.mode
    level = access_level(mode)
    if level is AccessLevel.unknown:
        return
    for key, wanted in scenario.applicability.items():
        needs = required_access(wanted)
        if needs is AccessLevel.unknown or needs is level:
            continue
        what = "a read-only" if needs is AccessLevel.read_only else "a writing (read-write)"
        findings.error(
            "applicability-mode-conflict",
            f"applicability {key}={wanted!r} requires {what} agent, but preconditions.agent.mode "
            f"'{mode}' {'writes' if level is AccessLevel.read_write else 'is read-only'}",
            expected="a preconditions.agent.mode consistent with applicability (03 §2.16.3)",
            **at_scenario(scenario, "applicability", key),
        )
