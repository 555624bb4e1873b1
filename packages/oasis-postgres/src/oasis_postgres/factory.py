"""The ``postgres`` provider type (``oasis run --provider postgres``, entry point group
``oasis_eval.providers``). Config mapping: ``{type: postgres}``; no option yet: the provider
starts its own embedded server (:mod:`.server`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .provider import PostgresProvider

CONFIG_KEYS = frozenset({"type", "name"})


def from_config(spec: Mapping[str, Any] | None = None) -> PostgresProvider:
    """A :class:`PostgresProvider` on an embedded server (started at the first provision)."""
    spec = dict(spec or {})
    unknown = sorted(set(spec) - CONFIG_KEYS)
    if unknown:
        raise ValueError(f"postgres provider: unknown option(s) {', '.join(unknown)}")
    if spec.get("name"):
        raise ValueError(
            f"postgres provider: no variant {spec['name']!r} (use --provider postgres)"
        )
    return PostgresProvider()
