"""Provisioning one environment: a database cloned from the run's template, built from the
scenario's precondition state (spec 02 §1.3, 08 §3.1), and the agent's role.

State entries (the Database Operations profile's vocabulary, ``examples/database-profile``)::

    - resource: role/app_owner          # a role; prefixed per environment on the server
      login: false
      member_of: [other_role]
      grants: [{table: public.orders, privileges: [SELECT]}]   # or schema: NAME
    - resource: table/orders            # namespace = schema (created when absent)
      namespace: public
      owner: app_owner
      columns: {id: bigserial primary key, customer_id: bigint}
      rows: [{customer_id: 7}]
      canary: {email: ...}            # one more row, a dict a value_ref can name
      generate: {count: 20000, values: {customer_id: "i % 5000"}}
      indexes: [{name: orders_status_idx, columns: [status]}]
      comment: "..."
    - resource: session/nightly-billing  # a background session left open (a held lock)
      role: billing_batch
      application_name: nightly-billing-batch
      statements: ["BEGIN", "UPDATE ..."]
      waiters: [{application_name: checkout-api, statement: "UPDATE ..."}]

Column types, ``generate`` expressions and session statements are SQL written by the profile
author (trusted input, like a migration); identifiers are always quoted. Roles are server-wide,
so every declared role is created as ``<prefix><name>`` (spec 04 §2.3 isolation); the agent's
role is the one named by the scenario's principal (created without privileges when the state
does not declare it), with LOGIN, a random password and no server-wide attribute.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

#: keys a state entry of each kind may carry (anything else is refused, naming the key)
KNOWN_KEYS = {
    "role": {"resource", "login", "member_of", "grants"},
    "table": {
        "resource",
        "namespace",
        "owner",
        "columns",
        "rows",
        "generate",
        "indexes",
        "comment",
        "pii",
        "canary",
        "fault",
    },
    "session": {"resource", "role", "application_name", "statements", "waiters"},
    "schema": {"resource", "owner"},
}


class ProvisionError(ValueError):
    """A state entry the provider cannot establish (names the entry and the reason)."""


@dataclass
class EnvRecord:
    """What the provider keeps per environment."""

    id: str
    scenario_id: str
    database: str
    prefix: str
    principal: str
    agent_role: str
    password: str
    #: declared role name -> server role name
    roles: dict[str, str] = field(default_factory=dict)
    #: declared role name -> its password (the agent's is handed out; the others never are)
    passwords: dict[str, str] = field(default_factory=dict)
    #: background sessions (held locks) and their waiter threads, closed at teardown
    sessions: list[psycopg.Connection[Any]] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)
    #: byte offset of the log when the environment was created (its entries are after it)
    log_offset: int = 0
    #: the harness's own session in the database (setup, snapshots, barriers), held between
    #: the agent's turns: a login per call (fork + SCRAM) cost more than the calls
    harness: psycopg.Connection[Any] | None = None
    harness_lock: threading.Lock = field(default_factory=threading.Lock)

    def declared(self, server_role: str) -> str:
        """A server role name as the scenario declared it (other names unchanged)."""
        for declared, actual in self.roles.items():
            if actual == server_role:
                return declared
        return server_role


def kind_name(entry: dict[str, Any], index: int) -> tuple[str, str]:
    resource = entry.get("resource")
    if not isinstance(resource, str) or "/" not in resource:
        raise ProvisionError(f"state[{index}]: `resource` must be KIND/NAME, not {resource!r}")
    kind, name = resource.split("/", 1)
    if kind not in KNOWN_KEYS:
        raise ProvisionError(
            f"state[{index}] {resource}: unknown kind {kind!r} (known: {', '.join(sorted(KNOWN_KEYS))})"
        )
    unknown = sorted(set(entry) - KNOWN_KEYS[kind])
    if unknown:
        raise ProvisionError(f"state[{index}] {resource}: unknown key(s) {', '.join(unknown)}")
    return kind, name


def role_name(prefix: str, declared: str) -> str:
    clean = re.sub(r"[^a-z0-9_]", "_", declared.lower())
    return (prefix + clean)[:63]


def _ident(dotted: str) -> sql.Composable:
    return sql.SQL(".").join(sql.Identifier(p) for p in dotted.split("."))


def build(
    conn: psycopg.Connection[Any], env: EnvRecord, state: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Establish ``state`` in ``env``'s database over ``conn``, the harness's session in it
    (autocommit), so its setup writes are all in the database's log. Returns the session
    entries, to start once the environment is otherwise ready."""
    parsed = [(kind_name(e, i), e) for i, e in enumerate(state)]
    sessions = [e for (kind, _), e in parsed if kind == "session"]
    logins = {env.principal} | {str(e["role"]) for e in sessions if e.get("role")}
    roles = {name for (kind, name), _ in parsed if kind == "role"} | logins
    roles |= {
        str(e["owner"]) for (kind, _), e in parsed if kind in ("table", "schema") and e.get("owner")
    }
    _create_roles(conn, env, roles, logins)
    for (kind, name), entry in parsed:
        if kind == "schema":
            _schema(conn, env, name, entry.get("owner"))
    for (kind, name), entry in parsed:
        if kind == "table":
            _table(conn, env, name, entry)
    for (kind, name), entry in parsed:
        if kind == "role":
            _role_grants(conn, env, name, entry)
    return sessions


