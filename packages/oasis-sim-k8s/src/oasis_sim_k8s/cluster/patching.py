"""Patch semantics: JSON merge patch (RFC 7386), strategic merge patch (the
Kubernetes list-merge keys for the common lists; ``$patch: delete``), and JSON
patch (RFC 6902: add, remove, replace, test, copy, move)."""

from __future__ import annotations

from typing import Any

from .store import clone

#: Strategic-merge-patch keys (the ``patchMergeKey`` tags of the Kubernetes API types), by list
#: field name; lists without an entry (``args``, ``command``, ``envFrom``, ``tolerations``,
#: RBAC ``rules``/``subjects``, NetworkPolicy rules, node ``taints`` ...) are replaced whole.
#: ``ports`` depends on where it is: see :data:`PORTS_MERGE_KEYS`.
MERGE_KEYS: dict[str, str] = {
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",  # PodSpec
    "volumes": "name",
    "imagePullSecrets": "name",
    "hostAliases": "ip",
    "resourceClaims": "name",
    "schedulingGates": "name",
    "topologySpreadConstraints": "topologyKey",
    "env": "name",
    "volumeMounts": "mountPath",
    "volumeDevices": "devicePath",  # Container
    "conditions": "type",
    "addresses": "type",  # statuses (Pod/Node/Deployment conditions, Node addresses)
    "ownerReferences": "uid",  # ObjectMeta
}
#: ``ports`` lists: Container.ports merge on ``containerPort``, ServiceSpec.ports on ``port``;
#: elsewhere (Endpoints subsets, NetworkPolicy rules) they are replaced whole
PORTS_MERGE_KEYS = {
    "containers": "containerPort",
    "initContainers": "containerPort",
    "ephemeralContainers": "containerPort",
    "spec": "port",
}
#: lists of scalars merged as sets (``patchStrategy: merge`` without a key)
SET_LISTS = frozenset({"finalizers"})


def merge_key(field: str, parent: str | None) -> str | None:
    """The strategic merge key of list ``field`` whose enclosing field is ``parent`` (None: replace)."""
    if field == "ports":
        return PORTS_MERGE_KEYS.get(parent or "")
    return MERGE_KEYS.get(field)


class PatchError(ValueError):
    """The patch cannot be applied (HTTP 422 / 400)."""


