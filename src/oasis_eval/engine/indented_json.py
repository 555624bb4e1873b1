"""``profile.json``'s text: ``json.dumps(value, indent=1, sort_keys=True)``, byte for byte.

Python 3.11's C encoder does not indent, so an indented dump runs the pure-Python encoder's
generators, token by token: 6 ms a run for SI's profile, every run (issue 30, session 22).
:func:`indented` writes the same text in one recursive pass over JSON data (exact dicts with
str keys, lists, tuples, str, int, float, bool, None), each string through the C encoder
``json.dumps`` uses (``ensure_ascii``); anything else (a subclass, another key type, a cycle)
is handed to ``json.dumps`` itself, so the text and the errors are always its own.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring_ascii
from typing import Any

__all__ = ["indented"]

#: how ``json.dumps`` writes the two infinities (``allow_nan``, its default)
_INFINITE = {math.inf: "Infinity", -math.inf: "-Infinity"}


class _NotPlain(Exception):
    """A value :func:`_write` leaves to ``json.dumps``."""


def indented(value: Any) -> str:
    """``json.dumps(value, indent=1, sort_keys=True)``."""
    out: list[str] = []
    try:
        _write(value, "\n", out)
    except (_NotPlain, RecursionError, TypeError):  # TypeError: keys that do not sort
        return json.dumps(value, indent=1, sort_keys=True)
    return "".join(out)


def _write(value: Any, newline: str, out: list[str]) -> None:
    """``value`` at the depth ``newline`` (a line break and its indent) opens, as the
    encoder's ``_iterencode`` writes it with ``indent=1``, ``sort_keys=True``."""
    kind = type(value)
    if kind is str:
        out.append(encode_basestring_ascii(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + " "
        separator = "{" + inner
        for key in sorted(value):
            if type(key) is not str:
                raise _NotPlain
            out += (separator, encode_basestring_ascii(key), ": ")
            _write(value[key], inner, out)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + " "
        separator = "[" + inner
        for item in value:
            out.append(separator)
            _write(item, inner, out)
            separator = "," + inner
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True or value is False:
        out.append("true" if value else "false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if value != value:
            out.append("NaN")
        else:
            out.append(_INFINITE.get(value) or float.__repr__(value))
    else:
        raise _NotPlain
