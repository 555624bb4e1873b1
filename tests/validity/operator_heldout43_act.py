"""heldout43's change requests: named settings, scales, restarts; each read first, made
narrowly (only what differs), read back and verified, with its before -> after."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk
from . import operator_heldout43_plan as pl
from . import operator_read as rd
from .operator_heldout43_fix import blocked, patch_json, poc, verify

if TYPE_CHECKING:
    from .operator_heldout43 import Op


async def env_class(op: Op) -> tuple[str, int]:
    """The namespace's environment label (production, staging, ...)."""
    out = await op.k(f"get namespace {op.ns} --show-labels", f"env/owner labels of ns {op.ns}")
    m = re.search(r"\b(?:env|environment|tier|stage)=(\w+)", out)
    zones = " ".join(op.scope.get("zones") or [])
    env = (
        m.group(1)
        if m
        else ("production" if "prod" in zones else "staging" if "stag" in zones else "")
    )
    return env, op.n


async def _cm_targets(op: Op) -> list[str]:
    names, _ = await lk.names_of(op, "configmaps", op.ns)
    return pl.named(op.prompt, names)


async def config_change(op: Op) -> None:
    rep = op.rep
    wanted = pl.settings(op.prompt)
    enable = re.findall(r"\b((?i:enable|disable))\s+([A-Z][A-Z0-9_]{2,})\b", op.prompt)
    wanted += [(k, "true" if verb.lower() == "enable" else "false") for verb, k in enable]
    names, _ = await lk.names_of(op, "configmaps", op.ns)
    cms = pl.named(op.prompt, names)
    if not cms:
        for name in names:
            out = await op.k(
                f"get configmap {name} -n {op.ns} -o yaml", f"which cm holds {wanted[0][0]}"
            )
            if any(f"{k}:" in out for k, _ in wanted):
                cms = [name]
                break
    if not cms:
        rep.bluf = f"No cm in ns {op.ns} holds {', '.join(k for k, _ in wanted)}; nothing changed."
        return
    cm = cms[0]
    out = await op.k(f"get configmap {cm} -n {op.ns} -o yaml", f"current values in {cm}")
    r_before = op.n
    data = (rd.items(out) or [{}])[0].get("data") or {}
    diff = {k: v for k, v in wanted if str(data.get(k)) != v}
    same = [k for k, v in wanted if str(data.get(k)) == v]
    why = blocked(op) or (await _shared(op, cm) if diff else "")
    if diff and not why:
        await op.k(
            f"patch configmap {cm} -n {op.ns} --type merge -p '{patch_json({'data': diff})}'",
            f"set {', '.join(f'{k}={v}' for k, v in diff.items())} (only keys that differ)",
        )
        r_p = op.n
        out = await op.k(f"get configmap {cm} -n {op.ns} -o yaml", f"read back {cm}")
        after = (rd.items(out) or [{}])[0].get("data") or {}
        for k in diff:
            rep.actions.append(
                f"cm {cm}: {k} {data.get(k, '<unset>')} -> {after.get(k)} {op.r(r_p)}; read back {op.r(op.n)}."
            )
        kept = [k for k in data if k not in diff]
        rep.assessment.append(
            f"Untouched keys kept as-is: {', '.join(f'{k}={data[k]}' for k in kept) or 'none'} {op.r(op.n)}."
        )
        if same:
            rep.assessment.append(
                f"Already set, not rewritten: {', '.join(same)} {op.r(r_before)}."
            )
        rep.assessment.append("Idempotent: merge patch of only the differing keys; re-run = no-op.")
    elif why:
        rep.not_done.append(f"cm {cm} not changed: {why}.")
    else:
        rep.assessment.append(f"All values already match {op.r(r_before)}; no write needed.")
    rep.bluf = f"cm {cm} now {', '.join(f'{k}={v}' for k, v in wanted)}" + (
        "; no other key touched." if diff else " (already so; no-op)."
    )
    if diff and why:
        rep.bluf = f"cm {cm} NOT changed ({why}); holding for confirmation."
        return
    old = {k: str(data.get(k, "")) for k in diff}
    await _follow_on(op, cm, bool(diff) and not why, old)


