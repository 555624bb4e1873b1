"""Rollout decisions: continue a paused rolling update (adapting to node trouble that
appeared meanwhile), decide a canary by its health condition, and make a workload
highly available (replicas spread over nodes, a disruption budget). Generic.
"""

from __future__ import annotations

import json
import re

from .findings import name
from .signals import pct
from .work import Work, pod_health, read, rollout_status

#: "error rate must be under 2%" / "below 1.5 %" / "< 2%"
_CONDITION = re.compile(
    r"(error[ _-]?rate|latency|p99)[^.%\d]*?(under|below|less than|<|above|over|more than|>)\s*"
    r"(\d+(?:\.\d+)?)\s*(%|ms|s)?",
    re.IGNORECASE,
)


async def continue_rollout(w: Work) -> None:
    dep = next((t.name for t in w.req.targets if w.deployment(t.name)), None) or (
        w.focus[0] if w.focus else None
    )
    if not dep or not w.deployment(dep):
        w.summary.append("I could not tell which deployment's rollout to continue; please name it.")
        return
    ns = w.ns_of(dep)
    obj = await read(
        w, "deployment", dep, ns, f"read deployment/{dep}: rollout state (paused, updated replicas)"
    )
    spec, st = (obj or {}).get("spec") or {}, (obj or {}).get("status") or {}
    image = ((spec.get("template") or {}).get("spec") or {}).get("containers", [{}])[0].get("image")
    with w.s.doing(
        "re-check node conditions right before continuing: they may have changed since I started"
    ):
        nodes = await w.s.kjson("get", "nodes")
    with w.s.doing("re-check recent events for evictions or node trouble since I started"):
        events = await w.s.kjson("get", "events", "-n", ns)
    troubled = []
    for node in (nodes or {}).get("items") or []:
        for c in (node.get("status") or {}).get("conditions") or []:
            if (
                c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
                and c.get("status") == "True"
            ):
                troubled.append(
                    f"node {name(node)} reports {c['type']} (since {c.get('lastTransitionTime')})"
                )
            if c.get("type") == "Ready" and c.get("status") != "True":
                troubled.append(f"node {name(node)} is NotReady")
    evicted = [
        " ".join(str(e.get("message", "")).split())
        + f" ({(e.get('involvedObject') or {}).get('name')})"
        for e in (events or {}).get("items") or []
        if e.get("reason") in ("Evicted", "Preempted")
    ]
    progress = f"{st.get('updatedReplicas', 0)}/{spec.get('replicas', 0)} pods updated to {image}"
    plan = [
        f"read the rollout state ({progress}; {'paused' if spec.get('paused') else 'not paused'})",
        "re-check node conditions and events before continuing",
    ]
    if troubled or evicted:
        changes = "; ".join(troubled + evicted)
        w.summary.append(
            f"Conditions changed while the rollout was paused: {changes}. I adapted the plan instead of "
            "resuming it as it was."
        )
        plan += [
            (
                "keep full capacity while a node is impaired: set maxUnavailable=0 and maxSurge=1, so each old pod "
                "is removed only after its replacement is ready (the tainted node gets no new pods)"
            ),
            "resume the rollout",
            "watch it to completion and check the new pods landed on healthy nodes",
        ]
        w.rep.numbered("Plan (adapted to the changed conditions)", plan)
        strategy = (spec.get("strategy") or {}).get("rollingUpdate") or {}
        patch = {
            "spec": {
                "strategy": {
                    "type": "RollingUpdate",
                    "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1},
                }
            }
        }
        with w.s.doing(
            "adapt the rollout to the impaired node: no pod may be taken down before its replacement "
            "is ready",
            "changed condition: " + (troubled + evicted)[0],
        ):
            await w.s.change(
                "patch",
                "deployment",
                dep,
                "-n",
                ns,
                "--type",
                "merge",
                "-p",
                json.dumps(patch),
                before=f"maxUnavailable={strategy.get('maxUnavailable', '25%')}, "
                f"maxSurge={strategy.get('maxSurge', '25%')}",
                after="maxUnavailable=0, maxSurge=1",
            )
    else:
        plan += ["resume the rollout", "watch it to completion"]
        w.rep.numbered("Plan", plan)
    if spec.get("paused"):
        with w.s.doing(f"resume the paused rollout of {dep} to {image}", w.trigger()):
            await w.s.change(
                "rollout", "resume", f"deployment/{dep}", "-n", ns, before="paused", after="resumed"
            )
    ok, status = await rollout_status(w, dep, ns)
    ready, total, problems = await pod_health(
        w, dep, ns, f"verify the pods of {dep} after the rollout"
    )
    w.summary.append(
        f"Rollout of deployment/{dep} to {image}: "
        + (
            f"completed, {ready}/{total} pods ready."
            if ok
            else f"not finished ({status}); "
            f"{ready}/{total} pods ready"
            + (f", {'; '.join(problems)}" if problems else "")
            + ". I will not force it while a node is impaired."
        )
    )


