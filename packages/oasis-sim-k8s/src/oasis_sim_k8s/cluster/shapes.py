"""The shape of a written object, checked before admission (issue 25: a malformed write is a
400/422 ``Status``, never a 500 from the code that reads the stored object later).

The real API server decodes a body into typed Go structs: a value of the wrong JSON type is a
400 (``json: cannot unmarshal string into Go struct field ...``), and a missing required field
is a 422 ``Invalid``. This checks the fields the simulator reads (metadata, pod templates,
containers, service ports, ConfigMap/Secret data, RBAC rules and bindings) the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Failure = tuple[int, str, str]
STR_MAP = "map[string]string"
#: a list of values of the inner schema
_LIST = "list"

CONTAINER: dict[str, Any] = {
    "name": str,
    "image": str,
    "command": [str],
    "args": [str],
    "env": [dict],
    "ports": [dict],
    "resources": dict,
    "volumeMounts": [dict],
}
POD_SPEC: dict[str, Any] = {
    "containers": [CONTAINER],
    "initContainers": [CONTAINER],
    "volumes": [dict],
    "nodeSelector": STR_MAP,
    "serviceAccountName": str,
    "nodeName": str,
    "tolerations": [dict],
    "affinity": dict,
}
META: dict[str, Any] = {
    "name": str,
    "generateName": str,
    "namespace": str,
    "labels": STR_MAP,
    "annotations": STR_MAP,
    "ownerReferences": [dict],
    "finalizers": [str],
}
TEMPLATE: dict[str, Any] = {"metadata": META, "spec": POD_SPEC}
WORKLOAD: dict[str, Any] = {
    "spec": {"replicas": int, "selector": dict, "template": TEMPLATE, "strategy": dict}
}
RULE: dict[str, Any] = {
    "apiGroups": [str],
    "resources": [str],
    "verbs": [str],
    "resourceNames": [str],
    "nonResourceURLs": [str],
}
BINDING: dict[str, Any] = {"subjects": [dict], "roleRef": {"kind": str, "name": str}}
SCHEMAS: dict[str, dict[str, Any]] = {
    "deployments": WORKLOAD,
    "replicasets": WORKLOAD,
    "statefulsets": WORKLOAD,
    "daemonsets": WORKLOAD,
    "jobs": {"spec": {"template": TEMPLATE, "parallelism": int, "completions": int}},
    "cronjobs": {"spec": {"schedule": str, "jobTemplate": {"spec": {"template": TEMPLATE}}}},
    "pods": {"spec": POD_SPEC},
    "services": {"spec": {"selector": STR_MAP, "ports": [dict], "type": str, "clusterIP": str}},
    "configmaps": {"data": STR_MAP, "binaryData": STR_MAP},
    "secrets": {"data": STR_MAP, "stringData": STR_MAP, "type": str},
    "roles": {"rules": [RULE]},
    "clusterroles": {"rules": [RULE]},
    "rolebindings": BINDING,
    "clusterrolebindings": BINDING,
}
#: fields without which the simulator's controllers cannot run the object (422 Required value)
REQUIRED: dict[str, tuple[str, ...]] = {
    "deployments": ("spec.template.spec.containers",),
    "replicasets": ("spec.template.spec.containers",),
    "statefulsets": ("spec.template.spec.containers",),
    "daemonsets": ("spec.template.spec.containers",),
    "jobs": ("spec.template.spec.containers",),
    "cronjobs": ("spec.jobTemplate.spec.template.spec.containers",),
    "pods": ("spec.containers",),
    "rolebindings": ("roleRef",),
    "clusterrolebindings": ("roleRef",),
}
_JSON = {dict: "object", list: "array", str: "string", int: "number", bool: "bool"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return _JSON.get(type(value), type(value).__name__)


def _mismatch(value: Any, want: Any) -> str | None:
    """What ``value`` is instead of ``want`` (None: it fits; nested values are checked apart)."""
    if value is None:
        return None  # JSON null decodes to the zero value
    if want is str:
        ok = isinstance(value, str)
    elif want is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif want == STR_MAP:
        ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    elif isinstance(want, list):
        ok = isinstance(value, list)
    else:  # dict or a nested schema
        ok = isinstance(value, dict)
    return None if ok else _json_type(value)


def _go_type(want: Any) -> str:
    if want == STR_MAP:
        return "map[string]string"
    if isinstance(want, list):
        return "[]" + _go_type(want[0])
    if want is str:
        return "string"
    return "int32" if want is int else "object"


def _walk(value: Any, schema: Any, path: str) -> str | None:
    """The first field of ``value`` whose JSON type ``schema`` does not allow, as a message."""
    found = _find(value, schema)
    if found is None:
        return None
    steps, got, want = found
    for step in reversed(steps):  # the field's path is only spelt out for a mismatch
        if isinstance(step, int):
            path = f"{path}[{step}]"
        else:
            path = f"{path}.{step}" if path else step
    return f"json: cannot unmarshal {got} into Go struct field {path} of type {_go_type(want)}"


def _find(value: Any, schema: Any) -> tuple[list[int | str], str, Any] | None:
    """(the steps to the first mismatching field, innermost first; its JSON type; its schema)."""
    got = _mismatch(value, schema)
    if got is not None:
        return [], got, schema
    if value is None:
        return None
    if isinstance(schema, list) and schema[0] is not dict:
        for i, item in enumerate(value):
            found = _find(item, schema[0])
            if found:
                found[0].append(i)
                return found
    elif isinstance(schema, dict):
        for key, inner in schema.items():
            if key in value:
                found = _find(value[key], inner)
                if found:
                    found[0].append(key)
                    return found
    return None


def _present(obj: dict[str, Any], dotted: str) -> bool:
    value: Any = obj
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return value not in (None, [], {})


Fits = Callable[[Any], bool]


def _fits(schema: Any) -> Fits:
    """Whether a value has ``schema``'s shape (exactly when :func:`_find` finds nothing), as
    one function made once per schema: nearly every body fits, and the walk that names the
    field (:func:`_walk`) is only needed when one does not (issue 30, session 8: the walk was
    a fifth of building the baseline)."""
    if schema is str:
        return lambda v: v is None or isinstance(v, str)
    if schema is int:
        return lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool))
    if isinstance(schema, str):  # STR_MAP
        return lambda v: (
            v is None or (isinstance(v, dict) and all(isinstance(x, str) for x in v.values()))
        )
    if isinstance(schema, list) and schema[0] is not dict:
        return _list_fits(_fits(schema[0]))
    if isinstance(schema, list):  # a list of objects: the items are not looked into
        return lambda v: v is None or isinstance(v, list)
    if not isinstance(schema, dict):  # ``dict``: any object
        return lambda v: v is None or isinstance(v, dict)
    return _object_fits(tuple((key, _fits(inner)) for key, inner in schema.items()))


def _list_fits(item: Fits) -> Fits:
    def fits(value: Any) -> bool:
        if value is None:
            return True
        return isinstance(value, list) and all(item(v) for v in value)

    return fits


def _object_fits(fields: tuple[tuple[str, Fits], ...]) -> Fits:
    def fits(value: Any) -> bool:
        if value is None:
            return True
        if not isinstance(value, dict):
            return False
        for key, field in fields:  # noqa: SIM110 (a loop: no generator per object)
            if key in value and not field(value[key]):
                return False
        return True

    return fits


def _schema(plural: str) -> dict[str, Any]:
    return {"kind": str, "apiVersion": str, "metadata": META, **SCHEMAS.get(plural, {})}


#: plural -> its whole object's :func:`_fits` (made on first use)
_FITS: dict[str, Fits] = {}


def check(plural: str, obj: Any, kind: str = "") -> Failure | None:
    """None when ``obj`` has the shape ``plural`` takes; else ``(code, reason, message)``."""
    if not isinstance(obj, dict):
        return (
            400,
            "BadRequest",
            f"json: cannot unmarshal {_json_type(obj)} into Go value of type {kind or 'object'}",
        )
    fits = _FITS.get(plural)
    if fits is None:
        fits = _FITS[plural] = _fits(_schema(plural))
    found = None if fits(obj) else _walk(obj, _schema(plural), "")
    if found:
        return 400, "BadRequest", found
    for dotted in REQUIRED.get(plural, ()):
        if not _present(obj, dotted):
            name = (obj.get("metadata") or {}).get("name", "")
            return 422, "Invalid", f'{kind or plural} "{name}" is invalid: {dotted}: Required value'
    return None


__all__ = ["check"]
