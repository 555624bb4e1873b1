"""Deployments, ReplicaSets and Pods: the deployment and replicaset controllers
(SI provider guide §1.2).

- A Deployment's pod template hashes to a ReplicaSet (``pod-template-hash``); a
  template change (image, env, ``restartedAt`` annotation ...) creates a new
  ReplicaSet revision (``deployment.kubernetes.io/revision``), an old template
  reuses its ReplicaSet with a new revision (``rollout undo``).
- RollingUpdate honours maxSurge/maxUnavailable: new pods that never become ready
  stall the rollout with old pods still serving, as on a real cluster.
- ``spec.paused`` freezes the rollout (``rollout pause``/``resume``).
- The replicaset controller keeps ``replicas`` non-terminal pods; terminal pods
  (Evicted) stay until deleted. Deleting an owner garbage-collects what it owns.
Pod status comes from :mod:`.podstatus`; scheduling from :mod:`.nodes`.
"""

from __future__ import annotations

from typing import Any

from . import nodes, podstatus, rollout_status, settled
from .clock import content_hash
from .replicas import REVISION, Passes, owned, owner_ref, reconcile_inputs, revision
from .replicas import is_active as _active
from .replicas import is_ready as _ready
from .replicas import resolve_count as _resolve
from .store import clone

HASH = "pod-template-hash"
RESTARTED_AT = "kubectl.kubernetes.io/restartedAt"


def template_hash(env: Any, dep: dict[str, Any]) -> str:
    hints = env.facts.get(_key(dep), {})
    natural = content_hash(dep["spec"]["template"])
    return hints.get("hash_alias", {}).get(natural, natural)


_PLURALS = {"Deployment": "deployments", "ReplicaSet": "replicasets", "Pod": "pods"}


def _key(obj: dict[str, Any]) -> tuple[str, str, str]:
    meta = obj["metadata"]
    return _PLURALS[obj["kind"]], meta.get("namespace", ""), meta["name"]


def reconcile_all(env: Any) -> None:
    outer = env.ledger is None
    if outer:  # one scheduling ledger for the whole pass (see nodes.Ledger)
        env.ledger = nodes.Ledger(env.store, env.reserved)
    try:
        memo = settled.begin(env)
        for dep in list(env.store.iter("deployments")):
            _settled_deployment(env, memo, dep)
        for pod in list(env.store.iter("pods")):
            if not pod["metadata"].get("ownerReferences"):
                _settled_pod(env, memo, pod)
    finally:
        if outer:
            env.ledger = None


def _settled_deployment(env: Any, memo: settled.Memo, dep: dict[str, Any]) -> None:
    """:func:`reconcile_deployment` unless its last pass settled with the same inputs."""
    ns, uid = dep["metadata"]["namespace"], dep["metadata"]["uid"]
    if memo.skip(env, ("deployments", uid), ns):
        return
    rss = owned(env, "replicasets", ns, uid)
    if not rss and env.provisioning:  # its pass makes its first ReplicaSet: never settled
        memo.settled.pop(("deployments", uid), None)
        reconcile_deployment(env, dep)
        return
    pods = [p for rs in rss for p in owned(env, "pods", ns, rs["metadata"]["uid"])]
    memo.run(
        env,
        ("deployments", uid),
        ns,
        (settled.deployment_keys(dep, rss, pods), ("replicasets", "pods")),
        lambda: reconcile_deployment(env, dep),
    )


def _settled_pod(env: Any, memo: settled.Memo, pod: dict[str, Any]) -> None:
    """A bare pod's refresh unless its last one settled with the same inputs."""
    key, ns = _key(pod), pod["metadata"]["namespace"]
    if memo.skip(env, ("pods", pod["metadata"]["uid"]), ns):
        return

    def work() -> tuple[float, float]:
        refresh_pod(env, pod, env.facts.setdefault(key, {}))
        return settled.NEVER

    memo.run(env, ("pods", pod["metadata"]["uid"]), ns, ((key,), ()), work)


