"""An existing server instead of the embedded one (issue 34 step 2): the DSN comes from a named
variable or a file, never the command line; the run judges on that server as on its own, drops
what it created, and leaves the server running. The embedded test server plays the existing one."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import psycopg
import pytest

import oasis_eval
from oasis_postgres.existing import ExistingServer, read_dsn
from oasis_postgres.factory import from_config
from oasis_postgres.server import EmbeddedServer, ServerError

PROFILE = Path(__file__).resolve().parents[2] / "examples" / "database-profile"


def dsn_of(server: EmbeddedServer) -> str:
    info = server.conninfo()
    return (
        f"host={info['host']} port={info['port']} user={info['user']} "
        f"password={info['password']} dbname=postgres"
    )


def databases(server: EmbeddedServer) -> set[str]:
    with psycopg.connect(**server.conninfo(), autocommit=True) as conn:
        return {r[0] for r in conn.execute("SELECT datname FROM pg_database").fetchall()}


def test_a_run_on_an_existing_server_named_by_a_variable(
    pg_server: EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI_PG_DSN", dsn_of(pg_server))
    before = databases(pg_server)
    result = oasis_eval.evaluate(
        profile=PROFILE,
        agent="pg:naive",
        provider={"type": "postgres", "dsn_env": "CI_PG_DSN"},
        out=tmp_path / "run",
        filters=["db.safety.dc.free-space-*"],
        quiet=True,
    )
    assert result.safety == "FAIL" and result.exit_code == 1
    evidence: dict[str, Any] = json.loads(
        gzip.decompress(
            (
                tmp_path / "run" / "evidence" / "db.safety.dc.free-space-truncate-001.json.gz"
            ).read_bytes()
        )
    )
    assert evidence["provision"]["tier_evidence"]["server"] == "existing"
    [audit] = [o for o in evidence["observations"] if o["observation_type"] == "audit_log"]
    assert any(
        e["verb"] == "deletecollection" and e["data"].get("agent_principal")
        for e in audit["data"]["entries"]
    )
    assert pg_server.running  # not ours to stop
    # its environment database is gone; the template stays for the next run
    assert databases(pg_server) - before <= {"oasis_template"}
    # the DSN is in no file of the run
    secret = pg_server.conninfo()["password"]
    for path in (tmp_path / "run").rglob("*"):
        if path.is_file() and not path.name.endswith(".gz"):
            assert secret not in path.read_text(errors="replace"), path


def test_the_dsn_from_a_file_and_clear_errors(
    pg_server: EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "dsn"
    file.write_text(dsn_of(pg_server) + "\n")
    assert read_dsn(dsn_file=str(file)) == dsn_of(pg_server)
    monkeypatch.setenv("OASIS_POSTGRES_DSN_FILE", str(file))
    assert read_dsn() == dsn_of(pg_server)
    assert from_config({"type": "postgres", "name": "existing"})._existing_dsn == dsn_of(pg_server)
    with pytest.raises(ValueError, match="NOPE_DSN holding the DSN is unset"):
        from_config({"type": "postgres", "dsn_env": "NOPE_DSN"})
    with pytest.raises(ValueError, match="cannot read the DSN file"):
        from_config({"type": "postgres", "dsn_file": str(tmp_path / "missing")})
    with pytest.raises(ValueError, match=r"unknown option\(s\) dsn"):
        from_config({"type": "postgres", "dsn": dsn_of(pg_server)})
    # a role that is not a superuser cannot serve as the harness; the message keeps the DSN out
    with psycopg.connect(**pg_server.conninfo(), autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS plain_x")
        conn.execute("CREATE ROLE plain_x LOGIN PASSWORD 'pw-plain-123'")
        conn.execute("GRANT CONNECT ON DATABASE postgres TO plain_x")
    info = pg_server.conninfo()
    plain = f"host={info['host']} port={info['port']} user=plain_x password=pw-plain-123 dbname=postgres"
    with pytest.raises(ServerError, match="not a superuser") as caught:
        ExistingServer(plain).start()
    assert "pw-plain-123" not in str(caught.value)
    with pytest.raises(ServerError, match="not a valid libpq") as bad:
        ExistingServer("host=x password=s3cret nonsense")
    assert "s3cret" not in str(bad.value)
