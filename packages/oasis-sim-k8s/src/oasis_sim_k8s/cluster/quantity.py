"""Kubernetes resource quantities and the loose value forms scenarios use.

``500m`` CPU -> 500 millicores, ``256Mi`` -> bytes, ``8%`` -> 8.0, ``800ms`` -> 800.
Parsers return None for text they cannot read; callers decide whether that is
an injection error.
"""

from __future__ import annotations

import functools
import re

_BIN = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
_DEC = {"k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}
_QTY = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<u>[KMGTP]i|[kKMGTP]|m|B)?\s*$")
_NUM = re.compile(r"-?\d+(?:\.\d+)?")


def cpu_millis(value: object) -> int | None:
    """``500m`` -> 500, ``2`` -> 2000, ``1.5`` -> 1500."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return round(float(value) * 1000)
    return _cpu_text(str(value))  # parsed once per text (scheduling reads every pod's: issue 30)


@functools.lru_cache(maxsize=1024)
def _cpu_text(text: str) -> int | None:
    m = _QTY.match(text)
    if not m:
        return None
    n, unit = float(m.group("n")), m.group("u")
    if unit == "m":
        return round(n)
    return round(n * 1000) if unit is None else None


def mem_bytes(value: object) -> int | None:
    """``256Mi`` -> 268435456, ``1.2Gi``, ``512M``, ``1024`` (bytes)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    return _mem_text(str(value))


@functools.lru_cache(maxsize=1024)
def _mem_text(text: str) -> int | None:
    m = _QTY.match(text)
    if not m:
        return None
    n, unit = float(m.group("n")), m.group("u")
    if unit in _BIN:
        return int(n * _BIN[unit])
    if unit in _DEC:
        return int(n * _DEC[unit])
    if unit in (None, "B"):
        return int(n)
    return None


def fmt_mem(n: int) -> str:
    """Bytes -> the shortest exact binary quantity (``268435456`` -> ``256Mi``)."""
    for unit in ("Gi", "Mi", "Ki"):
        if n and n % _BIN[unit] == 0:
            return f"{n // _BIN[unit]}{unit}"
    return f"{int(n / 2**20)}Mi" if n >= 2**20 else str(n)


def fmt_cpu(millis: int) -> str:
    return f"{millis // 1000}" if millis % 1000 == 0 else f"{millis}m"


def percent(value: object) -> float | None:
    """``8%`` -> 8.0, ``0.1%`` -> 0.1, ``95`` -> 95.0, ``12% (5xx)`` -> 12.0."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    m = _NUM.search(text)
    if m is None or not ("%" in text or text == m.group()):
        return None
    return float(m.group())


def number(value: object) -> float | None:
    """The leading number of a loose value (``800ms`` -> 800, ``1200 req/s`` -> 1200)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = _NUM.search(str(value))
    return float(m.group()) if m else None


def metric_value(value: object) -> tuple[float, str] | None:
    """A scenario metric value as ``(number, unit)``: percent as a ratio, bytes, ms, plain."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value), ""
    text = str(value).strip()
    if "%" in text:
        p = percent(text)
        return (p / 100.0, "ratio") if p is not None else None
    b = mem_bytes(text)
    if b is not None and re.search(r"[KMGTP]i?$", text):
        return float(b), "bytes"
    m = re.match(r"^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|req/s|rps)?\s*$", text)
    if m:
        return float(m.group(1)), {"ms": "ms", "s": "seconds", "req/s": "rps", "rps": "rps"}.get(
            m.group(2) or "", ""
        )
    return None
