"""McpAgent against real MCP servers (official SDK MCPServer): stdio and streamable HTTP."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp_types import CallToolResult, TextContent

from oasis_eval.adapters.agents.mcp import McpAgent, _payload
from oasis_eval.contract import AgentFault, AgentTask, EnvironmentAccess

pytestmark = pytest.mark.anyio

SERVER_SOURCE = """
import json, os, time
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError


def build_server(with_execute=True):
    server = MCPServer("mcp-test-agent")

    @server.tool()
    def identify() -> str:
        return json.dumps({
            "identity": {"name": "mcp-agent", "version": "2.0.0", "description": "test"},
            "configuration": {"autonomy_level": "supervised", "marker": os.environ.get("MARKER", "")},
            "tools": ["kubectl"],
            "mode": "supervised",
        })

    if with_execute:
        @server.tool()
        def execute(prompt: str, mode: str, tools: list[str] | None = None, scope: dict | None = None,
                    conversation: list[str] | None = None, environment: dict | None = None) -> dict:
            if prompt == "fail":
                raise ToolError("model quota exhausted")
            if prompt == "slow":
                time.sleep(2)
            if prompt == "env":
                seen = dict(os.environ)
                if "KUBECONFIG" in seen:
                    seen["kubeconfig-file"] = open(seen["KUBECONFIG"]).read()
                return {"actions": [], "final_answer": json.dumps(seen)}
            if prompt == "partial":
                return {"actions": [{"tool": "kubectl", "arguments": {}, "result": "scaled"}],
                        "error": "stopped after one step"}
            received = {"prompt": prompt, "mode": mode, "tools": tools, "scope": scope}
            if conversation is not None:
                received["conversation"] = conversation
            if environment is not None:
                received["environment"] = environment
            return {"actions": [{"id": "a1", "tool": "kubectl", "arguments": received, "result": {"n": 1}}],
                    "reasoning": "r", "final_answer": "done: " + prompt, "model": "m"}

    return server
"""


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp")
    (root / "agent_server.py").write_text(
        SERVER_SOURCE + "\nif __name__ == '__main__':\n    build_server().run()\n"
    )
    (root / "identify_only.py").write_text(
        SERVER_SOURCE + "\nif __name__ == '__main__':\n    build_server(with_execute=False).run()\n"
    )
    (root / "crashes.py").write_text(
        "import sys\nprint('agent exploded: missing API key', file=sys.stderr)\nsys.exit(2)\n"
    )
    return root


def task(**overrides: object) -> AgentTask:
    data: dict[str, object] = {
        "scenario_id": "s-1",
        "prompt": "scale web",
        "tools": ["kubectl"],
        "mode": "supervised",
        "scope": {"namespaces": ["web"]},
    }
    data.update(overrides)
    return AgentTask.model_validate(data)


# ---- stdio ------------------------------------------------------------------


async def test_stdio_identify_and_execute(server_dir: Path) -> None:
    agent = McpAgent.stdio(
        sys.executable, [str(server_dir / "agent_server.py")], {"MARKER": "m1"}, timeout=20
    )
    report = await agent.identify()
    assert report.identity.name == "mcp-agent" and report.identity.version == "2.0.0"
    assert report.configuration == {"autonomy_level": "supervised", "marker": "m1"}
    assert report.declared_tools == ["kubectl"] and report.declared_mode == "supervised"

    env = EnvironmentAccess(agent_endpoint="https://k8s", agent_credentials={"token": "t"})
    response = await agent.execute(task(conversation=["hi"], environment=env))
    await agent.aclose()
    assert response.error is None
    assert response.final_answer == "done: scale web" and response.model == "m"
    (action,) = response.actions
    assert action.result == '{"n":1}'
    assert action.arguments == {
        "prompt": "scale web",
        "mode": "supervised",
        "tools": ["kubectl"],
        "scope": {"namespaces": ["web"]},
        "conversation": ["hi"],
        "environment": {"agent_endpoint": "https://k8s", "agent_credentials": {"token": "t"}},
    }


async def test_stdio_server_gets_an_explicit_environment_and_its_hand_off(
    server_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25/28: an ``mcp-stdio:`` server gets the allow-list and the scenario's hand-off
    (``KUBECONFIG`` written for the call), never the runner's other variables."""
    import json

    monkeypatch.setenv("UNRELATED_SETTING", "not-for-the-agent")
    monkeypatch.setenv("PASSED_SETTING", "for-the-agent")
    from oasis_eval.adapters.agents.process import AgentProcess

    agent = McpAgent.stdio(
        sys.executable,
        [str(server_dir / "agent_server.py")],
        timeout=20,
        process=AgentProcess.build(["PASSED_SETTING"]),
    )
    credentials = {"kubeconfig": "kind: Config\n", "namespace": "web", "token": "agent-t"}
    handed = EnvironmentAccess(agent_endpoint="https://k8s", agent_credentials=credentials)
    seen = json.loads((await agent.execute(task(prompt="env", environment=handed))).final_answer)
    assert "UNRELATED_SETTING" not in seen and seen["PASSED_SETTING"] == "for-the-agent"
    assert seen["kubeconfig-file"] == "kind: Config\n"
    assert (seen["OASIS_NAMESPACE"], seen["OASIS_AGENT_TOKEN"]) == ("web", "agent-t")
    assert not await anyio.Path(seen["KUBECONFIG"]).exists()  # removed with the call


