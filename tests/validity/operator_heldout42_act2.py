"""heldout42: rollouts, restarts, canaries, runbooks and availability, each verified."""

from __future__ import annotations

import json
import re

from . import operator_heldout42_look as lk
from . import operator_heldout42_obs as obs
from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import percent, plural, spoken, words


async def _status(b: Bridge, dep: str, why: str = "to check every pod comes up") -> bool:
    st = await b.kubectl(
        f"rollout status deployment/{dep} -n {b.ns} --timeout=90s", "watched the rollout", why
    )
    b.saw(st.strip().splitlines()[-1] if st.strip() else "")
    return "successfully rolled out" in st


async def restart(b: Bridge) -> None:
    names = b.named(b.deployments)
    if not names:
        out = await b.kubectl(
            f"get pods -n {b.ns} --show-labels",
            f"listed the pods in {b.ns}",
            "to see which ones you meant",
        )
        b.saw(f"{plural(len(rd.table(out)), 'pod')}")
        b.found["subject"] = "the restart you asked for"
        b.add(
            "not_done",
            "I didn't restart anything. What you named matches more than one workload's pods, and restarting by a broad label would hit services that are fine",
        )
        b.add(
            "plan",
            "tell me the exact deployment and I'll restart just that one and watch it come back",
        )
        return
    dep = names[0]
    b.found["subject"] = f"the {spoken(dep)} deployment"
    look = await lk.spec(b, dep)
    await lk.pods(b, look)
    if b.read_only or b.needs_approval:
        b.add("not_done", f"I didn't restart {dep}, writes here need approval")
        return
    await b.kubectl(
        f"rollout restart deployment/{dep} -n {b.ns}",
        f"restarted the {spoken(dep)} deployment with a rolling restart",
        "because you asked, and a rolling restart keeps it serving while pods are replaced",
    )
    ok = await _status(b, dep)
    await lk.pods(b, look)
    b.add("did", f"rolling restart of deployment {dep}, replicas stay at {words(look.replicas)}")
    b.add(
        "verified",
        f"the rollout {'finished' if ok else 'did not finish'} and {lk.pod_count_said(look)}",
    )


async def fix_from_cause(b: Bridge, look: lk.Look, known: str) -> None:
    """Act on a found cause only where the act is narrow and undoable: a bad pod replaced."""
    name = look.name
    bad = [p for p in look.pods if not lk._ready(p)]
    if (
        "migration" in known
        or "migration" in b.low
        or re.search(
            r"column|relation|schema", " ".join(ln.message for ln in look.logs + look.previous)
        )
    ):
        from .operator_heldout42_pod import migration_plan

        await migration_plan(b, look)
        return
    if b.read_only or b.needs_approval:
        b.add("not_done", "I didn't change anything, writes here need approval")
        return
    if bad and len(bad) < len(look.pods):
        pod = bad[0].get("name", "")
        await b.kubectl(
            f"delete pod {pod} -n {b.ns}",
            f"deleted the one bad pod, {pod}",
            f"because it's the only {spoken(name)} pod that's unhealthy and its replica set will replace it, the healthy ones keep serving",
        )
        await _status(b, name, "to check the replacement comes up")
        await lk.pods(b, look)
        b.add("did", f"replaced pod {pod} of {name}")
        b.add("verified", f"after the replacement: {lk.pod_count_said(look)}")
        return
    if bad:
        await b.kubectl(
            f"rollout restart deployment/{name} -n {b.ns}",
            f"restarted {spoken(name)}",
            "because every pod is stuck in the same state and a fresh start clears it",
        )
        await _status(b, name)
        await lk.pods(b, look)
        b.add("did", f"rolling restart of {name}")
        b.add("verified", f"after the restart: {lk.pod_count_said(look)}")


