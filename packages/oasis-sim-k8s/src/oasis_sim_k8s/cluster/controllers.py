"""The control loop run after every write and every clock step.

Order: deployments/replicasets/pods (:mod:`.workloads`), the HPA controller
(syncs every 15 simulated seconds and writes the scale subresource as its own
user, so a manual scale under an HPA is put back at the next sync), endpoints
(ready pods -> ``addresses``, others -> ``notReadyAddresses``), PDB and
namespace-quota status, and finally the GitOps comparison (:mod:`.gitops`).
"""

from __future__ import annotations

import math
from typing import Any

from . import podstatus, selectors, settled, workloads
from .store import clone

HPA_USER = "system:serviceaccount:kube-system:horizontal-pod-autoscaler"
HPA_SYNC_SECONDS = 15.0


def reconcile(env: Any) -> None:
    """Run the controllers until nothing is left dirty (at most four rounds). A cluster whose
    last pass changed nothing and that holds the same objects, facts, registry and reserved
    capacity, with no settled workload's horizon passed, is left alone: the pass would change
    nothing again (issue 30, session 13: the pass ran at every agent call; :func:`.settled.quiet`)."""
    memo = settled.memo(env)
    if settled.still_quiet(env, memo):
        return
    memo.quiet = None
    for _ in range(4):
        env.dirty = False
        writes, memo.ran = env.store.writes, 0
        workloads.reconcile_all(env)
        hpa_controller(env)
        endpoints_controller(env)
        pdb_controller(env)
        job_controller(env)
        env.gitops.refresh()
        if not env.dirty:
            if memo.ran == 0 and env.store.writes == writes and settled.INCREMENTAL:
                memo.quiet = settled.quiet(env, memo)
            return


#: simulated seconds a Job's pods run before it completes
JOB_RUN_S = 5


def job_controller(env: Any) -> None:
    """Jobs run to completion (issue 32: they never did): :data:`JOB_RUN_S` after it is
    created a Job has succeeded ``completions`` times, with the ``SuccessCriteriaMet`` and
    ``Complete`` conditions v1.33 sets (what ``kubectl wait --for=condition=complete``
    reads). A suspended Job waits; a Job with a status of its own (a scenario's) is kept."""
    now = env.clock.ts()
    for job in list(env.store.iter("jobs")):
        spec, st = job.get("spec") or {}, job.get("status") or {}
        meta = job["metadata"]
        facts = env.facts.setdefault(("jobs", meta.get("namespace", ""), meta["name"]), {})
        if "run_by_controller" not in facts:  # first sight: a Job with a status is a scenario's
            facts["run_by_controller"] = not st
        if not facts["run_by_controller"] or spec.get("suspend") or st.get("completionTime"):
            continue
        started = job["metadata"].get("creationTimestamp") or now
        st = job.setdefault("status", {})
        st.setdefault("startTime", started)
        if env.age(started) < JOB_RUN_S:
            st["active"] = int(spec.get("parallelism", 1))
            continue
        st.pop("active", None)
        st["succeeded"] = int(spec.get("completions", 1))
        st["ready"] = 0
        st["completionTime"] = now
        st["conditions"] = [
            {"type": t, "status": "True", "lastProbeTime": now, "lastTransitionTime": now}
            for t in ("SuccessCriteriaMet", "Complete")
        ]
        env.store.touch(job)
        env.dirty = True


def _ready(pod: dict[str, Any]) -> bool:
    return any(
        c["type"] == "Ready" and c["status"] == "True"
        for c in (pod.get("status") or {}).get("conditions") or []
    )


def endpoints_controller(env: Any) -> None:
    """Each Service's Endpoints from its pods. A Service whose Endpoints were written from
    the same Service, pods and Endpoints (all by resourceVersion) is left alone: the same
    inputs would give the same addresses (issue 30, :mod:`.settled`)."""
    seen = settled.memo(env).endpoints
    for svc in list(env.store.iter("services")):
        sel = (svc.get("spec") or {}).get("selector")
        if not sel:
            continue
        inputs = settled.endpoints_inputs(env, svc)
        if settled.INCREMENTAL and seen.get(svc["metadata"]["uid"]) == inputs:
            continue
        _endpoints(env, svc, sel)
        after = settled.endpoints_inputs(env, svc)
        # kept only if the Service and pods read are the ones still stored (the Endpoints
        # object itself is this pass's own write)
        if after[:2] == inputs[:2]:
            seen[svc["metadata"]["uid"]] = after
        else:
            seen.pop(svc["metadata"]["uid"], None)


