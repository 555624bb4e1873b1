"""The worker's init container shared with a quiet scenario workload (issue 27, s12-sim18).

The ambient worker (:mod:`.ambient_worker`) runs a dependency probe as an init container
before its main one; until s12-sim18 no scenario workload that is Ready had one (on SI only
da.cascading-diagnosis's failing api-backend has any), so "drop every Ready Deployment with an
init container" dropped the worker and nothing else. Real workloads wait for their
dependencies too: one quiet declared Deployment of the namespace, drawn from the seed, runs
the same kind of probe, composed as the worker's (:func:`.ambient_names.compose_free`: a
``wait-for-<dependency>``-like name, ``busybox``, ``nc -z <host> <port>``) and completed on its
first start, as every scenario pod's init container.

Quiet means the scenario says nothing of the workload but that it runs: its only facts are
the simulator's own (:data:`QUIET`), it never restarted, every pod is Running and Ready, and no
other entry of the scenario (its logs, metrics, traces, Service, migrations) names it. An
incident's subject is never given one: what an operator sent to it reads must stay the
scenario's (s12-sim18 measured the alternative, ``tests/validity/README.md``, "The worker's
init and past"). The probe is written where the Deployment's current pods came from (its
template, that template's ReplicaSet, its pods) as if it had always been there: the
ReplicaSet's hash is kept (``hash_alias``), so nothing rolls out. Drawn from the environment's
seed and the namespace's position (never a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cluster import controllers
from ..cluster.clock import content_hash
from ..cluster.store import clone
from ..cluster.workloads import HASH
from .ambient_names import compose_free
from .ambient_worker import INIT_IMAGE
from .inject import Context

#: the Deployment facts of a workload whose scenario declares nothing of its health (its
#: restarts at 0, its rollout's age, its settled flag, its pods' ages and names)
QUIET = frozenset({"restarts", "rs_ago", "was_complete", "pods_ago", "pod_names"})


def add(ctx: Context, ns: str, index: int) -> list[tuple[str, str, str]]:
    """Give one quiet declared Deployment of ``ns`` (drawn by the seed) a dependency probe
    as its init container; the Deployment's key, or nothing where none there is quiet."""
    env = ctx.env
    salt = f"ambient-probe:{env.seed}:{index}"
    quiet = quiet_keys(ctx, ns)
    ident = compose_free(env, ns, salt, early=True) if quiet else None
    if ident is None:
        return []
    key = quiet[hashlib.sha256(salt.encode()).digest()[0] % len(quiet)]
    probe = {"name": ident.init, "image": INIT_IMAGE, "command": ["sh", "-c", ident.init_probe]}
    _write(env, key, probe)
    controllers.reconcile(env)
    return [key]


def quiet_keys(ctx: Context, ns: str) -> list[tuple[str, str, str]]:
    """The quiet declared Deployments of ``ns`` (:func:`_quiet`, :func:`_signalled`), by key;
    where there is none, :mod:`.ambient_failing` makes the worker fail instead."""
    keys = [k for k in sorted(ctx.env.declared_keys) if k[0] == "deployments" and k[1] == ns]
    return [k for k in keys if _quiet(ctx.env, k) and not _signalled(ctx, k)]


def _signalled(ctx: Context, key: tuple[str, str, str]) -> bool:
    """Whether the scenario declares anything of the workload besides itself (an entry of
    another kind named after it: its logs, metrics, traces, Service, migrations)."""
    _, ns, name = key
    return any(
        n == name and w in ("", ns) and family != key[0] for family, w, n in sorted(ctx.declared)
    )


def _quiet(env: Any, key: tuple[str, str, str]) -> bool:
    """A Deployment whose scenario declares nothing of its health: only :data:`QUIET` facts,
    never restarted, no init container of its own, and every pod Running and Ready."""
    facts = env.facts.get(key) or {}
    if set(facts) - QUIET or int(facts.get("restarts") or 0):
        return False
    dep = env.store.raw(*key) or {}
    if ((dep.get("spec") or {}).get("template") or {}).get("spec", {}).get("initContainers"):
        return False
    pods = _pods(env, key)
    return bool(pods) and all(_ready_fresh(p) for p in pods)


def _write(env: Any, key: tuple[str, str, str], probe: dict[str, Any]) -> None:
    """The probe in the Deployment's template, in the ReplicaSet of that template and in its
    pods; the ReplicaSet keeps its hash, so the Deployment does not roll out."""
    _, ns, name = key
    dep = env.store.raw("deployments", ns, name)
    was = content_hash(dep["spec"]["template"])
    dep["spec"]["template"]["spec"]["initContainers"] = [probe]
    env.facts[key].setdefault("hash_alias", {})[content_hash(dep["spec"]["template"])] = was
    env.registry.add(INIT_IMAGE)
    for rs in env.store.owned("replicasets", ns, dep["metadata"]["uid"]):
        if (rs["metadata"].get("labels") or {}).get(HASH) == was:
            rs["spec"]["template"]["spec"]["initContainers"] = [clone(probe)]
            env.store.touch(rs)
    for pod in _pods(env, key):
        pod["spec"]["initContainers"] = [clone(probe)]
        env.store.touch(pod)
    env.store.touch(dep)


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
