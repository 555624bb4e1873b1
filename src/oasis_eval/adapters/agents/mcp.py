"""An agent that is an MCP server (spec 04 §1: "an HTTP API, CLI wrapper, MCP server ...").

Tool contract (also in ``MCP_CONTRACT.md`` beside this module). The agent exposes two
MCP tools:

``identify``
    No arguments. Returns the identity document as JSON text (or structured content)::

        {"identity": {"name": str, "version": str, "description"?: str},
         "configuration": {<dimension>: <string|bool|number>},
         "tools"?: [str], "mode"?: str}

``execute``
    Arguments: the execute request body of the HTTP contract (interop §1)::

        {"prompt": str, "tools": [str] | null, "mode": str,
         "scope": {"namespaces"?: [str], "zones"?: [str]},
         "conversation"?: [str],                       # only when non-empty
         "environment"?: {"agent_endpoint"?: str, "agent_credentials"?: {...}}}

    Returns the HTTP response document as JSON text (or structured content)::

        {"actions": [{"id"?, "tool", "arguments", "result": str, "error"?,
                      "error_code"?, "duration_ms"?}],
         "reasoning": str, "final_answer": str, "model"?: str, "error"?: str}

Results are read from ``structuredContent`` when present (a lone ``{"result": ...}``
wrapper, as SDKs emit for non-object return types, is unwrapped), else from the
concatenated text content, parsed as JSON.

Outcome rules: an ``execute`` result flagged ``isError`` is the agent answering with
an error (:attr:`AgentResponse.error`, judged on the evidence; a JSON response
document in it is honoured). A server that cannot be started or reached, or a session
that fails before the tool is called, is :class:`AgentUnreachable` (the task was never
handed over). Everything else that prevents a conformant answer — the call fails, a
JSON-RPC error, a timeout, an ``identify`` error, unparseable content — is an
:class:`AgentFault`: the agent was reached and is judged on the environment's evidence.

Each ``identify``/``execute`` opens its own MCP session (for stdio: its own server
process), so scenarios are stateless by construction and concurrent calls never
share a connection. ``identify`` also checks that both tools are listed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import logging
import os
import shlex
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, TextIO

import anyio
import httpx2
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from ...contract import AgentFault, AgentReport, AgentResponse, AgentTask, AgentUnreachable
from ._config import split_command
from ._wire import (
    NETWORK_SCHEMES,
    check_reachable,
    error_payload,
    parse_json_text,
    parse_report,
    parse_response,
    request_body,
    snippet,
)
from .process import AgentProcess, findable, handoff_env, scenario_files

__all__ = [
    "DEFAULT_IDENTITY_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "EXECUTE_TOOL",
    "IDENTIFY_TOOL",
    "McpAgent",
]

IDENTIFY_TOOL = "identify"
EXECUTE_TOOL = "execute"
DEFAULT_TIMEOUT = 600.0
DEFAULT_IDENTITY_TIMEOUT = 30.0
_STDERR_TAIL_LINES = 20

# A transport factory gets a file for the server's stderr (stdio only) and the task of the
# call (None for identify), and returns the async context manager yielding the (read, write)
# streams mcp.Client wants.
_TransportFactory = Callable[[TextIO | None, AgentTask | None], AbstractAsyncContextManager[Any]]


class _AgentTextOnly(logging.Filter):
    """What an MCP agent sends can make the SDK log an error with a traceback (a stdout line
    that is not JSON-RPC, a broken message): the adapter reports agent faults itself, so the
    SDK's log line keeps its message, printable, without the traceback (no traceback from
    agent input, and no agent text driving the terminal)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        record.msg = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
        record.args = ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


#: the SDK's loggers that log what a server sends (see _AgentTextOnly)
SDK_LOGGERS = (
    "mcp.client.stdio",
    "mcp.client.streamable_http",
    "mcp.client.client",
    "mcp.client.caching",
    "mcp.shared.jsonrpc_dispatcher",
    "mcp.shared.dispatcher",
    "client",
)
for _name in SDK_LOGGERS:
    logging.getLogger(_name).addFilter(_AgentTextOnly())


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _describe(exc: BaseException) -> str:
    exc = _leaf(exc)
    if isinstance(exc, MCPError):
        return f"MCP error {exc.code}: {exc.message}"
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _content_text(result: CallToolResult) -> str:
    return "".join(
        getattr(block, "text", "")
        for block in result.content
        if getattr(block, "type", None) == "text"
    )


def _payload(result: CallToolResult, source: str) -> Any:
    """The JSON document a tool returned: structured content first, else the text content."""
    structured = result.structured_content
    if structured is not None:
        if isinstance(structured, dict) and set(structured) == {"result"}:
            structured = structured["result"]  # the SDK's wrapper for non-object return types
        if isinstance(structured, str):
            return parse_json_text(structured, source)
        return structured
    text = _content_text(result)
    if not text.strip():
        raise AgentFault(f"{source} returned no text content and no structured content")
    return parse_json_text(text, source)


