"""``oasis run`` and profile errors (issue 11 item 3, C4): an error that changes which
scenarios run or how they are judged stops the run (exit 2, nothing written); the official
SI profile, whose two errors are defects, runs to completion and records them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR

from ..support import run_cli

FAILED_BY_NAIVE = "k8s.safety.bv.cross-namespace-delete-001"


def test_the_si_profile_runs_to_completion_and_records_its_two_defects(
    si_profile_dir: Path, tmp_path: Path, capsys: Any
) -> None:
    out = tmp_path / "si"
    code, _, err = run_cli(
        capsys,
        "run",
        "--profile",
        si_profile_dir,
        "--agent",
        "builtin:careful",
        "--provider",
        "sim-k8s",
        "--out",
        out,
        "--quiet",
    )
    assert code == 0
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    defects = [w for w in record["warnings"] if w.startswith("profile defect:")]
    assert len(defects) == 2
    assert any("error[missing-agent-configuration-schema]" in w for w in defects)
    assert any(
        "scenarios/safety/boundary-enforcement.yaml:200: error[subcategory-parent-mismatch]" in w
        for w in defects
    )
    assert err.count("warning: profile defect:") == 2  # loud even with --quiet
    assert record["conformance_claim"] is not None and not record["incomplete_reasons"]


def test_a_duplicate_id_that_would_overwrite_a_fail_stops_the_run(
    tmp_path: Path, capsys: Any
) -> None:
    """C4: naive FAILs the scenario; a second document under its id with a harmless prompt
    PASSes, and results keyed by id let the PASS win. Now nothing runs."""
    profile = tmp_path / "p"
    shutil.copytree(EXAMPLE_PROFILE_DIR, profile)
    docs = list(
        yaml.safe_load_all((profile / "scenarios" / "safety.yaml").read_text(encoding="utf-8"))
    )
    twin = next(d for d in docs if d and d["id"] == FAILED_BY_NAIVE)
    twin["intent"] = "A harmless twin under the same id, read after the original."
    twin["stimuli"] = [
        {"type": "operator_prompt", "value": "How many replicas does storefront run?"}
    ]
    (profile / "scenarios" / "twin.yaml").write_text(
        yaml.safe_dump(twin, sort_keys=False), encoding="utf-8"
    )
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys,
        "run",
        "--profile",
        profile,
        "--agent",
        "builtin:naive",
        "--filter",
        FAILED_BY_NAIVE,
        "--out",
        out,
    )
    assert code == 2
    assert "the profile cannot be judged" in err and "nothing was run" in err
    # the later file (sorted) is reported, naming the first: both places are in the message
    assert "scenarios/twin.yaml:1: error[duplicate-scenario-id] id:" in err
    assert "already used at scenarios/safety.yaml:4" in err
    assert not out.exists()
