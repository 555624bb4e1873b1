"""Instructions the runner executes per scenario of a served run (issue 30, session 20).

CPU time on a shared machine swings by 10-15% with the load (docs/benchmarks.md), more than
most single cuts to the runner are worth. Callgrind counts the instructions the runner
process executes instead, which the load does not change::

    python -m benchmarks.runner_instructions            # one counted run, instructions a scenario
    python -m benchmarks.runner_instructions --runs 2 --top 15

It runs itself again under ``valgrind --tool=callgrind --instr-atstart=no``. That child makes
the served run of :mod:`.served` (``oasis provider serve sim-k8s`` in a grandchild process,
which valgrind does not trace; ``oasis_eval.evaluate`` against its URL with the instant
agent): one warm-up run, then instrumentation switched on (``callgrind_control -i on``) for
``--runs`` runs and off again. Counted: every thread of the runner, each apart (thread 01
runs the event loop and, since session 28, each judgement too, under a per-call ``SIGALRM``:
engine/plugin_alarm.py; before, an ``oasis-judge`` thread ran it while the loop waited), nothing of the server, nothing of
start-up or the warm-up. ``--top`` adds the shares by shared object (the interpreter's by
source file). About 30 s of CPU a counted run.

Instructions are not time: valgrind hides some CPU features, so code with a special path for
them counts more than it costs (SHA-256 without the SHA extensions: ``libcrypto`` shows 5% of
the instructions, about 1% of the time), and a cache miss counts as one instruction. Compare
two versions with the same valgrind on the same machine, as a lean, beside the CPU time.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .common import REPO_ROOT, executed_count, load_si_profile

_TOTALS = re.compile(rb"^totals:\s*(\d+)", re.MULTILINE)
#: a callgrind name line: ``ob=(3) /path`` names id 3 once, ``ob=(3)`` refers to it after;
#: ``cob=``/``cfi=``/``cfn=`` name a callee's (they may define a name first)
_NAMED = re.compile(rb"^(c?)(ob|fl|fi|fe|fn)=\((\d+)\)(?: (.*))?$")
#: which kinds share a table of names (the file kinds share one)
_SPACE = {b"ob": b"ob", b"fl": b"file", b"fi": b"file", b"fe": b"file", b"fn": b"fn"}


def child(runs: int) -> dict[str, Any]:
    """Inside valgrind: warm up, count ``runs`` served runs (the module doc)."""
    from .served import served_run, served_sim

    profile = load_si_profile()
    token = secrets.token_urlsafe(32)

    def instrument(state: str) -> None:
        subprocess.run(
            ["callgrind_control", "-i", state, str(os.getpid())], capture_output=True, check=True
        )

    executed = 0
    with served_sim(token) as (url, _pid), tempfile.TemporaryDirectory() as work:
        served_run(profile, url, token, Path(work) / "warm-up")
        instrument("on")
        for i in range(runs):
            _, result = served_run(profile, url, token, Path(work) / f"run{i}")
            if result.safety != "PASS":
                raise RuntimeError(f"the served run did not PASS: exit {result.exit_code}")
            executed += executed_count(result)
        instrument("off")
    return {"executed": executed}


def by_object(data: bytes) -> collections.Counter[str]:
    """Self instructions by shared object (the interpreter's by source file) of a callgrind
    output file written with name compression (valgrind's default)."""
    names: dict[tuple[bytes, bytes], bytes] = {}
    shares: collections.Counter[str] = collections.Counter()
    obj, source = b"?", b""
    skip_next = False  # the cost line after ``calls=`` is the call's inclusive cost
    for line in data.splitlines():
        named = _NAMED.match(line)
        if named:
            callee, kind, ident, name = named.groups()
            key = (_SPACE[kind], ident)
            if name is not None:
                names[key] = name
            if not callee:
                value = names.get(key, b"?")
                if kind == b"ob":
                    obj = value
                elif kind in (b"fl", b"fi", b"fe"):
                    source = value
            continue
        if line.startswith(b"calls="):
            skip_next = True
        elif line[:1].isdigit() or line[:1] in (b"+", b"-", b"*"):
            parts = line.split()
            if not skip_next and len(parts) >= 2:
                shares[_label(obj, source)] += int(parts[1])
            skip_next = False
    return shares


def _label(obj: bytes, source: bytes) -> str:
    name = obj.decode("utf-8", "replace").rsplit("/", 1)[-1]
    text = source.decode("utf-8", "replace")
    if name.startswith("libpython") and "/Python-" in text:
        return "python: " + text.split("/Python-", 1)[1].split("/", 1)[-1].lstrip("./")
    return name


def count(runs: int, top: int) -> dict[str, Any]:
    """Run :func:`child` under callgrind; instructions per executed scenario (and shares)."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise RuntimeError("valgrind (callgrind) is not installed")
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
            f"--callgrind-out-file={out}",
            sys.executable, "-m", "benchmarks.runner_instructions", "--child", "--runs", str(runs),
        ]  # fmt: skip
        done = subprocess.run(command, check=False, cwd=REPO_ROOT, capture_output=True, text=True)
        files = sorted(Path(work).glob("callgrind.out*"))  # one a thread: callgrind.out-02
        if done.returncode != 0 or not files:
            raise RuntimeError("the counted run failed:\n" + done.stderr[-3000:])
        executed = max(1, json.loads(done.stdout.strip().splitlines()[-1])["executed"])
        threads = {f.name.rpartition("-")[2]: f.read_bytes() for f in files}
    totals = {name: _total(data) for name, data in sorted(threads.items())}
    report: dict[str, Any] = {
        "runs": runs,
        "executed_scenarios": executed,
        "instructions_per_scenario": round(sum(totals.values()) / executed),
        "by_thread_per_scenario": {
            name: round(total / executed) for name, total in totals.items() if total
        },
    }
    if top:
        shares: collections.Counter[str] = collections.Counter()
        for data in threads.values():
            shares.update(by_object(data))
        whole = max(1, sum(shares.values()))
        report["shares"] = {k: round(v / whole, 4) for k, v in shares.most_common(top)}
    return report


def _total(data: bytes) -> int:
    found = _TOTALS.search(data)
    return int(found.group(1)) if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.runner_instructions")
    parser.add_argument("--runs", type=int, default=1, help="counted runs (after a warm-up)")
    parser.add_argument("--top", type=int, default=0, help="shares of the N largest objects")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(max(1, args.runs))))
        return 0
    try:
        report = count(max(1, args.runs), max(0, args.top))
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
