"""The protobuf bodies kubectl's typed clients send, decoded to their JSON form."""

from __future__ import annotations

import pytest

from oasis_sim_k8s.kubeapi.protobuf import MAGIC, ProtobufError, decode


def _varint(n: int) -> bytes:
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def _field(number: int, value: bytes | int) -> bytes:
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def _envelope(api_version: str, kind: str, raw: bytes) -> bytes:
    meta = _field(1, api_version.encode()) + _field(2, kind.encode())
    return MAGIC + _field(1, meta) + _field(2, raw)


def test_access_review_decodes_its_resource_attributes() -> None:
    attrs = (
        _field(1, b"shop") + _field(2, b"delete") + _field(3, b"apps") + _field(5, b"deployments")
    )
    body = _envelope(
        "authorization.k8s.io/v1", "SelfSubjectAccessReview", _field(2, _field(1, attrs))
    )
    assert decode(body) == {
        "kind": "SelfSubjectAccessReview",
        "apiVersion": "authorization.k8s.io/v1",
        "spec": {
            "resourceAttributes": {
                "namespace": "shop",
                "verb": "delete",
                "group": "apps",
                "resource": "deployments",
            }
        },
    }


def test_secret_maps_bytes_as_base64_and_drop_empty_strings() -> None:
    meta = _field(1, b"creds") + _field(2, b"") + _field(11, _field(1, b"app") + _field(2, b"web"))
    raw = (
        _field(1, meta)
        + _field(2, _field(1, b"password") + _field(2, b"s3cret"))
        + _field(3, b"Opaque")
    )
    out = decode(_envelope("v1", "Secret", raw))
    assert out["metadata"] == {"name": "creds", "labels": {"app": "web"}}
    assert out["data"] == {"password": "czNjcmV0"} and out["type"] == "Opaque"


def test_deployment_keeps_replicas_and_repeated_containers() -> None:
    container = _field(1, b"nginx") + _field(2, b"nginx:1.27") + _field(6, _field(3, 80))
    pod = _field(2, container)
    spec = _field(1, 0) + _field(3, _field(2, pod))
    out = decode(_envelope("apps/v1", "Deployment", _field(1, _field(1, b"web")) + _field(2, spec)))
    assert out["spec"]["replicas"] == 0
    assert out["spec"]["template"]["spec"]["containers"] == [
        {"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}
    ]


@pytest.mark.parametrize(
    "body",
    [b"not protobuf", _envelope("networking.k8s.io/v1", "Ingress", b""), MAGIC + b"\x0a\xff"],
)
def test_unsupported_or_broken_bodies_are_refused(body: bytes) -> None:
    with pytest.raises(ProtobufError):
        decode(body)
