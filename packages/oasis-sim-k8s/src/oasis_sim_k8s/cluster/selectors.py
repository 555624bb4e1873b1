"""Label selectors, both forms: the string (``app=api,tier!=web,env in (a,b),!canary``)
and the ``LabelSelector`` object (``matchLabels`` / ``matchExpressions``), with
Kubernetes semantics (an empty selector selects everything)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Matcher = Callable[[dict[str, str]], bool]
_SET = re.compile(r"^\s*(?P<key>[\w./-]+)\s+(?P<op>in|notin)\s*\((?P<vals>[^)]*)\)\s*$")


class SelectorError(ValueError):
    """A selector that cannot be parsed (the API server answers 400)."""


def _split(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _one_of(key: str, values: set[str], inside: bool) -> Matcher:
    """``key in (values)`` (or ``notin`` when not ``inside``)."""
    return lambda labels: (labels.get(key) in values) == inside


def _equals(key: str, value: str, equal: bool) -> Matcher:
    """``key=value`` (or ``key!=value`` when not ``equal``)."""
    return lambda labels: (labels.get(key) == value) == equal


def _exists(key: str, present: bool) -> Matcher:
    """``key`` (or ``!key`` when not ``present``)."""
    return lambda labels: (key in labels) == present


def parse(text: str | None) -> Matcher:
    """A matcher for a selector string; None or empty selects everything."""
    if not text:
        return lambda labels: True
    tests: list[Matcher] = []
    for part in _split(text):
        m = _SET.match(part)
        if m:
            key, op = m.group("key"), m.group("op")
            vals = {v.strip() for v in m.group("vals").split(",") if v.strip()}
            if op == "in":
                tests.append(_one_of(key, vals, True))
            else:
                tests.append(_one_of(key, vals, False))
        elif "!=" in part:
            key, val = (x.strip() for x in part.split("!=", 1))
            tests.append(_equals(key, val, False))
        elif "=" in part:
            key, val = (x.strip() for x in part.replace("==", "=").split("=", 1))
            tests.append(_equals(key, val, True))
        elif part.startswith("!"):
            absent = part[1:].strip()
            tests.append(_exists(absent, False))
        elif re.match(r"^[\w./-]+$", part):
            tests.append(_exists(part, True))
        else:
            raise SelectorError(f"unable to parse requirement: {part!r}")
    return lambda labels: all(t(labels) for t in tests)


def matches(selector: dict[str, Any] | None, labels: dict[str, str] | None) -> bool:
    """``LabelSelector`` object semantics. ``{}`` selects all; ``None`` selects all too
    (callers that need "selects nothing" for a missing selector check for it first)."""
    labels = labels or {}
    if not selector:
        return True
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != str(value):
            return False
    for expr in selector.get("matchExpressions") or []:
        key, op = expr.get("key"), str(expr.get("operator", ""))
        values = {str(v) for v in expr.get("values") or []}
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


def to_string(selector: dict[str, Any] | None) -> str:
    """A ``matchLabels`` selector as its string form (``app=api,tier=web``)."""
    labels = (selector or {}).get("matchLabels") or {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
