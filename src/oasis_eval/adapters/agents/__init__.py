"""Agent adapters: the spec 04 §1 agent interface over HTTP, a CLI, MCP, or in-process Python.

All adapters implement :class:`oasis_eval.contract.Agent` and speak the same
JSON documents (oasisctl's HTTP agent contract, interop §1; see :mod:`._wire`).

:func:`agent_from_config` builds one from a URL string or from a run-config ``agent:``
section::

    "http://localhost:8080/agent"                                  # = {type: http, url: ...}
    {type: http, url: ..., token?, token_env?, headers?, timeout_seconds?, identity_timeout_seconds?}
    {type: cli, command: [...] | "...", env?, pass_env?, user?, isolation?, cwd?, input?, output?,
     identity? | name?, version?, description?, config.KEY?, timeout_seconds?, ...}
    {type: mcp, transport: stdio, command: [...] | "...", args?, env?, pass_env?, user?, cwd?, ...}
    {type: mcp, transport: http, url: ..., headers?, token?, token_env?, timeout_seconds?, ...}
    {type: python, object: "package.module:attr", options?: {...}, timeout_seconds?}
    {type: openai | anthropic, model: NAME, base_url?, api_key_env?, max_steps?, ...}  # see .llm

A subprocess agent (``cli``, ``mcp`` over stdio) gets an explicit environment, never the
runner's (:mod:`.process`): ``pass_env`` names variables to pass (``--agent-env``), ``env``
sets values, ``user`` runs it as another user (``--agent-user``), ``isolation`` (``auto``,
``required``, ``off``) says whether it gets its own PID namespace (:mod:`.isolation`).

``timeout`` is accepted for ``timeout_seconds`` (a number of seconds or a Go-style
duration such as ``"90s"``, ``"5m"``, ``"1h30m"``). Unknown keys are an error.

Third-party agent types register an entry point in the ``oasis_eval.agents`` group;
the loaded object is called with the config dict (or its ``from_config`` is, when it
has one) and must return an Agent. Built-in types take precedence over entry points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint
from typing import TYPE_CHECKING, Any, TypedDict

from ... import plugin_loader
from ...contract import Agent
from ._config import AgentConfigError, _Config, identity_options, parse_duration
from .cli import CliAgent
from .http import HttpAgent
from .process import AgentProcess
from .python import FunctionAgent, PythonAgent, load_object

__all__ = [
    "ENTRY_POINT_GROUP",
    "AgentConfigError",
    "CliAgent",
    "FunctionAgent",
    "HttpAgent",
    "McpAgent",
    "PythonAgent",
    "agent_from_config",
    "agent_warnings",
    "anthropic_agent_from_config",
    "cli_agent_from_config",
    "http_agent_from_config",
    "known_agent_types",
    "mcp_agent_from_config",
    "openai_agent_from_config",
    "parse_duration",
    "python_agent_from_config",
]

ENTRY_POINT_GROUP = plugin_loader.AGENTS


if TYPE_CHECKING:
    from .mcp import McpAgent


def __getattr__(name: str) -> Any:
    # the MCP SDK is heavy to import: load it only when an MCP agent is wanted
    if name == "McpAgent":
        from .mcp import McpAgent

        return McpAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_TIMEOUT_KEYS = {"timeout_seconds", "timeout", "identity_timeout_seconds"}


class _Timeouts(TypedDict, total=False):
    """The timeout keyword arguments every agent adapter accepts."""

    timeout: float
    identity_timeout: float


def _timeouts(cfg: _Config) -> _Timeouts:
    kwargs: _Timeouts = {}
    if (seconds := cfg.seconds("timeout_seconds", "timeout")) is not None:
        kwargs["timeout"] = seconds
    if (seconds := cfg.seconds("identity_timeout_seconds")) is not None:
        kwargs["identity_timeout"] = seconds
    return kwargs


def http_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``http`` agent type: an agent served at ``url`` (guide "Agent contract" over HTTP)."""
    cfg = _Config("http", data, {"url", "token", "token_env", "headers"} | _TIMEOUT_KEYS)
    return HttpAgent(
        cfg.text("url", required=True) or "",
        token=cfg.token(),
        headers=cfg.str_mapping("headers"),
        **_timeouts(cfg),
    )