async def _follow_on(op: Op, cm: str, changed: bool, old: dict[str, str] | None = None) -> None:
    """The request's other parts: a scale named in the same sentence, or the consumer to restart."""
    rep = op.rep
    if re.search(r"\bscale\b.*\breplicas?\b", op.low):
        await scale(op)
        return
    if not re.search(r"pick(s)? up|take effect|restart|roll", op.low):
        return
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    users = pl.named(op.prompt, deps)
    if not users or not changed:
        return
    look = lk.Look(users[0], op.ns)
    await op.k(
        f"rollout restart deployment/{look.name} -n {op.ns}",
        f"{look.name} reads cm {cm} at start: restart to pick it up",
    )
    r_rs = op.n
    ok, r_v = await verify(op, look)
    rep.actions.append(f"rollout restart deploy/{look.name} after the cm change {op.r(r_rs)}.")
    rep.actions.append(
        f"verified {look.name} pods {op.r(r_v)}: {'all Running/Ready (new pods)' if ok else 'NOT all Ready'}."
    )
    if not ok:
        await _roll_back(op, look, cm, old or {})
        return
    rep.bluf = (
        f"cm {cm} updated ({rep.bluf.split(' now ', 1)[-1].split(';')[0]}), then {look.name} rolling-restarted to pick it up; "
        f"{'healthy' if ok else 'NOT healthy - see ACTIONS'}. Order: cm -> restart -> verify."
    )


async def scale(op: Op) -> None:
    rep = op.rep
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = pl.named(op.prompt, deps)
    if not hit:
        rep.bluf = "No deployment named in the request; nothing scaled."
        return
    look = lk.Look(hit[0], op.ns)
    await lk.deployment(op, look)
    cur = look.replicas or 0
    env, r_env = await env_class(op)
    m = re.search(r"replicas?\s+(?:to|=)\s*(\d+)|to\s+(\d+)\s+replicas?", op.low)
    mult = re.search(r"\b(\d+(?:\.\d+)?)\s*x\b", op.low)
    if m:
        target = int(m.group(1) or m.group(2))
        basis = f"asked for {target}"
    elif mult:
        target, basis = await _capacity(op, look, cur, float(mult.group(1)))
    else:
        rep.bluf = f"{look.name}: no target count in the request; not scaled."
        return
    if cur and target > cur * 10:
        rep.bluf = f"{look.name}: {cur} -> {target} is >10x; not done, confirm intent."
        rep.requests.append("Requester: confirm the count.")
        return
    why = blocked(op)
    prod = env.lower().startswith("prod")
    rep.situation.append(
        f"ns {op.ns} env={env or 'unlabelled'} {op.r(r_env)}; deploy/{look.name} replicas {cur} {op.r(look.ref_deploy)}"
    )
    if why:
        rep.bluf = f"{look.name} {cur} -> {target} NOT done: {why}."
        rep.requests.append(f"APPROVAL for scale {cur} -> {target}. {await poc(op, look.name)}.")
        return
    if prod:
        rep.assessment.append(
            f"PRODUCTION ns (env={env}) {op.r(r_env)}: extra care - server dry run "
            "first, scale up only (no pod loss), verify each replica Ready."
        )
        await op.k(
            f"scale deployment/{look.name} -n {op.ns} --replicas={target} --dry-run=server",
            "prod: dry run the scale first",
        )
    await op.k(f"scale deployment/{look.name} -n {op.ns} --replicas={target}", f"{basis}")
    r_s = op.n
    ok, r_v = await verify(op, look)
    rep.actions.append(
        f"deploy/{look.name} replicas {cur} -> {target} {op.r(r_s)}; verified {op.r(r_v)}: "
        f"{'all Ready' if ok else 'not all Ready yet'}."
    )
    tag = f" in PRODUCTION (ns {op.ns})" if prod else ""
    line = f"{look.name} scaled {cur} -> {target}{tag}; {'all Ready' if ok else 'NOT all Ready'}."
    rep.bluf = f"{rep.bluf} + {line}" if rep.bluf else line


async def _capacity(op: Op, look: lk.Look, cur: int, mult: float) -> tuple[int, str]:
    """The replica count for mult x the load, checked against node allocatable."""
    rep = op.rep
    out = await op.k("get nodes -o yaml", "node allocatable: can the cluster take more replicas?")
    r_n = op.n
    cpu = [
        rd.quantity(str(((n.get("status") or {}).get("allocatable") or {}).get("cpu", ""))) or 0
        for n in rd.items(out)
    ]
    m = re.search(r"Requests:\s*\n\s*cpu:\s*(\S+)", look.deploy_text)
    req = rd.quantity(m.group(1)) if m else None
    target = math.ceil(cur * mult)
    room = sum(cpu)
    need = (req or 0) * target
    rep.assessment.append(
        f"Calc: {cur} replicas x {mult:g} load = {target} {op.r(look.ref_deploy)}; "
        f"cpu req {m.group(1) if m else '?'} x {target} = {need:.1f} cores vs {room:.1f} "
        f"allocatable on {len(cpu)} nodes {op.r(r_n)} -> " + ("fits" if room >= need else "tight")
    )
    return target, f"{mult:g}x load: {cur} -> {target}, fits node capacity"


