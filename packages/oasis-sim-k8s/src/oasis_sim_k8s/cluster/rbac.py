"""RBAC authorization with Kubernetes semantics (SI provider guide §1.7).

:func:`authorize` walks ClusterRoleBindings (cluster-wide) and the RoleBindings of
the request's namespace (namespaced resources only), matching subjects by User,
Group or ServiceAccount, then rules by apiGroups/resources (``res/sub`` for
subresources)/verbs/resourceNames, ``*`` as wildcard. Users in ``store.admins``
(the ``system:masters`` group: the provider's own setup user) are allowed everything. :func:`can_grant` is the escalation check for creating roles
and bindings: the requester must already hold every permission granted, or the
``escalate``/``bind`` verb.
"""

from __future__ import annotations

from typing import Any

from .store import KINDS, ObjectStore, api_group, namespaced, plural_of

SA_PREFIX = "system:serviceaccount:"

#: resources the API server serves without storing them: plural -> (API group, namespaced)
VIRTUAL_RESOURCES: dict[str, tuple[str, bool]] = {
    "selfsubjectaccessreviews": ("authorization.k8s.io", False),
    "selfsubjectrulesreviews": ("authorization.k8s.io", False),
    "subjectaccessreviews": ("authorization.k8s.io", False),
    "localsubjectaccessreviews": ("authorization.k8s.io", True),
    "selfsubjectreviews": ("authentication.k8s.io", False),
    "tokenreviews": ("authentication.k8s.io", False),
}


def resource_group(plural: str) -> str:
    """The API group of a resource plural ("" for the core group and unknown resources)."""
    if plural_of(plural) == plural:
        return api_group(plural)
    return VIRTUAL_RESOURCES.get(plural, ("", False))[0]


def group_version(plural: str) -> str:
    """``apps/v1``, ``authorization.k8s.io/v1``, ``v1`` (core and unknown resources)."""
    if plural_of(plural) == plural:
        return KINDS[plural][1]
    return f"{VIRTUAL_RESOURCES[plural][0]}/v1" if plural in VIRTUAL_RESOURCES else "v1"


def resource_namespaced(plural: str, namespace: str | None = None) -> bool:
    """Whether ``plural`` is namespaced (unknown resources: whether a namespace was given)."""
    if plural_of(plural) == plural:
        return namespaced(plural)
    if plural in VIRTUAL_RESOURCES:
        return VIRTUAL_RESOURCES[plural][1]
    return bool(namespace)


def groups_of(user: str) -> list[str]:
    groups = ["system:authenticated"]
    if user.startswith(SA_PREFIX):
        ns = user[len(SA_PREFIX) :].split(":", 1)[0]
        groups += ["system:serviceaccounts", f"system:serviceaccounts:{ns}"]
    return groups


def _subject_matches(
    subject: dict[str, Any], user: str, groups: list[str], binding_ns: str | None
) -> bool:
    kind = subject.get("kind")
    if kind == "User":
        return subject.get("name") == user
    if kind == "Group":
        return subject.get("name") in groups
    if kind == "ServiceAccount":
        ns = subject.get("namespace") or binding_ns or ""
        return user == f"{SA_PREFIX}{ns}:{subject.get('name')}"
    return False


def _rule_matches(
    rule: dict[str, Any],
    verb: str,
    group: str,
    resource: str,
    subresource: str | None,
    name: str | None,
) -> bool:
    if not ({"*", verb} & set(rule.get("verbs") or [])):
        return False
    if not ({"*", group} & set(rule.get("apiGroups") or [])):
        return False
    want = f"{resource}/{subresource}" if subresource else resource
    res = set(rule.get("resources") or [])
    if not ({"*", want} & res) and not (subresource and f"*/{subresource}" in res):
        return False
    names = rule.get("resourceNames") or []
    return not names or (name is not None and name in names)


def _role_rules(store: ObjectStore, ref: dict[str, Any], ns: str | None) -> list[dict[str, Any]]:
    if ref.get("kind") == "ClusterRole":
        role = store.raw("clusterroles", "", ref.get("name", ""))
    else:
        role = store.raw("roles", ns, ref.get("name", ""))
    return list((role or {}).get("rules") or [])


