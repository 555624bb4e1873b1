"""Snapshots and state diffs (SI provider guide §2.2-§2.3; interop §2 ``/v1/state-snapshot``).

A snapshot resource is ``{kind, name, namespace, state}`` with ``state`` the full
object. GitOps Applications are reported with the profile's noun
(``kind: gitops-application``) and scenario-vocabulary fields next to ``state``
(``sync_status: synced|out_of_sync``, ``health_status``), which is what SI state
assertions name. Events are transient and excluded; so are the platform
namespaces' contents (except Applications and objects a scenario declared).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ..cluster.kinds import normalize_resource
from ..cluster.store import KINDS, clone

VOLATILE = ("resourceVersion", "generation", "managedFields", "creationTimestamp", "uid")
FIXTURE_KINDS = {
    "metrics",
    "logs",
    "traces",
    "alert",
    "alerts",
    "dashboard",
    "runbook",
    "database-migration",
}


def record(plural: str, obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj["metadata"]
    out: dict[str, Any] = {
        "kind": obj["kind"],
        "name": meta["name"],
        "namespace": meta.get("namespace"),
        "state": clone(obj),
    }
    if plural == "applications":
        status = obj.get("status") or {}
        sync = (status.get("sync") or {}).get("status", "Unknown")
        out.update(
            {
                "kind": "gitops-application",
                "sync_status": "synced"
                if sync == "Synced"
                else "out_of_sync"
                if sync == "OutOfSync"
                else sync.lower(),
                "health_status": str((status.get("health") or {}).get("status", "Unknown")).lower(),
            }
        )
    return out


def snapshot(env: Any, resources: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    if resources:
        out = []
        for ref in resources:
            found = find(
                env, str(ref.get("kind", "")), str(ref.get("name", "")), ref.get("namespace")
            )
            if found is not None:
                out.append(found)
        return out
    out = []
    for key in env.store.all_keys():
        plural, ns, _name = key
        if plural == "events":
            continue
        if (
            ns in env.system_namespaces
            and plural != "applications"
            and key not in env.declared_keys
        ):
            continue
        out.append(_kept(env, key, plural, env.store.raw(*key)))
    return out


#: per environment, beside it (never in it): store key -> (resourceVersion, the record last
#: made of the object)
_RECORDS: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Any, dict[str, Any]]]] = (
    weakref.WeakKeyDictionary()
)
_RECORDS_LOCK = threading.Lock()


def beside(env: Any) -> dict[Any, tuple[Any, dict[str, Any]]] | None:
    """The environment's records if it has any (what a copy of it carries: provider/prebuilt.py)."""
    return _RECORDS.get(env)


def adopt(env: Any, records: dict[Any, tuple[Any, dict[str, Any]]]) -> None:
    """Give ``env``, a copy, the records copied with it (provider/prebuilt.py)."""
    with _RECORDS_LOCK:
        _RECORDS[env] = records


def _kept(env: Any, key: Any, plural: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The record of ``obj`` made for an earlier snapshot when the object is unchanged since:
    the same resourceVersion (every write through the API bumps it) and an equal state (what
    a controller changed in place without storing it), else a new record (issue 30: the
    provision's baseline and the precondition and final snapshots cloned every untouched
    object three times). Equality is Python's (key order and ``1 == 1.0`` aside), which is
    why the version must match too: a write that changes only those is a store. A record is
    shared, never changed: its readers (the runner, ``tests/engine/test_answers_unchanged.py``;
    the ``state_diff`` observation) only read it."""
    records = _RECORDS.get(env)
    if records is None:
        with _RECORDS_LOCK:  # made once even if two threads snapshot a new environment
            records = _RECORDS.setdefault(env, {})
    version = obj["metadata"].get("resourceVersion")
    seen = records.get(key)
    if seen is not None and seen[0] == version and seen[1]["state"] == obj:
        return seen[1]
    made = record(plural, obj)
    records[key] = (version, made)
    return made


def find(env: Any, kind: str, name: str, namespace: str | None) -> dict[str, Any] | None:
    """One resource by kind (any spelling, incl. ``gitops-application``), name and namespace."""
    plural = normalize_resource(kind)
    if plural is None:
        return None
    obj = env.store.raw(plural, namespace or None, name) if plural in KINDS else None
    if obj is None and plural == "applications":
        obj = env.store.raw(plural, "argocd", name)
    if obj is None and namespace is None:
        obj = next((o for o in env.store.iter(plural) if o["metadata"]["name"] == name), None)
    return record(plural, obj) if obj is not None else None


def fixture(env: Any, kind: str, name: str, namespace: str | None) -> dict[str, Any] | None:
    """Observability/runbook/database fixtures as resource_state objects (not Kubernetes objects)."""
    k = kind.lower()
    if k in ("metrics", "metric"):
        series = [s for s in env.metrics.series if s.labels.get("service") == name]
        if not series and name not in env.metrics.facts:
            return None
        at = env.clock.seconds()
        values = {}
        for s in series:
            pts = s.points_until(at)
            if pts:
                values[s.name] = pts[-1][1]
        return {
            "kind": "metrics",
            "name": name,
            "namespace": namespace,
            "state": {"values": values, "facts": clone(env.metrics.facts.get(name, {}))},
        }
    if k in ("alert", "alerts"):
        alert = env.alerts.alerts.get(name)
        return (
            {"kind": "alert", "name": name, "namespace": None, "state": clone(alert)}
            if alert
            else None
        )
    if k in ("dashboard",):
        board = env.dashboards.get(name)
        return (
            {"kind": "dashboard", "name": name, "namespace": None, "state": board}
            if board
            else None
        )
    if k in ("traces", "trace"):
        trace = env.traces.get(name)
        return (
            {"kind": "trace", "name": name, "namespace": None, "state": clone(trace)}
            if trace
            else None
        )
    if k == "database-migration":
        db = env.database.get(name)
        return (
            {"kind": "database-migration", "name": name, "namespace": None, "state": clone(db)}
            if db
            else None
        )
    if k == "runbook":
        cm = (
            env.store.raw("configmaps", namespace, f"runbook-{name}")
            if namespace
            else next(
                (
                    o
                    for o in env.store.iter("configmaps")
                    if o["metadata"]["name"] == f"runbook-{name}"
                ),
                None,
            )
        )
        return record("configmaps", cm) if cm else None
    return None


def projection(obj: Any) -> Any:
    """An object without server bookkeeping and without live ``status`` (what "changed" means)."""
    if isinstance(obj, dict):
        return {k: projection(v) for k, v in obj.items() if k not in VOLATILE and k != "status"}
    if isinstance(obj, list):
        return [projection(v) for v in obj]
    return obj


def changes(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """Field-level differences: ``[{path, op: added|removed|changed, before, after}]``."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                out.append({"path": sub, "op": "added", "before": None, "after": clone(after[key])})
            elif key not in after:
                out.append(
                    {"path": sub, "op": "removed", "before": clone(before[key]), "after": None}
                )
            else:
                out += changes(before[key], after[key], sub)
        return out
    if before != after:
        return [{"path": path, "op": "changed", "before": clone(before), "after": clone(after)}]
    return []
