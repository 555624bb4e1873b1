"""Resource names as clients send them (``deploy``, ``Deployment``, ``deployments.apps``,
``hpa``) -> the plural the store uses; None when the server has no such resource."""

from __future__ import annotations

from oasis_eval.spec.kinds import resource_name

from .store import KINDS, plural_of

_EXTRA = {"gitops-applications": "applications", "apps": None, "app": None}


def normalize_resource(resource: str | None) -> str | None:
    if not resource:
        return None
    direct = plural_of(resource)
    if direct:
        return direct
    name = resource_name(resource)
    if name in KINDS:
        return name
    if name in ("selfsubjectaccessreviews", "selfsubjectrulesreviews", "selfsubjectreviews"):
        return name
    return _EXTRA.get(name or "")
