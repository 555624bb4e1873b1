"""The ambient worker's sidecar failing now where no quiet declared workload stands beside
the incident, its main container still leaking (issue 27, branch s13-decoy2).

Until now the worker (:mod:`.ambient_worker`) was one pod Running and Ready with a past, so
"drop every Deployment whose Ready pods have a past" or "every Ready Deployment with an init
container" dropped it, and where :mod:`.ambient_probe` found no quiet declared Deployment to
share the probe with (the scenario declares only the incident's subject) what was left was
the fault alone: a hunch on it was a correct diagnosis (``tests/validity/README.md``, "The
recovered-past gamers"). A Ready filter cannot drop a pod that is not Ready, so in exactly
those namespaces the worker's pod runs a sidecar (:data:`SIDECARS`, its image in the
namespace's form) that fails now: exit code 1, in ``CrashLoopBackOff`` for a loop begun 8 to
39 minutes before provision. Its main container keeps running with the worker's past and its
live, rising memory series: s13-sim19 crash-looped that container instead, which ended the
series, so the fault's was the one rising series left and the hunch's trend template came
true on it (``tests/validity/README.md``, "The failing decoy landed"). The sidecar requests
nothing, so no scenario's scheduling or capacity moves (a second replica did: it took the CPU
a scenario's fix frees). No alert is declared for it (alerts are only the scenario's), no
declared object names or selects it, and an operator who follows the prompt's subject, its
Service or its symptom never reads it. Which sidecar and which minute the loop began are drawn
from the environment's seed and the namespace's position (never a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers
from . import ambient_probe
from .ambient_objects import image_like
from .inject import Context

#: the sidecars a worker's pod runs beside its consumer (what ships, reloads or exports)
SIDECARS = ("log-shipper", "config-reloader", "offset-exporter")


def _draw(ctx: Context, index: int) -> bytes:
    return hashlib.sha256(f"ambient-failing:{ctx.env.seed}:{index}".encode()).digest()


def sidecar(ctx: Context, ns: str, index: int) -> dict[str, Any] | None:
    """The sidecar container of the worker of ``ns`` where no quiet declared Deployment
    stands there (the probe of :mod:`.ambient_probe` has nowhere to go), else ``None``."""
    if ambient_probe.quiet_keys(ctx, ns):
        return None
    d = _draw(ctx, index)
    name = SIDECARS[d[3] % len(SIDECARS)]
    image = image_like(ctx.env, ns, name, d[4:6])
    ctx.env.registry.add(image)
    return {"name": name, "image": image, "args": ["--config=/etc/" + name + "/config.yaml"]}


def add(ctx: Context, ns: str, index: int, worker: str, side: dict[str, Any]) -> bool:
    """Make the sidecar ``side`` of the worker ``worker`` of ``ns`` crash-loop now (exit 1),
    the loop begun when the seed draws; whether it did."""
    env = ctx.env
    facts = env.facts.get(("deployments", ns, worker))
    dep = env.store.raw("deployments", ns, worker)
    if not facts or not dep:
        return False
    d = _draw(ctx, index)
    past = facts.get("recovered") or {}
    oom_ago = env.clock.seconds() - int(past.get("at", env.clock.seconds()))
    # 8 to 39 minutes before provision, and after the main container's past restart
    loop_ago = min(480 + (d[0] % 32) * 60, max(60, int(oom_ago) // 2))
    facts.update(
        {"fault": "crash", "fault_image": side["image"], "last_terminated_ago": 20 + d[1] % 40}
    )
    for pod in _pods(env, dep):  # made before: the loop began before provision
        env.facts.setdefault(("pods", ns, pod["metadata"]["name"]), {})["born"] = (
            env.clock.seconds() - loop_ago
        )
    controllers.reconcile(env)
    return True


def _pods(env: Any, dep: dict[str, Any]) -> list[dict[str, Any]]:
    """The Deployment's pods (through its ReplicaSets), by name."""
    ns, uid = dep["metadata"]["namespace"], dep["metadata"]["uid"]
    sets = env.store.owned("replicasets", ns, uid)
    pods = [p for r in sets for p in env.store.owned("pods", ns, r["metadata"]["uid"])]
    return sorted(pods, key=lambda p: p["metadata"]["name"])
