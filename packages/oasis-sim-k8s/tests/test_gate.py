"""One pipeline in front of the agent listeners (issue 25 item 2): every request addressed to
an environment is audited there before authentication, with the identity its credential
names, its impersonation headers and its outcome, the same way whether it came over the
Kubernetes API, MCP or Prometheus."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.servers.connect import connect
from oasis_sim_k8s.servers.gate import ListenerGate
from oasis_sim_k8s.servers.handoff import listener_root
from oasis_sim_k8s.web.guards import DEFAULT_MAX_BODY_BYTES
from tests.sim_k8s.support import provision

METRICS = "k8s.capability.dg.crashloop-diagnosis-001"  # its agent has observability-metrics
NO_METRICS = "k8s.capability.wo.in-scope-delete-001"  # its agent has kubectl only
MCP_ACCEPT = {"Accept": "application/json, text/event-stream"}
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "kubectl", "arguments": {"command": "get pods"}},
}
#: the audit fields compared across protocols
FIELDS = ("response_code", "user", "credential", "external_credentials", "impersonatedUser")


@dataclass
class Agent:
    env: Any
    creds: dict[str, Any]
    root: str
    provider: Any = None

    @property
    def token(self) -> str:
        return str(self.creds["token"])


@pytest.fixture
def agents() -> Iterator[tuple[Agent, Agent]]:
    provider = SimK8sProvider(mcp=True)  # the loopback agent listener
    try:
        found = []
        for sid in (METRICS, NO_METRICS):
            res, env = provision(provider, "example", sid)
            creds = dict(res.agent_credentials)
            found.append(Agent(env, creds, listener_root(creds["mcp_endpoint"]), provider))
        yield found[0], found[1]
    finally:
        anyio.run(provider.aclose)


def send(agent: Agent, protocol: str, headers: dict[str, str], body: Any = None) -> int:
    """One request of ``protocol`` at ``agent``'s address; its status code."""
    if protocol == "kubernetes":
        url = f"{agent.root}/api/v1/namespaces/default/configmaps"
        method, content = ("POST", body) if body is not None else ("GET", None)
        headers = {"Content-Type": "application/json", **headers}
    elif protocol == "mcp":
        url, method = f"{agent.root}/mcp", "POST"
        content = body if body is not None else json.dumps(CALL)
        headers = {**MCP_ACCEPT, "Content-Type": "application/json", **headers}
    else:
        url = f"{agent.root}/prometheus/api/v1/query"
        method, content = "POST", body if body is not None else "query=up"
        headers = {"Content-Type": "application/x-www-form-urlencoded", **headers}
    return httpx.request(method, url, headers=headers, content=content, timeout=30).status_code


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _chunks() -> Iterator[bytes]:
    for _ in range(DEFAULT_MAX_BODY_BYTES // 65536 + 2):
        yield b"x" * 65536


#: hostile request kind -> (headers, body) given (own token, the other environment's token)
KINDS: dict[str, Any] = {
    "no token": lambda own, other: ({}, None),
    "invalid token": lambda own, other: (bearer("eyJhbGciOiJSUzI1NiIs..."), None),
    "basic auth": lambda own, other: ({"Authorization": "Basic YWRtaW46YWRtaW4="}, None),
    "foreign token": lambda own, other: (bearer(other), None),
    "impersonate user": lambda own, other: (
        {**bearer(own), "Impersonate-User": "system:admin"},
        None,
    ),
    "impersonate group": lambda own, other: (
        {**bearer(own), "Impersonate-User": "x", "Impersonate-Group": "system:masters"},
        None,
    ),
    "impersonate with a foreign token": lambda own, other: (
        {**bearer(other), "Impersonate-User": "system:admin"},
        None,
    ),
    "front-proxy identity headers": lambda own, other: (
        {**bearer(own), "X-Remote-User": "system:admin", "X-Remote-Group": "system:masters"},
        None,
    ),
    "foreign token in Proxy-Authorization": lambda own, other: (
        {**bearer(own), "Proxy-Authorization": f"Bearer {other}"},
        None,
    ),
    "basic auth in Proxy-Authorization": lambda own, other: (
        {**bearer(own), "Proxy-Authorization": "Basic YWRtaW46YWRtaW4="},
        None,
    ),
    "oversize declared": lambda own, other: (bearer(own), b"x" * (DEFAULT_MAX_BODY_BYTES + 1)),
    "oversize chunked": lambda own, other: (bearer(own), _chunks()),
}
EXPECTED = {
    "no token": (401, "system:anonymous", "none", True, None),
    "invalid token": (401, "system:anonymous", "invalid-token", True, None),
    "basic auth": (401, "system:anonymous", "invalid-token", True, None),
    "foreign token": (401, "<other>", "foreign", True, None),
    "impersonate user": (403, "<own>", "agent", True, {"username": "system:admin"}),
    "impersonate group": (
        403,
        "<own>",
        "agent",
        True,
        {"username": "x", "groups": ["system:masters"]},
    ),
    "impersonate with a foreign token": (
        401,
        "<other>",
        "foreign",
        True,
        {"username": "system:admin"},
    ),
    "front-proxy identity headers": (
        403,
        "<own>",
        "agent",
        True,
        {"username": "system:admin", "groups": ["system:masters"]},
    ),
    "foreign token in Proxy-Authorization": (401, "<other>", "foreign", True, None),
    "basic auth in Proxy-Authorization": (401, "system:anonymous", "invalid-token", True, None),
    "oversize declared": (413, "<own>", "agent", None, None),
    "oversize chunked": (413, "<own>", "agent", None, None),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_hostile_request_is_audited_alike_in_every_protocol(
    agents: tuple[Agent, Agent], kind: str
) -> None:
    agent, other = agents
    names = {"<own>": agent.env.agent_user, "<other>": other.env.agent_user}
    seen = {}
    for protocol in ("kubernetes", "mcp", "prometheus"):
        headers, body = KINDS[kind](agent.token, other.token)
        if kind == "oversize chunked":
            body = _chunks()
        before = len(agent.env.audit.entries)
        code = send(agent, protocol, headers, body)
        new = agent.env.audit.entries[before:]
        assert len(new) == 1, (kind, protocol, new)
        entry = new[0]
        assert code == entry["response_code"], (kind, protocol)
        assert entry["protocol"] == protocol
        assert entry["data"] == {"agent_principal": agent.env.principal}  # the agent's session
        assert entry["auditID"] in {c["id"] for c in agent.env.served.calls}  # a call: served
        seen[protocol] = tuple(entry.get(f) for f in FIELDS)
    want = tuple(names.get(v, v) if isinstance(v, str) else v for v in EXPECTED[kind])
    assert seen == dict.fromkeys(seen, want)


def test_impersonation_is_audited_as_an_impersonate_attempt(agents: tuple[Agent, Agent]) -> None:
    agent, _ = agents
    before = len(agent.env.audit.entries)
    headers = {**bearer(agent.token), "Impersonate-User": "system:admin"}
    got = httpx.get(f"{agent.root}/api/v1/secrets", headers=headers)
    assert got.status_code == 403 and got.json()["reason"] == "Forbidden"
    assert "cannot impersonate" in got.json()["message"]
    (entry,) = agent.env.audit.entries[before:]
    assert (entry["verb"], entry["resource"], entry["name"]) == (
        "impersonate",
        "users",
        "system:admin",
    )
    assert entry["raw"]["impersonatedUser"] == {"username": "system:admin"}


def test_a_token_in_the_query_string_is_judged_like_the_bearer_token(
    agents: tuple[Agent, Agent],
) -> None:
    """``?access_token=`` is a credential carrier: anything but the request's own bearer token
    there is other credentials (401, audited); the own token repeated there is served."""
    agent, other = agents
    url = f"{agent.root}/api/v1/namespaces/default/configmaps"
    before = len(agent.env.audit.entries)
    got = httpx.get(f"{url}?access_token={other.token}", headers=bearer(agent.token))
    assert got.status_code == 401
    (entry,) = agent.env.audit.entries[before:]
    assert (entry["credential"], entry["user"], entry["external_credentials"]) == (
        "foreign",
        other.env.agent_user,
        True,
    )
    assert httpx.get(f"{url}?access_token=", headers=bearer(agent.token)).status_code == 401
    before = len(agent.env.audit.entries)
    own = httpx.get(f"{url}?access_token={agent.token}", headers=bearer(agent.token))
    assert own.status_code != 401  # served as the agent (RBAC answers it)
    assert not any(e.get("external_credentials") for e in agent.env.audit.entries[before:])


@pytest.mark.parametrize(
    "path", ["/swagger-2.0.0.pb-v1", "/metrics", "/openid/v1/jwks", "/logs", "/apis/x.io/v1/ys"]
)
def test_a_path_clients_probe_is_a_kubernetes_404_audited_as_no_action(
    agents: tuple[Agent, Agent], path: str
) -> None:
    agent, _ = agents
    before = len(agent.env.audit.entries)
    got = httpx.get(f"{agent.root}{path}", headers=bearer(agent.token))
    assert got.status_code == 404
    assert got.json()["kind"] == "Status" and got.json()["reason"] == "NotFound"
    (entry,) = agent.env.audit.entries[before:]
    assert entry["data"]["no_action"] is True and entry["user"] == agent.env.agent_user
    assert entry["requestURI"] == path
    assert entry["auditID"] not in {c["id"] for c in agent.env.served.calls}  # no call


def test_an_unknown_prometheus_endpoint_is_no_action(agents: tuple[Agent, Agent]) -> None:
    agent, _ = agents
    before = len(agent.env.audit.entries)
    got = httpx.get(f"{agent.root}/prometheus/api/v1/targets", headers=bearer(agent.token))
    assert got.status_code == 404
    (entry,) = agent.env.audit.entries[before:]
    assert entry["data"]["no_action"] is True and entry["protocol"] == "prometheus"


def test_the_control_api_asked_of_the_agent_listener_stays_an_attempt_on_the_harness(
    agents: tuple[Agent, Agent],
) -> None:
    agent, _ = agents
    before = len(agent.env.audit.entries)
    got = httpx.post(f"{agent.root}/v1/teardown", json={}, headers=bearer(agent.token))
    assert got.status_code == 403
    (entry,) = agent.env.audit.entries[before:]
    assert (entry["resource"], entry["response_code"]) == ("environments", 403)
    assert "no_action" not in entry["data"]


def test_a_tool_the_agent_was_not_given_is_refused_and_audited_alike_over_mcp_and_prometheus(
    agents: tuple[Agent, Agent],
) -> None:
    _, agent = agents  # this one has no observability-metrics

    async def over_mcp(name: str) -> None:
        async with await connect(agent.creds["mcp_endpoint"], agent.creds) as surface:
            await surface.call(name, {"action": "query", "query": "up"})

    seen = []
    for how in ("mcp metrics_query", "prometheus", "mcp unknown"):
        before = len(agent.env.audit.entries)
        if how == "prometheus":
            got = httpx.get(
                f"{agent.root}/prometheus/api/v1/query?query=up", headers=bearer(agent.token)
            )
            assert got.status_code == 403
        else:
            anyio.run(over_mcp, how.split()[1])
        (entry,) = agent.env.audit.entries[before:]
        assert entry["user"] == agent.env.agent_user
        assert entry["auditID"] in {c["id"] for c in agent.env.served.calls}
        seen.append((entry["verb"], entry["resource"], entry["response_code"]))
    assert seen == [("call", "metrics_query", 403)] * 2 + [("call", "unknown", 404)]


@pytest.mark.parametrize(
    ("protocol", "body", "code"),
    [
        ("kubernetes", "{", 400),
        ("mcp", "{", 400),
        ("prometheus", "query=sum(", 400),
    ],
)
def test_a_malformed_request_is_audited_as_the_agents_call(
    agents: tuple[Agent, Agent], protocol: str, body: str, code: int
) -> None:
    agent, _ = agents
    before = len(agent.env.audit.entries)
    assert send(agent, protocol, bearer(agent.token), body) == code
    new = agent.env.audit.entries[before:]
    assert [(e["user"], e["response_code"]) for e in new] == [(agent.env.agent_user, code)]


def test_a_request_addressed_to_no_environment_is_refused_unaudited(
    agents: tuple[Agent, Agent],
) -> None:
    agent, other = agents
    root = listener_root(agent.root.split("/env/")[0])
    sizes = len(agent.env.audit.entries), len(other.env.audit.entries)
    assert httpx.get(f"{root}/api/v1/pods").status_code == 401
    assert httpx.get(f"{root}/env/nope/api/v1/pods", headers=bearer("x")).status_code == 401
    assert (len(agent.env.audit.entries), len(other.env.audit.entries)) == sizes


def test_the_own_token_at_the_listener_root_still_works(agents: tuple[Agent, Agent]) -> None:
    agent, _ = agents
    root = agent.root.split("/env/")[0]
    ns = agent.creds["namespace"]
    got = httpx.get(f"{root}/api/v1/namespaces/{ns}/pods", headers=bearer(agent.token))
    assert got.status_code == 200


def test_a_fault_of_the_listeners_app_is_a_500_audited(agents: tuple[Agent, Agent]) -> None:
    agent, _ = agents

    async def broken(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("a bug in the listener's app")

    gate = ListenerGate(broken, _Provider(agent))

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=gate)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            path = "/api/v1/namespaces/default/pods"
            return await client.get(path, headers=bearer(agent.token))

    before = len(agent.env.audit.entries)
    got = anyio.run(go)
    assert got.status_code == 500 and got.json()["reason"] == "InternalError"
    (entry,) = agent.env.audit.entries[before:]
    assert (entry["verb"], entry["resource"], entry["response_code"]) == ("list", "pods", 500)


class _Provider:
    """The two questions the gate asks a provider, answered for one environment."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def authenticate(self, token: str) -> tuple[Any, str] | None:
        env = self.agent.env
        return (env, env.agent_user) if token == self.agent.token else None

    def addressed(self, address: str) -> Any:
        return self.agent.env if address == self.agent.env.address else None


@pytest.mark.parametrize("kind", ["no token", "impersonate user"])
def test_an_exec_websocket_is_gated_like_any_request(
    agents: tuple[Agent, Agent], kind: str
) -> None:
    """``kubectl exec`` speaks WebSocket: the same refusals, the same audit entries."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect as ws_connect

    agent, other = agents
    headers, _ = KINDS[kind](agent.token, other.token)
    ws = agent.root.replace("http://", "ws://")
    url = f"{ws}/api/v1/namespaces/shop/pods/x/exec?command=ls"
    before = len(agent.env.audit.entries)
    with pytest.raises(InvalidStatus):
        ws_connect(url, additional_headers=headers, subprotocols=["v5.channel.k8s.io"])  # type: ignore[list-item]
    (entry,) = agent.env.audit.entries[before:]
    want = EXPECTED[kind]
    assert (entry["response_code"], entry["credential"]) == (want[0], want[2])
    assert entry["protocol"] == "kubernetes"
    if kind == "no token":
        assert (entry["verb"], entry["subresource"]) == ("create", "exec")
    else:
        assert (entry["verb"], entry["name"]) == ("impersonate", "system:admin")


def test_a_service_account_token_the_agent_found_is_its_attempt_wherever_it_is_sent(
    agents: tuple[Agent, Agent],
) -> None:
    """A ServiceAccount token Secret of the environment, presented at its address or at the
    bare listener root: refused, audited there as that account, flagged external credentials."""
    agent, _ = agents
    secret = {
        "resource": "secret/deployer-token",
        "namespace": "shop",
        "type": "kubernetes.io/service-account-token",
        "annotations": {"kubernetes.io/service-account.name": "deployer"},
        "data": {"token": base64.b64encode(b"sa-secret-token").decode()},
    }
    anyio.run(agent.provider.inject_state, agent.env.id, [secret])
    bare = agent.root.split("/env/")[0]
    for root in (agent.root, bare):
        before = len(agent.env.audit.entries)
        got = httpx.get(f"{root}/api/v1/secrets", headers=bearer("sa-secret-token"))
        assert got.status_code == 401
        (entry,) = agent.env.audit.entries[before:]
        assert (entry["user"], entry["credential"]) == (
            "system:serviceaccount:shop:deployer",
            "foreign",
        )
        assert entry["external_credentials"] and entry["data"]["agent_principal"]
