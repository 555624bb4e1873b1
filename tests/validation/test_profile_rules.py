"""Profile-level structure (03 §2): metadata, vocabulary, behaviors, tiers, schema, conformance."""

import pytest

from oasis_eval.validation import validate_profile


def _codes(build, data):
    return [
        (f.code, f.severity.value, f.field) for f in validate_profile(build.profile(data)).sorted()
    ]


def test_metadata(build):
    data = build.profile_data()
    data["metadata"].update(name=" ", version="one", description="", domain="")
    assert sorted(_codes(build, data)) == [
        ("incomplete-metadata", "error", "metadata.description"),
        ("incomplete-metadata", "error", "metadata.domain"),
        ("invalid-version", "error", "metadata.version"),
        ("missing-metadata", "error", "metadata.name"),
    ]


def test_vocabulary(build):
    data = build.profile_data()
    data["vocabulary"].append({"term": "journal", "definition": "", "core_concept": " "})
    ((code, sev, field),) = _codes(build, data)
    assert (code, sev, field) == ("incomplete-vocabulary-term", "error", "vocabulary[1]")
    data["vocabulary"] = []
    assert _codes(build, data) == [("missing-vocabulary", "warning", "vocabulary")]


def test_behavior_definitions(build):
    data = build.profile_data()
    data["behaviors"].append(
        {"id": "decline_out_of_scope", "definition": "Again.", "verification": "x"}
    )
    data["behaviors"].append({"id": "vague", "definition": "Something.", "verification": ""})
    assert sorted(_codes(build, data)) == [
        ("duplicate-behavior", "error", "behaviors[3].id"),
        ("incomplete-behavior", "error", "behaviors[4].verification"),
    ]


def test_capability_tiers(build):
    data = build.profile_data()
    data["capability_tiers"] = data["capability_tiers"][:2]
    data["capability_tiers"][0]["operations"] = []
    assert sorted(_codes(build, data)) == [
        ("missing-capability-tier", "warning", "capability_tiers"),
        ("missing-capability-tier", "warning", "capability_tiers[0].operations"),
    ]


def test_complexity_tiers(build):
    data = build.profile_data()
    data["complexity_tiers"] = [
        data["complexity_tiers"][0],
        dict(data["complexity_tiers"][0]),
        {"tier": 2, "name": "C2"},
    ]
    assert sorted(_codes(build, data)) == [
        ("complexity-tier-without-environment", "error", "complexity_tiers[2].environment"),
        ("duplicate-complexity-tier", "error", "complexity_tiers[1].tier"),
        ("missing-complexity-tier", "error", "complexity_tiers"),
        (
            "missing-coverage",
            "error",
            "complexity_tiers[2].minimum_coverage.capability_archetypes_per_category",
        ),
        (
            "missing-coverage",
            "error",
            "complexity_tiers[2].minimum_coverage.safety_archetypes_per_category",
        ),
    ]


def test_minimum_coverage_cannot_exceed_archetype_count(build):
    data = build.profile_data()
    data["complexity_tiers"][2]["minimum_coverage"] = {
        "safety_archetypes_per_category": 2,
        "capability_archetypes_per_category": None,
    }
    ((code, _, field),) = _codes(build, data)
    assert (code, field) == (
        "coverage-exceeds-archetypes",
        "complexity_tiers[2].minimum_coverage.safety_archetypes_per_category",
    )
    data["complexity_tiers"][2]["minimum_coverage"] = {
        "safety_archetypes_per_category": 1,
        "capability_archetypes_per_category": -1,
    }
    assert [c for c, _, _ in _codes(build, data)] == ["invalid-coverage-minimum"]


def test_minimum_coverage_must_be_stated_per_tier(build):
    """Core §5: a profile MUST define minimum coverage per tier; the default is no statement."""
    data = build.profile_data()
    del data["complexity_tiers"][0]["minimum_coverage"]
    data["complexity_tiers"][1]["minimum_coverage"] = {"safety_archetypes_per_category": None}
    assert sorted(_codes(build, data)) == [
        (
            "missing-coverage",
            "error",
            "complexity_tiers[0].minimum_coverage.capability_archetypes_per_category",
        ),
        (
            "missing-coverage",
            "error",
            "complexity_tiers[0].minimum_coverage.safety_archetypes_per_category",
        ),
        (
            "missing-coverage",
            "error",
            "complexity_tiers[1].minimum_coverage.capability_archetypes_per_category",
        ),
    ]


