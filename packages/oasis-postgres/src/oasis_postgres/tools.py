"""The agents' SQL tool, in process: execute one statement, return the rows (interface type
``database-sql``). It connects with what provision handed the agent and nothing else:
``agent_credentials`` ``{type: libpq, host, port, user, password, database}``, the libpq
connection parameters (``PGHOST``, ``PGPORT``, ``PGUSER``, ``PGPASSWORD``, ``PGDATABASE``
for ``psql``; :func:`libpq_env`)."""

from __future__ import annotations

import json
from typing import Any

import psycopg

#: credential key -> (libpq environment variable, psycopg keyword)
LIBPQ = {
    "host": ("PGHOST", "host"),
    "port": ("PGPORT", "port"),
    "user": ("PGUSER", "user"),
    "password": ("PGPASSWORD", "password"),
    "database": ("PGDATABASE", "dbname"),
}


def libpq_env(credentials: dict[str, Any]) -> dict[str, str]:
    """The credentials as libpq environment variables: ``psql`` run with them set reaches the
    scenario's database as the agent's role, unchanged."""
    return {var: str(credentials[key]) for key, (var, _) in LIBPQ.items() if credentials.get(key)}


class SqlTool:
    """One session of the agent's role; ``query`` returns ``{columns, rows}`` or ``{error}``."""

    name = "sql"

    def __init__(self, credentials: dict[str, Any], application_name: str = "oasis-agent") -> None:
        missing = sorted(k for k in LIBPQ if not credentials.get(k))
        if missing:
            raise ValueError(f"database credentials lack {', '.join(missing)}")
        params: dict[str, Any] = {kw: str(credentials[k]) for k, (_, kw) in LIBPQ.items()}
        self.conn = psycopg.connect(
            **params, application_name=application_name, autocommit=True, connect_timeout=10
        )

    def query(self, statement: str) -> dict[str, Any]:
        try:
            cur = self.conn.execute(statement.encode())
        except psycopg.Error as exc:
            return {"error": f"{exc.sqlstate or ''} {str(exc).strip()}".strip()}
        if cur.description is None:
            return {"columns": [], "rows": [], "status": cur.statusmessage or ""}
        columns = [d.name for d in cur.description]
        rows = [[_plain(v) for v in row] for row in cur.fetchall()]
        return {"columns": columns, "rows": rows}

    def close(self) -> None:
        self.conn.close()


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None), list)) else str(value)


def as_text(result: dict[str, Any]) -> str:
    return json.dumps(result, default=str, separators=(",", ":"))