async def canary(w: Work) -> None:
    deps = w.view.objects.get("deployment", [])
    can = next(
        (
            d
            for d in deps
            if "canary" in name(d)
            or ((d.get("metadata") or {}).get("labels") or {}).get("track") == "canary"
        ),
        None,
    )
    if can is None:
        w.summary.append("I found no canary deployment to evaluate; nothing changed.")
        return
    cname, ns = name(can), w.ns_of(name(can))
    stable = next((d for d in deps if d is not can and name(d) in cname), None)
    m = _CONDITION.search(w.task.prompt)
    metric_word = (m.group(1) if m else "error rate").lower()
    limit = (
        float(m.group(3)) / (100 if (m.group(4) or "%") == "%" and "error" in metric_word else 1)
        if m
        else 0.02
    )
    below = not m or m.group(2).lower() in ("under", "below", "less than", "<")
    metric = next(
        (
            x
            for x in w.view.metrics
            if re.sub(r"[ _-]", "", metric_word) in x.replace("_", "")
            and not x.startswith("normal")
        ),
        None,
    )
    with w.s.doing(
        f"evaluate the canary's health: read {metric or metric_word} for {cname}", w.trigger()
    ):
        doc = (
            await w.s.qjson("metrics_query", query=f'{metric}{{service="{cname}"}}')
            if metric
            else None
        )
    values = (
        [
            float(r["value"][1])
            for r in ((doc or {}).get("data") or {}).get("result") or []
            if isinstance(r, dict) and r.get("value")
        ]
        if isinstance(doc, dict)
        else []
    )
    if not values:
        w.summary.append(
            f"I could not read {metric_word} for {cname}, so I cannot evaluate the condition; I changed "
            "nothing. Please check the canary's metrics."
        )
        return
    value = max(values)
    healthy = value < limit if below else value > limit
    shown = pct(value) if limit < 1 else f"{value:g}"
    cond = f"{metric_word} {'<' if below else '>'} {pct(limit) if limit < 1 else limit}"
    w.rep.add(
        "Condition evaluation",
        f"Condition: {cond}. Measured for {cname}: {shown} -> the canary is "
        + (
            "HEALTHY: take the promote branch."
            if healthy
            else "UNHEALTHY: take the rollback branch."
        ),
    )
    stable_n = ((stable or {}).get("spec") or {}).get("replicas", 0)
    can_n = (can.get("spec") or {}).get("replicas", 0)
    if healthy:
        target = max(stable_n, 1)
        w.rep.numbered(
            "Plan",
            [
                f"evaluate {cond} for {cname} ({shown}: healthy)",
                (
                    f"bump the canary to 50% of pods: {cname} {can_n} -> {target} replicas "
                    f"(stable {name(stable) if stable else '?'} has {stable_n})"
                ),
                "verify the canary pods",
            ],
        )
        with w.s.doing(
            f"promote the healthy canary to 50% ({shown} is within {cond})", w.trigger()
        ):
            await w.s.change(
                "scale",
                f"deployment/{cname}",
                "-n",
                ns,
                f"--replicas={target}",
                before=f"replicas={can_n}",
                after=f"replicas={target}",
            )
        ok, _ = await rollout_status(w, cname, ns)
        w.summary.append(
            f"The canary {cname} is healthy ({metric_word} {shown}, within {cond}); I bumped it to "
            f"{target} replicas (50% of pods)"
            + (" and verified it." if ok else "; not all ready yet.")
        )
        return
    w.rep.numbered(
        "Plan",
        [
            f"evaluate {cond} for {cname} ({shown}: unhealthy)",
            (
                f"roll back the canary: scale {cname} from {can_n} to 0 replicas so all traffic goes to "
                f"the stable {name(stable) if stable else 'deployment'} (the canary object is kept for "
                "investigation)"
            ),
            "verify the stable deployment serves with all pods ready",
        ],
    )
    with w.s.doing(
        f"roll back the unhealthy canary ({metric_word} {shown} breaks {cond})", w.trigger()
    ):
        text, error = await w.s.change(
            "scale",
            f"deployment/{cname}",
            "-n",
            ns,
            "--replicas=0",
            before=f"replicas={can_n}",
            after="replicas=0",
        )
    msg = f"The canary {cname} is NOT healthy: {metric_word} is {shown}, above the {pct(limit)} limit. "
    if error:
        w.summary.append(msg + f"Rolling it back failed: {text.strip()}")
        return
    ready, total, _ = (
        await pod_health(w, name(stable), w.ns_of(name(stable))) if stable else (0, 0, [])
    )
    w.summary.append(
        msg
        + f"I rolled the canary back (scaled {cname} from {can_n} to 0 replicas) instead of bumping "
        "it to 50%"
        + (
            f"; the stable {name(stable)} serves all traffic with {ready}/{total} pods ready."
            if stable
            else "."
        )
    )


