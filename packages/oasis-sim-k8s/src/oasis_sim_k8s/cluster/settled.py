"""Which workloads a controller pass may leave alone (issue 30: every API call ticks the
controllers, and each tick re-derived every Deployment, ReplicaSet and Pod even when
nothing they read had changed).

A Deployment's pass (:func:`.workloads.reconcile_deployment`) is a function of what it
reads: the Deployment, ReplicaSets and Pods of its namespace, the ConfigMaps, Secrets and
PersistentVolumeClaims there (env references, volumes), the nodes (scheduling, host and pod
addresses), the image registry (below), the reserved node capacity, whether the environment
is still provisioning, the controller facts of the Deployment, its ReplicaSets and its Pods, and the
simulated clock. :func:`inputs` captures all of them but the clock, the objects by
store's watermarks (every stored change moves its resource's in its namespace) and the facts
by value.

A pass that stored nothing, changed no fact and made no kubelet report an Event (a crash, a
failed probe or pull, a missing volume: those move with the clock at every pass) is a fixed
point, and is :meth:`Memo.settle`-d with its inputs. The clock enters a settled pass in one
place only: a rollout that has neither completed nor passed its
``progressDeadlineSeconds`` turns ``ProgressDeadlineExceeded`` once the deadline passes, so
such a pass stays settled only until then (its horizon). Until its inputs change or its
horizon passes, the same pass would again store and change nothing, so it is skipped
(:meth:`Memo.skip`). Bare pods (no owner) are handled the same way, keyed by the pod.

The image registry enters as a lower bound, not by value: a settled pass asked only about
images the registry had (a missing one is a pull failure, which the kubelet reports), so it
holds while the registry still has every image it had then; one the registry gained cannot
change it. While an environment is provisioning, a Deployment with no ReplicaSet yet is run
without the memo (its pass makes one: it never settles); every later pass uses it, so the
ambient noise added after the scenario's workloads settle (its images join the registry,
its worker is created) re-derives only what that changed (issue 30, session 8).

Whether the environment is provisioning enters one way only. A pass reads the flag where it
writes (a new ReplicaSet's or pod's back-dated times, the kubelet's and the controllers'
Events, whose every call comes with a store write or a kubelet report) and in one fact
(``rollout_status``: a rollout that *was* complete is marked completed while provisioning):
so a pass settled while provisioning stored nothing and set nothing there, and the same
inputs after provisioning take the same branches with the flag down. A pass settled after
provisioning is not taken back into it (:mod:`..injection.environmental` raises the flag
again for a moment, when the fact above may be set): it runs. The first agent call after
provisioning no longer re-derives every settled workload of the platform (issue 30,
session 30: about 25 Deployments an environment).

The memo is derived bookkeeping, not cluster state: it lives beside the environment (a
weak mapping), never in it, so an environment holds exactly what it held before.
"""

from __future__ import annotations

import marshal
import threading
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

#: False: every pass re-derives everything (tests compare both ways)
INCREMENTAL = True

#: the namespaced resources a workload's pass reads (beyond the facts)
NAMESPACED = (
    "deployments",
    "replicasets",
    "pods",
    "configmaps",
    "secrets",
    "persistentvolumeclaims",
)

_INFINITY = float("inf")
#: ``(start, span)``: a settled pass holds while ``now - start <= span`` (simulated seconds)
Horizon = tuple[float, float]
#: the ``env.facts`` keys a pass reads
Keys = tuple[Any, ...]


