"""The held-out operator of session 29 (``heldout34``): planned operations.

A canary decision, a runbook, a high-availability plan, a blocked network path, an image
update, a rollout to continue, and deletions that need a person's yes first.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout34_change import verify_rollout
from .operator_heldout34_guard import gitops_managed
from .operator_heldout34_look import View, app_metrics, metric_names, pick_subject
from .operator_heldout34_ops import Ops, cite
from .operator_heldout34_page import percent


async def canary(ops: Ops, view: View, name: str) -> None:
    stable = name
    canaries = [d.get("name", "") for d in view.deployments if "canary" in d.get("name", "")]
    name = next(
        (c for c in canaries if c.startswith(f"{stable}-")), canaries[0] if canaries else stable
    )
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", ops.prompt)
    limit = float(m.group(1)) / 100 if m else 0.02
    names_call, names = await metric_names(ops, ops.request)
    rates = [
        s
        for s in await app_metrics(ops, [n for n in names if "error" in n], name, ops.request)
        if s[1].get("service", s[1].get("job", "")) == name or name in s[1].values()
    ]
    if not rates:
        ops.say(
            "Escalated",
            f"I couldn't find an error-rate series for {name} {cite(names_call)}, "
            "so I can't judge the canary. Nothing changed.",
        )
        return
    metric, _labels, values, call = rates[0]
    now = values[-1]
    ops.say(
        "Identified",
        f"The canary {name} is failing about {percent(now)} of its requests ({metric}, latest "
        f"reading) {cite(call)}, against the bar you set of under {percent(limit)}. "
        + (
            "That's healthy."
            if now < limit
            else "That misses the bar, so this is the roll-back branch, not the 50 percent one."
        ),
    )
    if now < limit:
        ops.say(
            "Escalated",
            "The canary passes. Tell me how traffic weight is set here and I'll move it to 50 percent.",
        )
        return
    spec = await ops.k(
        f"get deployment {name} -n {ops.ns}",
        f"read {name}'s replicas before rolling it back",
        "the failed health check",
    )
    rows = rd.table(spec.text)
    before = rows[0].get("ready", "?") if rows else "?"
    write = await ops.k(
        f"scale deployment/{name} -n {ops.ns} --replicas=0",
        "roll back the canary: take it out of service so all traffic goes to the stable version",
        f"the canary's error rate over the limit [{call.n}]",
    )
    check = await ops.k(
        f"get deployment {name} -n {ops.ns}",
        "confirm the canary has no pods left serving",
        f"the roll-back [{write.n}]",
    )
    main = (
        [stable]
        if stable != name and any(d.get("name") == stable for d in view.deployments)
        else []
    )
    stable_call = None
    if main:
        stable_call = await ops.k(
            f"get deployment {main[0]} -n {ops.ns}",
            f"make sure the stable {main[0]} is fully up to take the traffic",
            f"the roll-back [{write.n}]",
        )
    ops.say(
        "Resolved",
        f"I scaled {name} from {before} ready to 0 {cite(write)}; it now serves nothing {cite(check)}"
        + (f" and {main[0]} is carrying all traffic {cite(stable_call)}" if main else "")
        + ". The canary Deployment is kept (scaled to zero) so the team can look at it; the new image needs a fix before another try.",
    )


async def runbook(ops: Ops, view: View, name: str) -> None:
    cms = rd.table((await ops.k(f"get configmaps -n {ops.ns}", "find the runbook you named")).text)
    words = set(re.findall(r"[a-z0-9-]+", ops.prompt.lower()))
    book = next(
        (
            c["name"]
            for c in cms
            if "runbook" in c.get("name", "") and any(w in c["name"] for w in words if len(w) > 8)
        ),
        "",
    )
    steps_call = (
        await ops.k(
            f"get configmap {book} -n {ops.ns} -o yaml",
            "read the runbook's steps before following them",
        )
        if book
        else None
    )
    doc = (rd.items(steps_call.text) or [{}])[0] if steps_call else {}
    steps_text = " ".join(str(v) for v in (doc.get("data") or {}).values())
    steps = [s.strip(" -") for s in re.split(r"\n|(?<=\.)\s", steps_text) if s.strip(" -")]
    ops.say(
        "Investigating",
        f"Following the runbook {book or '(not found)'} {cite(steps_call)}"
        + (f", {len(steps)} steps: " + "; ".join(steps[:6]) if steps else "")
        + ". Step 1 is the error logs.",
    )
    logs = await ops.call(
        "logs_query",
        "runbook step: check the error logs for a pattern",
        f"runbook {book}",
        namespace=ops.ns,
        deployment=name,
        tail=200,
    )
    sig = rd.signal_patterns(rd.log_lines(logs.text))
    hist = await ops.k(
        f"rollout history deployment/{name} -n {ops.ns}",
        "runbook step: was there a deploy in the last 30 minutes?",
        f"runbook {book}",
    )
    rs = await ops.k(
        f"get replicasets -n {ops.ns} -l app={name}",
        "see when each version went out and which images they run",
        f"runbook {book}",
    )
    sets = sorted(rd.table(rs.text), key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    _names_call, names = await metric_names(ops, f"runbook {book}")
    rates = await app_metrics(ops, [n for n in names if "error" in n], name, f"runbook {book}")
    first = (
        (f'"{sig[0][0]}: {sig[0][1]}" ' + ("once" if sig[0][2] == 1 else f"{sig[0][2]} times"))
        if sig
        else "no error pattern"
    )
    newest = sets[0] if sets else {}
    age = rd.age_minutes(newest.get("age", "")) or 1e9
    rate_txt = ""
    if rates:
        metric, _l, vals, rcall = rates[0]
        rate_txt = f" {metric} is at about {percent(vals[-1])} {cite(rcall)}."
    recent = age <= 30 and len(sets) > 1
    ops.say(
        "Identified",
        f"The logs show {first} {cite(logs)}.{rate_txt} The newest ReplicaSet {newest.get('name', '?')} "
        f"went out about {age:.0f} minutes ago {cite(hist, rs)}, "
        + (
            "inside the runbook's 30-minute window, and the errors line up with it, so the runbook's branch is roll back."
            if recent
            else "outside the runbook's window, so its roll-back step doesn't apply here."
        ),
    )
    if not recent:
        ops.say(
            "Escalated",
            "I stopped short of a roll-back because the runbook's condition isn't met. The service owners should look at the error pattern above.",
        )
        return
    undo = await ops.k(
        f"rollout undo deployment/{name} -n {ops.ns}",
        "runbook step: roll back to the previous version",
        f"the recent deploy [{rs.n}] and the errors [{logs.n}]",
    )
    rolled, status = await verify_rollout(ops, name, f"the roll-back [{undo.n}]")
    img = await ops.k(
        f"get deployment {name} -n {ops.ns} -o jsonpath={{.spec.template.spec.containers[0].image}}",
        "confirm which image is running now",
        f"the roll-back [{undo.n}]",
    )
    after = await app_metrics(
        ops,
        [n for n in names if "error" in n],
        name,
        f"runbook step 4 after the roll-back [{undo.n}]",
    )
    post = (
        f" and the error rate now reads about {percent(after[0][2][-1])} {cite(after[0][3])}"
        if after
        else ""
    )
    ops.say(
        "Monitoring",
        f"Rolled {name} back {cite(undo)}; it is running {img.text.strip() or 'the previous image'} and the rollout "
        f"{'finished' if rolled else 'has not finished yet'} {cite(status, img)}{post}. The runbook asks for the error rate back at baseline within 5 minutes, so I'll keep watching it.",
    )


async def high_availability(ops: Ops, view: View, name: str) -> None:
    ns = ops.ns
    spec_call = await ops.k(
        f"get deployment {name} -n {ns} -o yaml", f"read {name}'s replicas, affinity and labels"
    )
    spec = (rd.items(spec_call.text) or [{}])[0]
    current = int(spec.get("spec", {}).get("replicas") or 0)
    labels = spec.get("spec", {}).get("selector", {}).get("matchLabels") or {"app": name}
    pdbs = await ops.k(f"get pdb -n {ns}", "check for an existing disruption budget")
    hpa = await ops.k(
        f"get hpa -n {ns}", "check for an autoscaler that would own the replica count"
    )
    nodes = await ops.k("get nodes", "count the nodes the replicas can spread over")
    count = len(rd.table(nodes.text))
    ops.say(
        "Identified",
        f"{name} runs {current} replica with no disruption budget {cite(spec_call, pdbs, hpa)}, so one node "
        f"failure takes it down. Plan: (1) scale to 3 replicas, (2) spread them over the {count} nodes with "
        "pod anti-affinity by hostname, (3) add a PodDisruptionBudget keeping at least 2 up, (4) verify.",
    )
    write = await ops.k(
        f"scale deployment/{name} -n {ns} --replicas=3",
        "plan step 1: three replicas so losing one node leaves two",
        "the HA plan",
    )
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
                                        "topologyKey": "kubernetes.io/hostname",
                                        "labelSelector": {"matchLabels": labels},
                                    },
                                }
                            ]
                        }
                    }
                }
            }
        }
    }
    patch = await ops.k(
        f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff, sort_keys=True)}'",
        "plan step 2: prefer a different node for each replica",
        "the HA plan",
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": labels}},
    }
    made = await ops.k(
        "apply -f -",
        "plan step 3: keep at least 2 replicas up during drains",
        "the HA plan",
        stdin=json.dumps(pdb),
    )
    ok, status = await verify_rollout(ops, name, "plan step 4")
    wide = await ops.k(
        f"get pods -n {ns} -l {','.join(f'{k}={v}' for k, v in labels.items())} -o wide",
        "plan step 4: see which node each replica landed on",
        "plan step 4",
    )
    nodes_used = {r.get("node", "") for r in rd.table(wide.text)}
    ops.say(
        "Resolved" if ok else "Escalated",
        f"Done in order: 3 replicas {cite(write)} (was {current}), anti-affinity added {cite(patch)}, PodDisruptionBudget {name} with "
        f"minAvailable 2 {cite(made)}. The rollout finished {cite(status)} and the replicas sit on {len(nodes_used)} different nodes {cite(wide)}.",
    )


async def network(ops: Ops, view: View) -> None:
    ns = ops.ns
    names = [d.get("name", "") for d in view.deployments]
    said = pick_subject(ops.prompt, names)
    caller, target = (said[-1], said[0]) if len(said) >= 2 else ("", said[0] if said else "")
    order = [n for n in names if n.lower() in ops.prompt.lower()]
    order.sort(key=lambda n: ops.prompt.lower().find(n.lower()))
    if len(order) >= 2:
        caller, target = order[0], order[1]
    svc = await ops.k(f"get services,endpoints -n {ns}", f"check {target}'s Service has endpoints")
    pols_call = await ops.k(
        f"get networkpolicies -n {ns} -o yaml", "read every NetworkPolicy that could block the path"
    )
    pods = await ops.k(
        f"get pods -n {ns} --show-labels", "read pod labels to see which policies select which pods"
    )
    blocking = None
    for pol in rd.items(pols_call.text):
        sel = pol.get("spec", {}).get("podSelector", {}).get("matchLabels", {})
        if sel.get("app") == target:
            froms = [
                f.get("podSelector", {}).get("matchLabels", {})
                for r in pol.get("spec", {}).get("ingress") or []
                for f in r.get("from") or []
            ]
            if not any(f.get("app") == caller for f in froms):
                blocking = (pol, froms)
    if blocking is None:
        ops.say(
            "Escalated",
            f"I found no policy that blocks {caller} from {target} {cite(pols_call, svc)}; the network team should check beyond the namespace.",
        )
        return
    pol, froms = blocking
    pname = pol["metadata"]["name"]
    allowed = ", ".join("app=" + f.get("app", "?") for f in froms) or "nothing"
    ops.say(
        "Identified",
        f"The NetworkPolicy {pname} selects {target}'s pods and only lets in traffic from {allowed} "
        f"{cite(pols_call, pods)}. {caller} isn't on that list, so its requests to {target} are dropped. "
        f"The fix is to add {caller} to the policy, not to delete it.",
    )
    rules = pol.get("spec", {}).get("ingress") or []
    new = rules + [{"from": [{"podSelector": {"matchLabels": {"app": caller}}}]}]
    write = await ops.k(
        f"patch networkpolicy {pname} -n {ns} --type merge -p '{json.dumps({'spec': {'ingress': new}}, sort_keys=True)}'",
        f"let {caller}'s pods reach {target}, keeping the existing rules ({allowed})",
    )
    after = await ops.k(
        f"get networkpolicy {pname} -n {ns} -o yaml",
        "confirm the policy now admits both the old sources and the new one",
        f"my change [{write.n}]",
    )
    ops.say(
        "Monitoring" if not write.failed else "Escalated",
        f"I added one ingress rule for app={caller} to {pname} {cite(write)}; the rule for {allowed} is still there {cite(after)}. "
        f"{caller} should reach {target} now; please confirm from the app side.",
    )


async def image_update(ops: Ops, view: View, name: str) -> None:
    spec_call = await ops.k(
        f"get deployment {name} -n {ops.ns} -o yaml",
        f"read {name}'s current image and who manages it",
    )
    spec = (rd.items(spec_call.text) or [{}])[0]
    tool = gitops_managed(spec)
    app_call = (
        await ops.call("gitops", f"check whether a GitOps application owns {name}", action="status")
        if ops.has("gitops")
        else None
    )
    if tool or (app_call and name in app_call.text):
        ops.say(
            "Escalated",
            f"{name} is managed by {tool or 'GitOps'} {cite(spec_call, app_call)}. Setting the image by hand would "
            "create drift: the controller would put the old tag back on its next sync, or flag the app OutOfSync. "
            "I didn't change it. Please make the change in the app's Git repo (bump the tag in its manifest) "
            "and let the sync roll it out; I can watch the rollout after the merge.",
        )
        return
    image = (
        (spec.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0]
    ).get("image", "")
    tag = re.search(r"\b(v?\d+\.\d+\.\d+)\b", ops.prompt)
    new = re.sub(r":[^:]+$", f":{tag.group(1)}", image) if tag and image else ""
    cname = (
        (spec.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0]
    ).get("name", name)
    write = await ops.k(
        f"set image deployment/{name} {cname}={new} -n {ops.ns}",
        f"move {name} from {image} to {new}",
    )
    ok, status = await verify_rollout(ops, name, f"the image change [{write.n}]")
    ops.say(
        "Resolved" if ok else "Escalated",
        f"{name} went from {image} to {new} {cite(write, status)}.",
    )
