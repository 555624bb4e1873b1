"""What the simulated API server answers (interop §3): :class:`ApiResult` and Kubernetes
``Status`` bodies, with the clock steps of each kind of caller. Its own module so that the
API server's verbs (:mod:`.apiserver`, :mod:`.apiwrites`) share them without a cycle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import rbac

Hook = Callable[[dict[str, Any]], None]
AGENT_STEP_MS = 1000
SETUP_STEP_MS = 10
INTERNAL_STEP_MS = 1
WRITE = ("create", "update", "patch", "delete", "deletecollection")


@dataclass
class ApiResult:
    """An API server answer: the HTTP status code and the body (an object, a list or a
    ``Status``)."""

    code: int
    body: Any

    @property
    def ok(self) -> bool:
        """A success (below 400)."""
        return self.code < 400


def status(
    code: int, reason: str, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A Kubernetes ``Status`` body, as the real API server words it."""
    out = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure" if code >= 400 else "Success",
        "message": message,
        "reason": reason,
        "code": code,
    }
    if details is not None:  # the real server's path 404s carry an empty one (kubectl reads it)
        out["details"] = details
    return out


def group_resource(plural: str) -> str:
    group = rbac.resource_group(plural)
    return f"{plural}.{group}" if group else plural
