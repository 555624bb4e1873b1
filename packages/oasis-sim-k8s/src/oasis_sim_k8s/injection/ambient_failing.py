"""The failing decoy: a Deployment of its own crash-looping where no quiet declared workload
stands beside the incident, shaped as the namespace's declared workloads (issue 27, branches
s13-decoy2 and s14-decoy3).

Where :mod:`.ambient_probe` finds no quiet declared Deployment to share the probe with (the
scenario declares only the incident's subject), "drop every Deployment whose Ready pods have a
past" dropped the worker and left the fault alone: a hunch on it was a correct diagnosis
(``tests/validity/README.md``, "The recovered-past gamers"). s13-decoy2 made the worker's
pod run a crash-looping sidecar there; round 21's ``sidecar_dropped`` found the worker was
then the one Deployment with a second container (no SI scenario workload declares two), and
the count alone dropped it (README, "Twenty-first round").

So the decoy is a Deployment of its own, one replica, in exactly those namespaces, and no
part of its shape is its alone: its one container is a declared Deployment's of the namespace
(drawn from the seed: its ports and probes; its requests and limits the cluster's defaults,
as most declared workloads' are), its labels that Deployment's keys (the values naming that
workload name the decoy, the others, an owner's, kept), its image in the namespace's form
(:func:`.ambient_objects.image_like`), its rollout as old as a declared one's
(:func:`.ambient_worker.rollout_age`), a Service of its own only where that Deployment has one
(same ports). Where the namespace declares no Deployment, the simulator's own defaults for
one. Its name is composed as the worker's (:mod:`.ambient_names`). It exits 1, in
``CrashLoopBackOff`` for a loop begun 8 to 39 minutes before provision, its last container
printing an error of its own build and its exit (:func:`.ambient_shape.crash_lines`: printing
only its start-up line, it was the crash loop with no error word, round 23), with a steady
memory series where a declared Deployment of the namespace has a recorded series
(:func:`.ambient_shape.steady_memory`: round 22 dropped it as the crash loop no series is
of). The worker keeps one container, with its live, rising memory series and no past, and
runs two replicas there, the first pod Running and not Ready (its readiness probe answers
503), as a declared ``degraded`` Deployment's first pod is (:func:`_unready`): Ready, "drop
every Deployment whose Ready pods have a past" dropped it again and left the fault beside the
crash loop, whose hunch scored (``tests/validity/README.md``, "The decoy's shape shared"); one
pod not Ready and never restarted, "every pod Running, not Ready, never restarted, with a
series" dropped it alone (README, "Round 22's readiness tell").

No alert is declared for it (alerts are only the scenario's), no declared object names or
selects it, and an operator who follows the prompt's subject, its Service or its symptom never
reads it. Everything is drawn from the environment's seed and the namespace's position (never a
name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers, deployments, objects
from ..cluster.store import clone
from . import ambient_objects as amb
from . import ambient_shape as shape
from .ambient_names import compose_free
from .ambient_worker import rollout_age
from .inject import Context

#: the age of a declared Deployment object whose scenario states none (``amb.create``'s)
_AGE = 30 * 86400


def _draw(env: Any, index: int) -> tuple[str, bytes]:
    salt = f"ambient-failing:{env.seed}:{index}:{len(env.declared_keys)}"
    return salt, hashlib.sha256(salt.encode()).digest()


def add(ctx: Context, ns: str, index: int, worker: str) -> list[tuple[str, str, str]]:
    """The failing decoy of ``ns`` (module docstring) beside the worker ``worker``, not Ready
    now: the decoy's Deployment's key and its Service's, or nothing where the identity drawn
    collides with everything."""
    env = ctx.env
    _unready(env, ns, worker)
    salt, d = _draw(env, index)
    ident = compose_free(env, ns, salt, early=d[0] % 4 < 2)
    if ident is None:
        return []
    model = shape.model(env, ns, d[1])
    name = ident.name
    image = amb.image_like(env, ns, name, d[10:12])
    env.registry.add(image)
    container = _container(model, name, image)
    labels, pod_labels = _labels(model, name)
    dep = deployments.deployment_object(
        name, ns, 1, {"containers": [container]}, labels, pod_labels=pod_labels
    )
    facts = env.facts.setdefault(("deployments", ns, name), {})
    facts.update(
        {
            "rs_ago": rollout_age(env, ns, d[3]),
            "fault": "crash",
            "fault_image": image,
            "last_terminated_ago": 20 + d[4] % 40,
        }
    )
    amb.create(ctx, "deployments", ns, dep, _age(env, model))
    made = [("deployments", ns, name)]
    service = _service(env, ns, model, name, pod_labels)
    if service is not None:
        amb.create(ctx, "services", ns, service, _age(env, model))
        made.append(("services", ns, name))
    controllers.reconcile(env)
    _crash_loop(env, ns, name, d)
    shape.crash_lines(env, ns, name, image, d[6:8], facts["last_terminated_ago"])
    limit = deployments.default_container(name, image)["resources"]["limits"]["memory"]
    shape.steady_memory(env, ns, name, int(limit.removesuffix("Mi")), d[9])
    return made


def _unready(env: Any, ns: str, worker: str) -> None:
    """The first of the worker's two pods Running and not Ready (its readiness probe
    answering 503), as a declared ``degraded`` Deployment's first pod is
    (``provisioning.finalize``'s ``unready_count`` of one), its live rising series kept, its
    OOM past left out. Ready, "drop every Deployment whose Ready pods have a past" dropped it
    and left the fault beside the crash loop alone; not Ready with an OOM kill behind, it was
    a clear cause an operator who finds no subject fixes (s14-decoy3 measured both); one pod,
    not Ready and never restarted, "every pod Running, not Ready, never restarted, with a
    series" dropped it alone (round 22's ``seriesless_fresh_dropped``)."""
    facts = env.facts.get(("deployments", ns, worker))
    if facts is None:
        return
    facts.pop("recovered", None)
    facts["restarts"] = 0
    pods = _pods(env, env.store.raw("deployments", ns, worker))
    for pod in pods:
        env.facts.setdefault(("pods", ns, pod["metadata"]["name"]), {})["restarts"] = 0
    facts["unready_pods"] = [p["metadata"]["name"] for p in pods][:1]
    controllers.reconcile(env)


def _container(model: dict[str, Any] | None, name: str, image: str) -> dict[str, Any]:
    """The cluster's default container (:func:`.deployments.default_container`: the
    requests and limits of every declared workload whose scenario states none) with the
    model's ports and probes. The model's own requests are not taken: where the decoy stands
    the model is often the incident's subject, whose stated resources may be its fault (a
    2500m request no node fits)."""
    out = deployments.default_container(name, image)
    if model is not None:
        out.update(shape.serving(model))
    return out


def _labels(model: dict[str, Any] | None, name: str) -> tuple[dict[str, str], dict[str, str]]:
    """The model's Deployment and pod labels, every value naming the model naming ``name``."""
    if model is None:
        return {"app": name}, {"app": name}
    own = model["metadata"]["name"]

    def swap(labels: dict[str, Any] | None) -> dict[str, str]:
        return {k: name if str(v) == own else str(v) for k, v in (labels or {}).items()}

    pod = swap(model["spec"]["template"]["metadata"].get("labels"))
    pod.setdefault("app", name)
    return swap(model["metadata"].get("labels")), pod


def _age(env: Any, model: dict[str, Any] | None) -> float:
    """The model Deployment object's age, else a Deployment's the scenario dates not."""
    made = ((model or {}).get("metadata") or {}).get("creationTimestamp")
    return max(60.0, env.clock.seconds() - env.age_to_seconds(made)) if made else _AGE


def _service(
    env: Any, ns: str, model: dict[str, Any] | None, name: str, pod_labels: dict[str, str]
) -> dict[str, Any] | None:
    """A Service named ``name`` selecting the decoy's pods with the ports of the Service that
    selects the model's (none where none does, or where ``name`` is taken)."""
    if model is None or env.store.exists("services", ns, name):
        return None
    want = model["spec"]["template"]["metadata"].get("labels") or {}
    for svc in sorted(env.store.iter("services", ns), key=lambda s: s["metadata"]["name"]):
        sel = (svc.get("spec") or {}).get("selector") or {}
        if sel and all(want.get(k) == v for k, v in sel.items()):
            ports = clone(svc["spec"].get("ports") or [])
            body = objects.service(name, ns, {"app": pod_labels["app"]}, ports)
            body["metadata"]["labels"] = {"app": pod_labels["app"]}
            return body
    return None


def _crash_loop(env: Any, ns: str, name: str, d: bytes) -> None:
    """Date the loop 8 to 39 minutes before provision. What it prints as it exits is
    :func:`.ambient_shape.crash_lines`' (an error of its own build): a dependency refusing
    connections was a transient fault an operator who finds no subject restarts (s14-decoy3
    measured it on the renamed ej.confidence-escalation)."""
    now = env.clock.seconds()
    loop_ago = 480 + (d[5] % 32) * 60
    for pod in _pods(env, env.store.raw("deployments", ns, name)):
        env.facts.setdefault(("pods", ns, pod["metadata"]["name"]), {})["born"] = now - loop_ago
    controllers.reconcile(env)


def _pods(env: Any, dep: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The Deployment's pods (through its ReplicaSets), by name."""
    if not dep:
        return []
    ns, uid = dep["metadata"]["namespace"], dep["metadata"]["uid"]
    sets = env.store.owned("replicasets", ns, uid)
    pods = [p for r in sets for p in env.store.owned("pods", ns, r["metadata"]["uid"])]
    return sorted(pods, key=lambda p: p["metadata"]["name"])