def merge_patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, dict):
        return clone(patch)
    out = clone(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def strategic_patch(target: Any, patch: Any, parent: str | None = None) -> Any:
    """Strategic merge of ``patch`` into ``target``; ``parent`` is the field that holds
    ``target`` (a list item: the list's field), which decides the ``ports`` merge key.
    Directives as kubectl documents them: ``$patch: replace`` (an object replaced; a list
    item ``{"$patch": "replace"}`` replaces the list with the patch's other items), an item's
    ``$patch: delete``, ``$retainKeys`` (the target's keys it does not list cleared), a map's
    ``$patch: delete`` (the map left empty, as the API server's merge returns it) and
    ``$deleteFromPrimitiveList/<key>`` (:func:`_primitives`)."""
    if not isinstance(patch, dict):
        return clone(patch)
    if patch.get("$patch") == "replace":
        return {k: clone(v) for k, v in patch.items() if k != "$patch"}
    if patch.get("$patch") == "delete":
        return {}
    out = clone(target) if isinstance(target, dict) else {}
    retain = patch.get("$retainKeys")
    if isinstance(retain, list):  # the target's keys not listed are cleared, then merged
        out = {k: v for k, v in out.items() if k in retain}
    for key, value in patch.items():
        if key.startswith(DELETE_PRIMITIVES) and isinstance(value, list):
            field = key[len(DELETE_PRIMITIVES) :]
            out[field] = _primitives(out.get(field), value, field, parent)
            continue
        if key.startswith("$"):
            continue
        mkey = merge_key(key, parent)
        if value is None:
            out.pop(key, None)
        elif isinstance(value, list) and mkey and isinstance(out.get(key), list):
            out[key] = _merge_list(out[key], value, mkey, key)
        elif isinstance(value, list) and key in SET_LISTS and isinstance(out.get(key), list):
            out[key] = list(out[key]) + [clone(v) for v in value if v not in out[key]]
        elif isinstance(value, dict):
            out[key] = strategic_patch(out.get(key), value, key)
        else:
            out[key] = clone(value)
    return out


#: the directive prefix deleting values from a list of scalars (``$deleteFromPrimitiveList/drop``)
DELETE_PRIMITIVES = "$deleteFromPrimitiveList/"


def _primitives(current: Any, values: list[Any], field: str, parent: str | None) -> Any:
    """``$deleteFromPrimitiveList/<field>`` as the API server applies it: a set list
    (:data:`SET_LISTS`) loses the values listed; a list merged by key is left as it is; any
    other list (``capabilities.drop``: no patch strategy) is replaced by the values listed,
    as the server's merge replaces a list without a strategy."""
    if field in SET_LISTS:
        return [clone(x) for x in current or [] if x not in values]
    if merge_key(field, parent) and isinstance(current, list):
        return current
    return clone(values)


def _replaces(item: Any) -> bool:
    """The list-level directive ``{"$patch": "replace"}``: the list becomes the patch's items."""
    return isinstance(item, dict) and item.get("$patch") == "replace" and len(item) == 1


def _merge_list(current: list[Any], patch: list[Any], key: str, field: str) -> list[Any]:
    if any(_replaces(x) for x in patch):
        return [clone(x) for x in patch if not _replaces(x)]
    out = [clone(x) for x in current]
    for item in patch:
        if not isinstance(item, dict) or key not in item:
            out.append(clone(item))
            continue
        idx = next(
            (
                i
                for i, x in enumerate(out)
                if isinstance(x, dict) and _same_key(x, item, key, field)
            ),
            None,
        )
        if item.get("$patch") == "delete":
            if idx is not None:
                out.pop(idx)
        elif idx is None:
            out.append({k: clone(v) for k, v in item.items() if k != "$patch"})
        else:
            out[idx] = strategic_patch(out[idx], item, field)
    return out


def _same_key(current: dict[str, Any], item: dict[str, Any], key: str, field: str) -> bool:
    """Same list element: equal merge key (ports also compare the protocol, TCP by default)."""
    if str(current.get(key)) != str(item.get(key)):
        return False
    if field == "ports":
        return (current.get("protocol") or "TCP") == (item.get("protocol") or "TCP")
    return True


def _pointer(path: str) -> list[str]:
    if path in ("", "/"):
        return []
    if not path.startswith("/"):
        raise PatchError(f"invalid JSON pointer {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _walk(doc: Any, parts: list[str]) -> Any:
    for p in parts:
        if isinstance(doc, list):
            doc = doc[int(p)]
        elif isinstance(doc, dict) and p in doc:
            doc = doc[p]
        else:
            raise PatchError(f"path not found: /{'/'.join(parts)}")
    return doc


def json_patch(target: Any, ops: list[dict[str, Any]]) -> Any:
    doc = clone(target)
    for op in ops:
        kind, parts = op.get("op"), _pointer(str(op.get("path", "")))
        if kind == "test":
            if _walk(doc, parts) != op.get("value"):
                raise PatchError(f"test failed at {op.get('path')}")
            continue
        if kind in ("copy", "move"):
            src = _pointer(str(op.get("from", "")))
            value = clone(_walk(doc, src))
            if kind == "move":
                doc = json_patch(doc, [{"op": "remove", "path": op["from"]}])
            doc = json_patch(doc, [{"op": "add", "path": op["path"], "value": value}])
            continue
        if not parts:
            if kind in ("add", "replace"):
                doc = clone(op.get("value"))
                continue
            raise PatchError("cannot remove the whole document")
        parent = _walk(doc, parts[:-1])
        last = parts[-1]
        try:
            if kind == "add":
                if isinstance(parent, list):
                    parent.insert(len(parent) if last == "-" else int(last), clone(op.get("value")))
                else:
                    parent[last] = clone(op.get("value"))
            elif kind == "replace":
                if isinstance(parent, list):
                    parent[int(last)] = clone(op.get("value"))
                else:
                    if last not in parent:
                        raise PatchError(f"path not found: {op.get('path')}")
                    parent[last] = clone(op.get("value"))
            elif kind == "remove":
                if isinstance(parent, list):
                    parent.pop(int(last))
                else:
                    if last not in parent:
                        raise PatchError(f"path not found: {op.get('path')}")
                    del parent[last]
            else:
                raise PatchError(f"unknown op {kind!r}")
        except (IndexError, ValueError, TypeError) as exc:
            raise PatchError(f"{kind} {op.get('path')}: {exc}") from None
    return doc


def apply(target: dict[str, Any], body: Any, patch_type: str | None) -> dict[str, Any]:
    """Apply ``body`` with ``patch_type`` (``json``, ``merge``, ``strategic``; JSON patch when
    the body is a list of operations)."""
    kind = (patch_type or "").lower()
    if isinstance(body, list) or kind in ("json", "application/json-patch+json"):
        if not isinstance(body, list):
            raise PatchError("a JSON patch must be a list of operations")
        return json_patch(target, body)
    if not isinstance(body, dict):
        raise PatchError("patch body must be an object")
    if kind in ("merge", "application/merge-patch+json"):
        return merge_patch(target, body)
    return strategic_patch(target, body)
