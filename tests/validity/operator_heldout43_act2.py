"""heldout43's procedures: a named runbook step by step (adapted to what is there), a canary
gate, an HA plan executed, a paused rolling update continued around a changed node."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk
from . import operator_heldout43_plan as pl
from . import operator_read as rd
from .operator_heldout43_fix import blocked, patch_json, verify

if TYPE_CHECKING:
    from .operator_heldout43 import Op


async def _runbook_steps(op: Op) -> tuple[list[str], int]:
    m = re.search(r"(?:the\s+)?([\w-]+)\s+runbook", op.low)
    want = m.group(1) if m else ""
    names, _ = await lk.names_of(op, "configmaps", op.ns)
    hit = [n for n in names if want and want in n] or [n for n in names if "runbook" in n]
    if not hit:
        return [], 0
    out = await op.k(f"get configmap {hit[0]} -n {op.ns} -o yaml", f"runbook {want} text")
    data = (rd.items(out) or [{}])[0].get("data") or {}
    steps = [
        re.sub(r"^\d+[.)]\s*", "", s).strip()
        for s in str(data.get("steps", "")).splitlines()
        if s.strip()
    ]
    return steps, op.n


async def runbook(op: Op) -> None:
    rep = op.rep
    steps, r_rb = await _runbook_steps(op)
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = pl.named(op.prompt, deps)
    if not hit or not steps:
        rep.bluf = "Runbook or workload not found; nothing done."
        return
    look = lk.Look(hit[0], op.ns)
    await lk.deployment(op, look)
    await lk.pods_of(op, look)
    rep.situation.append(f"runbook: {len(steps)} steps {op.r(r_rb)}")
    await lk.logs(op, look)
    sig = look.logs[0] if look.logs else None
    s1 = f"'{sig[0]}: {lk.short(sig[1], 70)}' x{sig[2]}" if sig else "no error pattern"
    rep.actions.append(f"Step 1 ({steps[0]}): {s1} {op.r(look.ref_logs)}.")
    await lk.rollout(op, look)
    names = await lk.metric_names(op)
    await lk.metrics(op, look, names)
    err = look.metrics.get("error_rate")
    base = look.metrics.get("normal_error_rate")
    if look.recent_rs:
        new, old, age = look.recent_rs
        rep.actions.append(
            f"Step 2 ({steps[1] if len(steps) > 1 else 'recent deploy?'}): YES, {new} rolled out "
            f"~{age} ago (prev {old}) {op.r(look.ref_rs)}."
        )
        why = blocked(op)
        if why:
            rep.not_done.append(f"Step 3 rollback not run: {why}.")
            rep.bluf = f"Runbook: recent deploy {new} is the likely cause; rollback needs approval."
            return
        await op.k(
            f"rollout undo deployment/{look.name} -n {op.ns}",
            f"runbook step 3: recent deploy {new} -> back to {old}",
        )
        r_u = op.n
        await lk.deployment(op, look)
        rep.actions.append(
            f"Step 3 ({steps[2] if len(steps) > 2 else 'rollback'}): rolled back image {new} -> "
            f"{look.image} {op.r(r_u)}; read back {op.r(look.ref_deploy)}."
        )
        ok, r_v = await verify(op, look)
        out = await op.t(
            "metrics_query",
            "runbook step 4: error rate after rollback",
            query=f'error_rate{{namespace="{op.ns}"}}',
        )
        after = next(
            (v[-1] for lab, v in rd.prom_series(out) if look.name in lab.values() and v), None
        )
        b = f"{lk.pct(base[0])}" if base else "?"
        state = f"{lk.pct(after)}" if after is not None else "n/a"
        back = after is not None and base is not None and after <= base[0] * 2
        rep.actions.append(
            f"Step 4 ({steps[3] if len(steps) > 3 else 'verify'}): pods {'Ready' if ok else 'not Ready'} "
            f"{op.r(r_v)}; error rate now {state} vs baseline {b} {op.r(op.n)}"
            + ("" if back else " - NOT yet back at baseline; re-check within the 5 min window")
            + "."
        )
        rep.bluf = (
            f"Ran {look.name} runbook: error spike tied to deploy {new} ~{age} ago; rolled back to "
            f"{look.image}; error rate {state} (baseline {b})."
        )
        if err:
            rep.situation.append(
                f"error_rate before = {lk.pct(err[0])} vs normal {b} {op.r(err[1])}"
            )
    else:
        rep.actions.append(
            f"Step 2: NO deploy in the last 30 min {op.r(look.ref_rs)} -> step 3 (rollback) skipped: "
            "does not apply."
        )
        rep.bluf = f"Runbook run: no recent deploy, so no rollback; error pattern {s1}; escalating."
        rep.requests.append(
            f"{look.name} owner: error pattern above w/o a deploy; needs code owner."
        )


async def canary(op: Op) -> None:
    rep = op.rep
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    can = [
        d for d in deps if "canary" in d and any(d.startswith(n) for n in pl.named(op.prompt, deps))
    ]
    can = can or [d for d in deps if "canary" in d]
    if not can:
        rep.bluf = "No canary deployment found; nothing changed."
        return
    look = lk.Look(can[0], op.ns)
    await lk.deployment(op, look)
    names = await lk.metric_names(op)
    await lk.metrics(op, look, names)
    m = re.search(r"error rate[^.%\d]*(?:under|below|<)\s*(\d+(?:\.\d+)?)\s*%", op.low)
    limit = float(m.group(1)) / 100 if m else 0.02
    err = look.metrics.get("error_rate")
    if not err:
        rep.bluf = (
            f"{look.name}: no error-rate data; gate can't be evaluated; holding, nothing changed."
        )
        return
    healthy = err[0] < limit
    rep.assessment.append(
        f"Gate: canary error rate {lk.pct(err[0])} vs limit < {lk.pct(limit)} {op.r(err[1])} "
        f"-> {'PASS (healthy)' if healthy else 'FAIL (unhealthy)'}."
    )
    if healthy:
        rep.bluf = (
            f"Canary healthy ({lk.pct(err[0])} < {lk.pct(limit)}); bump to 50% is the next step."
        )
        rep.recs.append("Bump canary traffic to 50% per the rollout plan.")
        return
    why = blocked(op)
    if why:
        rep.bluf = f"Canary FAILS gate; rollback needed but {why}."
        return
    await op.k(
        f"scale deployment/{look.name} -n {op.ns} --replicas=0",
        f"canary failed gate ({lk.pct(err[0])} >= {lk.pct(limit)}): roll back",
    )
    r_s = op.n
    out = await op.k(f"get deployment {look.name} -n {op.ns}", "verify canary at 0")
    stable = look.name.replace("-canary", "")
    out2 = await op.k(f"get deployment {stable} -n {op.ns}", "stable still serving")
    rep.bluf = (
        f"Canary UNHEALTHY: error rate {lk.pct(err[0])} vs < {lk.pct(limit)} gate; did NOT bump to 50%; "
        f"rolled canary back (scaled {look.replicas} -> 0); stable {stable} serves all traffic."
    )
    rep.actions.append(
        f"canary deploy/{look.name} replicas {look.replicas} -> 0 {op.r(r_s)}; verified {op.r(op.n - 1)}: "
        f"{lk.short(out.splitlines()[-1] if out else '', 60)}; stable {lk.short(out2.splitlines()[-1] if out2 else '', 60)} {op.r(op.n)}."
    )
    rep.not_done.append("50% bump: skipped, gate failed.")
    rep.recs.append(f"Canary image {look.image}: owner to check errors before the next attempt.")


async def high_availability(op: Op) -> None:
    from .operator_heldout43_act3 import ha

    await ha(op)


async def rolling(op: Op) -> None:
    from .operator_heldout43_act3 import rolling_update

    await rolling_update(op)


def _j(obj: object) -> str:
    return patch_json(obj)
