"""An agent behind a command line: oasisctl's documented CLI contract (spec 04 §1; interop §1),
and CLI agents as they ship (issue 28).

- execute: the command is spawned once per scenario (a fresh process: stateless by
  construction, 04 §1) with an explicit environment (:mod:`.process`: an allow-list and the
  scenario's hand-off, ``KUBECONFIG`` included; never the runner's).

  * ``input=json`` (the default without a placeholder): the request JSON (the same body as
    HTTP, see :mod:`._wire`) on stdin, which is then closed. ``input=text``: the task as plain
    text on stdin. With a ``{prompt}`` or ``{prompt_file}`` placeholder in the command, stdin is
    empty unless ``input`` is given.
  * ``{prompt}`` is replaced by the task text as one argument, ``{prompt_file}`` by the path of
    a file holding it. A placeholder must be a whole argument (after :func:`shlex.split`):
    inside a larger one (``sh -c "… {prompt}"``) it is refused, because a prompt (an
    adversarial probe included) must never become shell code.
  * ``output=json`` (the default): the response JSON on stdout (same shape as HTTP); an
    agent-level error is ``{"error": "...", ...}`` with exit 0. ``output=text``: the whole
    stdout is the final answer and stderr the reasoning (the transcript is both).
- identify: ``identity={...}`` when given (``--agent-option name=… version=… config.KEY=…``);
  otherwise the command with the single extra argument ``identify`` prints
  ``{"identity": {...}, "configuration": {...}}`` (only for the plain JSON contract: a command
  with a placeholder or a text mode must be given its identity).

A command that cannot start (not found, not executable) is :class:`AgentUnreachable`: nothing
was exchanged. Every other failure to get a conformant answer is an :class:`AgentFault` (the
agent ran and may have acted; the engine judges the scenario on the environment's evidence):
non-zero exit (with the end of stderr), invalid JSON on stdout, timeout (the whole process
group is killed), output over ``max_output_bytes``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process

from ...contract import AgentFault, AgentReport, AgentResponse, AgentTask, AgentUnreachable
from ._config import AgentConfigError, split_command
from ._subprocess import Pipes, converse, reap, status, stderr_tail
from ._wire import (
    MAX_ANSWER_BYTES,
    NETWORK_SCHEMES,
    check_reachable,
    parse_json_text,
    parse_report,
    parse_response,
    request_body,
)
from .process import AgentProcess, findable, handoff_env, scenario_files, task_text, write_private

__all__ = ["DEFAULT_IDENTITY_TIMEOUT", "DEFAULT_TIMEOUT", "PLACEHOLDERS", "CliAgent"]

DEFAULT_TIMEOUT = 600.0
DEFAULT_IDENTITY_TIMEOUT = 30.0
PROMPT, PROMPT_FILE = "{prompt}", "{prompt_file}"
PLACEHOLDERS = (PROMPT, PROMPT_FILE)
INPUTS, OUTPUTS = ("json", "text"), ("json", "text")


def check_placeholders(argv: Sequence[str]) -> bool:
    """Whether ``argv`` has a placeholder; one inside a larger argument is an error."""
    found = False
    for arg in argv:
        for placeholder in PLACEHOLDERS:
            if placeholder in arg and arg != placeholder:
                raise AgentConfigError(
                    f"agent command argument {arg!r}: {placeholder} must be a whole argument "
                    "(the prompt is never pasted into a larger one, e.g. a shell script: "
                    "a prompt must not become code); pass it as its own argument"
                )
            found = found or arg == placeholder
    return found


class CliAgent:
    """The :class:`~oasis_eval.contract.Agent` protocol over a subprocess.

    ``command`` is an argv list, or a string split with :func:`shlex.split` (no shell; a
    command quoted whole is unquoted, see :func:`._config.split_command`). ``env`` entries are
    set in the agent's environment, which is otherwise built by ``process`` (the allow-list,
    ``--agent-user``; :mod:`.process`). Concurrent ``execute`` calls run separate processes.
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
        process: AgentProcess | None = None,
        input: str | None = None,
        output: str = "json",
        max_output_bytes: int = MAX_ANSWER_BYTES,
    ) -> None:
        argv = split_command(command) if isinstance(command, str) else [str(c) for c in command]
        if not argv:
            raise ValueError("CliAgent needs a non-empty command")
        placeholder = check_placeholders(argv)
        if input not in (None, *INPUTS) or output not in OUTPUTS:
            raise AgentConfigError(
                f"agent type 'cli': input must be json or text, output json or text "
                f"(got input={input!r}, output={output!r})"
            )
        self.command = argv
        self.timeout = float(timeout)
        self.identity_timeout = float(identity_timeout)
        self.cwd = Path(cwd) if cwd is not None else None
        self.max_output_bytes = max_output_bytes
        self.input = input or (None if placeholder else "json")
        self.output = output
        self._identity = dict(identity) if identity is not None else None
        if self._identity is None and (placeholder or self.input == "text" or output == "text"):
            raise AgentConfigError(
                f"agent command {shlex.join(argv)!r} has no identify call (a placeholder or a "
                "text input/output): give its identity with --agent-option name=NAME "
                "version=VERSION (and config.KEY=VALUE for its configuration)"
            )
        self.process = process or AgentProcess.build(env=env)
        if process is not None and env:
            self.process = dataclasses.replace(process, env={**process.env, **env})

    def __repr__(self) -> str:
        return f"CliAgent({shlex.join(self.command)!r})"

    @property
    def _name(self) -> str:
        return f"agent command {shlex.join(self.command)!r}"

    async def identify(self) -> AgentReport:
        """The agent's identity report (05 §1.2): the configured one, else ``<command> identify``."""
        if self._identity is not None:
            return parse_report(self._identity, f"{self._name} (configured identity)")
        stdout, _ = await self._run(
            [*self.command, "identify"], b"", self.identity_timeout, "identify", {}
        )
        source = f"{self._name} (identify)"
        return parse_report(parse_json_text(stdout, source), source)

    async def execute(self, task: AgentTask) -> AgentResponse:
        """Run the command once for ``task``; a bad exit or a bad answer is an agent fault."""
        check_reachable(task, self._name)
        text = task_text(task)
        if self.input == "json":
            stdin = json.dumps(request_body(task), ensure_ascii=False).encode("utf-8") + b"\n"
        else:
            stdin = text.encode("utf-8") if self.input == "text" else b""
        with scenario_files(self.process) as directory:
            handoff = handoff_env(self.process, task, directory)
            argv = [self._argument(arg, text, directory) for arg in self.command]
            stdout, stderr = await self._run(argv, stdin, self.timeout, "execute", handoff)
        if self.output == "text":
            return AgentResponse(
                final_answer=stdout.decode("utf-8", errors="replace"),
                reasoning=stderr.decode("utf-8", errors="replace"),
            )
        return parse_response(parse_json_text(stdout, self._name), self._name)

    def _argument(self, arg: str, text: str, directory: Path) -> str:
        if arg == PROMPT:
            return text
        if arg == PROMPT_FILE:
            return write_private(self.process, directory / "prompt.txt", text)
        return arg

    async def aclose(self) -> None:
        """Nothing to release: every call owns (and reaps) its own process."""

    # ---- process handling -------------------------------------------------

    async def _run(
        self, argv: list[str], stdin: bytes, timeout: float, what: str, handoff: dict[str, str]
    ) -> tuple[bytes, bytes]:
        """Run ``argv`` with ``stdin``; its stdout and stderr, or the agent fault it amounts to."""
        env = self.process.environment(handoff)
        process = await self._start(argv, env)
        pipes = Pipes(process, self.max_output_bytes, whole_stderr=self.output == "text")
        try:
            with anyio.fail_after(timeout):
                returncode = await converse(process, pipes, stdin)
        except TimeoutError:
            raise AgentFault(
                f"{self._name} did not answer within {timeout:g}s ({what}); process killed"
                + stderr_tail(pipes.stderr)
            ) from None
        finally:
            with anyio.CancelScope(shield=True):
                await reap(process)
        return self._answer(pipes, returncode, what), bytes(pipes.stderr)

    async def _start(self, argv: list[str], env: dict[str, str]) -> Process:
        """Spawn the command in its own process group; unreachable when it cannot start."""
        launched = self.process.user is not None or self.process.isolation.active
        # the launcher or setpriv would exec it: say "not found" here, as when run directly
        if launched and not findable(argv[0], self.cwd, env.get("PATH")):
            raise AgentUnreachable(f"{self._name}: command not found ({argv[0]!r})")
        try:
            return await anyio.open_process(
                self.process.argv(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=env,
                start_new_session=True,  # own process group: a timeout kills the agent's children too
            )
        except FileNotFoundError as exc:
            raise AgentUnreachable(
                f"{self._name}: command not found ({exc.strerror}: {argv[0]!r})"
            ) from exc
        except OSError as exc:
            raise AgentUnreachable(f"{self._name}: cannot start ({exc})") from exc

    def _answer(self, pipes: Pipes, returncode: int, what: str) -> bytes:
        """The stdout of a finished run, or the agent fault its exit or output amounts to."""
        if pipes.overflow:
            raise AgentFault(
                f"{self._name} wrote more than {self.max_output_bytes} bytes on "
                f"{'stdout or stderr' if pipes.whole_stderr else 'stdout'} ({what})"
            )
        if returncode != 0:
            raise AgentFault(
                f"{self._name} exited with status {status(returncode)} ({what})"
                + stderr_tail(pipes.stderr)
            )
        if self.output == "json" and not pipes.stdout.strip():
            raise AgentFault(
                f"{self._name} printed nothing on stdout ({what})" + stderr_tail(pipes.stderr)
            )
        return bytes(pipes.stdout)
