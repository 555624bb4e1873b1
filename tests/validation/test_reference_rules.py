"""Scenario rules that need the profile: every name a scenario uses must resolve in it."""

from oasis_eval.spec.profile import IntentPromotion
from oasis_eval.validation import validate_scenario


def _check(build, profile, data):
    """Validate an outside scenario against the profile (fresh id and intent: no collisions)."""
    data = {**data, "id": "probe-" + data["id"]}
    if data.get("intent"):
        data["intent"] = "Probe: " + data["intent"]
    return validate_scenario(build.scenario(data), profile)


def test_valid_scenarios_pass_against_the_profile(build, valid_profile):
    assert valid_profile.scenarios
    for s in valid_profile.scenarios:
        assert validate_scenario(s, valid_profile) == []


def test_unknown_category(build, valid_profile):
    (f,) = _check(build, valid_profile, build.safety(category="teleportation", subcategory=None))
    assert (f.code, f.field) == ("unknown-category", "category")
    assert "scope-keeping" in f.expected


def test_category_of_the_wrong_classification(build, valid_profile):
    got = build.codes(_check(build, valid_profile, build.safety(category="bookkeeping")))
    assert got == ["category-classification-mismatch"]


def test_category_by_display_name_and_by_core_category(build, valid_profile):
    assert _check(build, valid_profile, build.safety(category="Scope Keeping")) == []
    # 02 §1.1: a safety scenario may name the core category a profile category maps
    assert _check(build, valid_profile, build.safety(category="boundary_violation")) == []


def test_archetype_must_belong_to_the_category(build, valid_profile):
    (f,) = _check(build, valid_profile, build.safety(archetype="S-ZZ-999"))
    assert (f.code, f.field) == ("unknown-archetype", "archetype")
    (f,) = _check(build, valid_profile, build.safety(archetype="S-C2-001"))
    assert f.code == "archetype-category-mismatch" and "prompt-injection-resistance" in f.message


def test_subcategory_rules(build, valid_profile):
    assert _check(build, valid_profile, build.safety(subcategory="partition-discipline")) == []
    (f,) = _check(build, valid_profile, build.safety(subcategory="no-such-sub"))
    assert f.code == "unknown-subcategory"


def test_subcategory_under_wrong_parent(build, valid_profile):
    data = build.safety(
        id="ledger.safety.c2.case-001",
        category="prompt-injection-resistance",
        archetype="S-C2-001",
        subcategory="partition-discipline",
    )
    (f,) = _check(build, valid_profile, data)
    assert (f.code, f.field) == ("subcategory-parent-mismatch", "subcategory")
    assert "Scope Keeping" in f.message


def test_subcategory_parent_named_by_core_category(build, valid_profile):
    valid_profile.subcategories[0].parents = ["Boundary violation"]
    assert _check(build, valid_profile, build.safety(subcategory="partition-discipline")) == []


def test_undefined_behavior_everywhere_it_can_appear(build, valid_profile):
    data = build.safety(
        assertions={
            "must": [{"behavior": "decline_out_of_scope"}, {"behavior": "dance"}],
            "must_not": [{"behavior": "sing"}],
            "conditional": [{"when": {"zone_model": True}, "must": [{"behavior": "juggle"}]}],
        }
    )
    got = sorted((f.code, f.field) for f in _check(build, valid_profile, data))
    assert got == [
        ("undefined-behavior", "assertions.conditional[0].must[0].behavior"),
        ("undefined-behavior", "assertions.must[1].behavior"),
        ("undefined-behavior", "assertions.must_not[0].behavior"),
    ]


def test_library_refs(build, valid_profile):
    ok = build.safety(stimuli=[{"type": "environmental_state", "library_ref": "SL-001"}])
    assert _check(build, valid_profile, ok) == []
    dangling = build.safety(stimuli=[{"type": "environmental_state", "library_ref": "SL-404"}])
    (f,) = _check(build, valid_profile, dangling)
    assert (f.code, f.field) == ("dangling-library-ref", "stimuli[0].library_ref")
    wrong = build.safety(stimuli=[{"type": "tool_output_injection", "library_ref": "SL-001"}])
    (f,) = _check(build, valid_profile, wrong)
    assert f.code == "library-ref-type-mismatch"


def test_companion_scenario(build, valid_profile):
    (f,) = _check(build, valid_profile, build.safety(quality={"companion_scenario": "nope-001"}))
    assert (f.code, f.field) == ("missing-companion-scenario", "quality.companion_scenario")
    other_safety = valid_profile.scenarios[1].id
    (f,) = _check(build, valid_profile, build.safety(quality={"companion_scenario": other_safety}))
    assert f.code == "companion-not-capability"


