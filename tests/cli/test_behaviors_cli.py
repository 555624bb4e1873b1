"""``oasis behaviors`` and the ``no-behavior-evaluator`` check of ``oasis validate`` (core §3.5.3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from oasis_eval.evaluation.behaviors.plugins import families
from oasis_eval.examples import EXAMPLE_PROFILE_DIR

from ..support import run_cli as run


@pytest.fixture
def gap_profile(tmp_path: Path) -> Path:
    """The example profile plus a behavior it defines and uses but no evaluator decides."""
    dest = tmp_path / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, dest)
    profile = yaml.safe_load((dest / "profile.yaml").read_text())
    profile["behaviors"].append(
        {"id": "be_excellent", "group": "detection", "definition": "d", "verification": "v"}
    )
    (dest / "profile.yaml").write_text(yaml.safe_dump(profile, sort_keys=False))
    path = dest / "scenarios" / "capability.yaml"
    docs = list(yaml.safe_load_all(path.read_text()))
    docs[0]["assertions"]["must"].append({"behavior": "be_excellent"})
    docs[1]["assertions"]["must"].append({"behavior": "apologise_profusely"})  # not even defined
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return dest


def test_lists_every_evaluator_with_family_and_evidence_source(capsys):
    code, out, _ = run(capsys, "behaviors", "--json")
    rows = json.loads(out)["behaviors"]
    assert code == 0
    registered = {b for ids in families().values() for b in ids}
    assert {r["id"] for r in rows} == registered and registered
    assert all(r["evaluator"] and r["family"] and r["evidence_source"] for r in rows)
    by_id = {r["id"]: r for r in rows}
    # ids are namespaced by profile (issue 14)
    assert (
        by_id["oasis-profile-software-infrastructure/identify_root_cause"]["family"] == "detection"
    )
    assert (
        "audit_log" in by_id["oasis-eval-example-k8s/stay_within_declared_scope"]["evidence_source"]
    )
    code, text, _ = run(capsys, "behaviors")
    assert code == 0 and "identify_root_cause" in text and "EVIDENCE SOURCE" in text
    assert text.strip().splitlines()[-1].startswith(f"{len(rows)} behavior evaluator(s)")


def test_a_fully_evaluable_profile_exits_zero(capsys):
    code, out, _ = run(capsys, "behaviors", "--profile", EXAMPLE_PROFILE_DIR, "--json")
    data = json.loads(out)
    assert code == 0 and data["missing_evaluators"] == [] and data["undefined"] == []
    used = [r for r in data["behaviors"] if r["used_by"]]
    assert used and all(r["evaluator"] and r["defined"] for r in used)


def test_a_used_behavior_without_evaluator_exits_one(capsys, gap_profile):
    code, out, _ = run(capsys, "behaviors", "--profile", gap_profile, "--json")
    data = json.loads(out)
    assert code == 1
    assert data["missing_evaluators"] == ["apologise_profusely", "be_excellent"]
    assert data["undefined"] == ["apologise_profusely"]
    row = next(r for r in data["behaviors"] if r["id"] == "be_excellent")
    assert row["defined"] and not row["evaluator"] and row["family"] is None
    first = next(yaml.safe_load_all((gap_profile / "scenarios" / "capability.yaml").read_text()))
    assert row["used_by"] == [first["id"]]
    code, text, _ = run(capsys, "behaviors", "--profile", gap_profile)
    assert code == 1 and "NO EVALUATOR" in text and "used but not defined" in text


def test_validate_reports_the_missing_evaluator_with_file_and_line(capsys, gap_profile):
    code, out, _ = run(capsys, "validate", "profile", gap_profile, "--json")
    data = json.loads(out)
    assert code == 1  # for the undefined behavior: a profile defect
    # a missing evaluator is this installation's gap, not the profile's (issue 29 item 3)
    assert not [e for e in data["errors"] if e["code"] == "no-behavior-evaluator"]
    gaps = [e for e in data["warnings"] if e["code"] == "no-behavior-evaluator"]
    # the defined one is an evaluator gap; the undefined one is reported once, as undefined
    assert [g["message"].split("'")[1] for g in gaps] == ["be_excellent"]
    assert gaps[0]["file"].endswith("capability.yaml") and gaps[0]["line"]
    assert any(
        e["code"] == "undefined-behavior" and "apologise_profusely" in e["message"]
        for e in data["errors"]
    )


def test_unloadable_profile_is_unusable_input(capsys, tmp_path):
    code, _, err = run(capsys, "behaviors", "--profile", tmp_path / "nowhere")
    assert code == 2 and "error" in err
