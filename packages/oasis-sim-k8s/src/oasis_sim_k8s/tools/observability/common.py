"""Shared by the observability tools: JSON output, durations and instants (Prometheus /
Loki / Jaeger time syntax)."""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.spec.json_text import indented_json

from ...cluster.clock import parse_ts
from ..base import (
    ToolInputError,
)


def _dumps(doc: Any) -> str:
    """``json.dumps(doc, indent=2, ensure_ascii=False)``, byte for byte, in one pass (its
    pure-Python encoder was a third of a ``metrics_query``: CI's heavy tier, session 33)."""
    return indented_json(doc, indent=2, ensure_ascii=False)


def _duration_s(text: Any, default: float | None = None) -> float | None:
    """``5m`` / ``1h30m`` / ``90s`` / ``500ms`` / ``2d`` / a number of seconds."""
    if text in (None, ""):
        return default
    if isinstance(text, (int, float)):
        return float(text)
    s = str(text).strip()
    try:
        return float(s)
    except ValueError:
        pass
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h|d|w)", s)
    if not parts or "".join(a + b for a, b in parts) != s.replace(" ", ""):
        raise ToolInputError(f'invalid duration "{s}"')
    return sum(
        float(n) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[u]
        for n, u in parts
    )


def _instant(env: Any, text: Any, default: float) -> float:
    """A point in time as env seconds: ``now``, ``now-1h``, ``-30m``, RFC 3339, or a unix timestamp."""
    now = env.clock.seconds()
    if text in (None, ""):
        return default
    s = str(text).strip()
    if s == "now":
        return now
    m = re.match(r"^(?:now)?\s*-\s*(.+)$", s)
    if m:
        return now - (_duration_s(m.group(1)) or 0)
    base = env.clock.start.timestamp()
    try:
        return float(s) - base
    except ValueError:
        pass
    when = parse_ts(s.replace(" ", "T"))
    if when is None:
        raise ToolInputError(f'cannot parse "{s}" to a valid timestamp')
    return when.timestamp() - base