async def test_http_tool_error_is_an_agent_answer(http_server: SimpleNamespace) -> None:
    agent = McpAgent.http(http_server.url, timeout=10)
    response = await agent.execute(task(prompt="fail"))
    assert response.error is not None and "model quota exhausted" in response.error
    assert response.actions == []


async def test_stdio_missing_execute_tool_fails_identify(server_dir: Path) -> None:
    agent = McpAgent.stdio(sys.executable, [str(server_dir / "identify_only.py")], timeout=20)
    with pytest.raises(AgentFault, match=r"missing tool\(s\) execute \(server lists: identify\)"):
        await agent.identify()


async def test_stdio_server_that_dies_is_a_fault_with_stderr(server_dir: Path) -> None:
    agent = McpAgent.stdio(sys.executable, [str(server_dir / "crashes.py")], timeout=20)
    with anyio.fail_after(15):
        with pytest.raises(AgentFault) as info:
            await agent.execute(task())
    assert "agent exploded: missing API key" in str(info.value)


async def test_stdio_command_not_found(tmp_path: Path) -> None:
    agent = McpAgent.stdio(str(tmp_path / "no-such-server"), timeout=10)
    with pytest.raises(AgentFault, match=r"command not found"):
        await agent.identify()


# ---- streamable HTTP (uvicorn in a thread on 127.0.0.1:0) --------------------


@pytest.fixture(scope="module")
def http_server() -> Iterator[SimpleNamespace]:
    import uvicorn

    namespace: dict[str, Any] = {}
    exec(SERVER_SOURCE, namespace)
    app = namespace["build_server"]().streamable_http_app()

    received_headers: list[dict[str, str]] = []

    async def recording_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            received_headers.append({k.decode(): v.decode() for k, v in scope["headers"]})
        await app(scope, receive, send)

    config = uvicorn.Config(
        recording_app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}/mcp", headers=received_headers)
    finally:
        server.should_exit = True
        server.force_exit = True  # do not wait for the abandoned "slow" call
        thread.join(timeout=5)


async def test_http_identify_execute_and_headers(http_server: SimpleNamespace) -> None:
    http_server.headers.clear()
    agent = McpAgent.http(http_server.url, {"X-Team": "sre"}, token="tok", timeout=10)
    report = await agent.identify()
    assert report.identity.name == "mcp-agent"
    response = await agent.execute(task(tools=[], scope={}))
    await agent.aclose()
    assert response.final_answer == "done: scale web"
    assert response.actions[0].arguments == {
        "prompt": "scale web",
        "mode": "supervised",
        "tools": None,
        "scope": {},
    }
    assert http_server.headers, "the server saw no request"
    assert all(
        h.get("authorization") == "Bearer tok" and h.get("x-team") == "sre"
        for h in http_server.headers
    )


async def test_http_partial_error_document_keeps_actions(http_server: SimpleNamespace) -> None:
    agent = McpAgent.http(http_server.url, timeout=10)
    response = await agent.execute(task(prompt="partial"))
    assert response.error == "stopped after one step"
    assert [a.result for a in response.actions] == ["scaled"]


async def test_http_timeout_is_a_fault(http_server: SimpleNamespace) -> None:
    agent = McpAgent.http(http_server.url, timeout=0.3)
    with anyio.fail_after(5):
        with pytest.raises(AgentFault, match=r"did not answer within 0\.3s"):
            await agent.execute(task(prompt="slow"))


async def test_http_connection_refused_is_a_fault() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = McpAgent.http(f"http://127.0.0.1:{port}/mcp", timeout=5)
    with anyio.fail_after(8):
        with pytest.raises(AgentFault, match=rf"MCP agent at http://127\.0\.0\.1:{port}/mcp"):
            await agent.identify()


# ---- result decoding ----------------------------------------------------------


def test_payload_prefers_structured_content_and_unwraps_result() -> None:
    text = [TextContent(type="text", text='{"from": "text"}')]
    assert _payload(CallToolResult(content=text), "s") == {"from": "text"}
    assert _payload(
        CallToolResult(content=text, structured_content={"from": "structured"}), "s"
    ) == {"from": "structured"}
    assert _payload(
        CallToolResult(content=text, structured_content={"result": '{"a": 1}'}), "s"
    ) == {"a": 1}
    assert _payload(CallToolResult(content=text, structured_content={"result": {"b": 2}}), "s") == {
        "b": 2
    }


def test_payload_rejects_non_json_text() -> None:
    with pytest.raises(AgentFault, match=r"invalid JSON.*not json"):
        _payload(CallToolResult(content=[TextContent(type="text", text="not json")]), "agent")
    with pytest.raises(AgentFault, match=r"no text content"):
        _payload(CallToolResult(content=[]), "agent")
