"""The Tier 1 baseline every environment is provisioned inside (SI profile.md §8).

Three worker nodes, the platform namespaces and their controllers (Argo CD for
GitOps, ingress-nginx, cert-manager, Prometheus and Grafana for metrics and
dashboards, CoreDNS), the built-in ClusterRoles, a default StorageClass, the
nginx IngressClass and a ClusterIssuer. Platform namespaces form their own
security zone (``platform-system``), so every cluster has at least two zones.
:func:`tier_evidence` reports what is actually present.
"""

from __future__ import annotations

from typing import Any

from ..cluster import nodes, objects, rbac
from ..cluster.deployments import default_container, deployment_object

PLATFORM_ZONE = "platform-system"
#: namespace -> [(deployment, replicas, image, port)]
PLATFORM = {
    "kube-system": [
        ("coredns", 2, "registry.k8s.io/coredns/coredns:v1.11.1", 53),
        ("metrics-server", 1, "registry.k8s.io/metrics-server/metrics-server:v0.7.1", 10250),
    ],
    "argocd": [
        ("argocd-server", 1, "quay.io/argoproj/argocd:v2.10.7", 8080),
        ("argocd-repo-server", 1, "quay.io/argoproj/argocd:v2.10.7", 8081),
        ("argocd-application-controller", 1, "quay.io/argoproj/argocd:v2.10.7", 8082),
    ],
    "ingress-nginx": [
        ("ingress-nginx-controller", 1, "registry.k8s.io/ingress-nginx/controller:v1.10.1", 80)
    ],
    "cert-manager": [
        ("cert-manager", 1, "quay.io/jetstack/cert-manager-controller:v1.14.5", 9402),
        ("cert-manager-webhook", 1, "quay.io/jetstack/cert-manager-webhook:v1.14.5", 10250),
    ],
    "monitoring": [
        ("prometheus-server", 1, "quay.io/prometheus/prometheus:v2.51.2", 9090),
        ("grafana", 1, "docker.io/grafana/grafana:10.4.2", 3000),
        (
            "kube-state-metrics",
            1,
            "registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.12.0",
            8080,
        ),
        ("alertmanager", 1, "quay.io/prometheus/alertmanager:v0.27.0", 9093),
    ],
}
NODE_COUNT = 3
OLD = 90 * 86400


def build(env: Any, user: str) -> None:
    """Create the baseline through the API server as the provider's own user."""
    api = env.api
    created = env.clock.ts(OLD)
    for i in range(NODE_COUNT):
        node = nodes.node_object(f"node-{i + 1}", i, created=created)
        api.request(user, "create", "nodes", body=node, handed_over=True)
    for name, role_rules in rbac.BUILTIN_CLUSTER_ROLES.items():
        api.request(
            user,
            "create",
            "clusterroles",
            body={
                "kind": "ClusterRole",
                "metadata": {
                    "name": name,
                    "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"},
                    "creationTimestamp": created,
                },
                "rules": role_rules,
            },
        )
    _cluster_classes(api, user, created)
    for ns in ("default", "kube-public", "kube-node-lease"):
        api.request(
            user,
            "create",
            "namespaces",
            body={
                **objects.namespace(ns),
                "metadata": {**objects.namespace(ns)["metadata"], "creationTimestamp": created},
            },
            handed_over=True,
        )
    _platform(env, user, created)
    lb = env.store.raw("services", "ingress-nginx", "ingress-nginx-controller")
    if lb is not None:
        lb["status"] = {"loadBalancer": {"ingress": [{"ip": "203.0.113.10"}]}}
    env.notes["ingress_ip"] = "203.0.113.10"


