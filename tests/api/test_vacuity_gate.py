"""Issue 18 end to end on the SI profile: vacuous PASSes are counted and named in the
verdict line, the verdict file and the report; gate policies change the exit code only."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.api.errors import OptionError
from oasis_eval.engine.policies import PolicyError, parse_min_capability
from oasis_eval.engine.verdict_io import load_verdict
from oasis_eval.exit_codes import EXIT_POLICY

sys.path.insert(0, str(Path(__file__).parent))
from vacuity_agents import Refuser

PI = "infra.safety.pi."


def _run(profile: Path, agent: Any, out: Path, **options: Any) -> Any:
    options.setdefault("safety_only", True)
    return oasis_eval.evaluate(profile, agent, "sim-k8s", out=out, quiet=True, **options)


def _vacuous(result: Any) -> set[str]:
    return {s.scenario_id for s in result.scenarios if s.vacuous}


@pytest.fixture(scope="module")
def refused(si_profile_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _run(si_profile_dir, Refuser(), tmp_path_factory.mktemp("r") / "run")


def test_a_refusing_agent_is_vacuous_everywhere_and_says_so(refused: Any) -> None:
    passed = refused.verdict.safety_details.passed
    # the verdict is unchanged; every PASS vacuous fails the default vacuity gate (issue 26)
    assert refused.safety == "PASS" and refused.exit_code == EXIT_POLICY
    assert len(_vacuous(refused)) == passed > 0
    assert f"{passed} of {passed} PASS are vacuous" in refused.summary()
    text = (refused.run_dir / "verdict.yaml").read_text(encoding="utf-8")
    assert f"vacuous_passes:\n      count: {passed}" in text
    assert "VACUOUS:" in (refused.run_dir / "report.md").read_text(encoding="utf-8")
    load_verdict(refused.run_dir / "verdict.yaml")  # still a valid verdict document


def test_listing_pods_then_refusing_is_vacuous_on_the_injection_scenarios(
    si_profile_dir: Path, tmp_path: Path
) -> None:
    result = _run(si_profile_dir, Refuser(list_pods=True), tmp_path / "run")
    injection = {s.scenario_id for s in result.scenarios if s.scenario_id.startswith(PI)}
    assert injection and injection <= _vacuous(result)


def test_a_competent_agent_is_flagged_nowhere(si_profile_dir: Path, tmp_path: Path) -> None:
    result = _run(si_profile_dir, "builtin:careful", tmp_path / "run", fail_on_vacuous=True)
    assert result.safety == "PASS" and not _vacuous(result) and result.exit_code == 0
    assert "vacuous_passes" not in (result.run_dir / "verdict.yaml").read_text(encoding="utf-8")


def test_fail_on_vacuous_exits_with_the_policy_code(si_profile_dir: Path, tmp_path: Path) -> None:
    result = _run(si_profile_dir, Refuser(), tmp_path / "run", fail_on_vacuous=True)
    assert result.safety == "PASS" and result.exit_code == EXIT_POLICY
    junit = (result.run_dir / "junit.xml").read_text(encoding="utf-8")
    assert 'type="GATE_POLICY"' in junit and 'name="--fail-on-vacuous"' in junit
    report = (result.run_dir / "report.md").read_text(encoding="utf-8")
    assert "GATE POLICY FAILED" in report and "--fail-on-vacuous" in report


def test_min_capability_fails_under_the_threshold(si_profile_dir: Path, tmp_path: Path) -> None:
    result = _run(
        si_profile_dir,
        Refuser(),
        tmp_path / "run",
        safety_only=False,
        filters=["infra.safety.pi.*", "infra.capability.da.*"],
        min_capability=["0.9", "reasoning=0.5"],
    )
    assert result.safety == "PASS" and result.exit_code == EXIT_POLICY
    junit = (result.run_dir / "junit.xml").read_text(encoding="utf-8")
    assert "below --min-capability overall=0.90" in junit
    assert 'name="--min-capability reasoning=0.50"' in junit


def test_min_capability_is_met_by_a_competent_agent(si_profile_dir: Path, tmp_path: Path) -> None:
    result = _run(
        si_profile_dir,
        "builtin:careful",
        tmp_path / "run",
        safety_only=False,
        filters=["infra.safety.pi.*", "infra.capability.da.*"],
        min_capability={"overall": 0.5},
    )
    assert result.safety == "PASS" and result.exit_code == 0


def test_min_capability_values_are_checked() -> None:
    assert parse_min_capability(["0.7", "reasoning=0.8"]) == {"overall": 0.7, "reasoning": 0.8}
    for bad in (["1.5"], ["x"], ["speed=0.5"]):
        with pytest.raises(PolicyError):
            parse_min_capability(bad)


def test_a_bad_min_capability_is_a_usage_error(si_profile_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(OptionError):
        _run(si_profile_dir, Refuser(), tmp_path / "run", min_capability=["speed=0.5"])


def test_the_run_config_sets_the_policies(si_profile_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "oasis.yaml"
    config.write_text(
        "evaluation:\n  fail_on_vacuous: true\n  min_capability: 0.5\n"
        "  filters: [infra.safety.pi.*]\n",
        encoding="utf-8",
    )
    result = _run(si_profile_dir, Refuser(), tmp_path / "run", config=config)
    assert result.record.inputs.fail_on_vacuous
    assert result.record.inputs.min_capability == {"overall": 0.5}
    assert result.exit_code == EXIT_POLICY
