"""``PostgresProvider``: the OASIS Provider protocol (spec 04 §2.2, 08 §3.8) on a real
PostgreSQL server.

One server per provider object (started on the first provision, :mod:`.server`); each
environment is a database cloned from the run's template (``CONNECT`` revoked from PUBLIC,
the ``public`` schema closed to PUBLIC), its roles prefixed with the environment's own
prefix (roles are server-wide: spec 04 §2.3). The agent logs in with the role of the
scenario's principal and a password made for it; it gets nothing of the harness.

Evidence comes from the server itself: ``audit_log`` is the statement log
(:mod:`.auditlog`), ``resource_state`` and snapshots read the catalogs (:mod:`.snapshot`).
Before the log is read, the harness runs a barrier statement and waits until the logging
collector has written it, so every statement the agent sent before is in the file; a
barrier that does not arrive is a provider fault, never an empty log. An environment's log
is read from where the log ended when it was provisioned (a record boundary taken before its
database existed), so no record of it is before that point, and only its own records (its
database or its roles) are parsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import sql

from oasis_eval.contract import ProviderFault, ProvisionRequest, ProvisionResult, Snapshot
from oasis_eval.spec.profile import Profile
from oasis_eval.spec.provider import ConformanceResponse, ObservationResponse

from . import auditlog, provisioning, snapshot
from .existing import ExistingServer
from .provisioning import EnvRecord, ProvisionError
from .server import EmbeddedServer, ServerError
from .tools import libpq_env

Server = EmbeddedServer | ExistingServer

PROVIDER_NAME = "postgres"
PROVIDER_VERSION = "0.1.0"
CORE_VERSIONS = ["1.0.0-rc1.5"]
ENVIRONMENT_TYPE = "postgresql-database"
PROFILE_ID = "oasis-profile-database-operations"
PROFILE_VERSION = "0.1.0"
TEMPLATE = "oasis_template"
AUDIT_SOURCE = "postgresql-statement-log"
STATE_SOURCE = "postgresql-catalog"
REQUIREMENTS: dict[str, Any] = {
    "environment_type": ENVIRONMENT_TYPE,
    "complexity_tier_supported": 1,
    "oasis_core_spec_version": CORE_VERSIONS,
    "evidence_sources_available": ["audit_log", "resource_state", "value_containment"],
    "value_containment_support": True,
    "state_injection": False,
    "statement_log": True,
    "per_environment_roles": True,
}
#: how long the logging collector may take to write the barrier (seconds)
BARRIER_TIMEOUT = 10.0


class PostgresProvider:
    """In-process provider over an embedded PostgreSQL server (see the module docstring)."""

    name = PROVIDER_NAME

    def __init__(self, server: Server | None = None, existing_dsn: str | None = None) -> None:
        self._server: Server | None = server
        #: an existing server's DSN (read by the factory from a variable or a file, :mod:`.existing`)
        self._existing_dsn = existing_dsn
        self._own_server = server is None
        self.envs: dict[str, EnvRecord] = {}
        self.profiles = {PROFILE_ID: PROFILE_VERSION}
        self._count = 0
        self._start_lock = asyncio.Lock()
        self._templated = False
        #: a record boundary of the server's log, moved on by each provision (see _log_mark)
        self._log_cursor = 0
        self._log_lock = threading.Lock()

    # ---- the server ------------------------------------------------------------------------
    async def _ready(self) -> Server:
        async with self._start_lock:
            if self._server is None:
                dsn = self._existing_dsn
                try:
                    self._server = await asyncio.to_thread(
                        lambda: ExistingServer(dsn).start() if dsn else EmbeddedServer().start()
                    )
                except ServerError as exc:
                    raise ProviderFault(f"postgres: {exc}") from None
            if not self._templated:
                await asyncio.to_thread(self._template)
                self._templated = True
            return self._server

    @property
    def server(self) -> Server:
        if self._server is None:
            raise ProviderFault("postgres: the server is not started")
        return self._server

    def _params(self, dbname: str = "postgres") -> dict[str, Any]:
        return self.server.conninfo(dbname)

    def _template(self) -> None:
        """The template every environment database is cloned from: nobody but its owner may
        connect, and PUBLIC may not create in its ``public`` schema (usage stays: table names
        are no secret; privileges on them are the scenario's)."""
        with psycopg.connect(**self._params(), autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (TEMPLATE,))
            if found.fetchone():  # a server shared by several providers has it already
                return
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))
            conn.execute(
                sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(sql.Identifier(TEMPLATE))
            )
            for db in ("postgres", "template1"):
                conn.execute(
                    sql.SQL("REVOKE CONNECT ON DATABASE {} FROM PUBLIC").format(sql.Identifier(db))
                )
        with psycopg.connect(**self._params(TEMPLATE), autocommit=True) as conn:
            conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")

    # ---- Provider protocol -------------------------------------------------------------------
    def serve_profile(self, profile: Profile) -> list[dict[str, str]]:
        """Serve the Database Operations profile (any version this provider was told of)."""
        if profile.id != PROFILE_ID:
            return [
                {
                    "requirement": "profile",
                    "reason": f"{PROVIDER_NAME} implements {PROFILE_ID}, not {profile.id!r}",
                }
            ]
        self.profiles = {profile.id: profile.version}
        return []

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        version = self.profiles.get(profile_id)
        unmet = (
            None
            if version
            else [
                {
                    "requirement": "profile",
                    "reason": f"{PROVIDER_NAME} implements {PROFILE_ID} only",
                }
            ]
        )
        return ConformanceResponse.model_validate(
            {
                "provider": PROVIDER_NAME,
                "provider_version": PROVIDER_VERSION,
                "oasis_core_spec_versions": CORE_VERSIONS,
                "profile": profile_id,
                "profile_version": version or "0.0.0",
                "supported": version is not None,
                "requirements": dict(REQUIREMENTS),
                "unmet_requirements": unmet,
                "supported_stimuli": ["environmental_state"],
                "interface_types": ["database-sql"],
            }
        )

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        if request.environment_type != ENVIRONMENT_TYPE:
            raise ProviderFault(
                f"{PROVIDER_NAME} provisions {ENVIRONMENT_TYPE}, not {request.environment_type!r}"
            )
        server = await self._ready()
        self._count += 1
        tag = secrets.token_hex(4)
        env = EnvRecord(
            id=f"pg-{self._count:03d}-{tag}",
            scenario_id=request.scenario_id,
            # short: a name under 16 characters is not taken for an opaque secret by redaction
            database=f"db{self._count:03d}{tag[:6]}",
            prefix=f"e{tag}_",
            principal=request.principal,
            agent_role=provisioning.role_name(f"e{tag}_", request.principal),
            password=provisioning.new_password(),
        )
        self.envs[env.id] = env
        try:
            await asyncio.to_thread(self._build, env, list(request.state))
        except (ProvisionError, psycopg.Error, KeyError) as exc:
            raise ProviderFault(f"provision of {request.scenario_id} failed: {exc}") from None
        credentials = {
            "type": "libpq",
            "host": server.host,
            "port": str(server.port),
            "user": env.agent_role,
            "password": env.password,
            "database": env.database,
        }
        # libpq's own variables for a subprocess agent (PGHOST ... PGDATABASE: psql unchanged)
        return ProvisionResult(
            environment_id=env.id,
            agent_endpoint=f"postgresql://{server.host}:{server.port}/{env.database}",
            agent_credentials={**credentials, "env": libpq_env(credentials)},
            resolved_namespaces={},
            tier_evidence={
                "server": "existing" if isinstance(server, ExistingServer) else "embedded",
                "database": env.database,
            },
        )

    def _log_mark(self) -> int:
        """Where the log ends now, at a record boundary (only the bytes since the last mark
        are scanned)."""
        with self._log_lock:
            self._log_cursor = auditlog.record_end(self.server.log_path(), self._log_cursor)
            return self._log_cursor

    def _build(self, env: EnvRecord, state: list[dict[str, Any]]) -> None:
        env.log_offset = self._log_mark()  # before anything of the environment is logged
        with psycopg.connect(**self._params(), autocommit=True) as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(env.database), sql.Identifier(TEMPLATE)
                )
            )
            # a database's privileges are not cloned: PUBLIC gets CONNECT again unless revoked
            conn.execute(
                sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(
                    sql.Identifier(env.database)
                )
            )
        with self._session(env) as db:
            sessions = provisioning.build(db, env, state)
        provisioning.start_sessions(env, self._params(), sessions)

    @contextlib.contextmanager
    def _session(self, env: EnvRecord) -> Iterator[psycopg.Connection[Any]]:
        """The harness's session in the environment's database, one caller at a time: opened by
        provision and ended by the next snapshot (the engine's snapshots bracket the agent's
        turn, and an agent reading ``pg_stat_activity`` must not find an idle harness session
        the scenario never had), opened again by the next call."""
        with env.harness_lock:
            conn = env.harness
            if conn is None or conn.closed or conn.broken:
                conn = env.harness = psycopg.connect(**self._params(env.database), autocommit=True)
            yield conn

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        raise ProviderFault(f"{PROVIDER_NAME} does not inject state after provision (inject-state)")

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        env = self._env(environment_id)
        try:
            found = await asyncio.to_thread(self._take, env, True)
        except psycopg.Error as exc:
            raise ProviderFault(f"snapshot of {environment_id} failed: {exc}") from None
        return Snapshot(environment_id=environment_id, timestamp=_now(), resources=found)

    def _take(self, env: EnvRecord, release: bool = False) -> list[dict[str, Any]]:
        """A snapshot over the harness's session; ``release`` ends the session after it."""
        with self._session(env) as db:
            found = snapshot.take(db, env)
            if release:
                db.close()  # see _session
            return found

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        env = self._env(environment_id)
        given: dict[str, Any] = dict(parameters or {})  # over the wire a value may be null
        params = {k: str(v) for k, v in given.items() if v is not None}
        if observation_type == "audit_log":
            data: Any = await asyncio.to_thread(self._audit, env, params)
            source = AUDIT_SOURCE
        elif observation_type == "resource_state":
            data = await asyncio.to_thread(self._resource_state, env, params)
            source = STATE_SOURCE
        else:
            raise ProviderFault(f"unsupported observation type {observation_type!r}")
        return ObservationResponse.model_validate(
            {
                "environment_id": environment_id,
                "observation_type": observation_type,
                "timestamp": _now(),
                "data": data,
                "evidence_source": {"type": source, "status": "available"},
            }
        )

    def _audit(self, env: EnvRecord, params: dict[str, str]) -> dict[str, Any]:
        ours = set(env.roles.values())
        rows = [
            r
            for r in self._rows_through_barrier(env)
            if r["database_name"] == env.database or r["user_name"] in ours
        ]
        picked = []
        for entry in auditlog.entries(rows):
            data = entry["data"]
            if not _in_window(entry["timestamp"], params):
                continue
            if entry.get("user") == env.agent_role:
                data["agent_principal"] = env.principal
            if entry.get("resource") in ("roles", "rolegrants") and entry.get("name"):
                entry["name"] = env.declared(str(entry["name"]))
            picked.append(entry)
        return {"agent_principal": env.principal, "entries": picked}

    def _rows_through_barrier(self, env: EnvRecord) -> list[auditlog.Row]:
        """The log's records up to a barrier statement the harness sends now (module docstring)."""
        mark = f"oasis-audit-barrier-{secrets.token_hex(8)}"
        with self._session(env) as conn:
            conn.execute(sql.SQL("SELECT {}").format(sql.Literal(mark)))
        deadline = time.monotonic() + BARRIER_TIMEOUT
        rows: list[auditlog.Row] = []
        offset = env.log_offset
        while True:
            new, offset = auditlog.read_rows(self.server.log_path(), offset)
            rows.extend(new)
            if any(mark in r["message"] for r in new if r["user_name"] == self.server.harness_user):
                return rows
            if time.monotonic() > deadline:
                raise ProviderFault(
                    f"audit log incomplete: the statement log did not record the barrier within {BARRIER_TIMEOUT:.0f}s"
                )
            time.sleep(0.02)

    def _resource_state(self, env: EnvRecord, params: dict[str, str]) -> dict[str, Any]:
        kind, name = params.get("kind"), params.get("name")
        if not kind or not name:
            raise ProviderFault("resource_state needs `kind` and `name`")
        ns = params.get("namespace") or None
        hit = next(
            (
                r
                for r in self._take(env)
                if r["kind"] == kind
                and r["name"] == name
                and (ns is None or r.get("namespace") in (ns, None))
            ),
            None,
        )
        return {
            "kind": kind,
            "name": name,
            "namespace": ns,
            "exists": hit is not None,
            "object": hit["state"] if hit else None,
        }

    async def teardown(self, environment_id: str) -> None:
        env = self.envs.pop(environment_id, None)
        if env is None:
            raise ProviderFault(f"teardown: unknown environment {environment_id!r}")
        await asyncio.to_thread(self._drop, env)

    def _drop(self, env: EnvRecord) -> None:
        """Drop the environment. A connection another thread may be waiting on (a waiter
        session, or the harness's session when a cancelled call is still running) is never
        closed under it: its socket's number would be reused by the next connection and two
        threads would read one socket (a reply taken by the wrong one, the other waiting
        forever). Its statement is cancelled, its thread waited for, then it is closed; one
        that does not end is left to DROP ... WITH (FORCE)."""
        users = [env.harness] if env.harness else []
        for conn in [*env.sessions, *users]:
            with contextlib.suppress(Exception):
                conn.cancel_safe(timeout=5)
        for thread in env.threads:
            thread.join(timeout=5)
        if env.harness_lock.acquire(timeout=30):
            users.clear()
            env.harness_lock.release()
        busy = {id(c) for c in users} | (
            {id(c) for c in env.sessions} if any(t.is_alive() for t in env.threads) else set()
        )
        for conn in [*env.sessions, *([env.harness] if env.harness else [])]:
            if id(conn) not in busy:
                with contextlib.suppress(psycopg.Error):
                    conn.close()
        with psycopg.connect(**self._params(), autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(env.database)
                )
            )
            for role in sorted(env.roles.values()):
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))

    async def aclose(self) -> None:
        for environment_id in sorted(self.envs):
            with contextlib.suppress(ProviderFault, psycopg.Error):
                await self.teardown(environment_id)
        if self._server is not None and self._own_server:
            await asyncio.to_thread(self._server.stop)

    def _env(self, environment_id: str) -> EnvRecord:
        env = self.envs.get(environment_id)
        if env is None:
            raise ProviderFault(f"unknown environment {environment_id!r}")
        return env


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z"


def _in_window(stamp: str, params: dict[str, str]) -> bool:
    """RFC 3339 UTC stamps compare as text once normalised to the same precision."""
    start, end = params.get("time_from"), params.get("time_to")
    key = stamp[:19]
    return (not start or key >= start[:19]) and (not end or key <= end[:19])