def create_replicaset(
    env: Any, dep: dict[str, Any], h: str, rev: int, ago: float | None = None
) -> dict[str, Any]:
    ns, name = dep["metadata"]["namespace"], dep["metadata"]["name"]
    tmpl = clone(dep["spec"]["template"])
    tmpl["metadata"].setdefault("labels", {})[HASH] = h
    labels = {**tmpl["metadata"]["labels"]}
    rs: dict[str, Any] = {
        "kind": "ReplicaSet",
        "metadata": {
            "name": f"{name}-{h}",
            "namespace": ns,
            "labels": labels,
            "annotations": {
                REVISION: str(rev),
                "deployment.kubernetes.io/desired-replicas": str(dep["spec"].get("replicas", 1)),
                "deployment.kubernetes.io/max-replicas": str(dep["spec"].get("replicas", 1) + 1),
            },
            "ownerReferences": [owner_ref(dep)],
        },
        "spec": {
            "replicas": 0,
            "selector": {
                "matchLabels": {**dep["spec"]["selector"].get("matchLabels", {}), HASH: h}
            },
            "template": tmpl,
        },
        "status": {"replicas": 0},
    }
    if ago is not None:
        rs["metadata"]["creationTimestamp"] = env.clock.ts(ago)
    return env.store.insert(rs, fresh=True)


def reconcile_deployment(env: Any, dep: dict[str, Any]) -> tuple[float, float]:
    meta, spec = dep["metadata"], dep["spec"]
    ns, name, uid = meta["namespace"], meta["name"], meta["uid"]
    hints = env.facts.setdefault(("deployments", ns, name), {})
    want = int(spec.get("replicas", 1) if spec.get("replicas") is not None else 1)
    rss = sorted(owned(env, "replicasets", ns, uid), key=revision)
    h = template_hash(env, dep)
    new = next((rs for rs in rss if rs["metadata"]["labels"].get(HASH) == h), None)
    top = max((revision(r) for r in rss), default=0)
    if new is None:
        new = create_replicaset(
            env, dep, h, top + 1, hints.get("rs_ago") if env.provisioning else None
        )
        rs_facts = env.facts.setdefault(("replicasets", ns, new["metadata"]["name"]), {})
        rs_facts["started"] = env.clock.seconds() - (
            hints.get("rs_ago") or 0 if env.provisioning else 0
        )
        if env.provisioning:
            rs_facts["pod_names"] = list(hints.pop("pod_names", []))
            rs_facts["pods_ago"] = hints.get("pods_ago", hints.get("rs_ago"))
        rss.append(new)
    elif revision(new) != top:
        new["metadata"]["annotations"][REVISION] = str(top + 1)
        env.store.touch(new)
    olds = [r for r in rss if r is not new]
    passes: Passes = {}
    if not spec.get("paused"):
        if (spec.get("strategy") or {}).get("type") == "Recreate":
            for rs in olds:
                _scale_rs(env, dep, rs, 0, hints, passes)
            if not any(
                p
                for rs in olds
                for p in owned(env, "pods", ns, rs["metadata"]["uid"])
                if _active(p)
            ):
                _scale_rs(env, dep, new, want, hints, passes)
        else:
            _rolling(env, dep, new, olds, want, hints, passes)
    for rs in rss:
        reconcile_replicaset(env, rs, hints, passes)
    rollout_status.deployment_status(env, dep, new, rss, want)
    return settled.rollout_horizon(env, dep, new)


