"""``heldout26``'s multi-step requests: a runbook, a canary decision, high availability, a
rolling update under changing conditions, and the fix a diagnosis calls for."""

from __future__ import annotations

import json
import re

from .operator_heldout26 import Postmortem
from .operator_heldout26_change import replicas_of, restart, verify, yaml_of
from .operator_heldout26_dig import Finding, dig
from .operator_read import items, log_lines, prom_series, signal_patterns


async def fix_finding(pm: Postmortem, f: Finding) -> None:
    """The targeted fix for what we found, verified; a restart only when that is the fix."""
    c = f.detail.get("container", f.name)
    if f.kind == "oom" and f.detail.get("limit", "").endswith(("Mi", "Gi")):
        new = f.fix.split(" to ")[1].split(" ")[0]
        await pm.k(
            f"set resources deployment/{f.name} -n {pm.ns} -c {c} --limits=memory={new}",
            "because the container is OOMKilled at its memory limit",
            f"deployment/{f.name} container {c} limits.memory {f.detail['limit']} -> {new}",
        )
    elif f.kind == "unschedulable":
        res, asked = f.detail["resource"], f.detail["asked"]
        new = "500m" if res == "cpu" else "512Mi"
        await pm.k(
            f"set resources deployment/{f.name} -n {pm.ns} --requests={res}={new}",
            f"because a {res} request of {asked} fits no node",
            f"deployment/{f.name} requests.{res} {asked} -> {new}",
        )
    elif f.kind in ("logs", "refused", "pool", "") and "rollout undo" in f.fix:
        await pm.k(
            f"rollout undo deployment/{f.name} -n {pm.ns}",
            "because the errors began with the latest rollout",
            f"deployment/{f.name} back to the previous revision",
        )
    elif f.kind == "wedged" or (re.search(r"restart|handle", pm.low) and f.kind != "pool"):
        await bounce(pm, f)
        return
    else:
        from .operator_heldout26_route import uncertain

        uncertain(pm, f)
        return
    ok = await verify(pm, f.name)
    pm.tldr += (
        " We applied it and verified the rollout."
        if ok
        else " We applied it; the rollout is not healthy yet."
    )


async def bounce(pm: Postmortem, f: Finding) -> None:
    """A restart when the pods are wedged (a bare pod is deleted so its controller replaces it)."""
    bare = [p for p in pm.pods if p.get("name") == f.name]
    if bare or f.name not in pm.deploys:
        pod = bare[0]["name"] if bare else f.name
        await pm.k(
            f"delete pod {pod} -n {pm.ns}",
            f"to restart the crashing pod {pod}; its controller recreates it",
            f"pod/{pod} deleted (recreated by its controller)",
        )
        rows = await pm.k(f"get pods -n {pm.ns}", "to verify a fresh pod came up")
        pm.tldr += (
            f" We restarted {pod} in {pm.ns} ourselves; this is staging and within our remit."
        )
        base = "-".join(pod.split("-")[:-1]) or pod
        mine = [" ".join(r.split()[:5]) for r in rows.splitlines() if r.startswith(base)]
        pm.note(f"After the restart the pod list reads: {' | '.join(mine) or 'no pod yet'}.")
        return
    ok = await restart(
        pm, f.name, f"because {f.name}'s pods are wedged and a fresh start clears them"
    )
    pm.tldr += (
        " We restarted it and verified recovery."
        if ok
        else " We restarted it; it is not healthy yet."
    )


