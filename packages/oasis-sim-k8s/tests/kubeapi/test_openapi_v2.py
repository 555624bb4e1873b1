"""OpenAPI v2 (issue 32; :mod:`oasis_sim_k8s.kubeapi.openapi_v2`): kubectl 1.27 loads
``/openapi/v2`` as gnostic protobuf before it explains, and parses every definition (one it
cannot parse fails the whole document). The heavy kubectl matrix runs kubectl 1.27 on it;
these check the invariants kube-openapi's parser holds the document to, and the wire form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from oasis_sim_k8s.kubeapi.openapi_v2 import PROTOBUF, document, protobuf
from oasis_sim_k8s.kubeapi.protobuf import _fields

from .support import cluster

VERSION = "v1.33.0"


def _walk(node: Any, path: str, problems: list[str], names: set[str]) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: not a schema")
        return
    ref = node.get("$ref")
    if ref is not None:
        if not ref.startswith("#/definitions/") or ref.split("/")[-1] not in names:
            problems.append(f"{path}: unknown reference {ref}")
        if set(node) - {"$ref", "description"}:
            problems.append(f"{path}: a reference with more than a description")
        return
    kind = node.get("type")
    if kind not in (None, "string", "integer", "number", "boolean", "object", "array"):
        problems.append(f"{path}: type {kind!r}")
    if kind == "array":
        _walk(node.get("items"), path + "[]", problems, names)
    for name, sub in (node.get("properties") or {}).items():
        _walk(sub, f"{path}.{name}", problems, names)
    if isinstance(node.get("additionalProperties"), dict):
        _walk(node["additionalProperties"], path + "{}", problems, names)


def test_every_definition_parses_as_kube_openapi_reads_v2() -> None:
    doc = document(VERSION)
    names = set(doc["definitions"])
    problems: list[str] = []
    for name, schema in doc["definitions"].items():
        _walk(schema, name, problems, names)
    assert len(names) > 300 and not problems, problems[:10]
    tagged = {
        (t["group"], t["kind"])
        for s in doc["definitions"].values()
        for t in s.get("x-kubernetes-group-version-kind") or []
    }
    assert {("apps", "Deployment"), ("", "Pod"), ("batch", "CronJob")} <= tagged


def _gvk_tags(schema: bytes) -> list[Any]:
    """The ``x-kubernetes-group-version-kind`` of a Schema (its vendor extensions, field 31)."""
    out: list[Any] = []
    for number, raw in _fields(schema):
        if number == 31 and isinstance(raw, bytes):
            named = dict(_fields(raw))
            if named[1] == b"x-kubernetes-group-version-kind":
                out.extend(json.loads(dict(_fields(named[2]))[2]))  # type: ignore[arg-type]
    return out


def test_the_protobuf_is_gnostics_document() -> None:
    top = dict(_fields(protobuf(VERSION)))
    assert top[1] == b"2.0"
    named = [dict(_fields(raw)) for _, raw in _fields(top[9])]  # type: ignore[arg-type]
    by_name = {n[1].decode(): n[2] for n in named}  # type: ignore[union-attr]
    assert list(by_name) == list(document(VERSION)["definitions"])
    (deployment,) = [
        raw
        for raw in by_name.values()
        if {"group": "apps", "kind": "Deployment", "version": "v1"} in _gvk_tags(raw)  # type: ignore[arg-type]
    ]
    fields = dict(_fields(deployment))  # type: ignore[arg-type]
    assert dict(_fields(fields[22]))[1] == b"object"  # type: ignore[arg-type]


def test_the_api_server_serves_v2_as_kubectl_and_others_ask(tmp_path: Path) -> None:
    with (
        cluster(tmp_path, need_kubectl=False) as c,
        httpx.Client(verify=False, headers={"Authorization": f"Bearer {c.token}"}) as http,
    ):
        pb = http.get(c.url + "/openapi/v2", headers={"Accept": PROTOBUF})
        js = http.get(c.url + "/openapi/v2", headers={"Accept": "application/json"})
    assert pb.status_code == 200 and pb.headers["content-type"] == "application/octet-stream"
    assert dict(_fields(pb.content))[1] == b"2.0"
    assert js.status_code == 200 and json.loads(js.content)["swagger"] == "2.0"