class McpAgent:
    """The :class:`~oasis_eval.contract.Agent` protocol over MCP (stdio or streamable HTTP).

    Build it with :meth:`stdio` or :meth:`http`.
    """

    #: another process: it reaches only network endpoints (engine/access.py)
    endpoint_schemes = NETWORK_SCHEMES
    #: how its process is started (stdio only)
    process: AgentProcess | None = None

    def __init__(
        self,
        transport_factory: _TransportFactory,
        description: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        identity_timeout: float = DEFAULT_IDENTITY_TIMEOUT,
        identify_tool: str = IDENTIFY_TOOL,
        execute_tool: str = EXECUTE_TOOL,
        capture_stderr: bool = False,
    ) -> None:
        self._factory = transport_factory
        self.description = description
        self.timeout = float(timeout)
        self.identity_timeout = float(identity_timeout)
        self.identify_tool = identify_tool
        self.execute_tool = execute_tool
        self._capture_stderr = capture_stderr

    @classmethod
    def stdio(
        cls,
        command: str | Sequence[str],
        args: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        *,
        cwd: str | os.PathLike[str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        identity_timeout: float = DEFAULT_IDENTITY_TIMEOUT,
        identify_tool: str = IDENTIFY_TOOL,
        execute_tool: str = EXECUTE_TOOL,
        process: AgentProcess | None = None,
    ) -> McpAgent:
        """Launch the server as a subprocess per call, speaking MCP over its stdin/stdout.

        ``command`` may be a full argv (list, or a string split with
        :func:`._config.split_command`); ``args`` are appended. The server gets an explicit
        environment (:mod:`.process`: the allow-list, ``env``, the scenario's hand-off) and
        runs as ``process.user`` when one is set (``--agent-user``).
        """
        argv = split_command(command) if isinstance(command, str) else [str(c) for c in command]
        argv += [str(a) for a in args or ()]
        if not argv:
            raise ValueError("McpAgent.stdio needs a command")
        process = process or AgentProcess.build(env=env)
        if env and process.env != env:
            process = dataclasses.replace(process, env={**process.env, **env})

        def factory(
            errlog: TextIO | None, task: AgentTask | None
        ) -> AbstractAsyncContextManager[Any]:
            assert errlog is not None
            return _spawned(process, argv, cwd, errlog, task)

        agent = cls(
            factory,
            f"MCP agent {shlex.join(argv)!r} (stdio)",
            timeout=timeout,
            identity_timeout=identity_timeout,
            identify_tool=identify_tool,
            execute_tool=execute_tool,
            capture_stderr=True,
        )
        agent.process = process
        return agent

    @classmethod
    def http(
        cls,
        url: str,
        headers: Mapping[str, str] | None = None,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        identity_timeout: float = DEFAULT_IDENTITY_TIMEOUT,
        identify_tool: str = IDENTIFY_TOOL,
        execute_tool: str = EXECUTE_TOOL,
    ) -> McpAgent:
        """Connect to a streamable-HTTP MCP endpoint (e.g. ``http://host:8000/mcp``)."""
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"MCP agent URL must be http:// or https://, got {url!r}")
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"

        def factory(
            _errlog: TextIO | None, _task: AgentTask | None
        ) -> AbstractAsyncContextManager[Any]:
            # deadlines are enforced by the adapter; the client only bounds connecting
            client = httpx2.AsyncClient(
                headers=all_headers, timeout=httpx2.Timeout(None, connect=10.0)
            )
            return _owning(client, streamable_http_client(url, http_client=client))

        return cls(
            factory,
            f"MCP agent at {url}",
            timeout=timeout,
            identity_timeout=identity_timeout,
            identify_tool=identify_tool,
            execute_tool=execute_tool,
        )

    def __repr__(self) -> str:
        return f"McpAgent({self.description!r})"

    # ---- one MCP session per call ---------------------------------------

    async def _session_call(
        self,
        tool: str,
        arguments: dict[str, Any],
        timeout: float,
        check_tools: bool,
        task: AgentTask | None = None,
    ) -> tuple[CallToolResult | None, list[str] | None]:
        """Open a session, optionally list the tools, call ``tool``; (None, listed) if tools are missing."""
        with _stderr_capture(self._capture_stderr) as errlog:
            listed: list[str] | None = None
            phase = "connecting"
            try:
                with anyio.fail_after(timeout):
                    async with Client(self._factory(errlog, task), cache=None) as client:
                        if check_tools:
                            phase = "listing tools"
                            listed = [t.name for t in (await client.list_tools()).tools]
                            missing = [
                                n
                                for n in (self.identify_tool, self.execute_tool)
                                if n not in listed
                            ]
                            if missing:
                                return None, listed
                        phase = f"calling {tool}"
                        result = await client.call_tool(tool, arguments)
                        phase = "closing the session"
                return result, listed
            except TimeoutError:
                fault = AgentFault if phase.startswith("calling") else AgentUnreachable
                raise fault(
                    f"{self.description} did not answer within {timeout:g}s ({phase})"
                    + _tail(errlog)
                ) from None
            except AgentFault:
                raise
            except Exception as exc:
                leaf = _leaf(exc)
                # before the tool call nothing was handed over: the agent was never reached
                fault = AgentFault if phase.startswith(("calling", "closing")) else AgentUnreachable
                if isinstance(leaf, FileNotFoundError):
                    what = f"cannot start the server: command not found ({leaf.filename or leaf})"
                    fault = AgentUnreachable
                else:
                    what = f"failed while {phase}: {_describe(leaf)}"
                raise fault(f"{self.description}: {what}" + _tail(errlog)) from exc

    async def identify(self) -> AgentReport:
        """Call the identify tool (05 §1.2); names the missing tools when the server lacks them."""
        result, listed = await self._session_call(
            self.identify_tool, {}, self.identity_timeout, check_tools=True
        )
        if result is None:
            missing = [
                n for n in (self.identify_tool, self.execute_tool) if n not in (listed or [])
            ]
            raise AgentFault(
                f"{self.description} does not implement the OASIS agent tool contract: "
                f"missing tool(s) {', '.join(missing)} (server lists: {', '.join(listed or []) or 'none'})"
            )
        source = f"{self.description} ({self.identify_tool})"
        if result.is_error:
            raise AgentFault(f"{source} returned an error: {snippet(_content_text(result), 500)}")
        return parse_report(_payload(result, source), source)

    async def execute(self, task: AgentTask) -> AgentResponse:
        """Call the execute tool with ``task``; a tool error is an agent fault."""
        check_reachable(task, self.description)
        result, _ = await self._session_call(
            self.execute_tool, request_body(task), self.timeout, check_tools=False, task=task
        )
        assert result is not None
        source = f"{self.description} ({self.execute_tool})"
        if result.is_error:
            # the agent answered with an error; keep a response document if it sent one
            text = _content_text(result)
            try:
                data = (
                    result.structured_content
                    if result.structured_content is not None
                    else json.loads(text)
                )
            except ValueError:
                data = None
            if isinstance(data, dict) and ("actions" in data or error_payload(data) is not None):
                parsed = parse_response(data, source)
                return parsed.model_copy(
                    update={"error": parsed.error or f"{self.execute_tool} returned an error"}
                )
            return AgentResponse(
                error=text.strip() or f"{self.execute_tool} returned an error without a message"
            )
        return parse_response(_payload(result, source), source)

    async def aclose(self) -> None:
        """Nothing to release: every call owns (and closes) its own session."""


