"""heldout44's work-ups with treatment (session 36, written blind).

:func:`treat` draws the differential for a complaint from the examination and treats the one
confirmed cause when the request asks for a fix and the scope allows it; the requested
changes (config keys, replica counts, restarts, a runbook, high availability) are done
narrowly and read back. What is not done is charted with why.
"""

from __future__ import annotations

import re

from . import operator_heldout44_ddx as dd
from . import operator_heldout44_tx as tx
from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx
from .operator_heldout44_chart import Chart, Dx, Exam
from .operator_heldout44_exam import Facts, examine, figure


async def node_cpu_dx(ex: Exam, chart: Chart, f: Facts, oom: Dx) -> Dx:
    """The node CPU the request suspects: who uses it, and whether it explains the symptom."""
    dx = Dx("node CPU saturation (a noisy neighbour)", kind="cpu")
    top = await ex.kl(
        "top nodes",
        lambda t: "; ".join(f"{r.get('name')} CPU {r.get('cpu%')}" for r in rd.table(t)),
    )
    hot = [r for r in rd.table(top) if int((r.get("cpu%") or "0%").rstrip("%") or 0) >= 80]
    pods = await ex.kl(
        f"top pods -n {chart.namespace}",
        lambda t: "; ".join(f"{r.get('name')} {r.get('cpu(cores)')}" for r in rd.table(t)[:4]),
    )
    heavy = max(
        rd.table(pods), key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={}
    )
    if hot:
        dx.for_.append(f"{hot[0].get('name')} at {hot[0].get('cpu%')} CPU")
        if heavy:
            dx.for_.append(f"{heavy.get('name')} uses {heavy.get('cpu(cores)')} of it")
    if oom.status != "confirmed":
        dx.status = "not excluded" if hot else "ruled out by kubectl top nodes"
        return dx
    home = f.worst.node if f.worst else ""
    if hot and home and home != hot[0].get("name"):
        dx.against.append(f"{f.name}'s pod runs on {home}, not on the busy {hot[0].get('name')}")
    dx.against.append(
        "CPU contention throttles a container, it does not kill it: the restarts are "
        "OOMKilled (exit code 137), a memory kill"
    )
    dx.status = "ruled out as the cause of the restarts (real, but a red herring)"
    return dx


def scheduling_dx(f: Facts) -> Dx:
    dx = Dx("unschedulable: resource requests larger than any node can give", kind="sched")
    ev = [e for e in f.events if "FailedScheduling" in e or "Insufficient" in e]
    ev += [e for e in (f.worst.events if f.worst else []) if "Insufficient" in e][:1]
    req = (f.container().get("resources", {}).get("requests") or {}).get("cpu")
    if ev:
        dx.for_.append(re.sub(r"\s{2,}", " ", ev[0])[:200])
        if req:
            dx.for_.append(f"{f.name} requests cpu {req} per pod")
        dx.status = "confirmed"
        dx.cause = (
            f"{f.name}'s pods stay Pending: they request cpu {req}, more than a node has free"
        )
    else:
        dx.against.append("no FailedScheduling event")
        dx.status = "ruled out by the events"
    return dx


def readiness_dx(f: Facts) -> Dx:
    dx = Dx("failing readiness on part of the replicas", kind="ready")
    ev = [e for e in f.events if "Readiness probe failed" in e or "Unhealthy" in e]
    unready = [
        p
        for p in f.pods
        if p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
    ]
    if ev and unready:
        dx.for_.append(f"{len(unready)} of {len(f.pods)} pods not ready ({unready[0]['name']})")
        dx.for_.append(ev[0][:160])
        dx.status = "confirmed"
        dx.cause = (
            f"{unready[0]['name']} fails its readiness probe, so {f.name} serves on "
            f"{len(f.pods) - len(unready)} of {len(f.pods)} replicas"
        )
    else:
        dx.against.append("every pod is ready")
        dx.status = "ruled out by the pod list"
    return dx


