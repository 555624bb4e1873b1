"""Synthetic Kubernetes-style audit logs, shaped exactly as sim-k8s sends them.

Every entry is the flattened event of ``oasis_sim_k8s.cluster.audit.AuditLog.record``
(plain dicts, as they arrive in an ``audit_log`` observation)::

    {auditID, stage: "ResponseComplete", verb, resource, subresource?, name?, namespace?,
     user, timestamp, requestURI, response_code, request_body?, label_selector?,
     raw: <audit.k8s.io/v1 Event>, data: {agent_principal?}}

Timestamps are simulated: millisecond, fixed width, strictly increasing.

The log is a busy cluster: most entries come from other users (controllers, the
scheduler, kubelets, GitOps, a human operator), including pod deletions and
deployment patches in the agent's own namespace that must not be attributed to it;
``agent_share`` of the entries are the agent's own calls (reads only: gets, lists,
some with a label selector, and pod log reads), so a correct verifier PASSes the
scenario after looking at every entry.
"""

from __future__ import annotations

import gc
import random
import time
from datetime import datetime
from typing import Any

#: (user, groups) of the cluster's other actors
OTHER_USERS: list[tuple[str, list[str]]] = [
    (
        "system:serviceaccount:kube-system:replicaset-controller",
        ["system:serviceaccounts", "system:authenticated"],
    ),
    (
        "system:serviceaccount:kube-system:deployment-controller",
        ["system:serviceaccounts", "system:authenticated"],
    ),
    (
        "system:serviceaccount:kube-system:endpointslice-controller",
        ["system:serviceaccounts", "system:authenticated"],
    ),
    ("system:kube-scheduler", ["system:authenticated"]),
    ("system:node:node-1", ["system:nodes", "system:authenticated"]),
    ("system:node:node-2", ["system:nodes", "system:authenticated"]),
    (
        "system:serviceaccount:argocd:argocd-application-controller",
        ["system:serviceaccounts", "system:authenticated"],
    ),
    (
        "system:serviceaccount:monitoring:prometheus",
        ["system:serviceaccounts", "system:authenticated"],
    ),
    ("alice@example.com", ["platform-team", "system:authenticated"]),
    ("system:serviceaccount:sim-k8s:provisioner", ["system:masters", "system:authenticated"]),
]

#: (verb, resource, subresource, namespace, named, label_selector, weight) of other users' calls
OTHER_CALLS: list[tuple[str, str, str | None, str | None, bool, str | None, int]] = [
    ("get", "pods", None, "default", True, None, 14),
    ("list", "pods", None, "default", False, "app=service-a", 8),
    ("watch", "pods", None, None, False, None, 6),
    ("get", "nodes", None, None, True, None, 6),
    ("update", "leases", None, "kube-system", True, None, 12),
    ("update", "pods", "status", "default", True, None, 8),
    ("create", "events", None, "default", False, None, 8),
    ("patch", "deployments", None, "default", True, None, 4),
    ("update", "endpointslices", None, "default", True, None, 6),
    ("create", "pods", None, "default", False, None, 3),
    ("delete", "pods", None, "default", True, None, 3),
    ("create", "pods", "binding", "default", True, None, 3),
    ("get", "configmaps", None, "platform-system", True, None, 4),
    ("list", "deployments", None, None, False, None, 3),
    ("patch", "applications", None, "argocd", True, None, 2),
]

#: (verb, resource, subresource, named, label_selector, weight) of the agent's calls (all reads)
AGENT_CALLS: list[tuple[str, str, str | None, bool, str | None, int]] = [
    ("get", "pods", None, True, None, 6),
    ("list", "pods", None, False, None, 4),
    ("list", "pods", None, False, "app=service-a", 2),
    ("get", "pods", "log", True, None, 4),
    ("get", "deployments", None, True, None, 4),
    ("list", "deployments", None, False, None, 2),
    ("list", "events", None, False, None, 2),
    ("get", "services", None, True, None, 1),
]

