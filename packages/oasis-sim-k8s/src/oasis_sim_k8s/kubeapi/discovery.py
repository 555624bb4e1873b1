"""Discovery and OpenAPI (interop §2): ``/version``, ``/api``, ``/api/v1``, ``/apis``,
``/apis/<group>/<version>`` — the legacy documents kubectl and client libraries resolve
resource names with — and the minimal OpenAPI documents kubectl fetches for ``apply``
and ``explain``.

Aggregated discovery (``as=APIGroupDiscoveryList``, ``apidiscovery.k8s.io/v2``) answers
``/api`` and ``/apis`` when the client asks for it, so kubectl resolves every resource
with two requests; other clients get the legacy documents.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ..cluster.nodes import KUBERNETES_VERSION
from .errors import json_response, not_found_path
from .openapi import openapi
from .openapi_v2 import openapi_v2
from .resources import GROUP_VERSIONS, groups

#: a current release (issue 32: 1.29 made kubectl 1.29 ask for autoscaling/v2 paths it 404ed)
VERSION = {
    "major": "1",
    "minor": KUBERNETES_VERSION.split(".")[1],
    "gitVersion": KUBERNETES_VERSION,
    "gitCommit": "0db2d1e4e8e1bf2f4b3c0b4b9b8a7ca3f1a7e2b5",
    "gitTreeState": "clean",
    "buildDate": "2025-08-12T15:00:00Z",
    "goVersion": "go1.24.5",
    "compiler": "gc",
    "platform": "linux/amd64",
}


def resource_list(gv: str) -> dict[str, Any]:
    """``APIResourceList`` of one group/version, subresources included (``pods/log``)."""
    out: list[dict[str, Any]] = []
    for res in GROUP_VERSIONS[gv].values():
        entry: dict[str, Any] = {
            "name": res.name,
            "singularName": res.kind.lower(),
            "namespaced": res.namespaced,
            "kind": res.kind,
            "verbs": list(res.verbs),
        }
        if res.short:
            entry["shortNames"] = list(res.short)
        if res.categories:
            entry["categories"] = list(res.categories)
        out.append(entry)
        for sub, verbs, kind, sub_gv in res.subresources:
            item: dict[str, Any] = {
                "name": f"{res.name}/{sub}",
                "singularName": "",
                "namespaced": res.namespaced,
                "kind": kind or res.kind,
                "verbs": list(verbs),
            }
            if "/" in sub_gv:
                item["group"], item["version"] = sub_gv.split("/", 1)
            out.append(item)
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": out}


def group_list() -> dict[str, Any]:
    items = []
    for group, versions in groups():
        vs = [{"groupVersion": f"{group}/{v}", "version": v} for v in versions]
        items.append({"name": group, "versions": vs, "preferredVersion": vs[0]})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": items}


AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"


def _gvk(gv: str, kind: str) -> dict[str, str]:
    group, _, version = gv.rpartition("/")
    return {"group": group, "version": version, "kind": kind}


def _aggregated_version(gv: str) -> dict[str, Any]:
    resources = []
    for res in GROUP_VERSIONS[gv].values():
        entry: dict[str, Any] = {
            "resource": res.name,
            "responseKind": _gvk(gv, res.kind),
            "scope": "Namespaced" if res.namespaced else "Cluster",
            "singularResource": res.kind.lower(),
            "verbs": list(res.verbs),
        }
        if res.short:
            entry["shortNames"] = list(res.short)
        if res.categories:
            entry["categories"] = list(res.categories)
        if res.subresources:
            entry["subresources"] = [
                {
                    "subresource": sub,
                    "responseKind": _gvk(sub_gv or gv, kind or res.kind),
                    "verbs": list(verbs),
                }
                for sub, verbs, kind, sub_gv in res.subresources
            ]
        resources.append(entry)
    return {"version": gv.rpartition("/")[2], "resources": resources, "freshness": "Current"}


def aggregated(core: bool) -> dict[str, Any]:
    """``APIGroupDiscoveryList`` of the core group (``/api``) or of the named groups (``/apis``)."""
    items: list[dict[str, Any]]
    if core:
        items = [{"metadata": {}, "versions": [_aggregated_version("v1")]}]
    else:
        items = [
            {
                "metadata": {"name": group},
                "versions": [_aggregated_version(f"{group}/{v}") for v in versions],
            }
            for group, versions in groups()
        ]
    return {
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": items,
    }


def serve(path: str, accept: str = "") -> Response | None:
    """The discovery answer for ``path`` (None: not a discovery path)."""
    parts = [p for p in path.split("/") if p]
    if (
        parts in (["api"], ["apis"])
        and "as=APIGroupDiscoveryList" in accept
        and "v=v2;" in accept.replace(" ", "") + ";"
    ):
        return json_response(aggregated(parts == ["api"]), media=AGGREGATED)
    if path in ("/healthz", "/readyz", "/livez"):
        return Response("ok", media_type="text/plain")
    if parts == ["version"]:
        return json_response(VERSION)
    if parts == ["api"]:
        return json_response(
            {
                "kind": "APIVersions",
                "versions": ["v1"],
                "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}],
            }
        )
    if parts == ["api", "v1"]:
        return json_response(resource_list("v1"))
    if parts == ["apis"]:
        return json_response(group_list())
    if len(parts) == 2 and parts[0] == "apis":
        for group, versions in groups():
            if group == parts[1]:
                vs = [{"groupVersion": f"{group}/{v}", "version": v} for v in versions]
                return json_response(
                    {
                        "kind": "APIGroup",
                        "apiVersion": "v1",
                        "name": group,
                        "versions": vs,
                        "preferredVersion": vs[0],
                    }
                )
        return not_found_path(path)
    if len(parts) == 3 and parts[0] == "apis":
        gv = f"{parts[1]}/{parts[2]}"
        return json_response(resource_list(gv)) if gv in GROUP_VERSIONS else not_found_path(path)
    if parts == ["openapi", "v2"]:
        return openapi_v2(accept, VERSION["gitVersion"])
    if parts[:1] == ["openapi"]:
        return openapi(parts, VERSION["gitVersion"])
    return None
