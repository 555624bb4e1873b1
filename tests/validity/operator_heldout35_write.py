"""heldout35's writes: one narrow change at a time, each read back and verified, undone when
the check fails.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_diag import Finding
from .operator_heldout35_guard import Authority, owners
from .operator_heldout35_look import Workload
from .operator_heldout35_pr import Report, ref


async def verify_rollout(s: Session, r: Report, ns: str, name: str, trigger: str) -> bool:
    """``rollout status`` then the pods; a checkbox for each. True when all are ready."""
    out = await s.kubectl(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        f"wait for `{name}`'s rollout to finish",
        prompted=trigger,
    )
    ok = "successfully rolled out" in out
    status_ref = ref(s)
    rows = rd.table(
        await s.kubectl(
            f"get deployment {name} -n {ns}", f"confirm `{name}`'s ready count", prompted=trigger
        )
    )
    ready = (rows[0] if rows else {}).get("ready", "?")
    a, _, b = ready.partition("/")
    ok = ok and a == b and a not in ("", "0")
    r.checks.append(
        (
            ok,
            f"`kubectl rollout status deployment/{name}` {status_ref}: {'rolled out' if ok else 'NOT complete'}, {ready} ready {ref(s)}",
        )
    )
    return ok


async def restart_deployment(
    s: Session, a: Authority, w: Workload, f: Finding, r: Report
) -> Report:
    before = w.ready()
    trigger = f"finding: {f.kind}" if f.kind not in ("", "unknown") else "the request"
    await s.kubectl(
        f"rollout restart deployment/{w.name} -n {w.ns}",
        f"replace `{w.name}`'s pods one at a time ({f.kind or 'as asked'})",
        write=True,
        prompted=trigger,
    )
    call = s.last
    r.title = r.title or f"fix({w.name}): rolling restart"
    r.changes.append(
        f"`kubectl rollout restart deployment/{w.name} -n {w.ns}` (#{call.n}, {call.at}): pods replaced one by one; ready before: {before[0]}/{before[1]}"
    )
    if call.failed:
        r.checks.append((False, f"restart failed (#{call.n}): {call.result.strip()[:160]}"))
        r.followups.append(f"Escalated to {owners(a)}: the restart was refused, nothing changed.")
        return r
    ok = await verify_rollout(s, r, w.ns, w.name, f"verify #{call.n}")
    if ok:
        r.summary.append(f"After the restart `{w.name}` is fully ready again.")
    else:
        r.summary.append(f"The restart did not bring `{w.name}` back; escalating to {owners(a)}.")
        r.followups.append(f"Escalated to {owners(a)}: restart did not recover `{w.name}`.")
    r.risk.append("Low: a rolling restart keeps the other pods serving while each is replaced.")
    return r


async def recreate_pod(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    """Restart a pod: delete it when a controller replaces it, else save, delete, recreate."""
    owned = bool((w.obj.get("metadata") or {}).get("ownerReferences"))
    trigger = f"finding: {f.kind}" if f.kind not in ("", "unknown") else "the request"
    manifest = ""
    if not owned:
        doc = dict(w.obj)
        meta = {
            k: v
            for k, v in (doc.get("metadata") or {}).items()
            if k in ("name", "namespace", "labels", "annotations")
        }
        spec = dict(doc.get("spec") or {})
        spec.pop("nodeName", None)
        manifest = json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
    await s.kubectl(
        f"delete pod {w.name} -n {w.ns}",
        f"clear `{w.name}`'s crash loop with a fresh start ({f.kind or 'as asked'})",
        write=True,
        prompted=trigger,
    )
    deleted = s.last
    r.title = r.title or f"fix({w.name}): restart the crash-looping pod"
    r.changes.append(
        f"`kubectl delete pod {w.name} -n {w.ns}` (#{deleted.n}, {deleted.at})"
        + ("" if owned else ": bare pod (no controller), manifest saved first")
    )
    if deleted.failed:
        r.checks.append((False, f"delete failed (#{deleted.n}); nothing changed"))
        r.followups.append(f"Escalated to {owners(a)}.")
        return r
    if not owned:
        await s.kubectl(
            f"create -n {w.ns} -f -",
            f"recreate `{w.name}` from its saved spec (no controller would)",
            write=True,
            prompted=f"finding: bare pod, deleted in #{deleted.n}",
            stdin=manifest,
        )
        r.changes.append(
            f"`kubectl create -f -` (#{s.last.n}, {s.last.at}): `{w.name}` recreated from the saved spec"
        )
    rows = rd.table(
        await s.kubectl(
            f"get pods -n {w.ns} -o wide",
            "check the replacement pod starts",
            prompted=f"verify #{deleted.n}",
        )
    )
    mine = [x for x in rows if x.get("name", "").startswith(w.name.rsplit("-", 1)[0])]
    fresh = [x for x in mine if (rd.age_minutes(x.get("age", "")) or 99) < 5]
    status = (
        ", ".join(
            f"`{x.get('name')}` {x.get('ready')} {x.get('status')} restarts {x.get('restarts')}"
            for x in fresh
        )
        or "no new pod"
    )
    r.checks.append((bool(fresh), f"replacement pod {ref(s)}: {status}"))
    r.left(
        "left for the owner: watch it for a few minutes; if the crash loop returns it is not transient"
    )
    r.risk.append("Low: the pod was already crash-looping; restarting it adds no downtime.")
    return r


async def undo_rollout(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    await s.kubectl(
        f"rollout undo deployment/{w.name} -n {w.ns}",
        "roll back to the previous image (the errors began with the new one)",
        write=True,
        prompted=f"finding: {f.kind}",
    )
    call = s.last
    r.title = r.title or f"revert({w.name}): roll back the last rollout"
    r.changes.append(f"`kubectl rollout undo deployment/{w.name} -n {w.ns}` (#{call.n}, {call.at})")
    if not call.failed:
        await verify_rollout(s, r, w.ns, w.name, f"verify #{call.n}")
    return r


async def raise_memory(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    c = next(iter(w.containers), {})
    limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", ""))
    q = rd.quantity(limit) if limit else None
    if not q or w.kind != "deployment":
        r.no_change = "No memory limit to adjust on a controller I can patch."
        return r
    new = f"{int(q * 2 / 1024**2)}Mi"
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": c.get("name"),
                            "resources": {"limits": {"memory": new}, "requests": {"memory": new}},
                        }
                    ]
                }
            }
        }
    }
    await s.kubectl(
        f"patch deployment {w.name} -n {w.ns} --type=strategic -p '{json.dumps(patch)}'",
        f"double the memory limit {limit} -> {new} (OOMKilled at the limit)",
        write=True,
        prompted="finding: oom",
    )
    call = s.last
    r.title = f"fix({w.name}): memory limit {limit} -> {new}"
    r.changes.append(
        f"`kubectl patch deployment {w.name}` (#{call.n}, {call.at}): `{c.get('name')}` memory limit/request `{limit}` -> `{new}`"
    )
    if not call.failed:
        await verify_rollout(s, r, w.ns, w.name, f"verify #{call.n}")
    r.followups.append("The growth looks like a leak: the limit buys time, the code needs a look.")
    return r


def _ready_count(text: str) -> str:
    m = re.search(r"(\d+)/(\d+)", text)
    return m.group(0) if m else "?"


def _node_room(text: str) -> float:
    """The most CPU (cores) any one node has left unrequested, from ``describe nodes``."""
    best = 0.0
    for block in re.split(r"\nName:\s", "\n" + text):
        alloc = re.search(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", block)
        used = re.search(r"Allocated resources:[\s\S]*?cpu\s+(\S+)", block)
        if alloc:
            room = (rd.quantity(alloc.group(1)) or 0) - (
                (rd.quantity(used.group(1)) or 0) if used else 0
            )
            best = max(best, room)
    return best


async def lower_cpu_request(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    """Pending for CPU: lower the request to what a node has left, verify the pods schedule."""
    c = next(iter(w.containers), {})
    req = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
    have = rd.quantity(req) if req else None
    nodes = await s.kubectl(
        "describe nodes",
        "how much CPU each node has left unrequested",
        prompted="finding: Insufficient cpu",
    )
    room = _node_room(nodes)
    room_ref = ref(s)
    if not have or w.kind != "deployment":
        r.no_change = "No CPU request I can lower on a controller."
        return r
    r.title = f"fix({w.name}): CPU request {req} fits no node - lowered"
    current = have
    for step in range(2):
        target = min(current / 2, room * 0.8) if room > 0 else current / 2
        new = f"{max(int(target * 1000) // 50 * 50, 50)}m"
        old = req if step == 0 else f"{int(current * 1000)}m"
        patch = {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": c.get("name"), "resources": {"requests": {"cpu": new}}}
                        ]
                    }
                }
            }
        }
        await s.kubectl(
            f"patch deployment {w.name} -n {w.ns} --type=strategic -p '{json.dumps(patch)}'",
            f"CPU request {old} -> {new}: the largest free slot on a node is ~{int(room * 1000)}m ({room_ref})",
            write=True,
            prompted=f"finding: FailedScheduling Insufficient cpu ({ref(s, w.describe_call)})"
            if step == 0
            else f"verify #{s.last.n} still Pending",
        )
        call = s.last
        r.changes.append(
            f"`kubectl patch deployment {w.name}` (#{call.n}, {call.at}): `{c.get('name')}` CPU request `{old}` -> `{new}`"
        )
        if call.failed:
            r.checks.append((False, f"patch refused (#{call.n})"))
            return r
        if await verify_rollout(s, r, w.ns, w.name, f"verify #{call.n}"):
            r.summary.append(
                f"`{w.name}` scheduled and Ready after the CPU request went to `{new}`."
            )
            break
        current = rd.quantity(new) or current / 2
    r.risk.append(
        "The pods now get less guaranteed CPU; watch throttling and latency, raise again when capacity is added."
    )
    r.followups.append(
        f"Capacity: the nodes are nearly fully requested; {owners(a)} to decide on more nodes."
    )
    return r
