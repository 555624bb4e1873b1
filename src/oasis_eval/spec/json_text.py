"""Indented JSON text, byte for byte ``json.dumps``'s, without its pure-Python encoder.

CPython 3.11's C encoder does not indent, so ``json.dumps(value, indent=N)`` runs the
pure-Python encoder's generators token by token. Two writers need indented JSON on hot paths:
a run's ``profile.json`` (indent 1, sorted keys: 6 ms a run before, issue 30, session 22) and
the simulator's observability answers (indent 2, the document's order, ``ensure_ascii=False``:
a third of a ``metrics_query``, CI's heavy tier, session 33). :func:`indented_json` writes exact
JSON types (dicts with str keys, lists, tuples, str, int, float, bool, None) in one recursive
pass, each string through the C function ``json.dumps`` uses. Any other value (a subclass, a
key ``json.dumps`` would convert or refuse, keys that do not sort, a cycle) sends the whole
value to ``json.dumps`` itself, so the text and the errors are always its own.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

__all__ = ["indented_json"]

_Write = Callable[[Any, str, list[str]], None]

_CONSTANTS = {None: "null", True: "true", False: "false"}


class _NotPlain(Exception):
    """A value the one-pass writer leaves to ``json.dumps``."""


def indented_json(
    value: Any, *, indent: int, sort_keys: bool = False, ensure_ascii: bool = True
) -> str:
    """``json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)``."""
    out: list[str] = []
    try:
        _writer(" " * indent, sort_keys, ensure_ascii)(value, "\n", out)
    except (_NotPlain, RecursionError, TypeError):  # TypeError: keys that do not sort
        return json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    return "".join(out)


def _float(value: float) -> str:
    """A float as ``json.encoder`` writes it with ``allow_nan`` (its default)."""
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == float("-inf"):
        return "-Infinity"
    return float.__repr__(value)


@functools.cache
def _writer(unit: str, sort_keys: bool, ensure_ascii: bool) -> _Write:
    """The recursive writer of one layout: ``unit`` is one level's indent."""
    encode = encode_basestring_ascii if ensure_ascii else encode_basestring
    #: the exact scalar types, each written as ``json.encoder`` writes it
    scalars: dict[type, Callable[[Any], str]] = {
        str: encode,
        int: int.__repr__,
        float: _float,
        bool: _CONSTANTS.__getitem__,
        type(None): _CONSTANTS.__getitem__,
    }

    def write(value: Any, newline: str, out: list[str]) -> None:
        """``value`` at the depth ``newline`` (a line break and its indent) opens."""
        plain = scalars.get(type(value))
        if plain is not None:
            out.append(plain(value))
            return
        kind = type(value)
        if kind is dict:
            if not value:
                out.append("{}")
                return
            inner = newline + unit
            between = "{" + inner
            for key in sorted(value) if sort_keys else value:
                if type(key) is not str:
                    raise _NotPlain
                item = value[key]
                plain = scalars.get(type(item))
                out += (between, encode(key), ": ")
                if plain is not None:  # a leaf: no call
                    out.append(plain(item))
                else:
                    write(item, inner, out)
                between = "," + inner
            out.append(newline + "}")
        elif kind is list or kind is tuple:
            if not value:
                out.append("[]")
                return
            inner = newline + unit
            between = "[" + inner
            for item in value:
                plain = scalars.get(type(item))
                if plain is not None:  # a series' point's time or value: no call
                    out.append(between + plain(item))
                else:
                    out.append(between)
                    write(item, inner, out)
                between = "," + inner
            out.append(newline + "]")
        else:
            raise _NotPlain

    return write
