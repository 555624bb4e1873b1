"""A second batch job in the ambient noise (issue 27, round 3): a nightly CronJob whose last
run never started, its init container having failed, beside the CronJob of :mod:`.ambient`.

Real namespaces hold more than one batch job, under names that sort anywhere in a listing:
here one whose name sorts near the top (``account-digest``, ``analytics-rollup``), so a survey
that reads pods in the API's name order meets it first. Its last Job failed hours ago
(``BackoffLimitExceeded``) and the Job's pod is ``Failed``: its init container terminated
``Error`` (exit code 1, its ERROR line in the init container's log), its main container never
started (``PodInitializing``). An agent that follows the symptom (the workload the operator
names, its request path) never needs it; one that takes the first failing init container
listed for the cause names the batch job.

The same mechanism for every scenario, drawn from the environment's seed and the namespace's
position in the scope; it never touches, selects or names a declared object, and is skipped
where a declared object has its name.
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import ambient_objects as amb
from .inject import Context

#: (name, image, schedule, (init container, its image, the line it failed with))
POOL = (
    (
        "account-digest",
        "registry.example.com/mail/account-digest:1.2.0",
        "0 6 * * *",
        (
            "render-templates",
            "registry.example.com/mail/templater:0.4.2",
            "ERROR: template weekly-digest.html: undefined variable 'unsubscribe_url'",
        ),
    ),
    (
        "analytics-rollup",
        "registry.example.com/data/analytics-rollup:2.4.1",
        "45 2 * * *",
        (
            "wait-for-warehouse",
            "busybox:1.36",
            "ERROR: warehouse.analytics.example:5439 unreachable after 30 attempts, giving up",
        ),
    ),
)
#: the dependency probe's image (a public image, kept as every cluster pulls it)
INIT_IMAGE = "busybox:1.36"
#: every name this module may create objects under (for :func:`.ambient.is_ambient`)
NAMES = frozenset(p[0] for p in POOL)


def add(ctx: Context, ns: str, index: int) -> list[tuple[str, str, str]]:
    """The nightly CronJob of the ``index``-th scope namespace, its failed Job and pod."""
    env = ctx.env
    draw = hashlib.sha256(f"ambient-init:{env.seed}:{index}".encode()).digest()
    name, image, schedule, (init, init_image, failure) = POOL[draw[0] % len(POOL)]
    if amb.taken(env, ns, name):
        return []
    image = amb.image_like(env, ns, name, draw[8:10])
    if init_image != INIT_IMAGE:  # its own tool's image, in the same form (s11-sim15)
        init_image = amb.image_like(
            env, ns, init_image.rpartition("/")[2].split(":")[0], draw[10:12]
        )
    ago = (6 + draw[1] % 5) * 3600 + (draw[2] % 50) * 60  # 6 h to 10 h 49 m before provision
    job, pod, labels = amb.batch_run(env, name, ago, draw)
    template = {
        "metadata": {"labels": labels},
        "spec": {
            "restartPolicy": "Never",
            "initContainers": [{"name": init, "image": init_image}],
            "containers": [
                {
                    "name": name,
                    "image": image,
                    "resources": {"requests": {"cpu": "200m", "memory": "256Mi"}},
                }
            ],
        },
    }
    env.registry.update({image, init_image})
    cron = amb.create(ctx, "cronjobs", ns, amb.cron_body(name, schedule, template), 60 * 86400)
    cron["status"] = {"lastScheduleTime": env.clock.ts(ago)}
    body = amb.job_body(job, labels, template, amb.owner_ref("batch/v1", "CronJob", cron))
    jobo = amb.create(ctx, "jobs", ns, body, ago)
    jobo["status"] = amb.job_status(env, ago)
    env.facts.setdefault(("jobs", ns, job), {})["run_by_controller"] = False
    node = amb.pick_node(env, draw[3])
    podo = amb.create(ctx, "pods", ns, amb.pod_body(pod, job, labels, template, node, jobo), ago)
    env.facts.setdefault(("pods", ns, pod), {}).update({"terminal": True, "workload": name})
    podo["status"] = _pod_status(env, podo, image, init_image, ago)
    start = env.age_to_seconds(env.clock.ts(ago))
    env.logs.pods.setdefault((ns, pod, init), []).append((start + 31, failure))
    for obj in (cron, jobo, podo):
        env.store.touch(obj)
    return [("cronjobs", ns, name), ("jobs", ns, job), ("pods", ns, pod)]


def _pod_status(
    env: Any, pod: dict[str, Any], image: str, init_image: str, ago: float
) -> dict[str, Any]:
    """Failed before it ran: the init container terminated Error (exit 1), the main container
    still waiting (``PodInitializing``)."""
    started, done = env.clock.ts(ago), env.clock.ts(ago - 31)
    spec = pod["spec"]
    node = env.store.raw("nodes", "", spec["nodeName"]) or {}
    host = ((node.get("status") or {}).get("addresses") or [{}])[0].get("address")
    init, main = spec["initContainers"][0]["name"], spec["containers"][0]["name"]
    not_init = {
        "reason": "ContainersNotInitialized",
        "message": f"containers with incomplete status: [{init}]",
    }
    not_ready = {"reason": "PodFailed"}
    cond = [
        ("PodReadyToStartContainers", "False", {}),
        ("Initialized", "False", not_init),
        ("Ready", "False", not_ready),
        ("ContainersReady", "False", not_ready),
        ("PodScheduled", "True", {}),
    ]
    status: dict[str, Any] = {
        "phase": "Failed",
        "startTime": started,
        "conditions": [
            {"type": t, "status": s, "lastTransitionTime": done, **more} for t, s, more in cond
        ],
        "initContainerStatuses": [
            {
                "name": init,
                "image": init_image,
                "ready": False,
                "restartCount": 0,
                "started": False,
                "state": {
                    "terminated": {
                        "exitCode": 1,
                        "reason": "Error",
                        "startedAt": started,
                        "finishedAt": done,
                    }
                },
            }
        ],
        "containerStatuses": [
            {
                "name": main,
                "image": image,
                "ready": False,
                "restartCount": 0,
                "started": False,
                "state": {"waiting": {"reason": "PodInitializing"}},
            }
        ],
    }
    if host:
        status.update({"hostIP": host, "hostIPs": [{"ip": host}]})
    return status
