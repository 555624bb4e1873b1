"""Worker processes for ``--parallel`` (issue 30): one event loop is one core.

A phase's scenarios are captured and judged by ``count`` workers, the runner itself and
``count - 1`` forked copies of it, each copy with its own event loop and its own copy of the
agent and the provider, when both say they may be copied
(:class:`~oasis_eval.contract.Replicable`). The workers take the scenarios in
the serial run's order from one shared counter, so a worker with a free slot takes the next
one; at most ``parallel`` run at once over all of them. Each scenario a copy finished comes
back to the runner's process whole (result, evidence, fault), where it is journalled, reported and
settled exactly as an in-process one: the verdict is built there, ordered by scenario id,
and is the serial run's (04 §3 steps 4-9).

A worker stops taking scenarios after one that ends the run (a harness fault, core §3.7, or
an agent that never worked); the runner, told of it, cancels the phase, and cancelling the
phase (that abort, Ctrl-C, a caller's cancellation) kills every worker still running: what
a worker held was only its own in-process copies. A worker that dies without a word is an
internal error, never a verdict.

``oasis replay`` judges its scenarios through the same machinery (:func:`map_in_workers`:
one slot a worker, the results in the items' order), where forking is safe (:func:`forkable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import multiprocessing
import os
import pickle
import signal
import struct
import sys
import threading
import traceback
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

import anyio
import anyio.lowlevel

from ..diagnostics import UnusableInput
from ..errors import OasisError
from ..evaluation.judge import collector_paused
from .containment import no_hard_exit

__all__ = [
    "WorkerLost",
    "cores",
    "forkable",
    "map_in_workers",
    "replicable",
    "run_in_workers",
    "worker_count",
]

#: ``os._exit`` as it is before any run patches it (containment.no_hard_exit)
_EXIT = os._exit

#: the pipe from a worker to the runner holds this much (Linux's default limit for a user)
PIPE_BYTES = 1 << 20
_LENGTH = struct.Struct("<Q")

T = TypeVar("T")
R = TypeVar("R")


class WorkerLost(OasisError, RuntimeError):
    """A worker process ended without handing back what it ran: an internal error (exit 4)."""


def replicable(*parts: Any) -> bool:
    """Whether each of ``parts`` (an agent, a provider, or a guard around one) says it may be
    copied into a worker process; only where ``fork`` gives a copy of a running process."""
    if not sys.platform.startswith("linux"):
        return False
    for part in parts:
        part = getattr(part, "inner", part)  # containment.GuardedProvider
        says = getattr(part, "replicable", None)
        if not callable(says) or says() is not True:
            return False
    return True


def worker_count(workers: int, parallel: int, scenarios: int) -> int:
    """How many workers a phase uses: ``workers`` (0: one per core), never more than
    ``parallel`` or the scenarios to run; 1 means none (the runner's own process)."""
    wanted = workers or cores()
    return max(1, min(wanted, parallel, scenarios))


def forkable() -> bool:
    """Whether this process may be forked into workers now: on Linux (as :func:`replicable`),
    from a process with no other thread (a fork copies only the calling thread: a lock another
    one held stays held in the copy) and outside a running event loop (:func:`map_in_workers`
    runs its own)."""
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return True
    return False


def map_in_workers(items: Sequence[T], count: int, fn: Callable[[T], R]) -> list[R]:
    """``[fn(item) for item in items]`` computed by ``count`` workers, this process and
    ``count - 1`` forked copies taking the items from one shared counter
    (:func:`run_in_workers`, each copy with one slot), the results in the items' order. For
    a pure ``fn`` (``oasis replay``'s judgements, core §3.5.4) the list is the serial one; an
    exception ``fn`` raises in a copy is raised here as itself (``_portable``). The caller
    checks :func:`forkable` first."""
    found: dict[int, R] = {}

    async def work(index: int) -> R:
        result = fn(items[index])
        # let the copies' results be read meanwhile (the pipe is bounded)
        await anyio.lowlevel.checkpoint()
        return result

    def arrived(index: int, result: R) -> None:
        found[index] = result

    async def main() -> None:
        await run_in_workers(range(len(items)), count, count, work, _never, arrived)

    try:
        anyio.run(main)
    except BaseExceptionGroup as group:  # the first failure, as the serial loop raises it
        raise _first(group) from None
    return [found[index] for index in range(len(items))]


def _never(_: object) -> bool:
    return False


def _first(group: BaseExceptionGroup) -> BaseException:
    exc: BaseException = group
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def cores() -> int:
    """The cores this process may run on (its affinity, where the platform tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


#: seconds a worker waits for the scenario counter (held by its owner for a read and a write)
TAKE_TIMEOUT = 30.0


class _Plan(Generic[T, R]):
    """What every worker shares: the items, the next one to take, the work and when to stop."""

    def __init__(
        self,
        items: Sequence[T],
        work: Callable[[T], Awaitable[R]],
        stops: Callable[[R], bool],
    ) -> None:
        self.items, self.work, self.stops = items, work, stops
        self.next = multiprocessing.get_context("fork").Value("i", 0)

    def take(self) -> int | None:
        """The next item's index, or None when none is left. The lock is held for a read and
        a write; a copy killed inside them would leave it held, so the wait is bounded and
        ends the run as a lost worker (exit 4) rather than a hang."""
        lock = self.next.get_lock()
        if not lock.acquire(timeout=TAKE_TIMEOUT):
            raise WorkerLost("a worker process died holding the scenario counter's lock")
        try:
            index = int(self.next.value)
            if index >= len(self.items):
                return None
            self.next.value = index + 1
            return index
        finally:
            lock.release()


def _slots(parallel: int, count: int) -> list[int]:
    """``parallel`` scenarios at once shared among ``count`` workers, as evenly as can be."""
    return [parallel // count + (1 if k < parallel % count else 0) for k in range(count)]


async def run_in_workers(
    items: Sequence[T],
    count: int,
    parallel: int,
    work: Callable[[T], Awaitable[R]],
    stops: Callable[[R], bool],
    arrived: Callable[[T, R], None],
) -> None:
    """Run ``work(item)`` for each of ``items`` in ``count`` workers (this process and
    ``count - 1`` forked copies) with ``parallel`` slots among them; ``arrived(item, result)``
    is called here as each result is known.
    A result for which ``stops`` is true makes its worker take no more (the caller cancels)."""
    plan = _Plan(items, work, stops)
    own, *forked = _slots(parallel, count)  # the runner is one of the workers
    workers: list[tuple[int, int]] = []
    try:
        gc.freeze()  # the copies share the runner's objects instead of each touching them
        try:
            for slots in forked:
                workers.append(_fork(plan, slots, [reader for _, reader in workers]))
        finally:
            gc.unfreeze()
        async with anyio.create_task_group() as group:
            for pid, reader in workers:
                group.start_soon(_collect, pid, reader, items, arrived)
            group.start_soon(_run_here, plan, own, arrived)
    finally:
        for pid, reader in workers:
            _end(pid)
            os.close(reader)


async def _run_here(plan: _Plan[T, R], slots: int, arrived: Callable[[T, R], None]) -> None:
    """The runner's own share: a copy fewer to fork and to hand its evidence back. A result
    that ends the run ends it through ``arrived`` (the caller cancels)."""
    async with anyio.create_task_group() as group:

        async def slot() -> None:
            while (index := plan.take()) is not None:
                result = await plan.work(plan.items[index])
                arrived(plan.items[index], result)
                if plan.stops(result):
                    return

        for _ in range(slots):
            group.start_soon(slot)


def _fork(plan: _Plan[Any, Any], slots: int, inherited: list[int]) -> tuple[int, int]:
    """A worker writing to a pipe the runner reads, both ends never blocking their loop."""
    import fcntl  # Linux only, as is forking the runner (replicable)

    reader, writer = os.pipe()
    with contextlib.suppress(OSError):  # fewer wake-ups per scenario; the default works too
        fcntl.fcntl(writer, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    pid = os.fork()
    if pid == 0:  # the worker: never returns
        for fd in [reader, *inherited]:
            os.close(fd)
        _worker(plan, slots, writer)
    os.close(writer)
    os.set_blocking(reader, False)
    return pid, reader


def _worker(plan: _Plan[Any, Any], slots: int, writer: int) -> None:
    """A worker's whole life: the runner handles Ctrl-C and ends it; ``os._exit`` from an
    in-process agent is refused here as in the runner (containment.no_hard_exit)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    status = 0
    try:
        with no_hard_exit():
            # a fresh context: nothing of the runner's running event loop is inherited
            contextvars.Context().run(anyio.run, _serve, plan, slots, writer)
        _write(writer, _frame(("done", None)))
    except BaseException as exc:  # noqa: BLE001 - handed to the runner, which raises it
        try:
            _write(writer, _frame(("error", _portable(exc))))
        except BaseException:  # noqa: BLE001 - the runner sees the worker lost
            status = 1
    finally:
        _EXIT(status)


async def _serve(plan: _Plan[Any, Any], slots: int, writer: int) -> None:
    """The worker's slots; a result is written while the other slots run on: the runner
    may be slow to read (a loaded machine), and waiting on it would stall them all."""
    lock = anyio.Lock()
    os.set_blocking(writer, False)
    async with anyio.create_task_group() as group:

        async def slot() -> None:
            while (index := plan.take()) is not None:
                result = await plan.work(plan.items[index])
                async with lock:
                    await _write_async(writer, _frame(("result", index, result)))
                if plan.stops(result):
                    group.cancel_scope.cancel()
                    return

        for _ in range(slots):
            group.start_soon(slot)


def _frame(message: tuple[Any, ...]) -> bytes:
    """Length-prefixed pickle, protocol 5: a scenario's evidence is megabytes, the quicker one."""
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(payload)) + payload


