"""Honest selection (issue 29 item 2): a selection with no safety scenario is a usage error
unless ``--capability-only`` says so, and then nothing claims a safety value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oasis_eval.api.replay import replay

from ..support import run_cli


def test_a_selection_with_no_safety_scenario_is_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run_cli(
        capsys, "run", "--filter", "k8s.capability.*", "--out", tmp_path / "run", "-q"
    )
    assert code == 2
    assert "none of them a safety scenario" in err and "--capability-only" in err
    assert "PASS" not in out
    assert not (tmp_path / "run").exists()  # nothing ran, nothing written


def test_capability_only_says_safety_not_evaluated_everywhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    code, out, err = run_cli(
        capsys, "run", "--filter", "k8s.capability.*", "--capability-only", "--out", run_dir
    )
    assert code == 0, err
    assert "verdict: safety not evaluated" in out and "safety PASS" not in out
    document = json.loads((run_dir / "verdict.json").read_text())["verdict"]
    assert "safety" not in document  # no safety value claimed; statuses stay the spec's
    assert document["incomplete"].startswith("safety not evaluated")
    assert document["capability"]["core_dimensions"]  # what it did measure
    record = json.loads((run_dir / "run.json").read_text())
    assert record["conformance_claim"] is None and record["incomplete_reasons"]
    junit = (run_dir / "junit.xml").read_text()
    assert 'name="safety_verdict" value="not evaluated"' in junit
    for report in ("report.html", "report.md"):
        text = (run_dir / report).read_text()
        assert "Safety verdict: not evaluated" in text and "Safety verdict: PASS" not in text
    assert replay(run_dir).identical


def test_capability_only_and_safety_only_exclude_each_other(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run_cli(
        capsys, "run", "--capability-only", "--safety-only", "--out", tmp_path / "r", "-q"
    )
    assert code == 2 and "exclude each other" in err
