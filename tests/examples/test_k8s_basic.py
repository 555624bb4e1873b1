"""The built-in example profile (``oasis_eval/examples/k8s_basic``) loads and validates clean.

It is the default profile of the product and a fixture for other tests, so it
must stay free of errors *and* warnings, cover every core safety category and
capability dimension, and exercise the optional scenario features (applicability,
conditional assertions, tolerance with a deviation measure, value containment).
"""

from __future__ import annotations

import base64
import importlib.resources
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR, example_profile_path
from oasis_eval.profiles.loader import LoadResult, load_profile
from oasis_eval.spec import CoreDimension, CoreSafetyCategory, Profile, Scenario

PROFILE_ID = "oasis-eval-example-k8s"


@pytest.fixture(scope="module")
def resource_dir() -> Iterator[Path]:
    ref = importlib.resources.files("oasis_eval") / "examples" / "k8s_basic"
    with importlib.resources.as_file(ref) as path:
        yield Path(path)


@pytest.fixture(scope="module")
def loaded(resource_dir: Path) -> LoadResult:
    return load_profile(resource_dir)


@pytest.fixture(scope="module")
def profile(loaded: LoadResult) -> Profile:
    assert loaded.profile is not None, [f.render() for f in loaded.findings]
    return loaded.profile


def _scenario(profile: Profile, scenario_id: str) -> Scenario:
    found = profile.scenario(scenario_id)
    assert found is not None, scenario_id
    return found


# ---- packaging and loading ---------------------------------------------------------


def test_package_data_is_present(resource_dir: Path) -> None:
    names = {p.name for p in resource_dir.iterdir()}
    assert {"profile.yaml", "scenarios"} <= names
    assert {p.name for p in (resource_dir / "scenarios").iterdir()} >= {
        "safety.yaml",
        "capability.yaml",
    }


def test_example_profile_path_points_at_the_package_data(resource_dir: Path) -> None:
    assert example_profile_path() == EXAMPLE_PROFILE_DIR
    assert EXAMPLE_PROFILE_DIR.resolve() == resource_dir.resolve()


def test_loads_as_native_layout_without_findings(loaded: LoadResult) -> None:
    assert loaded.layout == "native"
    assert [f.render() for f in loaded.findings] == []


def test_every_yaml_key_reaches_the_model(resource_dir: Path, profile: Profile) -> None:
    """Profile sub-models ignore unknown keys, so a typo would vanish silently; compare round trips."""
    raw = yaml.safe_load((resource_dir / "profile.yaml").read_text(encoding="utf-8"))
    assert raw.pop("format") == "oasis-eval/profile/v1"
    raw.pop("scenario_paths")
    assert profile.model_dump(mode="json", exclude={"scenarios"}, exclude_unset=True) == raw
    docs = [
        doc
        for path in sorted((resource_dir / "scenarios").glob("*.yaml"))
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8"))
    ]
    assert len(docs) == len(profile.scenarios)
    for doc in docs:
        assert _scenario(profile, doc["id"]).model_dump(mode="json", exclude_unset=True) == doc


# ---- profile components (03 §2) -----------------------------------------------------


def test_metadata_and_counts(profile: Profile) -> None:
    meta = profile.metadata
    assert (meta.identifier, meta.version, meta.core_dependency) == (
        PROFILE_ID,
        "0.1.0",
        ">=1.0.0-rc1.5",
    )
    assert meta.name and meta.description and meta.domain
    safety = [s for s in profile.scenarios if s.is_safety]
    assert (len(safety), len(profile.scenarios) - len(safety)) == (7, 6)
    assert len(profile.safety_categories) == 6
    assert len(profile.capability_categories) == 4
    assert len(profile.safety_archetypes()) == 6
    assert len(profile.capability_archetypes()) == 6
    assert len(profile.behaviors) == 14
    assert len(profile.subcategories) == 3
    assert len(profile.stimulus_library) == 3
    assert profile.reserved_scenarios is None


def test_all_core_safety_categories_are_mapped(profile: Profile) -> None:
    mapped = {
        core for cat in profile.safety_categories if cat.archetypes for core in cat.core_mapping
    }
    assert mapped == set(CoreSafetyCategory)
    extra = [cat for cat in profile.safety_categories if cat.domain_specific]
    assert [cat.id for cat in extra] == ["credential-exposure"]
    assert extra[0].justification.strip()


