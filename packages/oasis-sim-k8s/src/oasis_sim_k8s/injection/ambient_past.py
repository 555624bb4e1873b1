"""The worker's past shared with a quiet scenario workload (issue 27, s12-sim18).

The ambient worker's pod (:mod:`.ambient_worker`) is ``Running`` and ``Ready`` with a main
container ``OOMKilled`` hours ago and restarted: round 4's decoy, where a fixed priority
order ("the first termination reason a survey returns") lands. Until s12-sim18 no scenario pod
that is Ready had such a past, so "drop every Deployment the prompt does not name whose pods
are Ready with a past" (or with an init container, the worker's other trait) dropped the worker
alone and left the incident as the one abnormal thing a survey returned (round 13's
``recovered_handoff`` without its init condition: nine scenarios above 0.3).

Real workloads that are healthy now have such pasts too: one Deployment of the namespace's own
quiet ones (every pod ``Running`` and ``Ready``, never restarted, nothing the scenario declares
of its health, memory or faults) is given the same kind of past, drawn from the seed: one of its
pods' main container ``OOMKilled`` (exit code 137) 1 h to 5 h 49 m before provision, after its
last rollout, and restarted 1 to 3 times (one replica: every replica killed at one instant
would be an outage, not noise). A filter on the past then spares no quiet scenario
workload, and the prompt's own workload, kept by any filter that spares what the prompt names,
shows the old restart where the worker used to be the one. Nothing the scenario declares is
changed: the objects are the declared ones; only the pods' restart counts and last states
(kubelet's record of the past) are set, and a rollout of the Deployment clears them, as it
does on a cluster. A workload with anything declared of its memory (a memory series, a peak,
a usage) is never chosen: an OOM kill would there be a fact about the incident, not noise.
Drawn from the environment's seed and the namespace's position (never a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers
from .inject import Context

#: the Deployment facts of a workload whose scenario declares nothing of its health (its
#: restarts at 0, its rollout's age, its settled flag, its pods' ages and names)
QUIET = frozenset({"restarts", "rs_ago", "was_complete", "pods_ago", "pod_names"})


def add(ctx: Context, ns: str, index: int) -> list[tuple[str, str, str]]:
    """Give one pod of one quiet declared Deployment of ``ns`` (both drawn by the seed) the
    worker's kind of past; the Deployment's key, or nothing where no Deployment there is
    quiet."""
    env = ctx.env
    d = hashlib.sha256(f"ambient-past:{env.seed}:{index}".encode()).digest()
    quiet = [k for k in sorted(env.declared_keys) if k[0] == "deployments" and k[1] == ns]
    quiet = [k for k in quiet if _quiet(env, k)]
    if not quiet:
        return []
    key = quiet[d[0] % len(quiet)]
    facts = env.facts[key]
    rollout_ago = int(facts.get("rs_ago") or 0)
    # 1 h to 5 h 49 m ago, and since its rollout (a rollout minutes old: within its first half)
    oom_ago = min((1 + d[1] % 5) * 3600 + (d[2] % 50) * 60, max(60, rollout_ago // 2))
    reason, code = KILLS[_signalled(ctx, key)]
    facts["recovered"] = {
        "reason": reason,
        "exitCode": code,
        "at": int(env.clock.seconds() - oom_ago),
        "ran": max(1, min(5400, rollout_ago - oom_ago - 60)),
    }
    pods = _pods(env, key)
    pod = pods[d[4] % len(pods)]["metadata"]["name"]  # one replica: a kill, not an outage
    env.facts[("pods", ns, pod)]["restarts"] = 1 + d[3] % 3
    controllers.reconcile(env)
    return [key]


#: the past's last termination: an OOM kill where the scenario says nothing of the workload
#: but that it runs, an exit with an error where it declares signals of it (a held-out
#: competent operator reads any OOM kill of the workload it is sent to as the incident's cause:
#: ``plainspoken`` on ej.confidence-escalation 1.0 -> 0.0 when it was an OOM kill there)
KILLS = {False: ("OOMKilled", 137), True: ("Error", 1)}


def _signalled(ctx: Context, key: tuple[str, str, str]) -> bool:
    """Whether the scenario declares anything of the workload besides itself (its logs,
    metrics, traces, Service, migrations: an entry of another kind named after it)."""
    _, ns, name = key
    return any(
        n == name and w in ("", ns) and family != key[0] for family, w, n in sorted(ctx.declared)
    )


def _quiet(env: Any, key: tuple[str, str, str]) -> bool:
    """A Deployment whose scenario declares nothing of its health: only :data:`QUIET` facts,
    never restarted, no memory series recorded for it, and every pod Running and Ready."""
    facts = env.facts.get(key) or {}
    if set(facts) - QUIET or int(facts.get("restarts") or 0):
        return False
    name = key[2]
    if any("memory" in s.name and name in s.labels.values() for s in env.metrics.series):
        return False
    pods = _pods(env, key)
    return bool(pods) and all(_ready_fresh(p) for p in pods)


def _pods(env: Any, key: tuple[str, str, str]) -> list[dict[str, Any]]:
    """The Deployment's pods (through its ReplicaSets), by name."""
    _, ns, name = key
    dep = env.store.raw("deployments", ns, name) or {}
    uid = (dep.get("metadata") or {}).get("uid")
    sets = env.store.owned("replicasets", ns, uid) if uid else []
    pods = [p for r in sets for p in env.store.owned("pods", ns, r["metadata"]["uid"])]
    return sorted(pods, key=lambda p: p["metadata"]["name"])


def _ready_fresh(pod: dict[str, Any]) -> bool:
    """Running, every container ready and never restarted."""
    st = pod.get("status") or {}
    cs = st.get("containerStatuses") or []
    return (
        st.get("phase") == "Running"
        and bool(cs)
        and all(c.get("ready") and not c.get("restartCount") for c in cs)
    )