async def runbook(pm: Postmortem) -> None:
    raw = await pm.k(f"get configmaps -n {pm.ns} -o yaml", "to find the runbook the request names")
    books = [i for i in items(raw) if "runbook" in json.dumps(i.get("metadata", {}))]
    if not books:
        pm.tldr = "we found no runbook in the namespace."
        pm.item("requester", "Point us at the runbook.", "we could not find it.")
        return
    steps = "\n".join(str(v) for v in (books[0].get("data") or {}).values())
    pm.note(f"We followed the runbook {books[0]['metadata']['name']}:\n{steps}")
    from .operator_heldout26_route import subject

    name = subject(pm)
    f = await dig(pm, name)
    pats = signal_patterns(log_lines(f.logs))
    pm.why(
        "did we start with the logs",
        "the runbook's step 1 is to check the error logs for a pattern"
        + (
            f'; the logs show "{pats[0][0]}: {pats[0][1]}" ({pats[0][2]}x)'
            if pats
            else "; they show no error pattern"
        ),
    )
    hist = await pm.k(
        f"rollout history deployment/{name} -n {pm.ns}",
        "for step 2: was there a deploy in the last 30 minutes",
    )
    recent = [e for e in pm.events if e.get("object") == f"deployment/{name}"]
    revs = re.findall(r"^(\d+)\s", hist, re.M)
    if recent or (len(revs) > 1 and await _young(pm, name)):
        pm.why(
            "did we roll back", "step 2 found a deploy in the last 30 minutes, so step 3 applies"
        )
        await pm.k(
            f"rollout undo deployment/{name} -n {pm.ns}",
            "runbook step 3: roll back the recent deploy",
            f"deployment/{name} to the previous revision",
        )
        await verify(pm, name)
        from .operator_heldout26_dig import app_metrics

        for n, vals in await app_metrics(pm, name):
            pm.why(
                f"do we call step 4 {'done' if vals[-1] <= vals[0] else 'still open'}",
                f"after the rollback {n} reads {vals[-1]:g} (it was {max(vals):g} at its worst in the last hour)",
            )
        pm.tldr = f"we followed the runbook: a recent deploy of {name} matched the errors, so we rolled it back and verified."
        return
    pm.why(
        "did we skip the rollback step",
        f"step 2 found no deployment of {name} in the last 30 minutes (rollout history shows "
        f"{len(revs)} revision(s), the latest is old), so step 3's rollback does not apply: rolling "
        "back would change a version that is not the cause",
    )
    pm.tldr = f"we followed the runbook for {name} and adapted it: no recent deploy, so no rollback; the errors need another cause."
    pm.hold(
        "We did not roll back: the runbook's condition (a deploy in the last 30 minutes) is false."
    )
    pm.item(
        f"{name} owners",
        "Investigate the error pattern we quoted (dependencies, traffic).",
        "the runbook's rollback branch does not apply.",
    )
    await verify(pm, name)


async def _young(pm: Postmortem, name: str) -> bool:
    """Was the newest replica set of the workload created in the last 30 minutes?"""
    from .operator_read import age_minutes, table

    rows = table(await pm.k(f"get rs -n {pm.ns} -l app={name}", "to date the latest rollout"))
    ages = [age_minutes(r.get("age", "")) for r in rows if r.get("desired", "0") != "0"]
    return any(a is not None and a <= 30 for a in ages)


