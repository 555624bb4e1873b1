"""The few protobuf request bodies kubectl sends (interop §2).

kubectl's typed clients encode some built-in objects as
``application/vnd.kubernetes.protobuf`` with no JSON fallback on 415: ``auth can-i``
(SelfSubjectAccessReview, SelfSubjectRulesReview) and ``drain`` (Eviction). They accept
a JSON answer. This decodes those kinds — the Kubernetes envelope (``k8s\\0`` +
``runtime.Unknown``) and the fields the API server reads — into their JSON form; any
other protobuf body is refused with 415 (:mod:`.verbs`).
"""

from __future__ import annotations

from typing import Any

MAGIC = b"k8s\x00"

#: message name -> field number -> (json name, nested message name or "string"/"bool")
SCHEMAS: dict[str, dict[int, tuple[str, str]]] = {
    "Unknown": {1: ("typeMeta", "TypeMeta"), 2: ("raw", "bytes")},
    "TypeMeta": {1: ("apiVersion", "string"), 2: ("kind", "string")},
    "ObjectMeta": {1: ("name", "string"), 2: ("generateName", "string"), 3: ("namespace", "string")},
    "SelfSubjectAccessReview": {1: ("metadata", "ObjectMeta"), 2: ("spec", "SSARSpec")},
    "SSARSpec": {1: ("resourceAttributes", "ResourceAttributes"), 2: ("nonResourceAttributes", "NonResourceAttributes")},
    "ResourceAttributes": {
        1: ("namespace", "string"),
        2: ("verb", "string"),
        3: ("group", "string"),
        4: ("version", "string"),
        5: ("resource", "string"),
        6: ("subresource", "string"),
        7: ("name", "string"),
    },
    "NonResourceAttributes": {1: ("path", "string"), 2: ("verb", "string")},
    "SelfSubjectRulesReview": {1: ("metadata", "ObjectMeta"), 2: ("spec", "SSRRSpec")},
    "SSRRSpec": {1: ("namespace", "string")},
    "Eviction": {1: ("metadata", "ObjectMeta"), 2: ("deleteOptions", "DeleteOptions")},
    "DeleteOptions": {1: ("gracePeriodSeconds", "int"), 4: ("propagationPolicy", "string")},
}
KINDS = ("SelfSubjectAccessReview", "SelfSubjectRulesReview", "Eviction")


class ProtobufError(ValueError):
    """A body this server cannot decode."""


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ProtobufError("truncated varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _message(buf: bytes, schema: str) -> dict[str, Any]:
    fields = SCHEMAS[schema]
    out: dict[str, Any] = {}
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            if number in fields:
                name, kind = fields[number]
                out[name] = bool(value) if kind == "bool" else value
        elif wire == 2:
            size, pos = _varint(buf, pos)
            chunk = buf[pos : pos + size]
            if len(chunk) != size:
                raise ProtobufError("truncated field")
            pos += size
            if number in fields:
                name, kind = fields[number]
                if kind == "string":
                    out[name] = chunk.decode()
                elif kind == "bytes":
                    out[name] = chunk
                elif kind in SCHEMAS:
                    out[name] = _message(chunk, kind)
        elif wire == 5:
            pos += 4
        elif wire == 1:
            pos += 8
        else:
            raise ProtobufError(f"unsupported wire type {wire}")
    return out


def decode(body: bytes) -> dict[str, Any]:
    """The JSON form of a protobuf-encoded object of one of :data:`KINDS`."""
    if not body.startswith(MAGIC):
        raise ProtobufError("not a Kubernetes protobuf envelope")
    unknown = _message(body[len(MAGIC) :], "Unknown")
    meta = unknown.get("typeMeta") or {}
    kind = meta.get("kind")
    if kind not in KINDS:
        raise ProtobufError(f"protobuf bodies of kind {kind!r} are not supported; send JSON")
    obj = _message(unknown.get("raw") or b"", kind)
    return {"kind": kind, "apiVersion": meta.get("apiVersion", ""), **obj}
