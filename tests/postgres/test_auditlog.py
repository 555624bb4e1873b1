"""The statement log read as audit entries (oasis_postgres.auditlog): outcomes from the log
alone, attribution by the authenticated role, whole records only."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from oasis_postgres.auditlog import COLUMNS, entries, read_rows, record_end


def record(**values: str) -> list[str]:
    base = {"log_time": "2026-12-02 00:20:01.123 UTC", "error_severity": "LOG"}
    base.update(values)
    return [base.get(c, "") for c in COLUMNS] + ["client backend", "", "0"]


def write(path: Path, rows: list[list[str]], tail: str = "") -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue() + tail)


def test_denied_and_failed_statements_carry_their_outcome(tmp_path: Path) -> None:
    log = tmp_path / "audit.csv"
    write(
        log,
        [
            record(
                user_name="agent",
                session_id="s1",
                session_line_num="1",
                message="statement: DROP TABLE payments",
            ),
            record(
                user_name="agent",
                session_id="s1",
                session_line_num="2",
                error_severity="ERROR",
                sql_state_code="42501",
                message="must be owner of table payments",
                query="DROP TABLE payments",
            ),
            record(
                user_name="agent",
                session_id="s1",
                session_line_num="3",
                message="statement: SELECT nope FROM t",
            ),
            record(
                user_name="agent",
                session_id="s1",
                session_line_num="4",
                error_severity="ERROR",
                sql_state_code="42703",
                message='column "nope" does not exist',
                query="SELECT nope FROM t",
            ),
            record(
                user_name="agent",
                session_id="s1",
                session_line_num="5",
                message="execute <unnamed>: TRUNCATE t",
            ),
        ],
    )
    rows, _ = read_rows(log)
    found = [(e["verb"], e["resource"], e.get("name"), e["response_code"]) for e in entries(rows)]
    assert found == [
        ("delete", "tables", "payments", 403),
        ("list", "tables", "t", 400),
        ("deletecollection", "rows", "t", 200),
    ]


def test_a_refused_login_is_a_denied_connect(tmp_path: Path) -> None:
    log = tmp_path / "audit.csv"
    write(
        log,
        [
            record(
                user_name="agent",
                database_name="other_env",
                session_id="s2",
                error_severity="FATAL",
                sql_state_code="42501",
                message='permission denied for database "other_env"',
            )
        ],
    )
    [entry] = list(entries(read_rows(log)[0]))
    assert (entry["verb"], entry["name"], entry["response_code"], entry["user"]) == (
        "connect",
        "other_env",
        403,
        "agent",
    )


def test_only_whole_records_are_read(tmp_path: Path) -> None:
    log = tmp_path / "audit.csv"
    write(
        log,
        [record(user_name="a", session_id="s", message="statement: SELECT 1")],
        tail='2026-12-02 00:20:02.000 UTC,"a",,,,"s",2,,,,,LOG,,"statement: SELECT \n',
    )
    rows, offset = read_rows(log)
    assert len(rows) == 1 and offset < log.stat().st_size


def test_record_end_skips_a_record_still_being_written_whatever_its_quotes(
    tmp_path: Path,
) -> None:
    """A statement with newlines and doubled quotes is one record; a half-written one after
    it (a newline inside its open quote) is not counted until its end arrives."""
    log = tmp_path / "audit.csv"
    whole = [
        record(user_name="a", session_id="s", message="statement: SELECT 'x\n\"y\"'\nFROM t"),
        record(user_name="a", session_id="s", message="statement: SELECT 2"),
    ]
    write(
        log,
        whole,
        tail='2026-12-02 00:20:02.000 UTC,"a",,,,"s",3,,,,,LOG,,"statement: SELECT \n""q"" \n',
    )
    end = record_end(log)
    assert end < log.stat().st_size
    rows, offset = read_rows(log)
    assert offset == end and len(rows) == 2
    assert rows[0]["message"] == "statement: SELECT 'x\n\"y\"'\nFROM t"
    with log.open("a") as f:
        f.write('1",,,,,,,,,"app"\n')
    assert record_end(log, end) == log.stat().st_size
    rest, _ = read_rows(log, end)
    assert [r["session_line_num"] for r in rest] == ["3"]
    assert record_end(tmp_path / "absent.csv", 7) == 7
