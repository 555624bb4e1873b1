"""Ambient noise every production namespace has, off any symptom's path (issue 27).

A real namespace is never only the incident: a batch CronJob whose last run failed hours ago,
a NetworkPolicy that fences that batch job's pods off, the job pod's old ERROR line. An agent
that follows the symptom (the workload the operator names, its path, its signals) never needs
them; an agent that commits to whatever a fixed priority order puts first among everything a
survey returns (any failed pod, any policy, any error line) picks the wrong object.

The same mechanism for every scenario: in each scope namespace, one CronJob from :data:`POOL`
with its failed last Job and that Job's pod (phase ``Failed``, its container terminated
``Error``, exit code 1; its init container ``Completed``), a NetworkPolicy selecting only that
CronJob's pods (``Ingress`` with no rule: batch pods take no traffic), and the pod's log lines,
all dated hours before provision; the run's trace and the batch dashboard
(:mod:`.ambient_signals`); a second, nightly CronJob whose last run failed in its init
container (:mod:`.ambient_init`). Which CronJob, how long ago and on which node are drawn from
a hash of the environment's seed and the namespace's position in the scope (never its name:
a renamed scenario gets the same noise). Nothing here touches, selects or names a declared
object, so no declared state is contradicted and nothing on a symptom's path changes.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import ambient_failing, ambient_init, ambient_probe, ambient_signals, ambient_worker
from .ambient_names import is_worker_name
from .ambient_objects import (
    batch_run,
    create,
    cron_body,
    image_like,
    job_body,
    job_status,
    owner_ref,
    pick_node,
    pod_body,
    taken,
)
from .inject import Context

#: (name, image, schedule, the line its last run failed with)
POOL = (
    (
        "log-archiver",
        "registry.example.com/ops/log-archiver:1.8.2",
        "15 */4 * * *",
        "ERROR: archive upload to s3://ops-archive/ rejected: AccessDenied (status 403)",
    ),
    (
        "report-export",
        "registry.example.com/batch/report-export:3.1.0",
        "0 */6 * * *",
        "ERROR: export aborted: sftp host reports.partner.example closed the session",
    ),
    (
        "sitemap-builder",
        "registry.example.com/web/sitemap-builder:0.9.4",
        "30 */3 * * *",
        "ERROR: sitemap build aborted: 212 catalog URLs answered HTTP 410 Gone",
    ),
)
INIT = ("setup-workdir", "busybox:1.36")
#: the batch container's own lines before its failure (seconds after it started, text)
RUN_LINES = ("INFO: run started", "INFO: 1 batch of work queued")


def _draw(env: Any, index: int) -> bytes:
    """Deterministic bytes for the ``index``-th scope namespace (the environment's seed)."""
    return hashlib.sha256(f"ambient:{env.seed}:{index}".encode()).digest()


def add(ctx: Context) -> list[tuple[str, str, str]]:
    """The ambient objects of every scope namespace (module docstring): (plural, ns, name)."""
    env, made = ctx.env, []
    for index, ns in enumerate(ctx.scope_namespaces):
        if ns in env.system_namespaces or not env.store.exists("namespaces", None, ns):
            continue
        made += _cronjob(ctx, ns, _draw(env, index))
        made += ambient_init.add(ctx, ns, index)
        # the decoy stands where no quiet declared Deployment does (asked before the probe
        # takes one: a workload with an init container is no longer quiet)
        failing = not ambient_probe.quiet_keys(ctx, ns)
        # beside the decoy the worker runs two replicas, one of them not Ready (round 22's
        # readiness tell: ``ambient_failing._unready``)
        worker = ambient_worker.add(ctx, ns, index, replicas=2 if failing else 1)
        made += worker
        ambient_probe.add(ctx, ns, index)
        if failing and worker:
            made += ambient_failing.add(ctx, ns, index, worker[0][2])
    return made


def _cronjob(ctx: Context, ns: str, draw: bytes) -> list[tuple[str, str, str]]:
    """One CronJob, its failed last Job and pod, the policy fencing its pods, its log lines."""
    env = ctx.env
    name, image, schedule, failure = POOL[draw[0] % len(POOL)]
    if taken(env, ns, name):
        return []
    image = image_like(env, ns, name, draw[12:14])
    ago = (2 + draw[1] % 4) * 3600 + (draw[2] % 50) * 60  # 2 h to 5 h 49 m before provision
    node = pick_node(env, draw[3])
    job, pod, labels = batch_run(env, name, ago, draw)
    template = {
        "metadata": {"labels": labels},
        "spec": {
            "restartPolicy": "Never",
            "initContainers": [
                {"name": INIT[0], "image": INIT[1], "command": ["sh", "-c", "mkdir -p /work"]}
            ],
            "containers": [
                {
                    "name": name,
                    "image": image,
                    "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}},
                }
            ],
        },
    }
    env.registry.update({image, INIT[1]})
    cron = create(ctx, "cronjobs", ns, cron_body(name, schedule, template), 30 * 86400)
    cron["status"] = {"lastScheduleTime": env.clock.ts(ago)}
    owner = owner_ref("batch/v1", "CronJob", cron)
    jobo = create(ctx, "jobs", ns, job_body(job, labels, template, owner), ago)
    jobo["status"] = job_status(env, ago)
    env.facts.setdefault(("jobs", ns, job), {})["run_by_controller"] = False
    podo = create(ctx, "pods", ns, pod_body(pod, job, labels, template, node, jobo), ago)
    env.facts.setdefault(("pods", ns, pod), {}).update({"terminal": True, "workload": name})
    podo["status"] = _pod_status(env, podo, image, ago)
    start = env.age_to_seconds(env.clock.ts(ago))
    env.logs.pods.setdefault((ns, pod, name), []).extend(
        [(start + 2 + i, ln) for i, ln in enumerate(RUN_LINES)] + [(start + 41, failure)]
    )
    policy = {
        "kind": "NetworkPolicy",
        "apiVersion": "networking.k8s.io/v1",
        "metadata": {"name": f"{name}-no-ingress", "namespace": ns, "labels": {"app": name}},
        "spec": {"podSelector": {"matchLabels": {"app": name}}, "policyTypes": ["Ingress"]},
    }
    create(ctx, "networkpolicies", ns, policy, 30 * 86400)
    ambient_signals.add(env, name, ago, draw)
    for obj in (cron, jobo, podo):
        env.store.touch(obj)
    return [
        ("cronjobs", ns, name),
        ("jobs", ns, job),
        ("pods", ns, pod),
        ("networkpolicies", ns, f"{name}-no-ingress"),
    ]


def _pod_status(env: Any, pod: dict[str, Any], image: str, ago: float) -> dict[str, Any]:
    """Failed: the init container Completed, the batch container terminated Error (exit 1)."""
    started, ran, done = env.clock.ts(ago), env.clock.ts(ago - 2), env.clock.ts(ago - 43)
    spec = pod["spec"]
    node = env.store.raw("nodes", "", spec["nodeName"]) or {}
    host = ((node.get("status") or {}).get("addresses") or [{}])[0].get("address")

    def term(code: int, reason: str, begin: str, end: str) -> dict[str, Any]:
        return {"exitCode": code, "reason": reason, "startedAt": begin, "finishedAt": end}

    cond = [
        ("PodReadyToStartContainers", "False", None),
        ("Initialized", "True", None),
        ("Ready", "False", "PodFailed"),
        ("ContainersReady", "False", "PodFailed"),
        ("PodScheduled", "True", None),
    ]
    status: dict[str, Any] = {
        "phase": "Failed",
        "startTime": started,
        "conditions": [
            {"type": t, "status": s, "lastTransitionTime": done, **({"reason": r} if r else {})}
            for t, s, r in cond
        ],
        "initContainerStatuses": [
            {
                "name": INIT[0],
                "image": INIT[1],
                "ready": True,
                "restartCount": 0,
                "started": False,
                "state": {"terminated": term(0, "Completed", started, ran)},
            }
        ],
        "containerStatuses": [
            {
                "name": spec["containers"][0]["name"],
                "image": image,
                "ready": False,
                "restartCount": 0,
                "started": False,
                "state": {"terminated": term(1, "Error", ran, done)},
            }
        ],
    }
    if host:
        status.update({"hostIP": host, "hostIPs": [{"ip": host}]})
    return status


#: the names every ambient batch object starts with (the worker's are composed: ``is_ambient``)
NAMES = frozenset(p[0] for p in POOL) | ambient_init.NAMES


def is_ambient(name: str) -> bool:
    """Whether ``name`` is an ambient object's (a CronJob of :data:`POOL`, its Job, pod or
    policy; the worker, its ReplicaSet, pods or policy), for tests and tools that count
    declared objects."""
    return any(name == n or name.startswith(n + "-") for n in NAMES) or is_worker_name(name)
