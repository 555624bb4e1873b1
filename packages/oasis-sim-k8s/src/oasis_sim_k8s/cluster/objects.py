"""Builders and server-side defaults for the non-workload kinds (SI provider guide
§1.1, §1.3, §1.5-§1.7): Namespace, ConfigMap, Secret, Service, Ingress, PVC (+ the
PV the provisioner binds), PDB, HPA, ResourceQuota and the RBAC kinds.

Secret ``data`` is kept exactly as declared when it is valid base64 of UTF-8
text (the scenario convention: values are already encoded); a value that is not
valid base64 is encoded once. It is never encoded twice. ``stringData`` is
encoded into ``data`` as the API server does.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from .store import clone

ZONE_LABEL = "oasis.zone"
RBAC_GROUP = "rbac.authorization.k8s.io"
#: API group of each resource, for Role rules declared without apiGroups
GROUP_OF = {
    "deployments": "apps",
    "replicasets": "apps",
    "statefulsets": "apps",
    "daemonsets": "apps",
    "deployments/scale": "apps",
    "jobs": "batch",
    "cronjobs": "batch",
    "ingresses": "networking.k8s.io",
    "networkpolicies": "networking.k8s.io",
    "horizontalpodautoscalers": "autoscaling",
    "poddisruptionbudgets": "policy",
    "roles": RBAC_GROUP,
    "rolebindings": RBAC_GROUP,
    "clusterroles": RBAC_GROUP,
    "clusterrolebindings": RBAC_GROUP,
    "applications": "argoproj.io",
}


def is_base64_text(value: str) -> bool:
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    if not value or len(value) % 4:
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def secret_data(values: dict[str, Any]) -> dict[str, str]:
    """Declared ``data`` -> stored ``data`` (see the module docstring)."""
    out = {}
    for key, value in values.items():
        text = "" if value is None else str(value)
        out[str(key)] = text if is_base64_text(text) else base64.b64encode(text.encode()).decode()
    return out


def namespace(
    name: str, labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None
) -> dict[str, Any]:
    return {
        "kind": "Namespace",
        "metadata": {
            "name": name,
            "labels": {**(labels or {}), "kubernetes.io/metadata.name": name},
            "annotations": dict(annotations or {}),
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def service(
    name: str,
    ns: str,
    selector: dict[str, str] | None,
    ports: list[dict[str, Any]],
    svc_type: str = "ClusterIP",
) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "type": svc_type,
        "ports": ports,
        "sessionAffinity": "None",
        "internalTrafficPolicy": "Cluster",
        "ipFamilies": ["IPv4"],
        "ipFamilyPolicy": "SingleStack",
    }
    if selector:
        spec["selector"] = dict(selector)
    return {
        "kind": "Service",
        "metadata": {"name": name, "namespace": ns, "labels": {}},
        "spec": spec,
    }


def port_list(value: Any, default_target: int = 8080) -> list[dict[str, Any]]:
    """``8080`` / ``[{port: 80, targetPort: 8080}]`` -> Service ports."""
    items = value if isinstance(value, list) else [value]
    out = []
    for i, p in enumerate(items):
        if isinstance(p, dict):
            port = int(p.get("port", default_target))
            entry = {
                "name": p.get("name", "http" if i == 0 else f"port-{i}"),
                "port": port,
                "protocol": p.get("protocol", "TCP"),
                "targetPort": p.get("targetPort", p.get("target_port", port)),
            }
        else:
            entry = {
                "name": "http" if i == 0 else f"port-{i}",
                "port": int(p),
                "protocol": "TCP",
                "targetPort": int(p),
            }
        out.append(entry)
    return out


def ingress(
    name: str,
    ns: str,
    host: str,
    backend: str,
    port: int,
    ingress_class: str = "nginx",
    tls: bool = True,
) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "ingressClassName": ingress_class,
        "rules": [
            {
                "host": host,
                "http": {
                    "paths": [
                        {
                            "path": "/",
                            "pathType": "Prefix",
                            "backend": {"service": {"name": backend, "port": {"number": port}}},
                        }
                    ]
                },
            }
        ],
    }
    ann = {}
    if tls:
        spec["tls"] = [{"hosts": [host], "secretName": f"{name}-tls"}]
        ann["cert-manager.io/cluster-issuer"] = "letsencrypt-prod"
    return {
        "kind": "Ingress",
        "metadata": {"name": name, "namespace": ns, "annotations": ann},
        "spec": spec,
    }


def pvc(
    name: str, ns: str, storage: str, storage_class: str = "gp3", access: list[str] | None = None
) -> dict[str, Any]:
    return {
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "accessModes": access or ["ReadWriteOnce"],
            "storageClassName": storage_class,
            "volumeMode": "Filesystem",
            "resources": {"requests": {"storage": storage}},
        },
    }


def hpa(name: str, ns: str, target: str, lo: int, hi: int, cpu: int = 70) -> dict[str, Any]:
    return {
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": target},
            "minReplicas": lo,
            "maxReplicas": hi,
            "metrics": [
                {
                    "type": "Resource",
                    "resource": {
                        "name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": cpu},
                    },
                }
            ],
        },
    }


def pdb(
    name: str,
    ns: str,
    selector: dict[str, str],
    min_available: Any = None,
    max_unavailable: Any = None,
) -> dict[str, Any]:
    spec: dict[str, Any] = {"selector": {"matchLabels": dict(selector)}}
    if max_unavailable is not None:
        spec["maxUnavailable"] = max_unavailable
    else:
        spec["minAvailable"] = min_available if min_available is not None else 1
    return {
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": spec,
    }


def rules(declared: list[Any]) -> list[dict[str, Any]]:
    """Role rules; ``apiGroups`` inferred from the resources when not given."""
    out = []
    for rule in declared or []:
        if not isinstance(rule, dict):
            raise TypeError(f"rule must be a mapping, got {rule!r}")
        r = {
            k: clone(v)
            for k, v in rule.items()
            if k in ("apiGroups", "resources", "verbs", "resourceNames", "nonResourceURLs")
        }
        r.setdefault("verbs", [])
        if "apiGroups" not in r and "nonResourceURLs" not in r:
            r["apiGroups"] = sorted({GROUP_OF.get(res, "") for res in r.get("resources") or []})
        out.append(r)
    return out


def subject(value: Any, default_ns: str | None) -> dict[str, Any]:
    """``serviceaccount/x`` / ``user:alice`` / ``group:ops`` / ``{kind, name, namespace}``."""
    if isinstance(value, dict):
        out = {k: v for k, v in value.items() if k in ("kind", "name", "namespace", "apiGroup")}
        if out.get("kind") == "ServiceAccount":
            out.setdefault("namespace", default_ns or "default")
        elif out.get("kind") in ("User", "Group"):
            out.setdefault("apiGroup", RBAC_GROUP)
        return out
    text = str(value)
    kind, sep, name = text.partition("/") if "/" in text else text.partition(":")
    kind = kind.lower()
    if sep and kind in ("serviceaccount", "sa"):
        return {"kind": "ServiceAccount", "name": name, "namespace": default_ns or "default"}
    if sep and kind == "user":
        return {"kind": "User", "apiGroup": RBAC_GROUP, "name": name}
    if sep and kind == "group":
        return {"kind": "Group", "apiGroup": RBAC_GROUP, "name": name}
    if text.startswith("system:serviceaccount:"):
        ns, _, sa = text[len("system:serviceaccount:") :].partition(":")
        return {"kind": "ServiceAccount", "name": sa, "namespace": ns}
    raise ValueError(f"cannot read subject {value!r}")


def role_ref(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return {
            "apiGroup": RBAC_GROUP,
            "kind": value.get("kind", "Role"),
            "name": value.get("name"),
        }
    kind, _, name = str(value).partition("/")
    if not name:
        raise ValueError(f"role_ref must be role/<name> or clusterrole/<name>, got {value!r}")
    return {
        "apiGroup": RBAC_GROUP,
        "kind": "ClusterRole" if kind.lower() == "clusterrole" else "Role",
        "name": name,
    }


def defaults(env: Any, plural: str, obj: dict[str, Any]) -> None:
    """Server-side defaulting and the controllers' immediate effects on create."""
    meta = obj.setdefault("metadata", {})
    meta.setdefault("labels", {})
    if plural == "namespaces":
        meta["labels"]["kubernetes.io/metadata.name"] = meta["name"]
        obj.setdefault("spec", {"finalizers": ["kubernetes"]})
        obj["status"] = {"phase": "Active"}
    elif plural == "services":
        spec = obj.setdefault("spec", {})
        spec.setdefault("type", "ClusterIP")
        if spec.get("clusterIP") in (None, ""):
            h = int(env.ids_for(f"svc:{meta.get('namespace')}/{meta['name']}")[:6], 16)
            spec["clusterIP"] = f"10.96.{h % 250 + 1}.{(h >> 8) % 250 + 2}"
            spec["clusterIPs"] = [spec["clusterIP"]]
        for p in spec.get("ports") or []:
            p.setdefault("protocol", "TCP")
            p.setdefault("targetPort", p.get("port"))
        obj["status"] = {"loadBalancer": {}}
    elif plural == "secrets":
        obj.setdefault("type", "Opaque")
        if obj.get("stringData"):
            data = obj.setdefault("data", {})
            data.update(
                {
                    k: base64.b64encode(str(v).encode()).decode()
                    for k, v in obj.pop("stringData").items()
                }
            )
    elif plural == "persistentvolumeclaims":
        _bind(env, obj)
    elif plural == "deployments":
        spec = obj.setdefault("spec", {})
        spec.setdefault("replicas", 1)
        spec.setdefault("revisionHistoryLimit", 10)
        spec.setdefault("progressDeadlineSeconds", 600)
        spec.setdefault(
            "strategy",
            {
                "type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"},
            },
        )
        obj.setdefault("status", {})
    elif plural == "pods":
        obj["spec"].setdefault("restartPolicy", "Always")
        obj.setdefault("status", {"phase": "Pending"})
    elif plural == "ingresses":
        obj["status"] = {
            "loadBalancer": {"ingress": [{"ip": env.notes.get("ingress_ip", "203.0.113.10")}]}
        }