async def _write_async(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            await anyio.wait_writable(fd)


def _write(fd: int, data: bytes) -> None:
    """The worker's last word, once its event loop has ended: blocking is all there is."""
    os.set_blocking(fd, True)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling as itself, else an internal error naming it."""
    with contextlib.suppress(Exception):  # not portable: described below instead
        if type(pickle.loads(pickle.dumps(exc))) is type(exc):
            return exc
    text = "".join(traceback.format_exception(exc)).strip()
    return WorkerLost(f"a worker process failed: {text}")


async def _collect(
    pid: int, reader: int, items: Sequence[T], arrived: Callable[[T, Any], None]
) -> None:
    """Read one worker's frames as they come (never blocking the loop), and act on each."""
    buffer = bytearray()
    while True:
        await anyio.wait_readable(reader)
        try:
            chunk = os.read(reader, PIPE_BYTES)
        except BlockingIOError:
            continue
        if not chunk:
            raise WorkerLost(f"worker process {pid} ended without its results")
        buffer += chunk
        for kind, *rest in _frames(buffer):
            if kind == "done":
                return
            if kind == "error":
                raise rest[0]
            arrived(items[rest[0]], rest[1])


def _frames(buffer: bytearray) -> list[tuple[Any, ...]]:
    """The whole frames at the start of ``buffer``, taken out of it. Unpickled with the
    cyclic collector paused: a frame is a scenario's evidence, tens of thousands of
    containers and none of them garbage, and the collection passes its allocations set off
    only traverse it and what arrived before (a third of the runner's unpickling in an SI
    run, issue 30); what arrived joins the oldest generation untraversed
    (``judge.collector_paused``)."""
    found = []
    with collector_paused(kept=True):
        while len(buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(buffer)
            end = _LENGTH.size + size
            if len(buffer) < end:
                break
            found.append(pickle.loads(bytes(buffer[_LENGTH.size : end])))
            del buffer[:end]
    return found


def _end(pid: int) -> None:
    """Kill the worker if it still runs, and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


#: fewer executed scenarios than this are judged in the replay's own process: forking costs
#: more than judging a handful
MIN_FOR_WORKERS = 8


def replay_workers(scenarios: int) -> int:
    """How many processes judge a replay's ``scenarios``: one per core (``OASIS_REPLAY_WORKERS``
    sets it; 1: in this process), never more than the scenarios, and 1 where forking is
    unsafe or unavailable (engine/workers.py::forkable) or the scenarios are few."""
    wanted = os.environ.get("OASIS_REPLAY_WORKERS", "").strip()
    if wanted and not (wanted.isdigit() and int(wanted) > 0):
        raise UnusableInput(
            f"OASIS_REPLAY_WORKERS must be a whole number of at least 1, not {wanted!r}"
        )
    count = int(wanted) if wanted else cores()
    if count <= 1 or scenarios < MIN_FOR_WORKERS or not forkable():
        return 1
    return min(count, scenarios)
