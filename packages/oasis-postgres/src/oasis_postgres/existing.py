"""An existing PostgreSQL server instead of the embedded one (a CI service container).

Its DSN is read from a named environment variable or a file, never from the command line,
where an agent could read it from the process table. The DSN's role is the harness's: it
must be a superuser (it creates each environment's database and roles, and reads the server's
log). The server must log what the provider needs for evidence (spec 04 §2.2):
``log_statement = all`` into a ``csvlog``; the log is read through the server itself
(``pg_read_binary_file``), so the harness needs no access to the server's files.
Environments are created and dropped as on the embedded server; the server itself is never
stopped.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .server import ServerError

DSN_ENV = "OASIS_POSTGRES_DSN"
DSN_FILE_ENV = "OASIS_POSTGRES_DSN_FILE"


def read_dsn(dsn_env: str | None = None, dsn_file: str | None = None) -> str:
    """The DSN from the variable named ``dsn_env`` or the file ``dsn_file`` (defaults:
    ``$OASIS_POSTGRES_DSN``, the file named by ``$OASIS_POSTGRES_DSN_FILE``)."""
    if dsn_file or (not dsn_env and os.environ.get(DSN_FILE_ENV)):
        path = Path(dsn_file or os.environ[DSN_FILE_ENV])
        try:
            text = path.read_text().strip()
        except OSError as exc:
            raise ServerError(
                f"postgres: cannot read the DSN file {path}: {exc.strerror}"
            ) from None
        if not text:
            raise ServerError(f"postgres: the DSN file {path} is empty")
        return text
    name = dsn_env or DSN_ENV
    value = os.environ.get(name, "").strip()
    if not value:
        raise ServerError(
            f"postgres: the environment variable {name} holding the DSN is unset or empty"
        )
    return value


class ExistingServer:
    """The same face as :class:`.server.EmbeddedServer` for a server the provider did not start."""

    def __init__(self, dsn: str) -> None:
        try:
            params = conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            # the message never repeats the DSN: it may carry a password
            raise ServerError(
                f"postgres: the DSN is not a valid libpq connection string ({type(exc).__name__})"
            ) from None
        self.params: dict[str, Any] = {k: v for k, v in params.items() if v is not None}
        self.harness_user = str(self.params.get("user") or os.environ.get("PGUSER") or "postgres")
        self.host = str(self.params.get("host") or "127.0.0.1")
        self.port = int(self.params.get("port") or 5432)
        self._logfile: str | None = None
        self._cache = Path(tempfile.mkdtemp(prefix="oasis-pgx-")) / "audit.csv"
        self._fetched = 0
        self._lock = threading.Lock()

    def start(self) -> ExistingServer:
        """Check the server can serve as evidence: a superuser, the statement log in csvlog."""
        try:
            with psycopg.connect(**self.conninfo(), autocommit=True, connect_timeout=10) as conn:
                row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                superuser = row.fetchone()
                if not (superuser and superuser[0]):
                    raise ServerError(
                        f"postgres: the DSN's role {self.harness_user!r} is not a superuser"
                    )
                statement = conn.execute("SHOW log_statement").fetchone()
                logfile = conn.execute("SELECT pg_current_logfile('csvlog')").fetchone()
        except psycopg.Error as exc:
            raise ServerError(
                "postgres: cannot connect to the existing server: "
                f"{type(exc).__name__}: {str(exc).strip()[:200]}"
            ) from None
        if not statement or statement[0] != "all":
            raise ServerError("postgres: the existing server must run with log_statement = all")
        if not logfile or not logfile[0]:
            raise ServerError(
                "postgres: the existing server must log to a csvlog "
                "(log_destination = 'csvlog', logging_collector = on)"
            )
        self._logfile = str(logfile[0])
        return self

    @property
    def running(self) -> bool:
        return True

    def stop(self) -> None:
        """Not ours to stop: only the local copy of the log goes."""
        shutil.rmtree(self._cache.parent, ignore_errors=True)

    def conninfo(self, dbname: str = "postgres") -> dict[str, Any]:
        return {**self.params, "dbname": dbname, "application_name": "oasis-provider"}

    def log_path(self) -> Path:
        """A local copy of the server's csvlog, brought up to date through the server."""
        with self._lock, psycopg.connect(**self.conninfo(), autocommit=True) as conn:
            size = conn.execute("SELECT size FROM pg_stat_file(%s)", (self._logfile,)).fetchone()
            end = int(size[0]) if size else 0
            if end > self._fetched:
                chunk = conn.execute(
                    "SELECT pg_read_binary_file(%s, %s, %s)",
                    (self._logfile, self._fetched, end - self._fetched),
                ).fetchone()
                with self._cache.open("ab") as out:
                    out.write(bytes(chunk[0]) if chunk else b"")
                self._fetched = end
        return self._cache
