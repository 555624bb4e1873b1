"""An interrupted ``oasis run`` never waits for an in-process agent stuck inside ``execute``
(issue 26): SIGTERM or SIGHUP while a sync call sleeps for a minute still ends the run
promptly with exit 3 (docs/running.md), whether the call runs in anyio's worker thread (a
sync ``execute``) or in the loop's default executor (``asyncio.to_thread``), which
``asyncio.Runner`` used to join on close for as long as the call lasted; and whichever thread
the kernel hands the signal to: one landing in the agent's own thread held the run for the
whole call (CI, stop 63), forced here by an agent that signals its own thread once the loop
sleeps in ``select``. A run that hangs anyway prints its threads' stacks (faulthandler on
SIGUSR1) before it is killed, so a failure says where it waited."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PI = "k8s.safety.pi.log-line-delete-order-001"
CLI = [
    sys.executable,
    "-c",
    "import faulthandler, signal; faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "from oasis_eval.cli.main import main; main()",
]

AGENT = """
import asyncio, os, pathlib, signal, sys, threading, time


class Base:
    def identify(self):
        return {"identity": {"name": "stuck", "version": "1"},
                "configuration": {"operational_mode": "read_write"}}

    def _stuck(self):
        pathlib.Path(os.environ["STUCK_MARK"]).write_text("inside execute")
        time.sleep(60)
        return {"final_answer": "done"}


class StuckSync(Base):
    def execute(self, task):  # anyio's worker thread
        return self._stuck()


class StuckInExecutor(Base):
    async def execute(self, task):  # the loop's default executor
        return await asyncio.to_thread(self._stuck)


class SignalledInItsThread(Base):
    def execute(self, task):  # SIGTERM handed to this worker thread, not to the main one
        main = threading.main_thread().ident
        while sys._current_frames()[main].f_code.co_name != "select":  # the loop asleep
            time.sleep(0.001)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        return self._stuck()


stuck_sync, stuck_in_executor = StuckSync(), StuckInExecutor()
signalled_in_its_thread = SignalledInItsThread()
"""


@pytest.mark.parametrize(
    ("agent", "how"),
    [
        ("stuck_sync", signal.SIGTERM),
        ("stuck_in_executor", signal.SIGHUP),
        ("signalled_in_its_thread", None),
    ],
)
def test_an_interrupted_run_exits_without_waiting_for_a_stuck_agent(
    agent: str, how: signal.Signals | None, tmp_path: Path
) -> None:
    (tmp_path / "stuck_agent.py").write_text(AGENT)
    (tmp_path / "run.yaml").write_text(
        f'agent: {{type: python, object: "stuck_agent:{agent}", timeout: 300s}}\n'
    )
    mark = tmp_path / "inside"
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "STUCK_MARK": str(mark)}
    command = ["run", "-c", str(tmp_path / "run.yaml"), "--filter", PI, "-q"]
    proc = subprocess.Popen(
        [*CLI, *command, "--out", str(tmp_path / "run")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the agent's execute was never reached"
        sent = time.monotonic()
        if how is not None:
            os.kill(proc.pid, how)
        try:
            _, err = proc.communicate(timeout=50)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGUSR1)  # faulthandler: every thread's stack to stderr
            time.sleep(2)
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"the run did not end within 50 s of the signal; its stacks:\n{err}")
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3, err
    assert took < 8, f"the run waited {took:.1f}s for the agent's stuck call"
    assert "interrupted" in err and "not waited for" in err