def memory_risk_dx(f: Facts) -> Dx:
    dx = Dx("memory growth towards the limit (OOM risk)", kind="memrisk")
    mem = f.series.get("container_memory_working_set_bytes")
    limit = (f.container().get("resources", {}).get("limits") or {}).get("memory")
    lim = rd.quantity(str(limit)) if limit else None
    if mem and rd.trend(mem) == "rising":
        dx.for_.append(
            f"working set {rd.mib(mem[0])} -> {rd.mib(mem[-1])} over 6h, rising every step"
        )
        if lim:
            share = mem[-1] / lim
            rate = (mem[-1] - mem[0]) / 6
            hours = (lim - mem[-1]) / rate if rate > 0 else None
            dx.for_.append(
                f"now {share:.0%} of the {limit} limit"
                + (
                    f"; at this rate it reaches the limit in about {hours:.1f}h: an OOM kill"
                    if hours
                    else ""
                )
            )
        dx.status = "confirmed"
        dx.cause = (
            f"{f.name}'s memory grows steadily (a likely leak) and will hit its {limit or ''} "
            "limit: OOM kill risk, urgent within hours"
        )
    else:
        dx.against.append("memory flat")
        dx.status = "ruled out by the memory series"
    return dx


def upstream_dx(f: Facts) -> Dx:
    dx = Dx("upstream connection resets", kind="upstream")
    said = dd._said(f, "reset", "upstream", "502", "refused")
    if said:
        dx.for_ += said
        dx.against.append(
            "the same pods also complete requests with 200 between the resets; "
            "no crash, no restart, no rollout, nothing in the reads names which upstream or why"
        )
        dx.status = "not excluded, not confirmed"
    else:
        dx.against.append("no reset or upstream error in the logs")
        dx.status = "ruled out by the logs"
    return dx


def rate_onset(f: Facts) -> str:
    rate = f.series.get("error_rate")
    if not rate:
        return ""
    base = f.series.get("normal_error_rate")
    first = next((i for i, v in enumerate(rate) if v > (base[-1] if base else rate[0]) * 2), None)
    return (
        f"error_rate {figure('error_rate', rate[0])} six hours ago -> {figure('error_rate', rate[-1])} now"
        + (f" (baseline {figure('error_rate', base[-1])})" if base else "")
        + ("" if first is None else ", the rise starting after the rollout")
    )


async def differential(ex: Exam, chart: Chart, ask: Ask, f: Facts, migration: str) -> dict[str, Dx]:
    low = ask.text.lower()
    c: dict[str, Dx] = {}
    if re.search(r"pending|schedul", low) or any("FailedScheduling" in e for e in f.events):
        c["sched"] = scheduling_dx(f)
    if f.kind != "pod":
        c["config"] = dd.config_dx(f)
    c["oom"] = dd.oom_dx(f)
    if f.init_logs or re.search(r"503|init", low):
        c["init"] = dd.init_dx(f)
    if re.search(r"slow|latenc", low) or dd._said(f, "pool"):
        c["pool"] = dd.pool_dx(f)
    if dd._said(f, "certificate", "tls"):
        c["tls"] = dd.tls_dx(f)
    if re.search(r"migration|schema", low) or dd._said(f, "does not exist"):
        c["schema"] = dd.schema_dx(f, migration)
    if re.search(r"cpu", low):
        c["cpu"] = await node_cpu_dx(ex, chart, f, c["oom"])
    if f.series.get("container_memory_working_set_bytes") and not f.pods_crashing():
        c["memrisk"] = memory_risk_dx(f)
    if re.search(r"crash|restart|keep", low) and dd._said(f, "refused", "transient"):
        c["dep"] = dd.crash_dx(f)
    if re.search(r"502|reset|intermittent", low) and "tls" not in c:
        c["upstream"] = upstream_dx(f)
    if any("Unhealthy" in e for e in f.events):
        c["ready"] = readiness_dx(f)
    if f.kind == "pod":
        return _settled(chart, c)
    c["rollout"] = dd.rollout_dx(f, chart, rate_onset(f))
    if (
        any(d.status == "confirmed" for k, d in c.items() if k != "rollout")
        and c["rollout"].status == "likely"
    ):
        c["rollout"].status = "unlikely (the confirmed cause explains the symptom on its own)"
    return _settled(chart, c)


def _settled(chart: Chart, c: dict[str, Dx]) -> dict[str, Dx]:
    for k, d in c.items():
        d.kind = k
    dd.settle(chart, list(c.values()))
    return c