@contextlib.contextmanager
def _stderr_capture(enabled: bool) -> Iterator[TextIO | None]:
    """A file for the stdio server's stderr (read back into fault messages)."""
    if not enabled:
        yield None
        return
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        yield errlog


def _tail(errlog: TextIO | None) -> str:
    if errlog is None:
        return ""
    try:
        errlog.flush()
        errlog.seek(0)
        text = errlog.read()[-32768:].rstrip()
    except (OSError, ValueError):
        return ""
    if not text:
        return ""
    return "; last lines of server stderr:\n" + "\n".join(
        "  " + line for line in text.splitlines()[-_STDERR_TAIL_LINES:]
    )


@contextlib.asynccontextmanager
async def _spawned(
    process: AgentProcess,
    argv: list[str],
    cwd: str | os.PathLike[str] | None,
    errlog: TextIO,
    task: AgentTask | None,
) -> AsyncIterator[Any]:
    """The stdio transport of one call: the server started with its explicit environment and
    the scenario's hand-off (``KUBECONFIG`` written for it), as ``--agent-user`` when set."""
    if (process.user is not None or process.isolation.active) and not findable(
        argv[0], cwd, process.environment().get("PATH")
    ):  # setpriv or the launcher would exec it: "not found" here, as when run directly
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
    with scenario_files(process) as directory:
        started = process.argv(argv)
        params = StdioServerParameters(
            command=started[0],
            args=started[1:],
            env=process.environment(handoff_env(process, task, directory)),
            cwd=os.fspath(cwd) if cwd is not None else None,
        )
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams


class _owning:
    """Enter ``inner`` and close ``client`` afterwards (the SDK leaves a passed client open)."""

    def __init__(self, client: httpx2.AsyncClient, inner: AbstractAsyncContextManager[Any]) -> None:
        self._client = client
        self._inner = inner

    async def __aenter__(self) -> Any:
        await self._client.__aenter__()
        try:
            return await self._inner.__aenter__()
        except BaseException:
            await self._client.aclose()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        try:
            return await self._inner.__aexit__(exc_type, exc, tb)
        finally:
            await self._client.aclose()
