"""The served provider's guards (issue 11 items 4, 5, 7): agent tokens refused and audited
on the control API, unguessable environment ids, body and state limits, provision
request ids torn down when the runner abandons them, idle reaping."""

from __future__ import annotations

import re
import socket
import time
from typing import Any

import anyio
import httpx
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.contract import ProviderFault
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app
from tests.sim_k8s.support import live, profile, request

TOKEN = "runner-token-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _body(**extra: Any) -> dict[str, Any]:
    sid = next(s.id for s in profile("example").scenarios if s.classification.value == "safety")
    req, _ = request("example", sid)
    return {**HttpProvider.provision_body(req), **extra}


def client(app: Any, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://sim",
        headers=AUTH if headers is None else headers,
    )


# ---- identities ----------------------------------------------------------------------------------


def test_environment_ids_are_unguessable_unless_seeded_for_tests() -> None:
    async def ids(provider: SimK8sProvider) -> list[str]:
        req, _ = request("example", profile("example").scenarios[0].id)
        return [(await provider.provision(req)).environment_id for _ in range(3)]

    a, b = anyio.run(ids, SimK8sProvider(seed=0)), anyio.run(ids, SimK8sProvider(seed=0))
    assert all(re.fullmatch(r"sim-[0-9a-f]{32}", i) for i in a + b)
    assert not set(a) & set(b)  # same seed, same scenario: still different ids
    seeded = anyio.run(ids, SimK8sProvider(seed=0, seeded_ids=True))
    assert seeded == anyio.run(ids, SimK8sProvider(seed=0, seeded_ids=True))
    assert seeded[0].startswith("sim-0001-")


@pytest.mark.parametrize("auth", [True, False])
def test_an_agent_token_on_the_control_api_is_refused_and_audited(auth: bool) -> None:
    """Also with auth=False (--no-auth): an agent's own token never opens /v1."""
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN, auth=auth)

    async def go() -> None:
        async with client(app) as runner:
            answer = (await runner.post("/v1/provision", json=_body())).json()
        env = provider.environment(answer["environment_id"])
        agent = {"Authorization": f"Bearer {answer['agent_credentials']['token']}"}
        before = env.snapshot()
        async with client(app, agent) as hostile:
            torn = await hostile.post("/v1/teardown", json={"environment_id": env.id})
            injected = await hostile.post(
                "/v1/inject-state",
                json={
                    "environment_id": env.id,
                    "state": [
                        {
                            "kind": "clusterrolebinding",
                            "name": "x",
                            "spec": {"roleRef": {"name": "cluster-admin"}},
                        }
                    ],
                },
            )
            unknown = await hostile.delete("/v1/environments")
        assert (torn.status_code, injected.status_code, unknown.status_code) == (403, 403, 403)
        assert "recorded" in torn.json()["message"]
        assert env.id in provider.envs and env.snapshot() == before
        denied = [e for e in env.audit.entries if e["resource"] == "environments"]
        assert [(e["verb"], e.get("subresource"), e.get("name")) for e in denied] == [
            ("delete", "teardown", env.id),
            ("update", "inject-state", env.id),
            ("delete", None, None),
        ]
        assert all(
            e["user"] == env.agent_user
            and e["data"]["agent_principal"]
            and e["response_code"] == 403
            for e in denied
        )
        observed = await provider.observe(env.id, "audit_log", {})
        assert len([e for e in observed.data["entries"] if e["resource"] == "environments"]) == 3

    anyio.run(go)


def test_an_anonymous_attempt_naming_an_environment_is_audited_but_not_as_the_agent() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN)

    async def go() -> None:
        async with client(app) as runner:
            env_id = (await runner.post("/v1/provision", json=_body())).json()["environment_id"]
        async with client(app, {}) as anonymous:
            assert (
                await anonymous.post("/v1/teardown", json={"environment_id": env_id})
            ).status_code == 401
        (entry,) = [
            e for e in provider.envs[env_id].audit.entries if e["resource"] == "environments"
        ]
        assert entry["user"] == "system:anonymous" and entry["data"] == {}

    anyio.run(go)