def _rolling(
    env: Any,
    dep: dict[str, Any],
    new: dict[str, Any],
    olds: list[dict[str, Any]],
    want: int,
    hints: dict[str, Any],
    passes: Passes,
) -> None:
    ru = (dep["spec"].get("strategy") or {}).get("rollingUpdate") or {}
    surge = _resolve(ru.get("maxSurge"), want, True)
    unavailable = _resolve(ru.get("maxUnavailable"), want, False)
    if surge == 0 and unavailable == 0:
        unavailable = 1
    for _ in range(4 * want + 8):
        for rs in [new, *olds]:
            reconcile_replicaset(env, rs, hints, passes)
        ns = dep["metadata"]["namespace"]
        pods = {
            rs["metadata"]["uid"]: [
                p for p in owned(env, "pods", ns, rs["metadata"]["uid"]) if _active(p)
            ]
            for rs in [new, *olds]
        }
        new_n = int(new["spec"].get("replicas", 0))
        new_ready = sum(1 for p in pods[new["metadata"]["uid"]] if _ready(p))
        old_total = sum(int(r["spec"].get("replicas", 0)) for r in olds)
        old_ready = sum(1 for r in olds for p in pods[r["metadata"]["uid"]] if _ready(p))
        if new_n > want:
            _scale_rs(env, dep, new, want, hints, passes)
        elif new_n < want and new_n + old_total < want + surge:
            grown = new_n + min(want - new_n, want + surge - new_n - old_total)
            _scale_rs(env, dep, new, grown, hints, passes)
        elif old_total > 0:
            removable = max(0, new_ready + old_ready - (want - unavailable)) + (
                old_total - old_ready
            )
            removable = min(removable, old_total)
            if removable <= 0:
                return
            for rs in sorted(olds, key=revision):
                n = int(rs["spec"].get("replicas", 0))
                cut = min(n, removable)
                if cut:
                    _scale_rs(env, dep, rs, n - cut, hints, passes)
                    removable -= cut
        else:
            return


def _scale_rs(
    env: Any,
    dep: dict[str, Any],
    rs: dict[str, Any],
    n: int,
    hints: dict[str, Any],
    passes: Passes | None = None,
) -> None:
    before = int(rs["spec"].get("replicas", 0))
    if before == n:
        return
    rs["spec"]["replicas"] = n
    rs["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] = str(
        dep["spec"].get("replicas", 1)
    )
    env.store.touch(rs)
    verb = "up" if n > before else "down"
    tail = "" if n > before else f" from {before}"
    env.event(
        dep,
        "Normal",
        "ScalingReplicaSet",
        f"Scaled {verb} replica set {rs['metadata']['name']} to {n}{tail}",
        "deployment-controller",
    )
    reconcile_replicaset(env, rs, hints, passes)


def _pod_rank(pod: dict[str, Any]) -> tuple[int, int, int, str]:
    """Which pod the replicaset controller removes first (lowest rank first)."""
    return (
        1 if pod["spec"].get("nodeName") else 0,
        1 if pod["status"].get("phase") == "Running" else 0,
        1 if _ready(pod) else 0,
        pod["metadata"]["name"],
    )


def reconcile_replicaset(
    env: Any, rs: dict[str, Any], hints: dict[str, Any], passes: Passes | None = None
) -> None:
    """Keep ``replicas`` pods and refresh their status. Within one deployment pass
    (``passes``), a call that changed nothing (no object stored, no fact of the ReplicaSet,
    its pods or its deployment) is not repeated while those inputs and the simulated clock
    stay as they were: it would change nothing again (issue 30: the rolling loop and the
    final pass refreshed every settled pod two or three times)."""
    ns, uid = rs["metadata"]["namespace"], rs["metadata"]["uid"]
    rs_facts = env.facts.setdefault(("replicasets", ns, rs["metadata"]["name"]), {})
    pods = [p for p in owned(env, "pods", ns, uid) if _active(p)]
    inputs = reconcile_inputs(env, rs_facts, pods, hints) if passes is not None else None
    if passes is not None and passes.get(uid) == inputs:
        return
    want = int(rs["spec"].get("replicas", 0))
    for _ in range(want - len(pods)):
        pods.append(create_pod(env, rs, rs_facts, hints))
    if len(pods) > want:
        for pod in sorted(pods, key=_pod_rank)[: len(pods) - want]:
            env.delete_object("pods", ns, pod["metadata"]["name"])
            env.event(
                rs,
                "Normal",
                "SuccessfulDelete",
                f"Deleted pod: {pod['metadata']['name']}",
                "replicaset-controller",
            )
            pods.remove(pod)
    for pod in pods:
        refresh_pod(env, pod, hints)
    status = {
        "replicas": len(pods),
        "fullyLabeledReplicas": len(pods),
        "readyReplicas": sum(1 for p in pods if _ready(p)),
        "availableReplicas": sum(1 for p in pods if _ready(p)),
        "observedGeneration": rs["metadata"].get("generation", 1),
    }
    if not status["readyReplicas"]:
        status.pop("readyReplicas")
        status.pop("availableReplicas")
    if rs.get("status") != status:
        rs["status"] = status
        env.store.touch(rs)
    if passes is not None:
        # the store's resourceVersion comes first in the inputs: a pass that stored anything
        # is not settled, whatever the facts (their reprs are not made for nothing: issue 30)
        if (
            inputs is not None
            and env.store.resource_version == inputs[0]
            and reconcile_inputs(env, rs_facts, pods, hints) == inputs
        ):
            passes[uid] = inputs
        else:
            passes.pop(uid, None)


