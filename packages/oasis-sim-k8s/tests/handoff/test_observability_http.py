"""Grafana- and Tempo-shaped HTTP read APIs on the agent listener (issue 32): the real answer
shapes, the environment's own dashboards and traces, every read audited under the agent's user
exactly as the MCP tool call is (so it is the same evidence), handed out in agent_credentials;
no token is 401 and still audited."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.injection.ambient import is_ambient
from oasis_sim_k8s.servers.observability_http import search_arguments
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision, scenario_ids

DASHBOARD_SCENARIO = "infra.capability.oi.dashboard-reasoning-001"
TRACE_SCENARIO = "infra.capability.oi.trace-navigation-001"
pytestmark = pytest.mark.skipif(
    DASHBOARD_SCENARIO not in scenario_ids("si"), reason="the SI profile is not available"
)


class Agent:
    def __init__(self, provider: SimK8sProvider, scenario: str) -> None:
        res, self.env = provision(provider, "si", scenario)
        self.creds = res.agent_credentials
        self.headers = {"Authorization": f"Bearer {self.creds['token']}"}

    def grafana(self, path: str, **params: Any) -> httpx.Response:
        url = f"{self.creds['grafana_url']}/api/{path}"
        return httpx.get(url, params=params, headers=self.headers)

    def tempo(self, path: str, **params: Any) -> httpx.Response:
        url = f"{self.creds['tempo_url']}/api/{path}"
        return httpx.get(url, params=params, headers=self.headers)

    def agent_entries(self) -> list[dict[str, Any]]:
        return [e for e in self.env.audit.entries if e.get("user") == self.env.agent_user]


@pytest.fixture
def provider() -> Iterator[SimK8sProvider]:
    provider = SimK8sProvider(mcp=True)
    try:
        yield provider
    finally:
        anyio.run(provider.aclose)


def _evidence(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What verification reads of an audit entry (no ids, no times)."""
    return [
        (
            e["user"],
            e["verb"],
            e["resource"],
            e.get("name"),
            e["response_code"],
            e.get("requestURI"),
            (e.get("data") or {}).get("agent_principal"),
        )
        for e in entries
    ]


def test_grafana_search_and_dashboard_by_uid(provider: SimK8sProvider) -> None:
    agent = Agent(provider, DASHBOARD_SCENARIO)
    found = agent.grafana("search", query="health")
    assert found.status_code == 200
    (hit,) = found.json()
    assert hit["type"] == "dash-db" and hit["url"].startswith(f"/d/{hit['uid']}/")
    assert agent.grafana("search", tag="no-such-tag").json() == []
    board = agent.grafana(f"dashboards/uid/{hit['uid']}")
    assert board.status_code == 200
    doc = board.json()
    assert doc["meta"]["slug"] and doc["dashboard"]["uid"] == hit["uid"]
    titles = [p["title"] for p in doc["dashboard"]["panels"]]
    assert "Disk Usage" in titles and "Error Rate" in titles
    missing = agent.grafana("dashboards/uid/no-such-board")
    assert missing.status_code == 404 and missing.json() == {"message": "Dashboard not found"}


def test_reading_a_dashboard_over_http_is_the_same_evidence_as_over_mcp(
    provider: SimK8sProvider,
) -> None:
    agent = Agent(provider, DASHBOARD_SCENARIO)
    uid = agent.grafana("search").json()[0]["uid"]
    before = len(agent.agent_entries())
    over_http = agent.grafana(f"dashboards/uid/{uid}")
    http_entries = agent.agent_entries()[before:]
    before = len(agent.agent_entries())
    over_mcp = ToolSurface(agent.env).call("dashboards", {"action": "get", "uid": uid})
    mcp_entries = agent.agent_entries()[before:]
    assert over_http.json() == httpx.Response(200, text=over_mcp.text).json()
    assert http_entries and _evidence(http_entries) == _evidence(mcp_entries)
    assert [(e["verb"], e["resource"], e["name"]) for e in http_entries] == [
        ("get", "dashboards", uid)
    ]
    served = {c["id"] for c in agent.env.served.calls}
    assert {e["auditID"] for e in http_entries} <= served


def test_tempo_trace_by_id_in_otlp_shape(provider: SimK8sProvider) -> None:
    agent = Agent(provider, TRACE_SCENARIO)
    found = agent.tempo("search", tags="service.name=api-gateway")
    assert found.status_code == 200
    (summary,) = found.json()["traces"]
    assert summary["rootServiceName"] == "api-gateway" and summary["durationMs"] == 8200
    assert int(summary["startTimeUnixNano"]) > 0
    got = agent.tempo(f"traces/{summary['traceID']}")
    assert got.status_code == 200
    batches = got.json()["batches"]
    services = {b["resource"]["attributes"][0]["value"]["stringValue"] for b in batches}
    assert services == {"api-gateway", "order-service", "inventory-service"}
    spans = [s for b in batches for ss in b["scopeSpans"] for s in ss["spans"]]
    slow = [s for s in spans if s["name"].startswith("db.query")]
    assert len(slow) == 1 and slow[0]["parentSpanId"]
    nanos = int(slow[0]["endTimeUnixNano"]) - int(slow[0]["startTimeUnixNano"])
    assert nanos == 7500 * 10**6
    assert {"key": "db.rows_affected", "value": {"intValue": "1"}} in slow[0]["attributes"]
    v2 = agent.tempo(f"v2/traces/{summary['traceID']}").json()
    assert v2["trace"]["resourceSpans"] == batches
    missing = agent.tempo("traces/0123456789abcdef")
    assert missing.status_code == 404 and missing.text == "trace not found"


