"""Running one agent process and collecting what it writes (``cli:``; spec 04 §1).

The process gets its own process group (a timeout kills its children too); stdout is bounded,
stderr is kept whole up to the same bound when it is part of the transcript (``output=text``),
else only its end (for fault messages). Children left behind when the leader exits are killed.
"""

from __future__ import annotations

import contextlib
import os
import signal

import anyio
from anyio.abc import ByteReceiveStream, Process

__all__ = [
    "PIPE_GRACE_SECONDS",
    "STDERR_TAIL_LINES",
    "Pipes",
    "converse",
    "reap",
    "status",
    "stderr_tail",
]

STDERR_TAIL_LINES = 20
_STDERR_KEEP = 64 * 1024
#: after the agent's process exited, how long its output pipes may stay open (held by a
#: daemon it left behind) before what it wrote is taken as its whole answer
PIPE_GRACE_SECONDS = 2.0


class Pipes:
    """What the process writes, collected while it runs (stdout bounded, the end of stderr)."""

    def __init__(self, process: Process, max_output_bytes: int, whole_stderr: bool = False) -> None:
        self.process = process
        self.max_output_bytes = max_output_bytes
        #: stderr is part of the transcript: kept whole (bounded like stdout), never cut
        self.whole_stderr = whole_stderr
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.overflow = False
        self.open_pipes = 2
        #: set once both output pipes are closed
        self.drained = anyio.Event()

    def _closed(self) -> None:
        self.open_pipes -= 1
        if self.open_pipes == 0:
            self.drained.set()

    async def pump_out(self, stream: ByteReceiveStream) -> None:
        """Collect stdout; past the limit, kill the process group and stop."""
        try:
            async for chunk in stream:
                self.stdout.extend(chunk)
                if len(self.stdout) > self.max_output_bytes:
                    self.overflow = True
                    _kill_group(self.process)
                    return
        finally:
            self._closed()

    async def pump_err(self, stream: ByteReceiveStream) -> None:
        """Collect stderr: its end, or all of it up to the limit (``whole_stderr``)."""
        try:
            async for chunk in stream:
                self.stderr.extend(chunk)
                if self.whole_stderr:
                    if len(self.stderr) > self.max_output_bytes:
                        self.overflow = True
                        _kill_group(self.process)
                        return
                elif len(self.stderr) > 2 * _STDERR_KEEP:
                    del self.stderr[:-_STDERR_KEEP]
        finally:
            self._closed()

    async def feed(self, data: bytes) -> None:
        """Write the request to stdin, then close it."""
        assert self.process.stdin is not None
        try:
            if data:
                await self.process.stdin.send(data)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass  # the agent exited without reading all of its input: judged by its exit status
        finally:
            with contextlib.suppress(anyio.BrokenResourceError, OSError):
                await self.process.stdin.aclose()


async def converse(process: Process, pipes: Pipes, stdin: bytes) -> int:
    """Feed stdin and collect the output until the leader exits; its exit status."""
    async with anyio.create_task_group() as tg:
        assert process.stdout is not None and process.stderr is not None
        tg.start_soon(pipes.pump_out, process.stdout)
        tg.start_soon(pipes.pump_err, process.stderr)
        tg.start_soon(pipes.feed, stdin)
        returncode = await _exited(process)
        # children left behind (maybe holding our pipes open) go with the scenario
        _kill_stragglers(process.pid)
        # a child that left the process group (setsid) may hold stdout open for
        # ever: the agent has answered, so what it wrote by now is its answer
        with anyio.move_on_after(PIPE_GRACE_SECONDS):
            await pipes.drained.wait()
        tg.cancel_scope.cancel()
    return returncode


async def _exited(process: Process) -> int:
    """The leader's exit status. Not ``process.wait()``: on asyncio it also waits for pipe
    EOF, so a background child that inherited stdout would make a finished agent look hung."""
    while (returncode := process.returncode) is None:  # noqa: ASYNC110 - no event to wait on, see above
        await anyio.sleep(0.01)
    return returncode


def status(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"{returncode} ({signal.Signals(-returncode).name})"
        except ValueError:
            pass
    return str(returncode)


def stderr_tail(stderr: bytes | bytearray) -> str:
    text = bytes(stderr).decode("utf-8", errors="replace").rstrip()
    if not text:
        return "; stderr was empty"
    lines = text.splitlines()[-STDERR_TAIL_LINES:]
    return "; last lines of stderr:\n" + "\n".join("  " + line for line in lines)


def _kill_group(process: Process) -> None:
    if process.returncode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        with contextlib.suppress(ProcessLookupError):
            process.kill()


def _kill_stragglers(pgid: int) -> None:
    """The leader has exited: kill what is left of its process group (best effort)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pgid, signal.SIGKILL)


async def reap(process: Process) -> None:
    """Kill the process group if still alive, then wait for the process and close its pipes."""
    _kill_group(process)
    with anyio.move_on_after(5):
        await process.wait()
    _kill_stragglers(process.pid)
    await process.aclose()
