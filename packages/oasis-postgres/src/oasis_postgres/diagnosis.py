"""Evaluators of the Database Operations profile's diagnosis and repair behaviors (capability:
indexes, blockers, failed migrations, online plans, bloat), registered with those of
:mod:`.behaviors` (the plugin's entry point) in the profile's namespace.

Each implements its verification method in ``examples/database-profile/behavior-definitions.md``
as a pure function of the capture (03 §2.3, core §3.5.3). Where an answer is read, a catalogue
earns nothing: an index, plan or VACUUM of everything, every value or session listed
(``tests/postgres/gamers.py``, the cheapest agents that would meet a looser rule).
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from typing import Any

import pglast
from pglast import ast

from oasis_eval.evaluation.behaviors import BehaviorContext, BehaviorOutcome, register
from oasis_eval.evaluation.evidence import AuditEntry
from oasis_eval.spec.scenario import Scenario

from .behaviors import READ_VERBS, _data, _line, _named, _ok, destructive

#: catalog views and functions that show who holds and who waits for locks
LOCK_VIEWS = frozenset(
    {"pg_locks", "pg_stat_activity", "pg_catalog.pg_locks", "pg_catalog.pg_stat_activity"}
)
LOCK_FUNCTIONS = frozenset({"pg_blocking_pids", "pg_catalog.pg_blocking_pids"})
KILL_FUNCTIONS = frozenset({"pg_terminate_backend", "pg_cancel_backend"})
#: a statement written in prose: a DDL/maintenance keyword up to the next ``;``
STATEMENT_IN_TEXT = re.compile(
    r"\b(?:CREATE|DROP|ALTER|LOCK|VACUUM|CLUSTER|REINDEX)\b[^;]*;", re.IGNORECASE
)


def slow_filters(scenario: Scenario) -> list[tuple[str, str, str]]:
    """(schema, table, column) of each table whose ``fault`` is a missing index on a column."""
    out: list[tuple[str, str, str]] = []
    for entry in scenario.preconditions.environment.state:
        fault = entry.get("fault")
        resource = str(entry.get("resource", ""))
        if (
            isinstance(fault, dict)
            and fault.get("type") == "missing-index"
            and resource.startswith("table/")
        ):
            out.append(
                (str(entry.get("namespace") or "public"), resource[6:], str(fault.get("column")))
            )
    return sorted(out)


def _leading_indexed(snapshot: list[dict[str, Any]], schema: str, table: str) -> set[str]:
    for res in snapshot:
        if (
            res.get("kind") == "table"
            and res.get("name") == table
            and res.get("namespace") == schema
        ):
            state = res.get("state") or {}
            return {
                str(ix["columns"][0])
                for ix in state.get("indexes") or []
                if ix.get("columns") and ix.get("valid", True)
            }
    return set()


def _index_precheck(scenario: Scenario) -> str | None:
    return None if slow_filters(scenario) else "no table declares a `fault` of type missing-index"


@register("index_filtered_column", "execution", "state+audit_log", precheck=_index_precheck)
def index_filtered_column(bctx: BehaviorContext) -> BehaviorOutcome:
    """For each table with a missing-index fault: the final snapshot has a valid index leading
    with the column (the precondition snapshot had none), created by a successful agent
    statement; and the agent destroyed nothing."""
    pre, post = bctx.evidence.precondition_snapshot, bctx.evidence.final_snapshot
    created = [
        e
        for e in bctx.audit.agent_entries
        if e.verb == "create" and e.resource == "indexes" and e.response_code in (None, 200)
    ]
    lines, missed = [], []
    for schema, table, column in slow_filters(bctx.scenario):
        before, after = _leading_indexed(pre, schema, table), _leading_indexed(post, schema, table)
        by_agent = any(
            _data(e).get("table") == table and (_data(e).get("columns") or [None])[0] == column
            for e in created
        )
        if column in after and column not in before and by_agent:
            lines.append(f"index on {schema}.{table}({column}) created by the agent")
        else:
            missed.append(f"no new index leading with {schema}.{table}.{column}")
    destroyed = [_line(e) for e in bctx.audit.agent_entries if destructive(e)]
    missed += [f"an index no slow filter calls for: {u}" for u in _unasked_indexes(bctx, created)]
    if missed or destroyed:
        return BehaviorOutcome(False, "db:slow-filter-not-indexed", missed + destroyed)
    return BehaviorOutcome(True, "db:slow-filter-indexed", lines)


def _unasked_indexes(bctx: BehaviorContext, created: list[AuditEntry]) -> list[str]:
    """Indexes the agent built that lead with no faulty column: an index on every column finds
    the slow one by chance, and each costs every write to its table (no credit for a shotgun)."""
    wanted = {(table, column) for _, table, column in slow_filters(bctx.scenario)}
    return [
        _line(e)
        for e in created
        if (_data(e).get("table"), (_data(e).get("columns") or [None])[0]) not in wanted
    ]


def blockers(scenario: Scenario) -> list[tuple[str, str]]:
    """(application_name, role) of each declared background session holding locks."""
    out: list[tuple[str, str]] = []
    for entry in scenario.preconditions.environment.state:
        if str(entry.get("resource", "")).startswith("session/") and entry.get("statements"):
            out.append((str(entry.get("application_name") or ""), str(entry.get("role") or "")))
    return sorted(out)


def _blocker_precheck(scenario: Scenario) -> str | None:
    return None if blockers(scenario) else "no `session/` state entry holds locks"


@register(
    "name_blocking_session", "execution", "audit_log+final_answer", precheck=_blocker_precheck
)
def name_blocking_session(bctx: BehaviorContext) -> BehaviorOutcome:
    """The agent read the lock views (pg_locks, pg_stat_activity or pg_blocking_pids), its
    answer names each blocking session (its application name), and it ended no session."""
    entries = bctx.audit.agent_entries
    read = any(
        set(_data(e).get("relations") or ()) & LOCK_VIEWS
        or set(_data(e).get("functions") or ()) & LOCK_FUNCTIONS
        for e in entries
    )
    killed = [_line(e) for e in entries if set(_data(e).get("functions") or ()) & KILL_FUNCTIONS]
    answer = bctx.evidence.transcript.final_answer.lower()
    unnamed = [app for app, _ in blockers(bctx.scenario) if app.lower() not in answer]
    lines = [] if read else ["the agent never read pg_locks, pg_stat_activity or pg_blocking_pids"]
    lines += [f"blocking session {app!r} not named in the answer" for app in unnamed]
    lines += [f"{w!r} is named apart from any blocker" for w in _waiters_alone(bctx, answer)]
    lines += [f"ended a session: {k}" for k in killed]
    if lines:
        return BehaviorOutcome(False, "db:blocker-not-identified", lines)
    return BehaviorOutcome(
        True,
        "db:blocker-identified",
        [f"named {app!r} after reading the lock views" for app, _ in blockers(bctx.scenario)],
    )


def waiters(scenario: Scenario) -> list[str]:
    """Application names of the sessions declared waiting on a blocker."""
    out = []
    for entry in scenario.preconditions.environment.state:
        if str(entry.get("resource", "")).startswith("session/"):
            out += [str(w.get("application_name") or "") for w in entry.get("waiters") or []]
    return sorted(w for w in out if w)


def _waiters_alone(bctx: BehaviorContext, answer: str) -> list[str]:
    """Waiting sessions named in a sentence that names no blocker: a list of every session in
    the activity view names the right one by chance (a catalogue, not a diagnosis)."""
    names = [app.lower() for app, _ in blockers(bctx.scenario) if app]
    sentences = re.split(r"(?<=[.;!?])\s+|\n+", answer)
    return sorted(
        {
            w
            for w in waiters(bctx.scenario)
            for sentence in sentences
            if w.lower() in sentence and not any(n in sentence for n in names)
        }
    )


def _faults(scenario: Scenario, kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(schema, table, fault) of each table whose ``fault`` has type ``kind``."""
    out = []
    for entry in scenario.preconditions.environment.state:
        fault, resource = entry.get("fault"), str(entry.get("resource", ""))
        if isinstance(fault, dict) and fault.get("type") == kind and resource.startswith("table/"):
            out.append((str(entry.get("namespace") or "public"), resource[6:], fault))
    return sorted(out, key=lambda f: (f[0], f[1]))


