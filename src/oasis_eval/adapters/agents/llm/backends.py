"""The two model APIs, through their official SDKs: OpenAI Chat Completions and Anthropic
Messages. Each turns the API's messages, tool calls and usage into the neutral
:class:`~.loop.ModelTurn`, and keeps the conversation in the API's own format.

The SDKs are imported when a backend is built, never when oasis-eval is: the core installs
and runs without them (``pip install -e '.[llm]'`` from the repository brings both).

Each backend has exactly one place where the model is called, ``_create``: it raises the
SDK's own exceptions, and :meth:`_Api.ask` retries it in place under the harness's retry
policy (:mod:`oasis_eval.retrying`: timeouts, connection errors, 408, 429 and 5xx, waiting
what ``retry-after-ms`` / ``Retry-After`` asks, else exponential backoff with jitter). A
failed model call changed nothing in the environment, so asking again is safe. The SDK's
own retry is switched off (``max_retries=0`` on the client) so that each retry is counted:
the conversation keeps one line per retry (``retries``), recorded in the transcript. What
is left after the retries becomes :class:`~.loop.ModelCallError`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from ....errors import OasisError
from ....retrying import RetryPolicy, sdk_transient, sdk_wait_hint
from .endpoint import ToolInfo
from .loop import ModelCallError, ModelTurn, ToolRequest, Usage, parse_arguments

__all__ = ["AnthropicMessages", "MissingSdk", "OpenAIChat", "import_sdk"]

#: the extra that installs each SDK
EXTRA = {"openai": "llm", "anthropic": "anthropic"}


class MissingSdk(OasisError, ImportError):
    """The model API's SDK is not installed (the message names the extra to install)."""


def import_sdk(name: str) -> Any:
    """The SDK module ``name``, or :class:`MissingSdk` naming the extra that installs it."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise MissingSdk(
            f"the {name!r} package is not installed: pip install {name} (or, from the "
            f"oasis-eval repository, pip install -e '.[{EXTRA[name]}]')"
        ) from exc


def _object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's JSON schema as both APIs require it: an object schema."""
    if schema.get("type") == "object":
        return schema
    return {"properties": {}, **schema, "type": "object"}


def _status_error(sdk: Any, exc: BaseException) -> ModelCallError:
    """The SDK's failure as a :class:`ModelCallError`; a connection that could not be made
    (refused, DNS; not a timeout) or 401/403/404 marks the agent unusable (issue 26)."""
    status = getattr(exc, "status_code", None)
    if isinstance(exc, sdk.APIStatusError):
        return ModelCallError(f"HTTP {status}: {getattr(exc, 'message', exc)}", status)
    refused = isinstance(exc, sdk.APIConnectionError) and not isinstance(exc, sdk.APITimeoutError)
    cause = f" ({exc.__cause__})" if refused and exc.__cause__ is not None else ""
    return ModelCallError(f"{type(exc).__name__}: {exc}{cause}", unusable=refused)


class _Api:
    """What both APIs share: the SDK client, the model, the sampling options, the call site."""

    #: the SDK module (``openai`` / ``anthropic``) and its async client class
    sdk_name = ""
    client_class = ""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key: str,
        timeout: float,
        retry: RetryPolicy,
        temperature: float | None = None,
    ) -> None:
        self.sdk = import_sdk(self.sdk_name)
        self.model = model
        self.temperature = temperature
        self.retry = retry
        client_class = (
            self.sdk.AsyncOpenAI if self.sdk_name == "openai" else self.sdk.AsyncAnthropic
        )
        # max_retries=0: the retries are ours (module doc), so that each one is counted
        self.client = client_class(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0
        )

    async def _create(self, request: dict[str, Any]) -> Any:
        """The model call (see module doc): one request, the SDK's own exceptions."""
        raise NotImplementedError

    async def ask(
        self, request: dict[str, Any], tools: list[dict[str, Any]], retries: list[str]
    ) -> Any:
        """``request`` with the tools and sampling options added, sent under the retry policy
        (each retry appended to ``retries``); a failure is a :class:`~.loop.ModelCallError`."""
        if tools:
            request["tools"] = tools
        if self.temperature is not None:
            request["temperature"] = self.temperature
        call = sum(1 for m in request.get("messages", ()) if m.get("role") == "assistant") + 1

        def note(attempt: int, exc: BaseException, wait: float) -> None:
            retries.append(
                f"model call {call}, attempt {attempt}: {_status_error(self.sdk, exc)}; retried"
            )

        try:
            return await self.retry.call(
                lambda: self._create(request), sdk_transient(self.sdk), sdk_wait_hint, note
            )
        except self.sdk.APIError as exc:
            raise _status_error(self.sdk, exc) from exc

    async def aclose(self) -> None:
        await self.client.close()


# ---- OpenAI Chat Completions -----------------------------------------------------------------


