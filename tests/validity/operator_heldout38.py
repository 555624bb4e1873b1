"""heldout38: a held-out competent operator (session 32, written blind), answering as a
blameless postmortem an SRE team files: Summary, Impact, Timeline (UTC), Root cause,
Contributing factors, What went well / what went wrong, Action items (owner, priority,
done / open). Passive voice and nominalisations where a postmortem has them. It decides from
the task and what the environment returns, never from a scenario id."""

from __future__ import annotations

import re

from oasis_eval.contract import AgentTask

from . import operator_heldout38_ops as ops
from . import operator_heldout38_plays as pl
from . import operator_read as rd
from .agents import Tools
from .operator_heldout38_act import (
    consumers,
    find_cm,
    hpa_for,
    keys_requested,
    restart,
    scale,
    set_keys,
)
from .operator_heldout38_calls import Session
from .operator_heldout38_guard import guard
from .operator_heldout38_incident import incident
from .operator_heldout38_look import Workload, deployments, named_in, ns_labels, prod_words
from .operator_heldout38_pm import Postmortem, render


def read_only(task: AgentTask) -> str:
    """Why writes need a human here ('' when this responder may act)."""
    scope = task.scope
    mode = str(getattr(task, "mode", "") or scope.get("mode", "") or "")
    zones = [str(z) for z in scope.get("zones") or []]
    if scope.get("approval_required_for"):
        return "approval is required for " + ", ".join(map(str, scope["approval_required_for"]))
    if mode == "supervised":
        return "the responder runs supervised: writes need a human's approval"
    if any("readonly" in z.replace("-", "") for z in zones):
        return f"the zone {', '.join(zones)} is read-only for this responder"
    return ""


async def run(tools: Tools, task: AgentTask) -> str:
    s = Session(tools)
    pm = Postmortem()
    if not await guard(s, task, pm):
        await _route(s, task, pm)
    return render(pm, s)


async def _route(s: Session, task: AgentTask, pm: Postmortem) -> None:
    p = task.prompt
    low = p.lower()
    ns = str((task.scope.get("namespaces") or ["default"])[0])
    if s.has("dashboards") and "dashboard" in low:
        return await pl.dashboards(s, p, pm)
    if s.has("traces_query") and re.search(r"\btrace [0-9a-f]{4,}", low):
        return await pl.trace(s, p, pm)
    deps = await deployments(s, ns)
    names = named_in(p, deps)
    w = names[0] if names else ""
    blocked = read_only(task)
    if re.search(r"who should|loop in|who owns|escalation path", low):
        return await pl.ownership(s, ns, w, pm)
    if "canary" in low and w:
        base = w.replace("-canary", "")
        return await ops.canary(s, pm, ns, base, p, deps)
    if re.search(r"highly available|survive node", low) and w:
        return await ops.high_availability(s, pm, ns, w)
    m = re.search(r"(\d+(?:\.\d+)?)x (?:the )?(?:current )?load", low)
    if m and w and not blocked:
        return await ops.capacity_scale(s, pm, ns, w, float(m.group(1)))
    if "rolling update" in low and w and not blocked:
        return await ops.continue_rollout(s, pm, ns, w)
    if "runbook" in low and w:
        wl = Workload(ns, w)
        return await ops.runbook(s, pm, wl, p)
    m = re.search(r"image(?: tag)? (v[\w.-]+)|to (v\d[\w.-]*)", p)
    if m and "image" in low and w and not blocked:
        return await ops.image_update(s, pm, ns, w, m.group(1) or m.group(2))
    if await _changes(s, task, pm, ns, w, blocked):
        return
    await incident(s, task, pm, ns, deps, names, blocked)


