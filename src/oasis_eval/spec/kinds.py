"""Resource kind names: scenario nouns (singular) versus audit resources (plural).

Scenarios name objects ``deployment/checkout-api`` (singular kind, 02 §1.3) while
Kubernetes audit events carry the plural, lower-case resource (``deployments``,
interop §3). Snapshots may carry either, or the CamelCase ``Kind``. Everything is
compared through :func:`resource_name`, which returns the plural resource.

The table covers the built-in Kubernetes kinds and their ``kubectl`` short names;
any other word is pluralized by the English rules Kubernetes itself uses for
CRDs (``policy`` -> ``policies``, ``ingress`` -> ``ingresses``, else ``+s``),
so a profile-defined kind like ``gitops-application`` works without an entry.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: plural resource -> singular kind, for every built-in kind we know
KNOWN: dict[str, str] = {
    "pods": "pod",
    "deployments": "deployment",
    "replicasets": "replicaset",
    "statefulsets": "statefulset",
    "daemonsets": "daemonset",
    "jobs": "job",
    "cronjobs": "cronjob",
    "services": "service",
    "endpoints": "endpoints",
    "endpointslices": "endpointslice",
    "ingresses": "ingress",
    "networkpolicies": "networkpolicy",
    "configmaps": "configmap",
    "secrets": "secret",
    "namespaces": "namespace",
    "nodes": "node",
    "events": "event",
    "serviceaccounts": "serviceaccount",
    "roles": "role",
    "rolebindings": "rolebinding",
    "clusterroles": "clusterrole",
    "clusterrolebindings": "clusterrolebinding",
    "horizontalpodautoscalers": "horizontalpodautoscaler",
    "poddisruptionbudgets": "poddisruptionbudget",
    "persistentvolumeclaims": "persistentvolumeclaim",
    "persistentvolumes": "persistentvolume",
    "storageclasses": "storageclass",
    "resourcequotas": "resourcequota",
    "limitranges": "limitrange",
    "replicationcontrollers": "replicationcontroller",
    "customresourcedefinitions": "customresourcedefinition",
    "priorityclasses": "priorityclass",
    "leases": "lease",
    "podtemplates": "podtemplate",
    "certificatesigningrequests": "certificatesigningrequest",
    "mutatingwebhookconfigurations": "mutatingwebhookconfiguration",
    "validatingwebhookconfigurations": "validatingwebhookconfiguration",
    "selfsubjectaccessreviews": "selfsubjectaccessreview",
    "selfsubjectrulesreviews": "selfsubjectrulesreview",
    "subjectaccessreviews": "subjectaccessreview",
    "localsubjectaccessreviews": "localsubjectaccessreview",
    "tokenreviews": "tokenreview",
    "selfsubjectreviews": "selfsubjectreview",
    "metrics": "metrics",
}

#: kubectl short names and common abbreviations -> plural resource
ALIASES: dict[str, str] = {
    "po": "pods",
    "deploy": "deployments",
    "rs": "replicasets",
    "sts": "statefulsets",
    "ds": "daemonsets",
    "cj": "cronjobs",
    "svc": "services",
    "ep": "endpoints",
    "ing": "ingresses",
    "netpol": "networkpolicies",
    "cm": "configmaps",
    "ns": "namespaces",
    "no": "nodes",
    "ev": "events",
    "sa": "serviceaccounts",
    "hpa": "horizontalpodautoscalers",
    "pdb": "poddisruptionbudgets",
    "pvc": "persistentvolumeclaims",
    "pv": "persistentvolumes",
    "sc": "storageclasses",
    "quota": "resourcequotas",
    "limits": "limitranges",
    "rc": "replicationcontrollers",
    "crd": "customresourcedefinitions",
    "pc": "priorityclasses",
    "csr": "certificatesigningrequests",
}

#: role-based access control resources (authority escalation, core §3.1)
RBAC_RESOURCES = frozenset({"roles", "rolebindings", "clusterroles", "clusterrolebindings"})

#: ``create`` on these is a query, not a mutation (``kubectl auth can-i``, token review)
NON_MUTATING_CREATES = frozenset(
    {
        "selfsubjectaccessreviews",
        "selfsubjectrulesreviews",
        "subjectaccessreviews",
        "localsubjectaccessreviews",
        "tokenreviews",
        "selfsubjectreviews",
    }
)

#: resources that have no namespace
CLUSTER_SCOPED = frozenset(
    {
        "namespaces",
        "nodes",
        "clusterroles",
        "clusterrolebindings",
        "persistentvolumes",
        "storageclasses",
        "customresourcedefinitions",
        "priorityclasses",
        "certificatesigningrequests",
        "mutatingwebhookconfigurations",
        "validatingwebhookconfigurations",
    }
)

_SINGULAR_TO_PLURAL = {singular: plural for plural, singular in KNOWN.items()}
_KIND_WORD = re.compile(r"^[a-z][a-z0-9-]*$")


def is_kind_word(word: str) -> bool:
    """True for a word that can name a kind (``deployment``, ``gitops-application``)."""
    return bool(_KIND_WORD.match(word.lower()))


def _pluralize(word: str) -> str:
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("ss", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("s"):
        return word  # already plural (``metrics``, ``endpoints``)
    return word + "s"


@lru_cache(maxsize=4096)
def resource_name(kind: str | None) -> str | None:
    """The plural, lower-case resource for a kind, plural, short name or ``Kind.group``.

    ``Deployment`` / ``deployment`` / ``deploy`` / ``deployments.apps`` -> ``deployments``.
    """
    if not kind:
        return None
    word = kind.strip().split(".", 1)[0].lower().replace("_", "")
    if word in KNOWN:
        return word
    if word in ALIASES:
        return ALIASES[word]
    if word in _SINGULAR_TO_PLURAL:
        return _SINGULAR_TO_PLURAL[word]
    return _pluralize(word)


@lru_cache(maxsize=4096)
def singular(resource: str | None) -> str | None:
    """The singular kind of a plural resource (``networkpolicies`` -> ``networkpolicy``): a
    pure function of it, kept (thousands of calls a replay for a few dozen words, issue 30)."""
    plural = resource_name(resource)
    if plural is None:
        return None
    if plural in KNOWN:
        return KNOWN[plural]
    if plural.endswith("ies"):
        return plural[:-3] + "y"
    if plural.endswith(("sses", "xes", "zes", "ches", "shes")):
        return plural[:-2]
    if plural.endswith("s"):
        return plural[:-1]
    return plural


def is_known_kind(word: str) -> bool:
    """True when ``word`` is a built-in kind, plural or short name (bare-kind targets)."""
    w = word.lower()
    return w in KNOWN or w in ALIASES or w in _SINGULAR_TO_PLURAL
