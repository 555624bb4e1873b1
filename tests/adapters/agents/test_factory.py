"""agent_from_config: URLs, run-config `agent:` sections, entry-point plugins."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from oasis_eval import plugin_loader
from oasis_eval.adapters import agents
from oasis_eval.adapters.agents import (
    CliAgent,
    FunctionAgent,
    HttpAgent,
    McpAgent,
    PythonAgent,
    agent_from_config,
    parse_duration,
)
from oasis_eval.contract import Agent, AgentTask


class EchoAgent:
    """Importable target for the python type (module:attr)."""

    def __init__(self, greeting: str = "hi") -> None:
        self.greeting = greeting

    def identify(self) -> dict[str, Any]:
        return {"identity": {"name": "echo", "version": "1.0.0"}, "configuration": {}}

    def execute(self, task: AgentTask) -> dict[str, Any]:
        return {"final_answer": f"{self.greeting} {task.prompt}"}


def test_url_string_is_http() -> None:
    agent = agent_from_config("http://127.0.0.1:9/agent")
    assert isinstance(agent, HttpAgent) and agent.url == "http://127.0.0.1:9/agent"
    assert isinstance(agent, Agent)


def test_http_section(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_TOKEN", "from-env")
    agent = agent_from_config(
        {"type": "http", "url": "https://a/b", "token_env": "AGENT_TOKEN", "timeout_seconds": 90}
    )
    assert isinstance(agent, HttpAgent)
    assert agent.timeout == 90 and agent._client.headers["authorization"] == "Bearer from-env"
    agent2 = agent_from_config(
        {"url": "https://a/b", "timeout": "5m", "identity_timeout_seconds": 3}
    )
    assert isinstance(agent2, HttpAgent) and agent2.timeout == 300 and agent2.identity_timeout == 3


def test_cli_section(tmp_path: Path) -> None:
    agent = agent_from_config(
        {"type": "cli", "command": ["my-agent", "--fast"], "env": {"A": 1}, "cwd": str(tmp_path)}
    )
    assert isinstance(agent, CliAgent)
    assert agent.command == ["my-agent", "--fast"] and agent.process.env["A"] == "1"
    assert agent.cwd == tmp_path


def test_mcp_sections() -> None:
    stdio = agent_from_config(
        {"type": "mcp", "transport": "stdio", "command": ["python", "-m", "srv"], "args": ["--x"]}
    )
    assert isinstance(stdio, McpAgent) and "python -m srv --x" in stdio.description
    http = agent_from_config(
        {"type": "mcp", "url": "http://127.0.0.1:1/mcp", "timeout_seconds": 12}
    )
    assert (
        isinstance(http, McpAgent)
        and http.timeout == 12
        and "http://127.0.0.1:1/mcp" in http.description
    )
    with pytest.raises(ValueError, match="unknown transport"):
        agent_from_config({"type": "mcp", "transport": "carrier-pigeon"})


@pytest.mark.anyio
async def test_python_section_instantiates_classes() -> None:
    agent = agent_from_config(
        {"type": "python", "object": f"{__name__}:EchoAgent", "options": {"greeting": "yo"}}
    )
    assert isinstance(agent, PythonAgent)
    assert (
        await agent.execute(AgentTask(scenario_id="s", prompt="there", mode="autonomous"))
    ).final_answer == "yo there"


def test_python_section_bad_import() -> None:
    with pytest.raises(ValueError, match="cannot import"):
        agent_from_config({"type": "python", "object": "no_such_module_xyz:Agent"})
    with pytest.raises(ValueError, match="module:attribute"):
        agent_from_config({"type": "python", "object": "no_colon"})


def test_unknown_type_lists_known_types() -> None:
    with pytest.raises(
        ValueError, match=r"unknown agent type 'grpc' \(known types: http, cli, mcp, python"
    ):
        agent_from_config({"type": "grpc", "url": "x"})


def test_bad_specs() -> None:
    with pytest.raises(ValueError, match="not an http"):
        agent_from_config("localhost:8080")
    with pytest.raises(ValueError, match="needs a 'type'"):
        agent_from_config({"command": ["x"]})
    with pytest.raises(ValueError, match=r"unknown key\(s\) timeout_secs"):
        agent_from_config({"type": "http", "url": "http://x", "timeout_secs": 3})
    with pytest.raises(ValueError, match="missing required key 'url'"):
        agent_from_config({"type": "http"})
    with pytest.raises(ValueError, match="'command' must be"):
        agent_from_config({"type": "cli", "command": []})
    with pytest.raises(ValueError, match="token_env"):
        agent_from_config({"type": "http", "url": "http://x", "token_env": "SURELY_UNSET_VAR_123"})


def test_parse_duration() -> None:
    assert parse_duration(5) == 5.0
    assert parse_duration("1h30m") == 5400.0
    assert parse_duration("250ms") == 0.25
    assert parse_duration("42") == 42.0
    for bad in ("5 minutes", "-1", 0, True, "m"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def _fake_entry_points(monkeypatch: pytest.MonkeyPatch, *eps: EntryPoint) -> None:
    def entry_points(group: str) -> list[EntryPoint]:
        assert group == "oasis_eval.agents"
        return list(eps)

    monkeypatch.setattr(plugin_loader, "entry_points", entry_points)


def make_plugin_agent(config: dict[str, Any]) -> FunctionAgent:
    return FunctionAgent(
        "plugin", "0.1.0", {"from": str(config.get("flavour"))}, lambda t: {"final_answer": "p"}
    )


def test_entry_point_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_entry_points(
        monkeypatch,
        EntryPoint("grpc", f"{__name__}:make_plugin_agent", "oasis_eval.agents"),
        EntryPoint("http", "no_such_module_xyz:hijack", "oasis_eval.agents"),  # built-ins win
    )
    assert "grpc" in agents.known_agent_types()
    agent = agent_from_config({"type": "grpc", "flavour": "x"})
    assert isinstance(agent, FunctionAgent)
    assert isinstance(agent_from_config({"type": "http", "url": "http://x"}), HttpAgent)


def test_entry_point_returning_a_non_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_entry_points(monkeypatch, EntryPoint("weird", "builtins:dict", "oasis_eval.agents"))
    with pytest.raises(TypeError, match="not an Agent"):
        agent_from_config({"type": "weird"})


def test_builtin_entry_points_resolve() -> None:
    # the pyproject entry points name these functions; keep them importable
    for name in ("http", "cli", "mcp", "python"):
        target = EntryPoint(
            name, f"oasis_eval.adapters.agents:{name}_agent_from_config", "oasis_eval.agents"
        ).load()
        assert callable(target)
    assert sys.modules["oasis_eval.adapters.agents"] is agents
