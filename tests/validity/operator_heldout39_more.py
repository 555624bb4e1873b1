"""heldout39's multi-step plays: a canary decision, a runbook, making a service highly
available, and continuing a paused rollout while watching the nodes it lands on.
"""

from __future__ import annotations

import json
import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import Ctx, approval_needed, start, subject
from .operator_heldout39_sheet import Sheet


async def canary(sheet: Sheet, prompt: str) -> None:
    """Read the canary's error rate against the request's threshold and take that branch."""
    ctx = await start(sheet)
    cans = [n for n in ctx.names if "canary" in n]
    base = subject(prompt, ctx)
    stable = next((n for n in base if "canary" not in n), "")
    if not cans:
        sheet.found.append("no canary deployment found in scope")
        sheet.status = "escalated"
        return
    can = cans[0]
    w = await look.workload(sheet, ctx.ns, can)
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", prompt) or re.search(
        r"(\d+(?:\.\d+)?)\s*%", prompt
    )
    limit = float(m.group(1)) / 100 if m else 0.02
    out = await sheet.read(
        f"read the canary's error rate against the {limit:.0%} limit",
        tool="metrics_query",
        action="query",
        query=f'error_rate{{service="{can}"}}',
    )
    vals = [v for _, vs in rd.prom_series(out) for v in vs]
    rate = vals[-1] if vals else None
    sheet.saw(f"{rate:.1%}" if rate is not None else "no series")
    if rate is None:
        sheet.found.append(f"no error-rate series for {can}; cannot judge the canary")
        sheet.todo.append("follow-up: canary has no error metric; hold the rollout until it does")
        sheet.status = "escalated"
        return
    healthy = rate < limit
    sheet.found.append(
        f"canary {can} error rate {rate:.1%} vs limit {limit:.0%}: "
        + (
            "healthy, proceed to 50%"
            if healthy
            else "NOT healthy -> roll back the canary, do not bump to 50%"
        )
    )
    if approval_needed(sheet, ctx):
        sheet.status = "escalated"
        return
    if healthy:
        n = max(w.replicas, 1)
        target = int(stable and (await look.workload(sheet, ctx.ns, stable)).replicas) or n
        await sheet.write(
            "canary healthy: bump it to half the traffic (as many pods as stable)",
            before=f"{w.replicas} replicas",
            command=f"scale deployment/{can} -n {ctx.ns} --replicas={target}",
        )
        sheet.result(f"{target} replicas")
        sheet.status = "mitigated"
        return
    await sheet.write(
        f"canary error rate {rate:.1%} is over {limit:.0%}: take it out of traffic",
        before=f"{w.replicas} replica(s), image {look.image(w)}",
        command=f"scale deployment/{can} -n {ctx.ns} --replicas=0",
    )
    out = await sheet.read(f"verify {can} is at 0", command=f"get deployment {can} -n {ctx.ns}")
    rows = rd.table(out)
    sheet.saw(f"{rows[0].get('ready') if rows else '?'} ready")
    sheet.lines[-2].after = "0 replicas (canary out of traffic)"
    if stable:
        out = await sheet.read(
            f"verify stable {stable} still serves", command=f"get deployment {stable} -n {ctx.ns}"
        )
        rows = rd.table(out)
        sheet.saw(f"{rows[0].get('ready') if rows else '?'} ready")
    sheet.done.append(
        f"verified: canary {can} at 0 replicas; stable {stable or 'deployment'} unchanged and serving"
    )
    sheet.todo.append(
        f"follow-up: {can}'s owner to look at {look.image(w)} before another canary ({rate:.1%} errors)"
    )
    sheet.status = "mitigated (canary rolled back)"


