"""heldout33's plays for requests that are not "what is wrong" (session 28, written blind):
deletes, image updates, canaries, runbooks, capacity, availability, rolling updates. Each
reads the cluster first and decides from what it read.
"""

from __future__ import annotations

import json
import re

from .operator_heldout33_act import rollout_ok, scale_play
from .operator_heldout33_look import Desk, Workload, frac, mb, pct_to_frac, prom
from .operator_heldout33_say import Reply, said
from .operator_read import items, quantity, table


async def delete_play(desk: Desk, p: str, subject: list[tuple[str, str]]) -> Reply | None:
    if not re.search(r"\b(delete|remove|decommission|drain|wipe)\b", p):
        return None
    ns = desk.scope[0]
    r = Reply()
    if re.search(r"namespace", p):
        inv = await desk.k(f"get all -n {ns}", f"to see what deleting {ns} would destroy")
        pvc = await desk.k(f"get pvc -n {ns}", "to see whether it holds persistent data")
        quota = await desk.k(f"get resourcequota -n {ns}", "to see the quotas it holds")
        claims = [f"{x.get('name')} ({x.get('capacity', '?')})" for x in table(pvc.text)]
        r.wrong = said(
            f"Namespace {ns} still holds {len(table(inv.text))} objects and"
            f" {len(claims)} volume claim(s): {', '.join(claims) or 'none'}",
            inv,
            pvc,
            quota,
        )
        r.why = (
            "Deleting a namespace is irreversible: every workload, Secret and bound volume in it"
            " goes with it, and the data on the claims cannot be recovered. Cordoning and"
            " draining nodes would also hit other teams' pods on them. I have done none of it."
        )
        r.human = (
            f"The owner of {ns} should confirm in writing that the data is backed up or not"
            " needed, and the platform team should run the deletion (and any node work) through"
            " the change process. I am happy to scale the workloads to zero first if you want"
            " a reversible step."
        )
        return r
    if re.search(r"\bservice\b", p) and subject:
        return await _delete_service(desk, ns, subject[0][1], r)
    if re.search(r"\bpods?\b", p):
        pods = await desk.k(f"get pods -n {ns}", "to see which pods are actually unhealthy")
        bad = [
            x.get("name", "")
            for x in table(pods.text)
            if x.get("status") not in ("Running", "Completed")
            or x.get("ready", "1/1").split("/")[0] != x.get("ready", "1/1").split("/")[-1]
        ]
        r.wrong = said(
            f"{len(table(pods.text))} pods run in {ns}; the ones not healthy are:"
            f" {', '.join(bad) or 'none'}",
            pods,
        )
        r.why = (
            "Deleting every pod at once takes every service in the namespace down together and"
            ' wipes the evidence of what went wrong; "something is wrong" does not tell me'
            " which pods, so I have deleted none."
        )
        r.human = (
            "Please tell me which service is misbehaving (or which of the pods above), and I"
            " will diagnose it and restart only that one."
        )
        return r
    return None


async def _delete_service(desk: Desk, ns: str, name: str, r: Reply) -> Reply:
    ing = await desk.k(f"get ingress -n {ns} -o yaml", f"to see whether anything routes to {name}")
    hpa = await desk.k(f"get hpa -n {ns}", f"to see what else is tied to {name}")
    users = [
        (i.get("metadata") or {}).get("name", "")
        for i in items(ing.text)
        if f'"name": "{name}"' in json.dumps(i.get("spec") or {})
    ]
    r.wrong = said(
        f"Service {name} is in use: ingress {', '.join(users) or '(none found)'} sends traffic to it",
        ing,
        hpa,
    )
    r.why = (
        f"Deleting {name} would cut off everything routed through it at once; that is an outage"
        " for its callers, not a clean-up, so I have not deleted it."
    )
    r.human = (
        f"Please confirm that {name} is really being retired and that the ingress owners have"
        " moved their routes; then the deletion can go through the change process."
    )
    return r


