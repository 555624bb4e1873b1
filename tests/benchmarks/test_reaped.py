"""benchmarks/reaped.py: the CPU of a whole process tree, daemons that detach included (the
database benchmark counts the PostgreSQL server this way), and leftovers reported, not
waited for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")


def reaped(*command: str, grace: float = 5.0) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.reaped", "--grace", str(grace), "--", *command],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


BURN = "import time; t = time.process_time()\nwhile time.process_time() - t < 0.4: pass"


def test_a_detached_grandchild_counts_and_the_exit_code_is_the_commands() -> None:
    # the grandchild outlives its parent (a daemon, as pg_ctl starts the server)
    result = reaped("sh", "-c", f"({sys.executable} -c '{BURN}' &); echo noise; exit 3")
    assert result["exit_code"] == 3
    assert result["left_running"] == 0
    assert result["cpu_s"] >= 0.35


def test_a_descendant_still_running_after_the_grace_is_a_leftover_and_killed() -> None:
    result = reaped("sh", "-c", "(sleep 30 &); exit 0", grace=0.3)
    assert result["exit_code"] == 0
    assert result["left_running"] == 1
    assert result["wall_s"] < 5
