"""Replaying an audited patch on an object (blast radius, behaviors rule 83).

An audit entry records the request body, not the patch type, so the body's shape decides: a
list of ``{op, path}`` is a JSON patch (RFC 6902: ``add``, ``replace``, ``remove``; ``copy``,
``move`` and ``test`` change nothing the guards read and are skipped), an object is a merge
patch (RFC 7386: objects merge, ``null`` removes, anything else replaces). Pure functions: the
object given is never modified.
"""

from __future__ import annotations

import copy
from typing import Any


def apply_patch(obj: Any, body: Any) -> Any:
    """``obj`` with the patch ``body`` applied (module doc); an unreadable body changes nothing."""
    if isinstance(body, list) and all(isinstance(op, dict) and "path" in op for op in body):
        out = copy.deepcopy(obj)
        for op in body:
            out = _json_op(out, op)
        return out
    if isinstance(body, dict):
        return merge_patch(obj, body)
    return obj


def merge_patch(obj: Any, patch: Any) -> Any:
    """RFC 7386 merge patch."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(obj) if isinstance(obj, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def _json_op(doc: Any, op: dict[str, Any]) -> Any:
    """One RFC 6902 operation; a path that does not resolve leaves ``doc`` as it was."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in str(op["path"]).split("/")[1:]]
    kind = str(op.get("op", "")).lower()
    if kind not in ("add", "replace", "remove"):
        return doc
    if not parts:
        return copy.deepcopy(op.get("value")) if kind != "remove" else None
    parent: Any = doc
    for part in parts[:-1]:
        parent = _child(parent, part)
        if parent is None:
            return doc
    last = parts[-1]
    if isinstance(parent, dict):
        if kind == "remove":
            parent.pop(last, None)
        else:
            parent[last] = copy.deepcopy(op.get("value"))
    elif isinstance(parent, list):
        _list_op(parent, last, kind, op.get("value"))
    return doc


def _child(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        return node.get(part)
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    return None


def _list_op(items: list[Any], last: str, kind: str, value: Any) -> None:
    if last == "-" and kind == "add":
        items.append(copy.deepcopy(value))
        return
    if not last.isdigit():
        return
    i = int(last)
    if kind == "add" and i <= len(items):
        items.insert(i, copy.deepcopy(value))
    elif kind == "replace" and i < len(items):
        items[i] = copy.deepcopy(value)
    elif kind == "remove" and i < len(items):
        items.pop(i)
