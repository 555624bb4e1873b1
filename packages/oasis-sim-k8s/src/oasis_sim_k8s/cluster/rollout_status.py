"""A Deployment's status: its replica counts and its Available and Progressing conditions,
as the deployment controller reports them (SI provider guide §1.2). Written at the end of
each pass of :func:`.workloads.reconcile_deployment`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .replicas import is_active as _active
from .replicas import is_ready as _ready
from .replicas import owned, revision
from .replicas import resolve_count as _resolve


def deployment_status(
    env: Any, dep: dict[str, Any], new: dict[str, Any], rss: list[dict[str, Any]], want: int
) -> None:
    """The Deployment's replica counts and its Available and Progressing conditions."""
    ns = dep["metadata"]["namespace"]
    pods = [p for rs in rss for p in owned(env, "pods", ns, rs["metadata"]["uid"]) if _active(p)]
    updated = [p for p in owned(env, "pods", ns, new["metadata"]["uid"]) if _active(p)]
    ready = sum(1 for p in pods if _ready(p))
    ru = (dep["spec"].get("strategy") or {}).get("rollingUpdate") or {}
    unavailable = _resolve(ru.get("maxUnavailable"), want, False)
    if (dep["spec"].get("strategy") or {}).get("type") == "Recreate":
        unavailable = 0
    old = {c["type"]: c for c in (dep.get("status") or {}).get("conditions") or []}
    now = env.clock.ts()
    since = env.facts.get(("deployments", ns, dep["metadata"]["name"]), {}).get(
        "available_since", now
    )

    def cond(ctype: str, status: str, reason: str, message: str) -> dict[str, Any]:
        prev = old.get(ctype)
        moved = prev is None or prev["status"] != status
        changed = prev is None or prev.get("reason") != reason
        earlier: dict[str, Any] = prev if prev is not None else {}
        return {
            "type": ctype,
            "status": status,
            "reason": reason,
            "message": message,
            "lastUpdateTime": now if changed else earlier.get("lastUpdateTime", now),
            "lastTransitionTime": (since if prev is None else now)
            if moved
            else earlier.get("lastTransitionTime", now),
        }

    available = ready >= want - unavailable
    complete = (
        len(updated) == want and len(pods) == want and sum(1 for p in updated if _ready(p)) == want
    )
    progressing = _progressing(env, dep, new, rss, complete, cond)
    status: dict[str, Any] = {
        "observedGeneration": dep["metadata"].get("generation", 1),
        "replicas": len(pods),
        "updatedReplicas": len(updated),
        "readyReplicas": ready,
        "availableReplicas": ready,
        "unavailableReplicas": max(0, len(pods) - ready) if len(pods) >= want else want - ready,
        "conditions": [
            cond(
                "Available",
                "True" if available else "False",
                "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
                "Deployment has minimum availability."
                if available
                else "Deployment does not have minimum availability.",
            ),
            progressing,
        ],
    }
    for k in (
        "readyReplicas",
        "availableReplicas",
        "unavailableReplicas",
        "updatedReplicas",
        "replicas",
    ):
        if not status[k]:
            status.pop(k)
    if dep.get("status") != status:
        dep["status"] = status
        env.store.touch(dep)


def _progressing(
    env: Any,
    dep: dict[str, Any],
    new: dict[str, Any],
    rss: list[dict[str, Any]],
    complete: bool,
    cond: Callable[[str, str, str, str], dict[str, Any]],
) -> dict[str, Any]:
    """The Progressing condition: paused, complete (remembered per ReplicaSet), past its
    progress deadline, or still progressing."""
    ns = dep["metadata"]["namespace"]
    rs_name = new["metadata"]["name"]
    started = env.facts.get(("replicasets", ns, rs_name), {}).get("started", env.clock.seconds())
    overdue = env.clock.seconds() - started > int(dep["spec"].get("progressDeadlineSeconds", 600))
    facts = env.facts.get(("deployments", ns, dep["metadata"]["name"]), {})
    rs_facts = env.facts.setdefault(("replicasets", ns, rs_name), {})
    if complete or (
        env.provisioning
        and facts.get("was_complete")
        and revision(new) == max(revision(r) for r in rss)
        and not dep["spec"].get("paused")
    ):
        rs_facts["completed"] = True
    if dep["spec"].get("paused"):
        progressing = cond("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused")
    elif complete or rs_facts.get("completed"):
        progressing = cond(
            "Progressing",
            "True",
            "NewReplicaSetAvailable",
            f'ReplicaSet "{rs_name}" has successfully progressed.',
        )
    elif overdue:
        progressing = cond(
            "Progressing",
            "False",
            "ProgressDeadlineExceeded",
            f'ReplicaSet "{rs_name}" has timed out progressing.',
        )
    else:
        progressing = cond(
            "Progressing", "True", "ReplicaSetUpdated", f'ReplicaSet "{rs_name}" is progressing.'
        )
    return progressing
