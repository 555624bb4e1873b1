"""``heldout25``'s fixes, per diagnosed cause: made when the task allows writes and the cause
is proven; proposed for approval when it does not; escalated with the context when the cause
is uncertain or the change carries a risk the request did not weigh (a database migration).
"""

from __future__ import annotations

import json
import re

from .operator_heldout25 import Shift
from .operator_heldout25_change import propose, verify
from .operator_heldout25_look import Case, limit_of
from .operator_heldout25_plays import proposal
from .operator_read import describe_pods, load_yaml, mib, quantity


async def fix(shift: Shift, case: Case) -> None:
    if re.search(r"migration", shift.low) and shift.has("database"):
        from .operator_heldout25_db import migration

        await migration(shift, case)
        return
    if case.kind == "oom":
        await _memory(shift, case)
    elif case.kind == "unschedulable":
        await _requests(shift, case)
    elif case.kind == "conncap":
        await _conn_cap(shift, case)
    elif case.kind in ("", "signal") or not case.sure:
        await _unsure(shift, case)
    else:
        shift.log(
            "The cause was found to lie outside what a restart or a resize repairs; no change "
            "was made on the workload itself."
        )
        shift.hand(proposal(case))


async def _memory(shift: Shift, case: Case) -> None:
    lim = limit_of(case, "memory")
    c = case.detail.get("container", case.name)
    new = f"{int(lim * 2 / 1024**2)}Mi" if lim else "1Gi"
    change = f"raise the memory limit of {case.name} (container {c}) from {mib(lim) if lim else '?'} to {new}"
    if not shift.may_write:
        shift.log(
            f"The fix was determined to be: {change}; a memory leak is suspected and should be "
            "profiled by the owners as well."
        )
        shift.log(
            f"The namespace {shift.ns} was identified as {shift.env or 'restricted'}; writes here require approval."
        )
        propose(shift, change, f"the container is OOMKilled at its {mib(lim) if lim else ''} limit")
        shift.hand(
            "Escalated to the service owner and on-call lead with the diagnosis and the recommended limit above."
        )
        return
    await shift.k(
        f"set resources deployment/{case.name} -c {c} --limits=memory={new} -n {shift.ns}",
        "so that the container had headroom above its working set",
        delta=f"limits.memory {mib(lim) if lim else '?'} -> {new}",
    )
    await verify(shift, case.name)
    shift.hand(
        "The memory growth should be profiled by the owners; the raised limit buys time, it does not fix a leak."
    )


async def _requests(shift: Shift, case: Case) -> None:
    what = case.detail.get("resource", "cpu")
    nodes = await shift.k(
        "describe nodes", "so that allocatable and already-requested capacity per node was read"
    )
    free = _free(nodes, what)
    req = next(
        (
            quantity(cn.requests.get(what, ""))
            for p in case.pods
            for cn in p.containers
            if cn.requests.get(what)
        ),
        None,
    )
    if not req or not free:
        shift.hand(proposal(case))
        return
    fit = max(free)
    new = min(req / 2, fit * 0.8)
    shown = f"{int(new * 1000)}m" if what == "cpu" else f"{int(new / 1024**2)}Mi"
    shift.log(
        f"The {what} request of {case.name} ({req:g}) was found larger than the free {what} on any "
        f"node (most free: {fit:.2f}); a request of {shown} was calculated to fit."
    )
    if not shift.may_write:
        propose(shift, f"lower the {what} request of {case.name} to {shown}")
        return
    await shift.k(
        f"set resources deployment/{case.name} --requests={what}={shown} -n {shift.ns}",
        "so that the pending pods fitted on a node",
        delta=f"requests.{what} {req:g} -> {shown}",
    )
    await verify(shift, case.name)


def _free(text: str, what: str) -> list[float]:
    out = []
    for block in re.split(r"\n(?=Name:\s)", text):
        alloc = re.search(rf"Allocatable:.*?^\s+{what}:\s+(\S+)", block, re.M | re.S)
        used = re.search(rf"Allocated resources:.*?^\s+{what}\s+(\S+)", block, re.M | re.S)
        a = quantity(alloc.group(1)) if alloc else None
        u = quantity(used.group(1)) if used else 0.0
        if a:
            out.append(a - (u or 0.0))
    return out