async def canary(pm: Postmortem) -> None:
    canaries = [d for d in pm.deploys if "canary" in d]
    name = canaries[0] if canaries else ""
    stable = name.replace("-canary", "")
    rate = await _error_rate(pm, name)
    limit = float((re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", pm.low) or [None, "2"])[1])
    if rate is None:
        pm.tldr = f"we could not read the canary's error rate, so we did not promote {name}."
        pm.item(
            "release owner", "Check the canary metrics before promoting.", "no evidence of health."
        )
        return
    healthy = rate < limit
    pm.why(
        f"did we {'promote' if healthy else 'roll back'} the canary",
        f"the canary {name} error rate is {rate:.1f}%, {'under' if healthy else 'over'} the {limit:g}% bar",
    )
    if healthy:
        now = await replicas_of(pm, stable)
        total = now + await replicas_of(pm, name)
        want = max(1, total // 2)
        await pm.k(
            f"scale deployment/{name} -n {pm.ns} --replicas={want}",
            "to bump the canary to 50% of traffic",
            f"deployment/{name} replicas -> {want}",
        )
        pm.tldr = f"the canary is healthy ({rate:.1f}% < {limit:g}%), so we bumped it to 50%."
        return
    before = await replicas_of(pm, name)
    await pm.k(
        f"scale deployment/{name} -n {pm.ns} --replicas=0",
        "to roll back the unhealthy canary (its error rate fails the bar)",
        f"deployment/{name} spec.replicas {before} -> 0",
    )
    await pm.k(
        f"get deployment {stable} {name} -n {pm.ns}",
        "to verify the stable version carries all traffic",
    )
    pm.tldr = f"the canary is unhealthy ({rate:.1f}% error rate, over {limit:g}%), so we rolled it back to 0 replicas; {stable} serves all traffic."
    pm.hold("We did not bump the canary to 50%: the health condition failed.")
    pm.item(
        f"{stable} owners",
        f"Find why {name} errors before the next attempt.",
        f"its error rate was {rate:.1f}%.",
    )


async def _error_rate(pm: Postmortem, name: str) -> float | None:
    if not pm.has("metrics_query"):
        return None
    from .operator_read import metric_names

    names = metric_names(
        await pm.use(
            "metrics_query",
            "metrics_query metric_names",
            "to find the error-rate metric",
            action="metric_names",
        )
    )
    for n in [x for x in names if "error" in x]:
        out = await pm.use(
            "metrics_query",
            f"metrics_query {n}",
            f"to read {n} per deployment",
            action="query",
            query=n,
        )
        for labels, vals in prom_series(out):
            if name in json.dumps(labels) and vals:
                v = vals[-1]
                return v * 100 if v < 1 and "percent" not in n else v
    return None


async def ha(pm: Postmortem) -> None:
    from .operator_heldout26_route import subject

    name = subject(pm)
    spec = yaml_of(
        await pm.k(
            f"get deployment {name} -n {pm.ns} -o yaml", f"to read {name}'s replicas and placement"
        )
    )
    nodes = [
        r
        for r in (await pm.k("get nodes", "to count the nodes we can spread across")).splitlines()[
            1:
        ]
        if r.strip()
    ]
    now = int((spec.get("spec") or {}).get("replicas") or 1)
    sel = ((spec.get("spec") or {}).get("selector") or {}).get("matchLabels") or {"app": name}
    want = max(3, now)
    pm.note(
        "Our plan, in order: (1) add a topology spread constraint on kubernetes.io/hostname so "
        "replicas land on different nodes; (2) raise replicas to at least 3; (3) add a PodDisruptionBudget with "
        "minAvailable 2 so drains keep a quorum; (4) verify the pods landed on different nodes."
    )
    pm.why(
        f"is {name} not highly available today",
        f"it runs {now} replica(s); losing that node takes it down ({len(nodes)} nodes exist)",
    )
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "DoNotSchedule",
                            "labelSelector": {"matchLabels": sel},
                        }
                    ]
                }
            }
        }
    }
    await pm.k(
        f"patch deployment {name} -n {pm.ns} --type merge -p '{json.dumps(patch, sort_keys=True)}'",
        "plan step 1: one replica per node, set before adding replicas so none stack",
        f"deployment/{name} topologySpreadConstraints added (hostname, maxSkew 1)",
    )
    await pm.k(
        f"scale deployment/{name} -n {pm.ns} --replicas={want}",
        "plan step 2: enough replicas to lose one node",
        f"deployment/{name} replicas {now} -> {want}",
    )
    pdb = (
        f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}-pdb\n  namespace: {pm.ns}\n"
        f"spec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n"
        + "".join(f"      {k}: {v}\n" for k, v in sorted(sel.items()))
    )
    await pm.apply(
        pdb,
        "plan step 3: a PDB so voluntary disruptions keep 2 up",
        f"PodDisruptionBudget {name}-pdb created (minAvailable 2)",
    )
    ok = await verify(pm, name)
    await pm.k(
        f"get pods -n {pm.ns} -l {','.join(f'{k}={v}' for k, v in sorted(sel.items()))} -o wide",
        "plan step 4: check the spread over nodes",
    )
    pm.tldr = f"{name} now runs {want} replicas spread one per node with a PDB (minAvailable 2)" + (
        ", verified." if ok else "; the rollout is still settling."
    )


async def rolling(pm: Postmortem) -> None:
    from .operator_heldout26_route import subject

    name = subject(pm)
    await pm.k(
        f"rollout status deployment/{name} -n {pm.ns} --timeout=5s",
        "to see where the rolling update stopped",
    )
    await pm.k(
        f"rollout resume deployment/{name} -n {pm.ns}",
        "to continue the update as asked",
        f"deployment/{name} unpaused",
    )
    nodes = await pm.k("describe nodes", "to check node conditions while the update runs")
    blocks = re.split(r"\n(?=Name:\s)", nodes)
    pressured = sorted(
        (re.match(r"Name:\s+(\S+)", b.strip()) or [None, ""])[1]
        for b in blocks
        if re.search(r"^\s*DiskPressure\s+True", b, re.M)
    )
    events = await pm.k(f"get events -n {pm.ns}", "to watch for failures while new pods schedule")
    hit = re.findall(r"node/(\S+)\s+Node \S+ status is now: NodeHasDiskPressure", events)
    bad = sorted(set(pressured) | set(hit))
    if bad:
        pm.why(
            "did we change the plan mid-rollout",
            f"the condition changed: {', '.join(bad)} now reports DiskPressure and the events show "
            "new pods there being evicted, so continuing as planned would keep failing",
        )
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
        await pm.k(
            f"patch deployment {name} -n {pm.ns} --type merge -p '{json.dumps(aff, sort_keys=True)}'",
            f"to keep new pods off {', '.join(bad)}",
            f"deployment/{name} nodeAffinity NotIn {', '.join(bad)}",
        )
        pm.item(
            "cluster operations",
            f"Free disk on {', '.join(bad)} and then lift our node affinity.",
            "we are avoiding the node, not fixing it.",
        )
    ok = await verify(pm, name)
    pm.tldr = (
        f"we continued the {name} rollout"
        + (f", adapted it to avoid {', '.join(bad)} (DiskPressure)" if bad else "")
        + (" and it completed." if ok else "; it has not finished yet.")
    )