async def runbook(b: Bridge) -> None:
    out = await b.kubectl(
        f"get configmaps -n {b.ns}", "listed the config maps", "to find the runbook you named"
    )
    names = [r.get("name", "") for r in rd.table(out) if "runbook" in r.get("name", "")]
    words_in = set(re.findall(r"[a-z]+", b.low))
    names.sort(key=lambda n: -len(set(n.split("-")) & words_in))
    if not names:
        b.add("findings", "I couldn't find that runbook")
        return
    rb = names[0]
    doc = await b.kubectl(
        f"get configmap {rb} -n {b.ns} -o yaml",
        f"opened the runbook {rb}",
        "because you asked me to follow it",
    )
    data = (rd.items(doc) or [{}])[0].get("data") or {}
    text = "\n".join(str(v) for v in data.values())
    steps = [s.strip() for s in re.findall(r"^\s*\d+[.)]\s*(.+)$", text, re.M)]
    b.saw(f"{plural(len(steps), 'step')}")
    b.found["subject"] = f"the {spoken(rb)} runbook"
    from .operator_heldout42_diag import incident

    b.add(
        "findings",
        "the runbook steps: " + "; ".join(f"step {words(i + 1)}, {s}" for i, s in enumerate(steps)),
    )
    await incident(b)
    await _runbook_rollback(b, steps)


