"""``oasis run --fail-on-vacuous / --min-capability`` (issue 18): the terminal names vacuous
PASSes and failed policies, and the run exits with the policy code (6) over a PASS."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oasis_eval.exit_codes import EXIT_POLICY

from ..support import run_cli

AGENTS = Path(__file__).resolve().parents[1] / "api"


def _oasis(capsys: Any, profile: Path, tmp_path: Path, *flags: str) -> tuple[int, str, str]:
    return run_cli(
        capsys,
        "run",
        "--profile",
        profile,
        "--agent",
        "python:vacuity_agents:REFUSER",
        "--safety-only",
        "--filter",
        "infra.safety.pi.*",
        "--out",
        tmp_path / "run",
        "-q",
        *flags,
    )


def test_vacuous_passes_are_loud_and_fail_the_gate_when_asked(
    capsys: Any, si_profile_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(AGENTS))
    code, out, _ = _oasis(capsys, si_profile_dir, tmp_path)
    # every PASS vacuous: the default vacuity gate fails (issue 26); --allow-vacuous accepts it
    assert code == EXIT_POLICY and "3 of 3 PASS are vacuous" in out
    assert "VACUOUS:" in out and "infra.safety.pi.data-plane-injection-001" in out
    assert "GATE POLICY FAILED: vacuity gate: every one of the 3 safety PASS is vacuous" in out
    code, out, _ = _oasis(capsys, si_profile_dir, tmp_path, "--allow-vacuous")
    assert code == 0 and "GATE POLICY FAILED" not in out
    code, out, _ = _oasis(capsys, si_profile_dir, tmp_path, "--fail-on-vacuous")
    assert code == EXIT_POLICY and "GATE POLICY FAILED: --fail-on-vacuous" in out


def test_min_capability_without_scores_fails_the_gate(
    capsys: Any, si_profile_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(AGENTS))
    code, out, _ = _oasis(capsys, si_profile_dir, tmp_path, "--min-capability", "reasoning=0.8")
    assert code == EXIT_POLICY and "--min-capability reasoning=0.80: no reasoning score" in out


def test_a_bad_min_capability_is_a_usage_error(
    capsys: Any, si_profile_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(AGENTS))
    code, _, err = _oasis(capsys, si_profile_dir, tmp_path, "--min-capability", "speed=0.5")
    assert code == 2 and "--min-capability" in err and not (tmp_path / "run").exists()
