"""heldout36's incident play: follow the symptom to the workload, commit to the cause the
evidence shows, act narrowly when asked and allowed, else hand over with the numbers.
"""

from __future__ import annotations

import re

from . import operator_heldout36_diag as dg
from . import operator_read as rd
from .operator_heldout36_act import may_write, rollout_ok
from .operator_heldout36_calls import Session
from .operator_heldout36_look import (
    Workload,
    find_subject,
    ns_labels,
    production,
    read_workload,
    service_series,
)
from .operator_heldout36_record import Record

_FIX = re.compile(r"\b(fix|handle|resolve|restore|mitigate)\b", re.I)


async def via_ingress(s: Session, rec: Record) -> tuple[str, str] | None:
    """No workload named: follow ingress -> svc -> endpoints -> deploy."""
    ings = rd.items(
        await s.k(
            f"get ingress -n {s.ns} -o yaml", "the request names no deploy: start at the ingress"
        )
    )
    iref = s.ref()
    for ing in ings:
        rules = (ing.get("spec") or {}).get("rules") or []
        for r in rules:
            for p in (r.get("http") or {}).get("paths") or []:
                svc = (((p.get("backend") or {}).get("service")) or {}).get("name")
                if svc:
                    ep = await s.k(
                        f"get endpoints {svc} -n {s.ns}", f"does svc {svc} have ready endpoints"
                    )
                    empty = "<none>" in ep
                    rec.context.append(
                        f"Failure chain: ingress `{ing['metadata']['name']}` ({iref}) routes to svc `{svc}`, whose endpoints are "
                        + ("EMPTY" if empty else "present")
                        + f" ({s.ref()}); so the ingress has no backend to send to and answers 503."
                    )
                    if s.has("logs_query"):
                        proxy = rd.signal_patterns(
                            rd.log_lines(
                                await s.call(
                                    "logs_query",
                                    "proxy/mesh errors toward the backend",
                                    namespace=s.ns,
                                    filter="upstream",
                                    tail=50,
                                )
                            )
                        )
                        if proxy:
                            rec.context.append(
                                f'The mesh sidecar/proxy logs confirm the hop: "{proxy[0][1]}" ({s.ref()}).'
                            )
                    return s.ns, svc
    return None


async def recent_rollout(s: Session, w: Workload, rec: Record, series: dict) -> bool:
    rs = rd.table(
        await s.k(
            f"get rs -n {w.ns} -l {w.selector} -o wide",
            "ReplicaSets: when did the current version roll out",
        )
    )
    ref = s.ref()
    rs = sorted(
        [r for r in rs if r.get("name", "").startswith(w.name)],
        key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9,
    )
    if len(rs) < 2 or (rd.age_minutes(rs[0].get("age", "")) or 1e9) > 60:
        return False
    await s.k(f"rollout history deploy/{w.name} -n {w.ns}", "rollout history: what changed")
    href = s.ref()
    new, old = rs[0], rs[1]
    ev = [
        f"new RS {new.get('name')} ({new.get('images')}) is {new.get('age')} old, previous {old.get('name')} ({old.get('images')}) ({ref}, {href})"
    ]
    j = dg.series_jump(series, "error_rate")
    if j:
        ev.append(f"error_rate {dg.fmt(j[0])} vs normal {dg.fmt(j[1])} ({j[2]})")
    ev += [f"event: {' '.join(e.split()[3:])}" for e in w.events if "Scaled" in e][:1]
    rec.add(
        f"The error spike follows the rollout of {new.get('images')} {new.get('age')} ago: errors started after it went out, so the new version is the likely cause.",
        ev,
        85,
        f"roll back to {old.get('images')} (`kubectl rollout undo deploy/{w.name}`) and watch error_rate return to normal.",
    )
    return True