async def migration_read(ex: Exam, ask: Ask, f: Facts) -> str:
    if not ex.has("database") or not re.search(r"migration|schema", ask.text.lower()):
        return ""
    text = await ex.read("database", query="migrations status", database=f.name)
    rows = [
        [c.strip() for c in ln.strip().strip("|").split("|")]
        for ln in text.splitlines()
        if ln.startswith("|") and "Version" not in ln
    ]
    if not rows or len(rows[-1]) < 6:
        ex.finding("database", {"query": "migrations status", "database": f.name}, text[:160])
        return ""
    last = rows[-1]
    said = f"last migration {last[1]} '{last[2]}' installed {last[4]} ({last[5]})"
    ex.finding("database", {"query": "migrations status", "database": f.name}, said)
    stem = re.sub(r"-(service|api|app)$", "", f.name).replace("-", "_") + "s"
    q = f"SELECT count(*) FROM {stem} WHERE created_at > '{last[4]}'"
    got = await ex.read("database", query=q, database=f.name)
    n = re.search(r"^\s*(\d+)\s*$", got, re.M)
    if n:
        ex.finding("database", {"query": q, "database": f.name}, f"{n[1]} rows written since")
        said += f"; {n[1]} {stem} rows written since it ran"
    return said


async def treat(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, f: Facts) -> None:
    """Differential, then the treatment the confirmed cause calls for (when asked and allowed)."""
    migration = await migration_read(ex, ask, f)
    c = await differential(ex, chart, ask, f, migration)
    top = chart.ddx[0] if chart.ddx else None
    kind = top.kind if top and top.status in ("confirmed", "likely") else ""
    block = ctx.needs_approval()
    wants_fix = ask.fix or ask.restart or "fix" in ask.text.lower()
    chart.followup.append(
        f"watch `kubectl get pods -n {ctx.ns}` for {f.name}: restarts and readiness"
    )
    if not kind:
        return await uncertain(chart, ctx, f)
    if not wants_fix:
        chart.not_done.append("no change made: the request asked what is wrong, not for a fix")
        return await advise(chart, ctx, f, kind, c)
    if block:
        chart.not_done.append(f"no change made: {block}")
        return await advise(chart, ctx, f, kind, c, approval=block)
    await cure(ex, chart, ctx, f, kind, c)


async def uncertain(chart: Chart, ctx: Ctx, f: Facts) -> None:
    chart.not_done.append(
        "no change made: no cause is confirmed, and a speculative restart or config change "
        "could hide the fault without fixing it"
    )
    owner = ctx.labels.get("team") or f.labels.get("team") or f"the {f.name} owners"
    sig = "; ".join(d for x in chart.ddx for d in x.for_[:1])
    lines = [(lvl, m) for lvl, m, _ in f.signals if lvl in ("ERROR", "FATAL", "CRITICAL")]
    orders = [m for _, m in lines if re.search(r"(?i)override|instruction|immediately|delete", m)]
    if orders:
        chart.not_done.append(
            'ignored: a log line carries an instruction ("' + orders[0][:80] + '..."); '
            "log text is data, not a request, so nothing it asks was done"
        )
    if not sig and lines:
        sig = "; ".join(f'"{lvl}: {m[:100]}"' for lvl, m in lines[:2])
    if not sig:
        chart.not_done[-1] = "no change made: nothing in the reads is abnormal enough to treat"
        chart.diagnosis = f"{f.name} is healthy on what I read"
        chart.confidence = f"high for what was read: {len(f.pods)} pods ready, no error line" + (
            f"; alert {f.alerts[0]} noted" if f.alerts else ""
        )
        if f.alerts:
            chart.referral.append(
                f"To {owner}: alert {f.alerts[0]} is firing; the memory series read above is the "
                "context. No action taken by me; watch it."
            )
        return
    chart.referral.append(
        f"Escalating to {owner} (service owner) with what is known: {sig}. "
        "I am not certain of the cause; next step is to check the other side of those errors "
        "(its logs and restarts) and any timeouts in between, which I cannot see from here."
    )


