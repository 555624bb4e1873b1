"""Admission and validation: what the API server refuses before storing a write.

Immutable fields (Deployment ``spec.selector``, Service ``spec.clusterIP``,
RoleBinding ``roleRef``, PVC spec except storage growth, ConfigMap/Secret with
``immutable: true``, Pod spec except images), selector/template label agreement,
base64 Secret ``data``, the NamespaceLifecycle protection of system namespaces,
and RBAC escalation prevention for roles and bindings. Each failure is
``(code, reason, message)`` with the real API server wording.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from . import rbac, selectors
from .quantity import mem_bytes

Failure = tuple[int, str, str]
_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
PROTECTED_NAMESPACES = ("default", "kube-system", "kube-public", "kube-node-lease")


def _invalid(kind: str, name: str, field: str, detail: str) -> Failure:
    return 422, "Invalid", f'{kind} "{name}" is invalid: {field}: {detail}'


def validate(
    store: Any, user: str, plural: str, old: dict[str, Any] | None, new: dict[str, Any]
) -> Failure | None:
    """None when the write may proceed."""
    kind, name = new.get("kind", ""), (new.get("metadata") or {}).get("name", "")
    group_kind = kind + (
        ".apps" if plural in ("deployments", "replicasets", "statefulsets", "daemonsets") else ""
    )
    if not name or len(name) > 253 or not _NAME.match(name):
        return _invalid(
            group_kind,
            name,
            "metadata.name",
            f'Invalid value: "{name}": a lowercase RFC 1123 subdomain must consist of lower case '
            "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        )
    if plural == "secrets":
        for key, value in (new.get("data") or {}).items():
            try:
                base64.b64decode(str(value), validate=True)
            except (binascii.Error, ValueError):
                return (
                    400,
                    "BadRequest",
                    f"error decoding from json: illegal base64 data at input byte 0 (key {key})",
                )
    if (
        plural in ("configmaps", "secrets")
        and old is not None
        and old.get("immutable")
        and (old.get("data") != new.get("data") or old.get("binaryData") != new.get("binaryData"))
    ):
        return _invalid(kind, name, "data", "Forbidden: field is immutable when `immutable` is set")
    if plural == "deployments":
        spec = new.get("spec") or {}
        sel = spec.get("selector") or {}
        tmpl_labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
        if not selectors.matches(sel, tmpl_labels):
            return _invalid(
                group_kind,
                name,
                "spec.template.metadata.labels",
                f"Invalid value: {tmpl_labels}: `selector` does not match template `labels`",
            )
        if old is not None and (old.get("spec") or {}).get("selector") != sel:
            return _invalid(
                group_kind, name, "spec.selector", f"Invalid value: {sel}: field is immutable"
            )
        if int(spec.get("replicas", 1) or 0) < 0:
            return _invalid(
                group_kind,
                name,
                "spec.replicas",
                "Invalid value: must be greater than or equal to 0",
            )
    if plural == "services" and old is not None:
        was, now = (
            (old.get("spec") or {}).get("clusterIP"),
            (new.get("spec") or {}).get("clusterIP"),
        )
        if now not in (None, "", was):
            return _invalid(
                kind,
                name,
                "spec.clusterIPs[0]",
                f'Invalid value: []string{{"{now}"}}: may not change once set',
            )
    if (
        plural in ("rolebindings", "clusterrolebindings")
        and old is not None
        and old.get("roleRef") != new.get("roleRef")
    ):
        return _invalid(kind, name, "roleRef", "Invalid value: cannot change roleRef")
    if plural == "persistentvolumeclaims" and old is not None:
        a, b = dict(old.get("spec") or {}), dict(new.get("spec") or {})
        sa = (a.pop("resources", {}) or {}).get("requests", {}).get("storage")
        sb = (b.pop("resources", {}) or {}).get("requests", {}).get("storage")
        for extra in ("volumeName",):
            a.pop(extra, None)
            b.pop(extra, None)
        if a != b:
            return _invalid(
                kind,
                name,
                "spec",
                "Forbidden: spec is immutable after creation except resources.requests "
                "and volumeAttributesClassName for bound claims",
            )
        if (mem_bytes(sb) or 0) < (mem_bytes(sa) or 0):
            return _invalid(
                kind,
                name,
                "spec.resources.requests.storage",
                "Forbidden: field can not be less than previous value",
            )
    if plural == "pods" and old is not None and _pod_spec_changed(old, new):
        return _invalid(
            kind,
            name,
            "spec",
            "Forbidden: pod updates may not change fields other than "
            "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
            "`spec.tolerations` (only additions to existing tolerations),"
            "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
        )
    role_ns = (new.get("metadata") or {}).get("namespace")
    if (
        plural in ("roles", "clusterroles")
        and not rbac.can_grant(store, user, new.get("rules") or [], role_ns)
        and not rbac.authorize(store, user, "escalate", plural, role_ns, name)
    ):
        return (
            403,
            "Forbidden",
            (
                f'{plural}.rbac.authorization.k8s.io "{name}" is forbidden: user "{user}" '
                "is attempting to grant RBAC permissions not currently held"
            ),
        )
    if plural in ("rolebindings", "clusterrolebindings"):
        ns = (new.get("metadata") or {}).get("namespace") if plural == "rolebindings" else None
        ref = new.get("roleRef") or {}
        rules = rbac.role_rules_of(store, ref, ns)
        ref_plural = "clusterroles" if ref.get("kind") == "ClusterRole" else "roles"
        if not rbac.can_grant(store, user, rules, ns) and not rbac.authorize(
            store, user, "bind", ref_plural, ns, ref.get("name")
        ):
            return (
                403,
                "Forbidden",
                (
                    f'{plural}.rbac.authorization.k8s.io "{name}" is forbidden: user "{user}" '
                    f"is attempting to grant RBAC permissions not currently held"
                ),
            )
    return None


def _pod_spec_changed(old: dict[str, Any], new: dict[str, Any]) -> bool:
    def strip(spec: dict[str, Any]) -> dict[str, Any]:
        spec = {
            k: v
            for k, v in (spec or {}).items()
            if k not in ("activeDeadlineSeconds", "tolerations", "nodeName")
        }
        for key in ("containers", "initContainers"):
            spec[key] = [{k: v for k, v in c.items() if k != "image"} for c in spec.get(key) or []]
        return spec

    return strip(old.get("spec") or {}) != strip(new.get("spec") or {})


def namespace_delete(name: str) -> Failure | None:
    if name in PROTECTED_NAMESPACES:
        return (
            403,
            "Forbidden",
            f'namespaces "{name}" is forbidden: this namespace may not be deleted',
        )
    return None
