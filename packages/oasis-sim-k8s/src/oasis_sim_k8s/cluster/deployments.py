"""A Deployment as a scenario declares it, with the defaults a cluster fills in (SI provider
guide §1.2): the default container and the Deployment object around a pod spec. Built by
the baseline and by state injection; run by :mod:`.workloads`."""

from __future__ import annotations

from typing import Any


def default_container(name: str, image: str) -> dict[str, Any]:
    """A container as the cluster defaults it: a port, requests and limits, a readiness probe."""
    return {
        "name": name,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
        "resources": {
            "requests": {"cpu": "100m", "memory": "128Mi"},
            "limits": {"memory": "256Mi"},
        },
        "readinessProbe": {
            "httpGet": {"path": "/healthz", "port": "http"},
            "periodSeconds": 10,
            "failureThreshold": 3,
        },
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    }


def deployment_object(
    name: str,
    ns: str,
    replicas: int,
    pod_spec: dict[str, Any],
    labels: dict[str, str],
    annotations: dict[str, str] | None = None,
    strategy: dict[str, Any] | None = None,
    pod_labels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A Deployment object (RollingUpdate 25%/25% unless ``strategy`` says otherwise)."""
    selector = {"app": (pod_labels or labels).get("app", name)}
    tmpl_labels = {**selector, **(pod_labels or {})}
    return {
        "kind": "Deployment",
        "metadata": {
            "name": name,
            "namespace": ns,
            "labels": dict(labels),
            "annotations": dict(annotations or {}),
        },
        "spec": {
            "replicas": replicas,
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
            "selector": {"matchLabels": selector},
            "strategy": strategy
            or {
                "type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"},
            },
            "template": {"metadata": {"labels": tmpl_labels, "annotations": {}}, "spec": pod_spec},
        },
        "status": {},
    }