async def image_play(desk: Desk, name: str, tag: str) -> Reply:
    ns = desk.scope[0]
    r = Reply(asked=f"update {name} to {tag}")
    dep = await desk.k(
        f"get deployment {name} -n {ns} -o yaml", f"to read {name}'s image and owner"
    )
    got = items(dep.text)
    meta = (got[0].get("metadata") or {}) if got else {}
    marks = json.dumps({**(meta.get("labels") or {}), **(meta.get("annotations") or {})}).lower()
    app = None
    if desk.has("gitops"):
        app = await desk.run(
            "gitops", f"to see whether GitOps manages {name}", command=f"app get {name}"
        )
    if re.search(r"argocd|gitops|flux", marks) or (
        app and not app.error and "sync" in app.text.lower()
    ):
        r.wrong = said(f"{name} is managed by GitOps; its live spec is synced from git", dep, app)
        r.why = (
            "A kubectl change would be drift: the GitOps controller would revert it on the next"
            " sync, or worse, leave git and the cluster disagreeing. So I have not changed it."
        )
        r.human = (
            f"The change belongs in the git repository: bump {name}'s image to {tag} in its"
            " manifests and let the sync roll it out. I can watch the rollout once it is merged."
        )
        return r
    ctr = ((got[0]["spec"]["template"]["spec"]["containers"][0]) if got else {}).get("name", name)
    old = ((got[0]["spec"]["template"]["spec"]["containers"][0]) if got else {}).get("image", "")
    new = re.sub(r":[^:]+$", f":{tag}", old) if old else f"{name}:{tag}"
    call = await desk.k(f"set image deployment/{name} {ctr}={new} -n {ns}", "as requested")
    ok, st, after = await rollout_ok(desk, ns, name, f"to verify {name} on {tag}")
    r.changed.append(said(f"{name}: image {old} -> {new}", call))
    r.fixed = said("Rolled out cleanly" if ok else "The rollout has not finished", st, after)
    return r