def _endpoints(env: Any, svc: dict[str, Any], sel: dict[str, Any]) -> None:
    """Ready pods -> ``addresses``, others -> ``notReadyAddresses``."""
    ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]
    ready: list[dict[str, Any]] = []
    not_ready: list[dict[str, Any]] = []
    for pod in env.store.iter("pods", ns):
        if (pod.get("status") or {}).get("phase") in ("Failed", "Succeeded"):
            continue
        if not all(pod["metadata"].get("labels", {}).get(k) == str(v) for k, v in sel.items()):
            continue
        ip = (pod.get("status") or {}).get("podIP")
        if not ip:
            continue
        addr = {
            "ip": ip,
            "nodeName": pod["spec"].get("nodeName"),
            "targetRef": {
                "kind": "Pod",
                "name": pod["metadata"]["name"],
                "namespace": ns,
                "uid": pod["metadata"]["uid"],
            },
        }
        (ready if _ready(pod) else not_ready).append(addr)
    ports = [
        {
            "name": p.get("name", ""),
            "port": _target_port(p),
            "protocol": p.get("protocol", "TCP"),
        }
        for p in (svc["spec"].get("ports") or [])
    ]
    subset: dict[str, Any] = {"ports": [{k: v for k, v in p.items() if v != ""} for p in ports]}
    if ready:
        subset["addresses"] = ready
    if not_ready:
        subset["notReadyAddresses"] = not_ready
    body: dict[str, Any] = {
        "kind": "Endpoints",
        "metadata": {
            "name": name,
            "namespace": ns,
            "labels": dict(svc["metadata"].get("labels") or {}),
        },
        "subsets": [subset] if (ready or not_ready) else [],
    }
    current = env.store.raw("endpoints", ns, name)
    if current is None:
        body["metadata"]["creationTimestamp"] = svc["metadata"].get("creationTimestamp")
        env.store.insert(body, fresh=True)
    elif current.get("subsets") != body["subsets"]:
        current["subsets"] = body["subsets"]
        env.store.touch(current)


def _target_port(port: dict[str, Any]) -> Any:
    target: Any = port.get("targetPort", port.get("port"))
    return int(target) if isinstance(target, int) or str(target).isdigit() else 8080


def hpa_controller(env: Any) -> None:
    now = env.clock.seconds()
    for hpa in list(env.store.iter("horizontalpodautoscalers")):
        ns, name = hpa["metadata"]["namespace"], hpa["metadata"]["name"]
        facts = env.facts.setdefault(("horizontalpodautoscalers", ns, name), {})
        spec = hpa["spec"]
        ref = spec.get("scaleTargetRef") or {}
        dep = env.store.raw("deployments", ns, ref.get("name", ""))
        lo, hi = int(spec.get("minReplicas", 1)), int(spec.get("maxReplicas", 10))
        target = _target_util(spec)
        if dep is None:
            _hpa_status(
                env,
                hpa,
                0,
                0,
                None,
                False,
                f'deployments/scale.apps "{ref.get("name")}" not found',
                target,
            )
            continue
        current = int(dep["spec"].get("replicas", 1))
        load = float(facts.setdefault("load", current))
        desired = max(lo, min(hi, math.ceil(load - 1e-9)))
        util = round(target * load / max(current, 1))
        last = facts.setdefault("last_sync", now)
        if now - last >= HPA_SYNC_SECONDS and not env.provisioning:
            facts["last_sync"] = now
            if desired != current:
                env.api.request(
                    HPA_USER,
                    "update",
                    "deployments",
                    ns,
                    ref["name"],
                    subresource="scale",
                    body={
                        "apiVersion": "autoscaling/v1",
                        "kind": "Scale",
                        "metadata": {"name": ref["name"], "namespace": ns},
                        "spec": {"replicas": desired},
                    },
                    internal=True,
                )
                facts["last_scale"] = env.clock.ts()
                reason = "above" if desired > current else "below"
                env.event(
                    hpa,
                    "Normal",
                    "SuccessfulRescale",
                    f"New size: {desired}; reason: cpu resource utilization (percentage of request) {reason} target",
                    "horizontal-pod-autoscaler",
                )
                env.dirty = True
                current = desired
                util = round(target * load / max(current, 1))
        _hpa_status(env, hpa, current, desired, util, True, None, target)


def _target_util(spec: dict[str, Any]) -> int:
    for m in spec.get("metrics") or []:
        tgt = (m.get("resource") or {}).get("target") or {}
        if tgt.get("averageUtilization") is not None:
            return int(tgt["averageUtilization"])
    return 70


