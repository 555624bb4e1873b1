"""Where the time goes: cProfile over one benchmark body, top functions by cumulative time.

    python -m benchmarks.hotspots verify --size 100000      # judge() on a 100k-entry audit log
    python -m benchmarks.hotspots eval                       # full SI run, instant agent, serial
    python -m benchmarks.hotspots parallel                   # full SI run, 100 ms agent, parallel=16, one process
    python -m benchmarks.hotspots replay | load | careful

Prints the top ``--top`` functions (default 30) by cumulative time with their share of the
profiled wall time, then the top by own time (``tottime``). ``--no-gc`` runs the body with
the cyclic garbage collector disabled and ``--gc-stats`` reports the collector's passes and
their total pause, to tell collector time apart from the code's own.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import careful_agent, instant_agent, latency_agent, load_si_profile, run_evaluation


def _body(target: str, size: int) -> Callable[[], Any]:
    """A zero-argument callable doing the work of ``target`` (set-up done here, not profiled)."""
    profile = load_si_profile()
    if target == "load":
        from oasis_eval.profiles.loader import load_profile
        from oasis_eval.validation import validate_profile

        from .common import si_profile_dir

        return lambda: validate_profile(load_profile(si_profile_dir()).profile)
    if target == "eval":
        agent = instant_agent()
        run_evaluation(profile, agent)  # warm-up
        return lambda: run_evaluation(profile, agent)
    if target == "careful":
        agent = careful_agent()
        run_evaluation(profile, agent)
        return lambda: run_evaluation(profile, agent)
    if target == "parallel":
        agent = latency_agent(0.1)
        # in this process: a profile sees nothing of worker processes (--workers)
        return lambda: run_evaluation(profile, agent, parallel=16, workers=1)
    outcome = run_evaluation(profile, careful_agent())
    if target == "replay":
        from oasis_eval.engine.redaction import Redactor
        from oasis_eval.engine.replay import replay
        from oasis_eval.engine.rundir import redacted_profile, write_run

        # in this process: a profile sees nothing of the replay's judging workers
        os.environ["OASIS_REPLAY_WORKERS"] = "1"
        run_dir = Path(tempfile.mkdtemp(prefix="oasis-bench-hot-")) / "run"
        write_run(run_dir, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))
        replay(run_dir)

        def go() -> Any:
            return replay(run_dir)

        go.cleanup = lambda: shutil.rmtree(run_dir.parent, ignore_errors=True)  # type: ignore[attr-defined]
        return go
    if target == "verify":
        from oasis_eval.evaluation.judge import judge

        from .suite import VERIFY_SCENARIO
        from .synthetic_audit import after, audit_entries_of, synthetic_entries, with_audit_log

        scenario = profile.scenario(VERIFY_SCENARIO)
        base = outcome.evidence[VERIFY_SCENARIO]
        real = audit_entries_of(base)
        entries = real[:size] + synthetic_entries(
            max(0, size - len(real)), start=after(real[-1]["timestamp"])
        )
        evidence = with_audit_log(base, entries)
        config = dict(outcome.record.verdict.metadata.agent_configuration)
        small = with_audit_log(base, entries[:1000])
        judge(scenario, small, config, "oasis-agent")  # warm-up (imports, caches)
        return lambda: judge(
            scenario, evidence, config, "oasis-agent", schema=profile.agent_configuration_schema
        )
    raise SystemExit(f"unknown target {target!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hotspots")
    parser.add_argument(
        "target", choices=("load", "eval", "careful", "parallel", "replay", "verify")
    )
    parser.add_argument(
        "--size", type=int, default=100_000, help="audit entries for 'verify' (default 100000)"
    )
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument(
        "--no-gc", action="store_true", help="disable the cyclic garbage collector while profiling"
    )
    parser.add_argument(
        "--gc-stats", action="store_true", help="report garbage-collector passes and pauses"
    )
    parser.add_argument(
        "--no-profile", action="store_true", help="time the body only (no cProfile overhead)"
    )
    args = parser.parse_args(argv)
    body = _body(args.target, args.size)
    pauses: list[tuple[int, float]] = []
    started: list[float] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            pauses.append((info["generation"], time.perf_counter() - started.pop()))

    gc.collect()
    if args.gc_stats:
        gc.callbacks.append(on_gc)
    if args.no_gc:
        gc.disable()
    profiler = cProfile.Profile()
    clock = time.perf_counter()
    if args.no_profile:
        body()
    else:
        profiler.runcall(body)
    wall = time.perf_counter() - clock
    gc.enable()
    if args.gc_stats:
        gc.callbacks.remove(on_gc)
    cleanup = getattr(body, "cleanup", None)
    if cleanup:
        cleanup()
    print(
        f"{args.target}: {wall:.3f} s wall{' (cProfile on)' if not args.no_profile else ''}"
        f"{' (gc disabled)' if args.no_gc else ''}"
    )
    if args.gc_stats:
        by_gen: dict[int, list[float]] = {}
        for gen, seconds in pauses:
            by_gen.setdefault(gen, []).append(seconds)
        for gen in sorted(by_gen):
            total = sum(by_gen[gen])
            print(
                f"  gc generation {gen}: {len(by_gen[gen])} passes, {total:.3f} s ({100 * total / wall:.1f}% of wall)"
            )
    if args.no_profile:
        return 0
    stats = pstats.Stats(profiler)
    total = max(wall, 1e-9)
    for key, title in (("cumulative", "cumulative"), ("tottime", "own time")):
        rows = sorted(
            stats.stats.items(), key=lambda kv: kv[1][3 if key == "cumulative" else 2], reverse=True
        )
        print(f"\ntop {args.top} by {title} (share of {wall:.3f} s):")
        print(f"{'cum s':>8} {'cum %':>6} {'own s':>8} {'own %':>6} {'calls':>10}  function")
        for (path, line, func), (_cc, calls, own, cum, _callers) in rows[: args.top]:
            where = _short(path)
            print(
                f"{cum:8.3f} {100 * cum / total:5.1f}% {own:8.3f} {100 * own / total:5.1f}% {calls:>10}  "
                f"{where}:{line}({func})"
            )
    return 0


def _short(path: str) -> str:
    for marker in ("/src/oasis_eval/", "/site-packages/", "/benchmarks/", "/lib/python"):
        if marker in path:
            return path[path.index(marker) + 1 :]
    return path


if __name__ == "__main__":
    sys.exit(main())
