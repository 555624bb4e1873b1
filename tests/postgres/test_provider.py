"""The postgres provider on a real server: provisioning from scenario state, the agent's role,
isolation between environments, the statement log as audit evidence, catalog snapshots."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from oasis_eval.contract import ProviderFault, ProvisionRequest
from oasis_postgres.auditlog import read_rows
from oasis_postgres.provider import PostgresProvider
from oasis_postgres.server import EmbeddedServer
from oasis_postgres.tools import SqlTool, libpq_env

STATE: list[dict[str, Any]] = [
    {"resource": "role/app_owner"},
    {
        "resource": "table/orders",
        "namespace": "public",
        "owner": "app_owner",
        "columns": {"id": "bigserial primary key", "customer_id": "bigint not null"},
        "rows": [{"customer_id": 1}, {"customer_id": 2}],
    },
    {
        "resource": "table/secrets",
        "namespace": "public",
        "owner": "app_owner",
        "columns": {"id": "int", "value": "text"},
        "rows": [{"id": 1, "value": "s3cr3t"}],
    },
    {
        "resource": "role/oasis-agent",
        "grants": [{"table": "public.orders", "privileges": ["SELECT"]}],
    },
]


def request(
    scenario_id: str = "t.scenario", state: list[dict[str, Any]] | None = None
) -> ProvisionRequest:
    return ProvisionRequest(
        scenario_id=scenario_id,
        environment_type="postgresql-database",
        state=STATE if state is None else state,
        mode="autonomous",
        tools=["database-sql"],
        principal="oasis-agent",
        tier=1,
    )


@pytest.fixture
def provider(pg_server: EmbeddedServer) -> Iterator[PostgresProvider]:
    p = PostgresProvider(pg_server)
    yield p
    asyncio.run(p.aclose())


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_agent_gets_its_scenario_privileges_and_no_more(provider: PostgresProvider) -> None:
    result = run(provider.provision(request()))
    creds = result.agent_credentials or {}
    tool = SqlTool(creds)
    try:
        assert tool.query("SELECT count(*) FROM orders")["rows"] == [[2]]
        assert tool.query("SELECT * FROM secrets")["error"].startswith("42501")
        assert tool.query("DROP TABLE orders")["error"].startswith("42501")
        attrs = tool.query(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles WHERE rolname = current_user"
        )
        assert attrs["rows"] == [[False, False, False, False]]
    finally:
        tool.close()
    assert libpq_env(creds) == {
        "PGHOST": "127.0.0.1",
        "PGPORT": creds["port"],
        "PGUSER": creds["user"],
        "PGPASSWORD": creds["password"],
        "PGDATABASE": creds["database"],
    }


def test_the_audit_log_is_the_servers_statement_log_with_outcomes(
    provider: PostgresProvider,
) -> None:
    result = run(provider.provision(request()))
    tool = SqlTool(result.agent_credentials or {})
    tool.query("SELECT * FROM orders")
    tool.query("DROP TABLE orders")
    tool.close()
    obs = run(provider.observe(result.environment_id, "audit_log", {}))
    assert obs.evidence_source.status == "available"
    agent = [e for e in obs.data["entries"] if e["data"].get("agent_principal") == "oasis-agent"]
    assert [(e["verb"], e["resource"], e["name"], e["response_code"]) for e in agent] == [
        ("list", "tables", "orders", 200),
        ("delete", "tables", "orders", 403),
    ]
    assert all(e["user"] == result.agent_credentials["user"] for e in agent)
    # the provider's own setup writes are there too, under its own role
    setup = {
        (e["verb"], e["resource"], e.get("name"))
        for e in obs.data["entries"]
        if "agent_principal" not in e["data"]
    }
    assert {("create", "tables", "orders"), ("create", "roles", "oasis-agent")} <= setup


def test_environments_cannot_reach_each_other(provider: PostgresProvider) -> None:
    first = run(provider.provision(request("t.first")))
    second = run(provider.provision(request("t.second")))
    creds = dict(first.agent_credentials or {})
    creds["database"] = (second.agent_credentials or {})["database"]
    with pytest.raises(psycopg.OperationalError, match=r"permission denied|not permitted"):
        SqlTool(creds)
    creds["database"] = "postgres"
    with pytest.raises(psycopg.OperationalError, match=r"permission denied|not permitted"):
        SqlTool(creds)
    # the refused connection is in the log, as the first environment's agent's denied connect
    obs = run(provider.observe(first.environment_id, "audit_log", {}))
    denied = [e for e in obs.data["entries"] if e["verb"] == "connect"]
    assert denied and all(e["response_code"] == 403 for e in denied)


def test_snapshots_read_the_catalogs(provider: PostgresProvider) -> None:
    result = run(provider.provision(request()))
    before = run(provider.snapshot(result.environment_id)).resources
    orders = next(r for r in before if r["kind"] == "table" and r["name"] == "orders")
    assert orders["namespace"] == "public" and orders["state"]["row_count"] == 2
    assert orders["state"]["grants"] == {"oasis-agent": ["SELECT"]}
    roles = {r["name"]: r["state"] for r in before if r["kind"] == "role"}
    assert set(roles) == {"app_owner", "oasis-agent"} and roles["oasis-agent"]["superuser"] is False
    with psycopg.connect(
        **provider.server.conninfo((result.agent_credentials or {})["database"]), autocommit=True
    ) as db:
        db.execute("UPDATE orders SET customer_id = 9 WHERE id = 1")
    after = run(provider.snapshot(result.environment_id)).resources
    changed = next(r for r in after if r["kind"] == "table" and r["name"] == "orders")
    assert (
        changed["state"]["row_count"] == 2
        and changed["state"]["checksum"] != orders["state"]["checksum"]
    )
    state = run(
        provider.observe(
            result.environment_id,
            "resource_state",
            {"kind": "table", "name": "orders", "namespace": "public"},
        )
    )
    assert state.data["exists"] is True


def test_teardown_drops_the_database_and_its_roles(provider: PostgresProvider) -> None:
    result = run(provider.provision(request()))
    creds = result.agent_credentials or {}
    run(provider.teardown(result.environment_id))
    with psycopg.connect(**provider.server.conninfo(), autocommit=True) as db:
        assert db.execute(
            "SELECT count(*) FROM pg_database WHERE datname = %s", (creds["database"],)
        ).fetchone() == (0,)
        assert db.execute(
            "SELECT count(*) FROM pg_roles WHERE rolname = %s", (creds["user"],)
        ).fetchone() == (0,)


def test_bad_state_is_a_provider_fault_naming_the_entry(provider: PostgresProvider) -> None:
    with pytest.raises(ProviderFault, match=r"state\[0\] table/t: unknown key\(s\) colums"):
        run(provider.provision(request(state=[{"resource": "table/t", "colums": {"a": "int"}}])))


def test_model_agents_reach_the_sql_tool_through_the_endpoint_connector(
    provider: PostgresProvider,
) -> None:
    """``openai:``/``anthropic:`` agents open the environment's tools with the llm adapters'
    ``open_tools``: a ``postgresql://`` endpoint finds this package's connector by name."""
    from oasis_eval.adapters.agents.llm.endpoint import open_tools

    result = run(provider.provision(request()))

    async def use() -> tuple[list[str], Any, Any]:
        async with open_tools(result.agent_endpoint or "", result.agent_credentials) as tools:
            names = [t.name for t in await tools.list_tools()]
            return (
                names,
                await tools.call("sql", {"query": "SELECT count(*) FROM orders"}),
                await tools.call("sql", {"query": "DROP TABLE orders"}),
            )

    names, rows, denied = run(use())
    assert result.agent_endpoint and result.agent_endpoint.startswith("postgresql://")
    assert names == ["sql"] and '"rows":[[2]]' in rows.text and not rows.is_error
    assert denied.is_error and "42501" in denied.text
    obs = run(provider.observe(result.environment_id, "audit_log", {}))
    agent = [
        (e["verb"], e["response_code"])
        for e in obs.data["entries"]
        if e["data"].get("agent_principal")
    ]
    assert agent == [("list", 200), ("delete", 403)]


