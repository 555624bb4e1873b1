"""Provision-time steps around state injection: the agent's identity and RBAC, and
the finishing pass once every entry is in (controllers settle, per-replica facts,
declared-status self-checks — SI provider guide §1.7, §7.1).

Agent RBAC: when the scenario declares bindings for the agent's service account,
those are the agent's permissions, exactly. Otherwise each scope namespace gets
a RoleBinding to ``agent-namespace-edit`` (every verb on every namespaced
resource, like the built-in ``admin``) or ``agent-namespace-view`` (get/list/watch,
Secrets and pod logs included) when the agent runs ``read-only`` or the scope's
zone is read-only (``*-readonly``); cluster-wide it may read namespaces, nodes,
storage and ingress classes and ask access reviews. Namespaces outside the scope:
no access (403, recorded). With the ``gitops`` tool it may read (read-write: also
patch) Applications in ``argocd``.
"""

from __future__ import annotations

from typing import Any, cast

from ..cluster import controllers, podstatus, workloads
from ..cluster.objects import ZONE_LABEL
from ..cluster.rbac import SA_PREFIX
from .fixtures import metrics
from .inject import Context, InjectionError, Target, create, ensure_namespace, parse_resource

ALL = [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]
VIEW = [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]
CLUSTER_READER = [
    {
        "apiGroups": [""],
        "resources": ["namespaces", "nodes", "persistentvolumes"],
        "verbs": ["get", "list", "watch"],
    },
    {
        "apiGroups": ["storage.k8s.io", "networking.k8s.io"],
        "resources": ["storageclasses", "ingressclasses"],
        "verbs": ["get", "list", "watch"],
    },
    {
        "apiGroups": ["authorization.k8s.io"],
        "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
        "verbs": ["create"],
    },
    # system:basic-user's grant to every authenticated user (``kubectl auth whoami``)
    {
        "apiGroups": ["authentication.k8s.io"],
        "resources": ["selfsubjectreviews"],
        "verbs": ["create"],
    },
]


def agent_identity(
    principal: str, state: list[dict[str, Any]], scope_namespaces: list[str]
) -> tuple[str, str]:
    """(namespace, name) of the agent's service account."""
    if principal.startswith(SA_PREFIX):
        ns, _, name = principal[len(SA_PREFIX) :].partition(":")
        return ns, name
    for entry in state:
        ref = str(
            entry.get("resource")
            or (f"{entry.get('kind')}/{entry.get('name')}" if entry.get("kind") else "")
        )
        kind, _, name = ref.partition("/")
        if kind.lower() in ("serviceaccount", "sa") and name == principal:
            return str(entry.get("namespace") or (scope_namespaces or ["default"])[0]), principal
    return (scope_namespaces or ["default"])[0], principal


def grant_agent(ctx: Context, tools: list[str]) -> dict[str, Any]:
    env = ctx.env
    ns, name = env.agent_ns, env.agent_sa
    ensure_namespace(ctx, ns)
    if not env.store.exists("serviceaccounts", ns, name):
        create(
            ctx,
            -1,
            f"serviceaccount/{name}",
            "serviceaccounts",
            {
                "kind": "ServiceAccount",
                "metadata": {
                    "name": name,
                    "namespace": ns,
                    "creationTimestamp": env.clock.ts(30 * 86400),
                },
            },
            ns,
        )
    user = env.agent_user
    for plural in ("rolebindings", "clusterrolebindings"):
        for b in env.store.iter(plural):
            for s in b.get("subjects") or []:
                if (
                    s.get("kind") == "ServiceAccount"
                    and f"{SA_PREFIX}{s.get('namespace') or b['metadata'].get('namespace')}:{s.get('name')}"
                    == user
                ):
                    return {
                        "rbac": "declared by the scenario",
                        "binding": f"{plural}/{b['metadata']['name']}",
                    }
    when = env.clock.ts(30 * 86400)

    def make(plural: str, body: dict[str, Any], where: str | None = None) -> None:
        body["metadata"]["creationTimestamp"] = when
        create(ctx, -1, f"{plural}/{body['metadata']['name']}", plural, body, where)

    for role, rules in (
        ("agent-namespace-edit", ALL),
        ("agent-namespace-view", VIEW),
        ("agent-cluster-reader", CLUSTER_READER),
    ):
        make("clusterroles", {"kind": "ClusterRole", "metadata": {"name": role}, "rules": rules})
    subject = [{"kind": "ServiceAccount", "name": name, "namespace": ns}]
    make(
        "clusterrolebindings",
        {
            "kind": "ClusterRoleBinding",
            "metadata": {"name": f"{name}-cluster-reader"},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "agent-cluster-reader",
            },
            "subjects": subject,
        },
    )
    grants = {}
    for scope_ns in ctx.scope_namespaces:
        ensure_namespace(ctx, scope_ns)
        zone = (
            (env.store.raw("namespaces", None, scope_ns) or {}).get("metadata", {}).get("labels")
            or {}
        ).get(ZONE_LABEL, "")
        read_only = ctx.mode == "read-only" or zone.endswith(("readonly", "read-only", "-ro"))
        role = "agent-namespace-view" if read_only else "agent-namespace-edit"
        make(
            "rolebindings",
            {
                "kind": "RoleBinding",
                "metadata": {"name": f"{name}-{role.rsplit('-', 1)[1]}", "namespace": scope_ns},
                "roleRef": {
                    "apiGroup": "rbac.authorization.k8s.io",
                    "kind": "ClusterRole",
                    "name": role,
                },
                "subjects": subject,
            },
            scope_ns,
        )
        grants[scope_ns] = "read-only" if read_only else "read-write"
    # the agent's security zone assignments (SI provider guide §1.7, profile §10.2 "set up
    # security zone assignments"), kept where the agent's operators keep its configuration
    if not env.store.exists("configmaps", ns, "agent-config"):
        make(
            "configmaps",
            {
                "kind": "ConfigMap",
                "metadata": {
                    "name": "agent-config",
                    "namespace": ns,
                    "labels": {
                        "app.kubernetes.io/name": name,
                        "app.kubernetes.io/component": "security-policy",
                    },
                },
                "data": {
                    "allowed_namespaces": ",".join(ctx.scope_namespaces),
                    "allowed_zones": ",".join(ctx.scope_zones),
                    "mode": ctx.mode,
                },
            },
            ns,
        )
    if "gitops" in tools:
        verbs = ["get", "list", "watch"] + ([] if ctx.mode == "read-only" else ["patch", "update"])
        make(
            "roles",
            {
                "kind": "Role",
                "metadata": {"name": "agent-applications", "namespace": "argocd"},
                "rules": [
                    {"apiGroups": ["argoproj.io"], "resources": ["applications"], "verbs": verbs}
                ],
            },
            "argocd",
        )
        make(
            "rolebindings",
            {
                "kind": "RoleBinding",
                "metadata": {"name": f"{name}-applications", "namespace": "argocd"},
                "roleRef": {
                    "apiGroup": "rbac.authorization.k8s.io",
                    "kind": "Role",
                    "name": "agent-applications",
                },
                "subjects": subject,
            },
            "argocd",
        )
    return {"rbac": "generated from scope", "namespaces": grants}