def test_missing_agent_configuration_schema_is_always_reported(build):
    data = build.profile_data()
    del data["agent_configuration_schema"]
    assert _codes(build, data) == [
        ("missing-agent-configuration-schema", "error", "agent_configuration_schema")
    ]


def test_configuration_schema_constraints(build):
    data = build.profile_data()
    dims = data["agent_configuration_schema"]["dimensions"]
    dims.append({"identifier": "zone_model", "type": "boolean", "description": "Again."})
    dims.append(
        {"identifier": "tier_kind", "type": "enum", "values": ["only"], "description": "One value."}
    )
    dims.append({"identifier": "channel", "type": "enum", "values": ["a", "b"], "default": "c"})
    dims.append({"identifier": "flag", "type": "boolean", "default": "yes", "description": "Flag."})
    assert sorted(_codes(build, data)) == [
        ("dimension-missing-description", "error", "agent_configuration_schema.dimensions[4]"),
        ("duplicate-configuration-dimension", "error", "agent_configuration_schema.dimensions[2]"),
        (
            "enum-dimension-too-few-values",
            "error",
            "agent_configuration_schema.dimensions[3].values",
        ),
        ("invalid-dimension-default", "error", "agent_configuration_schema.dimensions[4].default"),
        ("invalid-dimension-default", "error", "agent_configuration_schema.dimensions[5].default"),
    ]


def test_schema_needs_a_dimension(build):
    data = build.profile_data()
    data["agent_configuration_schema"]["dimensions"] = []
    assert _codes(build, data) == [
        ("no-configuration-dimensions", "error", "agent_configuration_schema.dimensions")
    ]


def test_intent_promotion_targets(build):
    data = build.profile_data()
    data["intent_promotion"]["recommended_for"] = ["capability", "bookkeeping", "astrology"]
    assert _codes(build, data) == [
        ("unknown-intent-promotion-target", "warning", "intent_promotion.recommended_for[2]")
    ]


@pytest.mark.parametrize(
    "conformance,code",
    [
        (None, "missing-conformance-contract"),
        ({"requirements": {}}, "empty-conformance-contract"),
    ],
)
def test_conformance_contract(build, conformance, code):
    data = build.profile_data()
    data["conformance"] = conformance
    assert [c for c, _, _ in _codes(build, data)] == [code]


def test_reserved_scenarios(build):
    data = build.profile_data()
    data["reserved_scenarios"] = {
        "per_category": {"scope-keeping": 2, "bookkeeping": 1},
        "rotation_cadence": "per minor version",
    }
    assert sorted(_codes(build, data)) == [
        ("incomplete-reserved-scenarios", "error", "reserved_scenarios.distribution"),
        ("reserved-unknown-category", "error", "reserved_scenarios.per_category.bookkeeping"),
    ]


def test_profile_findings_use_the_profile_line_map(build):
    from oasis_eval.spec.common import SourceRef

    data = build.profile_data()
    data["conformance"] = None
    profile = build.profile(data)
    profile.locate(SourceRef(file="profile.yaml", line=1), {("conformance",): 42})
    (f,) = validate_profile(profile)
    assert (f.file, f.line) == ("profile.yaml", 42)


def test_profile_findings_fall_back_to_the_metadata_file(build):
    """Markdown-layout profiles have no single document; findings name the metadata's file."""
    from oasis_eval.spec.common import SourceRef

    data = build.profile_data()
    data["conformance"] = None
    data["safety_categories"][0]["justification"] = ""
    profile = build.profile(data)
    profile.metadata.locate(SourceRef(file="profile.md", line=3))
    (f,) = validate_profile(profile)
    assert (f.file, f.line, f.field) == ("profile.md", None, "conformance")
    # a located sub-object keeps its own file and line
    profile.conformance = None
    profile.subcategories[0].locate(SourceRef(file="cats.md", line=7))
    profile.subcategories[0].description = ""
    got = {f.code: (f.file, f.line) for f in validate_profile(profile)}
    assert got["subcategory-missing-description"] == ("cats.md", 7)
