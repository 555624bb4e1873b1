"""heldout39's decision after a diagnosis: write the findings, then fix narrowly (asked,
allowed, a clear cause with a reversible fix), hold for approval with a recommendation, or
escalate with the readings when the reads do not settle a cause.
"""

from __future__ import annotations

import json
import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import Ctx, approval_needed, asks_fix
from .operator_heldout39_diag import Cause
from .operator_heldout39_sheet import Sheet

_FIXABLE = ("transient", "unready", "cpu", "oom", "rollout", "limit")


async def conclude(sheet: Sheet, ctx: Ctx, w: look.Work, cause: Cause, prompt: str) -> None:
    _limit(w, cause)
    _cpu_neighbour(w, cause)
    if cause.kind == "none" or (not cause.sure and not asks_fix(prompt)):
        _unsure(sheet, w, cause)
        return
    if cause.kind == "unready" and w.series:
        _unsure(sheet, w, cause)
        return
    sheet.found.append(cause.text)
    sheet.found += cause.evidence
    sheet.ruled_out += cause.ruled_out
    if not asks_fix(prompt):
        sheet.todo.append(f"fix (not applied, the request asked for a diagnosis): {cause.fix}")
        sheet.status = "no action needed from on-call: diagnosed, nothing changed; the fix is under Handing off"
        return
    hold = approval_needed(sheet, ctx)
    if cause.kind == "migration":
        await _migration_plan(sheet, ctx, w)
        return
    if hold:
        sheet.found.append(f"fix held: {hold}; {ctx.ns} is {ctx.env or 'a guarded namespace'}")
        sheet.todo.append(
            f"approver ({_owner(ctx)}): recommended fix: {cause.fix}{_limit_plan(w, cause)}; I apply it on your OK"
        )
        sheet.status = "escalated (waiting for approval)"
        return
    if cause.kind not in _FIXABLE:
        sheet.todo.append(f"owner ({_owner(ctx)}): {cause.fix}")
        sheet.status = "escalated"
        return
    ok = await _apply(sheet, ctx, w, cause)
    sheet.status = "mitigated" if ok else "escalated"


def _owner(ctx: Ctx) -> str:
    for k, v in {**ctx.labels, **ctx.annotations}.items():
        if re.search(r"team|owner|contact", k):
            return str(v)
    return "service owner"


def _limit(w: look.Work, cause: Cause) -> None:
    lim = w.configmaps.get("__limit__")
    if lim and cause.kind in ("none", "unready"):
        cause.kind = "limit"
        cause.sure = True
        cause.text = (
            f"root cause: `{lim['cm']}` caps {lim['key']} at {lim['value']}, too low for "
            f"{w.replicas} replicas taking traffic; {w.replicas - w.ready} of {w.replicas} pods failing readiness"
        )
        cause.fix = f"raise {lim['key']} in {lim['cm']} and restart {w.name}"


def _cpu_neighbour(w: look.Work, cause: Cause) -> None:
    cpu = w.configmaps.get("__cpu__")
    if cpu:
        cause.ruled_out.insert(
            0,
            f"node CPU as the cause: it is real ({cpu['node']}), but the CPU goes to {cpu['pod']}, "
            f"another workload (a noisy neighbour); {w.name}'s restarts are OOM kills, not CPU",
        )


def _unsure(sheet: Sheet, w: look.Work, cause: Cause) -> None:
    """No cause I would stand behind: change nothing, hand off what I read."""
    readings = []
    for n, vals in w.series.items():
        if n.startswith("normal_"):
            continue
        base = w.series.get(f"normal_{n}")
        readings.append(
            f"{n} {look.fmt(vals[-1])}" + (f" (normal {look.fmt(base[-1])})" if base else "")
        )
    sig = rd.signal_patterns(w.logs)
    for lvl, msg, n in sig[:2]:
        readings.append(f'log "{lvl}: {msg[:100]}" x{n}')
    if cause.text:
        readings.append(cause.text)
    sheet.found.append(
        f"no single root cause: the readings for {w.name} do not point at one thing; "
        "I am not confident enough to change anything"
    )
    sheet.found += [f"reading: {r}" for r in readings]
    sheet.ruled_out += cause.ruled_out
    sheet.todo.append(
        f"escalate to {w.name}'s owner and the upstream team with these readings: "
        + "; ".join(readings[:4])
    )
    sheet.todo.append(
        "follow-up: capture a failing request end to end (upstream logs) before any change"
    )
    sheet.status = "escalated (uncertain, nothing changed)"


def _limit_plan(w: look.Work, cause: Cause) -> str:
    if cause.kind != "oom":
        return ""
    for c in w.containers:
        lim = c.get("resources", {}).get("limits", {}).get("memory")
        q = rd.quantity(lim or "")
        if q:
            return f" (`kubectl set resources deployment/{w.name} -c {c.get('name')} --limits=memory={rd.mib(q * 2)}`: {lim} -> {rd.mib(q * 2)})"
    return ""


