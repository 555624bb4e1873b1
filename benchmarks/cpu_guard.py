"""CPU-time figures normalised to a reference workload measured in the same process, the
regression guard built on them, and the profile of a whole SI run (issue 30). The whole
Database Operations run (issue 34) is measured in a child tree (:mod:`.db_profile`: the
server's processes count) and is left out, with a note, where PostgreSQL is not installed.

Wall times swing with whatever else runs on the machine; the CPU time of this process
(``time.process_time``) swings less, and dividing it by the CPU time of a fixed reference
workload (SHA-256 chain + dict building, measured before and after each sample) cancels
most of what is left: a slower or busier machine slows both. Each figure is the median of
``--repeat`` such ratios.

    python -m benchmarks.cpu_guard                    # print the ratios
    python -m benchmarks.cpu_guard --check            # compare with benchmarks/cpu_baseline.json (CI)
    python -m benchmarks.cpu_guard --write-baseline   # record the ratios as the new baseline
    python -m benchmarks.cpu_guard --profile FILE     # cProfile of one whole SI run to FILE + summary
    python -m benchmarks.cpu_guard --profile FILE --served  # the same of the served run (runner CPU)

``--check`` exits 1 when a ratio is more than ``TOLERANCE`` above its baseline, 0 otherwise.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import db_profile
from .common import (
    cpu_seconds,
    executed_count,
    instant_agent,
    load_si_profile,
    run_evaluation,
    si_profile_dir,
    si_profile_present,
)
from .served import counted_calls, served_run, served_sim

BASELINE = Path(__file__).with_name("cpu_baseline.json")
#: a ratio this much above its baseline fails the guard (issue 30: "> 25%")
TOLERANCE = 0.25
#: the provider protocol's calls, counted per scenario in the profile
PROVIDER_CALLS = ("conformance", "provision", "inject_state", "snapshot", "observe", "teardown")


def reference() -> float:
    """CPU seconds of a fixed workload: hashing (C) and container building (the interpreter)."""
    start = time.process_time()
    digest = b"oasis"
    for _ in range(100_000):
        digest = hashlib.sha256(digest).digest()
    table: dict[str, list[Any]] = {}
    for i in range(200_000):
        table[str(i)] = [i, {"a": i}]
    del table
    return time.process_time() - start


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of ``fn()``: this process's and its worker processes' (``cpu_seconds``:
    the replay judges in forked workers, and a regression of its judging is theirs too)."""
    start = cpu_seconds()
    result = fn()
    return cpu_seconds() - start, result


def measure(repeat: int, say: Callable[[str], None]) -> dict[str, float]:
    """Median ratios: instant-agent SI evaluation per executed scenario, the replay of a
    recorded SI run (written the way ``oasis run`` writes it), and the runner's CPU per
    executed scenario of a run against the served simulator, to the reference workload."""
    import oasis_eval
    from oasis_eval.api.replay import replay

    profile = load_si_profile()
    run_evaluation(profile, instant_agent())  # warm-up: imports, caches
    ratios: dict[str, list[float]] = {
        "eval_instant_per_scenario": [],
        "replay_full_si_run": [],
        "runner_served_per_scenario": [],
    }
    missing = db_profile.available()
    if missing:
        say(f"db_profile_run not measured: {missing}")
    else:
        ratios["db_profile_run"] = []
    token = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory() as work, served_sim(token) as (url, _):
        written = oasis_eval.evaluate(
            profile, agent="builtin:careful", provider="sim-k8s", out=Path(work) / "run", quiet=True
        )
        replay(written.run_dir)
        _served_cpu(profile, url, token, Path(work) / "served-warm-up")
        for i in range(repeat):
            before = reference()
            seconds, outcome = cpu(lambda: run_evaluation(profile, instant_agent()))
            per_scenario = seconds / max(1, executed_count(outcome))
            replay_seconds, _ = cpu(lambda: replay(written.run_dir))
            served = _served_cpu(profile, url, token, Path(work) / f"served-{i}")
            db_seconds = _db_run_cpu() if "db_profile_run" in ratios else 0.0
            ref = (before + reference()) / 2
            ratios["eval_instant_per_scenario"].append(per_scenario / ref)
            ratios["replay_full_si_run"].append(replay_seconds / ref)
            ratios["runner_served_per_scenario"].append(served / ref)
            if "db_profile_run" in ratios:
                ratios["db_profile_run"].append(db_seconds / ref)
            say(
                f"sample {i + 1}: reference {ref * 1000:.0f} ms, instant eval "
                f"{per_scenario * 1000:.1f} ms/scenario, replay {replay_seconds * 1000:.0f} ms, "
                f"served runner {served * 1000:.1f} ms/scenario, "
                f"database profile run {db_seconds * 1000:.0f} ms (CPU)"
            )
    return {name: round(statistics.median(values), 5) for name, values in ratios.items()}