def _bind(env: Any, claim: dict[str, Any], bound: bool = True) -> None:
    meta, spec = claim["metadata"], claim.setdefault("spec", {})
    storage = ((spec.get("resources") or {}).get("requests") or {}).get("storage", "1Gi")
    if not bound:
        claim["status"] = {"phase": "Pending"}
        return
    volume = f"pvc-{env.ids.uid()}"
    spec["volumeName"] = volume
    claim["status"] = {
        "phase": "Bound",
        # its own list: the API server stores a created claim as it is (no copy, issue 30)
        "accessModes": list(spec.get("accessModes", ["ReadWriteOnce"])),
        "capacity": {"storage": storage},
    }
    meta.setdefault("annotations", {}).update(
        {
            "pv.kubernetes.io/bind-completed": "yes",
            "pv.kubernetes.io/bound-by-controller": "yes",
            "volume.kubernetes.io/storage-provisioner": "ebs.csi.aws.com",
        }
    )
    env.store.create(
        {
            "kind": "PersistentVolume",
            "metadata": {
                "name": volume,
                "annotations": {"pv.kubernetes.io/provisioned-by": "ebs.csi.aws.com"},
            },
            "spec": {
                "capacity": {"storage": storage},
                "accessModes": spec.get("accessModes", ["ReadWriteOnce"]),
                "persistentVolumeReclaimPolicy": "Delete",
                "storageClassName": spec.get("storageClassName", "gp3"),
                "claimRef": {
                    "kind": "PersistentVolumeClaim",
                    "namespace": meta.get("namespace"),
                    "name": meta["name"],
                },
                "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": f"vol-{env.ids.hex(17)}"},
            },
            "status": {"phase": "Bound"},
        }
    )


def unbound(env: Any, claim: dict[str, Any]) -> None:
    _bind(env, claim, bound=False)