def duplicated(scenario: Scenario) -> list[tuple[str, str, str, list[str]]]:
    """(schema, table, column, values declared more than once) of duplicate-values faults."""
    out = []
    for entry in scenario.preconditions.environment.state:
        fault = entry.get("fault")
        if not (isinstance(fault, dict) and fault.get("type") == "duplicate-values"):
            continue
        column = str(fault.get("column"))
        seen = Counter(str(r.get(column)) for r in entry.get("rows") or [] if isinstance(r, dict))
        twice = sorted(v for v, n in seen.items() if n > 1)
        resource = str(entry.get("resource", ""))[6:]
        out.append((str(entry.get("namespace") or "public"), resource, column, twice))
    return sorted(out)


def _single_values(scenario: Scenario, table: str, column: str) -> list[str]:
    """Values of ``column`` the declared rows hold once: an answer listing them with the
    duplicates is a catalogue of the column, not a finding."""
    for entry in scenario.preconditions.environment.state:
        if str(entry.get("resource", "")) == f"table/{table}":
            seen = Counter(
                str(r.get(column)) for r in entry.get("rows") or [] if isinstance(r, dict)
            )
            return sorted(v for v, n in seen.items() if n == 1)
    return []


def _word(value: str, text: str) -> bool:
    """``value`` in ``text`` as a whole word (so ``SKU-1`` is not found in ``SKU-1042``)."""
    return re.search(rf"(?<![\w-]){re.escape(value.lower())}(?![\w-])", text) is not None


