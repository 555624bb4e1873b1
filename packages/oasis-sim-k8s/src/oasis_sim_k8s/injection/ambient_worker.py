"""A serving-side decoy in the ambient noise (issue 27, round 4): a worker Deployment of its
own name, off every symptom's path, whose past shows the abnormalities a fault shows.

The batch noise of :mod:`.ambient` and :mod:`.ambient_init` is named after its CronJobs, so one
name filter removes it whole (the round-6 gamers do). Real namespaces also hold long-running
workers no Service fronts: here one Deployment, its pod ``Running`` and ``Ready`` today, with a
past: its main container was ``OOMKilled`` hours ago and restarted (``restartCount`` 1 to 3,
``lastState`` terminated with exit code 137), its init container failed once when the pod
started (``restartCount`` 1, ``lastState`` ``Error``), its last rollout days old (since s11-sim16
as old as a declared Deployment's of its namespace, :func:`rollout_age`). Beside it a trace of
its own consumer loop with a slow database span, hours before provision, and where a declared
NetworkPolicy fences the namespace (:func:`fenced`) one named like an app's admitting only the
monitoring scraper. Until s11-sim17 that policy was made everywhere: a policy isolates every pod
it selects, so none can put the scraper's admission on open scenario pods, and the worker was
the one Deployment a scraper-only policy selected (round 15's ``scraped_handoff``).

Round 5 (issue 27): the worker belongs to another team. Its Deployment and pods carry that
team's ``team`` label and ``team-contact`` / ``escalation-channel`` annotations (the keys a
namespace's owners use), so "the first owner label read" or "every contact listed" is not the
escalation path of the workload the operator names. And it has a memory series of its own
(``container_memory_working_set_bytes``, labelled with its service as a scenario's recorded
series are): rising steadily since its OOM kill towards its own limit, so "memory grows from X
to Y" without whose, or with this limit, may be another workload's.

Round 6 (issue 27): its name, init container, team, contacts, policy, consumer loop, query,
memory limit, metrics port and component label are composed from word lists
(:mod:`.ambient_names`): round 9's red team undid a closed list of four names with one filter.

Round 10 (issue 27): a Service of its own selects it (its metrics and health endpoint, named
and shaped by the same draw), since "the Deployment no Service selects" dropped it whole.

Round 11 (issue 27): whose it is follows the namespace's own data (:func:`ownership`), since
"every Deployment whose team marks share nothing with the namespace's" dropped it whole: where
nothing of the namespace carries owner marks it carries none; where something does, another
team's as in round 5 (round 13: no longer the namespace's own or none by the seed, since a
worker that repeats the namespace's marks makes "the team most objects carry" its owner).

Round 12 (issue 27, s10-fix12b): its image takes the form of the namespace's declared workloads'
images (:func:`.ambient_objects.image_like`: their registry and path; since s11-sim15 one of
their tags too, not a version of its own), drawn from the seed among them, since a
``registry.example.com/<area>/`` prefix no scenario image has dropped it (and only it) by one
filter.

Round 23 (issue 27, branch s15-decoy5): its container is reached and probed as a declared
container of its namespace (:func:`.ambient_shape.serving`: that container's ports and probes,
the cluster's defaults where none is declared), its Service's port named as a declared
Service's there; probed on a port named ``metrics``, it was the one unready Deployment so
probed (round 23's ``quiet_loop_dropped``).

An agent that follows the symptom (the workload the operator names, its Service, its request
path) never needs it: no declared object names it, it is healthy now.
One that takes the first init container, termination reason, policy or slow query a survey
returns lands on it. Everything is drawn from the environment's seed, the namespace's position
in the scope and the number of declared objects (never a name: a renamed scenario gets the same
decoy).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from typing import Any

from ..cluster import controllers, deployments, objects
from ..observability.telemetry import STEP
from . import ambient_objects as amb
from . import ambient_shape as shape
from .ambient_names import Identity, compose_free
from .inject import Context
from .workloads import DEFAULT_AGE


def add(ctx: Context, ns: str, index: int, replicas: int = 1) -> list[tuple[str, str, str]]:
    """The worker Deployment of the ``index``-th scope namespace (``replicas`` pods: two
    beside the failing decoy, :mod:`.ambient_failing`), its Service, its policy where the
    namespace's pods are fenced, and its trace."""
    env = ctx.env
    salt = f"ambient-worker:{env.seed}:{index}:{len(env.declared_keys)}"
    d = hashlib.sha256(salt.encode()).digest()
    # before or after most workloads by the byte round 4 drew its name with (then 2 of 4 each)
    ident = compose_free(env, ns, salt, early=d[0] % 4 < 2)
    if ident is None:
        return []
    ident = replace(ident, image=amb.image_like(env, ns, ident.name, d[10:12]))
    served = shape.serving(shape.model(env, ns, d[9]))
    ident = _served_on(ident, shape.first_port(served))
    ident = replace(
        ident, service_port_name=shape.service_port_name(env, ns) or ident.service_port_name
    )
    rollout_ago = rollout_age(env, ns, d[3])
    # 1 h to 5 h 49 m ago, and since its rollout (a rollout minutes old: within its first half)
    oom_ago = min((1 + d[1] % 5) * 3600 + (d[2] % 50) * 60, rollout_ago // 2)
    name = ident.name
    marks, notes = ownership(env, ns, ident)
    labels = {"app": name, **marks}
    if ident.component:
        labels["app.kubernetes.io/component"] = ident.component
    env.registry.update({ident.image, INIT_IMAGE})
    facts = env.facts.setdefault(("deployments", ns, name), {})
    facts.update(
        {
            "rs_ago": rollout_ago,
            "restarts": 1 + d[4] % 3,
            "recovered": {
                "reason": "OOMKilled",
                "exitCode": 137,
                "at": int(env.clock.seconds() - oom_ago),
                "ran": max(1, min(5400, rollout_ago - oom_ago - 60)),
            },
        }
    )
    dep = deployments.deployment_object(
        name, ns, replicas, _pod_spec(ident, served), labels, notes, pod_labels=labels
    )
    dep["spec"]["template"]["metadata"]["annotations"].update(notes)
    amb.create(ctx, "deployments", ns, dep, 60 * 86400)
    made = [("deployments", ns, name), ("services", ns, ident.service)]
    if fenced(env, ns):
        amb.create(ctx, "networkpolicies", ns, _policy(ident), 60 * 86400)
        made.insert(1, ("networkpolicies", ns, ident.policy))
    amb.create(ctx, "services", ns, _service(ident, ns), 60 * 86400)
    controllers.reconcile(env)
    _trace(env, ident, d)
    _memory(env, ns, ident, oom_ago, d)
    return made


#: owner labels and contact annotations (the keys ``oasis_sim_k8s.agents.situation`` reads)
_OWNER_LABEL = re.compile(r"(^|[-_./])(team|owner|owned-by|squad|maintainer)s?$", re.I)
_CONTACT_NOTE = re.compile(r"contact|on-?call|escalation|slack|channel|pager|email|rota", re.I)


def ownership(env: Any, ns: str, ident: Identity) -> tuple[dict[str, str], dict[str, str]]:
    """The worker's owner labels and contact annotations: another team's (round 5: ``team``,
    ``team-contact``, ``escalation-channel`` of a team no scenario declares) where the
    namespace or a declared Deployment of it carries owner marks (``_home_marks``), none where
    nothing does. Round 11: marked in an unmarked namespace, it was the one marked Deployment
    ("drop what another team owns" removed it). Round 13: another team's workload beside the
    namespace's is the decoy that tells "the owner of this workload" from "the team most
    objects carry"; the namespace's marks repeated on it made the majority the answer."""
    if not any(_home_marks(env, ns)):
        return {}, {}
    return {"team": ident.team}, {
        "team-contact": ident.contact,
        "escalation-channel": ident.channel,
    }


def _home_marks(env: Any, ns: str) -> tuple[dict[str, str], dict[str, str]]:
    """The owner labels and contact annotations of the namespace, else of its first declared
    Deployment (by name) carrying any."""
    found = [env.store.raw("namespaces", None, ns)] + [
        env.store.raw(p, w, n)
        for p, w, n in sorted(env.declared_keys)
        if p == "deployments" and w == ns
    ]
    for obj in found:
        meta = (obj or {}).get("metadata") or {}
        labels = {
            k: str(v) for k, v in (meta.get("labels") or {}).items() if _OWNER_LABEL.search(k)
        }
        notes = {
            k: str(v) for k, v in (meta.get("annotations") or {}).items() if _CONTACT_NOTE.search(k)
        }
        if labels or notes:
            return labels, notes
    return {}, {}


#: the init container's image (a dependency probe: the same image whatever it waits for)
INIT_IMAGE = "busybox:1.36"


def rollout_age(env: Any, ns: str, draw: int) -> int:
    """How long ago the worker was rolled out: the age of one declared Deployment's of its
    namespace (drawn by ``draw``; s11-sim16, issue 27), not 3 to 9 days where theirs are the
    provision's or minutes before it (round 14's ``aged_handoff`` dropped the worker as the one
    rollout a day older than the namespace's newest). A namespace with no declared Deployment:
    the age the simulator gives any Deployment whose scenario states no deploy
    (``workloads.DEFAULT_AGE``)."""
    keys = sorted(k for k in env.declared_keys if k[0] == "deployments" and k[1] == ns)
    ages = [_rollout_age(env, env.store.raw(*k)) for k in keys]
    return ages[draw % len(ages)] if ages else DEFAULT_AGE


def _rollout_age(env: Any, dep: dict[str, Any] | None) -> int:
    """Seconds since a declared Deployment's newest ReplicaSet was created (its last rollout,
    what ``kubectl get rs`` dates), at least a minute."""
    meta = (dep or {}).get("metadata") or {}
    uid = meta.get("uid")
    sets = env.store.owned("replicasets", meta.get("namespace"), uid) if uid else []
    made = [env.age_to_seconds(r["metadata"].get("creationTimestamp")) for r in sets]
    return max(60, int(env.clock.seconds() - max(made))) if made else DEFAULT_AGE


def _served_on(ident: Identity, port: int) -> Identity:
    """The identity listening on ``port`` (a declared container's, :func:`.ambient_shape.
    serving`), its Service on 80 or on that port as drawn."""
    on_80 = ident.service_port == 80 and ident.port != 80
    return replace(ident, port=port, service_port=80 if on_80 else port)


def _pod_spec(ident: Identity, served: dict[str, Any]) -> dict[str, Any]:
    """One init container (its dependency probe) and the worker's container, reached and
    probed as a declared container of its namespace is (``served``: its ports and probes;
    round 23's ``quiet_loop_dropped`` dropped the worker by its probe on a port named
    ``metrics``)."""
    spec: dict[str, Any] = {
        "initContainers": [
            {"name": ident.init, "image": INIT_IMAGE, "command": ["sh", "-c", ident.init_probe]}
        ],
        "containers": [
            {
                "name": ident.name,
                "image": ident.image,
                "args": [f"--topic={ident.topic}"],
                **served,
                "resources": {
                    "requests": {"cpu": "100m", "memory": f"{ident.request_mi}Mi"},
                    "limits": {"memory": f"{ident.limit_mi}Mi"},
                },
            }
        ],
    }
    return spec


def fenced(env: Any, ns: str) -> bool:
    """Whether the worker's ingress is fenced (its scraper-only policy made): only where the
    namespace holds a declared NetworkPolicy (s11-sim17). Elsewhere it is as open as the
    scenario's pods, not the one Deployment a policy selects."""
    return any(
        env.store.exists(family, n, name)
        for family, n, name in sorted(env.declared_keys)
        if family == "networkpolicies" and n == ns
    )


def _policy(ident: Identity) -> dict[str, Any]:
    """Ingress to the worker from the monitoring scraper only (it serves nothing else)."""
    return {
        "kind": "NetworkPolicy",
        "apiVersion": "networking.k8s.io/v1",
        "metadata": {"name": ident.policy, "labels": {"app": ident.name}},
        "spec": {
            "podSelector": {"matchLabels": {"app": ident.name}},
            "policyTypes": ["Ingress"],
            "ingress": [
                {
                    "from": [{"podSelector": {"matchLabels": {"app": "prometheus"}}}],
                    "ports": [{"protocol": "TCP", "port": ident.port}],
                }
            ],
        },
    }


def _service(ident: Identity, ns: str) -> dict[str, Any]:
    """The Service its metrics and health endpoint is scraped through (round 10): selecting
    the worker's pods as a scenario's Service selects its workload's, so "the Deployment no
    Service selects" is no longer the worker."""
    port = {
        "name": ident.service_port_name,
        "port": ident.service_port,
        "protocol": "TCP",
        "targetPort": ident.port,
    }
    body = objects.service(ident.service, ns, {"app": ident.name}, [port])
    body["metadata"]["labels"] = {"app": ident.name}
    return body


def _trace(env: Any, ident: Identity, draw: bytes) -> None:
    """One consumer-loop trace hours before provision, its database span slower than any
    incident's (named by its statement, as OpenTelemetry names database spans)."""
    trace_id = hashlib.sha256(b"worker-trace:" + draw).hexdigest()[:32]
    if trace_id in env.traces.traces:
        return
    query_ms = 31000 + (draw[5] % 40) * 100  # 31.0 s to 34.9 s
    start = env.clock.seconds() - (2 + draw[6] % 4) * 3600
    span = amb.span_maker(env, trace_id, ident.name)
    (loop, close), query = ident.loop, ident.query
    root = span(loop, query_ms + 900, start, None)
    db = span(query, query_ms, start + 0.2, root["spanID"], **{"db.system": "postgresql"})
    ack = span(close, 600, start + 0.3 + query_ms / 1000, root["spanID"])
    amb.store_trace(env, ident.name, root, db, ack)


def _memory(env: Any, ns: str, ident: Identity, oom_ago: float, draw: bytes) -> None:
    """The working set of the worker's current container, every 30 s since it restarted after
    its OOM kill (labelled as a scenario's recorded series, so its pod's usage follows it):
    from 40% of its limit at the restart, rising steadily to 72% to 93% now (a leak the
    restart only reset). The killed container's samples went with it (cAdvisor's series are
    per container instance)."""
    name = ident.name
    labels = {"service": name, "namespace": ns, "job": name, "container": name}
    if any(s.name == _SERIES and s.labels == labels for s in env.metrics.series):
        return
    limit, now = ident.limit_mi * 2**20, env.clock.seconds()
    base, high = 0.40, (72 + draw[8] % 22) / 100
    steps = int(oom_ago / STEP)
    points = [
        (now - oom_ago + k * STEP, float(int(limit * (base + (high - base) * k / steps))))
        for k in range(steps + 1)
    ]
    env.metrics.add(_SERIES, labels, points, unit="bytes", hold_from=now)


_SERIES = "container_memory_working_set_bytes"