async def _apply(sheet: Sheet, ctx: Ctx, w: look.Work, cause: Cause) -> bool:
    if cause.kind == "transient":
        return await _replace(sheet, ctx, w)
    if cause.kind == "unready":
        return await _roll(
            sheet,
            ctx,
            w,
            "pods fail readiness with no error in their logs: a rolling restart replaces them",
        )
    if cause.kind == "rollout":
        await sheet.write(
            f"errors began with the new version: roll {w.name} back",
            before=look.image(w),
            command=f"rollout undo deployment/{w.name} -n {ctx.ns}",
        )
        return await _verify(sheet, ctx, w, "rollout undo")
    if cause.kind == "oom":
        c = w.containers[0]
        q = rd.quantity(c.get("resources", {}).get("limits", {}).get("memory", "")) or 0
        new = rd.mib(q * 2) if q else "512Mi"
        await sheet.write(
            "OOMKilled at its limit: double the memory limit",
            before=f"limit {c.get('resources', {}).get('limits', {}).get('memory')}",
            command=f"set resources deployment/{w.name} -n {ctx.ns} -c {c.get('name')} --limits=memory={new}",
        )
        return await _verify(sheet, ctx, w, "set resources")
    if cause.kind == "cpu":
        return await _lower_cpu(sheet, ctx, w)
    if cause.kind == "limit":
        lim = w.configmaps["__limit__"]
        new = str(int(lim["value"]) * 10)
        body = json.dumps({"data": {lim["key"]: new}}, separators=(",", ":"))
        await sheet.write(
            f"{lim['key']}={lim['value']} caps connections; raise it",
            before=f"{lim['key']}={lim['value']}",
            command=f"patch configmap {lim['cm']} -n {ctx.ns} --type merge -p '{body}'",
        )
        sheet.result(f"{lim['key']}={new}")
        return await _roll(
            sheet,
            ctx,
            w,
            f"pods read {lim['cm']} at start: restart so they pick up {lim['key']}={new}",
        )
    return False


async def _roll(sheet: Sheet, ctx: Ctx, w: look.Work, why: str) -> bool:
    await sheet.write(
        why,
        before=f"{w.ready}/{w.replicas} ready",
        command=f"rollout restart deployment/{w.name} -n {ctx.ns}",
    )
    return await _verify(sheet, ctx, w, "rollout restart")


async def _verify(sheet: Sheet, ctx: Ctx, w: look.Work, verb: str, last: bool = True) -> bool:
    if sheet.failed():
        return False
    status = await sheet.read(
        f"watch {w.name} roll out",
        command=f"rollout status deployment/{w.name} -n {ctx.ns} --timeout=120s",
    )
    sheet.saw("rolled out" if "successfully" in status else status.strip()[-120:])
    out = await sheet.read(
        f"verify {w.name} after the fix", command=f"get deployment {w.name} -n {ctx.ns}"
    )
    rows = rd.table(out)
    ready = rows[0].get("ready", "?") if rows else "?"
    sheet.saw(f"{ready} ready")
    pods = rd.table(
        await sheet.read(f"verify {w.name}'s pods", command=f"get pods -n {ctx.ns} -l {w.selector}")
    )
    sheet.saw(look.pod_summary(pods))
    for ln in reversed(sheet.lines):
        if ln.write and verb in ln.cmd:
            ln.after = ln.after or f"{ready} ready, {look.pod_summary(pods)}"
            break
    a, _, b = ready.partition("/")
    ok = a == b and a not in ("0", "?")
    if ok:
        sheet.done.append(f"verified: {w.name} {ready} ready after the fix")
    elif last:
        sheet.found.append(f"{w.name} still {ready} ready after the fix")
        sheet.todo.append(f"owner: {w.name} did not recover ({ready} ready); I stopped there")
    return ok


