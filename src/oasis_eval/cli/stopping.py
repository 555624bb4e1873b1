"""How ``oasis run`` stops: SIGTERM and SIGHUP taken as Ctrl-C, and an exit that never waits
for a thread an in-process agent left running (exit 3 when interrupted, docs/running.md).

A sync agent's work can be stuck in a worker thread that nothing can stop: anyio's
``to_thread`` abandons it on cancellation, but ``asyncio.Runner`` joins the loop's default
executor on close (``asyncio.to_thread``, ``run_in_executor``) with no bound, and the
interpreter joins every non-daemon thread at exit (issue 26)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import typer

_T = TypeVar("_T")


class AbandoningExecutor(ThreadPoolExecutor):
    """The loop's default executor for a run: closing it waits for its threads only when none
    is inside a call (idle threads end at once); a call still running is left to ``leave``,
    where ``asyncio.Runner.close`` would have waited for it without bound."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="oasis-agent-call")
        self._busy = 0
        self._busy_lock = threading.Lock()

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        def counted() -> _T:
            with self._busy_lock:
                self._busy += 1
            try:
                return fn(*args, **kwargs)
            finally:
                with self._busy_lock:
                    self._busy -= 1

        return super().submit(counted)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._busy_lock:
            stuck = self._busy > 0
        super().shutdown(wait=wait and not stuck, cancel_futures=True)


def abandon_default_executor() -> None:
    """Give the running loop an :class:`AbandoningExecutor` as its default executor."""
    asyncio.get_running_loop().set_default_executor(AbandoningExecutor())


def leave(code: int, before: set[threading.Thread]) -> NoReturn:
    """Exit with ``code`` once the run is over, without waiting for threads an in-process agent
    left running (a sync ``execute`` past its timeout, a non-daemon thread it started; any
    non-daemon thread started during the run, ``before`` it are left alone): the interpreter
    would join them at exit and ``oasis run`` would never end."""
    stray = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    if stray and threading.current_thread() is threading.main_thread():
        typer.echo(
            f"warning: {len(stray)} thread(s) left running by the agent were not waited for",
            err=True,
        )
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise typer.Exit(code)


class CtrlC:
    """The run's Ctrl-C handler, for SIGTERM and SIGHUP to call. A background job of a
    non-interactive shell (``oasis run ... &`` in a script, many CI runners) starts with SIGINT
    ignored: ``asyncio.Runner`` then installs no Ctrl-C handler, and a SIGTERM raised again as
    SIGINT was dropped. So SIGINT is set to the default handler while the loop starts (the
    runner installs its own), :meth:`adopt` keeps that handler and ignores SIGINT again: the
    shell's choice holds for a real Ctrl-C, and SIGTERM/SIGHUP still stop the run (exit 3)."""

    def __init__(self, sigint_ignored: bool) -> None:
        self.sigint_ignored = sigint_ignored
        self.handler: Callable[[int, Any], object] | None = None

    def adopt(self) -> None:
        """Inside the run's event loop, the main thread, before any scenario starts."""
        if threading.current_thread() is not threading.main_thread():
            return
        current = signal.getsignal(signal.SIGINT)
        if callable(current) and current is not signal.default_int_handler:
            self.handler = current  # asyncio.Runner's: cancels the run's task, then raises
        if self.sigint_ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __call__(self, _signum: int, frame: Any) -> None:
        if self.handler is not None:
            self.handler(signal.SIGINT, frame)
        else:  # no loop yet, or one that handles no Ctrl-C: the interpreter's own
            signal.default_int_handler(signal.SIGINT, frame)


@contextmanager
def terminate_as_interrupt() -> Iterator[CtrlC]:
    """SIGTERM and SIGHUP (a CI job cancelled, a terminal closed, or an agent process of the
    same user signalling the runner) stop the run like Ctrl-C: environments are torn down
    and the exit is 3, instead of the process dying with every environment leaked. Call the
    yielded :meth:`CtrlC.adopt` first thing inside the run's event loop."""
    as_ctrl_c = CtrlC(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
    wanted = [
        s
        for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
        if s is not None
    ]
    try:
        previous = {s: signal.signal(s, as_ctrl_c) for s in wanted}
        if as_ctrl_c.sigint_ignored:  # so that asyncio.Runner installs its Ctrl-C handler
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # not the main thread (embedded use): leave the handlers alone
        yield as_ctrl_c
        return
    try:
        yield as_ctrl_c
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
