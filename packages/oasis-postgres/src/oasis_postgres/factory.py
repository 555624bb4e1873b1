"""The ``postgres`` provider type (``oasis run --provider postgres``, entry point group
``oasis_eval.providers``). Config mapping: ``{type: postgres}`` starts an embedded server
(:mod:`.server`); ``{type: postgres, name: existing}`` (a config file's ``provider:``)
uses an existing server whose DSN is read from ``$OASIS_POSTGRES_DSN`` or the file named by
``$OASIS_POSTGRES_DSN_FILE``, and a config file may name them: ``dsn_env: VAR`` or
``dsn_file: PATH``. The DSN itself is never an option: a command line is visible to every
process, agents included (:mod:`.existing`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .existing import read_dsn
from .provider import PostgresProvider
from .server import ServerError

CONFIG_KEYS = frozenset({"type", "name", "dsn_env", "dsn_file"})


def from_config(spec: Mapping[str, Any] | None = None) -> PostgresProvider:
    """A :class:`PostgresProvider` on an embedded server, or on an existing one."""
    spec = dict(spec or {})
    unknown = sorted(set(spec) - CONFIG_KEYS)
    if unknown:
        raise ValueError(f"postgres provider: unknown option(s) {', '.join(unknown)}")
    name = spec.get("name")
    existing = name == "existing" or bool(spec.get("dsn_env") or spec.get("dsn_file"))
    if name and name != "existing":
        raise ValueError(
            f"postgres provider: no variant {name!r} (use --provider postgres or postgres:existing)"
        )
    if not existing:
        return PostgresProvider()
    try:
        dsn = read_dsn(spec.get("dsn_env"), spec.get("dsn_file"))
    except ServerError as exc:
        raise ValueError(str(exc)) from None
    return PostgresProvider(existing_dsn=dsn)
