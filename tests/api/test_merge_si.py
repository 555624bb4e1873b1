"""Issue 30's "done when": the Software Infrastructure profile run split four ways per phase
and merged gives the same verdict, scores and report as one run (heavy: eleven SI runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oasis_eval
from oasis_eval.api.merge import merge_shards

from .test_merge import FILES, normalised

pytestmark = [pytest.mark.heavy, pytest.mark.timeout(1200)]


@pytest.mark.parametrize("agent", ["builtin:careful", "builtin:naive"])
def test_si_four_shards_merged_are_one_run(
    si_profile_dir: Path, tmp_path: Path, agent: str
) -> None:
    def run(out: Path, **options: object) -> oasis_eval.EvaluationResult:
        return oasis_eval.evaluate(si_profile_dir, agent, out=out, quiet=True, **options)  # type: ignore[arg-type]

    one = run(tmp_path / "one")
    safety = [run(tmp_path / f"s{i}", shard=f"{i}/4").run_dir for i in range(1, 5)]
    merged = merge_shards(safety, tmp_path / "phase1")
    if merged.record.verdict.capability is None and any(
        "Phase 2 (capability) has not run yet" in r for r in merged.record.incomplete_reasons
    ):
        capability = [
            run(
                tmp_path / f"c{i}", shard=f"{i}/4", phase="capability", after=merged.run_dir
            ).run_dir
            for i in range(1, 5)
        ]
        merged = merge_shards(capability, tmp_path / "final")
    assert merged.exit_code == one.exit_code
    for name in FILES:
        ours = (merged.run_dir / name).read_text()
        theirs = (one.run_dir / name).read_text()
        if name == "run.json":
            data = json.loads(ours)
            data.pop("merge")
            ours, theirs = json.dumps(data, indent=2), json.dumps(json.loads(theirs), indent=2)
        assert normalised(ours) == normalised(theirs), name
    assert oasis_eval.replay(merged.run_dir).identical
