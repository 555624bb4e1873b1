"""The API resources the simulated API server serves, per group/version (interop §2: the
discovery documents unmodified clients resolve ``deploy``, ``po``, ``-A`` and ``all`` with).

Built from :data:`..store.KINDS` (what the store holds, the custom resources SI uses
included) plus the resources served without storage: the authorization reviews,
``metrics.k8s.io`` and the ``events.k8s.io`` view of core events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cluster.store import KINDS

RW = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")
SHORT: dict[str, tuple[str, ...]] = {
    "pods": ("po",),
    "services": ("svc",),
    "endpoints": ("ep",),
    "configmaps": ("cm",),
    "events": ("ev",),
    "serviceaccounts": ("sa",),
    "persistentvolumeclaims": ("pvc",),
    "resourcequotas": ("quota",),
    "namespaces": ("ns",),
    "nodes": ("no",),
    "persistentvolumes": ("pv",),
    "deployments": ("deploy",),
    "replicasets": ("rs",),
    "statefulsets": ("sts",),
    "daemonsets": ("ds",),
    "ingresses": ("ing",),
    "networkpolicies": ("netpol",),
    "horizontalpodautoscalers": ("hpa",),
    "poddisruptionbudgets": ("pdb",),
    "storageclasses": ("sc",),
    "applications": ("app", "apps"),
    "certificates": ("cert", "certs"),
    "cronjobs": ("cj",),
    "limitranges": ("limits",),
    "replicationcontrollers": ("rc",),
    "customresourcedefinitions": ("crd", "crds"),
    "priorityclasses": ("pc",),
    "certificatesigningrequests": ("csr",),
}
#: ``kubectl get all``
ALL = {
    "pods",
    "services",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "horizontalpodautoscalers",
}
#: subresource -> (verbs, kind, group/version of the kind); per resource below
_SCALE = ("scale", ("get", "patch", "update"), "Scale", "autoscaling/v1")
_STATUS = ("status", ("get", "patch", "update"), "", "")
SUBRESOURCES: dict[str, tuple[tuple[str, tuple[str, ...], str, str], ...]] = {
    "pods": (
        _STATUS,
        ("log", ("get",), "Pod", "v1"),
        ("exec", ("create", "get"), "PodExecOptions", "v1"),
        ("eviction", ("create",), "Eviction", "policy/v1"),
    ),
    "deployments": (_SCALE, _STATUS),
    "replicasets": (_SCALE, _STATUS),
    "statefulsets": (_SCALE, _STATUS),
    "daemonsets": (_STATUS,),
    "jobs": (_STATUS,),
    "cronjobs": (_STATUS,),
    "services": (_STATUS,),
    "nodes": (_STATUS,),
    "namespaces": (_STATUS,),
    "horizontalpodautoscalers": (_STATUS,),
    "poddisruptionbudgets": (_STATUS,),
    "applications": (_STATUS,),
    "certificates": (_STATUS,),
}


@dataclass(frozen=True)
class Resource:
    """One served resource: its URL name, kind, scope, verbs, and the store plural behind it."""

    name: str
    kind: str
    namespaced: bool
    verbs: tuple[str, ...] = RW
    short: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    #: the plural the API server pipeline knows it by (None: served here, not by the pipeline)
    backend: str | None = None
    subresources: tuple[tuple[str, tuple[str, ...], str, str], ...] = field(default=())


def _build() -> dict[str, dict[str, Resource]]:
    out: dict[str, dict[str, Resource]] = {}
    for plural, (kind, gv, ns) in KINDS.items():
        cats = ("all",) if plural in ALL else ()
        if plural == "applications":
            cats = ("argo",)
        out.setdefault(gv, {})[plural] = Resource(
            plural,
            kind,
            ns,
            short=SHORT.get(plural, ()),
            categories=cats,
            backend=plural,
            subresources=SUBRESOURCES.get(plural, ()),
        )
    authz = out.setdefault("authorization.k8s.io/v1", {})
    for plural, kind in (
        ("selfsubjectaccessreviews", "SelfSubjectAccessReview"),
        ("selfsubjectrulesreviews", "SelfSubjectRulesReview"),
    ):
        authz[plural] = Resource(plural, kind, False, ("create",), backend=plural)
    out["authentication.k8s.io/v1"] = {
        "selfsubjectreviews": Resource(
            "selfsubjectreviews",
            "SelfSubjectReview",
            False,
            ("create",),
            backend="selfsubjectreviews",
        )
    }
    out["events.k8s.io/v1"] = {"events": Resource("events", "Event", True, backend="events")}
    # kubectl before 1.30 creates its ``autoscale`` HPA here (a view: :mod:`.autoscaling`)
    hpa = out["autoscaling/v2"]["horizontalpodautoscalers"]
    out["autoscaling/v1"] = {hpa.name: hpa}
    out["metrics.k8s.io/v1beta1"] = {
        "pods": Resource("pods", "PodMetrics", True, ("get", "list")),
        "nodes": Resource("nodes", "NodeMetrics", False, ("get", "list")),
    }
    return out


#: group/version ("v1" for core) -> resource name -> Resource
GROUP_VERSIONS: dict[str, dict[str, Resource]] = _build()


def group_of(gv: str) -> str:
    return gv.split("/", 1)[0] if "/" in gv else ""


def lookup(gv: str, name: str) -> Resource | None:
    return GROUP_VERSIONS.get(gv, {}).get(name)


def groups() -> list[tuple[str, list[str]]]:
    """(group, [versions]) for every named group, in a stable order (core first is implicit)."""
    seen: dict[str, list[str]] = {}
    for gv in GROUP_VERSIONS:
        if "/" in gv:
            group, version = gv.split("/", 1)
            seen.setdefault(group, []).append(version)
    return sorted(seen.items(), key=lambda kv: (_PRIORITY.get(kv[0], 50), kv[0]))


_PRIORITY = {
    "apps": 0,
    "events.k8s.io": 1,
    "authorization.k8s.io": 2,
    "autoscaling": 3,
    "batch": 4,
    "networking.k8s.io": 5,
    "policy": 6,
    "rbac.authorization.k8s.io": 7,
    "storage.k8s.io": 8,
}