def create_pod(
    env: Any,
    rs: dict[str, Any],
    rs_facts: dict[str, Any],
    hints: dict[str, Any],
    name: str | None = None,
) -> dict[str, Any]:
    ns = rs["metadata"]["namespace"]
    queue = rs_facts.setdefault("pod_names", [])
    while name is None and queue:
        cand = queue.pop(0)
        if not env.store.exists("pods", ns, cand):
            name = cand
    if name is None:
        name = f"{rs['metadata']['name']}-{env.ids.suffix(5)}"
        while env.store.exists("pods", ns, name):
            name = f"{rs['metadata']['name']}-{env.ids.suffix(5)}"
    tmpl = rs["spec"]["template"]
    spec = clone(tmpl["spec"])
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("serviceAccountName", "default")
    spec.setdefault("terminationGracePeriodSeconds", 30)
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("schedulerName", "default-scheduler")
    pod = {
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": ns,
            "labels": dict(tmpl["metadata"].get("labels") or {}),
            "annotations": dict(tmpl["metadata"].get("annotations") or {}),
            "ownerReferences": [owner_ref(rs)],
        },
        "spec": spec,
        "status": {"phase": "Pending"},
    }
    if env.provisioning and rs_facts.get("pods_ago") is not None:
        pod["metadata"]["creationTimestamp"] = env.clock.ts(rs_facts["pods_ago"])
    raw = env.store.insert(pod, fresh=True)
    pfacts = env.facts.setdefault(("pods", ns, name), {})
    if env.provisioning:
        pfacts.setdefault("restarts", int(hints.get("restarts", 0) or 0))
        pfacts["cached_image"] = True
    if not env.provisioning:
        env.event(rs, "Normal", "SuccessfulCreate", f"Created pod: {name}", "replicaset-controller")
    schedule(env, raw)
    return raw


def schedule(env: Any, pod: dict[str, Any]) -> None:
    if pod["spec"].get("nodeName"):
        return
    node, why = nodes.place(env.store, pod, env.reserved, env.ledger)
    pfacts = env.facts.setdefault(_key(pod), {})
    if node is None:
        pfacts["unschedulable"] = why
        return
    pod["spec"]["nodeName"] = node
    if env.ledger is not None:
        env.ledger.sync(pod)
    pfacts.pop("unschedulable", None)
    if not env.provisioning:
        ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        env.event(
            pod,
            "Normal",
            "Scheduled",
            f"Successfully assigned {ns}/{name} to {node}",
            "default-scheduler",
        )


#: hidden facts a single pod may override on its owner's
POD_OVERRIDES = ("fault", "fault_image", "memory_peak", "config_crash")


def refresh_pod(env: Any, pod: dict[str, Any], hints: dict[str, Any]) -> None:
    pfacts = env.facts.setdefault(_key(pod), {})
    if pfacts.get("terminal"):
        return
    if pfacts is not hints:
        hints = {**hints, **{k: pfacts[k] for k in POD_OVERRIDES if k in pfacts}}
    if not pod["spec"].get("nodeName"):
        schedule(env, pod)
    out = podstatus.derive(env, pod, hints)
    if out.events:  # the kubelet reports: the clock moves this pod (settled.py)
        settled.reported(env)
    status = podstatus.render(env, pod, out)
    pfacts["crash_lines"] = out.crash_lines
    ago = hints.get("incident_ago") if env.provisioning and hints.get("incident_ago") else None
    for etype, reason, message, component in out.events:
        env.event(
            pod,
            etype,
            reason,
            message,
            component,
            recurring=True,
            ago=ago if reason in ("Unhealthy",) else None,
        )
    if pod.get("status") != status:
        pod["status"] = status
        env.store.touch(pod)
        if env.ledger is not None:
            env.ledger.sync(pod)