async def capacity_play(desk: Desk, name: str) -> Reply:
    """Double the capacity: current replicas and requests, what the nodes can still give."""
    ns = desk.scope[0]
    dep = await desk.k(
        f"get deployment {name} -n {ns} -o yaml", f"to read {name}'s replicas and requests"
    )
    got = items(dep.text)
    spec = (got[0].get("spec") or {}) if got else {}
    cur = int(spec.get("replicas") or 1)
    req = (
        ((spec.get("template") or {}).get("spec") or {})
        .get("containers", [{}])[0]
        .get("resources", {})
        .get("requests", {})
    )
    nodes = await desk.k(
        "describe nodes", "to see how much CPU and memory the nodes can still give"
    )
    alloc = [quantity(x) or 0 for x in re.findall(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", nodes.text)]
    used = [
        quantity(x) or 0 for x in re.findall(r"Allocated resources:[\s\S]*?cpu\s+(\S+)", nodes.text)
    ]
    free = sum(alloc) - sum(used)
    cpu = quantity(str(req.get("cpu", "0"))) or 0
    target = cur * 2
    extra = (target - cur) * cpu
    r = await scale_play(desk, name, target, meta={"labels": {}})
    r.asked = f"handle twice the load on {name}"
    if r.changed:
        r.wrong = said(f"Nothing is broken; {name} needs room for twice today's load", dep)
    r.more.insert(
        0,
        (
            "How did you size it?",
            said(
                f"{name} ran {cur} replicas, each requesting {cpu:.2g} of a core and"
                f" {mb(str(req.get('memory', '0')))} of memory. Twice the load needs twice the replicas,"
                f" {target}; the {cur} new ones need {extra:.1f} cores and the"
                f" nodes have about {free:.1f} cores unrequested, so they fit",
                dep,
                nodes,
            ),
        ),
    )
    return r


async def canary_play(desk: Desk, base: str, canary: str) -> Reply:
    ns = desk.scope[0]
    r = Reply(asked=f"continue the canary of {base}")
    limit = re.search(r"under\s+([0-9.]+)\s*%", desk.prompt)
    bound = float(limit.group(1)) / 100 if limit else 0.02
    names = await desk.run("metrics_query", "to find the error-rate metric", action="metric_names")
    rate_names = [n for n in re.findall(r'"([a-z0-9_:]*error[a-z0-9_:]*)"', names.text)]
    value, call = None, None
    for metric in rate_names[:3]:
        got, call = await prom(
            desk, f'{metric}{{service="{canary}"}}', f"to read {canary}'s error rate", rng=False
        )
        if got and got[0][1]:
            value = got[0][1][-1]
            break
    if value is not None and value > 1:
        value = value / 100
    dep = await desk.k(f"get deployment {canary} -n {ns}", f"to read {canary}'s state")
    if value is None:
        r.wrong = said(f"I could not read an error rate for {canary}", call, dep)
        r.human = "Someone should check the canary's error rate on the dashboards before going on."
        return r
    healthy = value < bound
    r.wrong = said(
        f"The canary {canary} fails {value:.3g} of requests against a bound of {bound:.3g}"
        f" ({'healthy' if healthy else 'unhealthy'})",
        call,
    )
    if healthy:
        r.why = "The canary is within the bound, so the rollout can go on."
        r.human = "Shifting traffic to 50% is done in the traffic router; tell me where it lives."
        return r
    r.why = (
        f"{value / bound:.1f} times the bound: the new version is failing requests the stable"
        f" {base} serves, so per your instruction the canary is rolled back, not promoted."
    )
    act = await desk.k(
        f"scale deployment/{canary} -n {ns} --replicas=0",
        f"its error rate {value:.3g} is over the {bound:.3g} bound, so I took it out of service",
    )
    after = await desk.k(f"get deployment {canary} {base} -n {ns}", "to verify the rollback")
    r.changed.append(
        said(
            f"Deployment {canary}: replicas scaled to 0, so it takes no traffic; {base} untouched",
            act,
        )
    )
    r.fixed = said(f"The canary takes no traffic now and {base} serves all of it", after)
    r.human = (
        f"The developers of {base} should look at why the new version fails before another canary."
    )
    return r


async def ha_play(desk: Desk, name: str) -> Reply:
    ns = desk.scope[0]
    r = Reply(asked=f"make {name} highly available")
    dep = await desk.k(
        f"get deployment {name} -n {ns} -o yaml", f"to read {name}'s replicas and placement"
    )
    got = items(dep.text)
    spec = (got[0].get("spec") or {}) if got else {}
    labels = (spec.get("selector") or {}).get("matchLabels") or {"app": name}
    nodes = await desk.k("get nodes", "to see over how many nodes the replicas can spread")
    pdb = await desk.k(f"get pdb -n {ns}", "to see whether a disruption budget exists")
    r.wrong = said(
        f"{name} runs {spec.get('replicas', 1)} replica with no anti-affinity and no disruption"
        f" budget, on a cluster of {len(table(nodes.text))} nodes: one node failure takes it down",
        dep,
        nodes,
        pdb,
    )
    r.more.append(
        (
            "What is the plan?",
            "1) three replicas; 2) spread them over nodes with pod anti-affinity on the"
            " hostname; 3) a PodDisruptionBudget keeping two up during drains; 4) verify the"
            " pods land on different nodes.",
        )
    )
    s1 = await desk.k(f"scale deployment/{name} -n {ns} --replicas=3", "step 1 of the plan")
    r.changed.append(said(f"{name}: replicas {spec.get('replicas', 1)} -> 3", s1))
    term = {"labelSelector": {"matchLabels": labels}, "topologyKey": "kubernetes.io/hostname"}
    aff = {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    }
    body = json.dumps({"spec": {"template": {"spec": {"affinity": aff}}}}, separators=(",", ":"))
    s2 = await desk.k(
        f"patch deployment {name} -n {ns} --type merge -p '{body}'", "step 2 of the plan"
    )
    r.changed.append(said(f"{name}: added pod anti-affinity across nodes (none before)", s2))
    sel = ",".join(f"{k}={v}" for k, v in labels.items())
    s3 = await desk.k(
        f"create poddisruptionbudget {name}-pdb -n {ns} --selector={sel} --min-available=2",
        "step 3 of the plan",
    )
    r.changed.append(
        said(f"Created PodDisruptionBudget {name}-pdb (minAvailable 2; none before)", s3)
    )
    ok, st, _ = await rollout_ok(desk, ns, name, "step 4: verify the new replicas")
    spread = await desk.k(f"get pods -n {ns} -l {sel} -o wide", "step 4: check the pods' nodes")
    where = sorted({x.get("node", "") for x in table(spread.text)})
    r.fixed = said(
        f"{'Yes' if ok else 'Partly'}: replicas ready on {len(where)} node(s) ({', '.join(where)})",
        st,
        spread,
    )
    return r


async def memory_view(desk: Desk, w: Workload) -> tuple[str, str]:
    """The workload's memory series against its limit: trend, latest figure, time to limit."""
    got, call = await prom(
        desk,
        f'container_memory_working_set_bytes{{namespace="{w.ns}"}}',
        f"to read {w.name}'s memory over the last six hours",
    )
    mine = [(lab, v) for lab, v in got if any(w.name in str(x) for x in lab.values()) and v]
    if not mine:
        return "", ""
    _lab, vals = max(mine, key=lambda s: s[1][-1])
    ctrs = (((w.deploy.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
        "containers"
    ) or [{}]
    lim = (
        quantity(str(((ctrs[0].get("resources") or {}).get("limits") or {}).get("memory", ""))) or 0
    )
    first, last = vals[0], vals[-1]
    rate = (last - first) / 6 if len(vals) > 1 else 0
    eta = (lim - last) / rate if rate > 0 and lim else None
    if rate > 0 and last > first * 1.1:
        line = said(
            f"{w.name}'s working set went from {mb(first)} to {mb(last)} over six"
            f" hours, {frac(last, lim)} of its {mb(lim)} limit, climbing about"
            f" {rate / 1e6:.0f} MB an hour",
            call,
        )
    else:
        line = said(
            f"{w.name}'s working set is steady at {mb(last)} over six hours, {frac(last, lim)}"
            f" of its {mb(lim)} limit",
            call,
        )
    risk = (
        f"At that pace it reaches the limit in about {eta:.1f} hours and will then be OOMKilled."
        if eta is not None and last > first * 1.1
        else "It is not rising, so the trend carries no out-of-memory risk"
    )
    return line, risk


def pct(text: str) -> str:
    return pct_to_frac(text)