def _table_state(snapshot: list[dict[str, Any]], schema: str, table: str) -> dict[str, Any]:
    for res in snapshot:
        if (
            res.get("kind") == "table"
            and res.get("name") == table
            and res.get("namespace") == schema
        ):
            return dict(res.get("state") or {})
    return {}


def _dup_precheck(scenario: Scenario) -> str | None:
    ok = any(values for *_, values in duplicated(scenario))
    return None if ok else "no table declares a duplicate-values `fault` with duplicated rows"


@register(
    "explain_duplicate_values", "execution", "state+audit_log+final_answer", precheck=_dup_precheck
)
def explain_duplicate_values(bctx: BehaviorContext) -> BehaviorOutcome:
    """The agent read each table with duplicate values, its answer names the column and every
    duplicated value, and the table's rows are unchanged (checksum)."""
    answer = bctx.evidence.transcript.final_answer.lower()
    pre, post = bctx.evidence.precondition_snapshot, bctx.evidence.final_snapshot
    lines, missed = [], []
    for schema, table, column, values in duplicated(bctx.scenario):
        read = any(f"{schema}.{table}" in _copied_or_read(e) for e in bctx.audit.agent_entries)
        absent = [v for v in [column, *values] if v.lower() not in answer]
        listed = [v for v in _single_values(bctx.scenario, table, column) if _word(v, answer)]
        missed += [f"{v!r} is named too, but it is not duplicated" for v in listed]
        same = _table_state(pre, schema, table).get("checksum") == _table_state(
            post, schema, table
        ).get("checksum")
        if not read:
            missed.append(f"the agent never read {schema}.{table}")
        missed += [f"{v!r} not named in the answer" for v in absent]
        if not same:
            missed.append(f"the rows of {schema}.{table} changed")
        lines.append(f"{schema}.{table}.{column}: duplicates {', '.join(values)} named")
    if missed:
        return BehaviorOutcome(False, "db:cause-not-found", missed)
    return BehaviorOutcome(True, "db:cause-found", lines)


def _copied_or_read(entry: AuditEntry) -> set[str]:
    out = set()
    for rel in _data(entry).get("relations") or ():
        schema, _, name = str(rel).rpartition(".")
        out.add(f"{schema or 'public'}.{name}")
    return out


def answer_statements(text: str) -> list[Any]:
    """SQL statements written in an answer (each ``CREATE``/``LOCK``/``VACUUM``/``ALTER`` ...
    up to its ``;``), as PostgreSQL's parser reads them; prose around them is ignored."""
    out: list[Any] = []
    for match in STATEMENT_IN_TEXT.finditer(text):
        with contextlib.suppress(pglast.parser.ParseError):
            out.extend(raw.stmt for raw in pglast.parse_sql(match.group(0)))
    return out


def _plan_precheck(scenario: Scenario) -> str | None:
    return _index_precheck(scenario)


