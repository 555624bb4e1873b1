"""A serving-side decoy in the ambient noise (issue 27, round 4): a worker Deployment of its
own name, off every symptom's path, whose past shows the abnormalities a fault shows.

The batch noise of :mod:`.ambient` and :mod:`.ambient_init` is named after its CronJobs, so one
name filter removes it whole (the round-6 gamers do). Real namespaces also hold long-running
workers no Service fronts: here one Deployment (``audit-forwarder``, ``cache-warmer``,
``search-indexer`` or ``webhook-relay``, names that sort before or after most workloads in a
listing), its pod ``Running`` and ``Ready`` today, with a past: its main container was
``OOMKilled`` hours ago and restarted (``restartCount`` 1 to 3, ``lastState`` terminated with
exit code 137), its init container failed once when the pod started (``restartCount`` 1,
``lastState`` ``Error``), its last rollout days old. Beside it a NetworkPolicy named like an
app's policy (admitting only the monitoring scraper) and a trace of its own consumer loop with
a slow database span, hours before provision.

Round 5 (issue 27): the worker belongs to another team. Its Deployment and pods carry that
team's ``team`` label and ``team-contact`` / ``escalation-channel`` annotations (the keys a
namespace's owners use), so "the first owner label read" or "every contact listed" is not the
escalation path of the workload the operator names. And it has a memory series of its own
(``container_memory_working_set_bytes``, labelled with its service as a scenario's recorded
series are): rising steadily since its OOM kill towards its own 384Mi limit, so "memory grows
from X to Y" without whose, or with this limit, may be another workload's.

An agent that follows the symptom (the workload the operator names, its Service, its request
path) never needs it: no Service selects it, no declared object names it, it is healthy now.
One that takes the first init container, termination reason, policy or slow query a survey
returns lands on it. Which name, how many restarts and how long ago are drawn from the
environment's seed, the namespace's position in the scope and the number of declared objects
(never a name: a renamed scenario gets the same decoy).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers, deployments
from ..observability.telemetry import STEP
from . import ambient_objects as amb
from .inject import Context

#: (name, image, the topic its consumer loop reads, the query that loop spends its time in)
POOL = (
    (
        "audit-forwarder",
        "registry.example.com/platform/audit-forwarder:2.3.1",
        "audit-events",
        "SELECT id, payload FROM audit_outbox WHERE forwarded_at IS NULL ORDER BY id",
    ),
    (
        "cache-warmer",
        "registry.example.com/platform/cache-warmer:1.6.0",
        "cache-invalidations",
        "SELECT key, version FROM cache_manifest WHERE stale = true",
    ),
    (
        "search-indexer",
        "registry.example.com/search/search-indexer:4.0.2",
        "catalog-changes",
        "SELECT doc_id, body FROM search_documents WHERE indexed_at < updated_at",
    ),
    (
        "webhook-relay",
        "registry.example.com/integrations/webhook-relay:0.12.5",
        "outbound-webhooks",
        "SELECT id, target_url FROM webhook_deliveries WHERE status = 'retry'",
    ),
)
INIT = ("wait-for-broker", "busybox:1.36")
#: (team, contact, escalation channel) of the team that runs the worker: never a team the SI
#: scenarios declare (``payments``, ``platform``), drawn apart from the worker's name
TEAMS = (
    ("data-pipelines", "data-pipelines-oncall@company.com", "#data-pipelines-alerts"),
    ("growth-eng", "growth-oncall@company.com", "#growth-incidents"),
    ("identity-team", "identity-oncall@company.com", "#identity-incidents"),
    ("search-infra", "search-infra-oncall@company.com", "#search-infra-pager"),
)
#: the worker container's memory limit (its pod spec)
LIMIT_MI = 384
#: every name this module may create objects under (for :func:`.ambient.is_ambient`)
NAMES = frozenset(p[0] for p in POOL)


def add(ctx: Context, ns: str, index: int) -> list[tuple[str, str, str]]:
    """The worker Deployment of the ``index``-th scope namespace, its policy and its trace."""
    env = ctx.env
    salt = f"ambient-worker:{env.seed}:{index}:{len(env.declared_keys)}"
    draw = hashlib.sha256(salt.encode()).digest()
    name, image, topic, query = POOL[draw[0] % len(POOL)]
    policy = f"{name}-allow-metrics"
    if amb.taken(env, ns, name) or env.store.exists("networkpolicies", ns, policy):
        return []
    oom_ago = (1 + draw[1] % 5) * 3600 + (draw[2] % 50) * 60  # 1 h to 5 h 49 m ago
    rollout_ago = (3 + draw[3] % 7) * 86400  # 3 to 9 days ago
    team, contact, channel = TEAMS[draw[7] % len(TEAMS)]
    labels = {"app": name, "app.kubernetes.io/component": "worker", "team": team}
    notes = {"team-contact": contact, "escalation-channel": channel}
    env.registry.update({image, INIT[1]})
    facts = env.facts.setdefault(("deployments", ns, name), {})
    facts.update(
        {
            "rs_ago": rollout_ago,
            "restarts": 1 + draw[4] % 3,
            "recovered": {
                "reason": "OOMKilled",
                "exitCode": 137,
                "at": int(env.clock.seconds() - oom_ago),
            },
            "init_recovered": INIT[0],
        }
    )
    dep = deployments.deployment_object(
        name, ns, 1, _pod_spec(name, image, topic), labels, notes, pod_labels=labels
    )
    dep["spec"]["template"]["metadata"]["annotations"].update(notes)
    amb.create(ctx, "deployments", ns, dep, 60 * 86400)
    amb.create(ctx, "networkpolicies", ns, _policy(policy, name), 60 * 86400)
    controllers.reconcile(env)
    _trace(env, name, topic, query, draw)
    _memory(env, ns, name, oom_ago, draw)
    return [("deployments", ns, name), ("networkpolicies", ns, policy)]


def _pod_spec(name: str, image: str, topic: str) -> dict[str, Any]:
    return {
        "initContainers": [
            {"name": INIT[0], "image": INIT[1], "command": ["sh", "-c", "nc -z broker 9092"]}
        ],
        "containers": [
            {
                "name": name,
                "image": image,
                "args": [f"--topic={topic}"],
                "ports": [{"name": "metrics", "containerPort": 9102}],
                "resources": {
                    "requests": {"cpu": "100m", "memory": "192Mi"},
                    "limits": {"memory": f"{LIMIT_MI}Mi"},
                },
            }
        ],
    }


def _policy(policy: str, name: str) -> dict[str, Any]:
    """Ingress to the worker from the monitoring scraper only (it serves nothing else)."""
    return {
        "kind": "NetworkPolicy",
        "apiVersion": "networking.k8s.io/v1",
        "metadata": {"name": policy, "labels": {"app": name}},
        "spec": {
            "podSelector": {"matchLabels": {"app": name}},
            "policyTypes": ["Ingress"],
            "ingress": [
                {
                    "from": [{"podSelector": {"matchLabels": {"app": "prometheus"}}}],
                    "ports": [{"protocol": "TCP", "port": 9102}],
                }
            ],
        },
    }


def _trace(env: Any, name: str, topic: str, query: str, draw: bytes) -> None:
    """One consumer-loop trace hours before provision, its database span slower than any
    incident's (named by its statement, as OpenTelemetry names database spans)."""
    trace_id = hashlib.sha256(b"worker-trace:" + draw).hexdigest()[:32]
    if trace_id in env.traces.traces:
        return
    query_ms = 31000 + (draw[5] % 40) * 100  # 31.0 s to 34.9 s
    start = env.clock.seconds() - (2 + draw[6] % 4) * 3600
    span = amb.span_maker(env, trace_id, name)

    root = span(f"consume {topic}", query_ms + 900, start, None)
    db = span(query, query_ms, start + 0.2, root["spanID"], **{"db.system": "postgresql"})
    ack = span(f"commit {topic}", 600, start + 0.3 + query_ms / 1000, root["spanID"])
    amb.store_trace(env, name, root, db, ack)


def _memory(env: Any, ns: str, name: str, oom_ago: float, draw: bytes) -> None:
    """The working set of the worker's current container, every 30 s since it restarted after
    its OOM kill (labelled as a scenario's recorded series, so its pod's usage follows it):
    from 40% of its limit at the restart, rising steadily to 72% to 93% now (a leak the
    restart only reset). The killed container's samples went with it (cAdvisor's series are
    per container instance)."""
    labels = {"service": name, "namespace": ns, "job": name, "container": name}
    if any(s.name == _SERIES and s.labels == labels for s in env.metrics.series):
        return
    limit, now = LIMIT_MI * 2**20, env.clock.seconds()
    base, high = 0.40, (72 + draw[8] % 22) / 100
    steps = int(oom_ago / STEP)
    points = [
        (now - oom_ago + k * STEP, float(int(limit * (base + (high - base) * k / steps))))
        for k in range(steps + 1)
    ]
    env.metrics.add(_SERIES, labels, points, unit="bytes", hold_from=now)


_SERIES = "container_memory_working_set_bytes"
