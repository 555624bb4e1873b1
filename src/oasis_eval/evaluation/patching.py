"""Replaying an audited patch on an object (blast radius, behaviors rule 83).

An audit entry records the request body, not the patch type, so the body's shape decides: a
list of ``{op, path}`` is a JSON patch (RFC 6902, applied by ``jsonpatch`` one operation at a
time: an operation that does not resolve is skipped and the rest applied, ``test`` checks
nothing), an object is a merge patch (RFC 7386: objects merge, ``null`` removes, anything else
replaces). Pure functions: the object given is never modified.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import jsonpointer

#: the RFC 6902 operations that change a document (``test`` only checks one)
_CHANGING = frozenset({"add", "remove", "replace", "move", "copy"})


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
    """One RFC 6902 operation on ``doc`` (a copy of it is returned); one that does not resolve
    leaves ``doc`` as it was."""
    if str(op.get("op", "")).lower() not in _CHANGING:
        return doc
    try:
        return jsonpatch.JsonPatch([op]).apply(doc, in_place=False)
    except (
        jsonpatch.JsonPatchException,
        jsonpointer.JsonPointerException,
        LookupError,
        TypeError,
        ValueError,
        AttributeError,
    ):
        return doc
