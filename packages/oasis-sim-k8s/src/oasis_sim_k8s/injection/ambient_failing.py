"""The ambient worker failing now where no quiet declared workload stands beside the
incident (issue 27, branch s13-sim19).

Until now the worker (:mod:`.ambient_worker`) was Running and Ready with a past, so "drop
every Deployment whose Ready pod has a past" or "every Ready Deployment with an init
container" dropped it, and where :mod:`.ambient_probe` found no quiet declared Deployment to
share the probe with (the scenario declares only the incident's subject) what was left was
the fault alone: a hunch on it was a correct diagnosis (``tests/validity/README.md``, "The
recovered-past gamers"). A Ready filter cannot drop a pod that is not Ready, so in exactly
those namespaces the worker's leak has caught up with it: its main container is
``OOMKilled`` again now and in ``CrashLoopBackOff`` (a consumer that replays its backlog on
start and dies at its limit each time), its memory series reaching the limit when the loop
began and ending there (cAdvisor keeps no series for a container that lives seconds). No
alert is declared for it (alerts are only the scenario's), no declared object names or
selects it, and an operator who follows the prompt's subject, its Service or its symptom
never reads it. Which minute the loop began is drawn from the environment's seed and the
namespace's position (never a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers
from ..cluster.quantity import mem_bytes
from ..observability.telemetry import STEP
from .inject import Context

_SERIES = "container_memory_working_set_bytes"


def add(ctx: Context, ns: str, index: int, worker: str | None, probed: list[Any]) -> bool:
    """Make the worker ``worker`` of ``ns`` crash-loop now where no quiet declared
    Deployment was given the probe (``probed`` empty); whether it did."""
    env = ctx.env
    facts = env.facts.get(("deployments", ns, worker)) if worker else None
    dep = env.store.raw("deployments", ns, worker) if worker else None
    if probed or not facts or not dep:
        return False
    d = hashlib.sha256(f"ambient-failing:{env.seed}:{index}".encode()).digest()
    past = facts.get("recovered") or {}
    oom_ago = env.clock.seconds() - int(past.get("at", env.clock.seconds()))
    # 8 to 39 minutes before provision, and after the past restart
    loop_ago = min(480 + (d[0] % 32) * 60, max(60, oom_ago // 2))
    container = dep["spec"]["template"]["spec"]["containers"][0]
    limit = mem_bytes(container["resources"]["limits"]["memory"]) or 0
    facts.update(
        {
            "memory_peak": int(limit * 1.25),
            "restarts": int(facts.get("restarts") or 1) + _loops(loop_ago),
            "last_terminated_ago": 20 + d[1] % 40,
        }
    )
    for pod in _pods(env, dep):  # made before: their restart count is theirs now
        env.facts.setdefault(("pods", ns, pod["metadata"]["name"]), {})["restarts"] = facts[
            "restarts"
        ]
    _memory(env, ns, worker or "", (oom_ago, loop_ago, limit))
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


def _memory(env: Any, ns: str, name: str, ages: tuple[float, float, int]) -> None:
    """The worker's working-set series, rising from its past restart to its limit when the
    loop began, and nothing since (no sample is held forward)."""
    oom_ago, loop_ago, limit = ages
    labels = {"service": name, "namespace": ns, "job": name, "container": name}
    now = env.clock.seconds()
    steps = max(1, int((oom_ago - loop_ago) / STEP))
    points = [
        (now - oom_ago + k * STEP, float(int(limit * (0.40 + 0.58 * k / steps))))
        for k in range(steps + 1)
    ]
    env.metrics.add(_SERIES, labels, points, unit="bytes")
