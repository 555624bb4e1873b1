"""Concrete remediations, each narrow and reversible, each verified afterwards:
replace stuck or transiently failing pods, raise a memory limit, lower a CPU request
that cannot be scheduled, admit a blocked client in a network policy, roll a
deployment back to its previous revision. Each returns a one-line outcome.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, cast

from .findings import Finding, name, workload_of
from .signals import cpu_cores, human_bytes, mem_bytes, millicores, prom_series
from .work import Work, failed_step, pod_health, read, restart, rollout_status

#: factor applied to a memory limit that the container keeps exceeding
MEMORY_HEADROOM = 2


async def replace_pods(w: Work, pods: list[str], why: str, trigger: str) -> str:
    """Delete the given pods so their controller recreates them; a pod without a controller is
    recreated from its own spec (what ``kubectl replace --force`` does)."""
    out = []
    for pod in pods:
        ns = w.ns_of(pod)
        obj = await read(
            w, "pod", pod, ns, f"read pod/{pod} (owner, spec, restarts) before replacing it"
        )
        if obj is None:
            out.append(f"could not read pod/{pod}")
            continue
        owned = bool((obj.get("metadata") or {}).get("ownerReferences"))
        restarts = sum(
            cs.get("restartCount", 0)
            for cs in (obj.get("status") or {}).get("containerStatuses") or []
        )
        with w.s.doing(why, trigger):
            text, error = await w.s.change(
                "delete",
                "pod",
                pod,
                "-n",
                ns,
                before=f"pod {pod} ({restarts} restarts, not ready)",
                after="deleted; "
                + ("its controller creates a fresh pod" if owned else "recreated from its spec"),
            )
        if error:
            out.append(f"deleting pod/{pod} failed: {text.strip()}")
            continue
        if not owned:
            manifest = {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    k: v
                    for k, v in (obj.get("metadata") or {}).items()
                    if k in ("name", "namespace", "labels", "annotations")
                },
                "spec": {k: v for k, v in (obj.get("spec") or {}).items() if k != "nodeName"},
            }
            with w.s.doing(
                f"recreate pod/{pod} from its own spec: it has no controller to do it", trigger
            ):
                text, error = await w.s.change(
                    "create",
                    "-n",
                    ns,
                    "-f",
                    "-",
                    stdin=json.dumps(manifest),
                    before="pod deleted",
                    after=f"pod {pod} recreated, same spec",
                )
            if error:
                out.append(
                    f"recreating pod/{pod} FAILED ({text.strip()}): it is gone; its spec was: "
                    f"{json.dumps(manifest['spec'])[:200]}"
                )
                continue
        wl = workload_of(obj)
        ready, total, problems = await pod_health(
            w, wl, ns, f"verify {wl} recovered after replacing {pod}"
        )
        out.append(
            f"replaced pod/{pod} ({restarts} restarts); {wl} now has {ready}/{total} pods ready"
            + (f" ({'; '.join(problems)})" if problems else "")
        )
    return "; ".join(out)


async def restart_workload(w: Work, wl: str, why: str, trigger: str) -> str:
    """A rolling restart of a deployment, verified; a failed one is rolled back and reported."""

    ns = w.ns_of(wl)
    ok, status = await restart(w, wl, ns, why, trigger)
    if not ok:
        await failed_step(w, f"the restart of deployment/{wl}", wl, status)
        return f"the restart did not succeed ({status}); see above"
    w.undo.clear()
    ready, total, problems = await pod_health(w, wl, ns, f"verify {wl} recovered: all pods ready")
    return f"restarted deployment/{wl}; verified: rollout complete, {ready}/{total} pods ready" + (
        f" ({'; '.join(problems)})" if problems else ""
    )


def _container(dep: dict[str, Any], wanted: str | None = None) -> dict[str, Any]:
    cs = (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or [
        {}
    ]
    return next((c for c in cs if c.get("name") == wanted), cs[0])


def new_memory_limit(limit: str | None) -> str | None:
    size = mem_bytes(limit)
    if not size:
        return None
    return human_bytes(size * MEMORY_HEADROOM)


async def raise_memory(w: Work, f: Finding) -> str:
    wl = f.workload or ""
    ns = w.ns_of(wl)
    dep = await read(
        w, "deployment", wl, ns, f"read deployment/{wl} (container resources) before changing them"
    )
    c = _container(dep or {}, f.data.get("container"))
    res = c.get("resources") or {}
    limit = (res.get("limits") or {}).get("memory")
    target = new_memory_limit(limit)
    if not target:
        return f"{wl} has no memory limit to raise"
    args = [f"--limits=memory={target}"]
    req = (res.get("requests") or {}).get("memory")
    if req and (mem_bytes(req) or 0) >= (mem_bytes(limit) or 0):
        args.append(f"--requests=memory={target}")  # keep a Guaranteed pod Guaranteed
    with w.s.doing(
        f"give {wl} more memory: it is OOMKilled at its {limit} limit", f"finding: {f.what[:80]}"
    ):
        text, error = await w.s.change(
            "set",
            "resources",
            f"deployment/{wl}",
            "-c",
            str(c.get("name")),
            "-n",
            ns,
            *args,
            before=f"limits.memory={limit}",
            after=f"limits.memory={target}",
        )
    if error:
        return f"raising the memory limit failed: {text.strip()}"
    ok, status = await rollout_status(w, wl, ns)
    ready, total, problems = await pod_health(w, wl, ns)
    return (
        f"raised {wl}'s memory limit {limit} -> {target}; rollout "
        + ("complete" if ok else f"not complete ({status})")
        + f", {ready}/{total} pods ready"
        + (f" ({'; '.join(problems)})" if problems else "")
    )


def fitting_cpu(w: Work, wanted: float) -> float | None:
    """A CPU request that fits on a node: 80% of the largest node's allocatable CPU minus its
    share of what is already requested, rounded down to 100m (None: unknown)."""
    alloc = [
        cpu_cores(((n.get("status") or {}).get("allocatable") or {}).get("cpu"))
        for n in w.view.nodes
    ]
    sizes = [a for a in alloc if a]
    metric = [
        s.value
        for s in w.view.metrics.get("kube_node_status_allocatable", [])
        if s.labels.get("resource") == "cpu" and s.value
    ]
    biggest = min(max(sizes) if sizes else math.inf, max(metric) if metric else math.inf)
    if biggest == math.inf:
        return None
    fit = math.floor(biggest * 0.8 * 10) / 10
    return fit if 0 < fit < wanted else None


async def lower_cpu_request(w: Work, f: Finding) -> str:
    wl = f.workload or ""
    ns = w.ns_of(wl)
    dep = await read(
        w, "deployment", wl, ns, f"read deployment/{wl} (CPU request) before changing it"
    )
    c = _container(dep or {})
    req = ((c.get("resources") or {}).get("requests") or {}).get("cpu")
    wanted = cpu_cores(req) or 0.0
    with w.s.doing("read the nodes' allocatable CPU to size a request that can be scheduled"):
        doc = (
            await w.s.qjson("metrics_query", query='kube_node_status_allocatable{resource="cpu"}')
            if w.s.has("metrics_query")
            else None
        )
    if isinstance(doc, dict):
        w.view.metrics["kube_node_status_allocatable"] = prom_series(
            doc, "kube_node_status_allocatable"
        )
    target = fitting_cpu(w, wanted)
    if not target:
        return f"{wl}'s CPU request ({req}) is not larger than a node can offer; lowering it would not help"
    outcome, error = await _set_cpu(w, (wl, ns, c), req, target, f.what)
    if error:
        return error
    # other workloads hold part of every node (the agent cannot list their pods): while the
    # new pod still cannot be scheduled, halve the request, twice at most
    for _ in range(2):
        if not any(p.endswith(": Pending") for p in outcome[2][2]) or target <= 0.1:
            break
        smaller = max(0.1, math.floor(target / 2 * 10) / 10)
        outcome, error = await _set_cpu(w, (wl, ns, c), millicores(target), smaller, f.what)
        if error:
            return error
        target = smaller
    ok, status, (ready, total, problems) = outcome
    return (
        f"lowered {wl}'s CPU request {req} -> {millicores(target)} (80% of the largest node's "
        "allocatable CPU, halved while the pod stayed Pending); "
        f"{ready}/{total} pods ready"
        + ("" if ok else f"; rollout not complete ({status})")
        + (f" ({'; '.join(problems)})" if problems else "")
    )


async def _set_cpu(
    w: Work, where: tuple[str, str, dict[str, Any]], req: Any, target: float, what: str
) -> tuple[tuple[bool, str, tuple[int, int, list[str]]], str | None]:
    """Set the CPU request of ``where`` (workload, namespace, container) from ``req`` to
    ``target`` cores, then read the rollout and the pods: (ok, status, pod health), error."""
    wl, ns, c = where
    with w.s.doing(
        f"let {wl} be scheduled: its CPU request {req} is more than any node can offer",
        f"finding: {what[:80]}",
    ):
        text, error = await w.s.change(
            "set",
            "resources",
            f"deployment/{wl}",
            "-c",
            str(c.get("name")),
            "-n",
            ns,
            f"--requests=cpu={millicores(target)}",
            before=f"requests.cpu={req}",
            after=f"requests.cpu={millicores(target)}",
        )
    if error:
        return (False, "", (0, 0, [])), f"lowering the CPU request failed: {text.strip()}"
    ok, status = await rollout_status(w, wl, ns)
    health = await pod_health(w, wl, ns, f"verify the {wl} pods are scheduled and ready")
    return (ok, status, health), None


async def admit_in_policy(w: Work, f: Finding, client: str) -> str:
    # an admit-in-policy finding always names its policy (diagnose sets data["policy"])
    pol = cast(str, f.data.get("policy"))
    ns = w.ns_of(pol)
    obj = await read(w, "networkpolicy", pol, ns, f"read networkpolicy/{pol} before changing it")
    pods = w.pods_of(client)
    labels = ((pods[0].get("metadata") or {}).get("labels") or {}) if pods else {}
    sel = {k: v for k, v in labels.items() if k in ("app", "app.kubernetes.io/name")} or {
        "app": client
    }
    rules = ((obj or {}).get("spec") or {}).get("ingress") or []
    peer = {"podSelector": {"matchLabels": sel}}
    if rules:
        ops = (
            [{"op": "add", "path": "/spec/ingress/0/from/-", "value": peer}]
            if rules[0].get("from")
            else [{"op": "add", "path": "/spec/ingress/0/from", "value": [peer]}]
        )
    else:
        ops = [{"op": "add", "path": "/spec/ingress", "value": [{"from": [peer]}]}]
    before = json.dumps(rules)[:160]
    with w.s.doing(
        f"admit {client} in networkpolicy/{pol}: the policy blocks it from reaching "
        f"{', '.join(f.data.get('selected') or [])}",
        f"finding: {f.what[:80]}",
    ):
        text, error = await w.s.change(
            "patch",
            "networkpolicy",
            pol,
            "-n",
            ns,
            "--type",
            "json",
            "-p",
            json.dumps(ops),
            before=f"ingress={before}",
            after=f"ingress also from podSelector {json.dumps(sel)} (same ports)",
        )
    if error:
        return f"patching networkpolicy/{pol} failed: {text.strip()}"
    fresh = await read(
        w, "networkpolicy", pol, ns, f"verify networkpolicy/{pol} now admits {client}"
    )
    admits = json.dumps(sel) in json.dumps(((fresh or {}).get("spec") or {}).get("ingress") or [])
    return (
        f"added {client} ({', '.join(f'{k}={v}' for k, v in sel.items())}) to the sources networkpolicy/{pol} "
        f"admits; verified: the policy now {'admits' if admits else 'does NOT yet admit'} it. Everything else the "
        "policy blocks stays blocked"
    )


async def undo_rollout(w: Work, dep: str, old: str | None, new: str | None, trigger: str) -> str:
    ns = w.ns_of(dep)
    await read(
        w, "deployment", dep, ns, f"read deployment/{dep} (current image) before rolling it back"
    )
    with w.s.doing(
        f"roll {dep} back from {new} to {old}: the errors started with the {new} rollout", trigger
    ):
        text, error = await w.s.change(
            "rollout",
            "undo",
            f"deployment/{dep}",
            "-n",
            ns,
            before=f"image={new}",
            after=f"image={old}",
        )
    if error:
        return f"rolling back {dep} failed: {text.strip()}"
    ok, status = await rollout_status(w, dep, ns)
    fresh = await read(w, "deployment", dep, ns, f"verify {dep} runs {old} again")
    image = _container(fresh or {}).get("image")
    return f"rolled {dep} back to {image} (was {new}); rollout " + (
        "complete" if ok else f"not complete ({status})"
    )


async def fix_selector(w: Work, svc: str, key: str, old: str, new: str, trigger: str) -> str:
    ns = w.ns_of(svc)
    await read(w, "service", svc, ns, f"read service/{svc} (selector) before changing it")
    with w.s.doing(
        f"make service/{svc} select its pods again: its selector {key}={old} matches nothing",
        trigger,
    ):
        text, error = await w.s.change(
            "patch",
            "service",
            svc,
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            json.dumps({"spec": {"selector": {key: new}}}),
            before=f"selector {key}={old}",
            after=f"selector {key}={new}",
        )
    if error:
        return f"patching service/{svc} failed: {text.strip()}"
    with w.s.doing(f"verify service/{svc} now has endpoints"):
        ep = await w.s.kjson("get", "endpoints", svc, "-n", ns)
    addresses = [a for sub in (ep or {}).get("subsets") or [] for a in sub.get("addresses") or []]
    return f"service/{svc} now selects {key}={new} and has {len(addresses)} endpoint(s)"


def stuck_pods(w: Work, wl: str) -> list[str]:
    return [name(p) for p in w.pods_of(wl) if not _ready(p)]


def _ready(pod: dict[str, Any]) -> bool:
    st = pod.get("status") or {}
    return st.get("phase") == "Running" and all(
        cs.get("ready") for cs in st.get("containerStatuses") or [{}]
    )


@dataclass
class Remedy:
    """A remedy the careful agent proposes: its steps, and how to carry it out (``act``) or
    why a human must (``human``)."""

    title: str  # what to do, one line
    steps: list[str]
    act: Any = None  # coroutine factory () -> outcome text; None: a human must do or approve it
    human: str | None = None  # why a human has to decide
    risk: str | None = None
    because: str = ""  # the finding that calls for it
