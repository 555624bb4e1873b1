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
import socket
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
        self.wakeup: LoopWakeup | None = None

    def adopt(self) -> None:
        """Inside the run's event loop, the main thread, before any scenario starts."""
        if threading.current_thread() is not threading.main_thread():
            return
        current = signal.getsignal(signal.SIGINT)
        if callable(current) and current is not signal.default_int_handler:
            self.handler = current  # asyncio.Runner's: cancels the run's task, then raises
        if self.sigint_ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.wakeup = LoopWakeup.install(asyncio.get_running_loop())

    def __call__(self, _signum: int, frame: Any) -> None:
        if self.handler is not None:
            self.handler(signal.SIGINT, frame)
        else:  # no loop yet, or one that handles no Ctrl-C: the interpreter's own
            signal.default_int_handler(signal.SIGINT, frame)


class LoopWakeup:
    """A wakeup fd (``signal.set_wakeup_fd``) read by the run's loop: a signal wakes the loop
    whichever thread the kernel hands it to. Linux delivers a process's signal to any thread
    not blocking it; one landing in an agent's worker thread (stuck in a sync call) only
    flags the Python handler, which runs on the main thread, asleep in ``select`` until its
    next timer: ``asyncio.Runner`` sets no wakeup fd (``loop.add_signal_handler`` would), so
    the run waited for the agent's call to end (CI, stop 63: a 60 s call held the run)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.reader, self.writer = socket.socketpair()
        for end in (self.reader, self.writer):
            end.setblocking(False)

    @classmethod
    def install(cls, loop: asyncio.AbstractEventLoop) -> LoopWakeup | None:
        """Set on the main thread; None where a wakeup fd is already set (the loop's own,
        from ``add_signal_handler``, or an embedding program's: left alone) or the loop
        cannot read one (no ``add_reader``)."""
        wakeup = cls(loop)
        previous = signal.set_wakeup_fd(wakeup.writer.fileno(), warn_on_full_buffer=False)
        if previous == -1:
            try:
                loop.add_reader(wakeup.reader.fileno(), _drain, wakeup.reader)
                return wakeup
            except NotImplementedError:
                pass
        signal.set_wakeup_fd(previous)  # theirs stays, or none
        wakeup.close()
        return None

    def remove(self) -> None:
        """Unset the wakeup fd (after the loop closed, on the main thread); one set since by
        someone else (``add_signal_handler`` in the run) is theirs and stays."""
        current = signal.set_wakeup_fd(-1)
        if current != self.writer.fileno():
            signal.set_wakeup_fd(current)
        if not self.loop.is_closed():
            self.loop.remove_reader(self.reader.fileno())
        self.close()

    def close(self) -> None:
        self.reader.close()
        self.writer.close()


def _drain(reader: socket.socket) -> None:
    """The bytes the signal handler wrote: reading them is all; waking the loop was the point
    (the Python handler then runs on the main thread)."""
    try:
        while reader.recv(4096):
            pass
    except (BlockingIOError, InterruptedError):
        pass


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
        if as_ctrl_c.wakeup is not None:
            as_ctrl_c.wakeup.remove()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
