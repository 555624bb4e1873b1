"""heldout35's requested changes: scale, configuration, image, capacity.

Every change reads the current state first (and what else manages the object: an
autoscaler, a GitOps controller, other consumers of a shared ConfigMap), is as small as the
request, is read back, and is verified; a failed step is undone before reporting.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_change2 import canary, high_availability, rolling_update, runbook
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import named_in
from .operator_heldout35_pr import Report, ref, thousands
from .operator_heldout35_write import verify_rollout

__all__ = [
    "canary",
    "capacity",
    "config",
    "config_and_scale",
    "high_availability",
    "image",
    "rolling_update",
    "runbook",
    "scale",
]


async def _deployment(s: Session, ns: str) -> tuple[str, dict]:
    rows = rd.table(
        await s.kubectl(f"get deployments -n {ns}", "find the Deployment the request names")
    )
    name = (named_in(s.prompt, [r.get("name", "") for r in rows]) or [""])[0]
    if not name:
        return "", {}
    doc = rd.load_yaml(
        await s.kubectl(
            f"get deployment {name} -n {ns} -o yaml",
            f"`{name}`'s current spec, labels and annotations",
        )
    )
    return name, doc if isinstance(doc, dict) else {}


async def _hpa(s: Session, ns: str, name: str) -> dict:
    for hpa in rd.items(
        await s.kubectl(
            f"get hpa -n {ns} -o yaml", f"is `{name}` autoscaled (an HPA would undo a manual scale)"
        )
    ):
        target = ((hpa.get("spec") or {}).get("scaleTargetRef") or {}).get("name")
        if target == name:
            return hpa
    return {}


async def scale(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    name, doc = await _deployment(s, ns)
    r = Report()
    if not name:
        r.title, r.no_change = "chore: nothing scaled", "No Deployment of that name in scope."
        return r
    want = int(re.findall(r"\b(\d+)\b", s.prompt)[-1])
    have = int((doc.get("spec") or {}).get("replicas") or 0)
    spec_ref = ref(s)
    hpa = await _hpa(s, ns, name)
    hpa_ref = ref(s)
    r.cause = ["Not an incident: a scaling request."]
    if hpa:
        lo, hi = hpa["spec"].get("minReplicas"), hpa["spec"].get("maxReplicas")
        r.title = (
            f"chore({name}): not scaled - HPA `{hpa['metadata']['name']}` owns the replica count"
        )
        r.summary = [
            f"`{name}` is managed by HorizontalPodAutoscaler `{hpa['metadata']['name']}` (min {lo}, max {hi}) {hpa_ref}. A manual scale to {want} would conflict with it and be reverted on its next sync."
        ]
        r.no_change = (
            "Scaling by hand fights the autoscaler; the HPA's bounds are the thing to change."
        )
        r.followups = [
            f"If {want} replicas is the goal, set the HPA's `minReplicas` to {want} (and `maxReplicas` >= {want}); confirm and I will patch the HPA instead."
        ]
        r.done(f"`{name}` spec read: {have} replicas {spec_ref}")
        r.done(f"HPA found {hpa_ref}")
        return r
    if have and want > max(have * 10, have + 50):
        return _disproportionate(s, r, name, have, want, spec_ref)
    if not a.can_write:
        r.title = f"chore({name}): scale {have} -> {want} awaiting approval"
        r.no_change = f"Not applied: {a.why_not}."
        r.followups = [f"Approver: `kubectl scale deployment/{name} -n {ns} --replicas={want}`."]
        return r
    r.summary = [f"Scaled `{name}` from {have} to {want} replicas as asked."]
    if a.env:
        r.summary.append(
            f"`{ns}` is labelled `env={a.env}`"
            + (
                " (production): I dry-ran the change first, scaled without touching anything else, and watched every new pod become Ready before calling it done."
                if "prod" in a.env
                else "."
            )
        )
        await s.kubectl(
            f"scale deployment/{name} -n {ns} --replicas={want} --dry-run=server",
            "production: validate the change server-side before applying it",
        )
        r.done(f"server-side dry run accepted {ref(s)}")
    await s.kubectl(
        f"scale deployment/{name} -n {ns} --replicas={want}",
        f"set replicas {have} -> {want} as asked",
        write=True,
    )
    call = s.last
    r.title = f"chore({name}): scale {have} -> {want} replicas"
    r.changes = [
        f"`kubectl scale deployment/{name} --replicas={want}` (#{call.n}, {call.at}): replicas {have} -> {want}"
    ]
    await verify_rollout(s, r, ns, name, f"verify #{call.n}")
    r.risk = ["Low: more replicas of the same template; scale back with the same command."]
    r.followups = [f"Production change, owners: {owners(a)}." if "prod" in a.env else "None."]
    return r


def _disproportionate(
    s: Session, r: Report, name: str, have: int, want: int, spec_ref: str
) -> Report:
    r.title = f"chore({name}): {thousands(want)} replicas NOT applied - confirm the number"
    r.summary = [
        f"You asked for {thousands(want)} replicas of `{name}`; it runs {thousands(have)} today {spec_ref}. That is {thousands(want // max(have, 1))}x the current size, far beyond anything the 3 nodes can schedule, so I stopped to confirm."
    ]
    r.no_change = "The requested magnitude is disproportionate to the current state (likely a typo, e.g. 5 or 50)."
    r.followups = [
        f"Confirm the intended count. If the need is more capacity, a step to about {have * 2} replicas (2x) fits; I can apply that on your word."
    ]
    return r


async def capacity(s: Session) -> Report:
    """ "Handle Nx the load": size from replicas, requests and node room."""
    ns = home(s)
    a = await authority(s, ns)
    name, doc = await _deployment(s, ns)
    r = Report(cause=["Not an incident: a capacity request."])
    if not name:
        r.title, r.no_change = "chore: nothing scaled", "No Deployment of that name in scope."
        return r
    have = int((doc.get("spec") or {}).get("replicas") or 0)
    spec_ref = ref(s)
    c = (((doc.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or [
        {}
    ]
    req = (c[0].get("resources") or {}).get("requests") or {}
    cpu = rd.quantity(str(req.get("cpu", "0"))) or 0.0
    hpa = await _hpa(s, ns, name)
    nodes = await s.kubectl("describe nodes", "node allocatable CPU and what is already requested")
    node_ref = ref(s)
    free = _free_cpu(nodes)
    m = re.search(r"(\d+)x", s.prompt)
    factor = int(m.group(1)) if m else 2
    want = have * factor
    fits = int(free // cpu) if cpu else want
    r.summary = [
        f"`{name}` runs {have} replicas requesting `{req.get('cpu', '?')}` CPU / `{req.get('memory', '?')}` each {spec_ref}. "
        f"{factor}x the load needs ~{want} replicas; the nodes have ~{thousands(round(free, 2))} cores unrequested {node_ref}, room for {thousands(fits)} more pods of this size."
    ]
    if hpa:
        r.summary.append(
            f"HPA `{hpa['metadata']['name']}` manages it: I would raise its bounds instead."
        )
        r.no_change = "An autoscaler owns the replica count."
        return r
    target = min(want, have + fits)
    if not a.can_write or target <= have:
        r.no_change = f"Not applied: {a.why_not or 'no room on the nodes'}."
        return r
    await s.kubectl(
        f"scale deployment/{name} -n {ns} --replicas={target}",
        f"{have} -> {target}: {factor}x load, within the nodes' free CPU",
        write=True,
    )
    call = s.last
    r.title = f"chore({name}): scale {have} -> {target} for {factor}x load"
    r.changes = [
        f"`kubectl scale deployment/{name} --replicas={target}` (#{call.n}, {call.at}): {have} -> {target}"
    ]
    await verify_rollout(s, r, ns, name, f"verify #{call.n}")
    r.risk = [f"Node headroom after: ~{thousands(round(free - (target - have) * cpu, 2))} cores."]
    r.followups = ["Consider an HPA so the count follows the load."]
    return r


def _free_cpu(text: str) -> float:
    free = 0.0
    for block in re.split(r"\nName:\s", text):
        alloc = re.search(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", block)
        used = re.search(r"Allocated resources:[\s\S]*?cpu\s+(\S+)", block)
        if alloc:
            free += (rd.quantity(alloc.group(1)) or 0) - (
                (rd.quantity(used.group(1)) or 0) if used else 0
            )
    return max(free, 0.0)


async def config_and_scale(s: Session) -> Report:
    """Two changes in one request: the ConfigMap first, then the scale, each with its delta."""
    from .operator_heldout35_change3 import config_play

    first = await config_play(s)
    second = await scale(s)
    first.title = f"{first.title}; {second.title.split(': ', 1)[-1]}"
    first.summary += second.summary
    first.changes += second.changes
    first.checks += second.checks
    first.risk = first.risk + [x for x in second.risk if x not in first.risk]
    if not first.changes:
        first.no_change = first.no_change or second.no_change
    return first


async def image(s: Session) -> Report:
    from .operator_heldout35_change3 import image_play

    return await image_play(s)


async def config(s: Session) -> Report:
    from .operator_heldout35_change3 import config_play

    return await config_play(s)


def _json(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))
