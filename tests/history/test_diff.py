"""``oasis diff`` and :func:`oasis_eval.history.diff.diff_runs` (issue 19 item 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oasis_eval.engine.record import RunRecord
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.history.diff import ChangeKind, diff_runs
from oasis_eval.history.runs import load_record
from oasis_eval.spec.common import VerdictStatus

from ..support import run_cli


def _failed(record: RunRecord) -> set[str]:
    return {s.scenario_id for s in record.scenarios if s.status is VerdictStatus.FAIL}


def test_careful_to_naive_names_every_regressed_scenario(
    si_runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    careful, naive = load_record(si_runs["careful"]), load_record(si_runs["naive"])
    failed = _failed(naive) - _failed(careful)
    assert failed, "the naive agent fails SI safety scenarios the careful one passes"
    code, out, _ = run_cli(capsys, "diff", si_runs["careful"], si_runs["naive"])
    assert code == 1  # a safety regression
    for scenario_id in failed:
        assert scenario_id in out
    assert "PASS -> FAIL" in out and "violated:" in out
    code, out, _ = run_cli(capsys, "diff", si_runs["careful"], si_runs["naive"], "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["safety_regressed"] and data["verdict_regressed"]
    regressed = {c["scenario_id"] for c in data["scenarios"] if c["safety_regression"]}
    assert regressed == failed
    assert all(
        c["kind"] == "regression" and c["why"][0] == "PASS -> FAIL" and len(c["why"]) > 1
        for c in data["scenarios"]
        if c["scenario_id"] in failed
    )
    assert data["overall"]["before"] is not None and data["overall"]["after"] is None


def test_naive_to_careful_is_an_improvement_and_exits_zero(
    si_runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "diff", si_runs["naive"], si_runs["careful"], "--format", "json")
    data = json.loads(out)
    assert code == 0 and not data["safety_regressed"]
    improved = {c["scenario_id"] for c in data["scenarios"] if c["kind"] == "improvement"}
    assert improved == _failed(load_record(si_runs["naive"]))


def _copy(record: RunRecord) -> RunRecord:
    return record.model_copy(deep=True)


def _executed(record: RunRecord, classification: str) -> list[int]:
    return [
        i
        for i, s in enumerate(record.scenarios)
        if s.classification == classification and s.state is ScenarioState.executed
    ]


def test_pass_to_provider_failure_and_vacuity_are_regressions_not_safety(
    example_run: Path,
) -> None:
    base = load_record(example_run)
    after = _copy(base)
    first, second = _executed(after, "safety")[:2]
    after.scenarios[first].status = VerdictStatus.PROVIDER_FAILURE
    after.scenarios[second].vacuous = True
    after.scenarios[second].vacuous_reason = "the agent never met the stimulus"
    result = diff_runs(base, after, "a", "b")
    regressions = {c.scenario_id: c for c in result.of_kind(ChangeKind.regression)}
    assert set(regressions) == {
        base.scenarios[first].scenario_id,
        base.scenarios[second].scenario_id,
    }
    assert not result.safety_regressed
    vacuous = regressions[base.scenarios[second].scenario_id]
    assert vacuous.why[0] == "PASS -> PASS (vacuous)"
    assert "vacuous: the agent never met the stimulus" in vacuous.why
    back = diff_runs(after, base, "b", "a")  # PROVIDER_FAILURE -> PASS: a PASS earned again
    assert {c.scenario_id for c in back.of_kind(ChangeKind.improvement)} == set(regressions)


def test_a_lower_capability_score_is_a_regression_with_deltas(example_run: Path) -> None:
    base = load_record(example_run)
    assert base.verdict.capability is not None
    after = _copy(base)
    index = _executed(after, "capability")[0]
    scenario = after.scenarios[index]
    assert scenario.score is not None and scenario.score > 0
    scenario.score = 0.0
    category = next(iter(after.verdict.capability.domain_categories.values()))
    category.score = max(0.0, category.score - 0.25)
    after.verdict.capability.core_dimensions.reasoning = 0.5
    result = diff_runs(base, after, "a", "b")
    (change,) = result.of_kind(ChangeKind.regression)
    assert change.scenario_id == scenario.scenario_id and not change.safety_regression
    reasoning = next(d for d in result.dimensions if d.name == "reasoning")
    assert reasoning.after == 0.5 and reasoning.delta is not None and reasoning.delta < 0
    assert result.overall.delta is not None and result.overall.delta < 0
    assert any(d.delta is not None and d.delta < 0 for d in result.categories)


def test_a_new_fail_is_a_safety_regression_even_unmatched(example_run: Path) -> None:
    """A scenario only the candidate holds, FAILing: matched by id, nothing to compare, still
    a new safety failure; different profile versions warn."""
    base = load_record(example_run)
    after = _copy(base)
    extra = after.scenarios[_executed(after, "safety")[0]].model_copy(deep=True)
    extra.scenario_id, extra.status = "zz.custom.extra-001", VerdictStatus.FAIL
    after.scenarios.append(extra)
    after.verdict.metadata.domain_profile_version = "9.9.9"
    result = diff_runs(base, after, "a", "b")
    (change,) = result.safety_regressions
    assert (change.scenario_id, change.before, change.after) == (
        "zz.custom.extra-001",
        "ABSENT",
        "FAIL",
    )
    assert any("different profile versions" in w for w in result.warnings)


def test_fail_on_any_exits_one_without_a_safety_regression(
    example_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = load_record(example_run)
    index = _executed(record, "capability")[0]
    record.scenarios[index].score = 0.0
    worse = tmp_path / "worse"
    worse.mkdir()
    (worse / "run.json").write_text(record.model_dump_json(), encoding="utf-8")
    code, out, _ = run_cli(capsys, "diff", example_run, worse)
    assert code == 0 and "Regressions (1)" in out
    code, _, _ = run_cli(capsys, "diff", example_run, worse, "--fail-on", "any")
    assert code == 1


def test_a_directory_that_is_not_a_run_names_the_missing_file(
    example_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "diff", example_run, tmp_path)
    assert code == 2 and "run.json is missing" in err and str(tmp_path) in err
    code, _, err = run_cli(capsys, "diff", tmp_path / "nowhere", example_run)
    assert code == 2 and "no such directory" in err
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    code, _, err = run_cli(capsys, "diff", example_run, tmp_path)
    assert code == 2 and "run.json is not a run record" in err


def test_a_compressed_run_record_is_read(example_run: Path, tmp_path: Path) -> None:
    import gzip

    (tmp_path / "run.json.gz").write_bytes(gzip.compress((example_run / "run.json").read_bytes()))
    assert load_record(tmp_path) == load_record(example_run)


def test_scores_of_different_tiers_are_not_compared(example_run: Path) -> None:
    """Core §4.3: capability scores go with their tier; scores of two tiers are not comparable."""
    base = load_record(example_run)
    assert base.verdict.capability is not None
    after = _copy(base)
    assert after.verdict.capability is not None
    after.verdict.capability.tier = base.verdict.capability.tier + 1
    after.verdict.capability.core_dimensions.reasoning = 0.1
    result = diff_runs(base, after, "a", "b")
    assert (result.before.tier, result.after.tier) == (
        base.verdict.capability.tier,
        base.verdict.capability.tier + 1,
    )
    assert any("not comparable (core §4.3)" in w for w in result.warnings)
    assert all(d.delta is None for d in [result.overall, *result.dimensions, *result.categories])
    assert next(d for d in result.dimensions if d.name == "reasoning").after == 0.1
    same = diff_runs(base, base, "a", "a")
    assert not same.warnings and same.overall.delta == 0.0


def test_a_run_altered_after_the_fact_is_refused(
    example_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A diff of an edited run proves nothing: exit 5 naming the file, as ``oasis replay``."""
    import shutil

    altered = tmp_path / "altered"
    shutil.copytree(example_run, altered)
    record = altered / "run.json"
    record.write_text(record.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "diff", example_run, altered)
    assert code == 5 and "TAMPERED: run B" in err and "modified: run.json" in err and not out
    code, _, err = run_cli(capsys, "diff", example_run, example_run)
    assert code == 0 and "run A integrity: every file matches the manifest" in err


def test_runs_of_different_profiles_warn_and_match_by_id(
    example_run: Path, si_runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "diff", example_run, si_runs["naive"], "--format", "json")
    data = json.loads(out)
    assert any(w.startswith("different profiles") for w in data["warnings"])
    outcomes = {(c["before"] == "ABSENT", c["after"] == "ABSENT") for c in data["scenarios"]}
    assert outcomes == {(True, False), (False, True)}  # no id in common: nothing matched
    failed = _failed(load_record(si_runs["naive"]))
    assert {c["scenario_id"] for c in data["scenarios"] if c["safety_regression"]} == failed
    assert code == 1


def test_all_lists_the_unchanged_scenarios_too(
    example_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = load_record(example_run)
    _, out, _ = run_cli(capsys, "diff", example_run, example_run)
    assert "Unchanged" not in out and "0 regression(s) (0 safety)" in out
    _, out, _ = run_cli(capsys, "diff", example_run, example_run, "--all")
    assert f"Unchanged ({len(record.scenarios)})" in out
    assert all(s.scenario_id in out for s in record.scenarios)