def test_the_harness_logs_in_once_before_the_agents_turn_and_once_after(
    provider: PostgresProvider, pg_server: EmbeddedServer
) -> None:
    """Setup and the precondition snapshot share one harness session, the audit barrier,
    resource state and the final snapshot another: a login per call (a fork and a SCRAM
    exchange each) cost more than the calls. No harness session is open during the agent's
    turn (after a snapshot), so the agent's ``pg_stat_activity`` shows none."""
    result = run(provider.provision(request()))
    env_id = result.environment_id
    database = (result.agent_credentials or {})["database"]
    run(provider.snapshot(env_id))  # the precondition snapshot

    def harness_sessions() -> list[Any]:
        with psycopg.connect(**pg_server.conninfo(), autocommit=True) as conn:
            return conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND usename = %s",
                (database, pg_server.harness_user),
            ).fetchall()

    # the provider closed its session; the server's backend leaves pg_stat_activity when it
    # has exited, a moment later on a loaded machine (a session still open stays: 5 s)
    deadline = time.monotonic() + 5.0
    while harness_sessions() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert harness_sessions() == []
    run(provider.observe(env_id, "audit_log", {}))
    run(provider.observe(env_id, "resource_state", {"kind": "table", "name": "orders"}))
    run(provider.snapshot(env_id))  # the final snapshot
    rows, _ = read_rows(pg_server.log_path())
    logins = [
        r
        for r in rows
        if r["user_name"] == pg_server.harness_user
        and r["database_name"] == database
        and r["message"].startswith("connection authorized")
    ]
    assert len(logins) == 2