_GROUPS = {
    "pods": ("", "v1"),
    "nodes": ("", "v1"),
    "events": ("", "v1"),
    "configmaps": ("", "v1"),
    "services": ("", "v1"),
    "deployments": ("apps", "v1"),
    "leases": ("coordination.k8s.io", "v1"),
    "endpointslices": ("discovery.k8s.io", "v1"),
    "applications": ("argoproj.io", "v1alpha1"),
}
_NAMES = {
    "pods": [
        f"service-{s}-{h}"
        for s in "abc"
        for h in ("7d9f8b6c5-x2k4p", "7d9f8b6c5-q8r7z", "7d9f8b6c5-m3n1v")
    ],
    "deployments": ["service-a", "service-b", "service-c"],
    "nodes": ["node-1", "node-2", "node-3"],
    "leases": ["kube-scheduler", "kube-controller-manager", "node-1", "node-2"],
    "endpointslices": ["service-a-x7k2m", "service-b-p9q4r"],
    "configmaps": ["zone-config", "kube-root-ca.crt"],
    "services": ["service-a", "service-b"],
    "applications": ["platform", "service-a"],
    "events": ["evt"],
}
_READS = ("get", "list", "watch")


def _stamp(base_ms: int, offset: int, cache: dict[int, str]) -> str:
    ms = base_ms + offset
    second, milli = divmod(ms, 1000)
    prefix = cache.get(second)
    if prefix is None:
        prefix = cache[second] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{prefix}.{milli:03d}Z"


def to_ms(ts: str) -> int:
    """Epoch milliseconds of an ISO timestamp such as ``2024-05-14T09:31:00.000Z``."""
    moment = datetime.fromisoformat(ts)  # 3.11+ reads the Z suffix
    return round(moment.timestamp() * 1000)


def after(ts: str, ms: int = 1) -> str:
    """The timestamp ``ms`` milliseconds after ``ts``, in the provider's fixed-width form."""
    return _stamp(to_ms(ts), ms, {})


def _uri(
    resource: str,
    namespace: str | None,
    name: str | None,
    subresource: str | None,
    selector: str | None,
) -> str:
    group, version = _GROUPS.get(resource, ("", "v1"))
    path = "/api/v1" if not group else f"/apis/{group}/{version}"
    if namespace:
        path += f"/namespaces/{namespace}"
    path += (
        f"/{resource}" + (f"/{name}" if name else "") + (f"/{subresource}" if subresource else "")
    )
    return path + (f"?labelSelector={selector.replace('=', '%3D')}" if selector else "")


def _entry(
    rng: random.Random,
    *,
    user: str,
    groups: list[str],
    verb: str,
    resource: str,
    subresource: str | None,
    namespace: str | None,
    name: str | None,
    selector: str | None,
    ts: str,
    session: str | None,
) -> dict[str, Any]:
    h = f"{rng.getrandbits(128):032x}"
    audit_id = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
    code = 200 if verb != "create" else 201
    uri = _uri(resource, namespace, name, subresource, selector)
    group, version = _GROUPS.get(resource, ("", "v1"))
    write = verb not in _READS
    body = None
    if write:
        body = {
            "kind": resource[:-1].capitalize(),
            "metadata": {"name": name or f"{resource[:-1]}-{audit_id[:8]}", "namespace": namespace},
        }
        if verb == "patch":
            body["spec"] = {
                "template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": ts}}}
            }
    micro = ts[:-1] + "000Z"
    raw: dict[str, Any] = {
        "kind": "Event",
        "apiVersion": "audit.k8s.io/v1",
        "level": "RequestResponse" if write else "Metadata",
        "auditID": audit_id,
        "stage": "ResponseComplete",
        "requestURI": uri,
        "verb": verb,
        "user": {"username": user, "groups": list(groups)},
        "sourceIPs": ["10.0.0.15"],
        "userAgent": "kubectl/v1.29.4 (linux/amd64) kubernetes/55019c8",
        "objectRef": {
            k: v
            for k, v in {
                "resource": resource,
                "namespace": namespace,
                "name": name,
                "subresource": subresource,
                "apiGroup": group or None,
                "apiVersion": version,
            }.items()
            if v
        },
        "responseStatus": {"metadata": {}, "code": code},
        "requestReceivedTimestamp": micro,
        "stageTimestamp": micro,
        "annotations": {
            "authorization.k8s.io/decision": "allow",
            "authorization.k8s.io/reason": "RBAC: allowed",
        },
    }
    if body is not None:
        raw["requestObject"] = body
    entry: dict[str, Any] = {
        "auditID": audit_id,
        "stage": "ResponseComplete",
        "verb": verb,
        "resource": resource,
        "user": user,
        "timestamp": ts,
        "requestURI": uri,
        "response_code": code,
    }
    if subresource:
        entry["subresource"] = subresource
    if name:
        entry["name"] = name
    if namespace:
        entry["namespace"] = namespace
    if body is not None:
        entry["request_body"] = {
            "kind": body["kind"],
            "metadata": dict(body["metadata"]),
            **({"spec": body["spec"]} if "spec" in body else {}),
        }
    if selector:
        entry["label_selector"] = selector
    entry["raw"] = raw
    entry["data"] = {"agent_principal": session} if session else {}
    return entry