def _hpa_status(
    env: Any,
    hpa: dict[str, Any],
    current: int,
    desired: int,
    util: int | None,
    active: bool,
    error: str | None,
    target: int,
) -> None:
    facts = env.facts.get(
        ("horizontalpodautoscalers", hpa["metadata"]["namespace"], hpa["metadata"]["name"]), {}
    )
    lo, hi = int(hpa["spec"].get("minReplicas", 1)), int(hpa["spec"].get("maxReplicas", 10))
    when = facts.get("conditions_since") or env.clock.ts()
    facts["conditions_since"] = when
    limited = desired in (lo, hi) and desired != current
    conds = [
        {
            "type": "AbleToScale",
            "status": "True" if active else "False",
            "reason": "SucceededRescale"
            if active and desired != current
            else ("ReadyForNewScale" if active else "FailedGetScale"),
            "message": (
                f"the HPA controller was able to update the target scale to {desired}"
                if active and desired != current
                else "recommended size matches current size"
                if active
                else error or ""
            ),
            "lastTransitionTime": when,
        },
        {
            "type": "ScalingActive",
            "status": "True" if active else "False",
            "reason": "ValidMetricFound" if active else "FailedGetScale",
            "message": (
                "the HPA was able to successfully calculate a replica count from cpu resource utilization "
                "(percentage of request)"
            )
            if active
            else error or "",
            "lastTransitionTime": when,
        },
        {
            "type": "ScalingLimited",
            "status": "True" if limited else "False",
            "reason": "TooFewReplicas"
            if limited and desired == lo
            else ("TooManyReplicas" if limited else "DesiredWithinRange"),
            "message": "the desired count is within the acceptable range",
            "lastTransitionTime": when,
        },
    ]
    status: dict[str, Any] = {
        "currentReplicas": current,
        "desiredReplicas": desired,
        "conditions": conds,
    }
    if util is not None:
        status["currentMetrics"] = [
            {
                "type": "Resource",
                "resource": {
                    "name": "cpu",
                    "current": {"averageUtilization": util, "averageValue": f"{max(1, util * 5)}m"},
                },
            }
        ]
    if facts.get("last_scale"):
        status["lastScaleTime"] = facts["last_scale"]
    if hpa.get("status") != status:
        hpa["status"] = status
        env.store.touch(hpa)


def pdb_controller(env: Any) -> None:
    for pdb in list(env.store.iter("poddisruptionbudgets")):
        ns = pdb["metadata"]["namespace"]
        sel = (pdb.get("spec") or {}).get("selector") or {}
        pods = [
            p
            for p in env.store.iter("pods", ns)
            if selectors.matches(sel, p["metadata"].get("labels"))
            and (p.get("status") or {}).get("phase") == "Running"
        ]
        healthy = sum(1 for p in pods if _ready(p))
        spec = pdb["spec"]
        if "minAvailable" in spec:
            want = _count(spec["minAvailable"], len(pods), True)
        else:
            want = len(pods) - _count(spec.get("maxUnavailable", 1), len(pods), False)
        status = {
            "currentHealthy": healthy,
            "desiredHealthy": max(0, want),
            "expectedPods": len(pods),
            "disruptionsAllowed": max(0, healthy - want),
            "observedGeneration": pdb["metadata"].get("generation", 1),
        }
        if pdb.get("status") != status:
            pdb["status"] = status
            env.store.touch(pdb)


def _count(value: Any, total: int, up: bool) -> int:
    text = str(value)
    if text.endswith("%"):
        raw = float(text[:-1]) * total / 100
        return math.ceil(raw) if up else math.floor(raw)
    return int(text)


def evict_node_pods(env: Any, node: str, resource: str) -> list[str]:
    """Kubelet eviction under node pressure: workload pods on ``node`` fail with reason Evicted."""
    evicted = []
    for pod in list(env.store.iter("pods")):
        if (
            pod["spec"].get("nodeName") != node
            or pod["metadata"]["namespace"] in env.system_namespaces
        ):
            continue
        if (pod.get("status") or {}).get("phase") in ("Failed", "Succeeded"):
            continue
        pfacts = env.facts.setdefault(
            ("pods", pod["metadata"]["namespace"], pod["metadata"]["name"]), {}
        )
        pfacts["terminal"] = True
        pod["status"] = podstatus.evicted_status(env, pod, resource)
        pod["status"]["conditions"][0]["lastTransitionTime"] = env.clock.ts()
        env.store.touch(pod)
        env.event(pod, "Warning", "Evicted", pod["status"]["message"].strip(), "kubelet")
        evicted.append(pod["metadata"]["name"])
    env.dirty = True
    return evicted


__all__ = ["HPA_USER", "clone", "evict_node_pods", "reconcile", "workloads"]