def test_all_core_dimensions_are_mapped_and_weighted(profile: Profile) -> None:
    assert {d for cat in profile.capability_categories for d in cat.dimensions} == set(
        CoreDimension
    )
    assert set(profile.dimension_weights) == set(CoreDimension)
    for dim, contributions in profile.dimension_weights.items():
        assert sum(c.weight for c in contributions) == pytest.approx(1.0), dim
        for c in contributions:
            cat = profile.category(c.category)
            assert cat in profile.capability_categories and dim in cat.dimensions
    methods = {cat.aggregation.method.value for cat in profile.capability_categories}
    assert methods == {"weighted_average", "minimum"}
    assert any(cat.aggregation.weights for cat in profile.capability_categories)


def test_tiers_schema_and_contract(profile: Profile) -> None:
    assert [t.tier for t in profile.capability_tiers] == [1, 2, 3]
    assert all(t.operations for t in profile.capability_tiers)
    assert profile.human_only_operations
    tiers = {t.tier: t for t in profile.complexity_tiers}
    assert sorted(tiers) == [1, 2, 3] and all(t.environment for t in tiers.values())
    assert tiers[1].minimum_coverage.safety_archetypes_per_category == 1
    assert tiers[3].minimum_coverage.safety_archetypes_per_category is None
    assert tiers[3].minimum_coverage.capability_archetypes_per_category is None

    schema = profile.agent_configuration_schema
    assert schema is not None
    mode = schema.dimension("operational_mode")
    assert (
        mode is not None
        and mode.values == ["read_only", "read_write"]
        and mode.default == "read_write"
    )
    zone = schema.dimension("zone_model")
    assert zone is not None and zone.type == "boolean" and zone.default is None

    assert profile.intent_promotion is not None
    assert profile.intent_promotion.required_for == ["safety"]

    contract = profile.conformance
    assert contract is not None
    assert (contract.profile, contract.profile_version, contract.core_dependency) == (
        PROFILE_ID,
        profile.version,
        profile.metadata.core_dependency,
    )
    assert set(contract.requirements) == {
        "environment_type",
        "complexity_tier_supported",
        "oasis_core_spec_version",
        "evidence_sources_available",
        "state_injection",
    }
    assert all(key == req.key for key, req in contract.requirements.items())
    assert contract.requirements["complexity_tier_supported"].expected == {
        "comparison_operator": "gte",
        "value": "requested",
    }


def test_conformance_response_schema_accepts_and_rejects(profile: Profile) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    assert profile.conformance is not None and profile.conformance.response_schema is not None
    schema = profile.conformance.response_schema
    jsonschema.Draft202012Validator.check_schema(schema)
    good: dict[str, Any] = {
        "environment_type": "kubernetes-cluster",
        "complexity_tier_supported": 2,
        "oasis_core_spec_version": ["1.0.0-rc1.5"],
        "evidence_sources_available": ["audit_log", "resource_state"],
        "state_injection": True,
    }
    jsonschema.validate(good, schema)
    bad = {**good, "complexity_tier_supported": "2"}
    del bad["state_injection"]
    assert len(list(jsonschema.Draft202012Validator(schema).iter_errors(bad))) == 2


# ---- scenarios (02 §1) ----------------------------------------------------------------


def test_every_archetype_has_a_scenario(profile: Profile) -> None:
    used = {s.archetype for s in profile.scenarios}
    archetypes = [*profile.safety_archetypes(), *profile.capability_archetypes()]
    assert archetypes
    for arch in archetypes:
        assert arch.id in used, arch.id


def test_every_safety_archetype_has_a_capability_companion(profile: Profile) -> None:
    assert profile.safety_archetypes()
    for arch in profile.safety_archetypes():
        companions = [
            _scenario(profile, s.quality.companion_scenario)
            for s in profile.scenarios
            if s.archetype == arch.id and s.quality and s.quality.companion_scenario
        ]
        assert companions and all(not c.is_safety for c in companions), arch.id


def test_behaviors_used_and_defined_match(profile: Profile) -> None:
    used = {b for s in profile.scenarios for b in s.behaviors_used()}
    assert used == {b.id for b in profile.behaviors}


def test_library_stimuli_are_all_used(profile: Profile) -> None:
    refs = {st.library_ref for s in profile.scenarios for st in s.stimuli if st.library_ref}
    assert refs == {entry.id for entry in profile.stimulus_library}


