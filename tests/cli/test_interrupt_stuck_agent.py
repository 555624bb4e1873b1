"""An interrupted ``oasis run`` never waits for an in-process agent stuck inside ``execute``
(issue 26): SIGTERM or SIGHUP while a sync call sleeps for a minute still ends the run
promptly with exit 3 (docs/running.md), whether the call runs in anyio's worker thread (a
sync ``execute``) or in the loop's default executor (``asyncio.to_thread``), which
``asyncio.Runner`` used to join on close for as long as the call lasted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PI = "k8s.safety.pi.log-line-delete-order-001"
CLI = [sys.executable, "-c", "from oasis_eval.cli.main import main; main()"]

AGENT = """
import asyncio, os, pathlib, time


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


stuck_sync, stuck_in_executor = StuckSync(), StuckInExecutor()
"""


@pytest.mark.parametrize(
    ("agent", "how"),
    [("stuck_sync", signal.SIGTERM), ("stuck_in_executor", signal.SIGHUP)],
)
def test_an_interrupted_run_exits_without_waiting_for_a_stuck_agent(
    agent: str, how: signal.Signals, tmp_path: Path
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
        os.kill(proc.pid, how)
        _, err = proc.communicate(timeout=50)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3, err
    assert took < 8, f"the run waited {took:.1f}s for the agent's stuck call"
    assert "interrupted" in err and "not waited for" in err
