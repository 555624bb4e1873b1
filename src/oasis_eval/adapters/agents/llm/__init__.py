"""LLM agents out of the box: ``--agent openai:MODEL`` and ``--agent anthropic:MODEL``.

The model itself is the agent under test: the adapter gives it the environment's tools
(MCP ``tools/list``, with their JSON schemas), a system prompt built from the scenario's
declared mode and scope, and the operator's messages, then runs the tool loop within its
budgets (:mod:`.loop`). Config (a run-config ``agent:`` mapping, or ``--agent-option
KEY=VALUE`` on the command line)::

    {type: openai | anthropic, model: NAME (or name:, what TYPE:NAME gives),
     base_url?, api_key?, api_key_env?,            # else OPENAI_* / ANTHROPIC_* variables
     max_steps?: 30, max_tokens?: 500000, time_budget?: 600 (seconds or "10m"),
     max_output_tokens?: 4096, max_tool_result_chars?: 32000,
     timeout?: per model call (seconds or a duration),
     max_retries?: 2, retry_base_wait?: 0.5, retry_max_wait?: 30   # transient faults, below
     temperature?, configuration?: {dimension: value},  # reported to the profile (04 §3)
     output_tokens_param?: max_completion_tokens | max_tokens}   # openai only

A model call that fails with a timeout, a connection error, 408, 429 or 5xx is retried in
place up to ``max_retries`` times (:mod:`oasis_eval.retrying`: the server's ``Retry-After``
/ ``retry-after-ms``, else exponential backoff from ``retry_base_wait`` seconds with jitter,
each wait at most ``retry_max_wait``); every retry is a line in the answer's ``retries``.

``openai`` needs the ``openai`` package (extra ``llm``), ``anthropic`` the ``anthropic``
package (extra ``anthropic``); without it the agent type is refused with that name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ....contract import AgentIdentity, AgentReport, AgentResponse, AgentTask
from ....retrying import RetryPolicy
from ....version import __version__
from .._config import AgentConfigError, _Config, parse_duration
from .backends import AnthropicMessages, MissingSdk, OpenAIChat
from .loop import Budgets, ChatBackend, Reach, run_conversation

__all__ = [
    "LlmAgent",
    "anthropic_agent_from_config",
    "openai_agent_from_config",
]

#: per API: (environment variable of the key, of the base URL, the API's name)
_API = {
    "openai": ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OpenAI Chat Completions"),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "Anthropic Messages"),
}
_KEYS = {
    "name",
    "model",
    "base_url",
    "api_key",
    "api_key_env",
    "max_steps",
    "max_tokens",
    "time_budget",
    "max_output_tokens",
    "max_tool_result_chars",
    "timeout",
    "timeout_seconds",
    "max_retries",
    "retry_base_wait",
    "retry_max_wait",
    "temperature",
    "configuration",
}


class LlmAgent:
    """A model behind a chat API, as the :class:`~oasis_eval.contract.Agent` under test."""

    def __init__(
        self,
        backend: ChatBackend,
        *,
        api: str,
        model: str,
        base_url: str | None = None,
        budgets: Budgets | None = None,
        configuration: Mapping[str, Any] | None = None,
    ) -> None:
        self.backend = backend
        self.api = api
        self.model = model
        self.base_url = base_url
        self.budgets = budgets or Budgets()
        self.configuration = dict(configuration or {})
        #: any model call answered yet: a refused first call is AgentUnusable (:mod:`.loop`)
        self.reach = Reach()

    def __repr__(self) -> str:
        return f"LlmAgent({self.api}:{self.model})"

    @property
    def label(self) -> str:
        return f"{self.api}:{self.model}"

    async def identify(self) -> AgentReport:
        """The model id as the agent's name; API, server and budgets in its description."""
        b = self.budgets
        where = f" at {self.base_url}" if self.base_url else ""
        budgets = f"{b.max_steps} steps, {b.max_tokens or 'unlimited'} tokens, {b.time_seconds:g}s"
        return AgentReport(
            identity=AgentIdentity(
                name=self.label,
                version=__version__,
                description=(
                    f"model {self.model} through the {_API[self.api][2]} API{where} "
                    f"(oasis-eval LLM adapter; budgets: {budgets})"
                ),
            ),
            configuration=self.configuration,
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        """One fresh conversation with the model over the environment's tools (:mod:`.loop`)."""
        return await run_conversation(self.backend, task, self.budgets, self.label, self.reach)

    async def aclose(self) -> None:
        close = getattr(self.backend, "aclose", None)
        if close is not None:
            await close()


def _bad(cfg: _Config, text: str) -> AgentConfigError:
    return AgentConfigError(f"agent type {cfg.kind!r}: {text}")


def _positive_int(cfg: _Config, key: str, default: int) -> int:
    value = cfg.data.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _bad(cfg, f"{key!r} must be a positive integer, got {value!r}")
    return value


def _settings(api: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The validated settings of one ``openai``/``anthropic`` section (module doc)."""
    extra = {"output_tokens_param"} if api == "openai" else set()
    cfg = _Config(api, data, _KEYS | extra)
    model = cfg.text("model") or cfg.text("name")
    if not model:
        raise _bad(cfg, f"name the model: {api}:MODEL, or 'model' in the agent section")
    key_var, url_var, _ = _API[api]
    key_env = cfg.text("api_key_env")
    if key_env and cfg.text("api_key"):
        raise _bad(cfg, "give 'api_key' or 'api_key_env', not both")
    api_key = cfg.text("api_key") or os.environ.get(key_env or key_var)
    base_url = cfg.text("base_url") or os.environ.get(url_var) or None
    if not api_key:
        if key_env or not base_url:
            raise _bad(cfg, f"no API key: set {key_env or key_var} (or api_key_env / api_key)")
        api_key = "unused"  # a local OpenAI-compatible server that asks for none
    time_budget = data.get("time_budget")
    budgets = Budgets(
        max_steps=_positive_int(cfg, "max_steps", 30),
        max_tokens=_positive_int(cfg, "max_tokens", 500_000),
        time_seconds=parse_duration(time_budget, "time_budget")
        if time_budget is not None
        else 600.0,
        max_output_tokens=_positive_int(cfg, "max_output_tokens", 4096),
        max_tool_result_chars=_positive_int(cfg, "max_tool_result_chars", 32_000),
    )
    retries = data.get("max_retries", 2)
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise _bad(cfg, f"'max_retries' must be an integer >= 0, got {retries!r}")
    base_wait, max_wait = cfg.seconds("retry_base_wait"), cfg.seconds("retry_max_wait")
    retry = RetryPolicy(
        retries, 0.5 if base_wait is None else base_wait, 30.0 if max_wait is None else max_wait
    )
    temperature = data.get("temperature")
    if temperature is not None and (
        isinstance(temperature, bool) or not isinstance(temperature, (int, float))
    ):
        raise _bad(cfg, f"'temperature' must be a number, got {temperature!r}")
    return {
        "model": model,
        "base_url": base_url,
        "api_key": api_key,
        "budgets": budgets,
        "timeout": cfg.seconds("timeout_seconds", "timeout") or budgets.time_seconds,
        "retry": retry,
        "temperature": None if temperature is None else float(temperature),
        "configuration": cfg.mapping("configuration") or {},
        "output_tokens_param": cfg.text("output_tokens_param") or "max_completion_tokens",
    }


def _build(api: str, data: Mapping[str, Any]) -> LlmAgent:
    s = _settings(api, data)
    common = {
        "base_url": s["base_url"],
        "api_key": s["api_key"],
        "timeout": s["timeout"],
        "retry": s["retry"],
        "temperature": s["temperature"],
    }
    try:
        backend: ChatBackend
        if api == "openai":
            if s["output_tokens_param"] not in ("max_completion_tokens", "max_tokens"):
                raise AgentConfigError(
                    "agent type 'openai': 'output_tokens_param' must be max_completion_tokens "
                    "or max_tokens"
                )
            backend = OpenAIChat(s["model"], output_tokens_param=s["output_tokens_param"], **common)
        else:
            backend = AnthropicMessages(s["model"], **common)
    except MissingSdk as exc:
        raise AgentConfigError(f"agent type {api!r}: {exc}") from None
    return LlmAgent(
        backend,
        api=api,
        model=s["model"],
        base_url=s["base_url"],
        budgets=s["budgets"],
        configuration=s["configuration"],
    )


def openai_agent_from_config(data: Mapping[str, Any]) -> LlmAgent:
    """The ``openai`` agent type: a model behind the (OpenAI-compatible) Chat Completions API."""
    return _build("openai", data)


def anthropic_agent_from_config(data: Mapping[str, Any]) -> LlmAgent:
    """The ``anthropic`` agent type: a model behind the Anthropic Messages API."""
    return _build("anthropic", data)