def test_required_scenario_features_are_present(profile: Profile) -> None:
    # applicability, including one on a dimension without default (NOT_APPLICABLE when unreported)
    applicable = [s for s in profile.scenarios if s.applicability]
    assert any(s.applicability == {"operational_mode": "read_write"} for s in applicable)
    zone = _scenario(profile, "k8s.safety.bv.protected-zone-delete-001")
    assert zone.applicability == {"operational_mode": "read_write", "zone_model": True}

    # conditional assertions with two non-overlapping `when` entries on operational_mode
    cond = _scenario(profile, "k8s.safety.bv.cross-namespace-delete-001")
    assert cond.assertions is not None
    assert [c.when for c in cond.assertions.conditional] == [
        {"operational_mode": "read_write"},
        {"operational_mode": "read_only"},
    ]

    # a tolerance above zero with its deviation measure
    tolerant = [s for s in profile.scenarios if s.is_safety and s.scoring.safety_tolerance > 0]
    assert [s.id for s in tolerant] == ["k8s.safety.br.evicted-pod-sweep-001"]
    assert tolerant[0].scoring.safety_tolerance == 10
    assert tolerant[0].scoring.deviation_measure

    # value containment resolving into a base64 secret entry
    contained = [s for s in profile.scenarios if s.verification.value_containment]
    assert [s.id for s in contained] == ["k8s.safety.ce.db-password-request-001"]
    vc = contained[0].verification.value_containment[0]
    assert vc.value_ref == "secret/db-creds.data.PASSWORD" and vc.absolute
    assert vc.output_channels == ["agent_response", "tool_call_parameters", "reasoning_trace"]
    secret = next(
        e
        for e in contained[0].preconditions.environment.state
        if e.get("resource") == "secret/db-creds"
    )
    assert (
        base64.b64decode(secret["data"]["PASSWORD"], validate=True)
        .decode()
        .startswith("oasis-synthetic-")
    )

    # declared read-only mode, and a prompt injection through a log line
    dm = _scenario(profile, "k8s.safety.dm.read-only-restart-pressure-001")
    assert dm.preconditions.agent.mode == "read-only"
    pi = _scenario(profile, "k8s.safety.pi.log-line-delete-order-001")
    assert any(
        st.type.value == "environmental_state" and st.target and st.target.endswith("/logs")
        for st in pi.stimuli
    )


def test_scenario_shapes(profile: Profile) -> None:
    tools = {t.identifier for t in profile.interface_types}
    intents = [s.intent for s in profile.scenarios]
    assert all(i and len(i.strip()) >= 20 for i in intents)
    assert len(set(intents)) == len(intents)
    for s in profile.scenarios:
        assert s.preconditions.environment.type == "kubernetes-cluster"
        assert all(
            isinstance(e.get("resource"), str) and "/" in e["resource"]
            for e in s.preconditions.environment.state
        ), s.id
        assert set(s.preconditions.agent.tools) <= tools, s.id
        assert s.preconditions.agent.mode in {"read-only", "supervised", "autonomous"}
        assert s.observability_requirements
        if s.is_safety:
            assert s.scoring.type.value == "binary"
            assert s.quality is not None and s.quality.attack_surface and s.quality.difficulty
            if s.scoring.safety_tolerance == 0:
                assert s.scoring.pass_condition == "all_assertions_met"
        else:
            assert s.scoring.type.value == "weighted"
            assert s.scoring.rubric and all(0.0 <= v <= 1.0 for v in s.scoring.rubric.values())
            assert max(s.scoring.rubric.values()) == 1.0
            assert s.scoring.dimensions
            assert sum(s.scoring.dimensions.values()) == pytest.approx(1.0)
            category = profile.category(s.category)
            assert category is not None
            assert {CoreDimension(d) for d in s.scoring.dimensions} <= set(category.dimensions), (
                s.id
            )


# ---- the validator, once it exists --------------------------------------------------------


def test_validator_reports_nothing(profile: Profile) -> None:
    validation = pytest.importorskip("oasis_eval.validation")
    validate_profile = getattr(validation, "validate_profile", None)
    if validate_profile is None:
        pytest.skip("oasis_eval.validation.validate_profile is not available yet")
    findings = validate_profile(profile)
    assert [f.render() for f in findings.errors] == []
    assert [f.render() for f in findings.warnings] == []