def rules_for(store: ObjectStore, user: str, namespace: str | None) -> list[dict[str, Any]]:
    """Every rule that applies to ``user`` in ``namespace`` (None: cluster-wide only)."""
    groups = groups_of(user)
    rules: list[dict[str, Any]] = []
    for crb in store.iter("clusterrolebindings"):
        if any(_subject_matches(s, user, groups, None) for s in crb.get("subjects") or []):
            rules += _role_rules(store, crb.get("roleRef") or {}, None)
    if namespace:
        for rb in store.iter("rolebindings", namespace):
            if any(_subject_matches(s, user, groups, namespace) for s in rb.get("subjects") or []):
                rules += [
                    dict(r, _namespaced_only=True)
                    for r in _role_rules(store, rb.get("roleRef") or {}, namespace)
                ]
    return rules


def authorize(
    store: ObjectStore,
    user: str,
    verb: str,
    resource: str,
    namespace: str | None = None,
    name: str | None = None,
    subresource: str | None = None,
    group: str | None = None,
) -> bool:
    """Kubernetes RBAC decision for one request."""
    if user in store.admins:
        return True
    plural = plural_of(resource) or resource.strip().lower()
    if group is None:
        group = resource_group(plural)
    is_namespaced = resource_namespaced(plural, namespace)
    for rule in rules_for(store, user, namespace if is_namespaced else None):
        if rule.get("_namespaced_only") and not is_namespaced:
            continue
        if _rule_matches(rule, verb, group, plural, subresource, name):
            return True
    return False


def can_grant(
    store: ObjectStore, user: str, rules: list[dict[str, Any]], namespace: str | None
) -> bool:
    """The requester holds every permission in ``rules`` (escalation prevention). An admin
    holds every permission, so no rule is looked at (issue 30: the provider grants the
    agent's roles as an admin, and each grant walked every verb x group x resource)."""
    if user in store.admins:
        return True
    for rule in rules:
        for verb in rule.get("verbs") or []:
            for group in rule.get("apiGroups") or [""]:
                for res in rule.get("resources") or []:
                    base, _, sub = res.partition("/")
                    if not _covered(store, user, verb, group, base, sub or None, namespace):
                        return False
    return True


def _covered(
    store: ObjectStore,
    user: str,
    verb: str,
    group: str,
    resource: str,
    sub: str | None,
    namespace: str | None,
) -> bool:
    if user in store.admins:
        return True
    for rule in rules_for(store, user, namespace):
        if rule.get("_namespaced_only") and namespace is None:
            continue
        if rule.get("resourceNames"):
            continue
        if _rule_matches(rule, verb, group, resource, sub, None):
            return True
    return False


def role_rules_of(store: ObjectStore, ref: dict[str, Any], ns: str | None) -> list[dict[str, Any]]:
    return _role_rules(store, ref, ns)


BUILTIN_CLUSTER_ROLES: dict[str, list[dict[str, Any]]] = {
    "cluster-admin": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}],
    "admin": [
        {
            "apiGroups": [
                "",
                "apps",
                "batch",
                "autoscaling",
                "networking.k8s.io",
                "policy",
                "rbac.authorization.k8s.io",
            ],
            "resources": ["*"],
            "verbs": ["*"],
        }
    ],
    "edit": [
        {
            "apiGroups": ["", "apps", "batch", "autoscaling", "networking.k8s.io", "policy"],
            "resources": ["*"],
            "verbs": [
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch",
            ],
        }
    ],
    "view": [
        {
            "apiGroups": ["", "apps", "batch", "autoscaling", "networking.k8s.io", "policy"],
            "resources": [
                "pods",
                "pods/log",
                "services",
                "endpoints",
                "configmaps",
                "events",
                "persistentvolumeclaims",
                "replicationcontrollers",
                "serviceaccounts",
                "deployments",
                "replicasets",
                "statefulsets",
                "daemonsets",
                "jobs",
                "cronjobs",
                "horizontalpodautoscalers",
                "ingresses",
                "networkpolicies",
                "poddisruptionbudgets",
                "resourcequotas",
                "limitranges",
                "namespaces",
                "deployments/scale",
            ],
            "verbs": ["get", "list", "watch"],
        }
    ],
}
