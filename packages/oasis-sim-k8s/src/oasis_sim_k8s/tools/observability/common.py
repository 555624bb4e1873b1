"""Shared by the observability tools: JSON output, durations and instants (Prometheus /
Loki / Jaeger time syntax)."""

from __future__ import annotations

import json
import re
from typing import Any

from ...cluster.clock import parse_ts
from ..base import (
    ToolInputError,
)


def _dumps(doc: Any) -> str:
    """``json.dumps(doc, indent=2, ensure_ascii=False)``, byte for byte: CPython 3.11's C
    encoder writes no indent, and its pure-Python one was a third of a ``metrics_query``
    (session 31's profile; a gamer's survey makes hundreds: CI's heavy tier, session 33).
    This writer takes a third of that encoder's CPU. A value of another type
    (or a cycle) is left to ``json.dumps``, which encodes or raises as it always did."""
    out: list[str] = []
    try:
        _indented(doc, "\n", out)
    except (_Unlisted, RecursionError):
        return json.dumps(doc, indent=2, ensure_ascii=False)
    return "".join(out)


class _Unlisted(Exception):
    """A value :func:`_indented` leaves to ``json.dumps``."""


_encode_str = json.encoder.encode_basestring  # the C function when the interpreter has it
_CONSTANTS = {None: "null", True: "true", False: "false"}


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


#: the exact types :func:`_indented` writes itself, each as ``json.encoder`` writes it
_SCALARS: dict[type, Any] = {
    str: _encode_str,
    int: int.__repr__,
    float: _float,
    bool: _CONSTANTS.__getitem__,
    type(None): _CONSTANTS.__getitem__,
}


def _scalar(value: Any) -> str:
    """The JSON of a string, constant or number (a subclass too), as ``json.encoder`` writes it."""
    if isinstance(value, str):
        return _encode_str(value)
    if value is None or value is True or value is False:
        return _CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    raise _Unlisted


def _indented(value: Any, newline: str, out: list[str]) -> None:
    """``value`` appended to ``out`` as ``json.encoder._make_iterencode`` yields it with an
    indent of two spaces; ``newline`` is the line break and the indent of its level."""
    plain = _SCALARS.get(type(value))
    if plain is not None:
        out.append(plain(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        between = "[" + inner
        for item in value:
            plain = _SCALARS.get(type(item))
            if plain is not None:  # a scalar (a series' point's time or value): no call
                out.append(between + plain(item))
            else:
                out.append(between)
                _indented(item, inner, out)
            between = "," + inner
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        between = "{" + inner
        for key, item in value.items():
            if not isinstance(key, str):
                if not (key is None or isinstance(key, (int, float))):
                    raise _Unlisted  # a key json.dumps refuses: its own error
                key = _scalar(key)
            plain = _SCALARS.get(type(item))
            if plain is not None:
                out.append(between + _encode_str(key) + ": " + plain(item))
            else:
                out.append(between + _encode_str(key) + ": ")
                _indented(item, inner, out)
            between = "," + inner
        out.append(newline + "}")
    else:
        out.append(_scalar(value))


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