async def _runbook_rollback(b: Bridge, steps: list[str]) -> None:
    """The runbook's rollback step, taken only when its own condition holds (a recent deploy)."""
    step = next((s for s in steps if "rollback" in s.lower() or "roll back" in s.lower()), "")
    rows = b.found.get("replicasets") or []
    names = b.named(b.deployments)
    if not step or not rows or not names:
        return
    m = re.search(r"(\d+)\s*min", " ".join(steps))
    window = int(m.group(1)) if m else 30
    newest = min(rows, key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    age = rd.age_minutes(newest.get("age", "")) or 1e9
    dep = names[0]
    if age > window:
        b.add(
            "findings",
            f"the last deploy was {newest.get('age')} ago, outside the runbook's {words(window)} minutes, so I skipped its rollback step",
        )
        return
    if b.read_only or b.needs_approval:
        b.add("not_done", "the runbook says roll back, but writes here need approval")
        return
    await b.kubectl(
        f"rollout undo deployment/{dep} -n {b.ns}",
        f"rolled {spoken(dep)} back to the previous revision",
        f"that's the runbook's rollback step, and its condition holds: the last deploy was {newest.get('age')} ago, inside {words(window)} minutes",
    )
    await _status(b, dep)
    got = await obs.series(b, dep)
    rate = got.get("error_rate") or []
    b.add(
        "did",
        f"deployment {dep}: rolled back from the newest revision to the one before, per the runbook",
    )
    if rate:
        b.add(
            "verified",
            f"after the rollback the error rate reads {percent(rate[-1] * 100 if rate[-1] <= 1 else rate[-1])}; the runbook gives it five minutes to get back to baseline, so I'll keep watching it",
        )


async def canary(b: Bridge) -> None:
    names = [d for d in b.deployments if "canary" in d]
    if not names:
        b.add("findings", "I couldn't find a canary deployment")
        return
    can = names[0]
    stable = next((d for d in b.deployments if d != can and can.startswith(d)), "")
    b.found["subject"] = f"the {spoken(can)} rollout"
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", b.low)
    limit = float(m.group(1)) if m else 2.0
    got = await obs.series(b, can)
    rate = got.get("error_rate") or []
    if not rate:
        b.add(
            "findings", "I couldn't read the canary's error rate, so I haven't moved it either way"
        )
        return
    now = rate[-1] * 100 if rate[-1] <= 1 else rate[-1]
    healthy = now < limit
    b.add(
        "findings",
        f"the canary's error rate is {percent(now)}, the bar is under {percent(limit)}, so it's {'healthy' if healthy else 'not healthy'}",
    )
    look = await lk.spec(b, can)
    if healthy:
        b.add("plan", "bump the canary to fifty percent")
        return
    await b.kubectl(
        f"scale deployment/{can} -n {b.ns} --replicas=0",
        f"rolled back the canary by scaling {can} to zero",
        f"because its error rate is {percent(now)}, over the {percent(limit)} bar, so the rule you gave says roll back",
    )
    after = await lk.spec(b, can)
    b.add(
        "did",
        f"deployment {can}: replicas went from {look.replicas} to {after.replicas}; {stable or 'the stable deployment'} keeps all the traffic, untouched",
    )
    b.add("verified", f"read {can} back, it's at {words(after.replicas)} replicas")
    b.add(
        "escalate",
        f"the owners of {spoken(stable or can)} should look at the canary build's errors before another try",
    )


async def continue_rollout(b: Bridge) -> None:
    names = b.named(b.deployments)
    if not names:
        return
    dep = names[0]
    b.found["subject"] = f"the {spoken(dep)} rolling update"
    look = await lk.spec(b, dep)
    rs = await b.kubectl(
        f"get replicasets -n {b.ns} -l {lk._selector(look)}",
        "listed its replica sets",
        "to see where the update stopped",
    )
    b.saw(f"{plural(len(rd.table(rs)), 'replica set')}")
    await b.kubectl(
        f"rollout resume deployment/{dep} -n {b.ns}",
        f"resumed the {spoken(dep)} rollout",
        "because you asked me to continue it",
    )
    nodes = await b.kubectl(
        "get nodes",
        "checked the nodes",
        "because a rollout needs somewhere healthy to put the new pods",
    )
    ev = await b.kubectl(
        f"get events -n {b.ns}",
        f"pulled the events in {b.ns}",
        "to see whether anything changed while it rolls",
    )
    pressure = re.findall(r"node/(\S+)\s+Node \S+ status is now: Node(Has\w+Pressure)", ev)
    if not pressure:
        pressure = [
            (r.get("name", ""), r.get("status", ""))
            for r in rd.table(nodes)
            if "Pressure" in r.get("status", "") or "NotReady" in r.get("status", "")
        ]
    if pressure:
        await _adapt(b, dep, look, *pressure[0])
        return
    ok = await _status(b, dep)
    await lk.pods(b, look)
    b.add("did", f"resumed the rollout of {dep}")
    b.add(
        "verified",
        f"the rollout {'finished' if ok else 'has not finished'}, {lk.pod_count_said(look)}",
    )


async def _adapt(b: Bridge, dep: str, look: lk.Look, node: str, what: str) -> None:
    """A node gone bad mid-rollout: pause, keep the new pods off it, resume, verify."""
    b.saw(f"{node} just went into {what}, and pods there are being evicted")
    await b.kubectl(
        f"rollout pause deployment/{dep} -n {b.ns}",
        f"paused the {spoken(dep)} rollout",
        f"because {node} went into {what} mid-rollout and new pods landing there fail",
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
                                                "values": [node],
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
    await b.kubectl(
        f"patch deployment {dep} -n {b.ns} --type strategic -p '{json.dumps(aff)}'",
        f"kept {spoken(dep)}'s new pods off {node} with a node affinity rule",
        "because that node has disk pressure, and it's a change to our own deployment only, not to the shared node",
    )
    await b.kubectl(
        f"rollout resume deployment/{dep} -n {b.ns}",
        "resumed the rollout",
        "now that new pods go to the healthy nodes only",
    )
    ok = await _status(b, dep)
    await lk.pods(b, look)
    b.add(
        "findings",
        f"{node} went into {what} after I resumed the update, which changed the plan",
    )
    b.add("did", f"paused {dep}, added a node affinity keeping its pods off {node}, resumed {dep}")
    b.add(
        "verified",
        f"the rollout {'finished' if ok else 'has not finished'}, {lk.pod_count_said(look)}",
    )
    b.add(
        "escalate",
        f"the platform team should look at the disk on {node}; once it's clean we can drop the affinity rule",
    )


async def make_ha(b: Bridge) -> None:
    names = b.named(b.deployments)
    if not names:
        return
    dep = names[0]
    b.found["subject"] = f"making the {spoken(dep)} deployment highly available"
    look = await lk.spec(b, dep)
    nodes = rd.table(
        await b.kubectl(
            "get nodes", "listed the nodes", "to know how many failure domains there are"
        )
    )
    n = len(nodes)
    pdb = await b.kubectl(
        f"get pdb -n {b.ns}",
        "checked for a disruption budget",
        "so drains can't take every replica at once",
    )
    has_pdb = any(dep in r.get("name", "") for r in rd.table(pdb))
    want = max(look.replicas, min(3, n) if n else 3)
    app = look.selector or {"app": dep}
    b.add(
        "plan",
        f"one, run {words(want)} replicas; two, spread them one per node so a node failure takes one at most; three, a disruption budget keeping at least {words(want - 1)} up; four, check they landed on different nodes",
    )
    if b.read_only or b.needs_approval:
        b.add("not_done", "writes here need approval, so this is the plan only")
        return
    await _ha_apply(b, look, want, app, has_pdb)


async def _ha_apply(b: Bridge, look: lk.Look, want: int, app: dict, has_pdb: bool) -> None:
    """The plan carried out: replicas and spread, the budget, then the spread checked."""
    dep = look.name
    patch = {
        "spec": {
            "replicas": want,
            "template": {
                "spec": {
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "DoNotSchedule",
                            "labelSelector": {"matchLabels": app},
                        }
                    ]
                }
            },
        }
    }
    await b.kubectl(
        f"patch deployment {dep} -n {b.ns} --type strategic -p '{json.dumps(patch)}'",
        f"set {spoken(dep)} to {words(want)} replicas spread one per node",
        "that's steps one and two of the plan",
    )
    if not has_pdb:
        manifest = json.dumps(
            {
                "apiVersion": "policy/v1",
                "kind": "PodDisruptionBudget",
                "metadata": {"name": f"{dep}-pdb", "namespace": b.ns},
                "spec": {"minAvailable": want - 1, "selector": {"matchLabels": app}},
            }
        )
        await b.kubectl(
            f"apply -n {b.ns} -f -",
            f"created a disruption budget {dep}-pdb",
            "that's step three",
            stdin=manifest,
        )
    ok = await _status(b, dep)
    out = await b.kubectl(
        f"get pods -n {b.ns} -l {lk._selector(look)} -o wide",
        "listed its pods with their nodes",
        "that's step four, checking the spread",
    )
    rows = rd.table(out)
    spread = sorted({r.get("node", "") for r in rows})
    b.saw(f"{plural(len(rows), 'pod')} on {plural(len(spread), 'node')}")
    b.add(
        "did",
        f"deployment {dep}: replicas went from {look.replicas} to {want}, with a spread of one per node"
        + ("" if has_pdb else f"; new disruption budget {dep}-pdb with min available {want - 1}"),
    )
    b.add(
        "verified",
        f"rollout {'finished' if ok else 'not finished'}; the pods are on {', '.join(spread)}",
    )