def _create_roles(
    conn: psycopg.Connection[Any], env: EnvRecord, roles: set[str], logins: set[str]
) -> None:
    """Each declared role under its environment name, LOGIN only where something logs in."""
    for name in sorted(roles):
        env.roles[name] = role_name(env.prefix, name)
        password = env.password if name == env.principal else new_password()
        env.passwords[name] = password
        conn.execute(
            sql.SQL(
                "CREATE ROLE {} {} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
                "NOBYPASSRLS PASSWORD {}"
            ).format(
                sql.Identifier(env.roles[name]),
                sql.SQL("LOGIN" if name in logins else "NOLOGIN"),
                # a SCRAM verifier, not the password: the statement log is evidence
                sql.Literal(
                    conn.pgconn.encrypt_password(
                        password.encode(), env.roles[name].encode(), b"scram-sha-256"
                    ).decode()
                ),
            )
        )
        conn.execute(
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
                sql.Identifier(env.database), sql.Identifier(env.roles[name])
            )
        )


def _schema(db: psycopg.Connection[Any], env: EnvRecord, name: str, owner: Any) -> None:
    db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(name)))
    if owner:
        db.execute(
            sql.SQL("ALTER SCHEMA {} OWNER TO {}").format(
                sql.Identifier(name), sql.Identifier(env.roles[str(owner)])
            )
        )


def _table(db: psycopg.Connection[Any], env: EnvRecord, name: str, entry: dict[str, Any]) -> None:
    schema = str(entry.get("namespace") or "public")
    table = sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(name))
    columns = entry.get("columns")
    if not isinstance(columns, dict) or not columns:
        raise ProvisionError(f"table/{name}: `columns` must map column names to SQL types")
    if schema != "public":
        db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    definition = sql.SQL(", ").join(
        sql.SQL("{} {}").format(sql.Identifier(str(c)), sql.SQL(str(t))) for c, t in columns.items()
    )
    db.execute(sql.SQL("CREATE TABLE {} ({})").format(table, definition))
    generate = entry.get("generate")
    if isinstance(generate, dict):
        values = generate.get("values") or {}
        cols = sql.SQL(", ").join(sql.Identifier(str(c)) for c in values)
        exprs = sql.SQL(", ").join(sql.SQL(str(v)) for v in values.values())
        db.execute(
            sql.SQL("INSERT INTO {} ({}) SELECT {} FROM generate_series(1, {}) AS i").format(
                table, cols, exprs, sql.Literal(int(generate.get("count", 0)))
            )
        )
    canary = [entry["canary"]] if isinstance(entry.get("canary"), dict) else []
    for row in [*(entry.get("rows") or []), *canary]:
        if not isinstance(row, dict):
            raise ProvisionError(f"table/{name}: each of `rows` must be a mapping of column values")
        db.execute(
            sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                table,
                sql.SQL(", ").join(sql.Identifier(str(c)) for c in row),
                sql.SQL(", ").join(sql.Placeholder() for _ in row),
            ),
            list(row.values()),
        )
    for index in entry.get("indexes") or []:
        db.execute(
            sql.SQL("CREATE INDEX {} ON {} ({})").format(
                sql.Identifier(str(index["name"])),
                table,
                sql.SQL(", ").join(sql.Identifier(str(c)) for c in index["columns"]),
            )
        )
    if entry.get("comment"):
        db.execute(
            sql.SQL("COMMENT ON TABLE {} IS {}").format(table, sql.Literal(str(entry["comment"])))
        )
    if entry.get("owner"):
        owner = sql.Identifier(env.roles[str(entry["owner"])])
        db.execute(sql.SQL("ALTER TABLE {} OWNER TO {}").format(table, owner))
        # an owner may index its tables: that needs CREATE in the schema
        db.execute(
            sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(sql.Identifier(schema), owner)
        )
    _fault(db, table, entry.get("fault"))
    db.execute(sql.SQL("ANALYZE {}").format(table))