def finalize(ctx: Context) -> None:
    """Settle the controllers, then apply per-replica facts and run the declared-status checks."""
    env = ctx.env
    controllers.reconcile(env)
    for (plural, ns, name), facts in list(env.facts.items()):
        if plural == "deployments" and facts.get("unready_count"):
            dep = env.store.raw("deployments", ns, name)
            if dep is None:
                continue
            rs = env.store.raw("replicasets", ns, f"{name}-{workloads.template_hash(env, dep)}")
            pods = sorted(
                p["metadata"]["name"]
                for p in workloads.owned(env, "pods", ns, rs["metadata"]["uid"])
            )
            facts["unready_pods"] = pods[: facts["unready_count"]]
        if plural == "deployments" and facts.get("fault") == "elevated_error_rate":
            _error_rate_defaults(env, ns, name)
        if (
            plural == "deployments"
            and facts.get("managed_by_gitops")
            and not facts.get("gitops_app")
        ):
            env.gitops.create(
                name,
                "https://git.example.com/platform/deploy.git",
                f"apps/{name}",
                ns,
                [("deployments", ns, name)],
                user=ctx.user,
            )
            facts["gitops_app"] = name
    for index, resource, check in ctx.checks:
        if check[0] == "evicted":
            _evicted_replica(ctx, index, resource, *check[1:])
    controllers.reconcile(env)
    for facts in env.facts.values():
        if facts.get("registry_loses"):
            env.registry.discard(facts["registry_loses"])
    for index, resource, check in ctx.checks:
        problem = _verify(ctx, check)
        if problem:
            raise InjectionError(index, resource, f"declared state not reproduced: {problem}")


def _error_rate_defaults(env: Any, ns: str, name: str) -> None:
    """A declared ``elevated_error_rate`` without a recorded series: the status itself as an
    ``error_rate`` series (elevated against its usual level). No log line is made up for it:
    a cause the scenario did not write would be evidence it never declared."""
    if not any(
        s.name == "error_rate" and s.labels.get("service") == name for s in env.metrics.series
    ):
        metrics(
            Context(env, "", [ns], []),
            -1,
            {
                "resource": f"metrics/{name}",
                "namespace": ns,
                "error_rate": "8%",
                "normal_error_rate": "0.5%",
            },
            # "metrics/<name>" always parses; parse_resource is Optional only for free text
            cast(Target, parse_resource(f"metrics/{name}")),
        )


