"""Pure reads of the Deployment -> ReplicaSet -> Pod hierarchy shared by the controllers
(:mod:`.workloads`) and rollout history: ownership, revisions, surge counts, pod
activity and readiness (SI provider guide §1.2)."""

from __future__ import annotations

import math
from typing import Any

from .settled import fingerprint

REVISION = "deployment.kubernetes.io/revision"

#: ReplicaSet uid -> the inputs of the last reconcile of it in one deployment pass that
#: changed nothing (``workloads._inputs``)
Passes = dict[str, tuple[Any, ...]]


def owner_ref(obj: dict[str, Any], controller: bool = True) -> dict[str, Any]:
    return {
        "apiVersion": obj.get("apiVersion", "apps/v1"),
        "kind": obj["kind"],
        "name": obj["metadata"]["name"],
        "uid": obj["metadata"]["uid"],
        "controller": controller,
        "blockOwnerDeletion": True,
    }


def reconcile_inputs(
    env: Any, rs_facts: dict[str, Any], pods: list[dict[str, Any]], hints: dict[str, Any]
) -> tuple[Any, ...]:
    """What a ReplicaSet's reconcile reads beyond the stored objects: the store's
    resourceVersion stands for those, the facts are compared by value and type (:func:`.settled.fingerprint`)."""
    facts = env.facts
    pod_facts = [
        facts.get(("pods", p["metadata"].get("namespace", ""), p["metadata"]["name"])) for p in pods
    ]
    # one fingerprint of the three (issue 30: three reprs per call, twice per reconcile)
    return env.store.resource_version, env.clock.ms, fingerprint((rs_facts, hints, pod_facts))


def owned(env: Any, plural: str, ns: str, uid: str) -> list[dict[str, Any]]:
    """The ``plural`` objects in ``ns`` with an owner reference to ``uid`` (the store's owner
    index, :meth:`.store.ObjectStore.owned`)."""
    return env.store.owned(plural, ns, uid)


def revision(rs: dict[str, Any]) -> int:
    """A ReplicaSet's revision annotation (0 when absent)."""
    return int((rs["metadata"].get("annotations") or {}).get(REVISION, "0") or 0)


def resolve_count(value: Any, total: int, round_up: bool) -> int:
    """maxSurge/maxUnavailable as a count of ``total``: an int, or a percentage (default 25%)."""
    text = str(value if value is not None else "25%")
    if text.endswith("%"):
        raw = float(text[:-1]) * total / 100.0
        return math.ceil(raw) if round_up else math.floor(raw)
    return int(text)


def is_active(pod: dict[str, Any]) -> bool:
    """Not terminal: an Evicted or completed pod no longer counts as a replica."""
    return pod.get("status", {}).get("phase") not in ("Failed", "Succeeded")


def is_ready(pod: dict[str, Any]) -> bool:
    """The pod's Ready condition is True."""
    return any(
        c["type"] == "Ready" and c["status"] == "True"
        for c in pod.get("status", {}).get("conditions") or []
    )
