"""The held-out operator of session 25 (``heldout29``): procedures of several steps.

A runbook followed against what the cluster shows, a canary judged against the operator's
threshold, a plan for high availability carried out step by step, and a rollout continued
while the nodes are watched (a node condition that turns bad changes the plan).
"""

from __future__ import annotations

import json
import re

from .operator_heldout29_change import undo_rollout, verify, write
from .operator_heldout29_ctx import REQUEST, Ctx, first_doc, name_of
from .operator_heldout29_diag import log_findings, rollout_finding
from .operator_heldout29_look import Seen, deployment, read_history, selector
from .operator_heldout29_say import Report
from .operator_read import items, prom_series, table


def prod_note(ctx: Ctx, seen: Seen, r: Report) -> bool:
    labels = ", ".join(f"{k}={v}" for k, v in seen.ns_labels.items() if "metadata" not in k)
    if "production" not in labels.lower() and "=prod" not in labels.lower():
        return False
    r.observation.append(
        f"Namespace {ctx.ns} is PRODUCTION (labels: {labels}). Because of this I have checked capacity and HPA first and validated with server dry-run before the real change; change is done in one step and verified immediately."
    )
    return True


async def _metric_now(
    ctx: Ctx, name: str, metric_words: tuple[str, ...], trigger: str
) -> tuple[str, float] | None:
    listing = await ctx.run(
        "metrics_query",
        f"to find which series {name} has",
        trigger,
        action="series",
        query=f'{{namespace="{ctx.ns}", service="{name}"}}',
    )
    metrics = sorted(set(re.findall(r'"__name__": "([a-zA-Z0-9_:]+)"', listing)))
    for metric in metrics:
        if any(w in metric for w in metric_words) and not metric.startswith("normal_"):
            out = await ctx.run(
                "metrics_query",
                f"to read current {metric} of {name}",
                trigger,
                action="query",
                query=f'{metric}{{namespace="{ctx.ns}", service="{name}"}}',
            )
            series = prom_series(out)
            if series and series[0][1]:
                return metric, series[0][1][-1]
    return None


def _pct(value: float) -> str:
    return f"{value * 100:g}%" if value <= 1 else f"{value:g}%"