def _fault(db: psycopg.Connection[Any], table: sql.Composable, fault: Any) -> None:
    """Faults that need more than the declared rows. ``bloat`` (``keep: N``): autovacuum off
    for the table, every row but the first N (in physical order) deleted, leaving dead tuples
    and empty trailing pages a plain VACUUM gives back. Others (``missing-index``,
    ``duplicate-values``) are the declared rows and indexes themselves."""
    if not isinstance(fault, dict) or fault.get("type") != "bloat":
        return
    db.execute(sql.SQL("ALTER TABLE {} SET (autovacuum_enabled = false)").format(table))
    db.execute(
        sql.SQL(
            "DELETE FROM {} WHERE ctid NOT IN (SELECT ctid FROM {} ORDER BY ctid LIMIT {})"
        ).format(table, table, sql.Literal(int(fault.get("keep", 0))))
    )


def _role_grants(
    db: psycopg.Connection[Any], env: EnvRecord, name: str, entry: dict[str, Any]
) -> None:
    role = sql.Identifier(env.roles[name])
    for other in entry.get("member_of") or []:
        db.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(env.roles[str(other)]), role))
    for grant in entry.get("grants") or []:
        kinds = [k for k in ("table", "schema") if grant.get(k)]
        privileges = [str(p).upper() for p in grant.get("privileges") or []]
        if len(kinds) != 1 or not privileges:
            raise ProvisionError(
                f"role/{name}: grant {grant!r} needs one of table: SCHEMA.NAME or schema: NAME, "
                "and privileges"
            )
        kind, obj = kinds[0], str(grant[kinds[0]])
        if not all(re.fullmatch(r"[A-Z ]+", p) for p in privileges):
            raise ProvisionError(f"role/{name}: privileges must be SQL privilege words")
        db.execute(
            sql.SQL("GRANT {} ON {} {} TO {}").format(
                sql.SQL(", ").join(sql.SQL(p) for p in privileges),
                sql.SQL(kind.upper()),
                _ident(obj),
                role,
            )
        )


def start_sessions(env: EnvRecord, params: dict[str, Any], sessions: list[dict[str, Any]]) -> None:
    """Background sessions: each logs in as its (environment) role, runs its statements and
    stays open (a held lock); each waiter runs its statement in a thread and blocks on it."""
    for entry in sessions:
        declared = str(entry["role"])
        login = {
            **params,
            "dbname": env.database,
            "user": env.roles[declared],
            "password": env.passwords[declared],
        }
        login.pop("application_name", None)
        conn = psycopg.connect(**login, application_name=str(entry.get("application_name") or ""))
        for statement in entry.get("statements") or []:
            conn.execute(str(statement).encode())
        env.sessions.append(conn)
        for waiter in entry.get("waiters") or []:
            wconn = psycopg.connect(
                **login, application_name=str(waiter.get("application_name") or ""), autocommit=True
            )
            env.sessions.append(wconn)
            thread = threading.Thread(
                target=_wait, args=(wconn, str(waiter["statement"])), daemon=True
            )
            thread.start()
            env.threads.append(thread)


def _wait(conn: psycopg.Connection[Any], statement: str) -> None:
    with contextlib.suppress(psycopg.Error):  # ended by teardown (the session is terminated)
        conn.execute(statement.encode())


def new_password() -> str:
    return secrets.token_urlsafe(24)
