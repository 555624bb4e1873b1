"""Rules over the profile's set of scenarios (02 §1.1, 03 §2.8, §3.4).

Uniqueness of ids and intents, one scenario per archetype, and the negative
testing ratio: each needs every scenario of the profile at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..diagnostics import Findings
from ..spec.common import Classification
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ._common import at_profile, at_scenario, where_scenario
from .taxonomy import Category


def _intent_key(intent: str) -> str:
    """Intents compare after whitespace normalisation (YAML folding adds trailing newlines)."""
    return re.sub(r"\s+", " ", intent).strip()


def check_unique(
    scenarios: Iterable[Scenario], findings: Findings, earlier: Iterable[Scenario] = ()
) -> None:
    """Duplicate ids and duplicate intents; the later one is reported, naming the first.

    ``earlier`` are scenarios already accepted (the profile's own, when a single
    outside scenario is validated against it); they are not checked themselves.
    """
    seen_ids: dict[str, Scenario] = {}
    seen_intents: dict[str, Scenario] = {}
    for s in earlier:
        seen_ids.setdefault(s.id, s)
        if s.intent and s.intent.strip():
            seen_intents.setdefault(_intent_key(s.intent), s)
    for s in scenarios:
        first = seen_ids.get(s.id)
        if first is not None and first is not s:
            findings.error(
                "duplicate-scenario-id",
                f"scenario id '{s.id}' is already used at {where_scenario(first)}",
                expected="an id unique within the profile (02 §1.1)",
                **at_scenario(s, "id"),
            )
        else:
            seen_ids[s.id] = s
        if not s.intent or not s.intent.strip():
            continue
        key = _intent_key(s.intent)
        first = seen_intents.get(key)
        if first is not None and first is not s:
            findings.error(
                "duplicate-intent",
                f"intent is identical to that of '{first.id}' ({where_scenario(first)})",
                expected="an intent unique within the profile (02 §1.1)",
                **at_scenario(s, "intent"),
            )
        else:
            seen_intents[key] = s


def check_archetype_coverage(profile: Profile, findings: Findings) -> None:
    """03 §2.8: at least one scenario per archetype in every category."""
    used = {(s.classification, s.archetype) for s in profile.scenarios}
    groups: tuple[tuple[str, Sequence[Category], Classification], ...] = (
        ("safety_categories", profile.safety_categories, Classification.safety),
        ("capability_categories", profile.capability_categories, Classification.capability),
    )
    for field, cats, kind in groups:
        for c, cat in enumerate(cats):
            for a, arch in enumerate(cat.archetypes):
                if (kind, arch.id) not in used:
                    findings.error(
                        "archetype-without-scenario",
                        f"archetype '{arch.id}' ({arch.name}) of category '{cat.id}' "
                        "has no scenario",
                        expected=f"a {kind.value} scenario with archetype '{arch.id}' (03 §2.8)",
                        **at_profile(profile, arch, (field, c, "archetypes", a)),
                    )


def check_negative_testing(profile: Profile, findings: Findings) -> None:
    """03 §3.4: every safety archetype has a capability companion, named by one of its
    scenarios (``companion_scenario``) or by the quality statement's mapping table.

    A warning, not an error: the mapping may justify a missing companion (a row naming
    no capability scenario or archetype counts as that justification).
    """
    stated = _stated_companions(profile)
    for c, cat in enumerate(profile.safety_categories):
        for a, arch in enumerate(cat.archetypes):
            scenarios = [s for s in profile.scenarios if s.is_safety and s.archetype == arch.id]
            if not scenarios:
                continue  # archetype-without-scenario already says so
            if any(_has_capability_companion(s, profile) for s in scenarios):
                continue
            if stated.get(arch.id) or stated.get(arch.name.lower()):
                continue
            findings.warning(
                "negative-testing-gap",
                f"no scenario of safety archetype '{arch.id}' ({arch.name}) names a capability "
                "companion_scenario; unless the profile quality statement justifies the gap, "
                "add the capability scenario testing the legitimate version of the refused action",
                expected="quality.companion_scenario pointing to a capability scenario (03 §3.4)",
                **at_profile(profile, arch, ("safety_categories", c, "archetypes", a)),
            )


def _stated_companions(profile: Profile) -> dict[str, bool]:
    """Safety archetype (id, or lower-case name) -> whether the 03 §3.4 mapping table gives
    it a capability companion that exists, or justifies having none."""
    capability_archetypes = {s.archetype for s in profile.scenarios if not s.is_safety}
    out: dict[str, bool] = {}
    for pair in profile.negative_testing:
        key = pair.safety_archetype
        named = pair.companion_scenarios or pair.companion_archetypes
        ok = any(
            (sc := profile.scenario(ref)) is not None
            and sc.classification is Classification.capability
            for ref in pair.companion_scenarios
        ) or any(ref in capability_archetypes for ref in pair.companion_archetypes)
        justified = not named and bool(pair.companion_text.strip(" -—–"))
        out[key] = out.get(key, False) or ok or justified
        out[key.lower()] = out[key]
    return out


def _has_capability_companion(scenario: Scenario, profile: Profile) -> bool:
    ref = scenario.quality.companion_scenario if scenario.quality else None
    companion = profile.scenario(ref) if ref else None
    return companion is not None and companion.classification is Classification.capability
