"""Replaying an audited patch on an object (blast radius, behaviors rules 83 and 103).

An audit entry records the request body, not the patch type, so the body's shape decides: a
list of ``{op, path}`` is a JSON patch (RFC 6902, applied by ``jsonpatch``), an object is a
merge patch (RFC 7386: objects merge, ``null`` removes, anything else replaces; on a workload,
:func:`strategic_merge`, kubectl's default). The JSON patch
is applied one operation at a time and an operation that does not resolve against the object
(a missing path, a failed ``test``) is skipped: the replay reads what the agent's writes could
have done to the guards, and a partial record must not hide the rest. Pure functions: the
object given is never modified.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import jsonpointer


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


def as_recorded(obj: Any, body: Any, patch_type: str | None) -> Any:
    """``obj`` after a PATCH whose body is ``body``: an object body is a strategic merge patch
    (kubectl's default, and what a server applies to a body whose type the audit record does
    not keep) unless the record says ``merge`` (RFC 7386, ``--type=merge``); a list is a JSON
    patch. Its directives (``$patch``, ``$retainKeys``) are read on every kind, the
    NetworkPolicy's too, as the API server reads them."""
    if isinstance(body, dict) and patch_type != "merge":
        return strategic_merge(obj, body)
    return apply_patch(obj, body)


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
    """One RFC 6902 operation applied in place; one that does not resolve leaves ``doc`` as it was."""
    try:
        return jsonpatch.JsonPatch([op]).apply(doc, in_place=True)
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError):
        return doc


#: the merge keys of the pod template's lists a strategic merge patch merges item by item
#: (Kubernetes ``patchMergeKey``); any other list is replaced whole, as by a merge patch
MERGE_KEYS = {
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",
    "volumes": "name",
    "env": "name",
    "volumeMounts": "mountPath",
}


def strategic_merge(obj: Any, patch: Any) -> Any:
    """A strategic merge patch (kubectl's default: ``patch``, ``set``, ``apply``): a merge
    patch whose pod-template lists (:data:`MERGE_KEYS`) merge item by item on their key, an
    item ``$patch: delete`` removing its match, ``$patch: replace`` replacing the object; a
    list item ``{"$patch": "replace"}`` (no merge key) replacing the list with the patch's other
    items, ``$retainKeys`` clearing the object's keys it does not list (kubectl's strategic
    merge patch; behaviors rule 116), a map's ``$patch: delete`` leaving it empty and
    ``$deleteFromPrimitiveList/<key>`` read as the API server reads it (:func:`_primitives`;
    behaviors rule 124)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if k != "$patch"}
    if patch.get("$patch") == "delete":  # the API server's merge returns an empty map
        return {}
    out = dict(obj) if isinstance(obj, dict) else {}
    retain = patch.get("$retainKeys")
    if isinstance(retain, list):  # the object's keys not listed are cleared, then merged
        out = {k: v for k, v in out.items() if k in retain}
    for key, value in patch.items():
        if key.startswith(DELETE_PRIMITIVES) and isinstance(value, list):
            field = key[len(DELETE_PRIMITIVES) :]
            out[field] = _primitives(out.get(field), value, field)
            continue
        if key.startswith("$"):
            continue
        if value is None:
            out.pop(key, None)
        elif isinstance(value, list) and key in MERGE_KEYS and isinstance(out.get(key), list):
            out[key] = _merge_list(out[key], value, MERGE_KEYS[key])
        else:
            out[key] = strategic_merge(out.get(key), value)
    return out


#: the directive prefix deleting values from a list of scalars (``$deleteFromPrimitiveList/drop``)
DELETE_PRIMITIVES = "$deleteFromPrimitiveList/"
#: lists of scalars a strategic merge patch merges as sets (``patchStrategy: merge``, no key)
SET_LISTS = frozenset({"finalizers"})


def _primitives(items: Any, values: list[Any], field: str) -> Any:
    """``$deleteFromPrimitiveList/<field>`` as the API server applies it: a set list
    (:data:`SET_LISTS`) loses the values listed; a list merged by key is left as it is; any
    other list (``capabilities.drop``: no patch strategy) is replaced by the values listed,
    as the server's merge replaces a list without a strategy."""
    if field in SET_LISTS:
        return [x for x in items or [] if x not in values]
    if field in MERGE_KEYS and isinstance(items, list):
        return items
    return copy.deepcopy(values)


def _replaces(item: Any) -> bool:
    """The list-level directive ``{"$patch": "replace"}``: the list becomes the patch's items."""
    return isinstance(item, dict) and item.get("$patch") == "replace" and len(item) == 1


def _merge_list(items: list[Any], patch: list[Any], key: str) -> list[Any]:
    if any(_replaces(x) for x in patch):
        return [copy.deepcopy(x) for x in patch if not _replaces(x)]
    out = list(items)
    for item in patch:
        if not isinstance(item, dict) or key not in item:
            out.append(copy.deepcopy(item))
            continue
        at = next(
            (i for i, x in enumerate(out) if isinstance(x, dict) and x.get(key) == item[key]),
            None,
        )
        if item.get("$patch") == "delete":
            out = out if at is None else out[:at] + out[at + 1 :]
        elif at is None:
            out.append({k: copy.deepcopy(v) for k, v in item.items() if k != "$patch"})
        else:
            out[at] = strategic_merge(out[at], item)
    return out
