import pytest

from oasis_eval.spec.profile import AgentConfigurationSchema
from oasis_eval.validation import matches
from oasis_eval.validation.configuration import (
    OTHER,
    AccessLevel,
    access_level,
    enumerate_configurations,
    overlapping_conditions,
    required_access,
    value_domain,
)

SCHEMA = AgentConfigurationSchema.model_validate(
    {
        "dimensions": [
            {
                "identifier": "operational_mode",
                "type": "enum",
                "values": ["read_only", "read_write"],
                "default": "read_write",
            },
            {"identifier": "zone_model", "type": "boolean"},
            {
                "identifier": "interface_type",
                "type": "enum",
                "values": ["cli", "web", "api"],
                "default": "cli",
            },
        ]
    }
)


def test_exact_and_any_of_match():
    assert matches({"operational_mode": "read_only"}, {"operational_mode": "read_only"}, SCHEMA)
    assert not matches(
        {"operational_mode": "read_only"}, {"operational_mode": "read_write"}, SCHEMA
    )
    assert matches({"interface_type": ["cli", "web"]}, {"interface_type": "web"}, SCHEMA)
    assert not matches({"interface_type": ["cli", "web"]}, {"interface_type": "api"}, SCHEMA)


def test_all_conditions_must_hold():
    cond = {"operational_mode": "read_write", "zone_model": True}
    assert matches(cond, {"operational_mode": "read_write", "zone_model": True}, SCHEMA)
    assert not matches(cond, {"operational_mode": "read_write", "zone_model": False}, SCHEMA)


def test_unreported_dimension_uses_default_else_does_not_match():
    assert matches({"operational_mode": "read_write"}, {}, SCHEMA)  # default read_write
    assert not matches({"zone_model": True}, {}, SCHEMA)  # no default: NOT_APPLICABLE
    assert not matches({"zone_model": False}, {}, SCHEMA)
    assert not matches({"zone_model": True}, {}, None)


def test_empty_condition_matches_everything():
    assert matches({}, {}, SCHEMA)


def test_booleans_are_not_numbers():
    assert not matches({"zone_model": True}, {"zone_model": 1}, SCHEMA)
    assert matches({"zone_model": True}, {"zone_model": True}, SCHEMA)


def test_value_domain():
    assert value_domain("zone_model", SCHEMA) == [True, False]
    assert value_domain("interface_type", SCHEMA) == ["cli", "web", "api"]
    # unknown dimension: the mentioned values plus "any other value"
    dom = value_domain("tenant", None, [{"tenant": "a"}, {"tenant": ["a", "b"]}])
    assert dom[:2] == ["a", "b"] and dom[2] is OTHER
    assert value_domain("flag", None, [{"flag": True}]) == [True, False]


def test_enumerate_configurations_is_the_product():
    configs = list(enumerate_configurations(["zone_model", "operational_mode"], SCHEMA))
    assert len(configs) == 4
    assert {"operational_mode": "read_only", "zone_model": False} in configs


def test_enumeration_guard():
    big = AgentConfigurationSchema.model_validate(
        {
            "dimensions": [
                {"identifier": f"d{i}", "type": "enum", "values": list(range(20))} for i in range(5)
            ]
        }
    )
    with pytest.raises(ValueError):
        list(enumerate_configurations([f"d{i}" for i in range(5)], big))


def test_disjoint_conditions_do_not_overlap():
    conds = [{"operational_mode": "read_write"}, {"operational_mode": "read_only"}]
    assert overlapping_conditions(conds, SCHEMA) == []


def test_conditions_on_different_dimensions_overlap():
    conds = [{"operational_mode": "read_write"}, {"zone_model": True}]
    ((i, j, example),) = overlapping_conditions(conds, SCHEMA)
    assert (i, j) == (0, 1)
    assert example == {"operational_mode": "read_write", "zone_model": True}


def test_any_of_lists_overlap_when_they_share_a_value():
    conds = [{"interface_type": ["cli", "web"]}, {"interface_type": ["web", "api"]}]
    assert [(i, j) for i, j, _ in overlapping_conditions(conds, SCHEMA)] == [(0, 1)]


def test_overlap_without_schema_uses_mentioned_values():
    assert overlapping_conditions([{"tier": "a"}, {"tier": "b"}], None) == []
    assert len(overlapping_conditions([{"tier": "a"}, {"other": "x"}], None)) == 1


@pytest.mark.parametrize(
    "name,level",
    [
        ("read-only", AccessLevel.read_only),
        ("read_only", AccessLevel.read_only),
        ("ReadOnly", AccessLevel.read_only),
        ("readonly", AccessLevel.read_only),
        ("observe", AccessLevel.read_only),
        ("read-write", AccessLevel.read_write),
        ("read_write", AccessLevel.read_write),
        ("autonomous", AccessLevel.read_write),
        ("supervised", AccessLevel.read_write),
        ("write", AccessLevel.read_write),
        ("cli", AccessLevel.unknown),
        (True, AccessLevel.unknown),
        ("", AccessLevel.unknown),
    ],
)
def test_access_level_from_value_names(name, level):
    assert access_level(name) is level


def test_required_access_needs_agreement():
    assert required_access("read_only") is AccessLevel.read_only
    assert required_access(["read_only", "readonly"]) is AccessLevel.read_only
    assert required_access(["read_only", "read_write"]) is AccessLevel.unknown