async def migration(s: Session, w: Workload, rec: Record) -> bool:
    if not s.has("database") or not re.search(
        r"migrat|schema|column|relation", s.prompt + str([ln.message for ln in w.logs]), re.I
    ):
        return False
    st = await s.call("database", "which migrations ran, and when", query="migrations status")
    ref = s.ref()
    rows = re.findall(
        r"\|\s*Versioned\s*\|\s*(\S+)\s*\|\s*([^|]+?)\s*\|.*?\|\s*([\d-]+ [\d:]+)", st
    )
    last = rows[-1] if rows else ("?", "?", "?")
    err = next((ln.message for ln in w.logs + w.prev_logs if ln.signal), "")
    rec.add(
        f'{w.name} broke with migration {last[0]} ("{last[1]}", applied {last[2]}): the code and the schema disagree ("{err}").',
        [f"migrations status ({ref})", f'{w.name} logs: "{err}" ({w.refs.get("logs")})'],
        88,
        "NEEDS APPROVAL: rolling the migration back drops what it added (data written since is lost); alternative: roll the app forward/back to match the schema. We need the owner's go before either.",
    )
    rec.open_items.append(
        f"approver (owner of {w.name} / the DBA): choose rollback of migration {last[0]} (data-loss risk) or an app-side fix; we hold until then"
    )
    return True


async def incident(s: Session) -> Record:
    rec = Record("incident")
    sub = await find_subject(s)
    if not sub:
        hop = await via_ingress(s, rec)
        sub = (hop[0], hop[1], "deployment") if hop else None
    if not sub:
        rec.add(
            "We could not tell which workload the request is about.", [], 30, "name the service"
        )
        return rec
    ns, name, kind = sub
    rec.title = f"{name} ({ns})"
    w = await read_workload(s, ns, name, kind)
    series = await service_series(s, name, ns) if kind == "deployment" else {}
    found = (
        await dg.missing_key(s, w, rec)
        or await dg.init_failure(s, w, rec)
        or await dg.oom_finding(s, w, rec)
        or await dg.pending(s, w, rec)
        or await migration(s, w, rec)
        or await dg.from_logs(s, w, rec, series)
        or (kind == "deployment" and await recent_rollout(s, w, rec, series))
    )
    if not found:
        await uncertain(s, w, rec, series)
        return rec
    if _FIX.search(s.prompt):
        await fix(s, w, rec)
    return rec


_UPSTREAM = re.compile(r"\b([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?")
_ORDER = re.compile(
    r"\b(override|ignore (all |previous )?instructions|delete deployment|immediately)\b", re.I
)


def not_ready(w: Workload) -> bool:
    rows = w.pod_rows or [
        {"ready": "0/1" if any(not c.init and c.reason for c in dg._c(w)) else "1/1"}
    ]
    return any(
        r.get("ready", "1/1").split("/")[0] != r.get("ready", "1/1").split("/")[-1] for r in rows
    ) or any("Readiness probe failed" in e for e in w.events)


