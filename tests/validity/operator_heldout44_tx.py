"""heldout44's treatment (session 36, written blind): narrow writes, each read back.

Each write goes into the chart's plan as done, with its reason, what prompted it and the
state before and after (read back, never assumed); a write the environment refuses is charted
as such. In production a server dry run goes first.
"""

from __future__ import annotations

import json
import math

from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx
from .operator_heldout44_chart import Chart, Exam, failed, first_line
from .operator_heldout44_exam import Facts


async def write_step(ex: Exam, chart: Chart, command: str, why: str, delta: str) -> bool:
    """One write: ``kubectl <command>``, charted with why, trigger and before -> after."""
    out = await ex.k(command)
    if failed(out) or not out.strip():
        chart.done.append(
            f"`kubectl {command}` was REFUSED ({first_line(out) or 'no answer'}); nothing changed"
        )
        return False
    chart.done.append(
        f"`kubectl {command}` ({chart.trigger}; why: {why}): {delta}; answer: {first_line(out)}"
    )
    return True


async def dry_run_first(ex: Exam, chart: Chart, ctx: Ctx, command: str) -> bool:
    """Production: the server dry run before the change (admission and quota checked)."""
    if not ctx.production:
        return True
    out = await ex.k(f"{command} --dry-run=server")
    ok = not failed(out)
    chart.done.append(
        f"`kubectl {command} --dry-run=server` (production: checked first): "
        + ("accepted" if ok else f"refused ({first_line(out)})")
    )
    return ok


async def replicas_now(ex: Exam, ns: str, name: str) -> tuple[int, int]:
    """(spec replicas, ready replicas) read back from the Deployment."""
    doc = (rd.items(await ex.k(f"get deployment {name} -n {ns} -o yaml")) or [{}])[0]
    return int(doc.get("spec", {}).get("replicas") or 0), int(
        doc.get("status", {}).get("readyReplicas") or 0
    )


async def scale(ex: Exam, chart: Chart, ctx: Ctx, name: str, target: int, why: str) -> bool:
    ns = ctx.ns
    before, _ = await replicas_now(ex, ns, name)
    ex.finding(
        "kubectl", {"command": f"get deployment {name} -n {ns} -o yaml"}, f"replicas {before}"
    )
    if before == target:
        chart.done.append(f"nothing to do: {name} already runs {target} replicas")
        return True
    cmd = f"scale deployment/{name} -n {ns} --replicas={target}"
    if not await dry_run_first(ex, chart, ctx, cmd):
        return False
    ok = await write_step(ex, chart, cmd, why, f"replicas {before} -> {target}")
    after, ready = await replicas_now(ex, ns, name)
    chart.done.append(
        f"read back `kubectl get deployment {name} -n {ns} -o yaml`: spec replicas {after}, {ready} ready"
    )
    return ok and after == target


async def restart(ex: Exam, chart: Chart, ctx: Ctx, name: str, why: str) -> bool:
    ns = ctx.ns
    cmd = f"rollout restart deployment/{name} -n {ns}"
    if not await dry_run_first(ex, chart, ctx, cmd):
        return False
    if not await write_step(ex, chart, cmd, why, "pods replaced one by one (rolling)"):
        return False
    return await verify_rollout(ex, chart, ns, name)


async def verify_rollout(ex: Exam, chart: Chart, ns: str, name: str) -> bool:
    status = await ex.k(f"rollout status deployment/{name} -n {ns} --timeout=120s")
    pods = await ex.k(f"get pods -n {ns} -l app={name}")
    rows = rd.table(pods)
    ready = [
        r for r in rows if r.get("ready", "").split("/")[0] == r.get("ready", "").split("/")[-1]
    ]
    good = "successfully rolled out" in status and len(ready) == len(rows) and rows
    chart.done.append(
        f"verified with `kubectl rollout status deployment/{name} -n {ns}` ({first_line(status)}) "
        f"and `kubectl get pods -n {ns} -l app={name}`: {len(ready)}/{len(rows)} pods ready"
        + ("" if good else " -- NOT healthy")
    )
    return bool(good)


async def set_keys(
    ex: Exam, chart: Chart, ctx: Ctx, cm: str, want: dict[str, str], why: str
) -> tuple[bool, dict[str, str]]:
    """Patch only the keys that differ (idempotent: a second run changes nothing)."""
    ns = ctx.ns
    text = await ex.k(f"get configmap {cm} -n {ns} -o yaml")
    data = {str(k): str(v) for k, v in ((rd.items(text) or [{}])[0].get("data") or {}).items()}
    ex.finding(
        "kubectl",
        {"command": f"get configmap {cm} -n {ns} -o yaml"},
        ", ".join(f"{k}={v}" for k, v in data.items()) or "no data",
    )
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    if not diff:
        chart.done.append(
            f"nothing to do: {cm} already has " + ", ".join(f"{k}={v}" for k, v in want.items())
        )
        return True, data
    patch = json.dumps({"data": diff}, separators=(",", ":"))
    cmd = f"patch configmap {cm} -n {ns} --type merge -p '{patch}'"
    if not await dry_run_first(ex, chart, ctx, cmd):
        return False, data
    delta = ", ".join(f"{k}: {data.get(k, '(absent)')} -> {v}" for k, v in diff.items())
    ok = await write_step(ex, chart, cmd, why, delta + "; other keys untouched")
    back = await ex.k(f"get configmap {cm} -n {ns} -o yaml")
    now = {str(k): str(v) for k, v in ((rd.items(back) or [{}])[0].get("data") or {}).items()}
    kept = all(now.get(k) == v for k, v in data.items() if k not in diff)
    chart.done.append(
        f"read back `kubectl get configmap {cm} -n {ns} -o yaml`: "
        + ", ".join(f"{k}={v}" for k, v in now.items())
        + ("; unmentioned keys unchanged" if kept else "; an unmentioned key CHANGED")
    )
    return ok and all(now.get(k) == v for k, v in want.items()), data


def capacity_target(f: Facts, current: int, factor: float, alloc_cpu: float, nodes: int) -> int:
    """Replicas for ``factor`` times the load: linear in replicas, capped by the CPU the nodes
    can allocate (70% of it, leaving room for everything else)."""
    want = math.ceil(current * factor)
    req = rd.quantity(
        str((f.container().get("resources", {}).get("requests") or {}).get("cpu", ""))
    )
    if req and alloc_cpu and nodes:
        cap = int(alloc_cpu * nodes * 0.7 // req)
        return max(current, min(want, cap))
    return want


async def rollback_config(
    ex: Exam, chart: Chart, ctx: Ctx, cm: str, old: dict[str, str], keys: list[str]
) -> None:
    """Put a config map's keys back when the restart that should pick them up failed."""
    back = {k: old[k] for k in keys if k in old}
    if not back:
        return
    patch = json.dumps({"data": back}, separators=(",", ":"))
    await write_step(
        ex,
        chart,
        f"patch configmap {cm} -n {ctx.ns} --type merge -p '{patch}'",
        "the restart failed, so the config change is rolled back to leave no half-applied state",
        ", ".join(f"{k} back to {v}" for k, v in back.items()),
    )


def ask_value(ask: Ask, key: str) -> str:
    return ask.sets.get(key, "")