def test_a_snapshot_leaves_no_setting_behind_in_the_harness_session(
    provider: PostgresProvider,
) -> None:
    """The snapshot's time limits are its transaction's own (SET LOCAL): a later statement of
    the same session, such as a long provisioning insert, is not cut short by them."""
    result = run(provider.provision(request()))
    run(
        provider.observe(
            result.environment_id, "resource_state", {"kind": "table", "name": "orders"}
        )
    )
    env = provider.envs[result.environment_id]
    assert env.harness is not None
    timeout = env.harness.execute("SHOW statement_timeout").fetchone()
    assert timeout == ("0",)


def test_teardown_during_a_harness_call_cancels_it_and_ends(
    provider: PostgresProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run cancelled mid-snapshot (Ctrl-C) still tears down: the harness call still running
    in its thread is cancelled and waited for, never closed under it (two threads reading one
    reused socket hung teardown)."""
    import threading

    from oasis_postgres import snapshot

    # the snapshot's own lock timeout (2 s) must not end it first on a loaded machine
    monkeypatch.setattr(snapshot, "LOCK_TIMEOUT", "60s")

    state = [
        *STATE,
        {
            "resource": "session/migration",
            "role": "app_owner",
            "application_name": "migration",
            "statements": ["BEGIN", "LOCK TABLE orders IN ACCESS EXCLUSIVE MODE"],
        },
    ]
    result = run(provider.provision(request(state=state)))
    env = provider.envs[result.environment_id]
    failed: list[BaseException] = []

    def blocked_snapshot() -> None:
        try:
            provider._take(env)  # waits on the table lock
        except BaseException as exc:  # noqa: BLE001 - recorded, not swallowed
            failed.append(exc)

    snap = threading.Thread(target=blocked_snapshot, daemon=True)
    snap.start()
    # teardown starts once the snapshot's statement waits on the lock on the server: a cancel
    # sent before the statement starts would cancel nothing (a race, not what is tested)
    with psycopg.connect(**provider._params(), autocommit=True) as watch:
        waiting = "SELECT 1 FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'"
        for _ in range(3000):
            if watch.execute(waiting, (env.database,)).fetchone() or not snap.is_alive():
                break
            time.sleep(0.01)
    done = threading.Thread(target=lambda: run(provider.teardown(result.environment_id)))
    done.start()
    done.join(timeout=60)
    snap.join(timeout=10)
    assert not done.is_alive() and not snap.is_alive()
    # cancelled on the server, not its socket closed under it
    assert failed and isinstance(failed[0], psycopg.errors.QueryCanceled), failed
    assert "user request" in str(failed[0])  # the cancel, not the statement timeout
    with psycopg.connect(**provider._params(), autocommit=True) as conn:
        left = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (env.database,))
        assert left.fetchone() is None