def test_the_agent_credentials_carry_no_runner_secret() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN, agent_url="http://127.0.0.1:1/mcp")

    async def go() -> dict[str, Any]:
        async with client(app) as runner:
            return (await runner.post("/v1/provision", json=_body())).json()

    answer = anyio.run(go)
    # the environment's own address on the agent listener (issue 25: a request is attributed
    # to the environment it was addressed to, even without a valid token)
    assert re.fullmatch(r"http://127\.0\.0\.1:1/env/[0-9a-f]{24}/mcp", answer["agent_endpoint"])
    assert TOKEN not in str(answer) and set(answer["agent_credentials"]) == {
        "type",
        "kubeconfig",
        "token",
        "namespace",
        "user",
        "mcp_endpoint",
        "prometheus_url",
        "grafana_url",
        "tempo_url",
    }
    assert (
        answer["environment_id"] not in str(answer["agent_credentials"]) + answer["agent_endpoint"]
    )


def test_an_agent_token_opens_only_its_own_environment() -> None:
    """Two scenarios' environments side by side: A's token cannot open B (in process or
    over MCP), and what A's agent does leaves B's state and audit log untouched."""
    from oasis_sim_k8s.servers.connect import connect
    from oasis_sim_k8s.servers.mcp import create_mcp_app

    provider = SimK8sProvider()

    async def go() -> None:
        req, _ = request("example", profile("example").scenarios[0].id)
        a, b = await provider.provision(req), await provider.provision(req)
        env_b = provider.envs[b.environment_id]
        before, audit_before = env_b.snapshot(), len(env_b.audit.entries)
        with pytest.raises(PermissionError):
            await connect(f"sim-k8s://{b.environment_id}", a.agent_credentials)
        surface = create_mcp_app(provider).surface_for(a.agent_credentials["token"])
        assert surface is not None and surface.env.id == a.environment_id
        own = await connect(a.agent_endpoint, a.agent_credentials)
        async with own:
            await own.call("kubectl", {"command": "delete deployment --all -A"})
        assert env_b.snapshot() == before and len(env_b.audit.entries) == audit_before

    anyio.run(go)


# ---- bounds --------------------------------------------------------------------------------------


def test_a_huge_declared_body_is_refused_unread() -> None:
    """300 MB announced, none sent: 413 at once (the body is never read, let alone parsed)."""
    with live(create_app(SimK8sProvider(), token=TOKEN)) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                b"POST /v1/provision HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + TOKEN.encode()
                + b"\r\nContent-Type: application/json\r\nContent-Length: 314572800\r\n\r\n{"
            )
            received = b""
            while chunk := sock.recv(4096):  # the server closes after its answer
                received += chunk
    answer = received.decode()
    assert answer.startswith("HTTP/1.1 413")
    assert "exceeds the limit of 2097152 bytes" in answer


def test_a_streamed_body_over_the_limit_is_cut_off() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN, max_body_bytes=4096)

    async def chunks() -> Any:
        for _ in range(100):
            yield b" " * 1024

    async def go() -> httpx.Response:
        async with client(app) as runner:
            return await runner.post("/v1/provision", content=chunks())

    answer = anyio.run(go)
    assert answer.status_code == 413 and answer.json()["limit_bytes"] == 4096
    assert provider.envs == {}


def test_too_many_state_entries_are_refused_clearly() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN)
    many = [{"kind": "configmap", "name": f"c{i}", "namespace": "shop"} for i in range(20_000)]

    async def go() -> None:
        async with client(app) as runner:
            body = _body()
            body["environment"]["state"] = many
            answer = await runner.post("/v1/provision", json=body)
            assert answer.status_code == 413
            assert answer.json()["message"].startswith(
                "`environment.state` has 20000 entries; this server accepts at most 500"
            )
            assert provider.envs == {}
            env_id = (await runner.post("/v1/provision", json=_body())).json()["environment_id"]
            before = provider.envs[env_id].snapshot()
            injected = await runner.post(
                "/v1/inject-state", json={"environment_id": env_id, "state": many}
            )
            assert injected.status_code == 413 and provider.envs[env_id].snapshot() == before

    anyio.run(go)


# ---- abandoned provisions and idle environments ------------------------------------------------------


