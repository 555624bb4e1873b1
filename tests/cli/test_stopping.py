"""SIGTERM stops ``oasis run`` as Ctrl-C would even where SIGINT is ignored (a background job
of a non-interactive shell), and a real Ctrl-C stays ignored there (docs/running.md). In
process, the run's loop as ``oasis run`` drives it; tests/cli/test_resume_cli.py proves it
on a real ``oasis run`` started with SIGINT ignored (exit 3, resumable)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

import anyio
import pytest

from oasis_eval.cli.stopping import CtrlC, terminate_as_interrupt


@pytest.fixture
def sigint_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


async def _run(ctrl_c: CtrlC, steps: list[str]) -> None:
    ctrl_c.adopt()
    try:
        steps.append("adopted, SIGINT " + ("ignored" if ignored() else "handled"))
        os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C at the terminal
        await anyio.sleep(0.05)
        steps.append("went on after SIGINT")
        os.kill(os.getpid(), signal.SIGTERM)
        await anyio.sleep(30)
        steps.append("never")
    finally:  # where the run tears its environments down
        steps.append("torn down")


def ignored() -> bool:
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_sigterm_stops_a_run_that_ignores_ctrl_c(sigint_ignored: None) -> None:
    steps: list[str] = []
    term_before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt() as ctrl_c:
        anyio.run(_run, ctrl_c, steps)
    assert steps == ["adopted, SIGINT ignored", "went on after SIGINT", "torn down"]
    assert ignored() and signal.getsignal(signal.SIGTERM) == term_before


def test_sigterm_stops_a_run_like_its_ctrl_c() -> None:
    """SIGINT handled (a terminal's foreground job): both stop the run, the first one."""
    steps: list[str] = []

    async def run(ctrl_c: CtrlC) -> None:
        ctrl_c.adopt()
        try:
            steps.append("adopted, SIGINT " + ("ignored" if ignored() else "handled"))
            os.kill(os.getpid(), signal.SIGTERM)
            await anyio.sleep(30)
        finally:
            steps.append("torn down")

    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt() as ctrl_c:
        anyio.run(run, ctrl_c)
    assert steps == ["adopted, SIGINT handled", "torn down"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_another_thread_receives_still_stops_the_run() -> None:
    """The kernel hands a process's signal to any thread not blocking it: one that lands in an
    agent's worker thread only flags the handler, and the loop slept on in ``select`` until its
    next timer (here 30 s; an agent's stuck call of 60 s held the run in CI, stop 63). The
    run's wakeup fd wakes the loop, which runs the handler at once."""
    steps: list[str] = []

    main = threading.main_thread().ident
    assert main is not None

    def agent_thread() -> None:  # forced: the signal is sent to this thread, not the main one
        while sys._current_frames()[main].f_code.co_name != "select":  # the loop asleep in it
            time.sleep(0.001)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

    async def run(ctrl_c: CtrlC) -> None:
        ctrl_c.adopt()
        try:
            threading.Thread(target=agent_thread, daemon=True).start()
            await anyio.sleep(30)
            steps.append("never")
        finally:
            steps.append("torn down")

    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt() as ctrl_c:
        anyio.run(run, ctrl_c)
    assert steps == ["torn down"]
    assert time.monotonic() - started < 10, "the loop slept through the signal"
    assert signal.set_wakeup_fd(wakeup) == wakeup  # the run's wakeup fd is put back as found
