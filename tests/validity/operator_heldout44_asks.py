"""heldout44's requested changes (session 36, written blind): config keys, replicas, restarts,
a runbook, high availability; each checked for blast radius first, done narrowly, read back."""

from __future__ import annotations

import json
import re

from . import operator_heldout44_tx as tx
from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx
from .operator_heldout44_chart import Chart, Exam, first_line
from .operator_heldout44_exam import Facts, examine, figure, named_in


async def node_cpu(ex: Exam) -> tuple[float, int]:
    """(allocatable CPU per node in cores, number of nodes), from ``describe nodes``."""
    text = await ex.k("describe nodes")
    cpus = re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", text)
    vals = [rd.quantity(c) or 0.0 for c in cpus]
    ex.finding(
        "kubectl",
        {"command": "describe nodes"},
        f"{len(vals)} nodes, allocatable cpu " + ", ".join(cpus) if vals else "no node answer",
    )
    return (min(vals) if vals else 0.0), len(vals)


async def fit_requests(ex: Exam, chart: Chart, ctx: Ctx, f: Facts) -> None:
    """Pending on CPU: bring the request under what a node can allocate (half of it)."""
    alloc, _ = await node_cpu(ex)
    req = (f.container().get("resources", {}).get("requests") or {}).get("cpu", "")
    have = rd.quantity(str(req)) or 0.0
    if not alloc or have <= alloc * 0.5:
        chart.not_done.append("no request change: the request already fits a node; escalating")
        return
    new = f"{int(alloc * 0.5 * 10) * 100}m"
    chart.extra.append(
        f"Reasoning for the treatment: each node allocates {figure('cpu', alloc)} cores; a pod "
        f"asking {req} can never be placed. A request of {new} (half a node) leaves room for the "
        "node's other pods; the memory request and the limit are left as they are."
    )
    cmd = f"set resources deployment/{f.name} -n {ctx.ns} -c {f.container().get('name', f.name)} --requests=cpu={new}"
    if await tx.write_step(
        ex,
        chart,
        cmd,
        f"the cpu request {req} exceeds every node's allocatable cpu",
        f"cpu request {req} -> {new}",
    ):
        await tx.verify_rollout(ex, chart, ctx.ns, f.name)
        chart.referral.append(
            f"To the {f.name} owners: its cpu request was cut from {req} to {new} to schedule at all; "
            "if it really needs that much CPU it needs bigger nodes, a capacity decision."
        )


async def undo(ex: Exam, chart: Chart, ctx: Ctx, f: Facts, why: str) -> bool:
    before = f.replicasets[0].get("images", "?") if f.replicasets else "?"
    prior = f.replicasets[1].get("images", "?") if len(f.replicasets) > 1 else "?"
    ok = await tx.write_step(
        ex,
        chart,
        f"rollout undo deployment/{f.name} -n {ctx.ns}",
        why,
        f"image {before} -> {prior}",
    )
    if ok:
        ok = await tx.verify_rollout(ex, chart, ctx.ns, f.name)
        spec = (rd.items(await ex.k(f"get deployment {f.name} -n {ctx.ns} -o yaml")) or [{}])[0]
        image = (
            (spec.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0]
        ).get("image")
        chart.done.append(f"read back: {f.name} now runs {image}")
    return ok


async def error_rate_after(ex: Exam, chart: Chart, ctx: Ctx, name: str) -> None:
    q = f'error_rate{{namespace="{ctx.ns}",service="{name}"}}'
    got = rd.prom_series(await ex.read("metrics_query", action="query", query=q))
    base = rd.prom_series(
        await ex.read(
            "metrics_query", action="query", query=q.replace("error_rate", "normal_error_rate")
        )
    )
    if got and got[0][1]:
        now = got[0][1][-1]
        b = base[0][1][-1] if base and base[0][1] else None
        chart.done.append(
            f"verified with `metrics_query query {q}`: error rate now {figure('error_rate', now)}"
            + (f" (baseline {figure('error_rate', b)})" if b is not None else "")
            + (
                "; back at baseline"
                if b is not None and now <= b * 1.5
                else "; not yet at baseline, keep watching"
            )
        )


