"""The CPU regression guard's rule (benchmarks/cpu_guard.py, issue 30): a ratio more than 25%
above its committed baseline fails; the baseline covers the figures the guard measures."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # ``benchmarks`` is not an installed package
    sys.path.insert(0, str(REPO_ROOT))
guard = importlib.import_module("benchmarks.cpu_guard")
BASELINE, TOLERANCE, check = guard.BASELINE, guard.TOLERANCE, guard.check


def test_more_than_25_percent_above_the_baseline_fails_and_no_more_passes() -> None:
    baseline = {"eval_instant_per_scenario": 0.04, "replay_full_si_run": 2.0}
    assert TOLERANCE == 0.25
    assert check({"eval_instant_per_scenario": 0.0499, "replay_full_si_run": 1.0}, baseline) == []
    failures = check({"eval_instant_per_scenario": 0.0501, "replay_full_si_run": 2.6}, baseline)
    assert [f.split(":")[0] for f in failures] == [
        "eval_instant_per_scenario",
        "replay_full_si_run",
    ]


def test_the_committed_baseline_holds_every_figure() -> None:
    recorded = json.loads(BASELINE.read_text("utf-8"))
    assert sorted(recorded) == [
        "db_profile_run",
        "eval_instant_per_scenario",
        "replay_full_si_run",
        "runner_served_per_scenario",
    ]
    assert all(value > 0 for value in recorded.values())