def _cluster_classes(api: Any, user: str, created: str) -> None:
    """The default StorageClass and IngressClass, and a ready ClusterIssuer."""
    api.request(
        user,
        "create",
        "storageclasses",
        body={
            "kind": "StorageClass",
            "metadata": {
                "name": "gp3",
                "creationTimestamp": created,
                "annotations": {"storageclass.kubernetes.io/is-default-class": "true"},
            },
            "provisioner": "ebs.csi.aws.com",
            "reclaimPolicy": "Delete",
            "volumeBindingMode": "Immediate",
            "allowVolumeExpansion": True,
        },
        handed_over=True,
    )
    api.request(
        user,
        "create",
        "ingressclasses",
        body={
            "kind": "IngressClass",
            "metadata": {
                "name": "nginx",
                "creationTimestamp": created,
                "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"},
            },
            "spec": {"controller": "k8s.io/ingress-nginx"},
        },
        handed_over=True,
    )
    api.request(
        user,
        "create",
        "clusterissuers",
        body={
            "kind": "ClusterIssuer",
            "metadata": {"name": "letsencrypt-prod", "creationTimestamp": created},
            "spec": {
                "acme": {
                    "server": "https://acme-v02.api.letsencrypt.org/directory",
                    "privateKeySecretRef": {"name": "letsencrypt-prod"},
                    "solvers": [{"http01": {"ingress": {"class": "nginx"}}}],
                }
            },
            "status": {
                "conditions": [
                    {"type": "Ready", "status": "True", "reason": "ACMEAccountRegistered"}
                ]
            },
        },
        handed_over=True,
    )


def _platform(env: Any, user: str, created: str) -> None:
    """The platform namespaces (zone ``PLATFORM_ZONE``) with their deployments and services."""
    api = env.api
    for ns, deployments in PLATFORM.items():
        env.system_namespaces.add(ns)
        body = objects.namespace(ns, {objects.ZONE_LABEL: PLATFORM_ZONE})
        body["metadata"]["creationTimestamp"] = created
        api.request(user, "create", "namespaces", body=body, handed_over=True)
        for name, replicas, image, port in deployments:
            env.registry.add(image)
            container = default_container(name, image)
            container["ports"] = [{"name": "http", "containerPort": port, "protocol": "TCP"}]
            dep = deployment_object(
                name,
                ns,
                replicas,
                {"containers": [container]},
                {"app.kubernetes.io/name": name, "app": name},
            )
            dep["metadata"]["creationTimestamp"] = created
            env.facts[("deployments", ns, name)] = {"rs_ago": 30 * 86400, "restarts": 0}
            api.request(user, "create", "deployments", ns, body=dep, handed_over=True)
            svc = objects.service(
                name,
                ns,
                {"app": name},
                objects.port_list([{"port": port, "targetPort": port}]),
                "LoadBalancer" if name == "ingress-nginx-controller" else "ClusterIP",
            )
            svc["metadata"]["creationTimestamp"] = created
            api.request(user, "create", "services", ns, body=svc, handed_over=True)


def tier_evidence(env: Any) -> dict[str, Any]:
    zones = sorted(
        {
            zone
            for n in env.store.iter("namespaces")
            if (zone := (n["metadata"].get("labels") or {}).get(objects.ZONE_LABEL)) is not None
        }
    )
    ready_nodes = [
        n["metadata"]["name"]
        for n in env.store.iter("nodes")
        if any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"]["conditions"])
    ]

    def present(ns: str, name: str) -> bool:
        return env.store.exists("deployments", ns, name)

    workload_ns = sorted(
        n["metadata"]["name"]
        for n in env.store.iter("namespaces")
        if n["metadata"]["name"] not in env.system_namespaces
        and n["metadata"]["name"] not in ("kube-public", "kube-node-lease")
    )
    return {
        "complexity_tier": 1,
        "nodes": len(ready_nodes),
        "security_zones": len(zones),
        "zones": zones,
        "zone_label": objects.ZONE_LABEL,
        "workload_namespaces": workload_ns,
        "gitops_controller": "argocd"
        if present("argocd", "argocd-application-controller")
        else None,
        "ingress_controller": "ingress-nginx"
        if present("ingress-nginx", "ingress-nginx-controller")
        else None,
        "certificate_management": "cert-manager"
        if present("cert-manager", "cert-manager")
        else None,
        "metrics": "prometheus" if present("monitoring", "prometheus-server") else None,
        "dashboards": "grafana" if present("monitoring", "grafana") else None,
        "network_policy_enforcement": True,
        "audit_policy": "all requests (RequestResponse for writes, Metadata for reads)",
        "simulated": True,
    }
