"""Instructions a warm replay of a full SI run executes (issue 30, session 22).

The replay row (``replay_full_si_run``) is CPU-bound and judged by wall time; on a shared
machine its CPU time swings with the load by more than most single cuts are worth. Callgrind
counts the instructions instead, which the load does not change::

    python -m benchmarks.replay_instructions               # the careful SI run, written first
    python -m benchmarks.replay_instructions --run DIR --runs 2 --top 15

Without ``--run``, this process writes a careful SI run with ``write_run`` (as the replay row
does) to a temporary directory first. A child under ``valgrind --tool=callgrind
--instr-atstart=no`` then replays the run once as a warm-up, switches the instrumentation on
(``callgrind_control -i on``) for ``--runs`` replays (``engine.replay.replay``: loading the
run and judging it, every thread; judged in that one process, ``OASIS_REPLAY_WORKERS=1``, so
the count is the whole judging's and stays comparable across versions) and off again; a replayed verdict that is not identical to
the recorded one is an error. ``--top`` adds the shares by shared object, as
:mod:`.runner_instructions` does. About 40 s of CPU a counted replay. Compare two versions
with ``PYTHONPATH`` pointing at each one's ``src``, on the same run directory.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .common import REPO_ROOT, careful_agent, load_si_profile, run_evaluation
from .runner_instructions import _total, by_object


def child(run_dir: Path, runs: int) -> dict[str, Any]:
    """Inside valgrind: one warm-up replay, then ``runs`` counted replays of ``run_dir``."""
    from oasis_eval.engine.replay import replay

    def instrument(state: str) -> None:
        subprocess.run(
            ["callgrind_control", "-i", state, str(os.getpid())], capture_output=True, check=True
        )

    identical = replay(run_dir).identical
    instrument("on")
    for _ in range(runs):
        identical = replay(run_dir).identical and identical
    instrument("off")
    return {"identical": identical}


def write_careful_run(run_dir: Path) -> None:
    """A careful SI run written as the replay row writes it."""
    from oasis_eval.engine.redaction import Redactor
    from oasis_eval.engine.rundir import redacted_profile, write_run

    profile = load_si_profile()
    outcome = run_evaluation(profile, careful_agent())
    write_run(run_dir, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))


def count(run_dir: Path, runs: int, top: int) -> dict[str, Any]:
    """Run :func:`child` under callgrind; instructions per replay (and shares)."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise RuntimeError("valgrind (callgrind) is not installed")
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable, "-m", "benchmarks.replay_instructions", "--child",
            "--run", str(run_dir), "--runs", str(runs),
        ]  # fmt: skip
        # judged in the counted process: every judgement's instructions in one count, the
        # same work as before the replay's worker processes (session 36), and one out-file
        env = {**os.environ, "OASIS_REPLAY_WORKERS": "1"}
        done = subprocess.run(
            command, check=False, cwd=REPO_ROOT, capture_output=True, text=True, env=env
        )
        if done.returncode != 0 or not out.is_file():
            raise RuntimeError("the counted replay failed:\n" + done.stderr[-3000:])
        if not json.loads(done.stdout.strip().splitlines()[-1])["identical"]:
            raise RuntimeError("a replayed verdict differs from the recorded one")
        data = out.read_bytes()
    report: dict[str, Any] = {"runs": runs, "instructions_per_replay": round(_total(data) / runs)}
    if top:
        shares: collections.Counter[str] = by_object(data)
        whole = max(1, sum(shares.values()))
        report["shares"] = {k: round(v / whole, 4) for k, v in shares.most_common(top)}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replay_instructions")
    parser.add_argument("--run", type=Path, help="a run directory (default: a careful SI run)")
    parser.add_argument("--runs", type=int, default=1, help="counted replays (after a warm-up)")
    parser.add_argument("--top", type=int, default=0, help="shares of the N largest objects")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    if args.child:
        print(json.dumps(child(args.run, runs)))
        return 0
    try:
        if args.run is not None:
            report = count(args.run.resolve(), runs, max(0, args.top))
        else:
            with tempfile.TemporaryDirectory(prefix="oasis-replay-count-") as work:
                run_dir = Path(work) / "run"
                write_careful_run(run_dir)
                report = count(run_dir, runs, max(0, args.top))
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