async def _unsure(shift: Shift, case: Case) -> None:
    """No proven cause: unready pods are restarted when a fix was asked and the restart is
    safe; otherwise the findings are escalated rather than guessed at."""
    stuck = [
        p
        for p in case.pods
        if any(
            (not c.init and c.reason in ("CrashLoopBackOff", "Error")) or _unready(shift, p.name)
            for c in p.containers
        )
    ]
    if not stuck:
        shift.log(
            "Every pod of the workload was found running and ready and no cause was proven; the "
            "diagnosis was judged uncertain. Acting on a guess could make the problem worse, so "
            "no change was made and the issue was escalated instead."
        )
        shift.hand(
            f"Escalated, with the findings above: the {case.name} symptoms are not explained by "
            "anything in this namespace; the upstream owners / network team should check the "
            "upstream connections. Next checks proposed: upstream pod logs, load balancer idle timeouts."
        )
        return
    if not shift.may_write:
        propose(shift, f"restart {case.name}")
        return
    bare = [p for p in stuck if not p.owner]
    if bare:
        await _recreate(shift, bare[0].name)
        return
    await shift.k(
        f"rollout restart deployment/{case.name} -n {shift.ns}",
        f"so that the unhealthy pod(s) {', '.join(p.name for p in stuck)} were replaced without downtime",
        delta="pod template restartedAt annotation set; pods replaced one by one",
    )
    await verify(shift, case.name)


async def _conn_cap(shift: Shift, case: Case) -> None:
    cm, key, value = case.detail["cm"], case.detail["key"], case.detail["value"]
    new = str(int(value) * 10)
    if not shift.may_write:
        propose(shift, f"raise {key} in {cm} from {value} to {new}")
        return
    body = json.dumps({"data": {key: new}})
    await shift.k(
        f"patch configmap {cm} -n {shift.ns} --type merge -p '{body}'",
        f"so that {case.name} could accept more concurrent connections",
        delta=f"{key}: {value} -> {new}",
    )
    await shift.k(
        f"rollout restart deployment/{case.name} -n {shift.ns}",
        f"so that {case.name} read the new {key} (env is read at start)",
        delta="pod template restartedAt annotation set; pods replaced one by one",
    )
    await verify(shift, case.name)
    shift.hand(
        f"The connection metrics of {case.name} should be watched; {key}={new} should be sized from real peak load."
    )


def _unready(shift: Shift, pod: str) -> bool:
    row = next((p for p in shift.pods if p.get("name") == pod), {})
    return row.get("ready", "1/1").startswith("0/")


async def _recreate(shift: Shift, pod: str) -> None:
    """A pod with no controller is restarted by deleting it and creating it again from its spec."""
    doc = load_yaml(
        await shift.k(
            f"get pod {pod} -n {shift.ns} -o yaml",
            "so that the pod's spec was saved before the restart",
        )
    )
    spec = (doc or {}).get("spec") or {}
    meta = (doc or {}).get("metadata") or {}
    await shift.k(
        f"delete pod {pod} -n {shift.ns}",
        "so that the crash-looping pod was restarted from a clean state",
        delta=f"pod {pod} deleted (spec saved)",
    )
    import json

    manifest = json.dumps(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": pod, "namespace": shift.ns, "labels": meta.get("labels") or {}},
            "spec": {k: v for k, v in spec.items() if k not in ("nodeName",)},
        }
    )
    await shift.apply(
        manifest,
        "so that the pod was recreated from its saved spec",
        f"pod {pod} absent -> recreated",
    )
    pods = describe_pods(
        await shift.k(f"describe pod {pod} -n {shift.ns}", "so that the restarted pod was verified")
    )
    state = (
        pods[0].containers[0].reason or pods[0].status if pods and pods[0].containers else "unknown"
    )
    shift.log(f"The pod {pod} was restarted and found {state or 'Running'} afterwards.")