def synthetic_entries(
    count: int,
    principal: str = "oasis-agent",
    agent_share: float = 0.02,
    agent_namespace: str = "default",
    seed: int = 0,
    start: str = "2024-05-14T09:31:00.000Z",
) -> list[dict[str, Any]]:
    """``count`` audit entries in log order; about ``agent_share`` of them are the agent's reads."""
    rng = random.Random(seed)
    base_ms = to_ms(start)
    cache: dict[int, str] = {}
    other_calls = [c for c in OTHER_CALLS for _ in range(c[-1])]  # weights, expanded
    agent_calls = [c for c in AGENT_CALLS for _ in range(c[-1])]
    out: list[dict[str, Any]] = []
    enabled = gc.isenabled()
    gc.disable()  # building the input is not measured; the collector only slows it down
    try:
        for i in range(count):
            out.append(
                _one(
                    rng,
                    i,
                    base_ms,
                    cache,
                    principal,
                    agent_share,
                    agent_namespace,
                    other_calls,
                    agent_calls,
                )
            )
    finally:
        if enabled:
            gc.enable()
    return out


def _one(
    rng: random.Random,
    i: int,
    base_ms: int,
    cache: dict[int, str],
    principal: str,
    agent_share: float,
    agent_namespace: str,
    other_calls: list[Any],
    agent_calls: list[Any],
) -> dict[str, Any]:
    ts = _stamp(base_ms, i, cache)
    if rng.random() < agent_share:
        verb, resource, sub, named, selector, _ = agent_calls[rng.randrange(len(agent_calls))]
        name = rng.choice(_NAMES[resource]) if named else None
        return _entry(
            rng,
            user=principal,
            groups=["oasis-agents", "system:authenticated"],
            verb=verb,
            resource=resource,
            subresource=sub,
            namespace=agent_namespace,
            name=name,
            selector=selector,
            ts=ts,
            session=principal,
        )
    verb, resource, sub, namespace, named, selector, _ = other_calls[
        rng.randrange(len(other_calls))
    ]
    user, groups = OTHER_USERS[rng.randrange(len(OTHER_USERS))]
    name = rng.choice(_NAMES[resource]) if named else None
    return _entry(
        rng,
        user=user,
        groups=groups,
        verb=verb,
        resource=resource,
        subresource=sub,
        namespace=namespace,
        name=name,
        selector=selector,
        ts=ts,
        session=None,
    )


def with_audit_log(evidence: Any, entries: list[dict[str, Any]]) -> Any:
    """A copy of ``evidence`` whose ``audit_log`` observation carries ``entries`` (plain dicts)."""
    observations = [
        o.model_copy(update={"data": {"entries": entries}})
        if o.observation_type == "audit_log"
        else o
        for o in evidence.observations
    ]
    return evidence.model_copy(update={"observations": observations})


def audit_entries_of(evidence: Any) -> list[dict[str, Any]]:
    """The plain-dict entries of the evidence's first ``audit_log`` observation."""
    for o in evidence.observations:
        if o.observation_type == "audit_log":
            data = o.data
            entries = data.get("entries") if isinstance(data, dict) else data
            return list(entries or [])
    return []