async def _replace(sheet: Sheet, ctx: Ctx, w: look.Work) -> bool:
    """A crash-looping pod on a transient error: replace it (saving a bare pod's manifest)."""
    pod = w.pods[0] if w.pods else None
    if not pod:
        return False
    if pod.owner:
        await sheet.write(
            "transient dependency error: delete the pod so its controller starts a fresh one",
            before=f"{pod.name} CrashLoopBackOff",
            command=f"delete pod {pod.name} -n {ctx.ns}",
        )
    else:
        out = await sheet.read(
            f"{pod.name} has no controller: save its manifest before replacing it",
            command=f"get pod {pod.name} -n {ctx.ns} -o yaml",
        )
        doc = rd.load_yaml(out) or {}
        meta = doc.get("metadata", {})
        keep = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": meta.get("name"),
                "namespace": meta.get("namespace"),
                "labels": meta.get("labels") or {},
            },
            "spec": {k: v for k, v in (doc.get("spec") or {}).items() if k != "nodeName"},
        }
        sheet.saw("manifest saved")
        await sheet.write(
            "transient dependency error: replace the crash-looping pod (delete)",
            before=f"{pod.name} CrashLoopBackOff, {sum(c.restarts for c in pod.containers)} restarts",
            command=f"delete pod {pod.name} -n {ctx.ns}",
        )
        sheet.result("deleted")
        await sheet.write(
            "re-create it from the saved manifest",
            before="pod absent",
            command="apply -f -",
            stdin=json.dumps(keep),
        )
    out = await sheet.read(f"verify {pod.name}", command=f"get pods -n {ctx.ns}")
    rows = [r for r in rd.table(out) if r.get("name", "").startswith(pod.name.rsplit("-", 1)[0])]
    sheet.saw(look.pod_summary(rows))
    sheet.result(look.pod_summary(rows) + ", restarts reset")
    running = any(r.get("status") == "Running" for r in rows)
    sheet.done.append(
        f"verified: {look.pod_summary(rows)}" if running else "replacement not running yet"
    )
    if running:
        sheet.todo.append(
            "follow-up: if it crash-loops again, the Redis dependency is not transient: page its owner"
        )
    return running


async def _lower_cpu(sheet: Sheet, ctx: Ctx, w: look.Work) -> bool:
    """Lower the CPU request to what a node has free (kube-state-metrics: allocatable minus requested)."""
    free = 0.0
    if sheet.has("metrics_query"):
        a = await sheet.read(
            "read each node's allocatable CPU",
            tool="metrics_query",
            action="query",
            query='kube_node_status_allocatable{resource="cpu"}',
        )
        r = await sheet.read(
            "read CPU already requested per node",
            tool="metrics_query",
            action="query",
            query='sum by (node) (kube_pod_container_resource_requests{resource="cpu"})',
        )
        alloc = {s.get("node"): v[-1] for s, v in rd.prom_series(a) if v}
        used = {s.get("node"): v[-1] for s, v in rd.prom_series(r) if v}
        frees = {n: alloc[n] - used.get(n, 0) for n in alloc}
        free = max(frees.values(), default=0.0)
        sheet.saw(", ".join(f"{n} {v * 1000:.0f}m free" for n, v in sorted(frees.items())))
    c = w.containers[0]
    old = c.get("resources", {}).get("requests", {}).get("cpu", "?")
    new_m = int(max(free * 0.8, 0.1) * 1000) // 50 * 50 or 100
    for attempt in range(3):
        await sheet.write(
            f"request {old} CPU fits no node; {new_m}m fits the freest node"
            if attempt == 0
            else "still Pending: halve the request again",
            before=f"requests.cpu {old}",
            command=f"set resources deployment/{w.name} -n {ctx.ns} -c {c.get('name')} --requests=cpu={new_m}m",
        )
        sheet.result(f"requests.cpu {new_m}m")
        if await _verify(sheet, ctx, w, "set resources", last=attempt == 2):
            return True
        old, new_m = f"{new_m}m", max(new_m // 2, 50)
    return False


async def _migration_plan(sheet: Sheet, ctx: Ctx, w: look.Work) -> None:
    """A schema rollback loses what was written since: present the risk, ask for approval."""
    text = w.configmaps.get("__migrations__", {}).get("text", "")
    rows = [r for r in text.splitlines() if r.startswith("|") and re.search(r"\|\s*\d+\s*\|", r)]
    last = [c.strip() for c in rows[-1].strip("|").split("|")] if rows else []
    ver = f"{last[1]} '{last[2]}' (applied {last[4]})" if len(last) >= 5 else "the last migration"
    count = ""
    if sheet.has("database") and len(last) >= 5:
        out = await sheet.read(
            "count rows written since that migration (what a rollback puts at risk)",
            tool="database",
            query=f"SELECT count(*) FROM users WHERE created_at >= '{last[4]}'",
        )
        m = re.search(r"\b(\d+)\b", out.split("\n", 2)[-1] if out else "")
        count = m.group(1) if m and not sheet.failed() else ""
        sheet.saw(f"{count} rows" if count else "could not count")
    sheet.found.append(
        f"risk: rolling back migration {ver} drops what it added; {count + ' records were' if count else 'records have been'} written since, and they would be lost or left inconsistent"
    )
    sheet.plan += [
        "back up the affected tables (pg_dump) and confirm the restore works",
        f"choose: roll the app forward to a version that uses the new schema (no data loss), or roll back migration {ver} after the backup",
        f"after approval: apply the chosen step, restart {w.name}, verify its error line is gone",
    ]
    sheet.todo.append(
        f"approver (DB owner): OK the plan above; I did not roll back the migration ({count or 'unknown number of'} records at risk)"
    )
    sheet.status = "escalated (plan waiting for approval)"
