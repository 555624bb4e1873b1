"""A real ``oasis run`` interrupted from outside and resumed (issue 17 item 3, done-when):
SIGINT (the user's Ctrl-C) and SIGKILL (a crash: nothing runs on the way down) once a few
scenarios finished, then ``oasis run --resume RUN_DIR`` alone (the options it recorded)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..engine.resume_support import AGENT, scenario_results, verdict_text, write_agent

CLI = [sys.executable, "-c", "from oasis_eval.cli.main import main; main()"]
OPTIONS = ["--agent", AGENT, "--parallel", "2", "-q"]


def oasis(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], env=env, capture_output=True, text=True, check=False, timeout=180
    )


def started_and_stopped(env: dict[str, str], out: Path, how: signal.Signals) -> str:
    """Start ``oasis run --out out`` slowed down, wait until two scenarios finished (their
    results are in the run directory), send ``how``; the process's stderr."""
    slow = {**env, "RESUME_DELAY": "0.6"}
    proc = subprocess.Popen(
        [*CLI, "run", *OPTIONS, "--out", str(out)],
        env=slow,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list((out / "results").glob("*.json"))) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    os.kill(proc.pid, how)
    _, err = proc.communicate(timeout=120)
    expected = 3 if how is signal.SIGINT else -signal.SIGKILL
    assert proc.returncode == expected, err
    return err


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    write_agent(tmp_path)
    return {**os.environ, "PYTHONPATH": str(tmp_path), "RESUME_INTERRUPT_AT": "0"}


@pytest.mark.parametrize(
    "how",
    [
        signal.SIGINT,
        # heavy tier (issue 31): the in-process crash tests of tests/engine/test_journal.py
        # (test_a_crash_mid_write_never_leaves_a_corrupt_record) keep it in the default suite
        pytest.param(signal.SIGKILL, marks=pytest.mark.heavy),
    ],
    ids=["SIGINT", "SIGKILL"],
)
def test_a_killed_run_resumes_to_the_results_of_an_uninterrupted_one(
    env: dict[str, str], tmp_path: Path, how: signal.Signals
) -> None:
    whole = oasis(env, "run", *OPTIONS, "--out", str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr
    cut = tmp_path / "cut"
    err = started_and_stopped(env, cut, how)
    if how is signal.SIGINT:
        assert "Traceback" not in err and "--resume" in err and "no verdict was written" in err
    assert not (cut / "verdict.yaml").exists()  # never a verdict, let alone PASS
    finished = len(list((cut / "results").glob("*.json")))
    assert finished >= 2
    report = oasis(env, "report", str(cut), "--format", "md")
    assert report.returncode == 3 and report.stdout == ""
    assert ("interrupted" if how is signal.SIGINT else "stopped without finishing") in report.stderr
    refused = oasis(env, "run", "--agent", "builtin:naive", "--resume", str(cut), "-q")
    assert refused.returncode == 2 and "--agent: the run was started with" in refused.stderr
    resumed = oasis(env, "run", "--resume", str(cut))  # the options it recorded (issue 29.1)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: oasis run --resume {cut} --agent {AGENT} --parallel 2" in resumed.stderr
    assert scenario_results(cut) == scenario_results(tmp_path / "whole")
    assert verdict_text(cut) == verdict_text(tmp_path / "whole")
    replayed = oasis(env, "replay", str(cut))
    assert replayed.returncode == 0 and "identical" in replayed.stderr


def test_a_tampered_interrupted_run_is_refused_with_exit_5(
    env: dict[str, str], tmp_path: Path
) -> None:
    cut = tmp_path / "cut"
    started_and_stopped(env, cut, signal.SIGINT)
    victim = sorted((cut / "evidence").iterdir())[0]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    resumed = oasis(env, "run", *OPTIONS, "--resume", str(cut))
    assert resumed.returncode == 5, resumed.stderr
    assert "tampered" in resumed.stderr and f"modified: evidence/{victim.name}" in resumed.stderr
