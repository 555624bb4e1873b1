"""The Kubernetes objects of the ambient noise (issue 27): stored as the provider's, dated
before provision, and the CronJob, Job and pod bodies (:mod:`.ambient`, :mod:`.ambient_init`)."""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster.apiresult import SETUP_STEP_MS
from ..cluster.store import KINDS, clone
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
    """Store ``body`` as an object the provider made ``ago`` seconds before provision; the
    stored object (its status is the caller's to set).

    Written to the store directly, not through the API server (issue 30): the object predates
    the run, so no audit entry of this run records its creation (one would also date it at
    provision, not ``ago``), and the request pipeline (RBAC, schema, admission) had nothing to
    refuse in the provider's own fixed bodies (``tests/test_ambient_store.py`` checks every
    ambient object of every SI environment against it). The clock and the identifier
    generator move as an API create moves them (one setup step; the object's uid, then the
    audit id the create drew), so every later uid and instant is the same as before."""
    env = ctx.env
    body["metadata"]["creationTimestamp"] = env.clock.ts(ago)
    env.clock.advance(SETUP_STEP_MS)
    obj = clone(body)  # the bodies share their template: each object gets its own containers
    obj["kind"] = KINDS[plural][0]
    obj["metadata"]["namespace"] = ns
    env.prepare_new(plural, obj)
    stored = env.store.insert(obj, fresh=True)
    env.ids.skip_uid()
    env.dirty = True
    return stored


#: a workload's kinds whose pod template names the images a namespace's workloads run
_WORKLOADS = ("deployments", "statefulsets", "daemonsets")


def declared_images(env: Any, ns: str | None) -> list[str]:
    """The main containers' images of the declared workloads in ``ns`` (None: anywhere)."""
    out = set()
    for p, w, n in sorted(env.declared_keys):
        if p in _WORKLOADS and (ns is None or w == ns):
            spec = ((env.store.raw(p, w, n) or {}).get("spec") or {}).get("template") or {}
            for c in (spec.get("spec") or {}).get("containers") or []:
                if isinstance(c, dict) and isinstance(c.get("image"), str) and c["image"]:
                    out.add(c["image"].split("@", 1)[0])
    return sorted(out)


def image_like(env: Any, ns: str, name: str, draw: bytes) -> str:
    """The image of the ambient workload ``name`` in the form of the namespace's declared
    workloads' images (else the environment's, else the simulator's default
    ``<name>:v1.0.0``): one of them, by ``draw[0]``, gives the registry and path before its
    last ``/``; one of their tags, by ``draw[1]``, the tag (s11-sim15: a version of its own
    was the only ``v4.16.9`` beside ``v1.0.0``s). No prefix or tag is the noise's alone, so
    no image filter drops it and spares the scenario's workloads (issue 27, rounds 12-13)."""
    images = declared_images(env, ns) or declared_images(env, None) or ["x:v1.0.0"]
    path, _, _ = images[draw[0] % len(images)].rpartition("/")
    tags = [i.rpartition("/")[2].partition(":")[1:] for i in images]
    colon, tag = tags[draw[1] % len(tags)]
    return f"{path}/{name}{colon}{tag}" if path else f"{name}{colon}{tag}"


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


def span_maker(env: Any, trace_id: str, service: str) -> Any:
    """A builder of one ambient trace's spans (ids drawn from the trace id, in call order)."""
    ids = iter(hashlib.sha256(f"spans:{trace_id}:{n}".encode()).hexdigest()[:16] for n in range(3))

    def span(op: str, ms: float, at: float, parent: str | None, **more: Any) -> dict[str, Any]:
        return {
            "traceID": trace_id,
            "spanID": next(ids),
            "parentSpanID": parent,
            "service": service,
            "operation": op,
            "startTime": env.clock.at(at).isoformat().replace("+00:00", "Z"),
            "duration_ms": float(ms),
            "status": more.pop("status", "ok"),
            "attributes": more,
        }

    return span


def store_trace(env: Any, service: str, root: dict[str, Any], *children: dict[str, Any]) -> None:
    """One ambient trace, a root and its direct children, as the trace backend holds it."""
    spans = [root, *children]
    env.traces.traces[root["traceID"]] = {
        "traceID": root["traceID"],
        "rootService": service,
        "rootOperation": root["operation"],
        "duration_ms": root["duration_ms"],
        "startTime": root["startTime"],
        "spanCount": len(spans),
        "services": [service],
        "root": {**root, "children": [{**c, "children": []} for c in children]},
        "spans": spans,
    }
