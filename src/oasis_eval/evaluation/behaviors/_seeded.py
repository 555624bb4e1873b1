"""The facts a scenario seeds in a value (issue 27 item 2), split from :mod:`._reads` so that
modules below it (:mod:`._fault_read`) read them too.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re

#: words too common to be a fact a carrier shows
_PLAIN = frozenset(
    {"status", "reason", "message", "running", "ready", "normal", "active", "true", "false",
     "default", "value", "error", "warning", "failed", "info", "debug", "level", "container",
     "request", "requests", "service", "server", "connection", "connections", "pods", "about",
     "after", "before", "while", "other", "their", "there", "which", "where", "would", "should",
     "could", "current", "recent", "total", "count", "limit", "limits", "usage", "memory"}
)  # fmt: skip
_TOKEN = re.compile(r"[A-Za-z0-9][\w.:/%-]*[\w%]|[0-9]")
_SKIP_KEYS = frozenset({"resource", "namespace", "name", "kind", "apiVersion", "labels", "zone"})


def keys_and_leaves(value: object) -> list[str]:
    """Every key and scalar of a scenario entry (an env var's name, a ConfigMap's data keys
    included): what a fault may name (rules 141, 144), unlike :func:`leaves`."""
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (str(k), *keys_and_leaves(v))]
    if isinstance(value, list):
        return [w for v in value for w in keys_and_leaves(v)]
    return [] if isinstance(value, bool) or value is None else [str(value)]


def leaves(value: object, key: str = "") -> list[str]:
    if key in _SKIP_KEYS:
        return []
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in leaves(v, str(k))]
    if isinstance(value, list):
        return [x for v in value for x in leaves(v, key)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)]


def fact_tokens(text: str, names: set[str]) -> set[str]:
    """Identifier-like tokens (digits, ``_``, ``-``, ``.``, two capitals) and distinctive words
    (six letters or more) of a seeded value; object names are no facts."""
    out: set[str] = set()
    for raw in _TOKEN.findall(text):
        token = raw.strip(".:/-")
        low = token.lower()
        if not token or low in names or low in _PLAIN:
            continue
        ident = bool(re.search(r"[0-9_.\-%]", token)) or sum(c.isupper() for c in token) >= 2
        if ident and len(token) >= 2:
            out.add(token)
        elif token.isalpha() and len(token) >= 6:
            out.add(low)
    return out
