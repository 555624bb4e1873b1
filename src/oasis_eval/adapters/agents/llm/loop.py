"""The tool loop of an LLM agent, the same for every model API (spec 04 §1 execute).

One scenario is one fresh conversation: the system prompt (mode and scope), the operator's
messages, and the environment's tools as ``tools/list`` describes them. Each step is one
model call; every tool call the model asks for goes to the environment as it is (the
environment answers what it does not know with an error), and its result goes back to the
model. The loop ends when the model answers without calling a tool, or when a budget is
spent: steps (model calls), tokens (input + output, summed over the calls as the server
reports them) or wall-clock time. A spent budget is recorded in the answer's ``error``,
never a silent truncation.

The answer records the whole conversation: every tool call with its arguments, result and
step (``actions``; the step's token usage rides on its first call), the model's words
between calls (``reasoning``), its last reply (``final_answer``) and the model the server
says answered (``model``). It is the agent's own account, never evidence (core §3.4).

A model call that fails after its retries is never an answer (issue 26). The agent's very
first model call refused for good (connection refused, DNS, 401/403/404: a wrong URL, key or
model) means the agent never worked: :class:`AgentUnusable`, and the run stops with no
verdict (exit 2), as for an agent command that cannot start. Any other failed model call,
later in the run, is an :class:`AgentFault` of its scenario: judged on what the environment
shows, flagged, and gated (engine/policies.py); the conversation so far rides along as the
fault's ``partial`` answer. Transient faults of a model call
(429, 5xx, timeouts) are retried in place by the backend before any of this; the answer's
``retries`` lists each one (see :mod:`.backends`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio

from ....contract import (
    AgentFault,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    AgentUnusable,
    ToolCall,
)
from ....errors import OasisError
from .endpoint import EndpointError, ToolInfo, ToolOutput, ToolSession, open_tools
from .prompt import system_prompt, user_messages

__all__ = [
    "Budgets",
    "ChatBackend",
    "Conversation",
    "ModelCallError",
    "ModelTurn",
    "Reach",
    "ToolRequest",
    "Usage",
    "run_conversation",
]


@dataclass(frozen=True)
class Budgets:
    """What one scenario may spend; any of them spent ends the loop (recorded)."""

    #: model calls
    max_steps: int = 30
    #: input + output tokens over all model calls, as the server reports them; None: no limit
    max_tokens: int | None = 500_000
    #: wall-clock seconds for the whole scenario (model calls and tool calls)
    time_seconds: float = 600.0
    #: output tokens of one model call
    max_output_tokens: int = 4096
    #: characters of one tool result shown to the model (the record keeps all of it)
    max_tool_result_chars: int = 32_000


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )

    def as_dict(self) -> dict[str, int]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens}


@dataclass(frozen=True)
class ToolRequest:
    """One tool call the model asked for. ``problem``: why it cannot be sent (bad arguments)."""

    id: str
    name: str
    arguments: dict[str, Any]
    problem: str | None = None


@dataclass(frozen=True)
class ModelTurn:
    """One model call's answer, in API-neutral form."""

    text: str
    calls: list[ToolRequest]
    usage: Usage
    model: str | None = None
    stop_reason: str | None = None


