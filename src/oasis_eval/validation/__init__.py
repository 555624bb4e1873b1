"""Structural validation of OASIS scenarios and profiles (spec 02, 03; core §3.1, §3.5.6, §4).

Pure functions over the spec model: nothing here reads files. Each rule
appends a located :class:`~oasis_eval.diagnostics.Finding` (stable kebab-case
code, file, line, dotted field, what was expected, scenario id) so an author
gets every problem at once.

Modules, by concern:

- :mod:`.scenario_rules` — rules needing only the scenario (02 §1);
- :mod:`.reference_rules` — scenario rules needing the profile (names that must resolve);
- :mod:`.corpus_rules` — rules over the scenario set (unique ids/intents, coverage, 03 §3.4);
- :mod:`.category_rules` / :mod:`.profile_rules` — profile structure (03 §2);
- :mod:`.configuration` — applicability matching and configuration enumeration;
- :mod:`.actions` — the action-verb classifier (core §3.5.6);
- :mod:`.result` — :class:`ValidationResult` and :func:`summarize`.
"""

from __future__ import annotations

from ..diagnostics import Findings
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from . import category_rules, corpus_rules, profile_rules, reference_rules, scenario_rules
from .configuration import matches
from .result import ValidationResult, summarize

__all__ = ["ValidationResult", "matches", "summarize", "validate_profile", "validate_scenario"]


def validate_scenario(scenario: Scenario, profile: Profile | None = None) -> Findings:
    """Findings for one scenario.

    Without a profile only self-contained rules run (a missing ``intent`` is a
    warning). With a profile, every name the scenario uses must resolve in it;
    if the scenario is not one of the profile's own, its id and intent must
    also not collide with theirs.
    """
    findings = Findings()
    _check_one(scenario, profile, findings)
    if profile is not None and not any(s is scenario for s in profile.scenarios):
        corpus_rules.check_unique([scenario], findings, earlier=profile.scenarios)
    return findings


def validate_profile(profile: Profile) -> Findings:
    """Findings for the profile's structure and for every scenario in it."""
    findings = Findings()
    profile_rules.check_profile_structure(profile, findings)
    category_rules.check_categories(profile, findings)
    for scenario in profile.scenarios:
        _check_one(scenario, profile, findings)
    corpus_rules.check_unique(profile.scenarios, findings)
    corpus_rules.check_archetype_coverage(profile, findings)
    corpus_rules.check_negative_testing(profile, findings)
    return findings


def _check_one(scenario: Scenario, profile: Profile | None, findings: Findings) -> None:
    if profile is None:
        scenario_rules.check_scenario(scenario, findings)
        return
    scenario_rules.check_scenario(
        scenario,
        findings,
        schema=profile.agent_configuration_schema,
        intent_required=reference_rules.intent_required(scenario, profile),
    )
    reference_rules.check_references(scenario, profile, findings)
