"""The Kubernetes objects of the ambient noise (issue 27): creation as the provider, dated
before provision, and the CronJob, Job and pod bodies (:mod:`.ambient`, :mod:`.ambient_init`)."""

from __future__ import annotations

from typing import Any

from .inject import Context


def pick_node(env: Any, pick: int) -> str:
    """A worker node of the cluster, by the draw."""
    names = sorted(n["metadata"]["name"] for n in env.store.iter("nodes"))
    return names[pick % len(names)] if names else "node-1"


def taken(env: Any, ns: str, name: str) -> bool:
    """A batch job's name already used in ``ns`` by a declared object (the noise then yields)."""
    return any(env.store.exists(p, ns, name) for p in ("cronjobs", "deployments", "services"))


def batch_run(env: Any, name: str, ago: float, draw: bytes) -> tuple[str, str, dict[str, str]]:
    """The Job and pod names of the batch job ``name``'s run ``ago`` seconds before provision
    (a CronJob's Job is named by its scheduled minute), and the labels of its pods."""
    job = f"{name}-{int((env.clock.start.timestamp() - ago) // 60)}"
    return (
        job,
        f"{job}-{draw[4:7].hex()[:5]}",
        {"app": name, "app.kubernetes.io/component": "batch"},
    )


def create(ctx: Context, plural: str, ns: str, body: dict[str, Any], ago: float) -> Any:
    """Create ``body`` as the provider, dated ``ago`` seconds before provision; the stored
    object (its status is the caller's to set)."""
    body["metadata"]["creationTimestamp"] = ctx.env.clock.ts(ago)
    res = ctx.env.api.request(ctx.user, "create", plural, ns, body=body)
    if not res.ok:
        raise RuntimeError(f"ambient {plural}/{body['metadata']['name']}: {res.body}")
    return ctx.env.store.raw(plural, ns, body["metadata"]["name"])


def owner_ref(api: str, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The ownerReference naming ``obj`` (its controller)."""
    meta = obj["metadata"]
    return {
        "apiVersion": api,
        "kind": kind,
        "name": meta["name"],
        "uid": meta["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def cron_body(name: str, schedule: str, template: dict[str, Any]) -> dict[str, Any]:
    """A CronJob running ``template`` on ``schedule``, one failed Job kept."""
    return {
        "kind": "CronJob",
        "apiVersion": "batch/v1",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "schedule": schedule,
            "concurrencyPolicy": "Forbid",
            "successfulJobsHistoryLimit": 1,
            "failedJobsHistoryLimit": 1,
            "jobTemplate": {"spec": {"backoffLimit": 0, "template": template}},
        },
    }


def job_body(
    job: str, labels: dict[str, str], template: dict[str, Any], owner: dict[str, Any]
) -> dict[str, Any]:
    """A Job of ``template`` owned by its CronJob, no retry."""
    return {
        "kind": "Job",
        "apiVersion": "batch/v1",
        "metadata": {"name": job, "labels": dict(labels), "ownerReferences": [owner]},
        "spec": {"backoffLimit": 0, "completions": 1, "parallelism": 1, "template": template},
    }


def job_status(env: Any, ago: float) -> dict[str, Any]:
    """Failed ``ago`` seconds before provision: ``BackoffLimitExceeded``."""
    done = env.clock.ts(ago - 45)
    return {
        "startTime": env.clock.ts(ago),
        "failed": 1,
        "ready": 0,
        "conditions": [
            {
                "type": t,
                "status": "True",
                "reason": "BackoffLimitExceeded",
                "message": "Job has reached the specified backoff limit",
                "lastProbeTime": done,
                "lastTransitionTime": done,
            }
            for t in ("FailureTarget", "Failed")
        ],
    }


def pod_body(
    pod: str,
    job: str,
    labels: dict[str, str],
    template: dict[str, Any],
    node: str,
    jobo: dict[str, Any],
) -> dict[str, Any]:
    """The Job's pod on ``node``, its status the caller's to set."""
    return {
        "kind": "Pod",
        "metadata": {
            "name": pod,
            "labels": {**labels, "job-name": job, "batch.kubernetes.io/job-name": job},
            "ownerReferences": [owner_ref("batch/v1", "Job", jobo)],
        },
        "spec": {**template["spec"], "nodeName": node},
        "status": {"phase": "Pending"},
    }
