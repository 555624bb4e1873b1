"""The Prometheus HTTP API on the agent listener (issue 16 item 2): the real envelope, the
simulator's own metrics and alerts, every query audited under the agent's user and noted
as served; the control API stays out of reach."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision

METRICS_SCENARIO = "k8s.capability.dg.crashloop-diagnosis-001"
NO_METRICS_SCENARIO = "k8s.capability.wo.in-scope-delete-001"
RESTARTS = "kube_pod_container_status_restarts_total"


class Agent:
    def __init__(self, provider: SimK8sProvider, scenario: str) -> None:
        res, self.env = provision(provider, "example", scenario)
        self.base = res.agent_credentials["prometheus_url"] + "/api/v1"
        self.headers = {"Authorization": f"Bearer {res.agent_credentials['token']}"}

    def get(self, path: str, **params: Any) -> httpx.Response:
        return httpx.get(f"{self.base}/{path}", params=params, headers=self.headers)

    def agent_entries(self) -> list[dict[str, Any]]:
        return [e for e in self.env.audit.entries if e.get("user") == self.env.agent_user]


@pytest.fixture
def provider() -> Iterator[SimK8sProvider]:
    provider = SimK8sProvider(mcp=True)  # the loopback agent listener (no Kubernetes API here)
    try:
        yield provider
    finally:
        anyio.run(provider.aclose)


def test_query_answers_the_environments_metrics_in_the_real_envelope(
    provider: SimK8sProvider,
) -> None:
    agent = Agent(provider, METRICS_SCENARIO)
    at = str(agent.env.clock.start.timestamp() + agent.env.clock.seconds())
    got = agent.get("query", query=RESTARTS, time=at)
    assert got.status_code == 200 and got.headers["content-type"] == "application/json"
    doc = got.json()
    assert doc["status"] == "success" and doc["data"]["resultType"] == "vector"
    assert doc["data"]["result"] and all(
        r["metric"]["__name__"] == RESTARTS for r in doc["data"]["result"]
    )
    expected = ToolSurface(agent.env).call("metrics_query", {"query": RESTARTS, "time": at})
    assert doc == httpx.Response(200, text=expected.text).json()  # what the MCP tool answers


def test_every_query_is_audited_as_the_agent_and_noted_as_served(
    provider: SimK8sProvider,
) -> None:
    agent = Agent(provider, METRICS_SCENARIO)
    before = len(agent.agent_entries())
    agent.get("query", query=RESTARTS)
    agent.get("query", query="sum(")
    entries = agent.agent_entries()[before:]
    assert [(e["verb"], e["resource"], e["response_code"]) for e in entries] == [
        ("get", "metrics", 200),
        ("get", "metrics", 400),
    ]
    assert all(e["data"]["agent_principal"] == agent.env.principal for e in entries)
    served = {c["id"] for c in agent.env.served.calls}
    assert {e["auditID"] for e in entries} <= served


def test_query_range_series_names_and_alerts(provider: SimK8sProvider) -> None:
    agent = Agent(provider, METRICS_SCENARIO)
    ranged = agent.get("query_range", query=RESTARTS, start="-1h", end="now", step="5m").json()
    assert ranged["status"] == "success" and ranged["data"]["resultType"] == "matrix"
    assert all(len(r["values"]) > 1 for r in ranged["data"]["result"])
    series = agent.get("series", **{"match[]": RESTARTS}).json()
    assert series["status"] == "success" and series["data"]
    assert all(s["__name__"] == RESTARTS for s in series["data"])
    names = agent.get("label/__name__/values").json()
    assert names["status"] == "success" and RESTARTS in names["data"]
    alerts = agent.get("alerts").json()
    assert alerts["status"] == "success" and isinstance(alerts["data"]["alerts"], list)


@pytest.mark.parametrize(
    ("path", "params", "status", "kind"),
    [
        ("query", {"query": "sum("}, 400, "bad_data"),
        ("query", {}, 400, "bad_data"),
        ("query_range", {"query": RESTARTS, "start": "-1h"}, 400, "bad_data"),
        ("series", {}, 400, "bad_data"),
    ],
)
def test_errors_use_the_prometheus_error_envelope(
    provider: SimK8sProvider, path: str, params: dict[str, str], status: int, kind: str
) -> None:
    got = Agent(provider, METRICS_SCENARIO).get(path, **params)
    assert got.status_code == status
    doc = got.json()
    assert doc["status"] == "error" and doc["errorType"] == kind and doc["error"]


def test_a_bearer_token_is_required(provider: SimK8sProvider) -> None:
    agent = Agent(provider, METRICS_SCENARIO)
    before = len(agent.env.audit.entries)
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        got = httpx.get(f"{agent.base}/query", params={"query": RESTARTS}, headers=headers)
        assert got.status_code == 401 and got.json()["status"] == "error"
    # addressed to this environment: each refusal is evidence of its agent (issue 25)
    refused = agent.env.audit.entries[before:]
    assert [(e["user"], e["credential"], e["response_code"]) for e in refused] == [
        ("system:anonymous", "none", 401),
        ("system:anonymous", "invalid-token", 401),
    ]


def test_an_agent_without_metrics_is_refused(provider: SimK8sProvider) -> None:
    agent = Agent(provider, NO_METRICS_SCENARIO)
    got = agent.get("query", query=RESTARTS)
    assert got.status_code == 403 and got.json()["errorType"] == "forbidden"


def test_the_control_api_stays_out_of_reach(provider: SimK8sProvider) -> None:
    agent = Agent(provider, METRICS_SCENARIO)
    root = agent.base.removesuffix("/prometheus/api/v1")
    got = httpx.post(
        f"{root}/v1/teardown", json={"environment_id": agent.env.id}, headers=agent.headers
    )
    assert got.status_code == 403
    denied = agent.agent_entries()[-1]
    assert denied["resource"] == "environments" and denied["response_code"] == 403
    assert agent.env.id in provider.envs  # nothing was torn down
