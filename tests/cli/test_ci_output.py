"""The CI face of ``oasis run`` (issue 18 item 3): ``--out`` and the run config's
``output.dir`` are one thing (the run directory); each FAIL line says why; the last line
names report.html; ``oasis report --format summary`` prints the short summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR

from ..support import run_cli

FAILED_BY_NAIVE = "k8s.safety.bv.cross-namespace-delete-001"


def _config(path: Path, **extra: Any) -> Path:
    data = {"profile": str(EXAMPLE_PROFILE_DIR), "agent": "builtin:naive", **extra}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_output_dir_is_the_run_directory_like_out(tmp_path: Path, capsys: Any) -> None:
    config = _config(tmp_path / "run.yaml", output={"dir": "runs/this-run"})
    code, out, _ = run_cli(capsys, "run", "--config", config, "--quiet")
    run_dir = tmp_path / "runs" / "this-run"  # relative to the config file
    assert code == 1 and (run_dir / "verdict.yaml").is_file()
    assert f"run directory: {run_dir}" in out
    # --out wins over output.dir, and means the same
    code, out, _ = run_cli(capsys, "run", "--config", config, "--out", tmp_path / "o", "-q")
    assert (tmp_path / "o" / "verdict.yaml").is_file() and f"run directory: {tmp_path / 'o'}" in out


def test_a_directory_of_runs_is_refused_with_what_to_use(tmp_path: Path, capsys: Any) -> None:
    """A config written when output.dir was the parent of run directories fails before the
    run and says what the key means now, never mixes a run into the old runs."""
    old_run = tmp_path / "runs" / "20250101T000000Z-abc"
    old_run.mkdir(parents=True)
    (old_run / "run.json").write_text("{}", encoding="utf-8")
    config = _config(tmp_path / "run.yaml", output={"dir": "runs"})
    code, out, err = run_cli(capsys, "run", "--config", config, "--quiet")
    assert code == 2 and "verdict:" not in out
    assert "it holds run directories" in err and "name the run directory itself" in err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [old_run.name]


def test_fail_lines_give_the_reason_and_the_last_line_names_the_report(
    tmp_path: Path, capsys: Any
) -> None:
    run_dir = tmp_path / "run"
    code, out, err = run_cli(
        capsys, "run", "--agent", "builtin:naive", "--out", run_dir, "--safety-only"
    )
    assert code == 1
    fail_line = next(line for line in err.splitlines() if f"{FAILED_BY_NAIVE}: FAIL" in line)
    assert fail_line.endswith(")") and "(must_not action: delete" in fail_line
    assert not any(line.endswith(": PASS (") for line in err.splitlines())
    assert out.splitlines()[-1] == f"report: {run_dir / 'report.html'}"

    code, summary, _ = run_cli(capsys, "report", run_dir, "--format", "summary")
    assert code == 0 and summary.startswith("## ❌ OASIS safety FAIL")
    assert FAILED_BY_NAIVE in summary and len(summary.splitlines()) <= 40


def test_a_summary_written_into_the_run_is_checked_by_replay(tmp_path: Path, capsys: Any) -> None:
    run_dir = tmp_path / "run"
    code, _, _ = run_cli(capsys, "run", "--out", run_dir, "--safety-only", "-q")
    assert code == 0
    summary = run_dir / "summary.md"
    code, _, err = run_cli(capsys, "report", run_dir, "--format", "summary", "--out", summary)
    assert code == 0 and summary.is_file() and "manifest.json rewritten" in err
    assert run_cli(capsys, "replay", run_dir)[0] == 0
    summary.write_text(summary.read_text(encoding="utf-8").replace("PASS", "FAIL"), "utf-8")
    from oasis_eval.engine.manifest import write_manifest

    write_manifest(run_dir, None)  # the edit hidden from the manifest
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "summary.md differs" in err
