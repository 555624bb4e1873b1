"""Conformance: profile component rules that no other test pins (03 §2.3, §2.14, §2.16.1)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import LoadResult, load_profile
from oasis_eval.spec import Profile
from oasis_eval.validation import validate_profile


@pytest.fixture
def example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None and validate_profile(loaded.profile) == []
    return loaded.profile


@pytest.mark.parametrize("blank", ["", "   "], ids=["empty", "spaces"])
def test_behavior_without_prose_definition_is_an_error(example: Profile, blank: Any) -> None:
    """03 §2.3: a behavior definition gives an identifier, a prose definition and a method."""
    behavior = example.behaviors[0]
    behavior.definition = blank
    (finding,) = validate_profile(example)
    assert (finding.code, finding.severity.value, finding.field) == (
        "incomplete-behavior",
        "error",
        "behaviors[0].definition",
    )
    assert behavior.id in finding.message


def _load_with(tmp_path: Path, edit: Callable[[dict[str, Any]], Any]) -> LoadResult:
    """Load a copy of the example whose profile.yaml data went through ``edit``."""
    dest = tmp_path / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, dest)
    path = dest / "profile.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_profile(dest)


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("identifier", None, "agent_configuration_schema.dimensions[0].identifier"),
        ("type", None, "agent_configuration_schema.dimensions[0].type"),
        ("type", "number", "agent_configuration_schema.dimensions[0].type"),
    ],
    ids=["no-identifier", "no-type", "type-number"],
)
def test_dimension_needs_an_identifier_and_an_enum_or_boolean_type(
    tmp_path: Path, key: str, value: str | None, field: str
) -> None:
    """03 §2.16.1: identifier (required) and type (``enum`` or ``boolean``, required)."""

    def edit(data: dict[str, Any]) -> None:
        dim = data["agent_configuration_schema"]["dimensions"][0]
        if value is None:
            del dim[key]
        else:
            dim[key] = value

    loaded = _load_with(tmp_path, edit)
    assert loaded.profile is None
    assert [(f.severity.value, f.field) for f in loaded.findings] == [("error", field)]


def test_subcategory_needs_an_identifier(tmp_path: Path) -> None:
    """03 §2.14: each subcategory definition gives an identifier."""
    loaded = _load_with(tmp_path, lambda data: data["subcategories"][0].pop("id"))
    assert loaded.profile is None
    got = [(f.code, f.field) for f in loaded.findings]
    assert got == [("missing-field", "subcategories[0].id")]
