"""``kubectl describe``: kubectl's describers for the common kinds, a generic one for
the rest, each with its ``Events:`` section. Output goes through a Go-``tabwriter``
emulation (padding 2), so alignment follows kubectl's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .describe_kinds import (
    describe_binding,
    describe_configmap,
    describe_generic,
    describe_hpa,
    describe_ingress,
    describe_namespace,
    describe_netpol,
    describe_pvc,
    describe_role,
    describe_sa,
    describe_secret,
    describe_service,
)
from .describe_nodes import describe_node
from .describe_pods import describe_deployment, describe_pod, describe_replicaset
from .describe_text import Fetch, tabwriter
from .k8s_cells import pod_status
from .k8s_format import kind_of

DESCRIBERS: dict[str, Callable[[Any, dict[str, Any], Fetch], str]] = {
    "pods": describe_pod,
    "deployments": describe_deployment,
    "replicasets": describe_replicaset,
    "services": describe_service,
    "nodes": describe_node,
    "configmaps": describe_configmap,
    "secrets": describe_secret,
    "namespaces": describe_namespace,
    "ingresses": describe_ingress,
    "horizontalpodautoscalers": describe_hpa,
    "networkpolicies": describe_netpol,
    "persistentvolumeclaims": describe_pvc,
    "serviceaccounts": describe_sa,
    "roles": describe_role,
    "clusterroles": describe_role,
    "rolebindings": describe_binding,
    "clusterrolebindings": describe_binding,
}


def describe(env: Any, plural: str, obj: dict[str, Any], fetch: Fetch) -> str:
    return DESCRIBERS.get(plural, describe_generic)(env, obj, fetch)


__all__ = ["describe", "describe_netpol", "kind_of", "pod_status", "tabwriter"]
