"""Workloads, their pods and the objects they consume, read from scenario state and snapshots.

Shared by the contextual action forms (:mod:`.action_binding`) and the
audit-aware state conditions (:mod:`.audit_conditions`). Every rule is about
Kubernetes structure, never about a scenario:

- **Workload**: an object of a kind in :data:`WORKLOAD_RESOURCES`.
- **Pods of a workload** (in one snapshot): pods whose ``ownerReferences`` name
  the workload or one of its replica sets (``<workload>`` or ``<workload>-<hash>``);
  without owner references, pods whose labels hold the workload's
  ``selector.matchLabels``; without either, pods named ``<workload>-<hash>[-<suffix>]``.
- **Consumers of an object** (a ConfigMap, a Secret): workloads whose scenario
  state entry or snapshot body names the object in a field whose path mentions
  a volume, ``configMap``, ``secret``, ``envFrom``, ``from`` or ``ref``
  (``volumes_from: [feature-flags]``, ``volumes[].configMap.name``).
- **Role** (``canary``): an object whose name contains the role word, or whose
  label ``track`` / ``variant`` / ``role`` equals it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from ...spec.kinds import resource_name
from ...spec.scenario import Scenario
from ..actions import ROLE_LABELS
from ..state import ResourceView, Snapshot, scenario_resources

WORKLOAD_RESOURCES = frozenset(
    {
        "deployments",
        "statefulsets",
        "daemonsets",
        "replicasets",
        "replicationcontrollers",
        "jobs",
        "cronjobs",
    }
)
#: path words under which a string value is a reference to a consumed object
_REF_KEYS = ("volume", "configmap", "config_map", "secret", "envfrom", "env_from", "from", "ref")
_CREATED = ("creationTimestamp", "startTime", "created_at", "createdAt", "started_at")

Ref = tuple[str | None, str, str | None]  # (resource, name, namespace)


def parse_time(value: Any) -> datetime | None:
    """An RFC 3339 timestamp as an aware datetime (no zone: UTC); None when unreadable."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def created_at(view: ResourceView) -> datetime | None:
    """When the object was created (creation timestamp, else start time)."""
    for key in _CREATED:
        found, value = view.get(key)
        if found and parse_time(value) is not None:
            return parse_time(value)
    return None


def _labels(view: ResourceView) -> dict[str, str]:
    found, value = view.get("labels")
    return {str(k): str(v) for k, v in value.items()} if found and isinstance(value, dict) else {}


def match_labels(view: ResourceView) -> dict[str, str]:
    found, selector = view.get("selector")
    if found and isinstance(selector, dict):
        inner = selector.get("matchLabels", selector)
        if isinstance(inner, dict) and all(not isinstance(v, (dict, list)) for v in inner.values()):
            return {str(k): str(v) for k, v in inner.items()}
    return {}


def _owners(view: ResourceView) -> list[str]:
    found, refs = view.get("ownerReferences")
    if not found or not isinstance(refs, list):
        return []
    return [str(r.get("name")) for r in refs if isinstance(r, dict) and r.get("name")]


def pods_of(snapshot: Snapshot, workload: str, namespace: str | None) -> list[ResourceView]:
    """The pods of one workload in one snapshot (see the module docstring)."""
    owned = re.compile(rf"^{re.escape(workload)}(-[a-z0-9]{{1,10}})?$")
    named = re.compile(rf"^{re.escape(workload)}-[a-z0-9]{{1,10}}(-[a-z0-9]{{1,5}})?$")
    selector: dict[str, str] = {}
    for view in snapshot.views:
        if (
            view.resource in WORKLOAD_RESOURCES
            and view.name == workload
            and namespace in (None, view.namespace)
        ):
            selector = match_labels(view)
            break
    out = []
    for pod in snapshot.select("pods"):
        if namespace is not None and pod.namespace not in (namespace, None):
            continue
        owners = _owners(pod)
        if owners:
            hit = any(owned.match(o) for o in owners)
        elif selector:
            labels = _labels(pod)
            hit = all(labels.get(k) == v for k, v in selector.items())
        else:
            hit = bool(named.match(pod.name or ""))
        if hit:
            out.append(pod)
    return out


def pod_labels(snapshots: list[Snapshot], workload: str, namespace: str | None) -> set[str]:
    """``k=v`` labels carried by the workload's pods or selector in any of the snapshots."""
    out: set[str] = set()
    for snap in snapshots:
        for pod in pods_of(snap, workload, namespace):
            out |= {f"{k}={v}" for k, v in _labels(pod).items()}
        for view in snap.select():
            if view.resource in WORKLOAD_RESOURCES and view.name == workload:
                out |= {f"{k}={v}" for k, v in match_labels(view).items()}
    return out


def scenario_workloads(scenario: Scenario) -> list[Ref]:
    return [(r, n, ns) for r, n, ns, _ in scenario_resources(scenario) if r in WORKLOAD_RESOURCES]


def _mentions(value: Any, name: str, path: str = "") -> bool:
    if isinstance(value, dict):
        return any(_mentions(v, name, f"{path}.{k}".lower()) for k, v in value.items())
    if isinstance(value, list):
        return any(_mentions(v, name, path) for v in value)
    return value == name and any(word in path for word in _REF_KEYS)


def consumers(scenario: Scenario, snapshots: list[Snapshot], name: str) -> list[Ref]:
    """Workloads that consume the object ``name`` (volumes, env, ``volumes_from`` ...)."""
    out: list[Ref] = []
    for r, n, ns, entry in scenario_resources(scenario):
        if r in WORKLOAD_RESOURCES and _mentions(entry, name) and (r, n, ns) not in out:
            out.append((r, n, ns))
    for snap in snapshots:
        for view in snap.select():
            ref = (view.resource, view.name or "", view.namespace)
            known = any(o[:2] == ref[:2] for o in out)
            if view.resource in WORKLOAD_RESOURCES and not known and _mentions(view.raw, name):
                out.append(ref)
    return out


def role_names(scenario: Scenario, snapshots: list[Snapshot], resource: str, role: str) -> set[str]:
    """Names of the objects of ``resource`` that a role word identifies."""
    out = set()
    for r, n, _, entry in scenario_resources(scenario):
        labels = raw if isinstance(raw := entry.get("labels"), dict) else {}
        if r == resource and (role in n.lower() or _role_label(labels, role)):
            out.add(n)
    for snap in snapshots:
        for view in snap.select(resource_name(resource)):
            if view.name and (role in view.name.lower() or _role_label(_labels(view), role)):
                out.add(view.name)
    return out


def _role_label(labels: dict[str, Any], role: str) -> bool:
    return any(str(labels.get(k, "")).lower() == role for k in ROLE_LABELS)