async def recreate(ex: Exam, chart: Chart, ctx: Ctx, name: str, manifest: str) -> None:
    """A bare pod deleted has no controller to bring it back: apply its own spec again."""
    doc = (rd.items(manifest) or [{}])[0]
    meta = doc.get("metadata", {})
    spec = {k: v for k, v in doc.get("spec", {}).items() if k != "nodeName"}
    body = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": ctx.ns, "labels": meta.get("labels") or {}},
        "spec": spec,
    }
    out = await ex.read("kubectl", command=f"apply -n {ctx.ns} -f -", stdin=json.dumps(body))
    chart.done.append(
        f"`kubectl apply -n {ctx.ns} -f -` with the pod's own spec (no controller recreates it; "
        f"why: replace, not remove): {first_line(out)}"
    )


async def consumers(ex: Exam, ctx: Ctx, cm: str) -> list[tuple[str, str]]:
    """Deployments that read config map ``cm``: (name, team label)."""
    text = await ex.k(f"get deployments -n {ctx.ns} -o yaml")
    out = []
    for d in rd.items(text):
        if cm in json.dumps(d.get("spec", {}).get("template", {})):
            meta = d.get("metadata", {})
            team = (meta.get("labels") or {}).get("team", "") or (
                meta.get("annotations") or {}
            ).get("team", "")
            out.append((str(meta.get("name")), str(team)))
    return out


async def pick_configmap(ex: Exam, ctx: Ctx, ask: Ask) -> str:
    text = await ex.k(f"get configmaps -n {ctx.ns}")
    names = [r["name"] for r in rd.table(text)]
    named = named_in(ask.text, names)
    if named:
        return named[0]
    for n in names:
        data = (rd.items(await ex.k(f"get configmap {n} -n {ctx.ns} -o yaml")) or [{}])[0].get(
            "data"
        ) or {}
        if any(k in data for k in ask.sets):
            return n
    return ""


async def changes(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, target: list[str]) -> None:
    """Config keys, then replicas, in the order asked; a consumer restarted when asked."""
    chart.complaint = "request for a change: " + " ".join(ask.text.split())
    block = ctx.needs_approval()
    if ctx.production:
        chart.history.append(
            f"namespace {ctx.ns} is PRODUCTION (env={ctx.labels.get('env', 'prod')}): "
            "changes get a server dry run first and are kept to exactly what was asked"
        )
    if block:
        chart.not_done.append(f"nothing changed: {block}; proposing instead: {ask.text.strip()}")
        chart.referral.append(f"Change needs approval ({block}): {ask.text.strip()}")
        return
    if ask.sets:
        ok = await config_change(ex, chart, ctx, ask, target)
        if not ok:
            return
    if ask.replicas or ask.factor:
        name = next((t for t in target), "")
        if name:
            await replica_change(ex, chart, ctx, ask, name)


async def config_change(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, target: list[str]) -> bool:
    cm = await pick_configmap(ex, ctx, ask)
    if not cm:
        chart.not_done.append("no config map holds or is named for " + ", ".join(ask.sets))
        return False
    target = [t for t in target if t != cm]
    users = await consumers(ex, ctx, cm)
    teams = sorted({t for _, t in users if t})
    ex.finding(
        "kubectl",
        {"command": f"get deployments -n {ctx.ns} -o yaml"},
        f"{cm} is read by "
        + (", ".join(f"{n}" + (f" (team {t})" if t else "") for n, t in users) or "no deployment"),
    )
    if len(teams) > 1:
        chart.not_done.append(
            f"{cm} NOT changed: it is shared by {len(users)} workloads of {len(teams)} teams "
            f"({', '.join(teams)}); a change there reaches all of them. Confirm with those teams first"
        )
        chart.referral.append(
            f"To {', '.join(teams)}: OK to change {', '.join(ask.sets)} in shared {cm}?"
        )
        return False
    why = "the operator asked for " + ", ".join(f"{k}={v}" for k, v in ask.sets.items())
    ok, old = await tx.set_keys(ex, chart, ctx, cm, ask.sets, why)
    if not ok:
        return False
    wants_pickup = ask.restart or re.search(r"pick(s)? up|take effect|reload", ask.text.lower())
    if wants_pickup and target:
        for name in target:
            good = await tx.restart(ex, chart, ctx, name, f"{name} reads {cm} only at start")
            if not good:
                await tx.rollback_config(ex, chart, ctx, cm, old, list(ask.sets))
                chart.referral.append(
                    f"{name} did not come back after the restart; config rolled back; owners paged"
                )
                return False
        chart.followup.append(
            f"{', '.join(target)} pods all started after the {cm} change (order: config, restart, verify)"
        )
    return True


