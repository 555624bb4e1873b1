"""One full SI run in this (fresh) interpreter; prints its peak RSS and phase timings as JSON.

``python -m benchmarks.rss_child [--agent careful|instant]`` does what ``oasis run`` does —
load + validate the profile, evaluate it on SimK8sProvider, write the run directory and the
reports — then reports ``resource.getrusage(RUSAGE_SELF).ru_maxrss``. The parent benchmark
starts it in a new process so nothing it measured before inflates the peak.

Caveat (Linux): ru_maxrss survives fork + exec — a child starts with its parent's peak
(the kernel carries the old address space's high-water mark into the new one). So the
parent runs this benchmark first, while it is still small, and the child also reports
``VmHWM`` (/proc/self/status: the peak of its own address space only) as a cross-check.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path


def _rss_mb() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux (bytes on macOS)
    return round(kib / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _hwm_mb() -> float | None:
    """VmHWM of this process (Linux): the peak RSS of the current address space only."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rss_child")
    parser.add_argument("--agent", choices=("careful", "instant"), default="careful")
    args = parser.parse_args(argv)
    baseline = _rss_mb()
    clock = time.perf_counter()
    from oasis_eval.engine.redaction import Redactor
    from oasis_eval.engine.rundir import redacted_profile, write_run
    from oasis_eval.profiles.loader import load_profile
    from oasis_eval.reporting import write_reports
    from oasis_eval.validation import validate_profile

    from .common import AGENTS, run_evaluation, si_profile_dir

    imported = time.perf_counter()
    after_import = _rss_mb()
    loaded = load_profile(si_profile_dir())
    validate_profile(loaded.profile)
    profile_loaded = time.perf_counter()
    outcome = run_evaluation(loaded.profile, AGENTS[args.agent]())
    evaluated = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="oasis-bench-rss-"))
    try:
        write_run(
            tmp / "run",
            outcome.record,
            outcome.evidence,
            redacted_profile(loaded.profile, Redactor()),
        )
        write_reports(outcome.record, tmp / "run")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    written = time.perf_counter()
    print(
        json.dumps(
            {
                "peak_rss_mb": _rss_mb(),
                "vm_hwm_mb": _hwm_mb(),
                "agent": args.agent,
                "interpreter_rss_mb": baseline,
                "after_import_rss_mb": after_import,
                "import_s": round(imported - clock, 3),
                "cold_load_validate_s": round(profile_loaded - imported, 3),
                "evaluate_s": round(evaluated - profile_loaded, 3),
                "write_run_and_reports_s": round(written - evaluated, 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
