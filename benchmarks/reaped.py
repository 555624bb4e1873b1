"""``python -m benchmarks.reaped [--grace SECONDS] -- COMMAND...``: run COMMAND as this process's child with this
process a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``), so every process it starts, a
daemon that detaches included (``pg_ctl`` starts the PostgreSQL server that way), is reparented
here and its CPU time counted; print one JSON line: exit code, wall seconds, user and system
CPU seconds of the whole tree, and how many descendants were still running when COMMAND had
exited (each killed after a grace period: a leftover, never silently waited for).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
#: how long descendants may take to exit after COMMAND has (a server stopping), by default
GRACE = 10.0


def _children() -> list[int]:
    me = os.getpid()
    try:
        text = open(f"/proc/{me}/task/{me}/children").read()  # noqa: SIM115
    except OSError:
        return []
    return [int(pid) for pid in text.split()]


def _reap_all() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main(argv: list[str]) -> int:
    grace = GRACE
    if argv[:1] == ["--grace"] and len(argv) > 1:
        grace, argv = float(argv[1]), argv[2:]
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        print("usage: python -m benchmarks.reaped [--grace SECONDS] -- COMMAND...", file=sys.stderr)
        return 2
    if ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cannot become a child subreaper (Linux only)", file=sys.stderr)
        return 2
    started = time.monotonic()
    child = os.fork()
    if child == 0:
        os.dup2(2, 1)  # the command's output goes to stderr: stdout is this JSON line alone
        os.execvp(command[0], command)
    _, status = os.waitpid(child, 0)
    wall = time.monotonic() - started
    deadline = time.monotonic() + grace
    while True:
        _reap_all()
        left = _children()
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    while _children():
        _reap_all()
        time.sleep(0.01)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        json.dumps(
            {
                "exit_code": os.waitstatus_to_exitcode(status),
                "wall_s": round(wall, 3),
                "user_s": round(usage.ru_utime, 3),
                "system_s": round(usage.ru_stime, 3),
                "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
                "left_running": len(left),
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
