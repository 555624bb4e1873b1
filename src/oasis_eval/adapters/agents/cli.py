"""An agent behind a command line: oasisctl's documented CLI contract (spec 04 §1; interop §1).

- execute: the command is spawned once per scenario; the request JSON (the same body
  as HTTP, see :mod:`._wire`) is written to its stdin, which is then closed; the
  response JSON (same shape as HTTP) is read from stdout; exit status 0 is expected.
  An agent-level error is reported as ``{"error": "...", ...}`` on stdout with exit 0.
  A fresh process per scenario makes the agent stateless by construction (04 §1).
- identify: the command is run with the single extra argument ``identify`` (stdin
  empty) and prints ``{"identity": {...}, "configuration": {...}}`` on stdout — unless
  the adapter is given ``identity={...}`` explicitly, which is then used as is.

A command that cannot start (not found, not executable) is :class:`AgentUnreachable`:
nothing was exchanged. Every other failure to get a conformant answer is an
:class:`AgentFault` (the agent ran and may have acted; the engine judges the scenario on
the environment's evidence): non-zero exit (with the end of stderr), invalid JSON on
stdout, timeout (the whole process group is killed), output over ``max_output_bytes``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import ByteReceiveStream, Process

from ...contract import AgentFault, AgentReport, AgentResponse, AgentTask, AgentUnreachable
from ._wire import (
    MAX_ANSWER_BYTES,
    NETWORK_SCHEMES,
    check_reachable,
    parse_json_text,
    parse_report,
    parse_response,
    request_body,
)

__all__ = ["DEFAULT_IDENTITY_TIMEOUT", "DEFAULT_TIMEOUT", "CliAgent"]

DEFAULT_TIMEOUT = 600.0
DEFAULT_IDENTITY_TIMEOUT = 30.0
STDERR_TAIL_LINES = 20
_STDERR_KEEP = 64 * 1024
#: after the agent's process exited, how long its output pipes may stay open (held by a
#: daemon it left behind) before what it wrote is taken as its whole answer
PIPE_GRACE_SECONDS = 2.0


class CliAgent:
    """The :class:`~oasis_eval.contract.Agent` protocol over a subprocess.

    ``command`` is an argv list, or a string split with :func:`shlex.split` (no shell).
    ``env`` entries are added to the inherited environment (``inherit_env=False`` to
    start from an empty one). Concurrent ``execute`` calls run separate processes.
    """

    #: another process: it reaches only network endpoints (engine/access.py)
    endpoint_schemes = NETWORK_SCHEMES

    def __init__(
        self,
        command: Sequence[str] | str,
        timeout: float = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        *,
        identity: Mapping[str, Any] | None = None,
        identity_timeout: float = DEFAULT_IDENTITY_TIMEOUT,
        inherit_env: bool = True,
        max_output_bytes: int = MAX_ANSWER_BYTES,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
        if not argv:
            raise ValueError("CliAgent needs a non-empty command")
        self.command = argv
        self.timeout = float(timeout)
        self.identity_timeout = float(identity_timeout)
        self.cwd = Path(cwd) if cwd is not None else None
        self.max_output_bytes = max_output_bytes
        self._identity = dict(identity) if identity is not None else None
        if env is None and inherit_env:
            self.env: dict[str, str] | None = None
        else:
            base = dict(os.environ) if inherit_env else {}
            base.update(env or {})
            self.env = base

    def __repr__(self) -> str:
        return f"CliAgent({shlex.join(self.command)!r})"

    @property
    def _name(self) -> str:
        return f"agent command {shlex.join(self.command)!r}"

    async def identify(self) -> AgentReport:
        """The agent's identity report (05 §1.2): the configured one, else ``<command> identify``."""
        if self._identity is not None:
            return parse_report(self._identity, f"{self._name} (configured identity)")
        stdout = await self._run(
            [*self.command, "identify"], b"", self.identity_timeout, "identify"
        )
        source = f"{self._name} (identify)"
        return parse_report(parse_json_text(stdout, source), source)

    async def execute(self, task: AgentTask) -> AgentResponse:
        """Run the command once for ``task``; a bad exit or a bad answer is an agent fault."""
        check_reachable(task, self._name)
        payload = json.dumps(request_body(task), ensure_ascii=False).encode("utf-8") + b"\n"
        stdout = await self._run(self.command, payload, self.timeout, "execute")
        return parse_response(parse_json_text(stdout, self._name), self._name)

    async def aclose(self) -> None:
        """Nothing to release: every call owns (and reaps) its own process."""

    # ---- process handling -------------------------------------------------

    async def _run(self, argv: list[str], stdin: bytes, timeout: float, what: str) -> bytes:
        """Run ``argv`` with ``stdin``; its stdout, or an agent fault saying what went wrong."""
        process = await self._start(argv)
        pipes = _Pipes(process, self.max_output_bytes)
        try:
            with anyio.fail_after(timeout):
                returncode = await _converse(process, pipes, stdin)
        except TimeoutError:
            raise AgentFault(
                f"{self._name} did not answer within {timeout:g}s ({what}); process killed"
                + _stderr_tail(pipes.stderr)
            ) from None
        finally:
            with anyio.CancelScope(shield=True):
                await _reap(process)
        return self._answer(pipes, returncode, what)

    async def _start(self, argv: list[str]) -> Process:
        """Spawn the command in its own process group; unreachable when it cannot start."""
        try:
            return await anyio.open_process(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,  # own process group: a timeout kills the agent's children too
            )
        except FileNotFoundError as exc:
            raise AgentUnreachable(
                f"{self._name}: command not found ({exc.strerror}: {argv[0]!r})"
            ) from exc
        except OSError as exc:
            raise AgentUnreachable(f"{self._name}: cannot start ({exc})") from exc

    def _answer(self, pipes: _Pipes, returncode: int, what: str) -> bytes:
        """The stdout of a finished run, or the agent fault its exit or output amounts to."""
        if pipes.overflow:
            raise AgentFault(
                f"{self._name} wrote more than {self.max_output_bytes} bytes on stdout ({what})"
            )
        if returncode != 0:
            raise AgentFault(
                f"{self._name} exited with status {_status(returncode)} ({what})"
                + _stderr_tail(pipes.stderr)
            )
        if not pipes.stdout.strip():
            raise AgentFault(
                f"{self._name} printed nothing on stdout ({what})" + _stderr_tail(pipes.stderr)
            )
        return bytes(pipes.stdout)


class _Pipes:
    """What the process writes, collected while it runs (stdout bounded, the end of stderr)."""

    def __init__(self, process: Process, max_output_bytes: int) -> None:
        self.process = process
        self.max_output_bytes = max_output_bytes
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
        """Collect stderr, keeping only its end."""
        try:
            async for chunk in stream:
                self.stderr.extend(chunk)
                if len(self.stderr) > 2 * _STDERR_KEEP:
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


async def _converse(process: Process, pipes: _Pipes, stdin: bytes) -> int:
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


def _status(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"{returncode} ({signal.Signals(-returncode).name})"
        except ValueError:
            pass
    return str(returncode)


def _stderr_tail(stderr: bytes | bytearray) -> str:
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


async def _reap(process: Process) -> None:
    """Kill the process group if still alive, then wait for the process and close its pipes."""
    _kill_group(process)
    with anyio.move_on_after(5):
        await process.wait()
    _kill_stragglers(process.pid)
    await process.aclose()
