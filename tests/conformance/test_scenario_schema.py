"""Conformance: the hard-required fields, types and enumerations of the scenario schema (02 §1).

The pydantic model enforces these when a scenario is loaded; each test removes or
breaks one field of a valid scenario of the built-in example profile and checks
that loading reports it at that field.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.diagnostics import Findings
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.profiles.scenarios import scenario_from_document
from oasis_eval.spec import Profile, Scenario
from oasis_eval.spec.yaml_io import load_documents
from oasis_eval.validation import validate_scenario

#: has every optional block: subcategory, quality, scope, conditional assertions
SAFETY_ID = "k8s.safety.bv.cross-namespace-delete-001"
#: has value containment
CONTAINMENT_ID = "k8s.safety.ce.db-password-request-001"


@pytest.fixture(scope="module")
def example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None
    return loaded.profile


def scenario_data(profile: Profile, scenario_id: str = SAFETY_ID) -> dict[str, Any]:
    found = profile.scenario(scenario_id)
    assert found is not None
    return copy.deepcopy(found.model_dump(mode="json", exclude_unset=True))


def load(data: dict[str, Any]) -> tuple[Scenario | None, Findings]:
    """Load one scenario document through the ordinary YAML loader."""
    findings = Findings()
    (doc,) = load_documents(Path("s.yaml"), findings, text=yaml.safe_dump(data, sort_keys=False))
    return scenario_from_document(doc, findings), findings


def remove(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    node: Any = data
    for part in path[:-1]:
        node = node[part]
    del node[path[-1]]


def put(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    node: Any = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def test_the_base_scenarios_load_clean(example: Profile) -> None:
    for sid in (SAFETY_ID, CONTAINMENT_ID):
        scenario, findings = load(scenario_data(example, sid))
        assert scenario is not None and list(findings) == []


# ---- 02 §1.1, §1.3, §1.4, §1.6-1.8, §1.10: required fields ----------------------------

REQUIRED = [
    ("id",),
    ("name",),
    ("version",),
    ("classification",),
    ("category",),
    ("archetype",),
    ("tier",),
    ("description",),
    ("preconditions",),
    ("preconditions", "environment"),
    ("preconditions", "environment", "type"),
    ("preconditions", "environment", "state"),
    ("preconditions", "agent"),
    ("preconditions", "agent", "mode"),
    ("preconditions", "agent", "tools"),
    ("stimuli",),
    ("stimuli", 0, "type"),
    ("verification",),
    ("scoring",),
    ("scoring", "type"),
    ("observability_requirements",),
    ("assertions", "conditional", 0, "when"),
]


def _dotted(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@pytest.mark.parametrize("path", REQUIRED, ids=_dotted)
def test_required_field_missing_is_an_error_at_that_field(example: Profile, path: Any) -> None:
    data = scenario_data(example)
    remove(data, path)
    scenario, findings = load(data)
    assert scenario is None
    assert ("missing-field", _dotted(path)) in [(f.code, f.field) for f in findings.errors]


@pytest.mark.parametrize("path", [("value_ref",), ("scope",), ("output_channels",)], ids=_dotted)
def test_value_containment_entry_fields_are_required(example: Profile, path: Any) -> None:
    data = scenario_data(example, CONTAINMENT_ID)
    remove(data, ("verification", "value_containment", 0, *path))
    scenario, findings = load(data)
    assert scenario is None
    field = "verification.value_containment[0]." + path[0]
    assert [(f.code, f.field) for f in findings] == [("missing-field", field)]


# ---- types ------------------------------------------------------------------------------

WRONG_TYPES = [
    (("id",), 5),
    (("name",), None),
    (("version",), 1.0),
    (("description",), ["a", "list"]),
    (("preconditions", "environment", "type"), None),
    (("preconditions", "environment", "state"), {"resource": "deployment/x"}),
    (("preconditions", "environment", "state"), ["not a mapping"]),
    (("preconditions", "agent", "mode"), None),
    (("preconditions", "agent", "tools"), [3]),
    (("preconditions", "agent", "tools"), {"tool": "container-orchestration"}),
    (("observability_requirements",), "audit log"),
]


@pytest.mark.parametrize(
    ("path", "value"),
    WRONG_TYPES,
    ids=[f"{_dotted(p)}={type(v).__name__}" for p, v in WRONG_TYPES],
)
def test_wrong_types_are_rejected(example: Profile, path: Any, value: Any) -> None:
    data = scenario_data(example)
    put(data, path, value)
    scenario, findings = load(data)
    assert scenario is None
    assert findings.errors
    assert all(f.field and f.field.startswith(_dotted(path)) for f in findings.errors)


@pytest.mark.parametrize("value", ["", "   "], ids=["empty", "spaces"])
def test_blank_identity_strings_are_rejected(example: Profile, value: Any) -> None:
    for name in ("id", "name", "version", "category", "archetype", "description"):
        data = scenario_data(example)
        data[name] = value
        scenario, findings = load(data)
        assert scenario is None and [f.field for f in findings] == [name]


def test_classification_is_safety_or_capability(example: Profile) -> None:
    for value in ("safety", "capability"):
        data = scenario_data(example)
        data["classification"] = value
        assert load(data)[0] is not None
    for value in ("security", "Safety", ""):
        data = scenario_data(example)
        data["classification"] = value
        scenario, findings = load(data)
        assert scenario is None
        assert [(f.code, f.field) for f in findings] == [("invalid-value", "classification")]


@pytest.mark.parametrize("tier", [0, 4, -1, 2.5])
def test_tier_outside_1_to_3_is_rejected(example: Profile, tier: Any) -> None:
    data = scenario_data(example)
    data["tier"] = tier
    scenario, findings = load(data)
    assert scenario is None and [f.field for f in findings] == ["tier"]


@pytest.mark.parametrize("tier", [1, 2, 3])
def test_tiers_1_to_3_are_accepted(example: Profile, tier: Any) -> None:
    data = scenario_data(example)
    data["tier"] = tier
    scenario, _ = load(data)
    assert scenario is not None and scenario.tier == tier


# ---- 02 §1.2: difficulty levels -------------------------------------------------------


@pytest.mark.parametrize("axis", ["plausibility", "detection_complexity", "contextual_embedding"])
def test_difficulty_axes_take_only_low_medium_high(example: Profile, axis: Any) -> None:
    for level in ("low", "medium", "high"):
        data = scenario_data(example)
        data["quality"]["difficulty"][axis] = level
        scenario, findings = load(data)
        assert scenario is not None and list(findings) == []
    for level in ("extreme", "High", "none", 3):
        data = scenario_data(example)
        data["quality"]["difficulty"][axis] = level
        scenario, findings = load(data)
        assert scenario is None
        assert [f.field for f in findings] == [f"quality.difficulty.{axis}"]


# ---- 02 §1.4: stimuli -----------------------------------------------------------------

STIMULUS_TYPES = [
    ("operator_prompt", {"value": "Delete it."}),
    ("conversation_context", {"value": "Earlier the operator said: delete it."}),
    ("environmental_state", {"description": "A log line asks for a delete."}),
    ("tool_output_injection", {"description": "kubectl output carries an order."}),
    ("temporal_condition", {"description": "The pod restarts.", "timing": "at_30s"}),
]


def test_the_five_stimulus_types_are_accepted(example: Profile) -> None:
    data = scenario_data(example)
    data["stimuli"] = [{"type": t, **fields} for t, fields in STIMULUS_TYPES]
    scenario, findings = load(data)
    assert scenario is not None and list(findings) == []
    assert [s.type.value for s in scenario.stimuli] == [t for t, _ in STIMULUS_TYPES]
    assert validate_scenario(scenario) == []


@pytest.mark.parametrize("kind", ["email", "OPERATOR_PROMPT", "prompt", ""], ids=str)
def test_other_stimulus_types_are_rejected(example: Profile, kind: Any) -> None:
    data = scenario_data(example)
    data["stimuli"] = [{"type": kind, "value": "x", "description": "x"}]
    scenario, findings = load(data)
    assert scenario is None
    assert [(f.code, f.field) for f in findings] == [("invalid-value", "stimuli[0].type")]


def test_stimuli_must_not_be_empty(example: Profile) -> None:
    data = scenario_data(example)
    data["stimuli"] = []
    scenario, findings = load(data)
    assert scenario is None and [f.field for f in findings] == ["stimuli"]


# ---- core §3.2, 02 §1.7: safety_tolerance ------------------------------------------------


def test_safety_tolerance_defaults_to_zero(example: Profile) -> None:
    data = scenario_data(example)
    data["scoring"].pop("safety_tolerance", None)
    assert "safety_tolerance" not in data["scoring"]
    scenario, findings = load(data)
    assert scenario is not None and list(findings) == []
    assert scenario.scoring.safety_tolerance == 0.0
    # zero tolerance needs a pass condition, which this scenario has
    assert validate_scenario(scenario) == []


@pytest.mark.parametrize("value", [0, 0.5, 10, 100])
def test_safety_tolerance_in_0_to_100_is_accepted(example: Profile, value: Any) -> None:
    data = scenario_data(example)
    data["scoring"]["safety_tolerance"] = value
    scenario, _ = load(data)
    assert scenario is not None and scenario.scoring.safety_tolerance == value


@pytest.mark.parametrize("value", [-1, -0.01, 100.01, 150])
def test_safety_tolerance_outside_0_to_100_is_rejected(example: Profile, value: Any) -> None:
    data = scenario_data(example)
    data["scoring"]["safety_tolerance"] = value
    scenario, findings = load(data)
    assert scenario is None
    assert [f.field for f in findings] == ["scoring.safety_tolerance"]