class GatedProvider(SimK8sProvider):
    """Provision waits for a gate: a provision still running when the runner gives up."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = anyio.Event()
        self.finished = 0

    async def provision(self, req: Any) -> Any:
        await self.gate.wait()
        try:
            return await super().provision(req)
        finally:
            self.finished += 1


def test_a_provision_abandoned_while_running_is_torn_down_when_it_completes() -> None:
    provider = GatedProvider()
    app = create_app(provider, token=TOKEN)
    answers: list[httpx.Response] = []

    async def go() -> None:
        async with client(app) as runner, anyio.create_task_group() as tg:

            async def provision() -> None:
                answers.append(await runner.post("/v1/provision", json=_body(request_id="r-1")))

            tg.start_soon(provision)
            await anyio.sleep(0.05)
            gone = await runner.post("/v1/teardown", json={"request_id": "r-1"})
            assert gone.json() == {"status": "abandoned", "request_id": "r-1"}
            provider.gate.set()

    anyio.run(go)
    assert provider.finished == 1 and provider.envs == {}
    assert answers[0].status_code == 409 and "abandoned" in answers[0].json()["message"]


def test_teardown_by_request_id_after_the_provision_and_before_it() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN)

    async def go() -> None:
        async with client(app) as runner:
            env_id = (await runner.post("/v1/provision", json=_body(request_id="r-2"))).json()[
                "environment_id"
            ]
            assert (await runner.post("/v1/teardown", json={"request_id": "r-2"})).json() == {
                "status": "destroyed",
                "environment_id": env_id,
            }
            await runner.post("/v1/teardown", json={"request_id": "r-3"})
            late = await runner.post("/v1/provision", json=_body(request_id="r-3"))
            assert late.status_code == 409
        assert provider.envs == {}

    anyio.run(go)


class SlowProvider(SimK8sProvider):
    async def provision(self, req: Any) -> Any:
        await anyio.sleep(1.0)
        return await super().provision(req)


def test_a_client_side_provision_timeout_does_not_leak_the_environment() -> None:
    """The adapter times out, asks for teardown by request id; the server finishes the
    provision later and tears it down instead of keeping it (issue 11: it leaked)."""
    provider = SlowProvider()
    with live(create_app(provider, token=TOKEN)) as url:

        async def go() -> None:
            async with HttpProvider(url, token=TOKEN, timeout=0.2) as http:
                req, _ = request("example", profile("example").scenarios[0].id)
                with pytest.raises(ProviderFault, match="did not answer"):
                    await http.provision(req)

        anyio.run(go)
        # the server's provision completes, then its environment is torn down; 20 s is only a
        # hang guard (a fixed short sleep here raced the teardown on a loaded machine)
        deadline = time.monotonic() + 20
        while (provider._count == 0 or provider.envs) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert provider._count == 1
        assert provider.envs == {}


def test_a_cancelled_provision_is_abandoned_too() -> None:
    provider = GatedProvider()
    app = create_app(provider, token=TOKEN)

    async def go() -> None:
        http = HttpProvider("http://sim", token=TOKEN, transport=httpx.ASGITransport(app=app))
        req, _ = request("example", profile("example").scenarios[0].id)
        with anyio.move_on_after(0.1):
            await http.provision(req)
        provider.gate.set()
        await anyio.sleep(0.05)
        await http.aclose()

    anyio.run(go)
    assert provider.envs == {}


def test_idle_environments_are_reaped() -> None:
    provider = SimK8sProvider()
    app = create_app(provider, token=TOKEN, idle_ttl=60)

    async def go() -> None:
        async with client(app) as runner:
            idle = (await runner.post("/v1/provision", json=_body())).json()["environment_id"]
            busy = (await runner.post("/v1/provision", json=_body())).json()["environment_id"]
            provider.last_used[idle] -= 120  # two TTLs ago
            await runner.get("/v1/conformance", params={"profile": "x"})
        assert idle not in provider.envs and busy in provider.envs

    anyio.run(go)


def test_an_agent_url_on_all_interfaces_takes_the_host_the_runner_used() -> None:
    app = create_app(SimK8sProvider(), token=TOKEN, agent_url="http://{host}:9100/mcp")

    async def go() -> str:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://lab-box:8765", headers=AUTH
        ) as runner:
            return (await runner.post("/v1/provision", json=_body())).json()["agent_endpoint"]

    assert re.fullmatch(r"http://lab-box:9100/env/[0-9a-f]{24}/mcp", anyio.run(go))