async def runbook(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    ns = ctx.ns
    name = next((n for n in seen.subject if deployment(seen, n)), "")
    cms = [
        row.get("name", "")
        for row in table(
            await ctx.k(f"get configmaps -n {ns}", "to find the runbook the operator referred")
        )
    ]
    book = next(
        (
            c
            for c in cms
            if "runbook" in c
            and any(w in c for w in re.findall(r"([a-z]+(?:-[a-z]+)+)\s+runbook", ctx.low))
        ),
        "",
    ) or next((c for c in cms if "runbook" in c), "")
    data = (
        (
            first_doc(
                await ctx.k(f"get configmap {book} -n {ns} -o yaml", "to read the runbook steps")
            ).get("data")
            or {}
        )
        if book
        else {}
    )
    steps_text = "\n".join(str(v) for v in data.values())
    r.observation.append(
        f"Runbook {book or 'not found'} says: "
        + " | ".join(ln.strip() for ln in steps_text.splitlines() if ln.strip())[:400]
    )
    # step: error logs
    logs = (
        await ctx.run(
            "logs_query",
            "runbook step: check error logs for pattern",
            f"runbook {book}",
            namespace=ns,
            deployment=name,
            tail=100,
        )
        if ctx.has("logs_query")
        else ""
    )
    errs = log_findings(name, logs)
    r.observation.append(
        f"Step 'check error logs': {errs[0].seen if errs else 'no error pattern in logs'}."
    )
    # step: recent deploy
    await read_history(ctx, seen, name, f"runbook {book}")
    roll = rollout_finding(seen, name)
    rate = await _metric_now(ctx, name, ("error",), f"runbook {book}")
    if rate:
        r.observation.append(f"Current {rate[0]} of {name}: {_pct(rate[1])}.")
    if not roll:
        r.observation.append(
            "Step 'check deploy in last 30 min': no deploy in that window, so rollback step is NOT applicable; I am not rolling back."
        )
        r.rca.append("Errors are not linked to a deploy; RCA not confirmed.")
        r.escalate = f"Escalating to {name} owners with the error pattern above, as runbook has no step for this case."
        return r
    r.observation.append(
        f"Step 'check deploy in last 30 min': {roll.seen}. It is inside the window, so runbook branch 'rollback' applies."
    )
    r.rca.append(
        f"{roll.cause}; the error pattern ({errs[0].seen if errs else 'errors'}) started after it."
    )
    old = roll.fix.rsplit(" to ", 1)[-1]
    ok = await undo_rollout(
        ctx,
        r,
        name,
        old,
        "runbook step: recent deploy found, rollback to previous version",
        f"runbook {book}",
    )
    after = await _metric_now(ctx, name, ("error",), f"runbook {book}: verify step")
    base = await _metric_now(
        ctx, name, ("normal_error", "baseline"), f"runbook {book}: verify step"
    )
    if after:
        r.verification.append(
            f"Runbook step 'verify error rate': {after[0]} now {_pct(after[1])}"
            + (f", baseline {_pct(base[1])}" if base else "")
            + ". "
            + (
                "Back at baseline."
                if base and after[1] <= base[1] * 1.5
                else "Still above baseline as metric window lags; I will re-check in 5 min as runbook says and escalate if not down."
            )
        )
    if not ok:
        r.next_steps.append("Rollback did not complete cleanly, kindly check with app team.")
    r.next_steps.append(
        f"Kindly ask {name} team to fix the error in the new version ({roll.seen.split(' with image ')[-1].split(' created')[0]}) before redeploying."
    )
    return r


async def canary(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    names = [name_of(d) for d in seen.deployments]
    can = next(
        (n for n in names if "canary" in n and any(n.startswith(s) for s in names if s != n)), ""
    ) or next((n for n in names if "canary" in n), "")
    limit = float((re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", ctx.low) or [None, "2"])[1])
    got = await _metric_now(ctx, can, ("error",), REQUEST)
    r.observation.append(
        f"Canary deployment {can}; health condition given: error rate under {limit:g}%."
    )
    if not got:
        r.rca.append("Canary error rate metric is not available, health cannot be confirmed.")
        r.ask = "Kindly share where canary error rate is recorded; I am not moving traffic without a health reading."
        return r
    value = got[1] * 100 if got[1] <= 1 else got[1]
    r.observation.append(f"{got[0]} of {can} is {value:g}% now.")
    if value < limit:
        r.rca.append(f"Canary is healthy ({value:g}% < {limit:g}%).")
        r.ask = "Canary is healthy; kindly confirm the mechanism for 50% traffic (weights) and I will bump it."
        return r
    r.rca.append(
        f"Canary is NOT healthy: error rate {value:g}% is above threshold {limit:g}%. So taking rollback branch, not bumping to 50%."
    )
    dep = first_doc(
        await ctx.k(
            f"get deployment {can} -n {ctx.ns} -o yaml",
            "to note canary replicas before rollback",
            f"finding: canary error rate {value:g}%",
        )
    )
    cur = (dep.get("spec") or {}).get("replicas")
    await write(
        ctx,
        f"scale deployment {can} -n {ctx.ns} --replicas=0",
        "canary failed health check, rolling it back (stable deployment keeps serving)",
        f"finding: canary error rate {value:g}% > {limit:g}%",
        f"replicas={cur}",
        "replicas=0",
    )
    r.actions.append(
        f"Canary {can} is scaled from {cur} to 0 replicas (rolled back). Stable deployment is not touched."
    )
    rows = table(
        await ctx.k(
            f"get deployments -n {ctx.ns}",
            "to verify canary is at 0 and stable is serving",
            f"finding: canary error rate {value:g}%",
        )
    )
    r.verification.append(
        "Deployments now: "
        + ", ".join(
            f"{x.get('name')} {x.get('ready')}"
            for x in rows
            if x.get("name", "").startswith(can.replace("-canary", ""))
        )
        + ". Same is rolled back."
    )
    return r


async def high_availability(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    ns = ctx.ns
    name = next((n for n in seen.subject if deployment(seen, n)), "")
    dep = deployment(seen, name)
    sel = ((dep.get("spec") or {}).get("selector") or {}).get("matchLabels") or {"app": name}
    cur = (dep.get("spec") or {}).get("replicas")
    nodes = table(await ctx.k("get nodes", "to know how many nodes pods can spread on"))
    pdbs = items(await ctx.k(f"get pdb -n {ns} -o yaml", "to check existing disruption budget"))
    await ctx.k(f"get hpa -n {ns}", "to check autoscaler before changing replicas")
    r.observation.append(
        f"{name} runs {cur} replica, no anti-affinity, PDB: {', '.join(name_of(p) for p in pdbs) or 'none'}; cluster has {len(nodes)} nodes."
    )
    r.rca.append(
        "Single replica on one node is single point of failure; node failure means full outage."
    )
    r.actions.append(
        "Plan: 1) scale to 3 replicas, 2) add pod anti-affinity on kubernetes.io/hostname so replicas go to different nodes, 3) create PDB minAvailable 2, 4) verify pods spread and PDB healthy."
    )
    want = min(3, max(len(nodes), 2))
    patch = {
        "spec": {
            "replicas": want,
            "template": {
                "spec": {
                    "affinity": {
                        "podAntiAffinity": {
                            "preferredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "weight": 100,
                                    "podAffinityTerm": {
                                        "labelSelector": {"matchLabels": sel},
                                        "topologyKey": "kubernetes.io/hostname",
                                    },
                                }
                            ]
                        }
                    }
                }
            },
        }
    }
    ok = await write(
        ctx,
        f"patch deployment {name} -n {ns} --type=strategic -p '{json.dumps(patch)}'",
        "plan steps 1-2: more replicas and spread over nodes",
        REQUEST,
        f"replicas={cur}, affinity none",
        f"replicas={want}, podAntiAffinity hostname",
    )
    r.actions.append(
        f"Step 1-2 done: {name} replicas {cur} -> {want} with preferred anti-affinity per node (preferred, not required, so rolling update surge pod is not stuck Pending)."
        if ok
        else "Step 1-2 failed, stopping."
    )
    if not ok:
        return r
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"minAvailable": want - 1, "selector": {"matchLabels": sel}},
    }
    await ctx.run(
        "kubectl",
        "plan step 3: keep at least 2 pods during node drain",
        REQUEST,
        True,
        command=f"apply -n {ns} -f -",
        stdin=json.dumps(pdb),
    )
    step = ctx.last()
    step.before, step.after = "no PDB", f"PDB {name} minAvailable={want - 1}"
    r.actions.append(
        f"Step 3 {'done' if not step.failed else 'FAILED'}: PDB {name} with minAvailable {want - 1}."
    )
    await verify(ctx, r, name, REQUEST)
    wide = table(
        await ctx.k(
            f"get pods -n {ns} -l {selector(dep)} -o wide",
            "step 4: verify replicas are on different nodes",
            REQUEST,
        )
    )
    spread = sorted({p.get("node", "") for p in wide})
    r.verification.append(f"Pods are on nodes: {', '.join(spread)} ({len(spread)} distinct).")
    return r
