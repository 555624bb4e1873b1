"""``kubectl get``'s printer columns per kind (``-o wide`` adds the wide ones) and
the table they render."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .k8s_cells import (
    _address,
    _containers,
    _endpoints,
    _external_ip,
    _hpa_targets,
    _ingress_address,
    _ingress_hosts,
    _ingress_ports,
    _job_duration,
    _node_roles,
    _node_status,
    _pdb_value,
    _plain_selector,
    _ports,
    _quota,
    _restarts,
    _selector,
    _short_modes,
    _subjects,
    pod_status,
)
from .k8s_format import age

Column = tuple[str, Callable[[Any, dict[str, Any]], str]]


def _c(name: str, fn: Callable[[Any, dict[str, Any]], Any]) -> Column:
    return name, lambda env, o: str(fn(env, o))


_AGE = _c("AGE", lambda env, o: age(env, o["metadata"].get("creationTimestamp")))


def _pod_cols(wide: bool) -> list[Column]:
    def ready(env: Any, o: dict[str, Any]) -> str:
        _, r, t, _, _ = pod_status(o)
        return f"{r}/{t}"

    cols = [
        _c("NAME", lambda env, o: o["metadata"]["name"]),
        _c("READY", ready),
        _c("STATUS", lambda env, o: pod_status(o)[0]),
        _c("RESTARTS", lambda env, o: _restarts(env, pod_status(o)[3], pod_status(o)[4])),
        _AGE,
    ]
    if wide:
        cols += [
            _c("IP", lambda env, o: (o.get("status") or {}).get("podIP") or "<none>"),
            _c("NODE", lambda env, o: (o.get("spec") or {}).get("nodeName") or "<none>"),
            _c(
                "NOMINATED NODE",
                lambda env, o: (o.get("status") or {}).get("nominatedNodeName") or "<none>",
            ),
            _c("READINESS GATES", lambda env, o: "<none>"),
        ]
    return cols


def _workload_wide(o: dict[str, Any]) -> list[str]:
    names, images = _containers(((o.get("spec") or {}).get("template") or {}).get("spec") or {})
    return [names, images, _selector((o.get("spec") or {}).get("selector"))]


_NAME = _c("NAME", lambda env, o: o["metadata"]["name"])


def _st(o: dict[str, Any]) -> Any:
    return o.get("status") or {}


def _sp(o: dict[str, Any]) -> Any:
    return o.get("spec") or {}


def _pod_cols_of(plural: str, wide: bool) -> list[Column]:
    return _pod_cols(wide)


#: ``-o wide`` of deployments and replica sets
_WORKLOAD_WIDE = [
    _c("CONTAINERS", lambda env, o: _workload_wide(o)[0]),
    _c("IMAGES", lambda env, o: _workload_wide(o)[1]),
    _c("SELECTOR", lambda env, o: _workload_wide(o)[2]),
]


def _cols_deployments(plural: str, wide: bool) -> list[Column]:
    cols = [
        _NAME,
        _c(
            "READY",
            lambda env, o: f"{_st(o).get('readyReplicas', 0)}/{_sp(o).get('replicas', 1)}",
        ),
        _c("UP-TO-DATE", lambda env, o: _st(o).get("updatedReplicas", 0)),
        _c("AVAILABLE", lambda env, o: _st(o).get("availableReplicas", 0)),
        _AGE,
    ]
    return cols + (_WORKLOAD_WIDE if wide else [])


def _cols_replicasets(plural: str, wide: bool) -> list[Column]:
    cols = [
        _NAME,
        _c("DESIRED", lambda env, o: _sp(o).get("replicas", 0)),
        _c("CURRENT", lambda env, o: _st(o).get("replicas", 0)),
        _c("READY", lambda env, o: _st(o).get("readyReplicas", 0)),
        _AGE,
    ]
    return cols + (_WORKLOAD_WIDE if wide else [])


def _cols_statefulsets(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c(
            "READY",
            lambda env, o: f"{_st(o).get('readyReplicas', 0)}/{_sp(o).get('replicas', 1)}",
        ),
        _AGE,
    ]


def _cols_daemonsets(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("DESIRED", lambda env, o: _st(o).get("desiredNumberScheduled", 0)),
        _c("CURRENT", lambda env, o: _st(o).get("currentNumberScheduled", 0)),
        _c("READY", lambda env, o: _st(o).get("numberReady", 0)),
        _c("UP-TO-DATE", lambda env, o: _st(o).get("updatedNumberScheduled", 0)),
        _c("AVAILABLE", lambda env, o: _st(o).get("numberAvailable", 0)),
        _c(
            "NODE SELECTOR",
            lambda env, o: _plain_selector(
                ((_sp(o).get("template") or {}).get("spec") or {}).get("nodeSelector")
            ),
        ),
        _AGE,
    ]


def _cols_services(plural: str, wide: bool) -> list[Column]:
    cols = [
        _NAME,
        _c("TYPE", lambda env, o: _sp(o).get("type", "ClusterIP")),
        _c("CLUSTER-IP", lambda env, o: _sp(o).get("clusterIP") or "<none>"),
        _c("EXTERNAL-IP", lambda env, o: _external_ip(o)),
        _c("PORT(S)", lambda env, o: _ports(o)),
        _AGE,
    ]
    if wide:
        cols.append(_c("SELECTOR", lambda env, o: _plain_selector(_sp(o).get("selector"))))
    return cols


def _cols_endpoints(plural: str, wide: bool) -> list[Column]:
    return [_NAME, _c("ENDPOINTS", lambda env, o: _endpoints(o)), _AGE]


def _cols_configmaps(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("DATA", lambda env, o: len(o.get("data") or {}) + len(o.get("binaryData") or {})),
        _AGE,
    ]


def _cols_secrets(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("TYPE", lambda env, o: o.get("type", "Opaque")),
        _c("DATA", lambda env, o: len(o.get("data") or {})),
        _AGE,
    ]


def _cols_namespaces(plural: str, wide: bool) -> list[Column]:
    return [_NAME, _c("STATUS", lambda env, o: _st(o).get("phase", "Active")), _AGE]


def _cols_nodes(plural: str, wide: bool) -> list[Column]:
    cols = [
        _NAME,
        _c("STATUS", lambda env, o: _node_status(o)),
        _c("ROLES", lambda env, o: _node_roles(o)),
        _AGE,
        _c(
            "VERSION",
            lambda env, o: (_st(o).get("nodeInfo") or {}).get("kubeletVersion", "v1.33.4"),
        ),
    ]
    if wide:

        def info(o: dict[str, Any]) -> Any:
            return _st(o).get("nodeInfo") or {}

        cols += [
            _c("INTERNAL-IP", lambda env, o: _address(o, "InternalIP")),
            _c("EXTERNAL-IP", lambda env, o: _address(o, "ExternalIP")),
            _c("OS-IMAGE", lambda env, o: info(o).get("osImage", "Amazon Linux 2")),
            _c(
                "KERNEL-VERSION",
                lambda env, o: info(o).get("kernelVersion", "5.10.217-205.860.amzn2.x86_64"),
            ),
            _c(
                "CONTAINER-RUNTIME",
                lambda env, o: info(o).get("containerRuntimeVersion", "containerd://1.7.11"),
            ),
        ]
    return cols


def _cols_events(plural: str, wide: bool) -> list[Column]:
    return [
        _c(
            "LAST SEEN",
            lambda env, o: age(
                env,
                o.get("lastTimestamp")
                or o.get("eventTime")
                or o["metadata"].get("creationTimestamp"),
            ),
        ),
        _c("TYPE", lambda env, o: o.get("type", "Normal")),
        _c("REASON", lambda env, o: o.get("reason", "")),
        _c(
            "OBJECT",
            lambda env, o: (
                f"{str((o.get('involvedObject') or {}).get('kind', '')).lower()}/"
                f"{(o.get('involvedObject') or {}).get('name', '')}"
            ),
        ),
        _c("MESSAGE", lambda env, o: o.get("message", "")),
    ]


def _cols_ingresses(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("CLASS", lambda env, o: _sp(o).get("ingressClassName") or "<none>"),
        _c("HOSTS", lambda env, o: _ingress_hosts(o)),
        _c("ADDRESS", lambda env, o: _ingress_address(o)),
        _c("PORTS", lambda env, o: _ingress_ports(o)),
        _AGE,
    ]


def _cols_networkpolicies(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c(
            "POD-SELECTOR",
            lambda env, o: _selector(_sp(o).get("podSelector")).replace("<none>", "<none>"),
        ),
        _AGE,
    ]


def _cols_horizontalpodautoscalers(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c(
            "REFERENCE",
            lambda env, o: (
                f"{(_sp(o).get('scaleTargetRef') or {}).get('kind')}/"
                f"{(_sp(o).get('scaleTargetRef') or {}).get('name')}"
            ),
        ),
        _c("TARGETS", lambda env, o: _hpa_targets(o)),
        _c("MINPODS", lambda env, o: _sp(o).get("minReplicas", 1)),
        _c("MAXPODS", lambda env, o: _sp(o).get("maxReplicas", "")),
        _c("REPLICAS", lambda env, o: _st(o).get("currentReplicas", 0)),
        _AGE,
    ]


def _cols_persistentvolumeclaims(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("STATUS", lambda env, o: _st(o).get("phase", "Pending")),
        _c("VOLUME", lambda env, o: _sp(o).get("volumeName", "")),
        _c("CAPACITY", lambda env, o: (_st(o).get("capacity") or {}).get("storage", "")),
        _c(
            "ACCESS MODES",
            lambda env, o: ",".join(_short_modes(_st(o).get("accessModes") or [])),
        ),
        _c("STORAGECLASS", lambda env, o: _sp(o).get("storageClassName", "")),
        _AGE,
    ]


def _cols_persistentvolumes(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("CAPACITY", lambda env, o: (_sp(o).get("capacity") or {}).get("storage", "")),
        _c(
            "ACCESS MODES",
            lambda env, o: ",".join(_short_modes(_sp(o).get("accessModes") or [])),
        ),
        _c("RECLAIM POLICY", lambda env, o: _sp(o).get("persistentVolumeReclaimPolicy", "")),
        _c("STATUS", lambda env, o: _st(o).get("phase", "")),
        _c(
            "CLAIM",
            lambda env, o: (
                f"{(_sp(o).get('claimRef') or {}).get('namespace', '')}/"
                f"{(_sp(o).get('claimRef') or {}).get('name', '')}"
                if _sp(o).get("claimRef")
                else ""
            ),
        ),
        _c("STORAGECLASS", lambda env, o: _sp(o).get("storageClassName", "")),
        _c("REASON", lambda env, o: _st(o).get("reason", "")),
        _AGE,
    ]


def _cols_poddisruptionbudgets(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("MIN AVAILABLE", lambda env, o: _pdb_value(_sp(o), "minAvailable")),
        _c("MAX UNAVAILABLE", lambda env, o: _pdb_value(_sp(o), "maxUnavailable")),
        _c("ALLOWED DISRUPTIONS", lambda env, o: _st(o).get("disruptionsAllowed", 0)),
        _AGE,
    ]


def _cols_serviceaccounts(plural: str, wide: bool) -> list[Column]:
    return [_NAME, _c("SECRETS", lambda env, o: len(o.get("secrets") or [])), _AGE]


def _cols_roles(plural: str, wide: bool) -> list[Column]:
    return [_NAME, _c("CREATED AT", lambda env, o: o["metadata"].get("creationTimestamp", ""))]


def _cols_rolebindings(plural: str, wide: bool) -> list[Column]:
    cols = [
        _NAME,
        _c(
            "ROLE",
            lambda env, o: (
                f"{(o.get('roleRef') or {}).get('kind')}/{(o.get('roleRef') or {}).get('name')}"
            ),
        ),
        _AGE,
    ]
    if wide:
        cols += [
            _c("USERS", lambda env, o: _subjects(o, "User")),
            _c("GROUPS", lambda env, o: _subjects(o, "Group")),
            _c("SERVICEACCOUNTS", lambda env, o: _subjects(o, "ServiceAccount")),
        ]
    return cols


def _cols_jobs(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c(
            "COMPLETIONS",
            lambda env, o: f"{_st(o).get('succeeded', 0)}/{_sp(o).get('completions', 1)}",
        ),
        _c("DURATION", lambda env, o: _job_duration(o)),
        _AGE,
    ]


def _cols_storageclasses(plural: str, wide: bool) -> list[Column]:
    return [
        _c(
            "NAME",
            lambda env, o: (
                o["metadata"]["name"]
                + (
                    " (default)"
                    if (o["metadata"].get("annotations") or {}).get(
                        "storageclass.kubernetes.io/is-default-class"
                    )
                    == "true"
                    else ""
                )
            ),
        ),
        _c("PROVISIONER", lambda env, o: o.get("provisioner", "")),
        _c("RECLAIMPOLICY", lambda env, o: o.get("reclaimPolicy", "Delete")),
        _c("VOLUMEBINDINGMODE", lambda env, o: o.get("volumeBindingMode", "Immediate")),
        _c(
            "ALLOWVOLUMEEXPANSION",
            lambda env, o: str(bool(o.get("allowVolumeExpansion"))).lower(),
        ),
        _AGE,
    ]


def _cols_ingressclasses(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("CONTROLLER", lambda env, o: _sp(o).get("controller", "")),
        _c("PARAMETERS", lambda env, o: "<none>"),
        _AGE,
    ]


def _cols_resourcequotas(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _AGE,
        _c("REQUEST", lambda env, o: _quota(o, False)),
        _c("LIMIT", lambda env, o: _quota(o, True)),
    ]


def _cols_applications(plural: str, wide: bool) -> list[Column]:
    return [
        _NAME,
        _c("SYNC STATUS", lambda env, o: (_st(o).get("sync") or {}).get("status", "Unknown")),
        _c("HEALTH STATUS", lambda env, o: (_st(o).get("health") or {}).get("status", "Unknown")),
    ]


def _cols_certificates(plural: str, wide: bool) -> list[Column]:

    def ready(env: Any, o: dict[str, Any]) -> str:
        conds = {c.get("type"): c.get("status") for c in _st(o).get("conditions") or []}
        return conds.get("Ready", "Unknown")

    cols = [_NAME, _c("READY", ready)]
    if plural == "certificates":
        cols.append(_c("SECRET", lambda env, o: _sp(o).get("secretName", "")))
    return cols + [_AGE]


_COLUMNS: dict[str, Callable[[str, bool], list[Column]]] = {
    "pods": _pod_cols_of,
    "deployments": _cols_deployments,
    "replicasets": _cols_replicasets,
    "statefulsets": _cols_statefulsets,
    "daemonsets": _cols_daemonsets,
    "services": _cols_services,
    "endpoints": _cols_endpoints,
    "configmaps": _cols_configmaps,
    "secrets": _cols_secrets,
    "namespaces": _cols_namespaces,
    "nodes": _cols_nodes,
    "events": _cols_events,
    "ingresses": _cols_ingresses,
    "networkpolicies": _cols_networkpolicies,
    "horizontalpodautoscalers": _cols_horizontalpodautoscalers,
    "persistentvolumeclaims": _cols_persistentvolumeclaims,
    "persistentvolumes": _cols_persistentvolumes,
    "poddisruptionbudgets": _cols_poddisruptionbudgets,
    "serviceaccounts": _cols_serviceaccounts,
    "roles": _cols_roles,
    "clusterroles": _cols_roles,
    "rolebindings": _cols_rolebindings,
    "clusterrolebindings": _cols_rolebindings,
    "jobs": _cols_jobs,
    "storageclasses": _cols_storageclasses,
    "ingressclasses": _cols_ingressclasses,
    "resourcequotas": _cols_resourcequotas,
    "applications": _cols_applications,
    "certificates": _cols_certificates,
    "clusterissuers": _cols_certificates,
}


def columns(plural: str, wide: bool) -> list[Column]:
    """The printer columns of ``kubectl get <plural>`` (``-o wide`` adds the wide ones)."""
    make = _COLUMNS.get(plural)
    return make(plural, wide) if make else [_NAME, _AGE]
