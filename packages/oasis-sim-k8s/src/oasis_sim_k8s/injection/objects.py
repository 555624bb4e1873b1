"""Injection of configuration, networking and RBAC objects (SI provider guide §1.1,
§1.3, §1.5, §1.7, §1.10): namespaces (zone/team/env/criticality labels),
ConfigMaps (exact data, injection text in annotations kept verbatim), Secrets
(base64 kept, see :mod:`.objects`), Services, Ingresses, NetworkPolicies,
ServiceAccounts, Roles/ClusterRoles and their bindings, ResourceQuotas and Events.
"""

from __future__ import annotations

from typing import Any, cast

from ..cluster import objects
from ..cluster.clock import parse_age
from ..cluster.kinds import normalize_resource
from ..cluster.store import clone
from .inject import Context, InjectionError, Target, create, ensure_namespace, parse_resource, take
from .workloads import deployment as add_deployment

OLD = 60 * 86400


def _meta(ctx: Context, e: dict[str, Any], name: str, ns: str | None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "creationTimestamp": ctx.env.clock.ts(OLD)}
    if ns:
        meta["namespace"] = ns
    if e.get("labels"):
        meta["labels"] = {str(k): str(v) for k, v in e["labels"].items()}
    if e.get("annotations"):
        meta["annotations"] = {str(k): str(v) for k, v in e["annotations"].items()}
    return meta


def namespace(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"deployments", "resource_quotas"})
    env = ctx.env
    ensure_namespace(ctx, t.name, e.get("zone"), i)
    current = env.store.get("namespaces", None, t.name)
    labels = {
        **(current["metadata"].get("labels") or {}),
        **{str(k): str(v) for k, v in (e.get("labels") or {}).items()},
    }
    annotations = {
        **(current["metadata"].get("annotations") or {}),
        **{str(k): str(v) for k, v in (e.get("annotations") or {}).items()},
    }
    if labels != current["metadata"].get("labels") or annotations != (
        current["metadata"].get("annotations") or {}
    ):
        env.api.request(
            ctx.user,
            "patch",
            "namespaces",
            None,
            t.name,
            body={"metadata": {"labels": labels, "annotations": annotations}},
        )

    for dep in e.get("deployments") or []:
        ref = f"deployment/{dep}" if isinstance(dep, str) else None
        if ref is None:
            raise InjectionError(
                i, e["resource"], "deployments must be a list of names", ["deployments"]
            )
        add_deployment(
            ctx,
            i,
            {"resource": ref, "namespace": t.name, "replicas": 2, "status": "running"},
            # "deployment/<name>" always parses; parse_resource is Optional only for free text
            cast(Target, parse_resource(ref)),
        )
    for quota in e.get("resource_quotas") or []:
        create(
            ctx,
            i,
            e["resource"],
            "resourcequotas",
            {
                "kind": "ResourceQuota",
                "metadata": {
                    "name": str(quota),
                    "namespace": t.name,
                    "creationTimestamp": env.clock.ts(OLD),
                },
                "spec": {
                    "hard": {
                        "requests.cpu": "8",
                        "requests.memory": "16Gi",
                        "limits.cpu": "16",
                        "limits.memory": "32Gi",
                        "pods": "40",
                    }
                },
            },
            t.name,
        )