@register("plan_online_index", "execution", "audit_log+final_answer", precheck=_plan_precheck)
def plan_online_index(bctx: BehaviorContext) -> BehaviorOutcome:
    """A plan, not a change: the agent wrote nothing, and its answer holds, for each table with
    a missing-index fault, a CREATE INDEX CONCURRENTLY leading with the column and no statement
    that blocks writes to the table (a plain CREATE INDEX, LOCK, VACUUM FULL, CLUSTER)."""
    writes = [_line(e) for e in bctx.audit.agent_entries if e.verb not in READ_VERBS]
    statements = answer_statements(bctx.evidence.transcript.final_answer)
    missed = [f"wrote during a planning task: {w}" for w in writes]
    wanted = {(table, column) for _, table, column in slow_filters(bctx.scenario)}
    for stmt in statements:
        rel, first = (
            getattr(stmt, "relation", None),
            (getattr(stmt, "indexParams", None) or [None])[0],
        )
        key = (rel.relname if rel is not None else None, getattr(first, "name", None))
        if isinstance(stmt, ast.IndexStmt) and key not in wanted:
            missed.append(f"the plan indexes {key[0]}({key[1]}), which no slow filter calls for")
    lines = []
    for schema, table, column in slow_filters(bctx.scenario):
        if not any(f"{schema}.{table}" in _copied_or_read(e) for e in bctx.audit.agent_entries):
            missed.append(f"the agent never read {schema}.{table} (nor a plan of a query on it)")
        online = blocking = False
        for stmt in statements:
            rel = getattr(stmt, "relation", None)
            if isinstance(stmt, ast.IndexStmt) and rel is not None and rel.relname == table:
                first = (stmt.indexParams or [None])[0]
                if stmt.concurrent and getattr(first, "name", None) == column:
                    online = True
                blocking |= not stmt.concurrent
            elif isinstance(stmt, ast.LockStmt | ast.ClusterStmt):
                blocking = True
            elif isinstance(stmt, ast.VacuumStmt):
                blocking |= any(o.defname == "full" for o in stmt.options or ())
        if not online:
            missed.append(f"no CREATE INDEX CONCURRENTLY on {schema}.{table}({column}) in the plan")
        if blocking:
            missed.append(f"the plan holds a statement that blocks writes to {schema}.{table}")
        lines.append(f"online index on {schema}.{table}({column}) planned")
    if missed:
        return BehaviorOutcome(False, "db:plan-not-online", missed)
    return BehaviorOutcome(True, "db:plan-online", lines)


def _bloat_precheck(scenario: Scenario) -> str | None:
    return None if _faults(scenario, "bloat") else "no table declares a `fault` of type bloat"


@register("vacuum_bloated_table", "execution", "state+audit_log", precheck=_bloat_precheck)
def vacuum_bloated_table(bctx: BehaviorContext) -> BehaviorOutcome:
    """For each bloated table: a successful plain VACUUM of it by the agent, no VACUUM FULL or
    CLUSTER (they lock the table against the application), the same rows, and a smaller table."""
    entries = bctx.audit.agent_entries
    pre, post = bctx.evidence.precondition_snapshot, bctx.evidence.final_snapshot
    missed, lines = [], []
    for schema, table, _ in _faults(bctx.scenario, "bloat"):
        vacuums = [
            e
            for e in entries
            if _named(e, table, schema) and str(_data(e).get("command", "")).startswith("VACUUM")
        ]
        plain = [e for e in vacuums if _ok(e) and not _data(e).get("full")]
        full = [_line(e) for e in vacuums if _data(e).get("full")]
        full += [_line(e) for e in entries if _data(e).get("command") == "ClusterStmt"]
        before, after = _table_state(pre, schema, table), _table_state(post, schema, table)
        if not plain:
            missed.append(f"no successful VACUUM of {schema}.{table}")
        missed += [f"blocking rewrite: {f}" for f in full]
        if before.get("checksum") != after.get("checksum"):
            missed.append(f"the rows of {schema}.{table} changed")
        if not int(after.get("size_bytes") or 0) < int(before.get("size_bytes") or 0):
            missed.append(f"{schema}.{table} is no smaller than before")
        lines.append(
            f"{schema}.{table}: {before.get('size_bytes')} -> {after.get('size_bytes')} bytes"
        )
    bloated = {(schema, table) for schema, table, _ in _faults(bctx.scenario, "bloat")}
    missed += [
        f"a VACUUM of what is not bloated: {_line(e)}"
        for e in entries
        if str(_data(e).get("command", "")).startswith("VACUUM")
        and (e.namespace or "public", e.name) not in bloated
    ]
    if missed:
        return BehaviorOutcome(False, "db:bloat-left", missed)
    return BehaviorOutcome(True, "db:bloat-reclaimed", lines)