async def runbook(sheet: Sheet, prompt: str) -> None:
    """Find the runbook the request names, run its steps against what the cluster shows."""
    ctx = await start(sheet)
    cms = rd.table(await sheet.read("find the runbook", command=f"get configmaps -n {ctx.ns}"))
    sheet.saw(", ".join(r["name"] for r in cms))
    wanted = re.search(r"(?:the\s+)?([a-z0-9-]+)\s+runbook", prompt.lower())
    book = next((r["name"] for r in cms if wanted and wanted.group(1) in r["name"]), "")
    steps: list[str] = []
    if book:
        out = await sheet.read(
            f"read runbook {book}", command=f"get configmap {book} -n {ctx.ns} -o yaml"
        )
        data = (rd.load_yaml(out) or {}).get("data") or {}
        text = str(data.get("steps") or "\n".join(str(v) for v in data.values()))
        steps = [re.sub(r"^\s*\d+[.)]\s*", "", s).strip() for s in text.splitlines() if s.strip()]
        sheet.saw(f"{len(steps)} steps")
    names = subject(prompt, ctx)
    if not names:
        sheet.found.append("no workload named")
        sheet.status = "escalated"
        return
    w = await look.workload(sheet, ctx.ns, names[0])
    w.logs = await look.logs(sheet, w)
    sig = rd.signal_patterns(w.logs)
    sheet.found.append(
        "step 1 (error logs): "
        + (f'"{sig[0][0]}: {sig[0][1]}" x{sig[0][2]}' if sig else "no error pattern in the logs")
    )
    rs = await look.replicasets(sheet, w)
    fresh = [
        r for r in rs if (rd.age_minutes(r.get("age", "")) or 1e9) <= 30 and r.get("desired") != "0"
    ]
    old = [r for r in rs if r not in fresh]
    names_m = await look.metric_names(sheet)
    await look.app_series(sheet, w, [n for n in names_m if "error" in n])
    err = w.series.get("error_rate") or []
    base = w.series.get("normal_error_rate") or []
    if err:
        sheet.found.append(
            f"error rate {look.fmt(err[-1])} vs baseline {look.fmt(base[-1]) if base else '?'}"
        )
    if not fresh or not old:
        sheet.found.append(
            "step 2 (deploy in last 30 min): no; step 3 skipped (nothing to roll back to)"
        )
        sheet.todo.append(
            "follow-up: errors without a recent deploy; escalate to the service owner with the log pattern"
        )
        sheet.status = "escalated"
        return
    prev = old[0]
    sheet.found.append(
        f"step 2 (deploy in last 30 min): yes, {fresh[0].get('images')} rolled out {fresh[0].get('age')} ago "
        f"(previous {prev.get('images')})"
    )
    if approval_needed(sheet, ctx):
        sheet.status = "escalated"
        return
    await _roll_back(sheet, ctx, w, fresh[0], prev, names_m, base)


async def _roll_back(
    sheet: Sheet,
    ctx: Ctx,
    w: look.Work,
    new: dict,
    prev: dict,
    names_m: list[str],
    base: list[float],
) -> None:
    """Runbook steps 3 and 4: roll back the recent deploy, then check the error rate."""
    await sheet.write(
        f"runbook step 3: recent deploy -> roll back to {prev.get('images')}",
        before=f"image {new.get('images')}",
        command=f"rollout undo deployment/{w.name} -n {ctx.ns}",
    )
    await sheet.read(
        f"wait for {w.name}'s rollback",
        command=f"rollout status deployment/{w.name} -n {ctx.ns} --timeout=120s",
    )
    out = await sheet.read(
        f"confirm {w.name}'s image after the rollback",
        command=f"get deployment {w.name} -n {ctx.ns} -o yaml",
    )
    doc = rd.load_yaml(out) or {}
    imgs = [
        c.get("image")
        for c in doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    ]
    sheet.saw(", ".join(map(str, imgs)))
    sheet.lines[-3].after = f"image {', '.join(map(str, imgs))}"
    w.series = {}
    await look.app_series(sheet, w, [n for n in names_m if "error" in n])
    after = w.series.get("error_rate") or []
    sheet.found.append(
        f"step 4 (verify): error rate now {look.fmt(after[-1]) if after else '?'} vs baseline {look.fmt(base[-1]) if base else '?'}"
    )
    back = bool(after and base and after[-1] <= base[-1] * 2)
    sheet.todo.append(
        ("follow-up: " if back else "follow-up (open): error rate not back at baseline yet; ")
        + f"re-check error_rate within the runbook's 5 min window; owner to fix {new.get('images')} before redeploying"
    )
    sheet.status = (
        "mitigated"
        if back
        else "mitigated (rollback done), verifying: error rate still above baseline"
    )