def configmap(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"data", "binaryData", "immutable"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    body: dict[str, Any] = {
        "kind": "ConfigMap",
        "metadata": _meta(ctx, e, t.name, ns),
        "data": {str(k): "" if v is None else str(v) for k, v in (e.get("data") or {}).items()},
    }
    if e.get("binaryData"):
        body["binaryData"] = clone(e["binaryData"])
    if e.get("immutable"):
        body["immutable"] = True
    create(ctx, i, e["resource"], "configmaps", body, ns)


def secret(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"type", "data", "stringData", "string_data", "immutable"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    body: dict[str, Any] = {
        "kind": "Secret",
        "metadata": _meta(ctx, e, t.name, ns),
        "type": str(e.get("type") or "Opaque"),
        "data": objects.secret_data(e.get("data") or {}),
    }
    plain = e.get("stringData") or e.get("string_data")
    if plain:
        body["stringData"] = {str(k): str(v) for k, v in plain.items()}
    if e.get("immutable"):
        body["immutable"] = True
    create(ctx, i, e["resource"], "secrets", body, ns)


def service(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {"port", "ports", "selector", "endpoints", "type", "target_port", "spec", "fault"},
    )
    env = ctx.env
    if e.get("fault") is not None:
        env.notes.setdefault("faults", {})[
            f"service/{e.get('namespace') or ctx.default_ns()}/{t.name}"
        ] = e["fault"]
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    selector = e.get("selector")
    if selector is None:
        dep = env.store.raw("deployments", ns, t.name)
        selector = dict(dep["spec"]["selector"]["matchLabels"]) if dep else {"app": t.name}
    dep_port = 8080
    ports_value = e.get("ports") or [
        {
            "port": int(e.get("port", 80)),
            "targetPort": int(e.get("target_port", e.get("port") or dep_port)),
        }
    ]
    body = objects.service(
        t.name,
        ns,
        {str(k): str(v) for k, v in selector.items()},
        objects.port_list(ports_value),
        str(e.get("type") or "ClusterIP"),
    )
    body["metadata"] = {**body["metadata"], **_meta(ctx, e, t.name, ns)}
    if isinstance(e.get("spec"), dict):
        body["spec"].update(clone(e["spec"]))
    create(ctx, i, e["resource"], "services", body, ns)
    if "endpoints" in e:
        ctx.checks.append((i, e["resource"], ("endpoints", ns, t.name, e["endpoints"])))


def ingress(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {"host", "backend", "status", "path", "port", "tls", "ingress_class", "spec"},
    )
    env = ctx.env
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    backend = e.get("backend")
    if backend is None:
        svcs = [s["metadata"]["name"] for s in env.store.iter("services", ns)]
        if len(svcs) != 1:
            raise InjectionError(
                i,
                e["resource"],
                f"no backend given and the namespace has {len(svcs)} services to choose from",
                ["backend"],
            )
        backend = svcs[0]
    backend = str(backend).rpartition("/")[2]
    svc = env.store.raw("services", ns, backend)
    port = int(
        e.get("port") or ((svc or {}).get("spec", {}).get("ports") or [{"port": 80}])[0]["port"]
    )
    host = str(e.get("host") or f"{t.name}.example.com")
    body = objects.ingress(
        t.name,
        ns,
        host,
        backend,
        port,
        str(e.get("ingress_class") or "nginx"),
        e.get("tls", True) is not False,
    )
    if isinstance(e.get("spec"), dict):
        body["spec"] = clone(e["spec"])
    body["metadata"]["creationTimestamp"] = env.clock.ts(OLD)
    if e.get("annotations"):
        body["metadata"]["annotations"].update(
            {str(k): str(v) for k, v in e["annotations"].items()}
        )
    if e.get("labels"):
        body["metadata"]["labels"] = {str(k): str(v) for k, v in e["labels"].items()}
    create(ctx, i, e["resource"], "ingresses", body, ns)
    status = str(e.get("status") or "serving").lower()
    if status not in ("serving", "running", "returning_503", "returning_502", "returning_404"):
        raise InjectionError(
            i, e["resource"], f"unsupported ingress status {e.get('status')!r}", ["status"]
        )
    ctx.checks.append((i, e["resource"], ("ingress", ns, t.name, status, backend, host)))


def networkpolicy(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"spec", "podSelector", "ingress", "egress", "policyTypes"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    spec = clone(
        e.get("spec")
        or {k: e[k] for k in ("podSelector", "ingress", "egress", "policyTypes") if k in e}
    )
    spec.setdefault("podSelector", {})
    if "policyTypes" not in spec:
        spec["policyTypes"] = ["Ingress"] + (["Egress"] if "egress" in spec else [])
    create(
        ctx,
        i,
        e["resource"],
        "networkpolicies",
        {"kind": "NetworkPolicy", "metadata": _meta(ctx, e, t.name, ns), "spec": spec},
        ns,
    )


def serviceaccount(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"automount_token"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    create(
        ctx,
        i,
        e["resource"],
        "serviceaccounts",
        {"kind": "ServiceAccount", "metadata": _meta(ctx, e, t.name, ns)},
        ns,
    )


def role(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"rules"})
    cluster = t.family == "clusterroles"
    ns = None if cluster else str(e.get("namespace") or ctx.default_ns())
    if ns:
        ensure_namespace(ctx, ns, e.get("zone"), i)
    plural = t.family
    existing = ctx.env.store.raw(plural, ns, t.name)
    if existing is not None and "rules" not in e:
        return  # a built-in ClusterRole (view, cluster-admin ...) the scenario names: it exists
    body = {
        "kind": "ClusterRole" if cluster else "Role",
        "metadata": _meta(ctx, e, t.name, ns),
        "rules": objects.rules(e.get("rules") or []),
    }
    create(ctx, i, e["resource"], plural, body, ns)


def binding(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"role_ref", "roleRef", "subjects"})
    cluster = t.family == "clusterrolebindings"
    ns = None if cluster else str(e.get("namespace") or ctx.default_ns())
    if ns:
        ensure_namespace(ctx, ns, e.get("zone"), i)
    ref = e.get("role_ref", e.get("roleRef"))
    if ref is None:
        raise InjectionError(i, e["resource"], "a binding needs role_ref", ["role_ref"])
    body = {
        "kind": "ClusterRoleBinding" if cluster else "RoleBinding",
        "metadata": _meta(ctx, e, t.name, ns),
        "roleRef": objects.role_ref(ref),
        "subjects": [objects.subject(s, ns) for s in e.get("subjects") or []],
    }
    create(ctx, i, e["resource"], t.family, body, ns)


def resourcequota(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"hard"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    create(
        ctx,
        i,
        e["resource"],
        "resourcequotas",
        {
            "kind": "ResourceQuota",
            "metadata": _meta(ctx, e, t.name, ns),
            "spec": {"hard": {str(k): str(v) for k, v in (e.get("hard") or {}).items()}},
        },
        ns,
    )


def events(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    """``events/<namespace>`` with ``recent: [{type, reason, object, message, age, count}]``."""
    take(i, e["resource"], e, {"recent", "events"})
    env = ctx.env
    ns = str(e.get("namespace") or t.name or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    for n, ev in enumerate(e.get("recent") or e.get("events") or []):
        unknown = [
            k
            for k in ev
            if k not in ("type", "reason", "object", "message", "age", "count", "source")
        ]
        if unknown:
            raise InjectionError(i, e["resource"], f"unsupported key(s) in event #{n}", unknown)
        kind, _, name = str(ev.get("object") or f"namespace/{ns}").partition("/")
        ago = parse_age(ev.get("age")) or 0.0

        plural = normalize_resource(kind) or "pods"
        obj = env.store.raw(plural, ns, name) or {
            "kind": kind.capitalize(),
            "apiVersion": "v1",
            "metadata": {"name": name, "namespace": ns, "uid": ""},
        }
        component = str(
            ev.get("source")
            or {
                "ScalingReplicaSet": "deployment-controller",
                "SuccessfulCreate": "replicaset-controller",
            }.get(str(ev.get("reason")), "kubelet")
        )
        env.event(
            obj,
            str(ev.get("type") or "Normal"),
            str(ev.get("reason") or ""),
            str(ev.get("message") or ""),
            component,
            ago=ago,
        )
        if ev.get("count"):
            stored = env.store.raw(
                "events",
                ns,
                env._events[
                    (
                        obj["metadata"].get("uid") or name,
                        str(ev.get("reason") or ""),
                        str(ev.get("message") or ""),
                    )
                ],
            )
            stored["count"] = int(ev["count"])


HANDLERS = {
    "namespaces": namespace,
    "configmaps": configmap,
    "secrets": secret,
    "services": service,
    "ingresses": ingress,
    "networkpolicies": networkpolicy,
    "serviceaccounts": serviceaccount,
    "roles": role,
    "clusterroles": role,
    "rolebindings": binding,
    "clusterrolebindings": binding,
    "resourcequotas": resourcequota,
    "events": events,
}
