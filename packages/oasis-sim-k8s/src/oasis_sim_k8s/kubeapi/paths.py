"""Resource URLs (interop §2): ``/api/v1/...`` and ``/apis/<group>/<version>/...`` then
``[namespaces/<ns>/]<resource>[/<name>[/<subresource>]]``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .resources import GROUP_VERSIONS, Resource, lookup


@dataclass(frozen=True)
class Target:
    """What one request URL names. ``resource`` is None for a resource the group/version
    does not serve (``raw`` keeps the name, so the refusal is audited under it)."""

    gv: str
    raw: str
    resource: Resource | None
    namespace: str | None
    name: str | None
    subresource: str | None


def route_path(scope: Mapping[str, Any]) -> str:
    """The request path relative to where the app is mounted."""
    path = str(scope.get("path") or "/")
    root = str(scope.get("root_path") or "")
    if root and path.startswith(root):
        path = path[len(root) :] or "/"
    return path


def parse(path: str) -> Target | None:
    """The target of a resource URL (None: not a resource URL of a served group/version)."""
    parts = [p for p in path.split("/") if p]
    if parts[:2] == ["api", "v1"]:
        gv, rest = "v1", parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        gv, rest = f"{parts[1]}/{parts[2]}", parts[3:]
    else:
        return None
    if gv not in GROUP_VERSIONS or not rest:
        return None
    namespace = None
    if rest[0] == "namespaces" and len(rest) >= 3 and not _is_namespace_sub(gv, rest):
        namespace, rest = rest[1], rest[2:]
    if len(rest) > 3:
        return None
    raw = rest[0]
    name = rest[1] if len(rest) > 1 else None
    sub = rest[2] if len(rest) > 2 else None
    return Target(gv, raw, lookup(gv, raw), namespace, name, sub)


def _is_namespace_sub(gv: str, rest: list[str]) -> bool:
    """``/api/v1/namespaces/<name>/status`` names a namespace's subresource, not a resource."""
    return (
        gv == "v1"
        and len(rest) == 3
        and lookup(gv, rest[2]) is None
        and rest[2] in ("status", "finalize")
    )
