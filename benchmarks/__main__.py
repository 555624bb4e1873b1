"""``python -m benchmarks [--quick] [--repeat N] [--output FILE] [--only NAMES] [--strict]``

Runs the oasis-eval benchmark suite and prints the results as JSON on stdout (progress
goes to stderr). See benchmarks/README.md for what each benchmark measures.

Exit codes: 0 the suite ran (whatever the targets say; with ``--strict``: and every
target was met), 1 with ``--strict``: at least one target missed, 2 the SI profile is
missing or an option is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .common import si_profile_dir, si_profile_present
from .suite import BENCHMARKS, run_all


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a fast smoke run: one sample each, audit logs of 1k and 10k entries only",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="--quick with no warm-up runs and 20 leak cycles: every benchmark's code runs "
        "once, for the tests (issue 31); its figures are not comparable with --quick's",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        metavar="N",
        help="samples per measurement; the median is reported (default 5, 1 with --quick)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write the JSON results to FILE",
    )
    parser.add_argument(
        "--only",
        default=None,
        metavar="NAMES",
        help=f"comma-separated subset of: {', '.join(BENCHMARKS)}",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="instead: write a cProfile of one whole SI run to FILE and print its summary",
    )
    return parser


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.quick = args.quick or args.smoke
    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 5)
    if repeat < 1:
        print("--repeat must be at least 1", file=sys.stderr)
        return 2
    only = [x.strip() for x in args.only.split(",") if x.strip()] if args.only else None
    unknown = sorted(set(only or ()) - set(BENCHMARKS))
    if unknown:
        print(
            f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}",
            file=sys.stderr,
        )
        return 2
    if not si_profile_present():
        print(
            f"the SI profile is not at {si_profile_dir()} (set OASIS_SPEC_DIR to the oasis-spec checkout)",
            file=sys.stderr,
        )
        return 2

    if args.profile is not None:
        from .cpu_guard import profile_run

        print(json.dumps(profile_run(args.profile), indent=2))
        return 0

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    started = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    load_before = _loadavg()
    clock = time.perf_counter()
    rows, timings = run_all(repeat, args.quick, only, say, smoke=args.smoke)
    results = [row.to_json() for row in rows]
    judged = [r for r in results if r["met"] is not None]
    from oasis_eval.version import __version__

    document: dict[str, Any] = {
        "suite": "oasis-eval benchmarks",
        "oasis_eval_version": __version__,
        "started": started,
        "duration_s": round(time.perf_counter() - clock, 2),
        "quick": args.quick,
        "smoke": args.smoke,
        "repeat": repeat,
        "statistic": "median",
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            # other work on the machine skews wall times: the 1-minute load average before and after
            "loadavg_1m_before": load_before,
            "loadavg_1m_after": _loadavg(),
        },
        "profile": str(si_profile_dir()),
        "benchmark_seconds": timings,
        "summary": {
            "targets": len(judged),
            "met": sum(1 for r in judged if r["met"]),
            "missed": [r["name"] for r in judged if not r["met"]],
        },
        "results": results,
    }
    text = json.dumps(document, indent=2)
    print(text)
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text + "\n", encoding="utf-8")
    return 1 if args.strict and document["summary"]["missed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
