"""Smoke test of the benchmark suite: ``python -m benchmarks --quick`` runs and prints the
documented JSON shape. Targets are not asserted (they depend on the machine); correctness
signals the benchmarks carry are (replay identical, synthetic audit logs judged PASS).
Skipped when the SI profile is absent (it is what the benchmarks measure). Nothing here
depends on timing (issue 31): no time limit of its own, only the generous hang guard below,
since on a loaded machine the run takes what it takes. The default suite runs the cheap
benchmarks; every benchmark runs in the heavy tier (`.ci/heavy`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

EXPECTED = {
    "profile_load_validate",
    "si_eval_instant_serial_wall",
    "si_eval_instant_per_scenario",
    "si_eval_careful_serial_wall",
    "si_eval_careful_per_scenario",
    "parallel16_speedup_100ms_agent",
    "runner_cpu_per_scenario_served",
    "replay_full_si_run",
    "verify_audit_1k",
    "verify_audit_10k",
    "verify_scaling_1k_to_10k",
    "peak_rss_full_si_run",
    "yaml_alias_bomb_rejected",
    "audit_index_build_200k",
    "audit_index_queries_200",
    "sim_scale_3000_replicas",
    "si_provision_http_p90",
    "mcp_cycle_rss_growth",
}


def quick_run(oasis_spec_dir: Path, out: Path, *only: str, smoke: bool = False) -> dict[str, Any]:
    """``python -m benchmarks --quick`` (of ``only`` when given; ``--smoke``: no warm-up runs,
    fewer leak cycles): its JSON document, checked to be the one written to ``out`` and to
    have the documented shape."""
    env = {**os.environ, "OASIS_SPEC_DIR": str(oasis_spec_dir)}
    selection = ["--only", ",".join(only)] if only else []
    mode = "--smoke" if smoke else "--quick"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", mode, "--output", str(out), *selection],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    document: dict[str, Any] = json.loads(proc.stdout)
    assert json.loads(out.read_text(encoding="utf-8")) == document
    assert document["quick"] is True and document["repeat"] == 1
    assert document["smoke"] is smoke
    assert document["machine"]["cpus"] >= 1
    for row in document["results"]:
        assert isinstance(row["name"], str) and isinstance(row["unit"], str)
        assert isinstance(row["value"], int | float) and row["min"] <= row["value"] <= row["max"]
        assert row["runs"] >= 1
        if row["target"] is None:
            assert row["met"] is None
        else:
            assert isinstance(row["target"], str) and isinstance(row["met"], bool)
    judged = [r for r in document["results"] if r["met"] is not None]
    assert document["summary"]["targets"] == len(judged)
    assert document["summary"]["missed"] == [r["name"] for r in judged if not r["met"]]
    return document


def test_quick_benchmarks_of_a_selection_print_results(
    si_profile_dir: Path, oasis_spec_dir: Path, tmp_path: Path
) -> None:
    """The default suite's smoke run: the cheap benchmarks, the same document shape."""
    document = quick_run(oasis_spec_dir, tmp_path / "bench.json", "load", "verify", "yaml")
    rows = {row["name"]: row for row in document["results"]}
    assert set(rows) >= {"profile_load_validate", "verify_audit_1k", "yaml_alias_bomb_rejected"}
    assert rows["verify_audit_1k"]["detail"]["status"] == "PASS"
    assert rows["verify_audit_10k"]["detail"]["status"] == "PASS"


@pytest.mark.heavy
@pytest.mark.timeout(1800)
def test_quick_benchmark_prints_results(
    si_profile_dir: Path, oasis_spec_dir: Path, tmp_path: Path
) -> None:
    """Every benchmark (whole SI runs, a served simulator, leak cycles): the heavy tier. The
    figures are not asserted, so the run is a smoke run (no warm-up runs, 20 leak cycles:
    about half the CPU of --quick, issue 31); the same code runs."""
    document = quick_run(oasis_spec_dir, tmp_path / "bench.json", smoke=True)
    rows = {row["name"]: row for row in document["results"]}
    assert set(rows) >= EXPECTED, sorted(EXPECTED - set(rows))
    assert rows["replay_full_si_run"]["detail"]["identical"] is True
    assert rows["verify_audit_1k"]["detail"]["status"] == "PASS"
    assert rows["verify_audit_10k"]["detail"]["status"] == "PASS"
    assert rows["peak_rss_full_si_run"]["value"] > 0
    assert rows["audit_index_build_200k"]["detail"] == {
        "entries": 200_000,
        "writes": 20_000,
        "found": 200,
    }
    assert rows["sim_scale_3000_replicas"]["detail"]["pods"] == 3000
    assert rows["si_provision_http_p90"]["detail"]["left_over_environments"] == 0
    assert set(rows["mcp_cycle_rss_growth"]["detail"]["left_alive"].values()) == {0}