class ModelCallError(OasisError):
    """A model call failed (transport, HTTP status, unreadable answer); nothing changed.
    ``unusable``: the API refused the agent itself (connection refused, DNS, 401/403/404)."""

    def __init__(self, message: str, status: int | None = None, unusable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.unusable = unusable or status in (401, 403, 404)


@dataclass
class Reach:
    """Whether any model call of this agent ever answered (its first call decides AgentUnusable)."""

    answered: bool = False


class Conversation(Protocol):
    """One scenario's conversation with the model, in the API's own message format."""

    #: one line per model call retried in place (a transient fault, :mod:`oasis_eval.retrying`)
    retries: list[str]

    async def step(self, max_output_tokens: int) -> ModelTurn:
        """One model call on the conversation so far; its answer is appended."""
        ...

    def add_results(
        self, turn: ModelTurn, results: Sequence[tuple[ToolRequest, str, bool]]
    ) -> None:
        """Append the results (text, is_error) of ``turn``'s tool calls, in order."""
        ...


class ChatBackend(Protocol):
    """A model API: starts conversations (one per scenario)."""

    def conversation(self, system: str, user: list[str], tools: list[ToolInfo]) -> Conversation: ...


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """Tool arguments as a JSON object, from a JSON string or a mapping; else a problem."""
    if isinstance(raw, dict):
        return raw, None
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, None
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError as exc:
        return {}, f"the arguments are not valid JSON ({exc})"
    if not isinstance(value, dict):
        return {}, f"the arguments are not a JSON object (got {type(value).__name__})"
    return value, None


@dataclass
class _Record:
    """The conversation as it happened, turned into the agent's answer at the end."""

    actions: list[ToolCall] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    final: str = ""
    model: str | None = None
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    sent: int = 0
    error: str | None = None
    retries: list[str] = field(default_factory=list)

    def turn(self, turn: ModelTurn) -> None:
        self.steps += 1
        self.usage = self.usage + turn.usage
        self.model = turn.model or self.model
        if turn.calls and turn.text.strip():
            self.words.append(turn.text.strip())
        self.final = turn.text.strip()

    def response(self) -> AgentResponse:
        return AgentResponse(
            actions=self.actions,
            reasoning="\n\n".join(self.words),
            final_answer=self.final,
            model=self.model,
            error=self.error,
            retries=list(self.retries),
        )


def _remaining(deadline: float) -> float:
    return deadline - time.monotonic()


async def _send(
    tools: ToolSession, call: ToolRequest, deadline: float, record: _Record, step: int
) -> tuple[str, bool] | None:
    """Send one call to the environment and record it; None when the time budget ran out."""
    extra: dict[str, Any] = {"step": step}
    if call.problem is not None:
        text = f"not sent: {call.problem}"
        record.actions.append(
            ToolCall(id=call.id, tool=call.name, arguments={}, error=text, sent=False, **extra)
        )
        return text, True
    started = time.monotonic()
    try:
        with anyio.fail_after(max(_remaining(deadline), 0.0)):
            record.sent += 1
            output: ToolOutput = await tools.call(call.name, call.arguments)
    except TimeoutError:
        record.actions.append(
            ToolCall(
                id=call.id,
                tool=call.name,
                arguments=call.arguments,
                error="cut short: the time budget ran out during the call",
                **extra,
            )
        )
        return None
    except Exception as exc:  # noqa: BLE001 - the model is told, the record keeps it
        output = ToolOutput(f"the tool call failed: {type(exc).__name__}: {exc}", True)
    record.actions.append(
        ToolCall(
            id=call.id,
            tool=call.name,
            arguments=call.arguments,
            result=output.text,
            error=output.text if output.is_error else None,
            duration_ms=round((time.monotonic() - started) * 1000, 1),
            **extra,
        )
    )
    return output.text, output.is_error


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[… {len(text) - limit} more characters not shown]"


def _spent(budgets: Budgets, record: _Record, deadline: float) -> str | None:
    if record.steps >= budgets.max_steps:
        return f"steps ({record.steps} model calls of {budgets.max_steps})"
    if budgets.max_tokens is not None and record.usage.total >= budgets.max_tokens:
        return f"tokens ({record.usage.total} of {budgets.max_tokens})"
    if _remaining(deadline) <= 0:
        return f"time ({budgets.time_seconds:g}s)"
    return None


async def _drive(
    conv: Conversation,
    tools: ToolSession,
    budgets: Budgets,
    deadline: float,
    record: _Record,
    reach: Reach,
) -> None:
    while True:
        spent = _spent(budgets, record, deadline)
        if spent is not None:
            record.error = (
                f"budget exhausted: {spent} after {record.steps} step(s), "
                f"{record.usage.total} tokens; the model was still calling tools"
            )
            return
        try:
            with anyio.fail_after(_remaining(deadline)):
                turn = await conv.step(budgets.max_output_tokens)
        except TimeoutError:
            record.error = (
                f"budget exhausted: time ({budgets.time_seconds:g}s) during model call "
                f"{record.steps + 1}, {record.usage.total} tokens"
            )
            return
        except ModelCallError as exc:
            if exc.unusable and not reach.answered:
                raise AgentUnusable(
                    f"the model API refused the agent's first call: {exc} (check the model "
                    "name, base_url and API key)"
                ) from exc
            raise AgentFault(
                f"model call {record.steps + 1} failed: {exc}", partial=record.response()
            ) from exc
        reach.answered = True
        record.turn(turn)
        if not turn.calls:
            return
        first_index = len(record.actions)
        results: list[tuple[ToolRequest, str, bool]] = []
        for call in turn.calls:
            sent = await _send(tools, call, deadline, record, record.steps)
            if sent is None:
                record.error = (
                    f"budget exhausted: time ({budgets.time_seconds:g}s) during a tool call "
                    f"of step {record.steps}"
                )
                break
            results.append((call, _clip(sent[0], budgets.max_tool_result_chars), sent[1]))
        if len(record.actions) > first_index:
            first = record.actions[first_index]
            record.actions[first_index] = first.model_copy(update={"usage": turn.usage.as_dict()})
        if record.error is not None:
            return
        conv.add_results(turn, results)


async def run_conversation(
    backend: ChatBackend,
    task: AgentTask,
    budgets: Budgets,
    label: str,
    reach: Reach | None = None,
) -> AgentResponse:
    """One scenario: list the environment's tools, run the tool loop, answer (module doc)."""
    env = task.environment
    if env is None or not env.agent_endpoint:
        raise AgentUnreachable(
            f"{label} reaches its tools through the environment's agent_endpoint, and this "
            "task has none (the provider gave the agent no endpoint)"
        )
    deadline = time.monotonic() + budgets.time_seconds
    record = _Record()
    try:
        await _session(backend, task, budgets, deadline, record, reach or Reach())
    except EndpointError as exc:
        if record.sent:
            record.error = record.error or f"the environment's tools failed: {exc}"
            return record.response()
        raise AgentUnreachable(f"{label}: {exc}") from exc
    return record.response()


async def _session(
    backend: ChatBackend,
    task: AgentTask,
    budgets: Budgets,
    deadline: float,
    record: _Record,
    reach: Reach,
) -> None:
    """The loop inside one tool session; our own faults come out bare, not in the exception
    group the MCP client's task group wraps them in."""
    env = task.environment
    assert env is not None and env.agent_endpoint
    try:
        async with open_tools(
            env.agent_endpoint, env.agent_credentials, timeout=budgets.time_seconds
        ) as tools:
            try:
                with anyio.fail_after(max(_remaining(deadline), 0.0)):
                    listed = await tools.list_tools()
            except Exception as exc:
                raise EndpointError(
                    f"cannot list the tools of {env.agent_endpoint}: {exc}"
                ) from exc
            conv = backend.conversation(
                system_prompt(task, [t.name for t in listed]), user_messages(task), listed
            )
            record.retries = conv.retries  # the same list: retries land as they happen
            await _drive(conv, tools, budgets, deadline, record, reach)
    except BaseExceptionGroup as group:
        ours = [e for e in _leaves(group) if isinstance(e, (AgentFault, EndpointError))]
        if ours:
            raise ours[0] from None
        raise


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]
