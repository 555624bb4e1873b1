"""``kubectl create``: objects from ``-f`` and the generators (``create deployment``,
``create secret generic`` ...)."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any

from ...cluster.store import KINDS, clone, namespaced
from .args import Parsed, UsageError, require_args, resolve_type
from .session import Inv, api_error
from .targets import _doc_target, _manifests
from .writes import DRY, _emit, dry_mode


# ---- create -----------------------------------------------------------------------------------------
def _literals(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        k, eq, val = str(v).partition("=")
        if not eq or not k:
            raise UsageError(f"error: invalid literal source {v}, expected key=value")
        out[k] = val
    return out


def _subjects(inv: Inv) -> list[dict[str, Any]]:
    subs = []
    for u in inv.p.all("user"):
        subs.append({"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": u})
    for g in inv.p.all("group"):
        subs.append({"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": g})
    for sa in inv.p.all("serviceaccount"):
        ns, sep, name = str(sa).partition(":")
        if not sep or not ns or not name:
            raise UsageError("error: serviceaccount must be <namespace>:<name>")
        subs.append({"kind": "ServiceAccount", "name": name, "namespace": ns})
    return subs


def _rules(inv: Inv) -> list[dict[str, Any]]:
    verbs = [v for x in inv.p.all("verb") for v in str(x).split(",") if v]
    resources = [r for x in inv.p.all("resource") for r in str(x).split(",") if r]
    names = [n for x in inv.p.all("resource-name") for n in str(x).split(",") if n]
    if not verbs:
        raise UsageError("error: at least one verb must be specified")
    if not resources and not inv.p.all("non-resource-url"):
        raise UsageError("error: at least one resource must be specified")
    by_group: dict[str, list[str]] = {}
    for r in resources:
        base, _, sub = r.partition("/")
        plural = resolve_type(base.split(".")[0]) if base != "*" else "*"
        if plural is None:
            raise UsageError(f'error: the server doesn\'t have a resource type "{base}"')
        group = ""
        if "." in base:
            group = base.split(".", 1)[1]
        elif plural in KINDS and "/" in KINDS[plural][1]:
            group = KINDS[plural][1].split("/", 1)[0]
        by_group.setdefault(group, []).append(plural + (f"/{sub}" if sub else ""))
    rules = []
    for group, res in by_group.items():
        rule: dict[str, Any] = {"apiGroups": [group], "resources": res, "verbs": verbs}
        if names:
            rule["resourceNames"] = names
        rules.append(rule)
    if inv.p.all("non-resource-url"):
        rules.append({"nonResourceURLs": list(inv.p.all("non-resource-url")), "verbs": verbs})
    return rules


def _container_name(image: str) -> str:
    base = image.rsplit("/", 1)[-1].split("@", 1)[0].split(":", 1)[0]
    return re.sub(r"[^a-z0-9-]", "-", base.lower()).strip("-") or "container"


def _no_files(p: Parsed) -> None:
    """``--from-file`` / ``--from-env-file``: this session has no local files to read."""
    if p.all("from-file") or p.all("from-env-file"):
        path = (p.all("from-file") or p.all("from-env-file"))[0]
        raise UsageError(
            f"error: error reading {str(path).split('=')[-1]}: no such file or directory"
        )


def _second_name(p: Parsed) -> str:
    """``create secret TYPE NAME`` / ``create service TYPE NAME``: the NAME after the type."""
    return p.args[2] if len(p.args) > 2 else ""


def _gen_namespace(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    return "namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


def _gen_configmap(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    _no_files(inv.p)
    return "configmaps", {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name},
        "data": _literals(inv.p.all("from-literal")),
    }


def _docker_config(p: Parsed) -> dict[str, Any]:
    auth = base64.b64encode(
        f"{p.get('docker-username', '')}:{p.get('docker-password', '')}".encode()
    ).decode()
    return {
        "auths": {
            p.get("docker-server") or "https://index.docker.io/v1/": {
                "username": p.get("docker-username"),
                "password": p.get("docker-password"),
                "auth": auth,
            }
        }
    }


def _gen_secret(inv: Inv, sub: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    name = _second_name(p)
    if not name:
        raise UsageError("error: NAME is required")
    if sub == "generic":
        _no_files(p)
        payload = {
            k: base64.b64encode(v.encode()).decode()
            for k, v in _literals(p.all("from-literal")).items()
        }
        stype = p.get("type") or "Opaque"
    elif sub == "docker-registry":
        cfg = json.dumps(_docker_config(p)).encode()
        payload = {".dockerconfigjson": base64.b64encode(cfg).decode()}
        stype = "kubernetes.io/dockerconfigjson"
    elif sub == "tls":
        raise UsageError(f"error: open {p.get('cert') or 'tls.crt'}: no such file or directory")
    else:
        raise UsageError(f'error: unknown command "{sub}" for "kubectl create secret"')
    return "secrets", {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name},
        "type": stype,
        "data": payload,
    }


def _gen_serviceaccount(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    return "serviceaccounts", {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": name},
    }


def _gen_deployment(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    images = p.all("image")
    if not images:
        raise UsageError('error: required flag(s) "image" not set')
    containers = [{"name": _container_name(img), "image": img, "resources": {}} for img in images]
    if p.after_dash:
        containers[0]["command"] = list(p.after_dash)
    if p.get("port"):
        containers[0]["ports"] = [{"containerPort": int(p.get("port"))}]
    labels = {"app": name}
    return "deployments", {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "replicas": int(p.get("replicas") or 1),
            "selector": {"matchLabels": labels},
            "strategy": {},
            "template": {"metadata": {"labels": labels}, "spec": {"containers": containers}},
        },
    }


def _gen_job(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    images = p.all("image")
    if not images:
        raise UsageError("error: either --image or --from must be specified")
    c = {"name": name, "image": images[0], "resources": {}}
    if p.after_dash:
        c["command"] = list(p.after_dash)
    return "jobs", {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name},
        "spec": {
            "template": {"metadata": {}, "spec": {"containers": [c], "restartPolicy": "Never"}}
        },
    }


def _gen_role(inv: Inv, name: str, cluster: bool = False) -> tuple[str, dict[str, Any]]:
    return ("clusterroles" if cluster else "roles"), {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole" if cluster else "Role",
        "metadata": {"name": name},
        "rules": _rules(inv),
    }


def _gen_binding(inv: Inv, name: str, cluster: bool = False) -> tuple[str, dict[str, Any]]:
    p = inv.p
    if p.get("role") and p.get("clusterrole"):
        raise UsageError("error: exactly one of clusterrole or role must be specified")
    if cluster and p.get("role"):
        raise UsageError("error: unknown flag: --role")
    ref_kind = "ClusterRole" if p.get("clusterrole") else "Role"
    ref_name = p.get("clusterrole") or p.get("role")
    if not ref_name:
        raise UsageError("error: exactly one of clusterrole or role must be specified")
    return ("clusterrolebindings" if cluster else "rolebindings"), {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding" if cluster else "RoleBinding",
        "metadata": {"name": name},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": ref_kind, "name": ref_name},
        "subjects": _subjects(inv),
    }


def _int_or_percent(value: Any) -> int | str:
    v = str(value)
    return int(v) if v.isdigit() else v


def _gen_pdb(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    if not p.get("selector"):
        raise UsageError("error: a selector must be specified")
    pairs = (kv.split("=", 1) for kv in str(p.get("selector")).split(",") if "=" in kv)
    spec: dict[str, Any] = {"selector": {"matchLabels": dict(pairs)}}
    if p.get("min-available") is not None:
        spec["minAvailable"] = _int_or_percent(p.get("min-available"))
    elif p.get("max-unavailable") is not None:
        spec["maxUnavailable"] = _int_or_percent(p.get("max-unavailable"))
    else:
        spec["minAvailable"] = 1
    return "poddisruptionbudgets", {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name},
        "spec": spec,
    }


_SERVICE_TYPES = {
    "clusterip": "ClusterIP",
    "nodeport": "NodePort",
    "loadbalancer": "LoadBalancer",
    "externalname": "ExternalName",
}


def _gen_service(inv: Inv, stype: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    name = _second_name(p)
    if stype not in _SERVICE_TYPES or not name:
        raise UsageError(
            "error: NAME is required"
            if stype in _SERVICE_TYPES
            else f'error: unknown command "{stype}" for "kubectl create service"'
        )
    ports = []
    for t in p.all("tcp"):
        port, _, target = str(t).partition(":")
        ports.append(
            {
                "name": f"{port}-{target or port}",
                "port": int(port),
                "protocol": "TCP",
                "targetPort": int(target or port),
            }
        )
    return "services", {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {"type": _SERVICE_TYPES[stype], "selector": {"app": name}, "ports": ports},
    }


def _gen_token(inv: Inv, name: str) -> tuple[str, dict[str, Any]]:
    raise UsageError(
        f'Error from server (Forbidden): serviceaccounts "{name}" is forbidden: User "{inv.user}" '
        f'cannot create resource "serviceaccounts/token" in API group "" in the namespace "{inv.ns}"'
    )


#: ``kubectl create WHAT NAME``: the generator of each WHAT (aliases included)
_GENERATORS: dict[str, Callable[[Inv, str], tuple[str, dict[str, Any]]]] = {
    "namespace": _gen_namespace,
    "ns": _gen_namespace,
    "configmap": _gen_configmap,
    "cm": _gen_configmap,
    "secret": _gen_secret,
    "serviceaccount": _gen_serviceaccount,
    "sa": _gen_serviceaccount,
    "deployment": _gen_deployment,
    "deploy": _gen_deployment,
    "job": _gen_job,
    "role": _gen_role,
    "clusterrole": lambda inv, name: _gen_role(inv, name, cluster=True),
    "rolebinding": _gen_binding,
    "clusterrolebinding": lambda inv, name: _gen_binding(inv, name, cluster=True),
    "poddisruptionbudget": _gen_pdb,
    "pdb": _gen_pdb,
    "service": _gen_service,
    "svc": _gen_service,
    "token": _gen_token,
}


def build_create(inv: Inv, what: str, name: str) -> tuple[str, dict[str, Any]]:
    """The object ``kubectl create WHAT NAME [flags]`` generates, and its resource."""
    gen = _GENERATORS.get(what)
    if gen is None:
        raise UsageError(f'error: unknown command "{what}" for "kubectl create"')
    return gen(inv, name)


def cmd_create(inv: Inv) -> None:
    """``kubectl create -f`` or ``kubectl create WHAT NAME``: one POST per object."""
    p = inv.p
    mode = dry_mode(inv)
    if p.has("filename"):
        for doc in _manifests(inv):
            plural, ns, _name = _doc_target(inv, doc)
            body = clone(doc)
            if ns:
                body.setdefault("metadata", {})["namespace"] = ns
            _create_one(inv, plural, ns, body, mode)
        return
    require_args(
        p, "error: must specify one of -f and -k\n\nSee 'kubectl create -h' for help and examples"
    )
    what = p.args[0].lower()
    if len(p.args) < 2:
        raise UsageError(
            "error: exactly one NAME is required, got 0\nSee 'kubectl create "
            f"{what} -h' for help and examples"
        )
    plural, body = build_create(inv, what, p.args[1])
    ns = inv.ns if namespaced(plural) else None
    if ns:
        body["metadata"]["namespace"] = ns
    _create_one(inv, plural, ns, body, mode)


def _create_one(
    inv: Inv, plural: str, ns: str | None, body: dict[str, Any], mode: str | None
) -> None:
    name = body["metadata"].get("name", "")
    if mode == "client":
        inv.api("get", plural, ns, name)
        _emit(inv, plural, body, "created", mode)
        return
    res = inv.api("create", plural, ns, body=body, params=DRY if mode else None)
    if not res.ok:
        if res.code == 409:
            inv.error(
                f"Error from server (AlreadyExists): {res.body.get('message')}"
                if not inv.p.has("filename")
                else f'Error from server (AlreadyExists): error when creating "STDIN": {res.body.get("message")}'
            )
        else:
            inv.error(api_error(res))
        return
    _emit(inv, plural, res.body, "created", mode)