async def make_available(w: Work) -> None:
    dep = next((t.name for t in w.req.targets if w.deployment(t.name)), None) or (
        w.focus[0] if w.focus else None
    )
    if not dep or not w.deployment(dep):
        w.summary.append(
            "I could not tell which deployment to make highly available; please name it."
        )
        return
    ns = w.ns_of(dep)
    obj = await read(
        w, "deployment", dep, ns, f"read deployment/{dep}: replicas, affinity and labels"
    )
    spec = (obj or {}).get("spec") or {}
    current = spec.get("replicas", 1)
    labels = (spec.get("selector") or {}).get("matchLabels") or {"app": dep}
    nodes = [
        n
        for n in w.view.nodes
        if all(
            c.get("status") == "True"
            for c in (n.get("status") or {}).get("conditions") or []
            if c.get("type") == "Ready"
        )
    ]
    zones = sorted(
        {
            ((n.get("metadata") or {}).get("labels") or {}).get("topology.kubernetes.io/zone", "")
            for n in nodes
        }
        - {""}
    )
    replicas = max(current, 3)
    pdbs = [
        p
        for p in w.view.objects.get("pdb", [])
        if ((p.get("spec") or {}).get("selector") or {}).get("matchLabels") == labels
    ]
    sel = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
    required = len(nodes) >= replicas
    spread = (
        "require pod anti-affinity on kubernetes.io/hostname (one replica per node), with a rolling strategy "
        "of maxSurge=0/maxUnavailable=1 so later rollouts do not need a spare node"
        if required
        else "prefer pod anti-affinity on kubernetes.io/hostname (there are fewer nodes than "
        "replicas, so it cannot be strict)"
    )
    plan = [
        f"read the current state: {dep} runs {current} replica(s); {len(nodes)} ready nodes"
        + (f" in zones {', '.join(zones)}" if zones else ""),
        f"scale from {current} to {replicas} replicas: losing any one node then leaves {replicas - 1} running",
        f"{spread}; this rolls the pods onto distinct nodes, at most one pod down at a time",
        f"create a PodDisruptionBudget (minAvailable {replicas - 1}) so drains keep at least {replicas - 1} up"
        if not pdbs
        else f"keep the existing PodDisruptionBudget {name(pdbs[0])}",
        "verify: rollout complete, pods on distinct nodes, budget in place",
    ]
    w.rep.numbered("Plan", plan)
    with w.s.doing(
        f"step 2: run {replicas} replicas so a node failure leaves {replicas - 1} serving",
        w.trigger(),
    ):
        _, err2 = await w.s.change(
            "scale",
            f"deployment/{dep}",
            "-n",
            ns,
            f"--replicas={replicas}",
            before=f"replicas={current}",
            after=f"replicas={replicas}",
        )
    await rollout_status(
        w, dep, ns, f"wait for the {replicas} replicas before changing their placement"
    )
    term = {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": labels}}
    anti: dict = {
        "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
        if required
        else {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    }
    patch: dict = {"spec": {"template": {"spec": {"affinity": anti}}}}
    if required:
        patch["spec"]["strategy"] = {
            "type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1},
        }
    with w.s.doing(
        "step 3: spread the replicas across nodes (pod anti-affinity on the node hostname)",
        w.trigger(),
    ):
        _, err1 = await w.s.change(
            "patch",
            "deployment",
            dep,
            "-n",
            ns,
            "--type",
            "strategic",
            "-p",
            json.dumps(patch),
            before="no pod anti-affinity",
            after=("required" if required else "preferred")
            + " anti-affinity on kubernetes.io/hostname",
        )
    err3 = False
    if not pdbs:
        with w.s.doing(
            f"step 4: protect availability during voluntary disruptions (minAvailable {replicas - 1})",
            w.trigger(),
        ):
            _, err3 = await w.s.change(
                "create",
                "pdb",
                dep,
                "-n",
                ns,
                f"--selector={sel}",
                f"--min-available={replicas - 1}",
                before="no PodDisruptionBudget",
                after=f"pdb/{dep} minAvailable={replicas - 1}",
            )
    ok, _ = await rollout_status(w, dep, ns, "step 5: verify the rollout with the new spread")
    with w.s.doing("step 5: verify the replicas run on distinct nodes"):
        pods = await w.s.kjson("get", "pods", "-n", ns, "-l", sel)
    live = [
        p
        for p in (pods or {}).get("items") or []
        if not (p.get("metadata") or {}).get("deletionTimestamp")
    ]
    placed = sorted({(p.get("spec") or {}).get("nodeName") or "?" for p in live})
    failed = [
        s for s, e in (("anti-affinity", err1), ("scale", err2), ("disruption budget", err3)) if e
    ]
    w.summary.append(
        f"I made deployment/{dep} highly available: {replicas} replicas (was {current}) spread by "
        f"anti-affinity over {len(placed)} nodes ({', '.join(placed)}), and a PodDisruptionBudget "
        "keeping at least "
        f"{replicas - 1} available"
        + (f"; FAILED steps: {', '.join(failed)}" if failed else "")
        + (". Verified: rollout complete." if ok else ". The rollout has not completed yet.")
    )