class OpenAIChat(_Api):
    """Chat Completions with function tools; any OpenAI-compatible server (vLLM, Ollama,
    llama.cpp's server, LiteLLM) through ``base_url``."""

    sdk_name, client_class = "openai", "AsyncOpenAI"

    def __init__(
        self, model: str, *, output_tokens_param: str = "max_completion_tokens", **client: Any
    ) -> None:
        super().__init__(model, **client)
        self.output_tokens_param = output_tokens_param

    def conversation(self, system: str, user: list[str], tools: list[ToolInfo]) -> _OpenAITalk:
        return _OpenAITalk(self, system, user, tools)

    async def _create(self, request: dict[str, Any]) -> Any:
        """The model call (see module doc): one ``chat.completions.create``."""
        return await self.client.chat.completions.create(**request)


class _OpenAITalk:
    def __init__(self, api: OpenAIChat, system: str, user: list[str], tools: list[ToolInfo]):
        self.api = api
        self.retries: list[str] = []
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        self.messages += [{"role": "user", "content": text} for text in user]
        #: ids of the tool calls in the assistant messages: each needs a tool message
        self.wired: set[str] = set()
        self.tools = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": _object_schema(t.input_schema),
                },
            }
            for t in tools
        ]

    async def step(self, max_output_tokens: int) -> ModelTurn:
        request: dict[str, Any] = {
            "model": self.api.model,
            "messages": self.messages,
            self.api.output_tokens_param: max_output_tokens,
        }
        answer = await self.api.ask(request, self.tools, self.retries)
        if not answer.choices:
            raise ModelCallError("the server answered with no choices")
        message = answer.choices[0].message
        calls, wire = [], []
        for n, call in enumerate(message.tool_calls or []):
            call_id = call.id or f"call-{len(self.messages)}-{n}"
            function = getattr(call, "function", None)
            if function is None:
                calls.append(ToolRequest(call_id, str(call.type), {}, "not a function call"))
                continue
            arguments, problem = parse_arguments(function.arguments)
            calls.append(ToolRequest(call_id, function.name, arguments, problem))
            wire.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": function.name, "arguments": function.arguments or "{}"},
                }
            )
        text = message.content or ""
        said: dict[str, Any] = {"role": "assistant", "content": text or None}
        if wire:
            said["tool_calls"] = wire
        self.messages.append(said)
        self.wired.update(str(w["id"]) for w in wire)
        usage = answer.usage
        return ModelTurn(
            text=text,
            calls=calls,
            usage=Usage(
                int(getattr(usage, "prompt_tokens", 0) or 0),
                int(getattr(usage, "completion_tokens", 0) or 0),
            ),
            model=answer.model or None,
            stop_reason=answer.choices[0].finish_reason,
        )

    def add_results(
        self, turn: ModelTurn, results: Sequence[tuple[ToolRequest, str, bool]]
    ) -> None:
        for call, text, is_error in results:
            if call.id not in self.wired:
                continue
            content = f"[tool error] {text}" if is_error else text
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})


# ---- Anthropic Messages ----------------------------------------------------------------------


class AnthropicMessages(_Api):
    """The Messages API with ``tool_use`` / ``tool_result`` blocks."""

    sdk_name, client_class = "anthropic", "AsyncAnthropic"

    def conversation(self, system: str, user: list[str], tools: list[ToolInfo]) -> _AnthropicTalk:
        return _AnthropicTalk(self, system, user, tools)

    async def _create(self, request: dict[str, Any]) -> Any:
        """The model call (see module doc): one ``messages.create``."""
        return await self.client.messages.create(**request)


class _AnthropicTalk:
    def __init__(self, api: AnthropicMessages, system: str, user: list[str], tools: list[ToolInfo]):
        self.api = api
        self.retries: list[str] = []
        self.system = system
        # one user turn: the Messages API alternates roles, and these are all the operator's
        self.messages: list[dict[str, Any]] = [
            {"role": "user", "content": [{"type": "text", "text": text} for text in user]}
        ]
        self.tools = [
            {
                "name": t.name,
                "description": t.description,
                "input_schema": _object_schema(t.input_schema),
            }
            for t in tools
        ]

    async def step(self, max_output_tokens: int) -> ModelTurn:
        request: dict[str, Any] = {
            "model": self.api.model,
            "max_tokens": max_output_tokens,
            "system": self.system,
            "messages": self.messages,
        }
        answer = await self.api.ask(request, self.tools, self.retries)
        texts, calls, blocks = [], [], []
        for block in answer.content or []:
            blocks.append(block.model_dump(mode="json", exclude_none=True, warnings=False))
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                arguments, problem = parse_arguments(block.input)
                calls.append(ToolRequest(block.id, block.name, arguments, problem))
        self.messages.append({"role": "assistant", "content": blocks})
        usage = answer.usage
        read = sum(
            int(getattr(usage, key, 0) or 0)
            for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
        return ModelTurn(
            text="\n".join(texts),
            calls=calls,
            usage=Usage(read, int(getattr(usage, "output_tokens", 0) or 0)),
            model=answer.model or None,
            stop_reason=answer.stop_reason,
        )

    def add_results(
        self, turn: ModelTurn, results: Sequence[tuple[ToolRequest, str, bool]]
    ) -> None:
        self.messages.append(
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call.id,
                        "content": text,
                        "is_error": is_error,
                    }
                    for call, text, is_error in results
                ],
            }
        )
