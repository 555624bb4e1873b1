"""The engine is domain-free (issue 34): nothing under ``src/oasis_eval`` knows PostgreSQL.

The postgres provider, its profile's evaluators and its demo agents live in
``packages/oasis-postgres`` and reach oasis-eval through entry points only; the engine neither
imports that package nor its database drivers, nor names the database anywhere in its source.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import oasis_eval

SRC = Path(oasis_eval.__file__).resolve().parent
FORBIDDEN_IMPORTS = ("oasis_postgres", "psycopg", "psycopg2", "pglast", "asyncpg", "pg8000")
MENTION = re.compile(r"postgres|psql|libpq|pg_ctl|initdb", re.IGNORECASE)
#: the one allowed mention, and why: the Software Infrastructure profile's evaluators recognise
#: database workloads of *its* scenarios by name (a kind or an object called "postgres"), SI
#: vocabulary read from scenario text, not knowledge of a provider
ALLOWED = {
    (
        "evaluation/behaviors/_carriers.py",
        'DATABASE = Cue(r"database|migration|^db$|postgres|mysql|sql", re.IGNORECASE)',
    ),
}


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_no_module_imports_the_database_package_or_a_driver() -> None:
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            found += [
                f"{path.relative_to(SRC)}: {n}"
                for n in names
                if n.split(".")[0] in FORBIDDEN_IMPORTS
            ]
    assert found == []


def test_no_source_mentions_postgres() -> None:
    found = []
    for path in sources():
        rel = str(path.relative_to(SRC))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if MENTION.search(line) and (rel, line.strip()) not in ALLOWED:
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []


def test_the_checker_sees_a_mention() -> None:
    assert MENTION.search("connect with PGUSER through libpq") and MENTION.search(
        "a PostgreSQL server"
    )
