"""A real PostgreSQL server for these tests (Debian's ``postgresql``; ``.ci/run`` installs it).

A missing server fails the tests rather than skipping them: the provider is only proven on a
real server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from oasis_postgres.server import EmbeddedServer, ServerError, find_bindir


@pytest.fixture(scope="session")
def pg_server() -> Iterator[EmbeddedServer]:
    try:
        find_bindir()
    except ServerError as exc:
        pytest.fail(f"{exc} (.ci/run installs it)")
    server = EmbeddedServer().start()
    yield server
    server.stop()
