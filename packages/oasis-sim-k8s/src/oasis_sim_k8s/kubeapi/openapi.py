"""The served OpenAPI v3 (``/openapi/v3``, ``/openapi/v3/api/v1``, ``/openapi/v3/apis/<g>/<v>``):
what kubectl reads for server-side field validation and ``kubectl explain`` (issue 32).

Each group/version document carries ``components.schemas``: one schema per served kind,
tagged ``x-kubernetes-group-version-kind`` as a real API server tags it (kubectl explain finds
a kind's schema by that tag), and every schema those reference. The schemas are the real API's
(field names, types, descriptions), generated once from the official Kubernetes client's
models into ``openapi_schemas.json`` (``scripts/gen_openapi_schemas.py``); a served kind
without a model (the scenario CRDs' kinds, metrics) gets a generic object schema.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from starlette.responses import Response

from .errors import json_response, not_found_path
from .resources import GROUP_VERSIONS

DATA = Path(__file__).with_name("openapi_schemas.json")
REF = "#/components/schemas/"


@cache
def _generated() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return doc


def _generic(kind: str) -> dict[str, Any]:
    """A kind with no generated schema: its envelope, spec and status open."""
    text = {"type": "string"}
    return {
        "description": f"{kind} (its fields are not described by this server).",
        "type": "object",
        "properties": {
            "apiVersion": {**text, "description": "APIVersion of this object."},
            "kind": {**text, "description": "Kind of this object."},
            "metadata": {
                "allOf": [{"$ref": REF + "io.k8s.api.v1.ObjectMeta"}],
                "description": "Standard object's metadata.",
            },
            "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        },
    }


def _refs(node: Any, out: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF):
            out.add(ref[len(REF) :])
        for value in node.values():
            _refs(value, out)
    elif isinstance(node, list):
        for value in node:
            _refs(value, out)


@cache
def schemas(gv: str) -> dict[str, Any]:
    """``components.schemas`` of one group/version: its kinds (tagged with their
    group/version/kind) and everything they reference, in sorted order."""
    data = _generated()
    group, _, version = gv.rpartition("/")
    out: dict[str, Any] = {}
    for res in GROUP_VERSIONS[gv].values():
        name = data["kinds"].get(f"{gv}/{res.kind}")
        key = name or f"{gv.replace('/', '.')}.{res.kind}"
        schema = dict(data["schemas"][name]) if name else _generic(res.kind)
        schema["x-kubernetes-group-version-kind"] = [
            {"group": group, "kind": res.kind, "version": version}
        ]
        out[key] = schema
    todo: set[str] = set()
    _refs(out, todo)
    while todo:
        name = todo.pop()
        if name in out or name not in data["schemas"]:
            continue
        out[name] = data["schemas"][name]
        _refs(out[name], todo)
    return dict(sorted(out.items()))


def openapi(parts: list[str], version: str) -> Response:
    """OpenAPI v3: the path index, and per group/version one list (GET) operation per kind
    tagged with its group/version/kind (kubectl 1.27's explain finds the kind there), one
    PATCH operation per kind carrying the ``fieldValidation`` parameter (what kubectl reads to hand validation to the
    server, ``fieldValidation=Strict``, instead of validating against a schema itself), and
    the schemas of the group/version's kinds (:func:`schemas`). v2: :mod:`.openapi_v2`."""
    if parts == ["openapi", "v3"]:
        paths = {}
        for gv in GROUP_VERSIONS:
            key = "api/v1" if gv == "v1" else f"apis/{gv}"
            paths[key] = {"serverRelativeURL": f"/openapi/v3/{key}"}
        return json_response({"paths": paths})
    gv = "/".join(parts[3:]) if parts[:3] == ["openapi", "v3", "apis"] else "v1"
    if (
        parts[:2] != ["openapi", "v3"]
        or gv not in GROUP_VERSIONS
        or parts[2:] not in (["api", "v1"], ["apis", *gv.split("/")])
    ):
        return not_found_path("/" + "/".join(parts))
    return json_response(
        {
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes", "version": version},
            "paths": _patch_paths(gv),
            "components": {"schemas": schemas(gv)},
        }
    )


def _patch_paths(gv: str) -> dict[str, Any]:
    group, _, version = gv.rpartition("/")
    base = "/api/v1" if gv == "v1" else f"/apis/{gv}"
    out: dict[str, Any] = {}
    for res in GROUP_VERSIONS[gv].values():
        gvk = {"group": group, "version": version, "kind": res.kind}
        if "list" in res.verbs:  # kubectl 1.27's explain finds a resource's kind here
            out[f"{base}/{res.name}"] = {
                "get": {
                    "x-kubernetes-action": "list",
                    "x-kubernetes-group-version-kind": gvk,
                    "responses": {},
                }
            }
        if "patch" not in res.verbs:
            continue
        scope = "/namespaces/{namespace}" if res.namespaced else ""
        out[f"{base}{scope}/{res.name}/{{name}}"] = {
            "patch": {
                "x-kubernetes-action": "patch",
                "x-kubernetes-group-version-kind": gvk,
                "parameters": [
                    {"name": name, "in": "query", "schema": {"type": "string", "uniqueItems": True}}
                    for name in ("dryRun", "fieldManager", "fieldValidation", "force")
                ],
                "responses": {},
            }
        }
    return out


__all__ = ["openapi", "schemas"]
