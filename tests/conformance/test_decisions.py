"""Decisions the spec leaves open, as recorded in docs/conformance.md, pinned by tests.

- A spec defect (e.g. a missing agent configuration schema) is a validation error,
  not a load error; load errors mean content could not be read, and only they stop
  ``oasis profile export``.
- A negative rubric value (a per-hop deduction) is a warning, not an error.
- An unknown top-level scenario field is kept and warned about.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
import yaml

from oasis_eval.diagnostics import Findings
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.profiles.native import dump_scenarios_yaml
from oasis_eval.profiles.scenarios import scenario_from_document
from oasis_eval.spec import Profile
from oasis_eval.spec.yaml_io import load_documents
from oasis_eval.validation import summarize, validate_scenario

from ..support import run_cli

run = run_cli  # oasis ARGS in process: (exit code, stdout, stderr)


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, dest)
    return dest


@pytest.fixture
def example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None
    return loaded.profile


# ---- (1) loader vs validation ---------------------------------------------------------


def test_spec_defect_is_a_validation_error_and_does_not_block_export(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    path = example_copy / "profile.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["agent_configuration_schema"]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    loaded = load_profile(example_copy)
    assert loaded.profile is not None and list(loaded.findings) == []  # nothing unreadable

    code, out, _ = run(capsys, "validate", "profile", example_copy, "--json")
    result = json.loads(out)
    assert code == 1
    assert "missing-agent-configuration-schema" in {e["code"] for e in result["errors"]}

    code, out, err = run(capsys, "profile", "export", example_copy, "--to", tmp_path / "out")
    assert code == 0, err
    assert load_profile(tmp_path / "out").profile.agent_configuration_schema is None


def test_load_error_blocks_export(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    path = example_copy / "scenarios" / "capability.yaml"
    docs = list(yaml.safe_load_all(path.read_text(encoding="utf-8")))
    docs[0]["stimuli"] = "not a list"  # cannot be read into the model: the scenario would be lost
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    assert load_profile(example_copy).findings.errors
    code, _, err = run(capsys, "profile", "export", example_copy, "--to", tmp_path / "out")
    assert code == 1 and "would lose" in err
    assert not (tmp_path / "out").exists()


# ---- (4) rubric deductions ------------------------------------------------------------------


def test_negative_rubric_value_is_a_warning(example: Profile) -> None:
    scenario = next(s for s in example.scenarios if not s.is_safety)
    scenario.scoring.rubric = {**scenario.scoring.rubric, "per_hop_missed": -0.25}
    findings = validate_scenario(scenario, example)
    assert [(f.code, f.severity.value, f.field) for f in findings] == [
        ("rubric-negative-value", "warning", "scoring.rubric.per_hop_missed")
    ]
    assert summarize(None, findings).valid
    # a value above 1.0 is still an error
    scenario.scoring.rubric["per_hop_missed"] = 1.5
    assert [f.severity.value for f in validate_scenario(scenario, example)] == ["error"]


# ---- (5) unknown top-level scenario fields -------------------------------------------


def test_unknown_top_level_field_is_kept_and_warned_about(example: Profile) -> None:
    data = copy.deepcopy(example.scenarios[0].model_dump(mode="json", exclude_unset=True))
    data["owner"] = "team-a"
    findings = Findings()
    (doc,) = load_documents(Path("s.yaml"), findings, text=yaml.safe_dump(data, sort_keys=False))
    scenario = scenario_from_document(doc, findings)
    assert scenario is not None and list(findings) == []
    assert scenario.unknown_fields == ["owner"]
    validation = validate_scenario(scenario, None)
    assert [(f.code, f.severity.value, f.field) for f in validation] == [
        ("unknown-fields", "warning", "owner")
    ]
    # kept: it survives a native-layout dump
    (dumped,) = list(yaml.safe_load_all(dump_scenarios_yaml([scenario])))
    assert dumped["owner"] == "team-a"
