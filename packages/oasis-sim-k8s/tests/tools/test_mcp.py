"""The MCP endpoint (official SDK, streamable HTTP) and connect(): an agent lists and calls
the environment's tools with its bearer token; a bad token is refused; in-process and
MCP give the same answers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.servers.connect import connect
from oasis_sim_k8s.servers.mcp import serve_mcp_in_thread
from tests.sim_k8s.support import provision

DELETE = "k8s.capability.wo.in-scope-delete-001"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[SimK8sProvider, str]]:
    provider = SimK8sProvider()
    url, stop = serve_mcp_in_thread(provider, "127.0.0.1", 0)
    try:
        yield provider, url
    finally:
        stop()


def test_official_client_lists_and_calls_tools(served: tuple[SimK8sProvider, str]) -> None:
    provider, url = served
    res, env = provision(provider, "example", DELETE)
    token = res.agent_credentials["token"]

    async def go() -> tuple[Any, Any, Any]:
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
        ):
            tools = await client.list_tools()
            ok = await client.call_tool("kubectl", {"command": "get deploy -n shop"})
            denied = await client.call_tool(
                "kubectl", {"command": "delete deploy payments-api -n billing"}
            )
            return tools, ok, denied

    tools, ok, denied = anyio.run(go)
    assert [t.name for t in tools.tools] == ["kubectl"]
    assert tools.tools[0].input_schema["required"] == ["command"]
    assert (tools.tools[0].meta or {}).get("oasis/interface_type") == "container-orchestration"
    assert not ok.is_error and "storefront" in ok.content[0].text
    assert denied.is_error and denied.content[0].text.startswith("Error from server (Forbidden)")
    entry = env.audit.entries[-1]
    assert (entry["verb"], entry["response_code"], entry["user"]) == ("delete", 403, env.agent_user)
    assert entry["data"]["agent_principal"] == env.principal


def test_bad_or_missing_token_is_rejected(served: tuple[SimK8sProvider, str]) -> None:
    provider, url = served
    res, _ = provision(provider, "example", DELETE)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    for headers in (
        {},
        {"Authorization": "Bearer nope"},
        {"Authorization": f"Basic {res.agent_credentials['token']}"},
    ):
        answer = httpx.post(
            url, json=body, headers={"Accept": "application/json, text/event-stream", **headers}
        )
        assert answer.status_code == 401 and answer.headers["www-authenticate"].startswith("Bearer")

    async def go() -> None:
        surface = await connect(url, {"type": "bearer", "token": "nope"})
        await surface.list_tools()

    with pytest.raises(PermissionError, match="401"):
        anyio.run(go)
    with pytest.raises(PermissionError):
        anyio.run(connect, res.agent_endpoint, {"token": "nope"})


def test_connect_in_process_and_over_mcp_agree(served: tuple[SimK8sProvider, str]) -> None:
    provider, url = served
    commands = [
        "get deploy storefront -n shop -o jsonpath={.spec.replicas}",
        "auth can-i delete pods -n billing",
        "get ns shop -o name",
    ]

    def run_all(endpoint: str, creds: dict[str, Any]) -> tuple[list[Any], list[tuple[str, bool]]]:
        async def go() -> tuple[list[Any], list[tuple[str, bool]]]:
            async with await connect(endpoint, creds) as surface:
                tools = [(t.name, t.interface_type) for t in await surface.list_tools()]
                out = []
                for c in commands:
                    r = await surface.call("kubectl", {"command": c})
                    out.append((r.text, r.is_error))
                r = await surface.call("no_such_tool", {})
                out.append((r.text, r.is_error))
                return tools, out

        return anyio.run(go)

    res_a, _ = provision(provider, "example", DELETE)
    res_b, _ = provision(provider, "example", DELETE)
    assert res_a.agent_endpoint.startswith("sim-k8s://")
    local = run_all(res_a.agent_endpoint, res_a.agent_credentials)
    remote = run_all(url, res_b.agent_credentials)
    assert local == remote
    assert (
        local[1][0] == ("2", False) and local[1][1] == ("no\n", False) and local[1][-1][1] is True
    )

    async def per_call() -> Any:  # without `async with`: one MCP session per call
        surface = await connect(url, res_b.agent_credentials)
        return await surface.call("kubectl", {"command": "get ns shop -o name"})

    assert anyio.run(per_call).text == "namespace/shop\n"


def test_provider_mcp_mode_hands_out_the_http_endpoint() -> None:
    provider = SimK8sProvider(mcp=True)
    try:
        res, env = provision(provider, "example", DELETE)
        assert res.agent_endpoint.startswith("http://127.0.0.1:") and res.agent_endpoint.endswith(
            "/mcp"
        )
        assert res.agent_credentials["token"] == env.token

        async def go() -> Any:
            async with await connect(res.agent_endpoint, res.agent_credentials) as surface:
                return await surface.call(
                    "kubectl", {"command": "get deploy promo-banner-2023 -n shop -o name"}
                )

        assert anyio.run(go).text == "deployment.apps/promo-banner-2023\n"
        assert env.audit.entries[-1]["user"] == env.agent_user
    finally:
        anyio.run(provider.aclose)
    assert SimK8sProvider().mcp is False


def test_other_paths_are_refused_and_an_agent_token_there_is_audited(
    served: tuple[SimK8sProvider, str],
) -> None:
    """Issue 11 H1: the MCP server serves its one path; an agent guessing the provider's
    control API next to it is refused and the attempt is in its audit log."""
    provider, url = served
    res, env = provision(provider, "example", DELETE)
    root = url.removesuffix("/mcp")
    agent = {"Authorization": f"Bearer {res.agent_credentials['token']}"}
    tried = httpx.post(
        f"{root}/v1/teardown", json={"environment_id": res.environment_id}, headers=agent
    )
    anonymous = httpx.post(f"{root}/v1/teardown", json={"environment_id": res.environment_id})
    # addressed to no environment and without a token: refused unaudited (issue 25)
    assert (tried.status_code, anonymous.status_code) == (403, 401)
    assert res.environment_id in provider.envs
    (entry,) = [e for e in env.audit.entries if e["resource"] == "environments"]
    assert (
        entry["verb"] == "delete"
        and entry["user"] == env.agent_user
        and entry["data"]["agent_principal"]
    )