async def replica_change(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, name: str) -> None:
    f = Facts(name)
    text = await ex.k(f"get deployment {name} -n {ctx.ns} -o yaml")
    f.spec = (rd.items(text) or [{}])[0]
    now = int(f.spec.get("spec", {}).get("replicas") or 0)
    hpa = await ex.k(f"get hpa -n {ctx.ns}")
    mine = [r for r in rd.table(hpa) if name in r.get("reference", "")]
    ex.finding(
        "kubectl",
        {"command": f"get hpa -n {ctx.ns}"},
        f"HPA on {name}: {mine[0]['name']}" if mine else f"no HPA on {name}",
    )
    if ask.factor:
        alloc, nodes = await node_cpu(ex)
        req = (f.container().get("resources", {}).get("requests") or {}).get("cpu", "?")
        want = tx.capacity_target(f, now, ask.factor, alloc, nodes)
        chart.extra.append(
            f"Calculation: {now} replicas carry today's load; {ask.factor:g}x the load needs "
            f"{now} x {ask.factor:g} = {want} replicas (replicas scale linearly for a stateless worker). "
            f"CPU check: {want} x {req} requested against {nodes} nodes x {figure('cpu', alloc)} cores allocatable: fits."
        )
    else:
        want = int(ask.replicas or now)
    if now and want > now * 10:
        chart.not_done.append(
            f"NOT scaled to {want}: that is {want // max(now, 1)}x the current {now} replicas, far beyond "
            "a normal change; it would exhaust the cluster. Confirm the number and the capacity first"
        )
        chart.referral.append(
            f"Confirm the intended replica count for {name} (asked {want}, running {now})."
        )
        return
    if mine:
        chart.not_done.append(
            f"NOT scaled: HPA {mine[0]['name']} is managing {name} right now; a manual count would "
            "fight the autoscaler and be overwritten (or overwrite it). To pin the count, change the "
            "HPA's min/max with its owner, or remove the HPA on purpose"
        )
        chart.referral.append(
            f"To the {name} owners: confirm how {want} replicas should be held with HPA {mine[0]['name']} active."
        )
        return
    why = f"the operator asked for {want} replicas" if ask.replicas else f"{ask.factor:g}x the load"
    if await tx.scale(ex, chart, ctx, name, want, why):
        chart.followup.append(f"{name} holding {want} replicas, all Ready")


async def plain_restart(ex: Exam, chart: Chart, ctx: Ctx, name: str) -> None:
    chart.complaint = f"request: restart deployment {name}"
    f = Facts(name)
    await examine(ex, chart, f, ctx.ns, deep=False)
    block = ctx.needs_approval()
    if block:
        chart.not_done.append(f"restart not done: {block}")
        return
    if not await tx.restart(ex, chart, ctx, name, "the operator asked for a restart"):
        await ex.k(f"rollout undo deployment/{name} -n {ctx.ns}")
        chart.done.append(
            f"`kubectl rollout undo deployment/{name} -n {ctx.ns}`: the restart did not become healthy, rolled back"
        )
    chart.followup.append(
        "audit trail: every call above is in the tool log, appended in order; I keep no other copy to edit"
    )


