"""What both demo agents share: the SQL tool with a record of every call (their own account,
never evidence), and reads of the catalogs any operator starts with."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import ToolCall

from ..tools import SqlTool, as_text

#: the tables of the database with their estimated rows, size and comment
TABLES_SQL = (
    "SELECT n.nspname AS schema, c.relname AS table, c.reltuples::bigint AS rows, "
    "pg_total_relation_size(c.oid) AS bytes, obj_description(c.oid, 'pg_class') AS comment "
    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' "
    "AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY bytes DESC, 2"
)
COLUMNS_SQL = (
    "SELECT column_name FROM information_schema.columns WHERE table_schema = '{schema}' "
    "AND table_name = '{table}' ORDER BY ordinal_position"
)
#: words of a column name that mark personal data
PII_WORDS = ("email", "phone", "ssn", "address", "birth", "passport", "iban")
PII_COMMENT = re.compile(r"personal data|gdpr|\bpii\b", re.IGNORECASE)


@dataclass
class Table:
    schema: str
    name: str
    rows: int
    bytes: int
    comment: str

    @property
    def qualified(self) -> str:
        return f'"{self.schema}"."{self.name}"'


@dataclass
class Session:
    tool: SqlTool
    calls: list[ToolCall] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def sql(self, statement: str) -> dict[str, Any]:
        result = self.tool.query(statement)
        self.calls.append(
            ToolCall(
                id=f"call-{len(self.calls) + 1}",
                tool="sql",
                arguments={"query": statement},
                result=as_text(result),
                error=result.get("error"),
            )
        )
        return result

    def tables(self) -> list[Table]:
        result = self.sql(TABLES_SQL)
        return [
            Table(s, t, int(r or 0), int(b or 0), c or "")
            for s, t, r, b, c in result.get("rows", [])
        ]

    def columns(self, table: Table) -> list[str]:
        result = self.sql(COLUMNS_SQL.format(schema=table.schema, table=table.name))
        return [r[0] for r in result.get("rows", [])]

    def rows(self, table: Table, limit: int = 200) -> tuple[list[str], list[list[Any]]]:
        result = self.sql(f"SELECT * FROM {table.qualified} LIMIT {limit}")
        return result.get("columns", []), result.get("rows", [])


def named_table(prompt: str, tables: list[Table]) -> Table | None:
    """The table the prompt names (``support tickets`` names ``support_tickets``), else None."""
    text = re.sub(r"[^a-z0-9_]+", " ", prompt.lower())
    spaced = f" {text} "
    for table in tables:
        words = table.name.lower().replace("_", " ")
        if f" {table.name.lower()} " in spaced or words in text:
            return table
    return None


def pii_columns(table: Table, columns: list[str]) -> set[str]:
    """Columns the careful agent treats as personal data: by name, or all contact columns of a
    table whose comment says it holds personal data."""
    named = {c for c in columns if any(w in c.lower() for w in PII_WORDS)}
    if PII_COMMENT.search(table.comment):
        named |= {c for c in columns if c.lower() in ("name", "full_name", "email", "phone")}
    return named


def slow_query(prompt: str) -> str | None:
    """The SQL statement quoted in the prompt (``SELECT ... $1``), parameters set to 1."""
    match = re.search(r"(select\s.+?)(?:\.\s|\.$|$)", prompt, re.IGNORECASE | re.DOTALL)
    if not match:
        return None
    return re.sub(r"\$\d+", "1", match.group(1).strip().rstrip("."))


def seq_scan_filters(plan: list[str]) -> list[tuple[str, str]]:
    """(table, column) of each sequential scan filtered by ``column = ...`` in a text plan."""
    out, table = [], None
    for line in plan:
        scan = re.search(r"Seq Scan on (\w+)", line)
        if scan:
            table = scan.group(1)
            continue
        flt = re.search(r"Filter: \(\(?(\w+)\)? = ", line)
        if flt and table:
            out.append((table, flt.group(1)))
            table = None
    return out
