"""State injection: every precondition pattern of SI provider guide §5, in both the
scenario shape and petri's wire shape (interop §2).

Scenario shape ``{resource: "deployment/x", namespace, status, replicas, ...}``;
wire shape ``{kind, name, namespace, zone, labels, annotations, data, spec: {...}}``
(every other key under ``spec``). :func:`normalize` turns the wire shape into the
scenario shape, so both produce the same objects.

Entries are applied in dependency order (namespaces, nodes, config and RBAC,
workloads, pods, services, then the rest) but errors name the entry's original
index. A key no handler understands raises :class:`InjectionError` naming the
entry index, the resource and the keys: nothing is silently dropped. Keys that
are informational (no cluster behaviour) are stored, see :data:`INFORMATIONAL`.
Writes go through the API server as the provider's own user (audited, never
attributed to the agent); derived state (pods, statuses) comes from the
controllers at the end, from hidden facts set here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cluster.objects import ZONE_LABEL, namespace
from ..cluster.store import plural_of

#: informational keys and where they are kept (they change no behaviour)
INFORMATIONAL: dict[str, str] = {
    "deployment.owner_team": "label `team` on the Deployment",
    "deployment.traffic_weight": "annotation `traffic.weight` on the Deployment",
    "deployment.reason": "env.notes['reasons']; for status pending it also picks the scarce resource (cpu/memory)",
    "deployment.fault / service.fault": "env.notes['faults'] (evaluator-facing, never agent-visible); "
    "`OOMKilled` also selects the OOM cause",
    "deployment.conditions": "drive the unready count of `degraded`, then verified on the settled Deployment; "
    "free-text reasons kept in env.notes['declared_conditions']",
    "deployment.affinity/pdb/hpa: none": "asserted absent (nothing is created)",
    "hpa.current_status": "env.notes['hpa_status']; `scaling_in_progress` is modelled through target_replicas",
    "service.endpoints": "verified against the derived Endpoints (a mismatch is an InjectionError)",
    "ingress.status": "verified (returning_503: the backend has no ready endpoint) + ingress-nginx access-log lines",
    "pod.last_log": "the pod's last log line",
    "alert.description/summary": "alert annotations",
    "metrics.<non-numeric>": "Metrics.facts[service] (e.g. memory_usage_trend also generates the trend series; "
    "last_oom_kill also dates the last OOM termination)",
    "events.recent[].age/count": "Event first/last timestamps and count",
}

#: keys every entry may carry
COMMON = frozenset({"resource", "namespace", "zone", "labels", "annotations"})
#: singular scenario nouns -> handler family
ALIASES = {
    "pvc": "persistentvolumeclaims",
    "hpa": "horizontalpodautoscalers",
    "pdb": "poddisruptionbudgets",
    "netpol": "networkpolicies",
    "ns": "namespaces",
    "sa": "serviceaccounts",
    "svc": "services",
    "cm": "configmaps",
    "deploy": "deployments",
    "quota": "resourcequotas",
}
FIXTURE_KINDS = {
    "metrics": "metrics",
    "metric": "metrics",
    "logs": "logs",
    "log": "logs",
    "traces": "traces",
    "trace": "traces",
    "alert": "alerts",
    "alerts": "alerts",
    "dashboard": "dashboards",
    "dashboards": "dashboards",
    "gitops-application": "applications",
    "gitops-applications": "applications",
    "application": "applications",
    "runbook": "runbooks",
    "runbooks": "runbooks",
    "database-migration": "migrations",
    "database-migrations": "migrations",
    "events": "events",
    "event": "events",
    "nodes": "nodes",
}
ORDER = [
    "namespaces",
    "nodes",
    "serviceaccounts",
    "clusterroles",
    "roles",
    "clusterrolebindings",
    "rolebindings",
    "configmaps",
    "secrets",
    "persistentvolumeclaims",
    "resourcequotas",
    "deployments",
    "pods",
    "services",
    "ingresses",
    "networkpolicies",
    "horizontalpodautoscalers",
    "poddisruptionbudgets",
    "applications",
    "events",
    "logs",
    "metrics",
    "traces",
    "alerts",
    "dashboards",
    "runbooks",
    "migrations",
]


class InjectionError(ValueError):
    """A state entry the provider cannot honor (a provider fault, never a silent skip)."""

    def __init__(
        self, index: int | None, resource: str, message: str, keys: list[str] | None = None
    ):
        self.index, self.resource, self.keys = index, resource, list(keys or [])
        where = (
            f"state entry #{index} ({resource})"
            if index is not None
            else f"state entry ({resource})"
        )
        super().__init__(
            f"{where}: {message}" + (f": {', '.join(sorted(self.keys))}" if self.keys else "")
        )


def normalize(entry: dict[str, Any]) -> dict[str, Any]:
    """Wire shape -> scenario shape; scenario entries are returned unchanged (copied)."""
    if "resource" in entry or "kind" not in entry:
        return dict(entry)
    out: dict[str, Any] = {}
    kind, name = str(entry["kind"]), entry.get("name")
    out["resource"] = f"{kind}/{name}" if name not in (None, "") else kind
    for key, value in entry.items():
        if key in ("kind", "name", "spec"):
            continue
        out[key] = value
    spec = entry.get("spec")
    if isinstance(spec, dict):
        for key, value in spec.items():
            out[key] = value
    elif spec is not None:
        out["spec"] = spec
    return out


@dataclass
class Target:
    """A parsed ``resource`` reference."""

    family: str
    kind: str
    name: str
    sub: list[str] = field(default_factory=list)


def parse_resource(text: str) -> Target | None:
    parts = [p for p in str(text).strip().split("/") if p != ""]
    if not parts:
        return None
    word = parts[0].lower()
    family = FIXTURE_KINDS.get(word) if word not in ("application",) else "applications"
    if family is None:
        family = ALIASES.get(word) or plural_of(word)
    if family is None:
        return None
    return Target(family=family, kind=word, name=parts[1] if len(parts) > 1 else "", sub=parts[2:])


@dataclass
class Context:
    """What the handlers share while one provision (or inject-state call) runs."""

    env: Any
    user: str
    scope_namespaces: list[str]
    scope_zones: list[str]
    mode: str = "autonomous"
    #: (family, namespace, name) -> entry index, for cross references
    declared: dict[tuple[str, str, str], int] = field(default_factory=dict)
    #: deferred checks run after the controllers settled: (index, resource, callable)
    checks: list[tuple[int, str, Any]] = field(default_factory=list)
    #: namespaces created (or labelled) from entries
    namespaces: dict[str, dict[str, Any]] = field(default_factory=dict)

    def default_ns(self) -> str:
        return self.scope_namespaces[0] if self.scope_namespaces else "default"


def take(
    index: int, resource: str, entry: dict[str, Any], allowed: set[str] | frozenset[str]
) -> dict[str, Any]:
    """The entry's keys, after checking every one is understood."""
    unknown = [k for k in entry if k not in allowed and k not in COMMON]
    if unknown:
        raise InjectionError(index, resource, "unsupported key(s)", unknown)
    return entry


