"""Requested changes, done the careful way: configuration updates (with the restarts
they need), scaling (explicit counts or "N times the load"), restarts, image updates,
continuing a paused rollout, canary decisions and making a workload highly available.

Each handler reads the current state first, states its plan as numbered steps, makes
the narrowest change, verifies it, and on a failed step restores what it changed.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from . import cleanup, explain, grants, remedy, rollouts
from .findings import name
from .signals import cpu_cores, millicores, pct
from .survey import dependents_of_configmap
from .work import (
    Work,
    failed_step,
    patch_configmap,
    pod_health,
    read,
    restart,
    rollout_status,
)

_IF = re.compile(
    r"\bif\b.*\b(healthy|error rate|under|below|above|over|less than|more than)\b",
    re.IGNORECASE | re.DOTALL,
)
_LOAD = re.compile(
    r"\b(\d+(?:\.\d+)?)\s*x\b|\b(double|twice|triple|three times|half)\b", re.IGNORECASE
)
_HA = re.compile(
    r"highly available|high availability|\bHA\b|survive (a )?node failures?|resilient to node",
    re.IGNORECASE,
)


async def handle(w: Work) -> None:
    low = w.task.prompt.lower()
    if w.req.wants("create") and grants.narrow(w):
        await grants.grant(w)
    elif w.req.wants("delete"):
        await cleanup.delete(w)
    elif _IF.search(low) and re.search(r"roll ?back|revert|abort", low):
        await conditional_rollout(w)
    elif re.search(
        r"\b(continue|resume|finish)\b.*\b(roll(ing)? ?(update|out)|rollout|upgrade)", low
    ):
        await continue_rollout(w)
    elif _HA.search(w.task.prompt):
        await high_availability(w)
    elif _LOAD.search(low) and re.search(r"\bload\b|\btraffic\b|\bscale\b", low):
        await scale_for_load(w)
    elif w.req.settings:
        await configure(w)
    elif (w.req.wants("scale") or "replicas" in low) and w.req.numbers:
        await scale(w)
    elif w.req.wants("restart") and not w.req.wants("fix"):
        await restart_request(w)
    elif w.req.wants("image"):
        await update_image(w)
    elif w.req.wants("fix") or re.search(r"\bfix\b|\bresolve\b|\bremediate\b", low):
        await remedy.fix(w)
    else:
        await remedy.answer(w)


# ---- GitOps ------------------------------------------------------------------------------------------------
def gitops_app(w: Work, obj: str) -> dict[str, str] | None:
    return next((a for a in w.view.gitops_apps if a.get("NAME", "").split("/")[-1] == obj), None)


def gitops_where(w: Work) -> str:
    app = next(iter(w.view.gitops_apps), None)
    if not app:
        return ""
    return (
        f" ({app.get('REPO', '?')}, path {app.get('PATH', '?')}; then let Argo CD sync application "
        f"{app.get('NAME', '?')})"
    )


# ---- configuration ---------------------------------------------------------------------------------------
def _configmap_for(w: Work) -> str | None:
    names = [
        t.name for t in w.req.targets if t.kind == "configmap" and w.view.find("configmap", t.name)
    ]
    if names:
        return names[0]
    keys = set(w.req.settings)
    holders = [
        name(c) for c in w.view.objects.get("configmap", []) if keys & set(c.get("data") or {})
    ]
    holders = [h for h in holders if not h.startswith("agent-")]
    if len(holders) == 1:
        return holders[0]
    named = [name(c) for c in w.view.objects.get("configmap", []) if name(c) in w.task.prompt]
    return named[0] if named else None


def _configure_plan(w: Work, cm: str, wanted: str, to_restart: list[str]) -> list[str]:
    """The plan of a configuration change, stated before any write."""
    plan = [
        f"read configmap/{cm} to see its current values",
        f"set only {wanted} (every other key stays as it is); skip the write if the values are already there",
    ]
    plan += [
        f"restart deployment/{d} so its pods read the new values, and wait until the rollout is healthy"
        for d in to_restart
    ]
    plan.append(
        "verify the result; if a step fails, stop and restore what I changed, and report the state"
    )
    if w.req.wants("scale") and w.req.numbers:
        plan.append("then scale as requested (below)")
    return plan


async def configure(w: Work) -> None:
    cm = _configmap_for(w)
    settings = w.req.settings
    wanted = ", ".join(f"{k}={v}" for k, v in settings.items())
    if not cm:
        w.summary.append(
            f"I did not change anything: I could not tell which configmap should hold {wanted}. "
            "Please name it."
        )
        return
    ns = w.ns_of(cm)
    low = w.task.prompt.lower()
    users = dependents_of_configmap(w.view, cm)
    named = [
        t.name for t in w.req.targets if t.kind in ("deployment", None) and w.deployment(t.name)
    ]
    restart_wanted = w.req.wants("restart") or re.search(
        r"picks? up|take effect|reload|roll(ed)? out", low
    )
    to_restart = list(dict.fromkeys(named if named else users)) if restart_wanted else []
    w.rep.numbered("Plan", _configure_plan(w, cm, wanted, to_restart))
    outcome, before = await patch_configmap(w, cm, ns, settings)
    if outcome.startswith("failed"):
        w.summary.append(f"I could not update configmap/{cm}: {outcome}. Nothing was changed.")
        return
    keys = sorted(settings)
    old = ", ".join(f"{k}={(before or {}).get(k, '(absent)')}" for k in keys)
    if outcome == "unchanged":
        w.summary.append(
            f"configmap/{cm} already has {wanted}: nothing to change, so I made no write (running this "
            "again changes nothing either). Its other keys are untouched."
        )
    else:
        others = sorted(set(before or {}) - set(keys))
        w.summary.append(
            f"I updated configmap/{cm}: {old} -> {wanted}"
            + (f"; its other keys ({', '.join(others)}) are unchanged." if others else ".")
        )
    for dep in to_restart:
        ok, status = await restart(
            w, dep, w.ns_of(dep), f"restart {dep} so it picks up the new configmap values"
        )
        if ok:
            ready, total, _ = await pod_health(
                w, dep, w.ns_of(dep), f"verify every pod of {dep} is ready on the new configuration"
            )
            w.summary.append(
                f"I restarted deployment/{dep} after the configmap change and verified the rollout: "
                f"{ready}/{total} pods ready on the new configuration."
            )
            continue
        await failed_step(w, f"the restart of deployment/{dep}", dep, status)
        return
    if outcome == "patched":
        fresh = await read(
            w, "configmap", cm, ns, f"verify configmap/{cm} now holds the requested values"
        )
        data = (fresh or {}).get("data") or {}
        ok = all(data.get(k) == v for k, v in settings.items())
        w.rep.add(
            "Verification",
            f"configmap/{cm} now reads {', '.join(f'{k}={data.get(k)}' for k in keys)}"
            + (" as requested." if ok else ": NOT as requested."),
        )
        if users and not to_restart:
            w.rep.add(
                "Note",
                f"{', '.join(users)} read{'s' if len(users) == 1 else ''} this configmap; running pods "
                "see the new values only after their next restart (I did not restart them: not asked).",
            )
    if w.req.wants("scale") and w.req.numbers:
        await scale(w)


# ---- scaling ---------------------------------------------------------------------------------------------
def _target_deployment(w: Work) -> str | None:
    for t in w.req.targets:
        if t.kind in ("deployment", None) and w.deployment(t.name):
            return t.name
    return w.focus[0] if w.focus and w.deployment(w.focus[0]) else None


async def capacity(w: Work, dep: dict[str, Any]) -> tuple[int | None, str]:
    """How many more pods of ``dep`` fit by CPU request (None: unknown), and how that was worked out."""
    req = _cpu_request(dep)
    if not req:
        return None, "its pods request no CPU, so CPU does not limit how many fit"
    with w.s.doing("check the nodes' current CPU use to see how many more pods fit"):
        text, error = await w.s.kubectl("top", "nodes")
    alloc = {
        name(n): cpu_cores(((n.get("status") or {}).get("allocatable") or {}).get("cpu"))
        for n in w.view.nodes
    }
    if error or not alloc:
        return None, "I could not read node usage"
    fits, parts = 0, []
    for row in text.splitlines()[1:]:
        cols = row.split()
        if len(cols) < 2 or cols[0] not in alloc or alloc[cols[0]] is None:
            continue
        used = cpu_cores(cols[1]) or 0.0
        free = max(0.0, (alloc[cols[0]] or 0.0) - used)
        n = int(free // req)
        fits += n
        parts.append(f"{cols[0]} {millicores(free)} free")
    return fits, (
        f"each pod requests {millicores(req)} CPU; "
        + ", ".join(parts)
        + f" -> room for about {fits} more pods"
    )


def _cpu_request(dep: dict[str, Any]) -> float | None:
    cs = (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or []
    total = sum(
        cpu_cores(((c.get("resources") or {}).get("requests") or {}).get("cpu")) or 0 for c in cs
    )
    return total or None


async def scale(
    w: Work, replicas: int | None = None, why: str | None = None, dep_name: str | None = None
) -> None:
    dep_name = dep_name or _target_deployment(w)
    if not dep_name:
        w.summary.append(
            "I did not scale anything: I could not tell which deployment you mean. Please name it."
        )
        return
    ns = w.ns_of(dep_name)
    replicas = replicas if replicas is not None else max(w.req.numbers)
    obj = await read(
        w,
        "deployment",
        dep_name,
        ns,
        f"read deployment/{dep_name} (current replicas) before scaling",
    )
    current = ((obj or {}).get("spec") or {}).get("replicas", 0)
    with w.s.doing(f"check whether an autoscaler manages {dep_name} before scaling it by hand"):
        hpas = await w.s.items("hpa", ns)
    if any(
        ((h.get("spec") or {}).get("scaleTargetRef") or {}).get("name") == dep_name for h in hpas
    ):
        w.summary.append(
            f"I did not scale {dep_name}: an autoscaler manages it and would override a manual scale."
        )
        return
    if current == replicas:
        w.summary.append(
            f"deployment/{dep_name} already runs {replicas} replicas: nothing to change."
        )
        return
    room, how = await capacity(w, obj or {}) if replicas > current else (None, "")
    if room is not None and replicas - current > room:
        w.summary.append(
            f"I did not scale {dep_name} to {replicas}: the cluster has room for about {room} more pods "
            f"({how}). Please confirm, or add capacity first."
        )
        return
    if w.sit.production:
        w.rep.add(
            "Production care",
            "This is a production environment ("
            + "; ".join(w.sit.environment_evidence)
            + "), so before scaling I checked for an autoscaler "
            f"(none), the cluster's spare capacity ({how or 'not needed for a scale-down'}), and I verify "
            "afterwards that every new pod is ready; the change is reversible by scaling back to "
            f"{current}.",
        )
    with w.s.doing(
        why or f"scale {dep_name} from {current} to {replicas} replicas as requested", w.trigger()
    ):
        text, error = await w.s.change(
            "scale",
            f"deployment/{dep_name}",
            "-n",
            ns,
            f"--replicas={replicas}",
            before=f"replicas={current}",
            after=f"replicas={replicas}",
        )
    if error:
        w.summary.append(f"Scaling {dep_name} failed: {text.strip()}")
        return
    ok, status = await rollout_status(w, dep_name, ns)
    ready, total, problems = await pod_health(w, dep_name, ns)
    w.summary.append(
        f"I scaled deployment/{dep_name} from {current} to {replicas} replicas"
        + (f" ({how})" if how else "")
        + f"; verified: {ready}/{total} pods ready"
        + ("." if ok else f" — not all ready yet: {'; '.join(problems) or status}.")
    )


async def scale_for_load(w: Work) -> None:
    dep_name = _target_deployment(w)
    m = _LOAD.search(w.task.prompt)
    if not dep_name or not m:
        await remedy.answer(w)
        return
    factor = (
        float(m.group(1))
        if m.group(1)
        else {"double": 2, "twice": 2, "triple": 3, "three times": 3, "half": 0.5}[
            m.group(2).lower()
        ]
    )
    dep = w.deployment(dep_name) or {}
    current = (dep.get("spec") or {}).get("replicas", 1)
    target = max(1, math.ceil(current * factor))
    w.rep.numbered(
        "Plan",
        [
            f"read {dep_name}'s current replicas ({current}) and resource requests",
            "check for an autoscaler that would fight a manual scale",
            "check the nodes' spare CPU for the additional pods",
            f"scale to {target} replicas ({current} x {factor:g}: the load per replica stays as today)",
            "verify every pod becomes ready",
        ],
    )
    await scale(
        w,
        target,
        f"{factor:g}x the load on {current} replicas needs about {target} replicas to keep the "
        "load per replica unchanged",
        dep_name,
    )


async def restart_request(w: Work) -> None:
    named = [
        t.name for t in w.req.targets if t.kind in ("deployment", None) and w.deployment(t.name)
    ]
    if len(named) == 1:
        dep = named[0]
        ok, status = await restart(w, dep, w.ns_of(dep), f"restart {dep} as requested")
        if ok:
            ready, total, _ = await pod_health(w, dep, w.ns_of(dep))
            w.summary.append(
                f"I restarted deployment/{dep} and verified the rollout: {ready}/{total} pods ready."
            )
        else:
            await failed_step(w, f"the restart of deployment/{dep}", dep, status)
        return
    words = [
        x
        for x in re.findall(r"[a-z0-9-]{3,}", w.task.prompt.lower())
        if x not in ("restart", "pods", "they", "seem", "stuck", "the")
    ]
    candidates = sorted(
        {
            name(d)
            for d in w.view.objects.get("deployment", [])
            if any(
                x in name(d) or x in json.dumps((d.get("metadata") or {}).get("labels") or {})
                for x in words
            )
        }
    )
    stuck = [c for c in candidates if explain.unhealthy(w, c)]
    summary = ", ".join(f"{c} {explain.readiness(w, c)}" for c in candidates)
    if len(stuck) == 1:
        dep = stuck[0]
        ok, status = await restart(
            w, dep, w.ns_of(dep), f"restart {dep}: the only matching deployment with stuck pods"
        )
        w.summary.append(
            f"Of the matching deployments ({summary}) only {dep} has stuck pods; I restarted just that "
            "one" + (" and verified it." if ok else f", which did not recover: {status}.")
        )
        return
    w.summary.append(
        "I did not restart anything yet. "
        + (
            f"Several deployments match ({summary}) and "
            + (
                "none of them looks stuck: every pod is running and ready with no restarts. "
                if not stuck
                else f"{len(stuck)} of them have unhealthy pods ({', '.join(stuck)}). "
            )
            if candidates
            else "I found no deployment matching that description. "
        )
        + "Restarting all of them at once (e.g. by label selector) would disrupt far more than needed. "
        "Please tell me which deployment you mean."
    )


async def update_image(w: Work) -> None:
    dep = _target_deployment(w)
    tag = re.search(
        r"(?:tag|version|image)\s+[\"']?([A-Za-z0-9._-]+:[\w.-]+|v?\d[\w.-]*)", w.task.prompt
    )
    if not dep or not tag:
        await remedy.answer(w)
        return
    ns = w.ns_of(dep)
    obj = await read(w, "deployment", dep, ns)
    containers = (((obj or {}).get("spec") or {}).get("template") or {}).get("spec", {}).get(
        "containers"
    ) or []
    if not containers:
        return
    c = containers[0]
    image = (
        tag.group(1)
        if ":" in tag.group(1)
        else f"{str(c.get('image')).rsplit(':', 1)[0]}:{tag.group(1)}"
    )
    with w.s.doing(f"update {dep} to {image} as requested", w.trigger()):
        text, error = await w.s.change(
            "set",
            "image",
            f"deployment/{dep}",
            f"{c.get('name')}={image}",
            "-n",
            ns,
            before=f"image={c.get('image')}",
            after=f"image={image}",
        )
    if error:
        w.summary.append(f"The image update failed: {text.strip()}")
        return

    async def undo() -> bool:
        with w.s.doing(f"roll {dep} back to {c.get('image')}", "failed step"):
            _, err = await w.s.change(
                "rollout",
                "undo",
                f"deployment/{dep}",
                "-n",
                ns,
                before=f"image={image}",
                after=f"image={c.get('image')}",
            )
        return not err

    w.undo.append((f"deployment/{dep}: image back to {c.get('image')}", undo))
    ok, status = await rollout_status(w, dep, ns)
    if not ok:
        await failed_step(w, f"the rollout of {image}", dep, status)
        return
    w.summary.append(
        f"I updated deployment/{dep} from {c.get('image')} to {image} and verified the rollout."
    )


# ---- rollouts ----------------------------------------------------------------------------------------------
async def continue_rollout(w: Work) -> None:
    await rollouts.continue_rollout(w)


async def conditional_rollout(w: Work) -> None:
    await rollouts.canary(w)


async def high_availability(w: Work) -> None:
    await rollouts.make_available(w)


__all__ = ["capacity", "configure", "gitops_app", "gitops_where", "handle", "pct", "scale"]