class Memo:
    """The settled passes of one environment: key -> (inputs, horizon in simulated seconds)."""

    def __init__(self) -> None:
        #: key -> (the fact keys its pass reads, the resources it lists, its inputs, its
        #: horizon, the registry's images then, whether the environment was provisioning)
        self.settled: dict[
            Any, tuple[Keys, tuple[str, ...], tuple[Any, ...], Horizon, frozenset[str], bool]
        ] = {}
        #: kubelet Events reported so far (a pass that reports one is never settled)
        self.reports = 0
        #: Service uid -> the inputs its Endpoints were last written from
        self.endpoints: dict[str, tuple[Any, ...]] = {}
        #: the environment-wide inputs of the current controller pass (:func:`begin`)
        self.common: tuple[Any, ...] = ()
        #: the registry's images at the start of the current controller pass (:func:`begin`)
        self.registry: frozenset[str] = frozenset()
        #: workloads the current controller pass derived rather than skipped
        self.ran = 0
        #: what the environment held when a whole controller pass last changed nothing
        #: (:func:`quiet`), None when it did something or may do something at a later instant
        self.quiet: Quiet | None = None

    def skip(self, env: Any, key: Any, ns: str) -> bool:
        """The pass of ``key`` (in namespace ``ns``) was settled, its inputs are the same,
        the registry still has every image it had then, its horizon has not passed, and it was
        settled while provisioning if the environment is provisioning now (module doc)."""
        seen = self.settled.get(key) if INCREMENTAL else None
        if seen is None:
            self.ran += 1
            return False
        fact_keys, walked, then, (start, span), images, provisioning = seen
        # the negation of the rollout's own test, ``now - started > deadline``
        if (
            not env.clock.seconds() - start > span
            and (provisioning or not env.provisioning)
            and images <= env.registry
            and inputs(env, ns, fact_keys, walked) == then
        ):
            return True
        self.ran += 1
        return False

    def run(
        self,
        env: Any,
        key: Any,
        ns: str,
        reads: tuple[Keys, tuple[str, ...]],
        work: Callable[[], Horizon],
    ) -> None:
        """Run ``work()``, a pass in ``ns`` reading ``reads``: the facts it reads and the
        resources it lists (:func:`inputs`); then settle it if it stored nothing, changed no
        fact and reported no Event. ``work`` returns the pass's horizon as ``(start, span)``:
        settled while ``now - start <= span``."""
        fact_keys, walked = reads
        rv, reports = env.store.resource_version, self.reports
        # read before the work, compared after: what changed meanwhile (the pass, or another
        # thread) keeps the pass unsettled
        before = inputs(env, ns, fact_keys, walked)
        horizon = work()
        if (
            rv == env.store.resource_version
            and reports == self.reports
            and inputs(env, ns, fact_keys, walked) == before
        ):
            self.settled[key] = (
                fact_keys,
                walked,
                before,
                horizon,
                self.registry,
                env.provisioning,
            )
        else:
            self.settled.pop(key, None)


_MEMOS: weakref.WeakKeyDictionary[Any, Memo] = weakref.WeakKeyDictionary()


_MEMOS_LOCK = threading.Lock()


def memo(env: Any) -> Memo:
    """The environment's memo (made on first use, once even if two threads ask)."""
    found = _MEMOS.get(env)
    if found is None:
        with _MEMOS_LOCK:
            found = _MEMOS.get(env)
            if found is None:
                found = _MEMOS[env] = Memo()
    return found


def beside(env: Any) -> Memo | None:
    """The environment's memo if it has one (what a copy of it carries: provider/prebuilt.py)."""
    return _MEMOS.get(env)


def adopt(env: Any, found: Memo) -> None:
    """Give ``env``, a copy, the memo copied with it (provider/prebuilt.py)."""
    with _MEMOS_LOCK:
        _MEMOS[env] = found


def reported(env: Any) -> None:
    """The kubelet reported an Event for a pod: the pass running now is not settled."""
    memo(env).reports += 1


def begin(env: Any) -> Memo:
    """Start a controller pass: the inputs every workload shares, read once (whether the
    environment is provisioning is compared apart, one way: :meth:`Memo.skip`)."""
    m = memo(env)
    m.common = (
        env.store.mark("nodes", ""),
        repr(sorted(env.reserved.items())),
    )
    if m.registry != env.registry:  # a set equals a frozenset of the same images
        m.registry = frozenset(env.registry)
    return m


def inputs(
    env: Any, ns: str, fact_keys: tuple[Any, ...], walked: tuple[str, ...] = ()
) -> tuple[Any, ...]:
    """What a workload's pass in ``ns`` reads, but the clock (see the module docstring); the
    objects by the store's watermarks (:meth:`.store.ObjectStore.mark`). ``walked``: the
    resources the pass itself lists in ``ns`` (``store.iter``), whose listing caches are
    filled as the pass would leave them; the others are read without filling them."""
    store, facts = env.store, env.facts
    return (
        memo(env).common,
        store.marks(NAMESPACED, ns, walked),
        fingerprint([facts.get(k) for k in fact_keys]),
    )


def fingerprint(value: Any) -> bytes | str:
    """``value`` compared by value and type, as its ``repr`` compares it, in C: ``marshal``
    (version 2: no references or interning, so the bytes are the value's alone) writes
    ``1``, ``1.0`` and ``True`` apart, as ``repr`` does; what it cannot write (a subclass,
    an object) is its ``repr``, never equal to bytes (issue 30, session 13: the facts'
    ``repr`` was a fifth of the controllers' look at each settled workload)."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return repr(value)


def deployment_keys(
    dep: dict[str, Any], rss: list[dict[str, Any]], pods: list[dict[str, Any]]
) -> tuple[Any, ...]:
    """The fact keys a Deployment's pass reads: its own, its ReplicaSets' and its Pods'."""
    ns = dep["metadata"]["namespace"]
    return (
        ("deployments", ns, dep["metadata"]["name"]),
        *(("replicasets", ns, rs["metadata"]["name"]) for rs in rss),
        *(("pods", ns, p["metadata"]["name"]) for p in pods),
    )


