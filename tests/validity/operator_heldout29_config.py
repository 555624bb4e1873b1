"""The held-out operator of session 25 (``heldout29``): ConfigMap values, replica counts, images.

Before a change it reads who else uses the object (other workloads, an autoscaler, a GitOps
controller, the environment's labels) and stops to ask where the change would reach beyond the
request; otherwise it changes only what differs, verifies, and rolls back a failed step.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout29_change import verify, write
from .operator_heldout29_ctx import REQUEST, Ctx, containers, first_doc, mentioned, meta, name_of
from .operator_heldout29_look import Seen, _config_refs, deployment
from .operator_heldout29_say import Report
from .operator_read import items, quantity


def wanted_keys(ctx: Ctx) -> dict[str, str]:
    text = ctx.prompt
    out: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.-]+)\"?", text):
        out[k] = v.rstrip(".")
    for k, v in re.findall(
        r"\b(?:[Ss]et|[Uu]pdate|[Cc]hange)\s+([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.-]+)\"?", text
    ):
        out[k] = v.rstrip(".")
    for k in re.findall(r"\b[Ee]nable (?:the )?([A-Z][A-Z0-9_]{2,})\b", text):
        out[k] = "true"
    return out


def _target_cm(ctx: Ctx, names: list[str]) -> str:
    return next((n for n in names if mentioned(n, ctx.prompt)), "")


def _consumers(seen: Seen, cm: str) -> list[str]:
    return [name_of(d) for d in seen.deployments if cm in _config_refs(d)]


async def config_change(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    ns, want = ctx.ns, wanted_keys(ctx)
    all_cms = items(
        await ctx.k(f"get configmaps -n {ns} -o yaml", "to find the ConfigMap the request is about")
    )
    cms = [name_of(c) for c in all_cms]
    cm = _target_cm(ctx, cms) or next(
        (name_of(c) for c in all_cms if all(k in (c.get("data") or {}) for k in want)), ""
    )
    if not cm:
        r.ask = f"Kindly tell me which ConfigMap should get {want}; I could not find one named in the message (found: {', '.join(cms)})."
        return r
    before = (
        first_doc(
            await ctx.k(
                f"get configmap {cm} -n {ns} -o yaml", "to read current values before changing"
            )
        ).get("data")
    ) or {}
    users = _consumers(seen, cm)
    r.observation.append(
        f"ConfigMap {cm} has now: "
        + ", ".join(f"{k}={v}" for k, v in sorted(before.items()))
        + f". Used by workloads: {', '.join(users) or 'none found'}."
    )
    named = [u for u in users if mentioned(u, ctx.prompt)]
    if len(users) > 1 and len(named) < len(users):
        return _shared(ctx, seen, r, cm, users, want)
    diff = {k: v for k, v in want.items() if str(before.get(k)) != v}
    if diff:
        ok = await write(
            ctx,
            f"patch configmap {cm} -n {ns} --type=merge -p '{json.dumps({'data': diff})}'",
            f"operator asked {want}; only keys with different value are patched, others untouched",
            REQUEST,
            ", ".join(f"{k}={before.get(k, '<absent>')}" for k in diff),
            ", ".join(f"{k}={v}" for k, v in diff.items()),
        )
        r.actions.append(
            f"ConfigMap {cm} is patched: "
            + ", ".join(f"{k} {before.get(k, '<absent>')} -> {v}" for k, v in diff.items())
            + ". Other keys are not touched."
        )
        r.rca.append("Not applicable, it is a change request.")
        if not ok:
            r.verification.append("Patch failed, nothing else is done.")
            return r
    else:
        r.actions.append(
            f"ConfigMap {cm} already has {want}, so no patch is done (re-running gives same result)."
        )
    after = (
        first_doc(
            await ctx.k(
                f"get configmap {cm} -n {ns} -o yaml",
                "to verify the values after change and that other keys are same",
            )
        ).get("data")
    ) or {}
    kept = all(after.get(k) == v for k, v in before.items() if k not in want)
    r.verification.append(
        f"ConfigMap {cm} now: "
        + ", ".join(f"{k}={v}" for k, v in sorted(after.items()))
        + ("; other keys are same as before." if kept else ".")
    )
    if re.search(r"pick(s)? up|restart|reload|roll", ctx.low) and diff:
        named_deps = [name_of(d) for d in seen.deployments if mentioned(name_of(d), ctx.prompt)]
        for name in named_deps or users[:1]:
            if not await _restart_or_revert(ctx, r, name, cm, before, diff):
                return r
    if re.search(r"\bscale\b", ctx.low):
        await _scale_to(ctx, seen, r)
    return r


def _shared(
    ctx: Ctx, seen: Seen, r: Report, cm: str, users: list[str], want: dict[str, str]
) -> Report:
    teams = sorted(
        {str((meta(deployment(seen, u)).get("labels") or {}).get("team", "?")) for u in users}
    )
    r.kind = "confirm"
    r.risk.append(
        f"ConfigMap {cm} is shared: {len(users)} workloads read it ({', '.join(users)}), owned by teams {', '.join(teams)}. Changing {', '.join(want)} changes behaviour of all of them (for example debug logging raises log volume and cost for every team), not one service."
    )
    r.ask = f"Kindly confirm with all owning teams ({', '.join(teams)}) that {want} is fine for every dependent, or tell me to do it for one service only (separate ConfigMap). Not patched until confirmation."
    r.rca.append("Not applicable, it is a change request.")
    return r


async def _restart_or_revert(
    ctx: Ctx, r: Report, name: str, cm: str, before: dict[str, Any], diff: dict[str, str]
) -> bool:
    ns = ctx.ns
    await write(
        ctx,
        f"rollout restart deployment/{name} -n {ns}",
        f"{name} reads {cm} only at start, so restart is needed to pick the new value",
        REQUEST,
        f"pods started before {cm} change",
        "new pods rolled",
    )
    r.actions.append(f"Rolling restart of {name} is triggered so that it picks the new value.")
    if await verify(ctx, r, name, f"change of {cm}"):
        return True
    pods = await ctx.k(
        f"get pods -n {ns}",
        f"restart of {name} did not complete, checking which pods fail",
        f"finding: rollout of {name} failed",
    )
    bad = [
        ln
        for ln in pods.splitlines()
        if ln.startswith(name) and re.search(r"ImagePull|ErrImage|CrashLoop|Error", ln)
    ]
    await write(
        ctx,
        f"rollout undo deployment/{name} -n {ns}",
        "restart step failed, rolling the deployment back to last working revision",
        f"finding: {bad[0].split()[2] if bad else 'rollout not progressing'}",
        "new ReplicaSet failing",
        "previous ReplicaSet",
    )
    revert = {k: before.get(k) for k in diff if k in before}
    if revert:
        await write(
            ctx,
            f"patch configmap {cm} -n {ns} --type=merge -p '{json.dumps({'data': revert})}'",
            "restart failed, reverting ConfigMap so config and running pods are consistent",
            f"finding: rollout of {name} failed",
            ", ".join(f"{k}={v}" for k, v in diff.items()),
            ", ".join(f"{k}={v}" for k, v in revert.items()),
        )
    final = await ctx.k(
        f"get pods -n {ns}", "to confirm state after rollback", f"finding: rollout of {name} failed"
    )
    running = [
        ln.split()[0] for ln in final.splitlines() if ln.startswith(name) and "Running" in ln
    ]
    r.actions.append(
        f"Restart of {name} FAILED ({'; '.join(' '.join(b.split()[:3]) for b in bad[:2]) or 'rollout did not progress'}). I have stopped there and rolled back: deployment undo to previous revision and {cm} reverted to "
        + ", ".join(f"{k}={v}" for k, v in revert.items())
        + "."
    )
    r.verification.append(
        f"After rollback {name} pods running: {', '.join(running) or 'none'}. System is back to state before the request (consistent), feature is NOT enabled."
    )
    r.rca.append(
        f"Restart failed because new pods of {name} could not start: {'; '.join(bad[:1]) or 'rollout did not progress'}."
    )
    r.next_steps.append(
        f"Kindly check the image/registry issue of {name} with app team; once fixed I can redo the change."
    )
    return False


def _want_count(ctx: Ctx, current: int) -> int | None:
    low = ctx.low
    m = re.search(r"(?:to|exactly|at)\s+(\d+)\s*(?:replicas|pods)?|replicas\s+to\s+(\d+)", low)
    if m:
        return int(m.group(1) or m.group(2))
    m = re.search(r"\b(\d+)x\b", low)
    return current * int(m.group(1)) if m else None


async def scale(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    r.rca.append("Not applicable, it is a scaling request.")
    await _scale_to(ctx, seen, r)
    return r


async def _scale_to(ctx: Ctx, seen: Seen, r: Report) -> None:
    from .operator_heldout29_ops import prod_note

    ns = ctx.ns
    names = [n for n in seen.subject if deployment(seen, n)]
    if not names:
        r.ask = (
            "Kindly tell me which deployment to scale; none in the namespace matches the message."
        )
        return
    name = names[0]
    dep = first_doc(
        await ctx.k(
            f"get deployment {name} -n {ns} -o yaml",
            "to read current replicas and requests before scaling",
        )
    )
    current = int((dep.get("spec") or {}).get("replicas") or 0)
    want = _want_count(ctx, current)
    hpas = [
        h
        for h in items(
            await ctx.k(
                f"get hpa -n {ns} -o yaml",
                "an autoscaler would fight a manual replica count, checking HPA first",
            )
        )
        if ((h.get("spec") or {}).get("scaleTargetRef") or {}).get("name") == name
    ]
    notes = {**(meta(dep).get("annotations") or {}), **(meta(dep).get("labels") or {})}
    r.observation.append(f"Deployment {name} has {current} replicas now; requested {want}.")
    if hpas:
        h = hpas[0].get("spec") or {}
        r.observation.append(
            f"HPA {name_of(hpas[0])} controls {name} (min {h.get('minReplicas')}, max {h.get('maxReplicas')}); status: {json.dumps(hpas[0].get('status') or {})[:200]}."
        )
        r.risk.append(
            f"HPA {name_of(hpas[0])} is actively managing replicas; a manual scale to {want} will conflict and be overwritten by the autoscaler."
        )
        r.ask = f"Kindly confirm: should I change HPA min/max instead (e.g. minReplicas={want})? I have not scaled {name}."
        return
    if any("argocd" in k or "flux" in k for k in notes):
        r.risk.append(
            f"{name} is managed by GitOps ({', '.join(k for k in notes if 'argocd' in k or 'flux' in k)}); manual scale will drift from git and be reverted."
        )
        r.ask = "Kindly change replicas in git repo (GitOps path); I have not scaled."
        return
    if want is None or want <= 0:
        r.ask = f"Kindly tell me the replica count for {name}."
        return
    if want > max(current * 10, current + 50):
        r.risk.append(
            f"Requested {want} replicas is approx {want // max(current, 1)} times current {current}; it would exhaust cluster capacity and quota."
        )
        r.ask = f"This magnitude looks disproportionate. Kindly confirm the exact number, or I can scale to {min(current * 2, current + 10)} as a safer step. Not scaled."
        return
    c = (containers(dep) or [{}])[0]
    req = (c.get("resources") or {}).get("requests") or {}
    nodes = await ctx.k("describe nodes", "to check node capacity can take the extra pods")
    alloc = sum(quantity(v) or 0 for v in re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", nodes))
    need = (quantity(str(req.get("cpu", "0"))) or 0) * want
    r.observation.append(
        f"Each pod requests cpu {req.get('cpu', 'n/a')} and memory {req.get('memory', 'n/a')}; {want} pods need approx {need:.1f} cpu, nodes allocatable total approx {alloc:.1f} cpu."
    )
    if re.search(r"\d+x", ctx.low):
        r.observation.append(
            f"For 2x load I have calculated {current} x 2 = {want} replicas (load scales per pod as request is same)."
        )
    if prod_note(ctx, seen, r):
        await ctx.k(
            f"scale deployment {name} -n {ns} --replicas={want} --dry-run=server",
            "production namespace, validating the change with server dry-run first",
            REQUEST,
        )
    await write(
        ctx,
        f"scale deployment {name} -n {ns} --replicas={want}",
        "operator asked this replica count and capacity is available",
        REQUEST,
        f"replicas={current}",
        f"replicas={want}",
    )
    r.actions.append(f"Deployment {name} is scaled from {current} to {want} replicas.")
    await verify(ctx, r, name, REQUEST)


async def image_update(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    ns = ctx.ns
    name = next((n for n in seen.subject if deployment(seen, n)), "")
    tag = (re.search(r"\b(v\d[\w.-]*)", ctx.prompt) or [None, ""])[1].rstrip(".")
    dep = deployment(seen, name)
    notes = {**(meta(dep).get("annotations") or {}), **(meta(dep).get("labels") or {})}
    managed = [k for k in notes if "argocd" in k or "flux" in k]
    if ctx.has("gitops"):
        out = await ctx.run(
            "gitops",
            f"to check whether {name} is managed by a GitOps application",
            REQUEST,
            command=f"app get {name}",
        )
        if out.strip() and not out.lower().startswith(("error", "no ", "not found")):
            managed.append(f"gitops app: {out.splitlines()[0].strip()}")
    image = ",".join(str(c.get("image")) for c in containers(dep))
    r.observation.append(
        f"Deployment {name} runs image {image}; GitOps markers: {', '.join(managed) or 'none'}."
    )
    r.rca.append("Not applicable, it is a change request.")
    if managed:
        r.risk.append(
            f"{name} is managed by GitOps (Argo CD). If I change image directly with kubectl, live state will drift from git; controller will report OutOfSync and revert it on next sync."
        )
        r.ask = f"Kindly do the needful through GitOps path: update image tag to {tag} in the git repo manifest of {name} and let Argo CD sync. I have not patched the deployment."
        return r
    cname = str((containers(dep) or [{}])[0].get("name", name))
    new = re.sub(r":[^:]+$", f":{tag}", image.split(",")[0])
    await write(
        ctx,
        f"set image deployment/{name} {cname}={new} -n {ns}",
        "operator asked this image tag; not GitOps managed",
        REQUEST,
        image,
        new,
    )
    r.actions.append(f"Image of {name} is changed from {image} to {new}.")
    await verify(ctx, r, name, REQUEST)
    return r