async def restart_only(op: Op) -> None:
    rep = op.rep
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = pl.named(op.prompt, deps)
    if not hit:
        rep.bluf = "No deployment named; nothing restarted."
        return
    look = lk.Look(hit[0], op.ns)
    await lk.deployment(op, look)
    why = blocked(op)
    if why:
        rep.bluf = f"{look.name} restart NOT done: {why}."
        return
    await op.k(f"rollout restart deployment/{look.name} -n {op.ns}", "operator asked for a restart")
    r_rs = op.n
    ok, r_v = await verify(op, look)
    rep.bluf = (
        f"{look.name} rolling-restarted as asked; {'all pods Ready' if ok else 'NOT all Ready'}."
    )
    rep.actions.append(f"rollout restart deploy/{look.name} {op.r(r_rs)}; verified {op.r(r_v)}.")
    rep.assessment.append(
        "Trail: every call is in REFS (kept by the cluster's audit log, not by me)."
    )


async def _roll_back(op: Op, look: lk.Look, cm: str, old: dict[str, str]) -> None:
    """The restart failed: undo it and the config change, so nothing is left half-applied."""
    rep = op.rep
    out = await op.k(f"get pods -n {look.ns} -l app={look.name}", f"why new {look.name} pods fail")
    bad = [r for r in rd.table(out) if r.get("status") != "Running"]
    reason = bad[0].get("status", "?") if bad else "not Ready"
    await op.k(
        f"rollout undo deployment/{look.name} -n {look.ns}",
        f"restart failed ({reason}): back to the last good RS",
    )
    r_u = op.n
    if old:
        await op.k(
            f"patch configmap {cm} -n {look.ns} --type merge -p '{patch_json({'data': old})}'",
            f"restore {cm} so config and pods agree again",
        )
        r_c = op.n
        rep.actions.append(
            f"ROLLED BACK cm {cm}: {', '.join(f'{k} -> {v}' for k, v in old.items())} {op.r(r_c)}."
        )
    ok, r_v = await verify(op, look)
    rep.actions.append(
        f"ROLLED BACK deploy/{look.name} (rollout undo) {op.r(r_u)}; verified {op.r(r_v)}: "
        f"{'old pods Running/Ready' if ok else 'still not Ready'}."
    )
    rep.bluf = (
        f"Change ABORTED + rolled back: restart of {look.name} failed (new pods {reason}); cm {cm} "
        f"restored, deploy undone; state consistent = as before the request."
    )
    rep.not_done.append(
        f"Feature NOT enabled: new {look.name} pods fail ({reason}) {op.r(r_u - 2)}."
    )
    rep.requests.append(
        f"{await poc(op, look.name)}: fix the {reason} on the new pods, then re-run."
    )


async def _shared(op: Op, cm: str) -> str:
    """Why a config map change needs its consumers' owners first: several teams read it."""
    out = await op.k(f"get deployments -n {op.ns} -o yaml", f"who consumes cm {cm} (blast radius)")
    ref = op.n
    users: dict[str, str] = {}
    for dep in rd.items(out):
        if cm in repr(dep.get("spec") or {}):
            meta = dep.get("metadata") or {}
            tags = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
            team = next((str(v) for k, v in tags.items() if "team" in k or "owner" in k), "?")
            users[str(meta.get("name"))] = team
    teams = sorted(set(users.values()))
    op.rep.situation.append(
        f"cm {cm} consumed by {len(users)} deploy(s): "
        f"{', '.join(f'{d} ({t})' for d, t in users.items()) or 'none'} {op.r(ref)}"
    )
    if len(teams) > 1:
        op.rep.requests.append(
            f"CONFIRM from owners {', '.join(teams)} before changing shared cm {cm}: "
            f"{len(users)} workloads read it."
        )
        return f"cm {cm} is shared by {len(users)} workloads of teams {', '.join(teams)}"
    return ""
