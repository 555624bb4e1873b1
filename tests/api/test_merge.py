"""Sharded runs merged (api/merge.py, issue 30 item 4): the example profile split four ways
in each phase and merged gives the verdict, scores, record and reports of one run, run
metadata aside; shards that are not one run cut apart are refused (exit 2), a tampered shard
is exit 5, and a shard alone claims nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.api.merge import ShardTampered, merge_shards
from oasis_eval.engine.shard import ShardError

from ..support import run_cli

FILES = ("verdict.json", "verdict.yaml", "run.json", "report.md", "report.html", "junit.xml")


def normalised(text: str) -> str:
    """``text`` without what differs between two runs of the same inputs: ids, clocks,
    durations, per-run redaction keys, agent seconds and the merge's own note."""
    text = re.sub(r"\[REDACTED:[0-9a-f]{12}", "[REDACTED:k", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:?\d\d:?\d\d(\.\d+)?Z", "T", text)
    text = re.sub(r"PT[0-9.]+S", "D", text)
    text = re.sub(r"\b[0-9a-f]{12}\b", "ID", text)
    text = re.sub(r'(time|agent_seconds)(="|": )[0-9.]+', r"\1\2N", text)
    text = re.sub(r"\d+\.\d+ ?s\b", "S", text)
    return text


def _run(out: Path, **options: Any) -> Any:
    return oasis_eval.evaluate(agent="builtin:careful", out=out, quiet=True, **options)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("shards")
    one = _run(base / "one")
    safety = [_run(base / f"s{i}", shard=f"{i}/4") for i in range(1, 5)]
    phase1 = merge_shards([r.run_dir for r in safety], base / "phase1")
    capability = [
        _run(base / f"c{i}", shard=f"{i}/4", phase="capability", after=phase1.run_dir)
        for i in range(1, 5)
    ]
    final = merge_shards([r.run_dir for r in reversed(capability)], base / "final")
    return {
        "base": base,
        "one": one,
        "safety": safety,
        "phase1": phase1,
        "capability": capability,
        "final": final,
    }


def test_four_shards_merged_are_one_run(runs: dict[str, Any]) -> None:
    one, final = runs["one"].run_dir, runs["final"].run_dir
    assert runs["one"].exit_code == runs["final"].exit_code == 0
    for name in FILES:
        ours = (final / name).read_text()
        if name == "run.json":  # the merge records how it was made: its own metadata
            data = json.loads(ours)
            assert data.pop("merge")["phase"] == "capability"
            ours = json.dumps(data, indent=2)
            theirs = json.dumps(json.loads((one / name).read_text()), indent=2)
        else:
            theirs = (one / name).read_text()
        assert normalised(ours) == normalised(theirs), name
    assert json.loads((final / "run.json").read_text())["conformance_claim"] is not None
    report = oasis_eval.replay(final)
    assert report.identical and report.exit_code == 0


def test_each_shard_is_read_once_what_replay_verified_is_merged(
    runs: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``oasis merge`` reuses what replay read and verified (issue 30): a second read of a
    shard would cost as much again, and could read files other than the ones verified."""
    from oasis_eval.engine import rundir

    reads: list[Path] = []
    real = rundir.load_run

    def counted(path: Path, *args: Any, **kwargs: Any) -> Any:
        reads.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(rundir, "load_run", counted)
    monkeypatch.setattr("oasis_eval.engine.replay.load_run", counted)
    monkeypatch.setattr("oasis_eval.api.merge.load_run", counted, raising=False)
    shards = [r.run_dir for r in runs["safety"]]
    merged = merge_shards(shards, tmp_path / "merged")
    assert sorted(reads) == sorted(shards)
    report = oasis_eval.replay(shards[0])
    assert report.profile is not None and report.evidence
    assert (report.record, report.profile, report.evidence) == rundir.load_run(shards[0])
    assert merged.exit_code == runs["phase1"].exit_code


def test_every_shard_ran_its_slice_alone_and_claims_nothing(runs: dict[str, Any]) -> None:
    seen: list[str] = []
    for result in runs["safety"]:
        record = json.loads((result.run_dir / "run.json").read_text())
        assert record["conformance_claim"] is None
        assert any(
            "shard" in r and "no conformance claim" in r for r in record["incomplete_reasons"]
        )
        mine = record["inputs"]["shard"]["scenarios"]
        executed = [s["scenario_id"] for s in record["scenarios"] if s["state"] != "not_selected"]
        assert set(executed) == set(mine)
        seen += mine
    assert len(seen) == len(set(seen))
    assert oasis_eval.replay(runs["safety"][0].run_dir).identical  # a shard replays alone


def test_phase1_merged_waits_for_the_capability_stage(runs: dict[str, Any]) -> None:
    record = runs["phase1"].record
    assert record.verdict.capability is None and record.conformance_claim is None
    assert any("Phase 2 (capability) has not run yet" in r for r in record.incomplete_reasons)
    capability = json.loads((runs["capability"][0].run_dir / "run.json").read_text())
    assert capability["inputs"]["shard"]["after"] == record.run_id


def test_a_missing_or_duplicated_shard_is_a_usage_error(runs: dict[str, Any], capsys) -> None:  # type: ignore[no-untyped-def]
    dirs = [r.run_dir for r in runs["safety"]]
    with pytest.raises(ShardError, match=r"shard\(s\) 3/4 missing"):
        merge_shards([dirs[0], dirs[1], dirs[3]], runs["base"] / "m-missing")
    code, _, err = run_cli(
        capsys, "merge", dirs[0], dirs[1], dirs[1], dirs[3], "--out", runs["base"] / "m-dup"
    )
    assert code == 2 and "shard 2/4 given twice" in err
    assert not (runs["base"] / "m-dup").exists()


def test_shards_of_another_phase_or_run_are_refused(runs: dict[str, Any]) -> None:
    mixed = [runs["safety"][0].run_dir, *(r.run_dir for r in runs["capability"][1:])]
    with pytest.raises(ShardError, match="phase"):
        merge_shards(mixed, runs["base"] / "m-mixed")
    with pytest.raises(ShardError, match="not a shard run"):
        merge_shards([runs["one"].run_dir], runs["base"] / "m-one")


def test_a_shard_run_with_other_options_is_refused(runs: dict[str, Any]) -> None:
    other = _run(runs["base"] / "s4-tier", shard="4/4", evaluator="someone else")
    dirs = [r.run_dir for r in runs["safety"][:3]] + [other.run_dir]
    with pytest.raises(ShardError, match="options"):
        merge_shards(dirs, runs["base"] / "m-options")


def test_a_tampered_shard_is_exit_5(runs: dict[str, Any], capsys) -> None:  # type: ignore[no-untyped-def]
    base = runs["base"]
    copy = base / "s2-tampered"
    shutil.copytree(runs["safety"][1].run_dir, copy)
    verdict = copy / "verdict.yaml"
    verdict.write_text(verdict.read_text().replace("PASS", "FAIL", 1))
    dirs = [runs["safety"][0].run_dir, copy, *(r.run_dir for r in runs["safety"][2:])]
    with pytest.raises(ShardTampered):
        merge_shards(dirs, base / "m-tampered")
    code, _, err = run_cli(capsys, "merge", *dirs, "--out", base / "m-tampered")
    assert code == 5 and "s2-tampered" in err


def test_the_capability_stage_needs_a_merged_phase1_pass(runs: dict[str, Any]) -> None:
    after = runs["phase1"].run_dir
    with pytest.raises(ShardError, match="another agent"):
        oasis_eval.evaluate(
            agent="builtin:naive",
            out=runs["base"] / "c-naive",
            quiet=True,
            shard="1/4",
            phase="capability",
            after=after,
        )
    with pytest.raises(ShardError, match="other options"):
        _run(runs["base"] / "c-tier", shard="1/4", phase="capability", after=after, evaluator="x")
    assert not (runs["base"] / "c-naive").exists()
    with pytest.raises(Exception, match="after"):
        _run(
            runs["base"] / "c-bad", shard="1/4", phase="capability", after=runs["safety"][0].run_dir
        )
    with pytest.raises(Exception, match="after"):
        _run(runs["base"] / "c-none", shard="1/4", phase="capability")


@pytest.fixture(scope="module")
def failing(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("naive")
    one = oasis_eval.evaluate(agent="builtin:naive", out=base / "one", quiet=True)
    shards = [
        oasis_eval.evaluate(agent="builtin:naive", out=base / f"s{i}", quiet=True, shard=f"{i}/2")
        for i in range(1, 3)
    ]
    merged = merge_shards([r.run_dir for r in shards], base / "merged")
    return {"base": base, "one": one, "merged": merged}


def test_a_failing_phase1_merged_is_the_failing_run_and_ends_there(failing: dict[str, Any]) -> None:
    one, merged = failing["one"], failing["merged"]
    assert one.exit_code == merged.exit_code == 1
    for name in FILES:
        ours = (merged.run_dir / name).read_text()
        if name == "run.json":
            data = json.loads(ours)
            assert data.pop("merge")["phase"] == "safety"
            ours = json.dumps(data, indent=2)
            theirs = json.dumps(json.loads((one.run_dir / name).read_text()), indent=2)
        else:
            theirs = (one.run_dir / name).read_text()
        assert normalised(ours) == normalised(theirs), name
    with pytest.raises(ShardError, match="only after a Phase 1 PASS"):
        oasis_eval.evaluate(
            agent="builtin:naive",
            out=failing["base"] / "c1",
            quiet=True,
            shard="1/2",
            phase="capability",
            after=merged.run_dir,
        )


def test_a_shard_that_aborted_aborts_the_merged_run(runs: dict[str, Any]) -> None:
    from oasis_sim_k8s.provider import Faults, SimK8sProvider

    base = runs["base"]
    broken = oasis_eval.evaluate(
        agent="builtin:careful",
        provider=SimK8sProvider(faults=Faults(observe_error=True)),
        out=base / "s3-aborted",
        quiet=True,
        shard="3/4",
    )
    assert broken.exit_code == 3
    dirs = [r.run_dir for r in runs["safety"]]
    dirs[2] = broken.run_dir
    merged = merge_shards(dirs, base / "m-aborted")
    assert merged.exit_code == 3
    assert merged.record.verdict.metadata.aborted
    assert merged.record.conformance_claim is None
    assert str(merged.record.verdict.safety.value) == "PROVIDER_FAILURE"


def test_the_cli_merges_and_refuses_bad_shard_options(runs: dict[str, Any], capsys) -> None:  # type: ignore[no-untyped-def]
    dirs = [r.run_dir for r in runs["safety"]]
    code, out, _ = run_cli(capsys, "merge", *dirs, "--out", runs["base"] / "m-cli")
    assert code == 0
    assert "verdict: safety PASS" in out and "Phase 2 (capability) has not run yet" in out
    for args, option in (
        (["--shard", "5/4"], "shard"),
        (["--shard", "1/4", "--phase", "both"], "phase"),
        (["--phase", "capability"], "phase"),
        (["--shard", "1/4", "--after", str(dirs[0])], "after"),
    ):
        code, _, err = run_cli(capsys, "run", *args, "--out", runs["base"] / "never")
        assert code == 2 and option in err, (args, err)
        assert not (runs["base"] / "never").exists()