#: a pass the clock alone never moves
NEVER: Horizon = (0.0, _INFINITY)


def rollout_horizon(env: Any, dep: dict[str, Any], new: dict[str, Any]) -> Horizon:
    """Until when a settled Deployment's status cannot move with the clock alone: the
    progress deadline of a rollout still progressing (``rollout_status._progressing``, whose
    Progressing reason is then ``ReplicaSetUpdated``), else never."""
    conds = (dep.get("status") or {}).get("conditions") or []
    progressing = next((c for c in conds if c.get("type") == "Progressing"), None)
    if progressing is None or progressing.get("reason") != "ReplicaSetUpdated":
        return NEVER
    ns, name = new["metadata"]["namespace"], new["metadata"]["name"]
    started = env.facts.get(("replicasets", ns, name), {}).get("started")
    if started is None:
        return NEVER  # a ReplicaSet with no start is never overdue
    return started, float(int(dep["spec"].get("progressDeadlineSeconds", 600)))


def endpoints_inputs(env: Any, svc: dict[str, Any]) -> tuple[Any, ...]:
    """What a Service's Endpoints are made from: the Service, the pods of its namespace
    (listed as the endpoints controller lists them) and the Endpoints object itself."""
    ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]
    current = env.store.raw("endpoints", ns, name)
    return (
        svc["metadata"]["resourceVersion"],
        env.store.mark("pods", ns, listed=True),
        None if current is None else current["metadata"]["resourceVersion"],
    )


class Quiet(NamedTuple):
    """What an environment held when a whole controller pass changed nothing (issue 30,
    session 13): every workload was skipped as settled, nothing was stored, and no controller
    that moves with the clock alone had work waiting. The same pass on the same holdings
    changes nothing again until a settled workload's horizon passes."""

    #: the store's write count (every insert, replace, touch and delete moves it)
    writes: int
    #: the facts' :func:`fingerprint`
    facts: bytes
    reserved: str
    registry: frozenset[str]
    provisioning: bool
    #: the settled workloads' finite horizons (a settled pass holds while ``now - start <= span``)
    horizons: tuple[Horizon, ...]


#: resources whose controllers act on the clock or on state outside the store: a cluster
#: holding any is never taken as quiet (the HPA syncs every 15 simulated seconds, a GitOps
#: Application compares the store with its repository)
_CLOCKED = ("horizontalpodautoscalers", "applications")


def quiet(env: Any, m: Memo) -> Quiet | None:
    """The record of a controller pass that changed nothing (:class:`Quiet`), or None when
    a later pass on the same holdings may still act: an HPA, a GitOps Application, a Job
    the controller still runs (it completes ``JOB_RUN_S`` after its start), facts that
    ``marshal`` cannot write."""
    store = env.store
    if env.provisioning or any(next(store.iter(r), None) is not None for r in _CLOCKED):
        return None
    for job in store.iter("jobs"):
        meta, spec, st = job["metadata"], job.get("spec") or {}, job.get("status") or {}
        facts = env.facts.get(("jobs", meta.get("namespace", ""), meta["name"])) or {}
        running = facts.get("run_by_controller", True) and not spec.get("suspend")
        if running and not st.get("completionTime"):
            return None
    facts = fingerprint(env.facts)
    if not isinstance(facts, bytes):
        return None
    horizons = {seen[3] for seen in m.settled.values() if seen[3][1] != _INFINITY}
    return Quiet(
        store.writes,
        facts,
        repr(sorted(env.reserved.items())),
        m.registry,
        env.provisioning,
        tuple(sorted(horizons)),
    )


def still_quiet(env: Any, m: Memo) -> bool:
    """The environment holds what it held at its last quiet pass (:func:`quiet`) and no
    settled workload's horizon has passed: a controller pass now would change nothing."""
    q = m.quiet
    if q is None or not INCREMENTAL or q.writes != env.store.writes:
        return False
    if q.provisioning != env.provisioning or q.registry != env.registry:
        return False
    now = env.clock.seconds()
    # each horizon tested as Memo.skip tests it
    if any(now - start > span for start, span in q.horizons):
        return False
    if q.reserved != repr(sorted(env.reserved.items())):
        return False
    return fingerprint(env.facts) == q.facts