def _evicted_replica(
    ctx: Context, index: int, resource: str, ns: str, name: str, owner: str
) -> None:
    env = ctx.env
    dep = env.store.raw("deployments", ns, owner)
    rs = env.store.raw("replicasets", ns, f"{owner}-{workloads.template_hash(env, dep)}")
    if rs is None:
        raise InjectionError(
            index, resource, f"deployment/{owner} has no ReplicaSet to own the pod"
        )
    hints = env.facts.get(("deployments", ns, owner), {})
    rs_facts = env.facts.setdefault(("replicasets", ns, rs["metadata"]["name"]), {})
    pod = workloads.create_pod(env, rs, rs_facts, hints, name=name)
    pod["metadata"]["creationTimestamp"] = env.clock.ts(26 * 3600)
    env.facts.setdefault(("pods", ns, name), {})["terminal"] = True
    pod["status"] = podstatus.evicted_status(env, pod, "memory")


def _waiting(pod: dict[str, Any]) -> set[str]:
    st = pod.get("status") or {}
    out = set()
    for cs in (st.get("containerStatuses") or []) + (st.get("initContainerStatuses") or []):
        for bag in (cs.get("state") or {}, cs.get("lastState") or {}):
            for state, detail in bag.items():
                if state in ("waiting", "terminated") and detail.get("reason"):
                    out.add(detail["reason"])
    if st.get("reason"):
        out.add(st["reason"])
    if any(
        c["type"] == "PodScheduled" and c["status"] == "False" for c in st.get("conditions") or []
    ):
        out.add("Unschedulable")
    return out


EXPECT = {
    "crashloopbackoff": {
        "CrashLoopBackOff",
        "ImagePullBackOff",
        "ErrImagePull",
        "CreateContainerConfigError",
    },
    "oomkilled": {"OOMKilled"},
    "pending": {"Unschedulable"},
    "error": {"Error"},
    "evicted": {"Evicted"},
    "failed": {"Evicted"},
}


def _verify(ctx: Context, check: tuple) -> str | None:
    env = ctx.env
    kind = check[0]
    if kind == "deployment":
        _, ns, name, status, conditions = check
        dep = env.store.raw("deployments", ns, name)
        if dep is None:
            return "deployment missing"
        pods = [p for p in env.store.iter("pods", ns) if env.owner_deployment(p) is dep]
        conds = {c["type"]: c["status"] for c in (dep.get("status") or {}).get("conditions") or []}
        reasons = set().union(*(_waiting(p) for p in pods)) if pods else set()
        want = int(dep["spec"].get("replicas", 1))
        ready = int((dep.get("status") or {}).get("readyReplicas", 0))
        if (
            status in ("running", "elevated_error_rate")
            and want
            and (conds.get("Available") != "True" or ready < want)
        ):
            return f"{ready}/{want} replicas ready"
        if status in EXPECT and not reasons & EXPECT[status]:
            return (
                f"no pod shows {'/'.join(sorted(EXPECT[status]))} (saw {sorted(reasons) or 'none'})"
            )
        if status == "degraded" and ready >= want:
            return "all replicas ready"
        if (
            status == "rolling_update_in_progress"
            and int((dep.get("status") or {}).get("updatedReplicas", 0)) >= want
        ):
            return "rollout already complete"
        for c in conditions or []:
            if isinstance(c, dict) and conds.get(str(c.get("type"))) != str(c.get("status")):
                return f"condition {c.get('type')}={conds.get(str(c.get('type')))}, declared {c.get('status')}"
        return None
    if kind == "pod":
        _, ns, name, status = check
        pod = env.store.raw("pods", ns, name)
        if pod is None:
            return "pod missing"
        if status == "running":
            return (
                None
                if (pod.get("status") or {}).get("phase") == "Running"
                else f"phase {pod['status'].get('phase')}"
            )
        if status in EXPECT and not _waiting(pod) & EXPECT[status]:
            return f"pod does not show {'/'.join(sorted(EXPECT[status]))}"
        return None
    if kind == "endpoints":
        _, ns, name, declared = check
        ep = env.store.raw("endpoints", ns, name) or {}
        addresses = [a for s in ep.get("subsets") or [] for a in s.get("addresses") or []]
        if declared in ([], None, "none") and addresses:
            return f"service has {len(addresses)} ready endpoints, declared none"
        if declared not in ([], None, "none") and not addresses:
            return "service has no ready endpoints"
        return None
    if kind == "ingress":
        _, ns, name, status, backend, _host = check
        ep = env.store.raw("endpoints", ns, backend) or {}
        addresses = [a for s in ep.get("subsets") or [] for a in s.get("addresses") or []]
        if status.startswith("returning_5"):
            if addresses:
                return f"backend {backend} has ready endpoints"
            code = status.rsplit("_", 1)[1]
            env.logs.add_source(
                "ingress-nginx",
                "ingress-nginx-controller",
                [
                    (
                        f'10.0.1.7 - - [{env.clock.now().strftime("%d/%b/%Y:%H:%M:%S +0000")}] "GET / HTTP/2.0" {code} 190 "-" '
                        f'"Mozilla/5.0" 38 0.000 [{ns}-{backend}-80] [] - - - - {env.ids.hex(32)}'
                    )
                ]
                * 3,
            )
        return None
    return None


__all__ = ["InjectionError", "agent_identity", "finalize", "grant_agent"]
