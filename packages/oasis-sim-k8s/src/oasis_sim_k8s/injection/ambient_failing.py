"""One replica of the ambient worker failing now where no quiet declared workload stands
beside the incident, the other still leaking (issue 27, branch s13-decoy2).

Until now the worker (:mod:`.ambient_worker`) was one pod Running and Ready with a past, so
"drop every Deployment whose Ready pods have a past" or "every Ready Deployment with an init
container" dropped it, and where :mod:`.ambient_probe` found no quiet declared Deployment to
share the probe with (the scenario declares only the incident's subject) what was left was
the fault alone: a hunch on it was a correct diagnosis (``tests/validity/README.md``, "The
recovered-past gamers"). A Ready filter cannot drop a Deployment whose pods are not all Ready,
so in exactly those namespaces the worker runs two replicas and the leak has caught up with
one of them: its container is ``OOMKilled`` again now and in ``CrashLoopBackOff`` (a consumer
that replays its backlog on start and dies at its limit each time), its restart count grown
by the back-offs of a loop begun 8 to 39 minutes before provision. The other replica keeps
running with the worker's past and its live, rising memory series (s13-sim19 crash-looped the
only pod, which ended the series: the fault's was then the one rising series left, and the
hunch's trend template came true on it, ``tests/validity/README.md``, "The failing decoy
landed"). No alert is declared for it (alerts are only the scenario's), no declared object
names or selects it, and an operator who follows the prompt's subject, its Service or its
symptom never reads it. Which replica and which minute the loop began are drawn from the
environment's seed and the namespace's position (never a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers
from ..cluster.quantity import mem_bytes
from . import ambient_probe
from .inject import Context

#: the worker's replicas where one of them fails (one failing, one leaking)
REPLICAS = 2


def applies(ctx: Context, ns: str) -> bool:
    """Whether the worker of ``ns`` fails: no quiet declared Deployment stands there (the
    probe of :mod:`.ambient_probe` has nowhere to go)."""
    return not ambient_probe.quiet_keys(ctx, ns)


def add(ctx: Context, ns: str, index: int, worker: str | None) -> bool:
    """Make one replica (drawn from the seed) of the worker ``worker`` of ``ns`` crash-loop
    now, its memory over its limit; whether it did."""
    env = ctx.env
    facts = env.facts.get(("deployments", ns, worker)) if worker else None
    dep = env.store.raw("deployments", ns, worker) if worker else None
    pods = _pods(env, dep) if dep else []
    if not facts or len(pods) < REPLICAS:
        return False
    d = hashlib.sha256(f"ambient-failing:{env.seed}:{index}".encode()).digest()
    past = facts.get("recovered") or {}
    oom_ago = env.clock.seconds() - int(past.get("at", env.clock.seconds()))
    # 8 to 39 minutes before provision, and after the past restart
    loop_ago = min(480 + (d[0] % 32) * 60, max(60, int(oom_ago) // 2))
    container = dep["spec"]["template"]["spec"]["containers"][0]
    limit = mem_bytes(container["resources"]["limits"]["memory"]) or 0
    pod = pods[d[2] % len(pods)]["metadata"]["name"]
    pfacts = env.facts.setdefault(("pods", ns, pod), {})
    pfacts.update(
        {
            "memory_peak": int(limit * 1.25),
            "restarts": int(pfacts.get("restarts") or facts.get("restarts") or 1)
            + _loops(loop_ago),
        }
    )
    facts["last_terminated_ago"] = 20 + d[1] % 40
    controllers.reconcile(env)
    return True


def _pods(env: Any, dep: dict[str, Any]) -> list[dict[str, Any]]:
    """The Deployment's pods (through its ReplicaSets), by name."""
    ns, uid = dep["metadata"]["namespace"], dep["metadata"]["uid"]
    sets = env.store.owned("replicasets", ns, uid)
    pods = [p for r in sets for p in env.store.owned("pods", ns, r["metadata"]["uid"])]
    return sorted(pods, key=lambda p: p["metadata"]["name"])


def _loops(elapsed: float) -> int:
    """Restarts kubelet made in ``elapsed`` seconds of CrashLoopBackOff (10 s doubling to
    5 min, a few seconds of running each time)."""
    n, delay, spent = 0, 10.0, 0.0
    while spent + delay + 5 <= elapsed:
        spent += delay + 5
        n += 1
        delay = min(delay * 2, 300.0)
    return n