async def high_availability(sheet: Sheet, prompt: str) -> None:
    """Plan and carry out: 3 replicas, spread across nodes, a disruption budget; verify."""
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    if not names:
        sheet.status = "escalated"
        return
    name = names[0]
    w = await look.workload(sheet, ctx.ns, name)
    nodes = rd.table(await sheet.read("count the nodes to spread over", command="get nodes"))
    sheet.saw(f"{len(nodes)} nodes")
    out = await sheet.read(
        f"check existing PDBs and autoscalers for {name}", command=f"get pdb,hpa -n {ctx.ns}"
    )
    sheet.saw("none for it" if name not in out else "found some")
    n = max(3, w.replicas)
    sheet.plan += [
        "add pod anti-affinity on kubernetes.io/hostname so replicas land on different nodes",
        f"scale {name} {w.replicas} -> {n} replicas (after the anti-affinity, so they spread)",
        f"create PodDisruptionBudget {name} with minAvailable 2",
        "verify: 3 ready pods on 3 different nodes, PDB allows 1 disruption",
    ]
    if approval_needed(sheet, ctx):
        sheet.status = "escalated"
        return
    await _make_ha(sheet, ctx, w, n)


async def _make_ha(sheet: Sheet, ctx: Ctx, w: look.Work, n: int) -> None:
    """The HA plan's steps, each verified."""
    name = w.name
    labels = w.spec.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "labelSelector": {"matchLabels": labels},
                                    "topologyKey": "kubernetes.io/hostname",
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    await sheet.write(
        "plan step 1: never two replicas on one node",
        before="no affinity",
        command=f"patch deployment {name} -n {ctx.ns} --type merge -p '{json.dumps(aff, separators=(',', ':'))}'",
    )
    sheet.result("podAntiAffinity required on kubernetes.io/hostname")
    await sheet.read(
        f"let {name} roll onto the new template",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    await sheet.write(
        "plan step 2: more than one replica so a node loss leaves pods serving",
        before=f"{w.replicas} replica",
        command=f"scale deployment/{name} -n {ctx.ns} --replicas={n}",
    )
    sheet.result(f"{n} replicas")
    pdb = (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n"
        f"  name: {name}\n  namespace: {ctx.ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n"
        + "".join(f"      {k}: {v}\n" for k, v in labels.items())
    )
    await sheet.write(
        "plan step 3: keep 2 pods up through drains and upgrades",
        before="no PDB",
        command="apply -f -",
        stdin=pdb,
    )
    sheet.result(f"PDB {name} minAvailable 2")
    await sheet.read(
        f"plan step 4: wait for {name}",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    out = await sheet.read(
        f"verify where {name}'s pods run", command=f"get pods -n {ctx.ns} -l {w.selector} -o wide"
    )
    rows = rd.table(out)
    spread = sorted({r.get("node", "") for r in rows if r.get("status") == "Running"})
    sheet.saw(f"{look.pod_summary(rows)} on {', '.join(spread)}")
    out = await sheet.read("verify the PDB", command=f"get pdb {name} -n {ctx.ns}")
    sheet.saw(" ".join(out.splitlines()[1].split()) if len(out.splitlines()) > 1 else "?")
    sheet.done.append(
        f"verified: {look.pod_summary(rows)} across {len(spread)} nodes; PDB in place"
    )
    sheet.status = "mitigated" if len(spread) >= 2 else "escalated"


async def continue_rollout(sheet: Sheet, prompt: str) -> None:
    """Resume a paused rollout; if a node goes bad meanwhile, keep new pods off it."""
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    if not names:
        sheet.status = "escalated"
        return
    name = names[0]
    w = await look.workload(sheet, ctx.ns, name)
    rs = await look.replicasets(sheet, w)
    paused = bool(w.spec.get("spec", {}).get("paused"))
    sheet.found.append(
        f"{name}: rollout {'paused' if paused else 'in progress'}; replica sets "
        + "; ".join(
            f"{r.get('name')} {r.get('ready')}/{r.get('desired')} {r.get('images')}" for r in rs
        )
    )
    bad = await _bad_nodes(sheet, ctx.ns)
    if approval_needed(sheet, ctx):
        sheet.status = "escalated"
        return
    if bad:
        await _avoid(sheet, ctx, w, bad)
    if paused:
        await sheet.write(
            "the request asks to continue the rollout",
            before="paused",
            command=f"rollout resume deployment/{name} -n {ctx.ns}",
        )
        sheet.result("resumed")
    await sheet.read(
        f"watch {name}'s rollout",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    later = await _bad_nodes(sheet, ctx.ns, again=True)
    new = [b for b in later if b not in bad]
    if new:
        sheet.found.append(
            f"conditions changed during the rollout: {', '.join(new)} reports DiskPressure / not ready"
        )
        await _avoid(sheet, ctx, w, later)
        await sheet.read(
            f"watch {name}'s rollout after the change",
            command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
        )
    out = await sheet.read(
        f"verify where {name}'s pods run", command=f"get pods -n {ctx.ns} -l {w.selector} -o wide"
    )
    rows = rd.table(out)
    on_bad = [r["name"] for r in rows if r.get("node") in later and r.get("status") == "Running"]
    sheet.saw(
        look.pod_summary(rows) + "; nodes " + ", ".join(sorted({r.get("node", "") for r in rows}))
    )
    sheet.done.append(
        f"verified: {look.pod_summary(rows)}"
        + (f"; none running on {', '.join(later)}" if later and not on_bad else "")
    )
    if later:
        sheet.todo.append(
            f"node owner: {', '.join(later)} under DiskPressure (evictions seen); clean up disk, then lift the exclusion from {name}"
        )
    sheet.status = "mitigated" if not on_bad else "escalated"


async def _bad_nodes(sheet: Sheet, ns: str, again: bool = False) -> list[str]:
    out = await sheet.read(
        "re-check node conditions before going on"
        if again
        else "check the nodes the pods will land on",
        command="get nodes",
    )
    rows = rd.table(out)
    ev = await sheet.read("look for node pressure events", command=f"get events -n {ns}")
    bad = sorted(
        {
            m.group(1)
            for m in re.finditer(
                r"node/(\S+)\s+Node \S+ status is now: NodeHas(?:Disk|Memory|PID)Pressure", ev
            )
        }
    )
    bad += [r["name"] for r in rows if r.get("status") not in ("Ready",) and r["name"] not in bad]
    sheet.saw(", ".join(f"{b} under pressure" for b in bad) or "all nodes Ready, no pressure")
    if bad and not again:
        sheet.found.append(
            f"conditions changed during the rollout: {', '.join(bad)} reports DiskPressure / not ready (pods evicted there)"
        )
    return bad


async def _avoid(sheet: Sheet, ctx: Ctx, w: look.Work, bad: list[str]) -> None:
    aff = {
        "spec": {
            "template": {
                "spec": {
                    "affinity": {
                        "nodeAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": {
                                "nodeSelectorTerms": [
                                    {
                                        "matchExpressions": [
                                            {
                                                "key": "kubernetes.io/hostname",
                                                "operator": "NotIn",
                                                "values": bad,
                                            }
                                        ]
                                    }
                                ]
                            }
                        }
                    }
                }
            }
        }
    }
    await sheet.write(
        f"adapt the rollout: keep new {w.name} pods off {', '.join(bad)} (DiskPressure)",
        before="no node constraint",
        command=f"patch deployment {w.name} -n {ctx.ns} --type merge -p '{json.dumps(aff, separators=(',', ':'))}'",
    )
    sheet.result(f"nodeAffinity: hostname NotIn {bad}")
