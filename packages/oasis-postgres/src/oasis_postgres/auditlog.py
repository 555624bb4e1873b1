"""The audit log: the server's own csvlog (``log_statement=all``), read as audit entries.

Every statement a session sends is logged before it runs (``statement: ...`` for the simple
protocol, ``execute <name>: ...`` for the extended one); an error of that statement follows in
the same session with the statement in its ``query`` column. So an entry's outcome is known
from the log alone: 200, or 403 for SQLSTATE 42501 (insufficient privilege, a denied
statement), or 400 for any other error. A failed login is logged too (``FATAL`` 28P01/28000,
or 42501 for a database whose CONNECT is revoked), as a denied ``connect``.

Entries are attributed by the role the server authenticated (``user_name``), never by a
name the client chose (``application_name`` is kept only as data).

The log is the whole server's, so a reader starts at an offset (where an environment's
records begin) and keeps only the records it wants before parsing any SQL: reading it whole
for every environment made a run quadratic in its length. The same statement text (the
harness's catalog queries above all) is parsed once (:func:`_parsed`).
"""

from __future__ import annotations

import copy
import csv
import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .statements import Parsed, parse

#: PostgreSQL 13+ csvlog columns, in order (the first 23 are enough here)
COLUMNS = (
    "log_time",
    "user_name",
    "database_name",
    "process_id",
    "connection_from",
    "session_id",
    "session_line_num",
    "command_tag",
    "session_start_time",
    "virtual_transaction_id",
    "transaction_id",
    "error_severity",
    "sql_state_code",
    "message",
    "detail",
    "hint",
    "internal_query",
    "internal_query_pos",
    "context",
    "query",
    "query_pos",
    "location",
    "application_name",
)
STATEMENT_PREFIXES = ("statement: ",)
DENIED = "42501"
LOGIN_FAILED = ("28P01", "28000", "3D000")


@dataclass
class Row:
    """One csvlog record."""

    values: dict[str, str]

    def __getitem__(self, key: str) -> str:
        return self.values.get(key, "")


def read_rows(path: Path, offset: int = 0) -> tuple[list[Row], int]:
    """The complete records of the log from byte ``offset`` on, and the offset after them."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    # only whole records: the collector may be mid-write; a record ends with a newline outside quotes
    end = _last_record_end(data)
    text = data[:end].decode("utf-8", errors="replace")
    rows = [
        Row(dict(zip(COLUMNS, rec))) for rec in csv.reader(text.splitlines(keepends=True)) if rec
    ]
    return rows, offset + end


def record_end(path: Path, offset: int = 0) -> int:
    """The offset after the last complete record from ``offset`` on (where a reader that wants
    only what is logged from now on starts)."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return offset
    return offset + _last_record_end(data)


def _last_record_end(data: bytes) -> int:
    """The end of the last newline outside quotes (a quote inside a field is doubled, so an
    even count of quotes before a newline puts it outside). Linear: one count, then each
    earlier newline's quotes subtracted."""
    i = data.rfind(b"\n")
    if i < 0:
        return 0
    quotes = data.count(b'"', 0, i)
    while quotes % 2:
        j = data.rfind(b"\n", 0, i)
        if j < 0:
            return 0
        quotes -= data.count(b'"', j, i)
        i = j
    return i + 1


def statement_of(message: str) -> str | None:
    """The SQL of a statement-log message, or None for any other message."""
    if message.startswith("statement: "):
        return message[len("statement: ") :]
    if message.startswith("execute ") and ": " in message:
        return message.split(": ", 1)[1]
    return None


def rfc3339(log_time: str) -> str:
    """``2026-12-02 00:20:01.123 UTC`` -> ``2026-12-02T00:20:01.123000Z``."""
    stamp = datetime.strptime(log_time.replace(" UTC", ""), "%Y-%m-%d %H:%M:%S.%f").replace(
        tzinfo=UTC
    )
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def entries(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """Audit entries from csvlog records in log order (see the module docstring). A whole
    list: an error record settles the outcome of an entry made before it."""
    return list(_entries(rows))


def _entries(rows: Iterable[Row]) -> Iterator[dict[str, Any]]:
    pending: dict[str, list[dict[str, Any]]] = {}  # session -> entries of its last statement
    for row in rows:
        session = row["session_id"]
        sql = statement_of(row["message"]) if row["error_severity"] == "LOG" else None
        if sql is not None:
            made = list(_statement_entries(row, sql))
            pending[session] = made
            yield from made
        elif row["error_severity"] in ("ERROR", "FATAL") and row["sql_state_code"]:
            failed = pending.pop(session, None)
            if failed and row["query"]:
                code = 403 if row["sql_state_code"] == DENIED else 400
                for entry in failed:
                    entry["response_code"] = code
                    entry["data"]["error"] = f"{row['sql_state_code']}: {row['message']}"
            elif row["error_severity"] == "FATAL" and row["user_name"]:
                yield _login_failure(row)


def _base(row: Row, sql: str, index: int) -> dict[str, Any]:
    return {
        "auditID": f"{row['session_id']}:{row['session_line_num']}:{index}",
        "stage": "ResponseComplete",
        "user": row["user_name"],
        "timestamp": rfc3339(row["log_time"]),
        "request_body": sql,
        "response_code": 200,
        "data": {
            "database": row["database_name"],
            "application_name": row["application_name"],
            "session": row["session_id"],
        },
    }


@functools.lru_cache(maxsize=4096)
def _parsed(sql: str) -> tuple[Parsed, ...]:
    """:func:`.statements.parse`, once per distinct text (a pure function of it)."""
    return tuple(parse(sql))


def _statement_entries(row: Row, sql: str) -> Iterator[dict[str, Any]]:
    for index, parsed in enumerate(_parsed(sql)):
        entry = _base(row, sql, index)
        entry.update({"verb": parsed.verb, "resource": parsed.resource})
        if parsed.name is not None:
            entry["name"] = parsed.name
        if parsed.namespace is not None:
            entry["namespace"] = parsed.namespace
        entry["data"].update(copy.deepcopy(parsed.details))  # the cached value stays intact
        yield entry


def _login_failure(row: Row) -> dict[str, Any]:
    entry = _base(row, "", 0)
    code = 403 if row["sql_state_code"] in (DENIED, *LOGIN_FAILED) else 400
    entry.update({"verb": "connect", "resource": "databases", "name": row["database_name"] or None})
    entry["response_code"] = code
    entry["data"]["error"] = f"{row['sql_state_code']}: {row['message']}"
    entry["data"]["command"] = "CONNECT"
    return entry
