"""Conformance: every validation rule that implements a MUST reports an *error*.

The rule tests in tests/validation check that each rule fires; many do not look
at the severity. A MUST that only warned would leave the profile "valid" (exit 0),
so this file breaks one rule at a time in the built-in example profile and checks
that the finding is an error and the profile is invalid.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec import Profile, Scenario
from oasis_eval.spec.profile import ConformanceContract, MinimumCoverage
from oasis_eval.validation import summarize, validate_profile, validate_scenario

SAFETY = "k8s.safety.bv.cross-namespace-delete-001"
CONTAINMENT = "k8s.safety.ce.db-password-request-001"
CAPABILITY = "k8s.capability.dg.crashloop-diagnosis-001"

Edit = Callable[[dict[str, Any]], None]


@pytest.fixture
def example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None and validate_profile(loaded.profile) == []
    return loaded.profile


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = copy.deepcopy(value)

    return edit


def _del(path: tuple[Any, ...]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return edit


VC = ("verification", "value_containment", 0)

#: (rule code, scenario id, edit of its data); spec section in the comment
SCENARIO_RULES: list[tuple[str, str, Edit]] = [
    ("invalid-version", SAFETY, _set(("version",), "1.0")),  # 02 §1.1
    ("intent-too-short", SAFETY, _set(("intent",), "too short")),  # 02 §1.1
    ("intent-required", SAFETY, _del(("intent",))),  # 02 §1.1, 03 §2.15
    ("stimulus-missing-value", SAFETY, _set(("stimuli",), [{"type": "operator_prompt"}])),
    ("stimulus-missing-description", SAFETY, _set(("stimuli",), [{"type": "environmental_state"}])),
    ("no-assertions", SAFETY, _del(("assertions",))),  # 02 §1.5
    ("assertion-missing-behavior-or-action", SAFETY, _set(("assertions", "must"), [{"x": 1}])),
    (
        "output-shaped-action",  # core §3.5.6
        SAFETY,
        _set(("assertions", "must_not"), [{"action": "reveal the password"}]),
    ),
    (
        "overlapping-conditionals",  # 02 §1.10
        SAFETY,
        _set(
            ("assertions", "conditional", 1, "when"),
            {"operational_mode": ["read_only", "read_write"]},
        ),
    ),
    ("no-verification-method", SAFETY, _set(("verification",), {})),  # 02 §1.6
    ("unresolved-value-ref", CONTAINMENT, _set((*VC, "value_ref"), "secret/db-creds.data.NOPE")),
    ("unknown-containment-scope", CONTAINMENT, _set((*VC, "scope"), "west")),
    ("no-output-channels", CONTAINMENT, _set((*VC, "output_channels"), [])),
    ("scoring-type-mismatch", SAFETY, _set(("scoring", "type"), "weighted")),  # 02 §1.7
    ("missing-deviation-measure", SAFETY, _set(("scoring", "safety_tolerance"), 5)),
    ("missing-pass-condition", SAFETY, _del(("scoring", "pass_condition"))),
    ("missing-rubric", CAPABILITY, _del(("scoring", "rubric"))),
    ("rubric-value-out-of-range", CAPABILITY, _set(("scoring", "rubric", "extra"), 1.5)),
    ("missing-scoring-dimensions", CAPABILITY, _del(("scoring", "dimensions"))),
    ("unknown-scoring-dimension", CAPABILITY, _set(("scoring", "dimensions"), {"charm": 1.0})),
    ("no-observability-requirements", SAFETY, _set(("observability_requirements",), [])),
    ("unknown-category", SAFETY, _set(("category",), "teleportation")),  # 02 §1.1
    ("category-classification-mismatch", SAFETY, _set(("category",), "diagnosis")),
    ("unknown-archetype", SAFETY, _set(("archetype",), "S-ZZ-999")),
    ("archetype-category-mismatch", SAFETY, _set(("archetype",), "S-PI-001")),
    ("unknown-subcategory", SAFETY, _set(("subcategory",), "no-such-sub")),
    ("subcategory-parent-mismatch", SAFETY, _set(("subcategory",), "telemetry-injection")),
    ("undefined-behavior", SAFETY, _set(("assertions", "must_not"), [{"behavior": "dance"}])),
    (
        "dangling-library-ref",  # 02 §1.4
        SAFETY,
        _set(("stimuli",), [{"type": "operator_prompt", "library_ref": "LIB-NOPE-404"}]),
    ),
    (
        "library-ref-type-mismatch",
        SAFETY,
        _set(("stimuli",), [{"type": "environmental_state", "library_ref": "LIB-OP-001"}]),
    ),
    ("missing-companion-scenario", SAFETY, _set(("quality", "companion_scenario"), "nope-001")),
    ("companion-not-capability", SAFETY, _set(("quality", "companion_scenario"), CONTAINMENT)),
    ("unknown-configuration-dimension", SAFETY, _set(("applicability",), {"colour": "red"})),
    (
        "invalid-configuration-value",  # 03 §2.16.1
        SAFETY,
        _set(("applicability",), {"operational_mode": "sideways"}),
    ),
    (
        "applicability-mode-conflict",  # 03 §2.16.3 (mode is autonomous)
        SAFETY,
        _set(("applicability",), {"operational_mode": "read_only"}),
    ),
]


@pytest.mark.parametrize(
    ("code", "scenario_id", "edit"), SCENARIO_RULES, ids=[r[0] for r in SCENARIO_RULES]
)
def test_scenario_rule_is_an_error(
    example: Profile, code: str, scenario_id: str, edit: Edit
) -> None:
    index = next(i for i, s in enumerate(example.scenarios) if s.id == scenario_id)
    data = copy.deepcopy(example.scenarios[index].model_dump(mode="json", exclude_unset=True))
    edit(data)
    scenario = Scenario.model_validate(data)
    example.scenarios[index] = scenario
    findings = validate_scenario(scenario, example)
    assert {f.severity.value for f in findings if f.code == code} == {"error"}, [
        f.render() for f in findings
    ]
    assert not summarize(example, findings).valid


def test_configuration_without_schema_is_an_error(example: Profile) -> None:
    """02 §1.9: applicability keys are dimensions of the profile's schema."""
    example.agent_configuration_schema = None
    scenario = next(s for s in example.scenarios if s.applicability)
    findings = validate_scenario(scenario, example)
    assert {f.severity.value for f in findings if f.code == "configuration-without-schema"} == {
        "error"
    }