def cli_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``cli`` agent type: a command given the task on stdin, as an argument or in a file,
    answering on stdout (JSON or text; see :mod:`.cli`)."""
    data, identity = identity_options(data)
    cfg = _Config(
        "cli",
        data,
        {"command", "env", "cwd", "identity", "input", "output"} | _PROCESS_KEYS | _TIMEOUT_KEYS,
    )
    if identity is not None and cfg.mapping("identity") is not None:
        raise AgentConfigError(
            "agent type 'cli': give 'identity' or name/version/config.KEY, not both"
        )
    return CliAgent(
        cfg.command(),
        cwd=cfg.text("cwd"),
        identity=identity or cfg.mapping("identity"),
        process=_process(cfg),
        input=cfg.text("input"),
        output=cfg.text("output") or "json",
        **_timeouts(cfg),
    )


_PROCESS_KEYS = {"pass_env", "user", "isolation"}


def _process(cfg: _Config) -> AgentProcess:
    """How a subprocess agent is started (:mod:`.process`): ``pass_env`` (``--agent-env``),
    ``env``, ``user`` (``--agent-user``) and ``isolation`` (:mod:`.isolation`; YAML's
    ``off``/``false`` is off, ``true`` required) of its section."""
    isolation = cfg.data.get("isolation")
    if isinstance(isolation, bool):
        isolation = "required" if isolation else "off"
    return AgentProcess.build(
        cfg.str_list("pass_env"),
        cfg.str_mapping("env"),
        cfg.text("user"),
        "auto" if isolation is None else str(isolation),
    )


def agent_warnings(agent: object) -> list[str]:
    """What the run must say about how ``agent`` runs (a subprocess agent without its PID
    namespace, :mod:`.isolation`)."""
    process = getattr(agent, "process", None)
    warning = process.isolation.warning if isinstance(process, AgentProcess) else None
    return [f"agent: {warning}"] if warning else []


def mcp_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``mcp`` agent type: an MCP server exposing identify/execute tools, over stdio or HTTP."""
    from .mcp import McpAgent  # the MCP SDK is heavy: loaded only for MCP agents

    transport = data.get("transport") or ("http" if "url" in data else "stdio")
    if transport == "stdio":
        cfg = _Config(
            "mcp",
            data,
            {"transport", "command", "args", "env", "cwd"} | _PROCESS_KEYS | _TIMEOUT_KEYS,
        )
        return McpAgent.stdio(
            cfg.command(),
            cfg.str_list("args"),
            cwd=cfg.text("cwd"),
            process=_process(cfg),
            **_timeouts(cfg),
        )
    if transport in ("http", "streamable-http", "streamable_http"):
        cfg = _Config(
            "mcp", data, {"transport", "url", "headers", "token", "token_env"} | _TIMEOUT_KEYS
        )
        return McpAgent.http(
            cfg.text("url", required=True) or "",
            cfg.str_mapping("headers"),
            token=cfg.token(),
            **_timeouts(cfg),
        )
    raise AgentConfigError(
        f"agent type 'mcp': unknown transport {transport!r} (known: stdio, http)"
    )


def python_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``python`` agent type: an importable object, class or factory (``module:attr``)."""
    cfg = _Config(
        "python",
        data,
        {"object", "options", "timeout_seconds", "timeout", "identity_timeout_seconds"},
    )
    path = cfg.text("object", required=True) or ""
    try:
        obj = load_object(path)
    except (ImportError, AttributeError) as exc:
        raise AgentConfigError(f"agent type 'python': cannot import {path!r}: {exc}") from exc
    options = cfg.mapping("options") or {}
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "execute")):
        obj = obj(**options)  # a class or a factory: build the agent object
    elif options:
        raise AgentConfigError(
            f"agent type 'python': 'options' given but {path!r} is not a class or factory"
        )
    return PythonAgent(obj, **_timeouts(cfg))


def openai_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``openai`` agent type: a model behind an OpenAI-compatible Chat Completions API."""
    from .llm import openai_agent_from_config as build  # the SDK is loaded only when wanted

    return build(data)


def anthropic_agent_from_config(data: Mapping[str, Any]) -> Agent:
    """The ``anthropic`` agent type: a model behind the Anthropic Messages API."""
    from .llm import anthropic_agent_from_config as build  # the SDK is loaded only when wanted

    return build(data)


_BUILTIN: dict[str, Callable[[Mapping[str, Any]], Agent]] = {
    "http": http_agent_from_config,
    "cli": cli_agent_from_config,
    "mcp": mcp_agent_from_config,
    "python": python_agent_from_config,
    "openai": openai_agent_from_config,
    "anthropic": anthropic_agent_from_config,
}


def _plugins() -> dict[str, EntryPoint]:
    return plugin_loader.named(ENTRY_POINT_GROUP)


def known_agent_types() -> list[str]:
    """Built-in types, then the ones registered through entry points."""
    return list(_BUILTIN) + sorted(set(_plugins()) - set(_BUILTIN))


def agent_from_config(spec: Mapping[str, Any] | str) -> Agent:
    """Build an agent adapter from a URL or a run-config ``agent:`` section (see module doc)."""
    if isinstance(spec, str):
        if spec.startswith(("http://", "https://")):
            return HttpAgent(spec)
        raise AgentConfigError(
            f"agent spec {spec!r} is not an http(s) URL; give a mapping with a 'type' "
            f"(known types: {', '.join(known_agent_types())})"
        )
    if not isinstance(spec, Mapping):
        raise AgentConfigError(f"agent spec must be a URL or a mapping, got {type(spec).__name__}")
    kind = spec.get("type")
    if kind is None and "url" in spec and "transport" not in spec:
        kind = "http"  # a bare {url: ...} is an HTTP agent
    if not isinstance(kind, str) or not kind:
        raise AgentConfigError(
            f"agent spec needs a 'type' (known types: {', '.join(known_agent_types())})"
        )
    builtin = _BUILTIN.get(kind)
    if builtin is not None:
        return builtin(spec)
    plugin = _plugins().get(kind)
    if plugin is None:
        hint = (
            "; the built-in demo agents come with oasis-sim-k8s (pip install -e packages/oasis-sim-k8s)"
            if kind == "builtin"
            else ""
        )
        raise AgentConfigError(
            f"unknown agent type {kind!r} (known types: {', '.join(known_agent_types())}){hint}"
        )
    agent = plugin_loader.build(plugin, dict(spec), "from_config")
    if not isinstance(agent, Agent):
        raise TypeError(
            f"agent type {kind!r} ({plugin.value}) returned {agent!r}, which is not an Agent"
        )
    return agent
