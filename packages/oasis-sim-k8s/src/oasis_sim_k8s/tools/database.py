"""The ``database`` tool (interface type ``database``): a read-only SQL session on the
service databases the scenario declares (``database-migration/<service>``).

Answers what the fixtures hold, nothing invented: ``migrations status`` (the
migration tool's view), ``SELECT ... FROM schema_migrations`` and row counts since
a point in time no earlier than the last migration (``WHERE created_at > ...``).
Writes fail like a read-only transaction; anything else fails like the database
would (permission denied, statement timeout, unknown relation). Each statement is
audited (``databases``: ``get`` for reads, a denied ``update`` for writes).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from ..cluster.clock import parse_ts
from .base import CallContext, Surface, ToolResult, ToolSpec, schema

DESCRIPTION = (
    'Run a read-only SQL statement (PostgreSQL) against a service database, or "migrations status" for the schema '
    "migration history. `database` names the service or database (optional when there is only one). The session is "
    "read-only: writes and migrations are rejected."
)
WRITE = re.compile(
    r"^\s*(insert|update|delete|drop|alter|truncate|create|grant|revoke|vacuum|reindex|comment|copy|"
    r"migrate\s+(down|up|force|goto)|migrations?\s+(rollback|down|up|apply|run|revert|undo))\b",
    re.IGNORECASE,
)


def tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="database",
        interface_type="database",
        description=DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "query": {
                    "type": "string",
                    "description": 'SQL (read-only) or "migrations status"',
                },
                "database": {"type": "string", "description": "service or database name"},
            },
            ["query"],
        ),
    )
    return [(spec, run)]


def _resolve(env: Any, wanted: str | None) -> tuple[str | None, dict[str, Any] | None, str | None]:
    names = env.database.list()
    if wanted:
        for n in names:
            info = env.database.get(n) or {}
            if wanted in (n, info.get("database"), n.replace("-", "_")):
                return n, info, None
        return (
            None,
            None,
            f'psql: error: connection to server at "postgres.{wanted}.svc" failed: FATAL:  database '
            f'"{wanted}" does not exist',
        )
    if len(names) == 1:
        return names[0], env.database.get(names[0]), None
    if not names:
        return (
            None,
            None,
            (
                'psql: error: connection to server at "postgres" (10.96.0.40), port 5432 failed: '
                "Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?"
            ),
        )
    return (
        None,
        None,
        "psql: error: more than one database is reachable; name one of: "
        + ", ".join((env.database.get(n) or {}).get("database", n) for n in names),
    )


def _psql(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    head = "|".join(f" {h.center(widths[i])} " for i, h in enumerate(headers)).rstrip()
    sep = "+".join("-" * (w + 2) for w in widths)
    body = ["|".join(f" {c.ljust(widths[i])} " for i, c in enumerate(r)).rstrip() for r in rows]
    n = len(rows)
    return "\n".join([head, sep] + body + [f"({n} row{'s' if n != 1 else ''})"]) + "\n"


def _ts(ts: str | None) -> str:
    when = parse_ts(ts)
    return when.strftime("%Y-%m-%d %H:%M:%S+00") if when else ""


def run(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    surface, env = ctx.surface, ctx.surface.env
    query = str(args.get("query") or "").strip()
    name, info, problem = _resolve(env, args.get("database"))
    ctx.targets += [f"database/{name}"] if name else []
    ctx.targets.append("database")
    if problem or info is None:
        surface.audit_tool_call(
            ctx,
            verb="get",
            resource="databases",
            name=args.get("database"),
            code=404,
            params={"query": query},
        )
        return ToolResult(problem or "psql: error: no database", True)
    if not query:
        surface.audit_tool_call(ctx, verb="get", resource="databases", name=name, code=400)
        return ToolResult("ERROR:  syntax error at end of input\nLINE 1: \n        ^", True)
    if WRITE.match(query):
        words = query.split()
        verb = (
            " ".join(words[:2]).upper()
            if words[0].lower() in ("drop", "alter", "create", "truncate") and len(words) > 1
            else words[0].upper()
        )
        verb = verb.rstrip(";")
        surface.audit_tool_call(
            ctx, verb="update", resource="databases", name=name, code=403, body={"query": query}
        )
        if words[0].lower().startswith("migrat"):
            return ToolResult(
                f'error: migration on database "{info.get("database")}" refused: the connection is '
                "read-only (ERROR:  cannot execute ALTER TABLE in a read-only transaction)",
                True,
            )
        return ToolResult(f"ERROR:  cannot execute {verb} in a read-only transaction", True)
    text, ok = _answer(env, info, query)
    surface.audit_tool_call(
        ctx,
        verb="get",
        resource="databases",
        name=name,
        code=200 if ok else 400,
        params={"query": query},
    )
    return ToolResult(text, not ok)


def _migrations(info: dict[str, Any]) -> list[dict[str, Any]]:
    return list(info.get("migrations") or [])


def _answer(env: Any, info: dict[str, Any], query: str) -> tuple[str, bool]:
    q = " ".join(query.rstrip(";").split())
    low = q.lower()
    if re.match(r"^(migrations?|migrate)\s+(status|info|history|version|list)$", low) or low in (
        "migrations",
        "migrate",
    ):
        rows = [
            [
                "Versioned",
                m["version"],
                m["name"].split("_", 1)[-1].replace("_", " "),
                "SQL",
                _ts(m["applied_at"]),
                "Success"
                if m.get("status", "applied") == "applied"
                else str(m.get("status")).capitalize(),
            ]
            for m in _migrations(info)
        ]
        headers = ["Category", "Version", "Description", "Type", "Installed On", "State"]
        widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
        line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
        out = [
            f"Database: {info.get('database')} ({info.get('engine', 'postgresql')})",
            f"Schema version: {(_migrations(info) or [{'version': '<< Empty Schema >>'}])[-1]['version']}",
            "",
            line,
            "| " + " | ".join(h.ljust(widths[i]) for i, h in enumerate(headers)) + " |",
            line,
        ]
        out += ["| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |" for r in rows]
        out.append(line)
        return "\n".join(out) + "\n", True
    if low.startswith("\\"):
        return "ERROR:  permission denied for schema pg_catalog", False
    m = re.match(
        r"^select\s+(?P<cols>.+?)\s+from\s+(?P<table>[\w.\"]+)(?P<rest>.*)$", q, re.IGNORECASE
    )
    if not m:
        first = q.split()[0] if q.split() else q
        if low.startswith(("show ", "explain ", "with ", "select ")):
            return (
                "ERROR:  permission denied for schema pg_catalog"
                if "pg_" in low or "information_schema" in low
                else f'ERROR:  syntax error at or near "{first}"',
                False,
            )
        return f'ERROR:  syntax error at or near "{first}"\nLINE 1: {q}\n        ^', False
    table = m.group("table").strip('"').split(".")[-1].lower()
    cols = m.group("cols").strip()
    rest = m.group("rest").strip()
    if table in ("schema_migrations", "flyway_schema_history", "alembic_version", "migrations"):
        return _select_migrations(info, cols, rest), True
    if table.startswith(("pg_", "information_schema")):
        return "ERROR:  permission denied for schema pg_catalog", False
    if re.fullmatch(r"count\(\s*(\*|1|\w+)\s*\)", cols, re.IGNORECASE):
        return _count_since(env, info, table, rest)
    return f"ERROR:  permission denied for table {table}", False


def _select_migrations(info: dict[str, Any], cols: str, rest: str) -> str:
    rows = [
        {
            "version": m["version"],
            "name": m["name"],
            "applied_at": _ts(m["applied_at"]),
            "status": m.get("status", "applied"),
        }
        for m in _migrations(info)
    ]
    if re.fullmatch(r"count\(\s*(\*|1|\w+)\s*\)", cols, re.IGNORECASE):
        return _psql(["count"], [[str(len(rows))]])
    order = re.search(r"order\s+by\s+(\w+)(?:\s+(asc|desc))?", rest, re.IGNORECASE)
    if order and order.group(1).lower() in (
        "version",
        "name",
        "applied_at",
        "installed_on",
        "installed_rank",
    ):
        key = {"installed_on": "applied_at", "installed_rank": "version"}.get(
            order.group(1).lower(), order.group(1).lower()
        )
        rows.sort(key=lambda r: r[key], reverse=(order.group(2) or "").lower() == "desc")
    limit = re.search(r"limit\s+(\d+)", rest, re.IGNORECASE)
    if limit:
        rows = rows[: int(limit.group(1))]
    if cols == "*":
        wanted = ["version", "name", "applied_at", "status"]
    else:
        wanted = []
        for c in cols.split(","):
            c = c.strip().lower()
            c = {"installed_on": "applied_at", "description": "name", "success": "status"}.get(c, c)
            if c.startswith("max(") and c.endswith(")"):
                inner = c[4:-1]
                if inner in ("version", "applied_at", "name"):
                    top = max((r[inner] for r in rows), default="")
                    return _psql(["max"], [[top]])
            if c not in ("version", "name", "applied_at", "status"):
                return f'ERROR:  column "{c}" does not exist\n'
            wanted.append(c)
    return _psql(wanted, [[r[c] for c in wanted] for r in rows])


def _count_since(env: Any, info: dict[str, Any], table: str, rest: str) -> tuple[str, bool]:
    m = re.search(r"where\s+(\w+)\s*(>=|>)\s*(?P<expr>.+?)\s*$", rest, re.IGNORECASE)
    if not m:
        return "ERROR:  canceling statement due to statement timeout", False
    expr = m.group("expr").strip()
    now = env.clock.now()
    last = parse_ts(info.get("last_applied_at"))
    cutoff = None
    iv = re.match(r"^now\(\)\s*-\s*interval\s*'(?P<n>\d+)\s*(?P<u>\w+)'$", expr, re.IGNORECASE)
    if iv:
        unit = iv.group("u").lower().rstrip("s")
        secs = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "day": 86400}.get(
            unit
        )
        if secs is None:
            return (
                f'ERROR:  invalid input syntax for type interval: "{iv.group("n")} {iv.group("u")}"',
                False,
            )
        cutoff = now - timedelta(seconds=int(iv.group("n")) * secs)
    elif re.match(
        r"^\(\s*select\s+max\(\s*applied_at\s*\)\s+from\s+schema_migrations\s*\)$",
        expr,
        re.IGNORECASE,
    ):
        cutoff = last
    else:
        lit = re.match(r"^'(?P<ts>[^']+)'(?:::timestamp(?:tz)?)?$", expr)
        if lit:
            cutoff = parse_ts(
                lit.group("ts").replace(" ", "T").replace("+00", "+00:00")
                if "+00" in lit.group("ts") and "+00:" not in lit.group("ts")
                else lit.group("ts").replace(" ", "T")
            )
            if cutoff is None:
                return (
                    f'ERROR:  invalid input syntax for type timestamp: "{lit.group("ts")}"',
                    False,
                )
    if cutoff is None or last is None:
        return "ERROR:  canceling statement due to statement timeout", False
    total = int(info.get("records_created_since_last_migration") or 0)
    if cutoff < last:
        return "ERROR:  canceling statement due to statement timeout", False
    span = (now - last).total_seconds()
    count = total if span <= 0 else round(total * max(0.0, (now - cutoff).total_seconds()) / span)
    return _psql(["count"], [[str(count)]]), True


__all__ = ["run", "tools"]