async def runbook(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, name: str) -> None:
    """Follow the named runbook step by step, against what the cluster actually shows."""
    text = await ex.k(f"get configmaps -n {ctx.ns} -l app.kubernetes.io/component=runbook -o yaml")
    books = rd.items(text)
    low = ask.text.lower()
    book = next(
        (
            b
            for b in books
            if (b.get("metadata", {}).get("annotations") or {}).get("runbook/name", "~") in low
        ),
        books[0] if books else {},
    )
    steps = str((book.get("data") or {}).get("steps", ""))
    ex.finding(
        "kubectl",
        {"command": f"get configmaps -n {ctx.ns} -l app.kubernetes.io/component=runbook -o yaml"},
        f"runbook {book.get('metadata', {}).get('name', 'not found')}: "
        + " / ".join(s.strip() for s in steps.splitlines()),
    )
    f = Facts(name)
    await examine(ex, chart, f, ctx.ns)
    from .operator_heldout44_work import differential

    await differential(ex, chart, ask, f, "")
    rs = f.replicasets
    age = rd.age_minutes(rs[0].get("age", "")) if rs else None
    recent = bool(rs and len(rs) > 1 and age is not None and age <= 30)
    sig = "; ".join(f'"{lvl}: {m}" x{n}' for lvl, m, n in f.signals[:2]) or "no error pattern"
    chart.extra += [
        "Runbook (as followed):",
        f"- step 1, error logs: {sig}.",
        f"- step 2, deploy in the last 30 minutes: {'YES' if recent else 'no'}, "
        + (
            f"{rs[0].get('images')} {rs[0].get('age')} ago replacing {rs[1].get('images')}."
            if recent
            else "nothing that recent."
        ),
    ]
    if recent and not ctx.needs_approval():
        chart.extra.append(
            "- step 3, recent deploy so roll back to the previous version: done below."
        )
        if await undo(ex, chart, ctx, f, "runbook step 3: a deploy in the last 30 minutes"):
            await error_rate_after(ex, chart, ctx, name)
        chart.extra.append(
            "- step 4, verify the error rate returns to baseline: see the plan's verification."
        )
    else:
        chart.extra.append(
            "- step 3 does not apply (no recent deploy): not rolled back; escalating instead."
        )
        chart.referral.append(
            f"To the {name} owners: error rate elevated with no recent deploy; {sig}."
        )
    chart.followup.append(
        "error_rate at its normal baseline for the next 5 minutes (runbook step 4); re-check then"
    )


async def high_availability(ex: Exam, chart: Chart, ctx: Ctx, name: str) -> None:
    """Replicas spread over nodes, a disruption budget, verified."""
    chart.complaint = f"request: make {name} survive node failures"
    f = Facts(name)
    await examine(ex, chart, f, ctx.ns, deep=False)
    pdb = await ex.kl(
        f"get pdb -n {ctx.ns}",
        lambda t: ", ".join(r["name"] for r in rd.table(t)) or "no PodDisruptionBudget",
    )
    _, nodes = await node_cpu(ex)
    now = int(f.spec.get("spec", {}).get("replicas") or 1)
    want = max(3, now)
    chart.extra += [
        "Plan (each step executed below, in order):",
        f"1. replicas {now} -> {want}, so one node lost leaves {want - 1} serving ({nodes} nodes);",
        "2. pod anti-affinity on kubernetes.io/hostname, so the replicas land on different nodes;",
        f"3. a PodDisruptionBudget minAvailable {want - 1}, so a drain never takes more than one;",
        "4. verify: replicas Ready, spread across nodes, budget in place.",
    ]
    if ctx.needs_approval():
        chart.not_done.append(f"plan not executed: {ctx.needs_approval()}")
        return
    await tx.scale(ex, chart, ctx, name, want, "plan step 1: survive the loss of a node")
    app = f.spec.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "labelSelector": {"matchLabels": app},
                                        "topologyKey": "kubernetes.io/hostname",
                                    },
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    await tx.write_step(
        ex,
        chart,
        f"patch deployment {name} -n {ctx.ns} --type merge -p '{json.dumps(aff, separators=(',', ':'))}'",
        "plan step 2: spread replicas over nodes",
        "affinity none -> podAntiAffinity (hostname)",
    )
    sel = ",".join(f"{k}={v}" for k, v in app.items())
    if name not in pdb:
        await tx.write_step(
            ex,
            chart,
            f"create poddisruptionbudget {name} -n {ctx.ns} --selector={sel} --min-available={want - 1}",
            "plan step 3: keep a quorum through voluntary disruption",
            f"PodDisruptionBudget none -> minAvailable {want - 1}",
        )
    await tx.verify_rollout(ex, chart, ctx.ns, name)
    wide = rd.table(await ex.k(f"get pods -n {ctx.ns} -l {sel} -o wide"))
    spread = sorted({r.get("node", "") for r in wide})
    chart.done.append(
        f"read back `kubectl get pods -n {ctx.ns} -l {sel} -o wide`: {len(wide)} pods on {', '.join(spread)}"
    )
    chart.followup.append(
        "an HPA is the optional next step once the load profile is known (not added: nothing asked for it)"
    )
