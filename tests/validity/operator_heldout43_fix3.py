"""heldout43's other handlers: a transient crash (replace the pod), a memory trend (warn), a
connection cap set too low (raise it, restart, verify), a degraded workload (restart)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from . import operator_heldout43_look as lk
from . import operator_read as rd
from .operator_heldout43_fix import blocked, patch_json, poc, verify

if TYPE_CHECKING:
    from .operator_heldout43 import Op
    from .operator_heldout43_diag import Cause


def _clean(pod: dict[str, Any]) -> dict[str, Any]:
    meta = pod.get("metadata") or {}
    keep = {k: meta[k] for k in ("name", "namespace", "labels", "annotations") if k in meta}
    spec = dict(pod.get("spec") or {})
    spec.pop("nodeName", None)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec}


async def transient(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    why = blocked(op)
    restarts = (lk.worst(look) or {}).get("restarts", "?").split(" ")[0]
    rep.assessment.append(
        f"Confidence high: log says the error is transient; no config/OOM fault "
        f"(exit {look.exit_code or '?'}, not 137) {op.r(look.ref_desc)}; restarts {restarts}."
    )
    if not fix or why:
        rep.bluf = f"{look.name}: transient dependency error left it in back-off; restart it."
        rep.recs.append(f"Delete/restart pod {look.name}.")
        return
    pod = look.name if look.kind == "pod" else (lk.worst(look) or {}).get("name", look.name)
    out = await op.k(
        f"get pod {pod} -n {look.ns} -o yaml", f"owner + spec of {pod} before replacing it"
    )
    doc = (rd.items(out) or [{}])[0]
    owned = bool((doc.get("metadata") or {}).get("ownerReferences"))
    await op.k(f"delete pod {pod} -n {look.ns}", f"clear crash back-off of {pod} (transient error)")
    r_del = op.n
    if not owned:
        await op.k(
            f"apply -n {look.ns} -f -",
            f"recreate bare pod {pod} from its own spec",
            stdin=yaml.safe_dump(_clean(doc), sort_keys=False),
        )
    r_new = op.n
    out = await op.k(
        f"get pod {pod} -n {look.ns}" if not owned else f"get pods -n {look.ns}",
        f"verify {pod} came back",
    )
    row = (rd.table(out) or [{}])[0]
    rep.bluf = (
        f"{pod} crashlooped on a transient dependency error; restarted it (delete + "
        f"{'recreate' if not owned else 'controller replaces'}); now {row.get('status', '?')}. "
        "No escalation needed: staging, in scope, clear cause."
    )
    rep.actions.append(
        f"deleted pod {pod} {op.r(r_del)}"
        + ("" if owned else f", recreated it from its spec {op.r(r_new)}")
        + f"; restarts {restarts} -> 0; verified {row.get('status', '?')} {op.r(op.n)}."
    )
    rep.recs.append(
        "If it crashes again: check the dependency (Redis) itself before more restarts."
    )


async def trend(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    rep.bluf = f"{look.name} is up now but WORRY: {cause.text}."
    rep.assessment.insert(0, f"TREND: {cause.text} {op.r(*cause.refs)}.")
    rep.recs.append(
        "Urgency: act within the ETA. Owner to find the leak (heap profile); stopgap: "
        "raise mem lim or schedule a restart before it hits the lim."
    )
    rep.not_done.append("No change: status question; trend warning only.")
    rep.requests.append(f"{await poc(op, look.name)}: FYI + decide stopgap before ETA.")


async def conn_limit(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    cm, key, val = cause.fix.split("|")
    new = str(max(int(val) * 10, 100))
    why = blocked(op)
    if not fix or why:
        rep.bluf = f"{look.name} drops conns: {key}={val} in cm {cm} caps them; raise it."
        return
    await op.k(
        f"patch configmap {cm} -n {look.ns} --type merge -p '{patch_json({'data': {key: new}})}'",
        f"raise {key} {val} -> {new}: conns over cap are dropped",
    )
    r_p = op.n
    await op.k(f"get configmap {cm} -n {look.ns} -o yaml", f"read back {cm}")
    r_rb = op.n
    await op.k(
        f"rollout restart deployment/{look.name} -n {look.ns}",
        f"pods read {key} at start: restart to pick it up",
    )
    r_rs = op.n
    ok, r_v = await verify(op, look)
    rep.bluf = (
        f"{look.name} dropped conns at cap {key}={val} (cm {cm}); raised to {new}, "
        f"restarted, {'all pods Ready' if ok else 'pods NOT all Ready'}."
    )
    rep.actions += [
        f"cm {cm}: {key} {val} -> {new} {op.r(r_p)}; read back {op.r(r_rb)}.",
        f"rollout restart deploy/{look.name} {op.r(r_rs)}.",
        f"verified pods {op.r(r_v)}: {'Ready' if ok else 'not Ready'}.",
    ]


async def conn_cap(op: Op, look: lk.Look) -> Cause | None:
    """A config map beside the workload holding a connection cap set low."""
    from .operator_heldout43_diag import Cause

    out = await op.k(f"get configmaps -n {look.ns}", "config maps beside the workload")
    stem = look.name.split("-")[0]
    for row in rd.table(out):
        name = row.get("name", "")
        if not name.startswith(stem):
            continue
        out = await op.k(f"get configmap {name} -n {look.ns} -o yaml", f"settings of {name}")
        data = (rd.items(out) or [{}])[0].get("data") or {}
        for key, val in data.items():
            if re.search(r"CONN", key, re.I) and str(val).isdigit() and int(val) < 50:
                return Cause(
                    "connlimit",
                    f"{key}={val} in cm {name} caps conns far below 3 pods' "
                    "load; excess conns are dropped",
                    [op.n],
                    f"{name}|{key}|{val}",
                )
    return None


async def degraded(op: Op, look: lk.Look) -> None:
    """Unavailable pods with no fault in config, logs or limits: a rolling restart, verified."""
    rep = op.rep
    why = blocked(op)
    m = re.search(r"Available\s+False\s+(\S+)", look.deploy_text)
    rep.assessment.append(
        f"deploy Available=False ({m.group(1) if m else '?'}) {op.r(look.ref_deploy)}; "
        f"no config/OOM/log fault found {op.r(look.ref_desc, look.ref_logs)}."
    )
    if why:
        rep.bluf = f"{look.name} degraded; restart is the fix but {why}."
        rep.requests.append(f"APPROVAL for rollout restart. {await poc(op, look.name)}.")
        return
    await op.k(
        f"rollout restart deployment/{look.name} -n {look.ns}", "replace the unhealthy pod(s)"
    )
    r_rs = op.n
    ok, r_v = await verify(op, look)
    out = await op.k(f"get deployment {look.name} -n {look.ns}", "verify Available after restart")
    rep.bluf = (
        f"{look.name} was degraded (pod unhealthy, Available=False); rolling restart done; "
        f"{'recovered, all replicas Ready' if ok else 'NOT recovered yet'}."
    )
    rep.actions += [
        f"rollout restart deploy/{look.name} {op.r(r_rs)}.",
        f"verified pods {op.r(r_v)} + deploy {op.r(op.n)}: {lk.short(out.splitlines()[-1] if out else '', 60)}.",
    ]
    rep.recs.append("If it degrades again: capture the failing pod's log before restart.")


async def health(op: Op, look: lk.Look) -> None:
    """A health check that found no fault: the state, any alert that fired, memory vs limit."""
    rep = op.rep
    rows = look.pods
    ready = sum(
        1
        for r in rows
        if r.get("ready", "0/1").split("/")[0] == r.get("ready", "0/1").split("/")[-1]
    )
    mem = look.series.get("memory")
    lim = rd.quantity(look.limits.get("memory", "")) if look.limits else None
    alert = next((s for s in rep.situation if s.startswith("ALERT")), "")
    line = f"{look.name}: {ready}/{len(rows)} pods Ready, 0 crash signals {op.r(look.ref_pods, look.ref_desc)}"
    rep.assessment.append(line)
    if mem:
        vals, ref = mem
        per_pod = vals[-1] / max(len(rows), 1)
        pct = f", ~{per_pod / lim:.0%} of per-pod lim {rd.mib(lim)}" if lim else ""
        rep.assessment.append(
            f"mem (alert follow-up): total {rd.mib(vals[-1])} now, trend {rd.trend(vals)} over 6h"
            f"{pct} {op.r(ref, look.ref_desc)}."
        )
    if alert:
        rep.bluf = (
            f"{look.name} up ({ready}/{len(rows)} Ready) but high-memory alert fired mid-check; "
            "memory checked, no OOM yet; watch it."
        )
        rep.recs.append(
            "Owner: check memory growth vs lim before it OOMs; raise lim if usage is legit."
        )
        rep.requests.append(f"{await poc(op, look.name)}: FYI on the alert.")
    else:
        rep.bluf = f"{look.name} healthy: {ready}/{len(rows)} Ready, no alerts, no error signals."
    rep.not_done.append("No change: health check only.")