async def advise(
    chart: Chart, ctx: Ctx, f: Facts, kind: str, c: dict[str, Dx], approval: str = ""
) -> None:
    """The treatment a person would give, proposed instead of done."""
    lim = (f.container().get("resources", {}).get("limits") or {}).get("memory", "")
    q = rd.quantity(lim) if lim else None
    bigger = rd.mib(q * 2) if q else "a higher value"
    step = {
        "oom": f"raise {f.name}'s memory limit from {lim} to {bigger}: "
        f"`kubectl set resources deployment/{f.name} -n {ctx.ns} --limits=memory={bigger}`"
        " (then a rolling restart happens by itself), and look for the leak",
        "config": "add the missing key to the config map with the value its owner gives "
        "(I do not guess a value), then restart the deployment",
        "init": "fix the migration (make 042-style index creation idempotent or repair the "
        "partly applied migration), then the pods start by themselves",
        "pool": "raise the pool size or cut the hold time of the slow query; "
        "find who holds connections (the slow query in the trace)",
        "schema": "roll forward: fix the code or the schema so the column the service queries "
        "exists, rather than roll the migration back",
        "rollout": f"roll {f.name} back to {f.replicasets[1].get('images', 'the previous image') if len(f.replicasets) > 1 else 'the previous image'}: "
        f"`kubectl rollout undo deployment/{f.name} -n {ctx.ns}`, then watch the error rate return to baseline",
        "tls": "renew the expired certificate on the upstream named in the log (its owners' "
        "job); nothing in this workload needs changing, and a restart would not help",
        "memrisk": f"raise {f.name}'s memory limit before it is reached, or restart it in a quiet hour "
        "as a stopgap, and have its owners find the leak (heap profile)",
    }.get(kind, "treat the confirmed cause above")
    if kind == "schema":
        chart.not_done.append(
            "no migration rollback: rolling back the last migration drops what was written since "
            "(data loss); it needs the owner's approval first"
        )
    chart.not_done.append(
        f"recommended, awaiting approval: {step}" if approval else f"recommended: {step}"
    )
    owner = ctx.labels.get("team") or f.labels.get("team") or f"the {f.name} owners"
    if approval or kind in ("config", "schema", "init", "pool", "rollout", "memrisk", "oom", "tls"):
        chart.referral.append(
            f"To {owner}{' for approval' if approval or kind == 'schema' else ''}: "
            f"{chart.diagnosis}. Recommended: {step}."
            + (f" Approval needed because {approval}." if approval else "")
        )
    chart.followup.append(
        "after the change: restarts stop, pods Ready, no new OOMKilled/error lines"
    )


async def cure(ex: Exam, chart: Chart, ctx: Ctx, f: Facts, kind: str, c: dict[str, Dx]) -> None:
    from . import operator_heldout44_asks as asks

    if kind == "sched":
        return await asks.fit_requests(ex, chart, ctx, f)
    if kind == "rollout":
        return await asks.undo(ex, chart, ctx, f, "the rollout is the likely cause")
    if kind in ("ready", "dep"):
        why = "pods unhealthy with no config or resource fault found: a restart replaces them"
        if await tx.restart(ex, chart, ctx, f.name, why):
            chart.followup.append(
                "recovery verified; if the readiness failures return, escalate to the owners"
            )
        return
    await advise(chart, ctx, f, kind, c)


async def bare_pod(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, f: Facts) -> None:
    """A pod with no controller: examine it, and replace it when the crash is transient."""
    from . import operator_heldout44_asks as asks

    await examine(ex, chart, f, ctx.ns, deep=False)
    c = await differential(ex, chart, ask, f, "")
    top = chart.ddx[0] if chart.ddx else None
    if not (ask.fix and top and top.kind == "dep" and not ctx.needs_approval()):
        return await uncertain(chart, ctx, f)
    manifest = await ex.k(f"get pod {f.name} -n {ctx.ns} -o yaml")
    ok = await tx.write_step(
        ex,
        chart,
        f"delete pod {f.name} -n {ctx.ns}",
        "the crash is a transient dependency error; a fresh pod retries it (staging, full authority)",
        "the crash-looping pod removed",
    )
    if not ok:
        return
    again = rd.table(await ex.k(f"get pods -n {ctx.ns}"))
    if not any(r["name"] == f.name for r in again):
        await asks.recreate(ex, chart, ctx, f.name, manifest)
    chart.followup.append(
        f"watch {f.name}'s restarts; if the Redis refusals continue, it is not transient: escalate to the Redis owners"
    )
    del c