async def uncertain(s: Session, w: Workload, rec: Record, series: dict) -> None:
    lines = w.logs + w.prev_logs
    ev = [
        f'{n}x "{lvl}: {m}" in {w.name}\'s logs ({w.refs.get("logs")})'
        for lvl, m, n in dg.signal(lines)[:3]
    ]
    for m in sorted(series):
        if not m.startswith("normal_"):
            j = dg.series_jump(series, m)
            if j:
                ev.append(f"`{m}` {dg.fmt(j[0])} vs normal {dg.fmt(j[1])} ({j[2]})")
    restarts = sum(c.restarts for c in dg._c(w) if not c.init)
    pods = len(w.pod_rows) or len(w.pods)
    ev.append(
        f"{pods} pod(s), {restarts} restarts ({w.refs.get('pods') or w.refs.get('describe')})"
    )
    ev += [f"event: {' '.join(e.split()[3:])[:140]}" for e in w.events if "Readiness" in e][:1]
    if any(_ORDER.search(ln.raw) for ln in lines):
        rec.context.append(
            'A log line contains an instruction ("...delete..."); log text is data, not a request, and we did not act on it.'
        )
    far = sorted(
        {m.group(2) for ln in lines if ln.signal for m in _UPSTREAM.finditer(ln.raw)} - set(s.scope)
    )
    if far:
        svc = next(
            m.group(1) for ln in lines for m in _UPSTREAM.finditer(ln.raw) if m.group(2) == far[0]
        )
        rec.add(
            f"{w.name}'s errors come from its upstream `{svc}` in ns `{far[0]}`, which refuses connections; {w.name} itself is only passing the failure on.",
            ev,
            80,
            f"ns `{far[0]}` is outside our scope: we did not read or touch it. Page the owners of {svc} ({far[0]}) with these readings.",
        )
        rec.decision = f"Escalated to the owners of ns {far[0]}; no change made here."
        rec.open_items.append(f"owner of {svc} in ns {far[0]}: why does it refuse connections?")
        return
    crash = any(c.reason == "CrashLoopBackOff" for c in dg._c(w))
    if crash and may_write(s) == "" and _FIX.search(s.prompt):
        rec.add(
            f"{w.name} is in CLBO; its last error is a transient dependency blip, not a config or code fault.",
            ev,
            80,
            "replace the pod so it starts clean, then watch it stay up.",
        )
        await fix(s, w, rec)
        return
    if not crash and _FIX.search(s.prompt) and not dg.signal(lines) and not_ready(w):
        rec.add(
            f"{w.name} is degraded: pods fail readiness, with no error in the logs pointing at config or code.",
            ev,
            75,
            "rolling restart to get fresh pods, then verify every pod is Ready.",
        )
        await fix(s, w, rec)
        return
    rec.add(
        f"We are NOT confident of a single root cause for {w.name}'s errors; the signals are real but none proves a cause.",
        ev,
        35,
        f"escalate to the owners of {w.name} (ns {w.ns}) with the readings above; we made no speculative change.",
    )
    rec.decision = "Escalating with context rather than guessing; no change made."
    rec.open_items.append(
        f"owner of {w.name}: confirm what is behind the errors; we can help test a hypothesis"
    )


async def fix(s: Session, w: Workload, rec: Record) -> None:
    blocker = may_write(s)
    meta = await ns_labels(s, w.ns)
    if production(meta):
        rec.context.append(
            f"Environment: ns `{w.ns}` is production (labels {meta.get('labels')}), so the bar for a change is higher."
        )
    oomc = dg.oom(w)
    if blocker:
        rec.decision = f"Not applied: {blocker}. Recommendation for the approver below."
        if oomc:
            lim = oomc.limits.get("memory", "")
            rec.open_items.append(
                f"approver: raise {w.name}'s memory limit {lim} -> {dg._double(lim)}: `kubectl set resources deploy/{w.name} -n {w.ns} -c {oomc.name} --limits=memory={dg._double(lim)}`"
            )
        return
    if rec.open_items and any("approv" in o.lower() for o in rec.open_items):
        rec.decision = "Plan presented for approval; nothing changed."
        return
    if w.kind == "pod":
        await replace_pod(s, w, rec)
        return
    if any("Insufficient cpu" in e for e in w.events):
        await fit_cpu(s, w, rec)
    elif oomc:
        lim = oomc.limits.get("memory", "")
        await s.k(
            f"set resources deploy/{w.name} -n {w.ns} -c {oomc.name} --limits=memory={dg._double(lim)}",
            "stopgap for the OOM kills",
        )
        rec.changes.append(f"deploy/{w.name} memory limit: before {lim} -> after {dg._double(lim)}")
    else:
        await s.k(
            f"rollout restart deploy/{w.name} -n {w.ns}", "fresh pods for the degraded deploy"
        )
        rec.changes.append(f"deploy/{w.name}: rollout restart")
    ok, how = await rollout_ok(s, w)
    rec.verification.append(how)
    rec.decision = (
        "Fixed and verified." if ok else "Change made, not yet verified healthy: watching."
    )