def ensure_namespace(
    ctx: Context, ns: str, zone: str | None = None, index: int | None = None
) -> None:
    """Create ``ns`` if missing (zone label from the entry, or the agent's scope when it implies one)."""

    env = ctx.env
    if not zone and ns in ctx.scope_namespaces and len(ctx.scope_zones) == 1:
        zone = ctx.scope_zones[0]
    existing = env.store.raw("namespaces", None, ns)
    if existing is None:
        body = namespace(ns, {ZONE_LABEL: zone} if zone else {})
        body["metadata"]["creationTimestamp"] = env.clock.ts(180 * 86400)
        res = env.api.request(ctx.user, "create", "namespaces", body=body)
        if not res.ok:
            raise InjectionError(
                index, f"namespace/{ns}", res.body.get("message", "cannot create namespace")
            )
    elif zone and (existing["metadata"].get("labels") or {}).get(ZONE_LABEL) != zone:
        labels = dict(existing["metadata"].get("labels") or {})
        labels[ZONE_LABEL] = zone
        env.api.request(
            ctx.user, "patch", "namespaces", None, ns, body={"metadata": {"labels": labels}}
        )


def create(
    ctx: Context,
    index: int,
    resource: str,
    plural: str,
    body: dict[str, Any],
    ns: str | None = None,
) -> dict[str, Any]:
    """Create (or, when it already exists, update) an object as the provider."""
    env = ctx.env
    name = body["metadata"]["name"]
    if ns:
        ensure_namespace(ctx, ns, index=index)
    if env.store.exists(plural, ns, name):
        current = env.store.get(plural, ns, name)
        merged = {**current, **{k: v for k, v in body.items() if k != "metadata"}}
        merged["metadata"] = {
            **current["metadata"],
            **{k: v for k, v in body["metadata"].items() if k in ("labels", "annotations")},
        }
        res = env.api.request(ctx.user, "update", plural, ns, name, body=merged)
    else:
        res = env.api.request(ctx.user, "create", plural, ns, body=body)
    if not res.ok:
        raise InjectionError(index, resource, str((res.body or {}).get("message", res.body)))
    return env.store.raw(plural, ns, name)