def _served_cpu(profile: Any, url: str, token: str, out: Path) -> float:
    """The runner's CPU seconds per executed scenario of a whole SI run against the served
    simulator (:mod:`.served`, as ``runner_cpu_per_scenario_served``); a run whose safety
    verdict is not PASS is no figure."""
    seconds, result = served_run(profile, url, token, out)
    if result.safety != "PASS":
        raise RuntimeError(f"the served run did not PASS: exit {result.exit_code}")
    return seconds / max(1, executed_count(result))


def _db_run_cpu() -> float:
    """CPU seconds of a whole Database Operations run, server included (:mod:`.db_profile`);
    a run that does not PASS or leaves a process behind is no figure."""
    run = db_profile.run_profile()
    if run["exit_code"] != 0 or run["left_running"]:
        raise RuntimeError(f"the database profile run went wrong: {run}")
    return float(run["cpu_s"])


def check(measured: dict[str, float], baseline: dict[str, float]) -> list[str]:
    """The figures more than :data:`TOLERANCE` above their baseline."""
    return [
        f"{name}: {measured[name]:.4g} against a baseline of {base:.4g} "
        f"(+{(measured[name] / base - 1) * 100:.0f}%, more than {TOLERANCE * 100:.0f}%)"
        for name, base in sorted(baseline.items())
        if name in measured and measured[name] > base * (1 + TOLERANCE)
    ]


def profile_run(target: Path, served: bool = False) -> dict[str, Any]:
    """cProfile of one whole SI evaluation (instant agent, in process) written to ``target``
    (``python -m pstats``/snakeviz read it); a summary with provider calls per scenario.
    ``served``: the run of ``runner_cpu_per_scenario_served`` instead (:mod:`.served`: the
    provider in a child process, as ``oasis run --provider URL``), timed by CPU time
    (``time.process_time``), so waiting for the provider is not counted."""
    profile = load_si_profile()
    wire: dict[str, Any] = {}
    wire_scenarios = 0
    if served:
        token = secrets.token_urlsafe(32)
        with tempfile.TemporaryDirectory() as work, served_sim(token) as (url, _):
            with counted_calls() as traffic:  # the warm-up's calls: coroutines resumed count
                _, warm = served_run(profile, url, token, Path(work) / "warm-up")
            wire = dict(sorted(traffic.calls.items()))
            wire_scenarios = executed_count(warm)
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            _, outcome = served_run(profile, url, token, Path(work) / "run")
            profiler.disable()
    else:
        run_evaluation(profile, instant_agent())
        profiler = cProfile.Profile()
        profiler.enable()
        outcome = run_evaluation(profile, instant_agent())
        profiler.disable()
    target.parent.mkdir(parents=True, exist_ok=True)
    profiler.dump_stats(str(target))
    stats = pstats.Stats(str(target))
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    scenarios = executed_count(outcome)
    calls = {
        name: sum(
            entry[1]
            for (path, _line, func), entry in raw.items()
            if func == name and path.endswith("engine/containment.py")
        )
        for name in PROVIDER_CALLS
    }
    total = sum(entry[3] for (_p, _l, f), entry in raw.items() if f == "run_evaluation")
    if served or not total:  # the served run's outer frames are not all in the profile
        total = stats.total_tt  # type: ignore[attr-defined]
    top = sorted(raw.items(), key=lambda item: item[1][2], reverse=True)[:15]
    per_scenario = round(sum(calls.values()) / max(1, scenarios), 2)
    if served:  # each resumption of a provider coroutine is a call to cProfile: counted apart
        calls = wire
        per_scenario = round(sum(wire.values()) / max(1, wire_scenarios), 2)
    return {
        "profile": str(target),
        "executed_scenarios": scenarios,
        "provider_calls": calls,
        "provider_calls_per_scenario": per_scenario,
        "top_own_time": [
            {"function": f"{Path(p).name}:{line}({func})", "own_share": round(e[2] / total, 3)}
            for (p, line, func), e in top
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cpu_guard")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="fail on a regression over 25%%")
    parser.add_argument("--write-baseline", action="store_true")
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE")
    parser.add_argument(
        "--served", action="store_true", help="with --profile: the served run (runner CPU)"
    )
    args = parser.parse_args(argv)
    if not si_profile_present():
        print(f"the SI profile is not at {si_profile_dir()}", file=sys.stderr)
        return 2

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.profile is not None:
        print(json.dumps(profile_run(args.profile, served=args.served), indent=2))
        return 0
    measured = measure(max(1, args.repeat), say)
    print(json.dumps({"ratios_to_reference": measured}, indent=2))
    if args.write_baseline:
        BASELINE.write_text(json.dumps(measured, indent=2, sort_keys=True) + "\n", "utf-8")
    if args.check:
        failures = check(measured, json.loads(BASELINE.read_text("utf-8")))
        for failure in failures:
            say(f"regression: {failure}")
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