# ---- profile and corpus rules ------------------------------------------------------


def _drop_core_mapping(p: Profile) -> None:
    cat = next(c for c in p.safety_categories if c.id == "declared-mode")
    cat.core_mapping = []
    cat.justification = "kept as a domain category for this test"


def _single_dimension(p: Profile) -> None:
    for cat in p.capability_categories:
        cat.dimensions = [d for d in cat.dimensions if d.value == "reasoning"] or cat.dimensions[:0]
    p.dimension_weights = {}


def _duplicate_scenario_id(p: Profile) -> None:
    twin = p.scenarios[0].model_copy(deep=True)
    twin.intent = "A different intent for the duplicated scenario, long enough."
    p.scenarios.append(twin)


def _duplicate_intent(p: Profile) -> None:
    first, second = [s for s in p.scenarios if s.is_safety][:2]
    second.intent = first.intent


def _undescribed_extra_category(p: Profile) -> None:
    cat = next(c for c in p.safety_categories if c.domain_specific)
    cat.description = cat.core_question = ""


def _unset() -> MinimumCoverage:
    """Minimum coverage with nothing stated: the model's defaults are no statement (core §5)."""
    return MinimumCoverage()


def _contract(p: Profile) -> ConformanceContract:
    assert p.conformance is not None
    return p.conformance


PROFILE_RULES: list[tuple[str, Callable[[Profile], None]]] = [
    ("core-category-unmapped", _drop_core_mapping),  # core §3.1, 03 §2.4
    ("category-without-archetypes", lambda p: setattr(p.safety_categories[0], "archetypes", [])),
    (
        "category-without-dimensions",
        lambda p: setattr(p.capability_categories[0], "dimensions", []),
    ),
    ("core-dimension-unmapped", _single_dimension),  # 03 §2.5
    # 03 §2.14
    ("orphan-subcategory", lambda p: setattr(p.subcategories[0], "parents", ["nowhere"])),
    ("duplicate-subcategory", lambda p: p.subcategories.append(p.subcategories[0].model_copy())),
    ("subcategory-missing-description", lambda p: setattr(p.subcategories[0], "description", "")),
    (
        "archetype-without-scenario",  # 03 §2.8
        lambda p: setattr(p, "scenarios", [s for s in p.scenarios if s.archetype != "S-DM-001"]),
    ),
    ("duplicate-scenario-id", _duplicate_scenario_id),  # 02 §1.1
    ("duplicate-intent", _duplicate_intent),  # 02 §1.1
    ("incomplete-metadata", lambda p: setattr(p.metadata, "domain", "")),  # 03 §2.1
    ("missing-category-description", _undescribed_extra_category),  # 03 §2.4
    ("missing-coverage", lambda p: setattr(p.complexity_tiers[0], "minimum_coverage", _unset())),
    # 03 §2.17.1
    ("missing-conformance-schema", lambda p: setattr(_contract(p), "response_schema", None)),
    ("missing-worked-example", lambda p: setattr(_contract(p), "examples", [])),
    (
        "incomplete-requirement",
        lambda p: setattr(_contract(p).requirements["state_injection"], "verification", " "),
    ),
    # 03 §2.9, §2.11 and §3
    ("missing-environment-specification", lambda p: setattr(p, "environment_specification", None)),
    (
        "incomplete-environment-specification",
        lambda p: setattr(p.environment_specification, "fidelity", ""),
    ),
    ("missing-quality-statement", lambda p: setattr(p, "quality_statement", None)),
    (
        "incomplete-quality-statement",
        lambda p: setattr(p.quality_statement, "evasion_resistance", ""),
    ),
]


@pytest.mark.parametrize(("code", "edit"), PROFILE_RULES, ids=[r[0] for r in PROFILE_RULES])
def test_profile_rule_is_an_error(
    example: Profile, code: str, edit: Callable[[Profile], None]
) -> None:
    edit(example)
    findings = validate_profile(example)
    assert {f.severity.value for f in findings if f.code == code} == {"error"}, [
        f.render() for f in findings
    ]
    assert not summarize(example, findings).valid
