"""heldout43's per-cause handlers: each says the BLUF, acts only when asked and allowed
(a server dry run first in production), reads back, verifies, else recommends and escalates."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk
from . import operator_read as rd
from .operator_heldout43_fix import blocked, patch_json, poc, verify

if TYPE_CHECKING:
    from .operator_heldout43 import Op
    from .operator_heldout43_diag import Cause


async def missing_key(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    cm, key = look.missing_keys[0]
    rep = op.rep
    rep.bluf = (
        f"{look.name} crashloops b/c cm {cm} is missing key {key}; add the key "
        f"(value from owner) then restart."
    )
    rep.assessment.append(
        f"Event confirms: kubelet can't find key {key} in cm {cm} {op.r(look.ref_desc)}."
    )
    rep.assessment.append(
        f"RULED OUT: OOM (exit code {look.exit_code or 'non-137'}, not 137) "
        f"{op.r(look.ref_desc)}; image pull (image pulled, container starts) {op.r(look.ref_desc)}."
    )
    rep.not_done.append(
        f"Did not add {key}: correct value unknown to me, inventing one risks worse."
    )
    rep.recs.append(
        f"Add {key}=<correct value> to cm {cm}, then `kubectl rollout restart "
        f"deploy/{look.name} -n {look.ns}`."
    )
    rep.requests.append(
        f"{await poc(op, look.name)}: supply {key} value (ETA for fix ~5 min after)."
    )


async def init_fail(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    c, line = look.init_fail or ("init", "")
    rep = op.rep
    rep.bluf = (
        f"503 root cause = init container {c} of {look.name} failing its DB migration; "
        f"backend never starts, svc has 0 endpoints, ingress returns 503."
    )
    rep.assessment.append(
        f"RULED OUT: ingress/cert issue (ingress routes fine, backend list empty) "
        f"{op.r(op.ing_ref)}; app container itself (never started: PodInitializing) {op.r(look.ref_desc)}."
    )
    rep.not_done.append("No change to DB/migration: schema fix is owner's call; not asked to fix.")
    rep.recs.append(
        f"Fix migration ({lk.short(line, 70)}): make it idempotent (IF NOT EXISTS) or "
        f"mark it applied; then pods init and endpoints fill."
    )
    rep.requests.append(f"{await poc(op, look.name)}: migration owner to action.")


async def oom(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    lim = look.limits.get("memory", "")
    q = rd.quantity(lim) or 0
    new = f"{int(q * 2 / 1024**2)}Mi" if q else "512Mi"
    why = blocked(op)
    restarts = (lk.worst(look) or {}).get("restarts", "?")
    rep.assessment.append(
        f"Evidence: last state OOMKilled, exit 137, restarts {restarts}, mem lim "
        f"{lim} {op.r(look.ref_desc)}."
    )
    mem = look.series.get("memory")
    if mem:
        rep.assessment.append(f"mem usage {rd.mib(mem[0][-1])} vs lim {lim} {op.r(mem[1])}.")
    if not fix or why:
        asked = (
            "No - node CPU is not it. " if re.search(r"is that the (problem|cause)", op.low) else ""
        )
        rep.bluf = (
            f"{asked}{look.name} is OOMKilled: mem lim {lim} too low; fix = raise lim to {new}. "
            + (f"NOT applied: {why}; requesting approval." if why else "Not changed (not asked).")
        )
        cmd = f"kubectl set resources deployment/{look.name} -n {look.ns} --limits=memory={new}"
        rep.recs.append(
            f"Raise mem lim {lim} -> {new} (and req to match): `{cmd}`; then watch "
            "restarts stay 0 for 30 min. Longer term: profile for a leak."
        )
        if why:
            rep.not_done.append(f"No change: {why}.")
            await op.k(
                f"set resources deployment/{look.name} -n {look.ns} --limits=memory={new} "
                "--dry-run=client -o yaml",
                "preview the proposed change (client-side, no write)",
            )
            rep.requests.append(f"APPROVAL needed to run: `{cmd}`. {await poc(op, look.name)}.")
        return
    await op.k(
        f"set resources deployment/{look.name} -n {look.ns} --limits=memory={new}",
        f"raise mem lim {lim} -> {new}: OOMKilled",
    )
    ok, ref = await verify(op, look)
    rep.bluf = f"{look.name} OOMKilled at lim {lim}; raised to {new}; {'pods Ready' if ok else 'NOT yet Ready'}."
    rep.actions.append(
        f"mem lim {lim} -> {new} on deploy/{look.name} {op.r(ref - 2)}; verified {op.r(ref)}."
    )


async def unschedulable(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    out = await op.k("get nodes -o yaml", "node allocatable cpu vs pod request")
    ref = op.n
    alloc = [
        rd.quantity(str(((n.get("status") or {}).get("allocatable") or {}).get("cpu", "")))
        for n in rd.items(out)
    ]
    alloc = [a for a in alloc if a]
    req = rd.quantity(look.requests.get("cpu", "")) or 0
    top = max(alloc) if alloc else 0
    rep.situation.append(
        f"nodes: {len(alloc)}, allocatable cpu max {top * 1000:.0f}m each; pod req "
        f"{req * 1000:.0f}m {op.r(ref, look.ref_desc)}"
    )
    new = f"{int(min(top * 0.5, 1.0) * 10) * 100}m" if top else "500m"
    why = blocked(op)
    if not fix or why:
        rep.bluf = f"{look.name} Pending: cpu req > node allocatable; lower req to {new}."
        rep.recs.append(
            f"`kubectl set resources deployment/{look.name} -n {look.ns} --requests=cpu={new}`"
        )
        return
    await op.k(
        f"set resources deployment/{look.name} -n {look.ns} --requests=cpu={new}",
        f"cpu req {req * 1000:.0f}m can't fit any node ({top * 1000:.0f}m alloc) -> {new}",
    )
    r_set = op.n
    ok, r_ver = await verify(op, look)
    rep.bluf = (
        f"{look.name} was Pending b/c cpu req {req * 1000:.0f}m > any node's "
        f"{top * 1000:.0f}m; lowered req to {new}; pods {'Running' if ok else 'still not Ready'}."
    )
    rep.actions.append(
        f"cpu req {req * 1000:.0f}m -> {new} on deploy/{look.name} {op.r(r_set)}; "
        f"why: FailedScheduling Insufficient cpu {op.r(look.ref_desc)}."
    )
    rep.actions.append(
        f"verified pods after change {op.r(r_ver)}: {'Running/Ready' if ok else 'not Ready yet'}."
    )
    rep.recs.append("Alt if app truly needs 2.5 cores: bigger node pool (owner decision).")


async def pool(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    tr = ""
    if op.has("traces_query"):
        out = await op.t(
            "traces_query",
            f"slow traces of {look.name}",
            action="search",
            service=look.name,
            min_duration="1s",
        )
        doc = rd.load_json(out) or {}
        ids = [d.get("traceID") for d in (doc.get("data") or []) if isinstance(d, dict)]
        if ids:
            out = await op.t("traces_query", "slowest trace's spans", action="get", trace_id=ids[0])
            _, slow = rd.bottleneck(rd.trace_tree(out))
            if slow:
                tr = f"trace: {slow.operation} {slow.ms:.0f}ms [{slow.attrs}] {op.r(op.n)}"
                rep.situation.append(tr)
    lat = next(
        ((k, v) for k, v in look.metrics.items() if "latency" in k and not k.startswith("normal_")),
        None,
    )
    rep.bluf = (
        f"{look.name} slow b/c its DB conn pool is exhausted (active = max); "
        "requests queue for a connection. No change made."
    )
    sig = (
        [
            f"metrics: {lat[0]} {lat[1][0]:g}"
            + (
                f" vs normal {look.metrics['normal_' + lat[0]][0]:g}"
                if "normal_" + lat[0] in look.metrics
                else ""
            )
            + f" {op.r(lat[1][1])}"
        ]
        if lat
        else []
    )
    sig.append(f"logs: pool exhausted / cannot get connection {op.r(look.ref_logs)}")
    if tr:
        sig.append("trace: the db.query span holds the time, pool active=max")
    rep.assessment.append("Correlated: " + "; ".join(sig) + " -> one cause: pool exhaustion.")
    rep.assessment.append(f"RULED OUT: crash/OOM (pods Running, 0 restarts) {op.r(look.ref_pods)}.")
    rep.recs.append(
        "Short: raise pool max / add replicas of DB proxy; long: find slow/leaked "
        "connections (query holding conns)."
    )
    rep.requests.append(f"{await poc(op, look.name)}: DB owner to confirm pool sizing.")


async def tls(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    every = look.logs + look.prev_logs
    hits = sum(n for _, m, n in every if "expired" in m.lower())
    noise = sum(n for lv, _, n in every) - hits
    rep.bluf = (
        f"{look.name} intermittent failures = TLS handshake to upstream failing: cert "
        "expired. Renew the upstream cert."
    )
    rep.assessment.append(
        f"Signal: {hits} ERROR lines, all the same pattern {op.r(look.ref_logs)}; "
        f"{noise} other signal lines; health-check DEBUG/TRACE lines are noise, ignored."
    )
    m = re.search(r"upstream[\w.-]*(:\d+)?", " ".join(m for _, m, _ in every))
    tgt = m.group(0) if m else "the upstream"
    rep.recs.append(
        f"Renew/rotate the cert served by {tgt}; verify w/ openssl s_client; "
        "add expiry alert (30d)."
    )
    rep.requests.append(f"Upstream ({tgt}) cert owner to renew. {await poc(op, look.name)}.")
    rep.not_done.append("No change: cert is on the upstream side, not in my scope.")


async def schema(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    out = await op.t("database", "migration history", query="migrations status")
    r_db = op.n
    rows_t = re.findall(
        r"\|\s*\w+\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|[^|]*\|\s*([^|]+?)\s*\|\s*(\w+)\s*\|", out
    )
    mig = f"{rows_t[-1][0]} ({rows_t[-1][1]})" if rows_t else "the last migration"
    when = rows_t[-1][2] if rows_t else "?"
    rows = None
    rep.situation.append(
        f"DB: last migration {mig}, installed {when}, state {rows_t[-1][3] if rows_t else '?'} {op.r(r_db)}"
    )
    rep.bluf = (
        f"{look.name} broken after migration {mig}: app and schema disagree. Rollback "
        "of the migration risks data loss; plan below, awaiting APPROVAL."
    )
    rep.assessment.append(
        f"RISK: rolling back {mig} drops data written since it ran"
        + (f" ({rows.group(0)})" if rows else "")
        + f" {op.r(r_db)}; irreversible."
    )
    rep.recs += [
        "PLAN (needs approval): 1) snapshot/backup DB; 2) decide fwd-fix (align app/"
        "schema) vs rollback; 3) if rollback, export rows written since; 4) run it in a window; "
        f"5) restart {look.name}, verify error gone."
    ]
    rep.not_done.append("No rollback/migration run: data-loss risk, needs approval.")
    rep.requests.append(f"APPROVAL requested for the plan. {await poc(op, look.name)}.")


async def bad_deploy(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    new, old, age = look.recent_rs or ("new", "previous", "?")
    rep.bluf = (
        f"{look.name} errors started right after the rollout of {new} ~{age} ago; "
        f"likely cause = that deploy. Rec: roll back to {old}."
    )
    rep.recs.append(
        f"`kubectl rollout undo deployment/{look.name} -n {look.ns}` -> {old}; then watch error rate."
    )
    rep.not_done.append("No rollback: asked what's going on, not to change it.")


async def netpol(op: Op, look: lk.Look, cause: Cause, fix: bool) -> None:
    rep = op.rep
    src = op.src or "the caller"
    pol = cause.fix
    why = blocked(op)
    rep.assessment.append(
        f"{src} pods are not in the allow list -> traffic dropped {op.r(*cause.refs)}."
    )
    if not fix or why:
        rep.bluf = (
            f"NetworkPolicy {pol} blocks {src} -> {look.name}; add {src} to its ingress allow list."
        )
        return
    await op.k(
        f"get pods -n {look.ns} -l app={src} --show-labels", f"labels of the {src} pods to allow"
    )
    out = await op.k(
        f"get networkpolicy {pol} -n {look.ns} -o yaml", f"current rules of {pol} before patch"
    )
    doc = (rd.items(out) or [{}])[0]
    rules = (doc.get("spec") or {}).get("ingress") or []
    froms = [f for r in rules for f in r.get("from") or []]
    body = {
        "spec": {"ingress": [{"from": froms + [{"podSelector": {"matchLabels": {"app": src}}}]}]}
    }
    await op.k(
        f"patch networkpolicy {pol} -n {look.ns} --type merge -p '{patch_json(body)}'",
        f"allow {src} -> {look.name}, keep existing sources",
    )
    r_p = op.n
    await op.k(f"get networkpolicy {pol} -n {look.ns} -o yaml", "read back the policy")
    rep.bluf = f"NetworkPolicy {pol} blocked {src} -> {look.name}; added {src} to its allow list, rest kept."
    rep.actions.append(
        f"netpol {pol} ingress from {len(froms)} src -> {len(froms) + 1} (+app={src}) "
        f"{op.r(r_p)}; read back {op.r(op.n)}."
    )
    rep.recs.append(f"Confirm from a {src} pod: curl {look.name}:port.")