def test_tools_should_be_interface_types(build, valid_profile):
    data = build.safety()
    data["preconditions"]["agent"]["tools"] = ["ledger-api", "fax-machine"]
    (f,) = _check(build, valid_profile, data)
    assert (f.code, f.severity.value, f.field) == (
        "unknown-tool",
        "warning",
        "preconditions.agent.tools[1]",
    )
    valid_profile.interface_types = []
    assert _check(build, valid_profile, data) == []


def test_configuration_keys_and_values(build, valid_profile):
    data = build.safety(
        applicability={"operational_mode": "read_write", "colour": "red", "zone_model": "yes"},
        assertions={
            "must": [{"behavior": "decline_out_of_scope"}],
            "conditional": [
                {
                    "when": {"operational_mode": ["read_write", "sideways"]},
                    "must": [{"behavior": "decline_out_of_scope"}],
                }
            ],
        },
    )
    got = sorted((f.code, f.field) for f in _check(build, valid_profile, data))
    assert got == [
        ("invalid-configuration-value", "applicability.zone_model"),
        ("invalid-configuration-value", "assertions.conditional[0].when.operational_mode"),
        ("unknown-configuration-dimension", "applicability.colour"),
    ]


def test_configuration_without_schema_is_one_error_per_scenario(build, valid_profile):
    valid_profile.agent_configuration_schema = None
    data = build.safety(
        applicability={"colour": "red", "size": 3},
        assertions={
            "must": [{"behavior": "decline_out_of_scope"}],
            "conditional": [
                {"when": {"shape": "round"}, "must": [{"behavior": "decline_out_of_scope"}]}
            ],
        },
    )
    (f,) = _check(build, valid_profile, data)
    assert (f.code, f.field) == ("configuration-without-schema", "applicability")


def test_overlapping_conditionals_use_schema_defaults(build, valid_profile):
    # operational_mode has a default, so an agent that reports only zone_model=true matches both
    data = build.safety(
        assertions={
            "must": [{"behavior": "decline_out_of_scope"}],
            "conditional": [
                {
                    "when": {"operational_mode": "read_write"},
                    "must": [{"behavior": "decline_out_of_scope"}],
                },
                {
                    "when": {"zone_model": True, "operational_mode": ["read_only", "read_write"]},
                    "must": [{"behavior": "cite_read_only"}],
                },
            ],
        }
    )
    (f,) = _check(build, valid_profile, data)
    assert f.code == "overlapping-conditionals"


def test_applicability_requiring_read_only_with_writing_mode(build, valid_profile):
    (f,) = _check(
        build, valid_profile, build.safety(applicability={"operational_mode": "read_only"})
    )
    assert (f.code, f.field) == ("applicability-mode-conflict", "applicability.operational_mode")
    assert "autonomous" in f.message


def test_applicability_requiring_read_write_with_read_only_mode(build, valid_profile):
    data = build.safety(applicability={"operational_mode": "read_write"})
    data["preconditions"]["agent"]["mode"] = "read-only"
    (f,) = _check(build, valid_profile, data)
    assert f.code == "applicability-mode-conflict"


def test_mode_consistency_reads_value_names_not_keys(build, valid_profile):
    valid_profile.agent_configuration_schema.dimensions[0].identifier = "posture"
    valid_profile.agent_configuration_schema.dimensions[0].values = ["ReadOnly", "ReadWrite"]
    valid_profile.agent_configuration_schema.dimensions[0].default = "ReadWrite"
    data = build.safety(applicability={"posture": "ReadOnly"})
    data["preconditions"]["agent"]["mode"] = "supervised"
    assert build.codes(_check(build, valid_profile, data)) == ["applicability-mode-conflict"]
    # consistent, or unrelated dimensions: nothing to say
    data["preconditions"]["agent"]["mode"] = "read-only"
    assert _check(build, valid_profile, data) == []
    data = build.safety(applicability={"zone_model": True})
    assert _check(build, valid_profile, data) == []


def test_intent_promotion(build, valid_profile):
    (f,) = _check(build, valid_profile, build.safety(intent=None))
    assert (f.code, f.severity.value) == ("intent-required", "error")
    (f,) = _check(build, valid_profile, build.capability(intent=None))
    assert (f.code, f.severity.value) == ("intent-missing", "warning")
    # promotion by category id (or display name)
    valid_profile.intent_promotion = IntentPromotion(required_for=["Bookkeeping"])
    assert build.codes(_check(build, valid_profile, build.capability(intent=None))) == [
        "intent-required"
    ]
    assert build.codes(_check(build, valid_profile, build.safety(intent=None))) == [
        "intent-missing"
    ]
    valid_profile.intent_promotion = None
    assert build.codes(_check(build, valid_profile, build.safety(intent=None))) == [
        "intent-missing"
    ]
