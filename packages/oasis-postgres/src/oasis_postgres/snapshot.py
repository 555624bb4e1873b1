"""State snapshots of one environment's database, read from the server's catalogs (04 §2.2).

Resources: ``schema`` (non-system schemas), ``table`` (namespace = schema; columns, indexes,
row count, size on disk, an md5 checksum of the rows in a stable order, comment, owner and grants) and
``role`` (the environment's roles under their declared names: attributes and memberships).
A checksum lets "unchanged" catch an UPDATE that keeps the row count.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from .provisioning import EnvRecord

SYSTEM_SCHEMAS = ("pg_catalog", "information_schema", "pg_toast")
#: how long a snapshot waits on a lock an agent's session holds before it fails as a harness fault
LOCK_TIMEOUT = "2s"


def take(db: psycopg.Connection[Any], env: EnvRecord) -> list[dict[str, Any]]:
    """Every schema, table and environment role, sorted by (kind, namespace, name), read over
    ``db`` (the harness's autocommit session in the environment's database) in one
    read-only repeatable-read transaction: one view of the database, and time limits that
    end with it."""
    with db.transaction():
        db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        db.execute("SET LOCAL statement_timeout = '20s'")
        db.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
        out = _schemas(db, env) + _tables(db, env) + _roles(db, env)
    return sorted(out, key=lambda r: (r["kind"], r.get("namespace") or "", r["name"]))


def _schemas(db: psycopg.Connection[Any], env: EnvRecord) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace "
        "WHERE nspname NOT LIKE 'pg_%%' AND nspname <> 'information_schema' ORDER BY 1"
    ).fetchall()
    return [{"kind": "schema", "name": n, "state": {"owner": env.declared(o)}} for n, o in rows]


def _tables(db: psycopg.Connection[Any], env: EnvRecord) -> list[dict[str, Any]]:
    tables = db.execute(
        "SELECT n.nspname, c.relname, pg_get_userbyid(c.relowner), obj_description(c.oid, 'pg_class'), c.oid, "
        "pg_table_size(c.oid) "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p') AND n.nspname NOT LIKE 'pg_%%' "
        "AND n.nspname <> 'information_schema' ORDER BY 1, 2"
    ).fetchall()
    out = []
    for schema, name, owner, comment, oid, size in tables:
        table = sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(name))
        columns = db.execute(
            "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = %s AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
            (oid,),
        ).fetchall()
        count, checksum = db.execute(
            sql.SQL(
                "SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) "
                "FROM {} AS t"
            ).format(table)
        ).fetchone() or (0, "")
        indexes = db.execute(
            "SELECT i.relname, pg_get_indexdef(i.oid), "
            "ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k(n, o) "
            "JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n ORDER BY k.o), "
            "x.indisvalid FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            "WHERE x.indrelid = %s ORDER BY 1",
            (oid,),
        ).fetchall()
        grants = db.execute(
            "SELECT grantee, string_agg(privilege_type, ',' ORDER BY privilege_type) "
            "FROM information_schema.role_table_grants WHERE table_schema = %s AND table_name = %s "
            "AND grantee <> %s GROUP BY grantee ORDER BY 1",
            (schema, name, owner),
        ).fetchall()
        out.append(
            {
                "kind": "table",
                "name": name,
                "namespace": schema,
                "state": {
                    "owner": env.declared(owner),
                    "columns": [{"name": c, "type": t} for c, t in columns],
                    "row_count": count,
                    "checksum": checksum,
                    "size_bytes": size,
                    "indexes": [
                        {"name": n, "columns": list(cols), "definition": d, "valid": v}
                        for n, d, cols, v in indexes
                    ],
                    "comment": comment,
                    "grants": {env.declared(g): p.split(",") for g, p in grants},
                },
            }
        )
    return out


def _roles(db: psycopg.Connection[Any], env: EnvRecord) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT r.rolname, r.rolcanlogin, r.rolsuper, r.rolcreaterole, r.rolcreatedb, "
        "r.rolreplication, r.rolbypassrls, "
        "ARRAY(SELECT m.rolname FROM pg_auth_members am JOIN pg_roles m ON m.oid = am.roleid "
        "WHERE am.member = r.oid ORDER BY 1) FROM pg_roles r WHERE r.rolname LIKE %s ORDER BY 1",
        (env.prefix.replace("_", "\\_") + "%",),
    ).fetchall()
    return [
        {
            "kind": "role",
            "name": env.declared(name),
            "state": {
                "login": login,
                "superuser": superuser,
                "createrole": createrole,
                "createdb": createdb,
                "replication": replication,
                "bypassrls": bypassrls,
                "member_of": sorted(env.declared(m) for m in members),
            },
        }
        for name, login, superuser, createrole, createdb, replication, bypassrls, members in rows
    ]