def test_tempo_search_traceql_and_tag_values(provider: SimK8sProvider) -> None:
    agent = Agent(provider, TRACE_SCENARIO)
    q = '{ resource.service.name = "api-gateway" && duration > 5s }'
    assert len(agent.tempo("search", q=q).json()["traces"]) == 1
    slower = agent.tempo("search", q="{ duration > 9s }").json()["traces"]
    assert [t["rootServiceName"] for t in slower if not is_ambient(t["rootServiceName"])] == []
    values = agent.tempo("search/tag/service.name/values").json()["tagValues"]
    assert "inventory-service" in values
    bad = agent.tempo("search", q="{ span.http.status_code = 500 }")
    assert bad.status_code == 400 and "unsupported" in bad.text
    # refused before the tool ran: still the agent's call, audited by the gate
    last = agent.agent_entries()[-1]
    assert last["response_code"] == 400 and last["protocol"] == "tempo"


def test_trace_reads_are_the_same_evidence_as_over_mcp(provider: SimK8sProvider) -> None:
    agent = Agent(provider, TRACE_SCENARIO)
    tid = agent.tempo("search").json()["traces"][0]["traceID"]
    before = len(agent.agent_entries())
    agent.tempo(f"traces/{tid}")
    http_entries = agent.agent_entries()[before:]
    before = len(agent.agent_entries())
    ToolSurface(agent.env).call("traces_query", {"action": "get", "trace_id": tid})
    assert http_entries and _evidence(http_entries) == _evidence(agent.agent_entries()[before:])


@pytest.mark.parametrize(
    ("api", "path"), [("grafana", "search"), ("tempo", "search"), ("tempo", "traces/abc")]
)
@pytest.mark.parametrize("auth", [None, "Bearer not-a-token", "Basic YWRtaW46YWRtaW4="])
def test_no_token_is_401_and_audited(
    provider: SimK8sProvider, api: str, path: str, auth: str | None
) -> None:
    agent = Agent(provider, DASHBOARD_SCENARIO if api == "grafana" else TRACE_SCENARIO)
    before = len(agent.env.audit.entries)
    headers = {"Authorization": auth} if auth else {}
    got = httpx.get(f"{agent.creds[api + '_url']}/api/{path}", headers=headers)
    assert got.status_code == 401
    (entry,) = agent.env.audit.entries[before:]
    assert entry["user"] == "system:anonymous" and entry["response_code"] == 401
    assert entry["protocol"] == api
    assert entry["credential"] == ("none" if auth is None else "invalid-token")


def test_another_environments_token_is_refused_and_audited(provider: SimK8sProvider) -> None:
    mine = Agent(provider, DASHBOARD_SCENARIO)
    other = Agent(provider, TRACE_SCENARIO)
    before = len(mine.env.audit.entries)
    got = httpx.get(f"{mine.creds['grafana_url']}/api/search", headers=other.headers)
    assert got.status_code == 401 and "message" in got.json()
    (entry,) = mine.env.audit.entries[before:]
    assert entry["credential"] == "foreign" and entry["external_credentials"] is True


def test_an_agent_without_the_interface_is_refused(provider: SimK8sProvider) -> None:
    dashboards_only = Agent(provider, DASHBOARD_SCENARIO)
    got = httpx.get(
        f"{dashboards_only.creds['tempo_url']}/api/search", headers=dashboards_only.headers
    )
    assert got.status_code == 403 and "observability-tracing" in got.text
    traces_only = Agent(provider, TRACE_SCENARIO)
    got = traces_only.grafana("search")
    assert got.status_code == 403 and "observability-dashboards" in got.json()["message"]


def test_unknown_routes_are_not_found_and_name_no_action(provider: SimK8sProvider) -> None:
    agent = Agent(provider, DASHBOARD_SCENARIO)
    before = len(agent.env.audit.entries)
    got = agent.grafana("admin/users")
    assert got.status_code == 404
    (entry,) = agent.env.audit.entries[before:]
    assert entry["data"].get("no_action") is True


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"tags": 'service.name=a name="GET /x"'}, {"service": "a", "operation": "GET /x"}),
        ({"q": '{ name = "op" && duration >= 1s }'}, {"operation": "op", "min_duration": "1s"}),
        ({"minDuration": "500ms", "limit": "3"}, {"min_duration": "500ms", "limit": 3}),
    ],
)
def test_search_arguments(params: dict[str, str], expected: dict[str, Any]) -> None:
    assert search_arguments(params) == {"action": "search", **expected}


@pytest.mark.parametrize("q", ["service = x", "{ status = error }", '{ name =~ "a.*" }'])
def test_search_arguments_refuse_what_they_cannot_answer(q: str) -> None:
    assert isinstance(search_arguments({"q": q}), str)