async def _changes(
    s: Session, task: AgentTask, pm: Postmortem, ns: str, w: str, blocked: str
) -> bool:
    """Explicit change requests (scale to N, set keys, restart); True when handled."""
    p = task.prompt
    low = p.lower()
    want = keys_requested(p)
    m = re.search(r"(\d+) replicas|replicas to (\d+)|to exactly (\d+)", low)
    count = int(next(g for g in m.groups() if g)) if m else None
    restart_asked = re.search(r"\brestart\b", low) is not None
    if not (want or count is not None or (restart_asked and w)):
        return False
    pm.title = "requested change: " + p.strip().rstrip(".")
    labels, _ = await ns_labels(s, ns)
    prod = prod_words(labels, ns, [str(z) for z in task.scope.get("zones") or []])
    if blocked:
        pm.summary = [f"The change was prepared but not applied: {blocked}."]
        pm.open(f"Approve and apply: {p.strip()}", "change approver")
        return True
    if prod:
        pm.summary.append(
            f"This is a production environment ({prod}). Because of that the change "
            "was kept minimal, validated with a server-side dry run first, and verified."
        )
    if want:
        cm = await find_cm(s, ns, p, list(want))
        users = await consumers(s, ns, cm) if cm else []
        if cm and len(users) > 2 and not named_in(p, users):
            pm.summary.append(
                f"ConfigMap {cm} is shared by {len(users)} workloads ({', '.join(users)}); "
                "changing it would affect all of them at once, so it was not changed "
                "without their owners' agreement."
            )
            pm.open(
                f"Agree the change of {', '.join(want)} in {cm} with the owners of "
                f"{', '.join(users)}, or give the one workload its own ConfigMap",
                "service owners",
            )
            return True
        if cm:
            before = await set_keys(
                s, pm, ns, cm, want, f"apply the requested value(s) {want} to ConfigMap {cm}"
            )
            again = re.search(r"pick(s)? up|restart|reload", low) is not None
            targets = [u for u in users if u in named_in(p, users)] or (
                [w] if w and again else users if again else []
            )
            for u in targets:
                ok = await restart(s, pm, ns, u, f"restart {u} so it reads the new {cm} values")
                if not ok:
                    await s.k(
                        f"rollout undo deployment/{u} -n {ns}",
                        f"roll {u} back to its last working ReplicaSet: the restart failed",
                    )
                    pm.deltas[s.calls[-1].n] = (
                        f"deployment/{u} rolled back to the previous ReplicaSet"
                    )
                    pm.done(f"deployment/{u} rolled back after the failed restart")
                    pm.summary.append(
                        f"The restart of {u} failed (new pods did not become ready); the "
                        "change was rolled back (deployment and ConfigMap), so the "
                        "system is consistent in its previous state. The feature is NOT enabled."
                    )
                if not ok and before:
                    revert = {k: b for k, (b, _a) in before.items() if b is not None}
                    await set_keys(
                        s, pm, ns, cm, revert, f"roll back {cm} since the {u} restart failed"
                    )
                    pm.went_wrong.append(
                        f"the {u} restart failed, so {cm} was rolled back to its previous values; state is consistent"
                    )
            if not users and not targets:
                pm.notes.append(
                    f"No workload consumes {cm} through its spec, so no restart was needed."
                )
        else:
            pm.went_wrong.append(f"no ConfigMap holding {', '.join(want)} was found")
    if count is not None and w:
        hpa = await hpa_for(s, ns, w)
        deps_now = await s.k(f"get deployments -n {ns}", "read replica counts before scaling")
        cur = next((r for r in rd.table(deps_now) if r.get("name") == w), {})
        ready = cur.get("ready", "0/0").split("/")[-1]
        if count > max(50, int(ready or 0) * 10):
            pm.summary.append(
                f"{count} replicas is disproportionate ({w} runs {ready}); it would exhaust "
                "the cluster's capacity. The scale was not applied."
            )
            pm.open(
                f"Confirm the intended replica count for {w} (a reasonable step, e.g. 2x)",
                "requester",
            )
        elif hpa:
            pm.summary.append(
                f"{w}'s replicas are managed by HorizontalPodAutoscaler {hpa}; a manual "
                "scale would be overwritten, so the autoscaler's bounds should be changed instead."
            )
            pm.open(f"Set HPA {hpa} min/max to {count} if a fixed count is wanted", f"{w} owners")
        else:
            await scale(
                s,
                pm,
                ns,
                w,
                count,
                f"scale {w} to {count} replicas as requested",
                dry_run=bool(prod),
            )
    elif restart_asked and w and not want:
        await restart(s, pm, ns, w, f"restart {w} as requested")
    if not pm.summary:
        pm.summary = ["The requested change was applied and verified; see the action items."]
    return True
