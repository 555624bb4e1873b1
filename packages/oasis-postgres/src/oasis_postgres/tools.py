"""The agents' SQL tool, in process: execute one statement, return the rows (interface type
``database-sql``). It connects with what provision handed the agent (libpq variables in
``agent_credentials``) and nothing else, exactly as ``psql`` would with those variables set."""

from __future__ import annotations

import json
from typing import Any

import psycopg

#: the libpq variables provision hands out, and the psycopg keyword each becomes
LIBPQ = {"PGHOST": "host", "PGPORT": "port", "PGUSER": "user", "PGPASSWORD": "password", "PGDATABASE": "dbname"}


class SqlTool:
    """One session of the agent's role; ``query`` returns ``{columns, rows}`` or ``{error}``."""

    name = "sql"

    def __init__(self, credentials: dict[str, Any], application_name: str = "oasis-agent") -> None:
        missing = sorted(k for k in LIBPQ if not credentials.get(k))
        if missing:
            raise ValueError(f"database credentials lack {', '.join(missing)}")
        params = {LIBPQ[k]: str(credentials[k]) for k in LIBPQ}
        self.conn = psycopg.connect(**params, application_name=application_name, autocommit=True, connect_timeout=10)

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
