"""The scalar fields of a scenario object, split from :mod:`.environment` so that the readers
it uses (:mod:`._change`) can read them too without an import cycle.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .common import Obj


def scalar_fields(obj: Obj) -> Iterator[tuple[str, Any]]:
    """Scalar fields, labels and annotations of an entry (either layout)."""
    entry = obj.entry
    meta = raw if isinstance(raw := entry.get("metadata"), dict) else {}
    for bag in (
        entry,
        entry.get("labels"),
        entry.get("annotations"),
        meta.get("labels"),
        meta.get("annotations"),
    ):
        if isinstance(bag, dict):
            for key in sorted(bag, key=str):
                if key not in ("resource", "namespace") and isinstance(bag[key], (str, int)):
                    yield str(key), bag[key]