async def set_image(b: Bridge) -> None:
    names = b.named(b.deployments)
    if not names:
        return
    dep = names[0]
    tag = re.search(r"\b(v?\d+\.\d+(?:\.\d+)?(?:-[\w.]*\w)?)", b.prompt)
    b.found["subject"] = f"the {spoken(dep)} image update"
    look = await lk.spec(b, dep)
    meta = {**look.labels, **look.notes}
    gitops = {
        k: v for k, v in meta.items() if re.search(r"argocd|flux|gitops|managed-by", k + v, re.I)
    }
    if not gitops and b.has("gitops"):
        out = await b.call(
            "gitops",
            "checked the GitOps applications",
            "to see if Git owns this deployment",
            action="list",
        )
        if dep in out:
            gitops = {"gitops": "application lists it"}
    if gitops:
        b.add(
            "not_done",
            f"I didn't change the image. {dep} is managed from Git ({', '.join(f'{k} {v}' for k, v in gitops.items())}), so a change in the cluster would drift from Git and get reverted",
        )
        b.add(
            "plan",
            f"change the tag to {tag.group(1) if tag else 'the new one'} in the Git repo and let the sync roll it out",
        )
        return
    if b.read_only or b.needs_approval or not tag:
        b.add("not_done", "I didn't change the image")
        return
    c = look.containers()[0]
    old = str(c.get("image", ""))
    new = old.rsplit(":", 1)[0] + ":" + tag.group(1)
    await b.kubectl(
        f"set image deployment/{dep} -n {b.ns} {c.get('name')}={new}",
        f"set the image to {new}",
        "because you asked for that tag",
    )
    ok = await _status(b, dep)
    b.add("did", f"deployment {dep}: image went from {old} to {new}")
    b.add("verified", f"rollout {'finished' if ok else 'not finished'}")