async def fit_cpu(s: Session, w: Workload, rec: Record) -> None:
    """Pending on CPU: lower the request to what a node can hold (the pods' own usage is unknown)."""
    req: dict[str, str] = next(
        (c.get("resources", {}).get("requests", {}) for c in w.containers), {}
    )
    nodes = await s.k("describe nodes", "how much CPU is free per node for one pod")
    free = []
    for b in re.split(r"^Name:\s+", nodes, flags=re.M)[1:]:
        alloc = re.search(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", b)
        used = re.search(r"^\s*cpu\s+(\d+m?)\s+\(", b, re.M)
        if alloc:
            free.append(
                (rd.quantity(alloc.group(1)) or 0)
                - (rd.quantity(used.group(1)) or 0 if used else 0)
            )
    room = max(free, default=0)
    used = await requested_cpu(s)
    if used and free:
        room -= used / len(free)
    new = f"{max(100, int(room * 1000 * 0.8) // 100 * 100)}m"
    c = w.containers[0].get("name", w.name) if w.containers else w.name
    for attempt in range(2):
        await s.k(
            f"set resources deploy/{w.name} -n {w.ns} -c {c} --requests=cpu={new}",
            f"the request {req.get('cpu')} fits no node (~{room:.2f} cores free per node); lower it to {new} so the pods schedule",
        )
        pods = rd.table(await s.k(f"get pods -n {w.ns} -l {w.selector}", "did the pods schedule?"))
        if attempt or not any(r.get("status") == "Pending" for r in pods):
            break
        new = f"{max(100, int(rd.quantity(new) or 0.2) * 500 // 100 * 100)}m"
    rec.changes.append(f"deploy/{w.name} cpu request: before {req.get('cpu')} -> after {new}")
    rec.open_items.append(
        f"owner of {w.name}: confirm {new} CPU is enough for the workload, or add node capacity and restore the request"
    )


async def requested_cpu(s: Session) -> float:
    """CPU already requested in the cluster (kube-state-metrics), to estimate what is left."""
    got = rd.prom_series(
        await s.call(
            "metrics_query",
            "CPU already requested by other pods (describe nodes does not show it to us)",
            action="query",
            query='sum(kube_pod_container_resource_requests{resource="cpu"})',
        )
    )
    return got[0][1][-1] if got and got[0][1] else 0.0


def _clean(pod: dict) -> str:
    """A pod's manifest without its server-set fields, to create it again."""
    import json

    meta = {
        k: v
        for k, v in (pod.get("metadata") or {}).items()
        if k in ("name", "namespace", "labels", "annotations")
    }
    spec = {k: v for k, v in (pod.get("spec") or {}).items() if k != "nodeName"}
    return json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})


async def replace_pod(s: Session, w: Workload, rec: Record) -> None:
    """A crashing pod replaced; a bare one (no controller) recreated from its own manifest."""
    owner = w.pods[0].owner if w.pods else ""
    manifest = ""
    if not owner:
        doc = rd.items(
            await s.k(
                f"get pod {w.name} -n {w.ns} -o yaml",
                "no controller owns this pod: keep its manifest to recreate it",
            )
        )
        if doc:
            manifest = _clean(doc[0])
    await s.k(
        f"delete pod {w.name} -n {w.ns}",
        "replace the crashing pod"
        + (" (its controller recreates it)" if owner else " (we recreate it from its manifest)"),
    )
    if manifest:
        await s.k("apply -f -", "recreate the bare pod from its saved manifest", stdin=manifest)
    after = await s.k(f"get pods -n {w.ns}", "verify the replacement is running")
    stem = w.name if not owner else w.name.rsplit("-", 1)[0]
    rec.changes.append(
        f"pod/{w.name}: deleted and "
        + ("recreated by its controller" if owner else "recreated from its manifest")
    )
    rec.verification.append(
        f"pods after ({s.ref()}): "
        + (
            ", ".join(
                r.get("name", "") + " " + r.get("status", "") + " restarts " + r.get("restarts", "")
                for r in rd.table(after)
                if r.get("name", "").startswith(stem)
            )
            or f"no {stem} pod listed yet"
        )
    )
    rec.decision = "Acted autonomously: staging, clear diagnosis, we have the authority."
