"""The served OpenAPI v2 (``/openapi/v2``): what kubectl before 1.28 reads for ``explain``
(issue 32), built from the same schemas as the v3 documents (:func:`.openapi.schemas`).

kubectl asks for ``application/com.github.proto-openapi.spec.v2@v1.0+protobuf`` (gnostic's
``openapi.v2.Document``) and has no JSON fallback; other clients get JSON. One document holds
every served group/version's definitions, each kind tagged ``x-kubernetes-group-version-kind``
(kubectl finds a kind's schema by that tag). The v3 forms the v2 model lacks are rewritten
as a real API server writes them in v2: ``allOf: [{$ref}]`` is a plain ``$ref``, ``anyOf``
its first non-null branch, refs point at ``#/definitions/``. The protobuf encoder writes only
the gnostic ``Schema`` fields kubectl reads (``_ref`` 1, format 2, description 4, required
19, additionalProperties 21, type 22, items 23, properties 25, vendor extensions 31).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from starlette.responses import Response

from .errors import json_response
from .openapi import REF, schemas
from .resources import GROUP_VERSIONS

PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
V2_REF = "#/definitions/"
PRIMITIVES = ("string", "integer", "number", "boolean", "object", "array")


def _v2(node: Any) -> dict[str, Any]:
    """One v3 schema in its v2 form (see the module doc); anything else is any value."""
    if not isinstance(node, dict):
        return {}
    node = dict(node)
    for combo in ("allOf", "anyOf", "oneOf"):
        branches = [
            b
            for b in node.pop(combo, None) or []
            if isinstance(b, dict) and b.get("type") != "null"
        ]
        if branches:
            node = {**branches[0], **node}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref":
            out[key] = V2_REF + str(value).removeprefix(REF)
        elif key == "type" and isinstance(value, str):
            if value in PRIMITIVES:
                out[key] = value
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _v2(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _v2(value)
        elif (key == "additionalProperties" and isinstance(value, bool)) or (
            key in ("description", "format") and isinstance(value, str)
        ):
            out[key] = value
        elif key == "required" and isinstance(value, list):
            out[key] = [str(v) for v in value]
        elif key.startswith("x-"):
            out[key] = value
    if "$ref" in out:  # a reference carries nothing but its description in v2
        return {k: out[k] for k in ("$ref", "description") if k in out}
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {}
    return out


@cache
def document(version: str) -> dict[str, Any]:
    """The v2 document (JSON form): every group/version's definitions, kinds' tags merged."""
    definitions: dict[str, Any] = {}
    for gv in sorted(GROUP_VERSIONS):
        for name, schema in schemas(gv).items():
            converted = _v2(schema)
            tags = converted.get("x-kubernetes-group-version-kind")
            if name in definitions and tags:
                known = definitions[name].setdefault("x-kubernetes-group-version-kind", [])
                known.extend(t for t in tags if t not in known)
            else:
                definitions.setdefault(name, converted)
    return {
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": version},
        "paths": {},
        "definitions": dict(sorted(definitions.items())),
    }


# ---- protobuf (gnostic openapi.v2) ------------------------------------------------------


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _text(number: int, value: str) -> bytes:
    return _field(number, value.encode())


def _named_any(name: str, value: Any) -> bytes:
    """``NamedAny{name, value: Any{yaml}}``: JSON is YAML, as kubectl parses it."""
    return _text(1, name) + _field(2, _text(2, json.dumps(value, sort_keys=True)))


def _schema(node: dict[str, Any]) -> bytes:
    out = bytearray()
    if "$ref" in node:
        out += _text(1, node["$ref"])
    if "format" in node:
        out += _text(2, node["format"])
    if "description" in node:
        out += _text(4, node["description"])
    for name in node.get("required", []):
        out += _text(19, name)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        out += _field(21, _field(1, _schema(extra)))
    elif isinstance(extra, bool):
        out += _field(21, _varint(2 << 3) + _varint(int(extra)))
    if "type" in node:
        out += _field(22, _text(1, node["type"]))
    if "items" in node:
        out += _field(23, _field(1, _schema(node["items"])))
    if "properties" in node:
        props = b"".join(
            _field(1, _text(1, name) + _field(2, _schema(sub)))
            for name, sub in node["properties"].items()
        )
        out += _field(25, props)
    for key in sorted(k for k in node if k.startswith("x-")):
        out += _field(31, _named_any(key, node[key]))
    return bytes(out)


@cache
def protobuf(version: str) -> bytes:
    """The v2 document as gnostic's ``openapi.v2.Document`` (swagger 1, info 2, paths 8,
    definitions 9)."""
    doc = document(version)
    info = _text(1, doc["info"]["title"]) + _text(2, doc["info"]["version"])
    defs = b"".join(
        _field(1, _text(1, name) + _field(2, _schema(schema)))
        for name, schema in doc["definitions"].items()
    )
    return _text(1, doc["swagger"]) + _field(2, info) + _field(8, b"") + _field(9, defs)


def openapi_v2(accept: str, version: str) -> Response:
    """``/openapi/v2``: protobuf when the client asks for it (kubectl), else JSON."""
    if PROTOBUF in accept or "protobuf" in accept:
        # as the API server answers it: Go's mime parser rejects the '@' of the asked type
        return Response(protobuf(version), media_type="application/octet-stream")
    return json_response(document(version))


__all__ = ["PROTOBUF", "document", "openapi_v2", "protobuf"]
