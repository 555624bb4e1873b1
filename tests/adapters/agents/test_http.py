"""HttpAgent against a real local HTTP server (spec 04 §1; interop §1 wire contract)."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from oasis_eval.adapters.agents import HttpAgent
from oasis_eval.contract import AgentFault, AgentTask, EnvironmentAccess

pytestmark = pytest.mark.anyio

IDENTITY = {
    "identity": {"name": "fake-agent", "version": "1.2.3", "description": "for tests"},
    "configuration": {"autonomy_level": "supervised", "human_in_the_loop": True},
}

RESPONSE = {
    "actions": [
        {
            "id": "c1",
            "tool": "kubectl",
            "arguments": {"args": ["get", "pods"]},
            "result": '{"items":[]}',
            "duration_ms": 12.5,
            "vendor_field": "kept",
        }
    ],
    "reasoning": "looked first",
    "final_answer": "nothing to do",
    "model": "m-1",
    "unknown_top_level": {"ignored": True},
}


def task(**overrides: object) -> AgentTask:
    data: dict[str, object] = {
        "scenario_id": "infra.safety.x-001",
        "prompt": "Scale the checkout deployment",
        "tools": ["kubectl"],
        "mode": "supervised",
        "scope": {"namespaces": ["payments"], "zones": []},
    }
    data.update(overrides)
    return AgentTask.model_validate(data)


async def test_identity_ok_and_bearer_token(agent_server: Any) -> None:
    agent_server.reply(
        "GET",
        "/agent/identity-and-configuration",
        {**IDENTITY, "tools": ["kubectl"], "mode": "autonomous"},
    )
    agent = HttpAgent(agent_server.url + "/agent/", token="s3cret")
    try:
        report = await agent.identify()
    finally:
        await agent.aclose()
    assert report.identity.name == "fake-agent"
    assert report.identity.version == "1.2.3"
    assert report.identity.description == "for tests"
    assert report.configuration == {"autonomy_level": "supervised", "human_in_the_loop": True}
    assert report.declared_tools == ["kubectl"]
    assert report.declared_mode == "autonomous"
    (seen,) = agent_server.seen
    assert seen.method == "GET" and seen.path == "/agent/identity-and-configuration"
    assert seen.headers["authorization"] == "Bearer s3cret"


async def test_identity_404_is_a_fault(agent_server: Any) -> None:
    agent = HttpAgent(agent_server.url)
    with pytest.raises(
        AgentFault, match=r"does not implement the identity-and-configuration contract \(404\)"
    ):
        await agent.identify()
    await agent.aclose()
    assert "authorization" not in agent_server.seen[0].headers


async def test_identity_missing_version_is_a_fault(agent_server: Any) -> None:
    agent_server.reply(
        "GET", "/identity-and-configuration", {"identity": {"name": "x"}, "configuration": {}}
    )
    agent = HttpAgent(agent_server.url)
    with pytest.raises(AgentFault, match=r"identity\.version"):
        await agent.identify()
    await agent.aclose()


async def test_execute_happy_path_exact_body(agent_server: Any) -> None:
    agent_server.reply("POST", "/run", RESPONSE)
    agent = HttpAgent(agent_server.url + "/run", token="t0k")
    env = EnvironmentAccess(
        agent_endpoint="https://127.0.0.1:6443",
        agent_credentials={"type": "kubeconfig", "token": "x"},
    )
    response = await agent.execute(task(conversation=["earlier turn"], environment=env))
    await agent.aclose()

    (seen,) = agent_server.seen
    assert seen.method == "POST" and seen.path == "/run"  # URL as given, nothing appended
    assert seen.headers["authorization"] == "Bearer t0k"
    assert seen.headers["content-type"] == "application/json"
    assert seen.json() == {
        "prompt": "Scale the checkout deployment",
        "tools": ["kubectl"],
        "mode": "supervised",
        "scope": {"namespaces": ["payments"]},  # empty zones omitted
        "conversation": ["earlier turn"],
        "environment": {
            "agent_endpoint": "https://127.0.0.1:6443",
            "agent_credentials": {"type": "kubeconfig", "token": "x"},
        },
    }
    assert response.error is None
    assert response.final_answer == "nothing to do"
    assert response.reasoning == "looked first"
    assert response.model == "m-1"
    (action,) = response.actions
    assert action.id == "c1" and action.tool == "kubectl"
    assert action.arguments == {"args": ["get", "pods"]}
    assert action.result == '{"items":[]}'
    assert action.duration_ms == 12.5


async def test_execute_minimal_body_tools_null_no_extras(agent_server: Any) -> None:
    agent_server.reply("POST", "/", {"actions": [], "reasoning": "", "final_answer": "ok"})
    agent = HttpAgent(agent_server.url + "/")
    response = await agent.execute(task(tools=[], scope={}, environment=EnvironmentAccess()))
    await agent.aclose()
    assert agent_server.seen[0].json() == {
        "prompt": "Scale the checkout deployment",
        "tools": None,
        "mode": "supervised",
        "scope": {},
    }
    assert response.final_answer == "ok" and response.actions == []


async def test_non_string_result_is_json_encoded(agent_server: Any) -> None:
    body = {
        "actions": [
            {"tool": "kubectl", "arguments": {}, "result": {"items": [1, "ü"]}},
            {"tool": "kubectl", "arguments": '{"a": 1}', "result": 7},
            {"tool": "kubectl", "result": None},
        ],
        "final_answer": "x",
    }
    agent_server.reply("POST", "/", body)
    agent = HttpAgent(agent_server.url + "/")
    response = await agent.execute(task())
    await agent.aclose()
    assert [a.result for a in response.actions] == ['{"items":[1,"ü"]}', "7", ""]
    assert response.actions[1].arguments == {"a": 1}
    assert response.actions[2].arguments == {}


async def test_agent_level_error_payload_is_an_answer(agent_server: Any) -> None:
    body = {
        "actions": [
            {"tool": "kubectl", "arguments": {"args": ["delete", "pod", "p"]}, "result": "deleted"}
        ],
        "reasoning": "",
        "final_answer": "",
        "error": "model provider timed out after acting",
    }
    agent_server.reply("POST", "/", body)
    agent = HttpAgent(agent_server.url + "/")
    response = await agent.execute(task())
    await agent.aclose()
    assert response.error == "model provider timed out after acting"
    assert [a.result for a in response.actions] == ["deleted"]


async def test_5xx_with_error_payload_is_an_answer(agent_server: Any) -> None:
    agent_server.reply("POST", "/", status=503, body={"error": "upstream model unavailable"})
    agent = HttpAgent(agent_server.url + "/")
    response = await agent.execute(task())
    await agent.aclose()
    assert response.error == "HTTP 503: upstream model unavailable"
    assert response.actions == []


@pytest.mark.parametrize(
    ("reply", "pattern"),
    [
        (
            {"status": 200, "body": b"<html>oops</html>", "content_type": "text/html"},
            r"invalid JSON.*<html>oops",
        ),
        (
            {"status": 500, "body": b"Internal Server Error", "content_type": "text/plain"},
            r"HTTP 500.*Internal Server Error",
        ),
        ({"status": 500, "body": {"detail": "boom"}}, r"HTTP 500"),
        (
            {"status": 401, "body": {"error": "bad token"}},
            r"HTTP 401",
        ),  # 4xx is never an agent answer
        ({"status": 200, "body": [1, 2]}, r"expected a JSON object"),
        ({"status": 200, "body": {"actions": {"tool": "x"}}}, r"'actions' must be a list"),
        ({"status": 200, "body": {"actions": [{"arguments": {}}]}}, r"actions\[0\]\.tool"),
        (
            {"status": 200, "body": {"actions": [], "final_answer": 42}},
            r"'final_answer' must be a string",
        ),
    ],
)
async def test_protocol_violations_are_faults(
    agent_server: Any, reply: dict[str, Any], pattern: str
) -> None:
    agent_server.reply("POST", "/", **reply)
    agent = HttpAgent(agent_server.url + "/")
    with pytest.raises(AgentFault, match=pattern) as info:
        await agent.execute(task())
    await agent.aclose()
    assert agent_server.url in str(info.value)


async def test_connection_refused_is_a_fault() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/agent"
    agent = HttpAgent(url)
    with pytest.raises(
        AgentFault, match=r"cannot connect to agent at http://127\.0\.0\.1:\d+/agent"
    ):
        await agent.execute(task())
    await agent.aclose()


async def test_timeout_is_a_fault(agent_server: Any) -> None:
    agent_server.reply("POST", "/", body=RESPONSE, delay=1.0)
    agent = HttpAgent(agent_server.url + "/", timeout=0.2)
    with pytest.raises(AgentFault, match=r"did not answer within 0\.2s"):
        await agent.execute(task())
    await agent.aclose()


async def test_identity_timeout_is_separate(agent_server: Any) -> None:
    agent_server.reply("GET", "/identity-and-configuration", body=IDENTITY, delay=1.0)
    agent = HttpAgent(agent_server.url, timeout=30, identity_timeout=0.2)
    with pytest.raises(AgentFault, match=r"within 0\.2s"):
        await agent.identify()
    await agent.aclose()


async def test_concurrent_executes(agent_server: Any) -> None:
    import anyio

    agent_server.reply("POST", "/", body=RESPONSE, delay=0.2)
    agent = HttpAgent(agent_server.url + "/")
    results = []

    async def one(i: int) -> None:
        results.append(await agent.execute(task(prompt=f"p{i}")))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            for i in range(8):
                tg.start_soon(one, i)
    await agent.aclose()
    assert len(results) == 8
    assert sorted(s.json()["prompt"] for s in agent_server.seen) == sorted(
        f"p{i}" for i in range(8)
    )


def test_rejects_non_http_url() -> None:
    with pytest.raises(ValueError):
        HttpAgent("ftp://example")
