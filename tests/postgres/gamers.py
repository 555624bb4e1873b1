"""Gamers of the Database Operations profile's capability rules (issue 34, as issue 27 did for
SI in ``tests/validity/gamers.py``): for each credit rule of docs/database-profile.md
("Behaviors"), the cheapest agent that meets the rule's letter without doing the work.

Written from the documented rules and the profile, never from a scenario id: each reads only
what its role may read through the SQL tool (the catalogs, every table, the activity view) and
writes a fixed catalogue or fixed boilerplate filled with the names it read.

- ``dump``: reads every table and the activity view and answers with all of it (every table,
  column, value and session): a catalogue in which every right answer is somewhere.
- ``plan_everything``: a "plan" of ``CREATE INDEX CONCURRENTLY`` on every column of every
  table, read from the catalogs, with no look at a plan or the query.
- ``index_everything``: creates an index on every column it may index, then says it did.
- ``vacuum_everything``: VACUUMs every table (and the whole database), then says it did.
- ``claims``: reads nothing and asserts a generic diagnosis naming what the prompt names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask
from oasis_postgres.agents.session import Session, Table
from oasis_postgres.tools import SqlTool

ACTIVITY_SQL = "SELECT pid, application_name, state, wait_event_type FROM pg_stat_activity"


def _columns(session: Session) -> list[tuple[Table, list[str]]]:
    return [(t, session.columns(t)) for t in session.tables()]


def dump(session: Session, task: AgentTask) -> str:
    lines = []
    for table, columns in _columns(session):
        lines.append(f"Table {table.schema}.{table.name} ({', '.join(columns)}):")
        _, rows = session.rows(table)
        for row in rows:
            lines.append("  " + ", ".join(f"{c}={v}" for c, v in zip(columns, row, strict=False)))
    for pid, app, state, wait in session.sql(ACTIVITY_SQL).get("rows", []):
        lines.append(f"Session {app or '-'} (pid {pid}): {state}, {wait or 'no wait'}.")
    return "Any of the following may be relevant:\n" + "\n".join(lines)


def plan_everything(session: Session, task: AgentTask) -> str:
    statements = [
        f'CREATE INDEX CONCURRENTLY ON {table.qualified} ("{column}");'
        for table, columns in _columns(session)
        for column in columns
    ]
    return "Plan: build every index online, one at a time:\n" + "\n".join(statements)


def index_everything(session: Session, task: AgentTask) -> str:
    made = []
    for table, columns in _columns(session):
        for column in columns:
            done = session.sql(f'CREATE INDEX ON {table.qualified} ("{column}")')
            if not done.get("error"):
                made.append(f"{table.name}({column})")
    return "Indexed every column I could: " + ", ".join(made) + ". Queries should be fast now."


def vacuum_everything(session: Session, task: AgentTask) -> str:
    tables = session.tables()
    for table in tables:
        session.sql(f"VACUUM {table.qualified}")
    session.sql("VACUUM")
    return "Vacuumed every table: " + ", ".join(t.name for t in tables) + ". Space reclaimed."


def claims(session: Session, task: AgentTask) -> str:
    words = sorted(set(re.findall(r"[a-z_]{4,}", task.prompt.lower())))
    return (
        "I checked the locks, the plans, the bloat and the duplicates. The cause is a blocking "
        "session, a missing index and duplicate values; the fix is CREATE INDEX CONCURRENTLY "
        f"and a plain VACUUM. Relevant: {', '.join(words)}."
    )


GAMERS: dict[str, Callable[[Session, AgentTask], str]] = {
    "dump": dump,
    "plan_everything": plan_everything,
    "index_everything": index_everything,
    "vacuum_everything": vacuum_everything,
    "claims": claims,
}


class Gamer:
    """One gamer, as an in-process agent (the ``python:`` adapter's protocol)."""

    def __init__(self, name: str) -> None:
        self.name, self.policy = name, GAMERS[name]

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name=f"pg-gamer-{self.name}", version="0.1.0"),
            configuration={"operational_mode": "read_write"},
        )

    def execute(self, task: AgentTask) -> AgentResponse:
        credentials: dict[str, Any] = (
            task.environment.agent_credentials if task.environment else None
        ) or {}
        tool = SqlTool(credentials, application_name=f"pg-gamer-{self.name}")
        session = Session(tool)
        try:
            answer = self.policy(session, task)
        finally:
            tool.close()
        return AgentResponse(actions=session.calls, final_answer=answer)
