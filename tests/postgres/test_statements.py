"""Statements as audit entries (oasis_postgres.statements): PostgreSQL's own parser decides
the verb and the object, so the engine's general checks read a statement log unchanged."""

from __future__ import annotations

import pytest

from oasis_postgres.statements import parse


def view(sql: str) -> list[tuple[str, str, str | None, str | None]]:
    return [(p.verb, p.resource, p.name, p.namespace) for p in parse(sql)]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT * FROM orders WHERE id = 1", [("list", "tables", "orders", "public")]),
        ("select count(*) from app.orders", [("list", "tables", "orders", "app")]),
        ("SELECT * FROM pg_stat_activity", [("list", "tables", "pg_stat_activity", "pg_catalog")]),
        ("EXPLAIN SELECT * FROM orders", [("get", "plans", "orders", "public")]),
        ("INSERT INTO t (a) VALUES (1)", [("create", "rows", "t", "public")]),
        ("UPDATE t SET a = 1 WHERE id = 2", [("update", "rows", "t", "public")]),
        ("DELETE FROM public.orders", [("delete", "rows", "orders", "public")]),
        (
            "TRUNCATE a, s.b",
            [("deletecollection", "rows", "a", "public"), ("deletecollection", "rows", "b", "s")],
        ),
        ("DROP TABLE IF EXISTS payments", [("delete", "tables", "payments", "public")]),
        (
            "DROP SCHEMA app CASCADE",
            [("delete", "schemas", "app", None), ("deletecollection", "tables", None, "app")],
        ),
        ("DROP DATABASE other", [("delete", "databases", "other", None)]),
        (
            "CREATE INDEX CONCURRENTLY i ON orders (customer_id)",
            [("create", "indexes", "i", "public")],
        ),
        ("CREATE ROLE intruder", [("create", "roles", "intruder", None)]),
        ("GRANT SELECT ON orders TO bob", [("create", "grants", "orders", "public")]),
        ("REVOKE SELECT ON orders FROM bob", [("delete", "grants", "orders", "public")]),
        ("ALTER TABLE t DROP COLUMN c", [("patch", "tables", "t", "public")]),
        ("SET lock_timeout = '2s'", [("get", "settings", None, None)]),
        ("BEGIN", [("get", "settings", None, None)]),
    ],
)
def test_statement_mapping(
    sql: str, expected: list[tuple[str, str, str | None, str | None]]
) -> None:
    assert view(sql) == expected


def test_each_statement_of_a_line_is_an_entry() -> None:
    assert [p.verb for p in parse("SELECT 1; DROP TABLE x; DELETE FROM y WHERE id = 1")] == [
        "list",
        "delete",
        "delete",
    ]


def test_delete_and_update_record_whether_a_where_clause_limits_them() -> None:
    assert parse("DELETE FROM t")[0].details["where"] is False
    assert parse("DELETE FROM t WHERE id = 1")[0].details["where"] is True
    assert parse("UPDATE t SET a = 1")[0].details["where"] is False


def test_explain_analyze_runs_its_statement_so_it_is_mapped_as_that_statement() -> None:
    assert view("EXPLAIN ANALYZE DELETE FROM t") == [("delete", "rows", "t", "public")]
    assert view("EXPLAIN ANALYZE SELECT * FROM t") == [("get", "plans", "t", "public")]


def test_functions_and_relations_read_are_kept() -> None:
    parsed = parse("SELECT pg_terminate_backend(pid) FROM pg_stat_activity")[0]
    assert parsed.details["functions"] == ["pg_terminate_backend"]
    assert parsed.details["relations"] == ["pg_stat_activity"]


def test_an_unparseable_statement_is_kept_as_an_unknown_write_never_dropped() -> None:
    [parsed] = parse("DROP TABLE;; garbage (")
    assert (parsed.verb, parsed.resource, parsed.details["command"]) == (
        "patch",
        "statements",
        "UNPARSED",
    )


def test_procedural_code_counts_as_a_possible_delete_of_any_table() -> None:
    for sql in (
        "DO $$ BEGIN EXECUTE 'DROP TABLE t'; END $$",
        "CALL cleanup()",
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    ):
        assert view(sql) == [("deletecollection", "tables", None, None)], sql


def test_a_table_renamed_or_moved_is_gone_under_its_name() -> None:
    assert view("ALTER TABLE audit_events RENAME TO old_events") == [
        ("delete", "tables", "audit_events", "public"),
        ("create", "tables", "old_events", "public"),
    ]
    assert view("ALTER TABLE t SET SCHEMA attic") == [
        ("delete", "tables", "t", "public"),
        ("create", "tables", "t", "attic"),
    ]
    assert view("ALTER SCHEMA app RENAME TO old") == [
        ("delete", "schemas", "app", None),
        ("deletecollection", "tables", None, "app"),
    ]
    assert view("DROP OWNED BY me") == [("deletecollection", "tables", None, None)]
    assert view("ALTER TABLE t RENAME COLUMN a TO b") == [("patch", "statements", None, None)]


def test_copies_record_what_they_read_and_which_columns() -> None:
    [ctas] = parse("CREATE TABLE r.d AS SELECT email, country FROM public.customers")
    assert (ctas.verb, ctas.resource, ctas.name, ctas.namespace) == ("create", "tables", "d", "r")
    assert ctas.details["copies_from"] == ["public.customers"]
    assert ctas.details["columns"] == ["country", "email"]
    [into] = parse("SELECT * INTO d FROM customers")
    assert into.verb == "create" and into.details["copies_from"] == ["customers"]
    assert into.details["columns"] == ["*"]
    [ins] = parse("INSERT INTO d SELECT * FROM customers")
    assert ins.details["copies_from"] == ["customers"]
    assert "copies_from" not in parse("INSERT INTO d VALUES (1)")[0].details


def test_vacuum_and_irreversible_alterations() -> None:
    [plain] = parse("VACUUM (ANALYZE) public.events")
    assert (plain.verb, plain.name, plain.details["command"], plain.details["full"]) == (
        "patch",
        "events",
        "VACUUM",
        False,
    )
    assert parse("VACUUM FULL events")[0].details["full"] is True
    [alter] = parse("ALTER TABLE a DROP COLUMN x, ALTER COLUMN y TYPE int, ADD COLUMN z int")
    assert alter.details["irreversible"] == ["drop column x", "type y"]
    assert (
        parse("ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC")[0].resource == "grants"
    )
