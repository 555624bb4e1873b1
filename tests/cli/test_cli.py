"""The ``oasis`` command end to end: exit codes, messages, never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR

from ..support import run_cli

run = run_cli  # oasis ARGS in process: (exit code, stdout, stderr)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    dest = tmp_path / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, dest)
    return dest


def test_default_main_job_validates_the_builtin_example(capsys):
    code, out, _ = run(capsys, "validate", "profile")
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("valid: 0 error(s), 0 warning(s)")


def test_json_result_has_counts(capsys):
    code, out, _ = run(capsys, "validate", "profile", EXAMPLE_PROFILE_DIR, "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["layout"] == "native"
    assert data["counts"]["scenarios"]["safety"] > 0 and data["counts"]["behaviors"] > 0
    assert data["errors"] == [] and data["warnings"] == []


def _edit_scenario(path: Path, index: int, edit) -> None:  # type: ignore[no-untyped-def]
    docs = list(yaml.safe_load_all(path.read_text()))
    edit(docs[index])
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))


def _single_error(capsys, profile: Path) -> dict:
    code, out, _ = run(capsys, "validate", "profile", profile, "--json")
    data = json.loads(out)
    assert code == 1, data
    assert len(data["errors"]) == 1, data["errors"]
    return data["errors"][0]


def test_bad_yaml_is_unusable_input(capsys, example):
    target = example / "scenarios" / "safety.yaml"
    target.write_text(target.read_text() + "\nid: [unclosed\n")
    code, _, err = run(capsys, "validate", "profile", example)
    assert code == 2
    assert "safety.yaml" in err and "invalid YAML" in err


def test_unknown_classification(capsys, example):
    _edit_scenario(
        example / "scenarios" / "safety.yaml", 0, lambda d: d.update(classification="security")
    )
    error = _single_error(capsys, example)
    assert error["code"] == "invalid-value" and error["field"] == "classification"
    assert error["file"] == "scenarios/safety.yaml" and error["line"] is not None


def test_undefined_behavior(capsys, example):
    def edit(doc):  # type: ignore[no-untyped-def]
        doc.setdefault("assertions", {}).setdefault("must", []).append(
            {"behavior": "apologise_profusely"}
        )

    _edit_scenario(example / "scenarios" / "capability.yaml", 0, edit)
    error = _single_error(capsys, example)
    assert error["code"] == "undefined-behavior" and "apologise_profusely" in error["message"]


def test_dangling_library_ref(capsys, example):
    def edit(doc):  # type: ignore[no-untyped-def]
        doc["stimuli"].append({"type": "operator_prompt", "library_ref": "LIB-NOPE-404"})

    _edit_scenario(example / "scenarios" / "safety.yaml", 0, edit)
    error = _single_error(capsys, example)
    assert error["code"] == "dangling-library-ref" and "LIB-NOPE-404" in error["message"]


def test_duplicate_id(capsys, example):
    path = example / "scenarios" / "capability.yaml"
    docs = list(yaml.safe_load_all(path.read_text()))
    copy = dict(docs[0], intent="A second, distinct intent for the duplicated scenario copy.")
    path.write_text(yaml.safe_dump_all([*docs, copy], sort_keys=False))
    error = _single_error(capsys, example)
    assert error["code"] == "duplicate-scenario-id" and docs[0]["id"] in error["message"]


def test_missing_profile_path(capsys, tmp_path):
    code, _, err = run(capsys, "validate", "profile", tmp_path / "nowhere")
    assert code == 2 and "no such file or directory" in err


def test_missing_scenario_file(capsys, tmp_path):
    code, _, err = run(capsys, "validate", "scenario", tmp_path / "absent.yaml")
    assert code == 2 and "file not found" in err


def test_directory_without_profile(capsys, tmp_path):
    code, _, err = run(capsys, "validate", "profile", tmp_path)
    assert code == 2 and "no profile found" in err


def test_validate_scenario_against_profile(capsys):
    files = sorted((EXAMPLE_PROFILE_DIR / "scenarios").glob("*.yaml"))
    code, out, _ = run(
        capsys, "validate", "scenario", *files, "--profile", EXAMPLE_PROFILE_DIR, "--json"
    )
    data = json.loads(out)
    # the files replace the profile's own copies of those scenarios: no self-collision
    assert code == 0, data["errors"]
    assert data["counts"]["scenarios"]["total"] == 13


def test_validate_scenario_reports_undefined_behavior(capsys, example):
    _edit_scenario(
        example / "scenarios" / "safety.yaml",
        0,
        lambda d: d["assertions"].setdefault("must", []).append({"behavior": "nope_x"}),
    )
    code, out, _ = run(
        capsys,
        "validate",
        "scenario",
        example / "scenarios" / "safety.yaml",
        "--profile",
        EXAMPLE_PROFILE_DIR,
    )
    assert code == 1 and "undefined-behavior" in out


def test_usage_error_exit_code(capsys):
    code, _, _ = run(capsys, "validate", "nonsense")
    assert code == 2


def test_schema_commands_emit_json_schema(capsys):
    for name in ("scenario", "profile", "verdict"):
        code, out, _ = run(capsys, "schema", name)
        schema = json.loads(out)
        assert (
            code == 0
            and schema["$schema"].endswith("2020-12/schema")
            and schema["type"] == "object"
        )
    code, out, _ = run(capsys, "schema", "verdict")
    assert json.loads(out)["required"] == ["verdict"]


def test_quality_json(capsys):
    code, out, _ = run(capsys, "quality", EXAMPLE_PROFILE_DIR, "--json")
    data = json.loads(out)
    assert code == 0 and "negative_testing" in data and "difficulty_distribution" in data


def test_profile_export_and_validate_the_copy(capsys, tmp_path, si_profile_dir):
    code, out, _ = run(capsys, "profile", "export", si_profile_dir, "--to", tmp_path / "si")
    assert code == 0 and "50 scenarios" in out
    code, out, _ = run(capsys, "validate", "profile", tmp_path / "si", "--json")
    data = json.loads(out)
    assert data["counts"]["scenarios"] == {"safety": 21, "capability": 29, "total": 50}
    assert data["counts"]["behaviors"] == 107


def test_profile_export_refuses_when_loading_lost_content(capsys, tmp_path, example):
    _edit_scenario(example / "scenarios" / "safety.yaml", 0, lambda d: d.pop("name"))
    code, out, err = run(capsys, "profile", "export", example, "--to", tmp_path / "out")
    assert code == 1 and "missing-field" in out and "would lose" in err
    assert not (tmp_path / "out").exists()


def test_si_profile_validation_reports_its_real_defects(capsys, si_profile_dir):
    code, out, _ = run(capsys, "validate", "profile", si_profile_dir, "--json")
    data = json.loads(out)
    assert code == 1
    assert data["counts"]["scenarios"] == {"safety": 21, "capability": 29, "total": 50}
    codes = {e["code"] for e in data["errors"]}
    assert "missing-agent-configuration-schema" in codes
    assert any(w["code"] == "version-drift" for w in data["warnings"])
    assert all(e["file"] for e in data["errors"])
