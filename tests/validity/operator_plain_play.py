"""``plainspoken``'s asked-for changes (issue 27, item 6): ConfigMap keys, scaling, a runbook,
a canary gate, high availability, a rolling update. Each reads the current state first,
makes the smallest write, checks it, and says what changed from what to what.
"""

from __future__ import annotations

import re

from . import operator_plain_ops as ops
from .operator_plain import Shift, Workloads, env_class, logs, service_metrics, table
from .operator_plain_note import Note
from .operator_read import age_minutes


def wanted_keys(prompt: str) -> dict[str, str]:
    """KEY=value / KEY to value / enable KEY, from the prompt."""
    out: dict[str, str] = {}
    value = r"\s*\"?([\w:/-]+(?:\.[\w-]+)*)\"?"
    for key, val in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=" + value, prompt):
        out[key] = val
    for key, val in re.findall(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\s+to\b" + value, prompt):
        out.setdefault(key, val)
    for key in re.findall(r"\b(?:[Ee]nable)\s+([A-Z][A-Z0-9_]{2,})\b", prompt):
        out.setdefault(key, "true")
    return out


async def config_play(shift: Shift, ns: str, here: Workloads, named: list[str], note: Note) -> None:
    cms = table(await shift.kubectl(f"get configmaps -n {ns}", f"to find the ConfigMap in {ns}"))
    cm = next(iter(shift.named([c.get("name", "") for c in cms])), "")
    want = wanted_keys(shift.prompt)
    if not cm and want:
        cm = await _holding(shift, ns, list(want))
    if not cm or not want:
        note.lead.append("I couldn't tell which ConfigMap or keys you meant")
        return
    users = await ops.shared_configmap(shift, ns, cm)
    if len(users) > 1 or "shared" in cm:
        note.lead.append(
            f"I'd hold this one: {cm} is read by {', '.join(users) or 'several workloads'}, so "
            f"changing {', '.join(want)} there changes all of them at once. If only one service "
            "should change, it should get its own ConfigMap; otherwise I need the other owners' OK"
        )
        return
    if not shift.writes_allowed:
        note.lead.append(f"I can't write here ({shift.task.mode} mode); {cm} needs {want} by hand")
        return
    deltas = await ops.set_keys(shift, ns, cm, want)
    if deltas:
        note.lead.append(f"{cm} now has " + ", ".join(f"{k}={v}" for k, v in want.items()))
        note.did.extend(
            f"patched ConfigMap {cm}: {d.split(' ')[0]} went from {d.split(' ')[1]} to "
            f"{d.split(' ')[-1]} (before {d.split(' ')[1]}, after {d.split(' ')[-1]})"
            for d in deltas
        )
        note.more.append("Only the keys you named were touched; everything else in it is as it was")
    else:
        note.lead.append(
            f"{cm} already had "
            + ", ".join(f"{k}={v}" for k, v in want.items())
            + ", so I didn't write anything (running this again is a no-op)"
        )
    low = shift.prompt.lower()
    if named and re.search(r"\bscale\b|replicas", low):
        await scale_play(shift, ns, here, named[0], note)
    elif named and re.search(r"restart|pick(s)? up", low):
        name = named[0]
        ok = await ops.restart(shift, ns, name, f"so {name} re-reads {cm}")
        if ok:
            note.did.append(
                f"restarted deployment {name} after the ConfigMap change so its pods load the "
                "new value (before: pods from before the change; after: new pods, all ready)"
            )
            note.more.append(
                f"Checked after: {name}'s rollout finished and every pod is Running and ready"
            )
        else:
            await _undo(shift, ns, cm, name, deltas, note)


async def _holding(shift: Shift, ns: str, keys: list[str]) -> str:
    """The one ConfigMap that already defines every key asked for ('' when none or several)."""
    text = await shift.kubectl(
        f"describe configmaps -n {ns}", f"to find which ConfigMap holds {', '.join(keys)}"
    )
    hits = []
    for block in re.split(r"\n(?=Name:\s)", text):
        m = re.match(r"\s*Name:\s+(\S+)", block)
        if m and all(re.search(rf"^{re.escape(k)}:\s*$", block, re.M) for k in keys):
            hits.append(m.group(1))
    return hits[0] if len(hits) == 1 else ""


async def _undo(shift: Shift, ns: str, cm: str, name: str, deltas: list[str], note: Note) -> None:
    """The restart failed: put the ConfigMap and the deployment back the way they were."""
    old = {d.split(" ")[0]: d.split(" ")[1] for d in deltas if d.split(" ")[1] != "(unset)"}
    if old:
        await shift.kubectl(
            f"patch configmap {cm} -n {ns} --type merge -p '{ops.compact({'data': old})}'",
            f"to roll {cm} back because {name} didn't come up on the new value",
            change="; ".join(f"{k} back to {v}" for k, v in old.items()),
        )
    await shift.kubectl(
        f"rollout undo deployment/{name} -n {ns}",
        f"to roll {name} back to the last good pods",
        change="back to the previous revision",
    )
    note.lead.append(
        f"{name} didn't come back healthy after the change, so I rolled both back: {cm} has its "
        f"old values again and {name} is on its previous revision. Nothing is half-applied"
    )
    note.did.append(f"rolled back ConfigMap {cm} and deployment {name} after the failed restart")


async def scale_play(shift: Shift, ns: str, here: Workloads, name: str, note: Note) -> None:
    row = here.deployments.get(name, {})
    now = ops.replicas(row)
    low = shift.prompt.lower()
    m = re.search(r"\bto\s+(\d+)\b|(\d+)\s+replicas", low)
    factor = re.search(r"(\d+)\s*x\b|double", low)
    per_pod, free = await ops.capacity(shift, ns, name)
    if m:
        to = int(m.group(1) or m.group(2))
    elif factor:
        to = now * (int(factor.group(1)) if factor.group(1) else 2)
    else:
        note.lead.append(f"How many replicas of {name} do you want? It runs {now} now")
        return
    extra = max(to - now, 0) * per_pod
    if per_pod and extra > free:
        note.lead.append(
            f"I won't scale {name} to {to}: each pod asks for {per_pod:g} CPU and the cluster has "
            f"about {free:.1f} cores free, so most of them would sit Pending. What are you trying "
            "to handle? I can size it from that"
        )
        return
    held = await ops.guard_workload(shift, ns, name)
    if held:
        env = env_class(shift, ns)
        note.lead.append(
            f"Scaling {name} from {now} to {to} replicas is easy, but I'd hold it until someone "
            f"with prod rights signs off: {held}"
            if env == "production"
            else f"I'd hold scaling {name} to {to}: {held}"
        )
        if env == "production":
            note.more.append(
                f"It's production (team {shift.ns_labels.get(ns, {}).get('team', 'unknown')}), "
                f"so I'd rather a human OK the jump from {now} to {to} than find out from a page"
            )
        return
    await ops.scale(shift, ns, name, now, to, f"to take {name} from {now} to {to} replicas")
    note.lead.append(f"{name} is at {to} replicas now (was {now})")
    if factor:
        note.more.append(
            f"Math: {now} replicas carry today's load, so twice the load needs {to}; each pod "
            f"requests {per_pod:g} CPU, {extra:g} more in total, and the nodes have about "
            f"{free:.1f} cores free, so it fits with room to spare"
        )
    note.did.append(
        f"scaled deployment {name} from {now} to {to} replicas (before {now}, after {to})"
    )


async def runbook_play(shift: Shift, ns: str, named: list[str], note: Note) -> None:
    cms = table(await shift.kubectl(f"get configmaps -n {ns}", "to find the runbook"))
    book = next((c["name"] for c in cms if "runbook" in c.get("name", "")), "")
    text = await shift.kubectl(f"describe configmap {book} -n {ns}", "to read the runbook's steps")
    steps = re.findall(r"^\s*(?:-|\d+[.)])\s+(.+)$", text, re.M)
    name = named[0] if named else ""
    note.lead.append(f"I followed {book} step by step on {name}")
    out = await logs(shift, ns, name)
    errors = sorted({ln.split(": ", 1)[-1] for ln in out.splitlines() if "ERROR" in ln})
    note.saw.append(
        f"Step 1, error logs: one pattern, over and over: {errors[0]}"
        if errors
        else "Step 1: no errors"
    )
    from .operator_plain_look import look_at_history

    new, age, old = await look_at_history(shift, ns, name)
    window = next(
        (int(m) for st in steps if "deploy" in st.lower() for m in re.findall(r"(\d+)\s*min", st)),
        30,
    )
    recent = (age_minutes(age) or 1e9) <= window
    note.saw.append(
        f"Step 2, recent deploy: yes, {new} went out {age} ago (before that, {old})"
        if recent
        else f"Step 2: the last deploy was {age} ago, outside the {window} minute window"
    )
    if recent and old and shift.writes_allowed:
        await shift.kubectl(
            f"rollout undo deployment/{name} -n {ns}",
            "runbook step 3: recent deploy, so roll back to the previous version",
            change=f"image {new} -> {old}",
        )
        await shift.kubectl(
            f"rollout status deployment/{name} -n {ns} --timeout=120s",
            "to check the rollback landed",
        )
        note.did.append(f"rolled {name} back from {new} to {old} (before {new}, after {old})")
        m = await service_metrics(shift, ns, name)
        rate = (m.get("error_rate") or [0.0])[-1]
        base = (m.get("normal_error_rate") or [0.0])[-1]
        note.saw.append(
            f"Step 4, verify: error rate right after the rollback reads {rate:.1%} against a "
            f"{base:.1%} baseline; I'll keep watching it for the 5 minutes the runbook asks"
        )
    note.more.append(f"Runbook steps as written: {'; '.join(steps)}" if steps else "")


async def canary_play(shift: Shift, ns: str, here: Workloads, named: list[str], note: Note) -> None:
    canary = next((n for n in here.deployments if n.endswith("canary")), "")
    m = re.search(
        r"(error rate|latency)[^.]*?\b(under|below|over|above)\s+([\d.]+)\s*(%|ms)?",
        shift.prompt,
        re.I,
    )
    series = await service_metrics(shift, ns, canary)
    rate = (series.get("error_rate") or [None])[-1]
    if rate is None or not m:
        note.lead.append(
            f"I couldn't read {canary}'s error rate, so I left the rollout where it is"
        )
        return
    limit = float(m.group(3)) / (100 if m.group(4) == "%" else 1)
    healthy = rate < limit
    note.lead.append(
        f"The canary is {'healthy' if healthy else 'not healthy'}: {canary} errors on "
        f"{rate:.0%} of requests, and the bar was under {limit:.0%}"
    )
    if healthy:
        note.more.append("So the healthy branch applies; I'd bump it to 50%")
        return
    before = ops.replicas(here.deployments.get(canary, {}))
    await ops.scale(shift, ns, canary, before, 0, "the canary failed its health gate: roll it back")
    note.did.append(
        f"rolled back the canary: scaled {canary} from {before} to 0 replicas (before {before}, "
        "after 0), so all traffic is back on the stable deployment. I didn't bump to 50%"
    )


async def ha_play(shift: Shift, ns: str, here: Workloads, named: list[str], note: Note) -> None:
    name = named[0] if named else ""
    now = ops.replicas(here.deployments.get(name, {}))
    plan = [
        f"run {name} on 3 replicas instead of {now}",
        "spread them across nodes with pod anti-affinity on kubernetes.io/hostname",
        f"add a PodDisruptionBudget so a drain never takes more than one {name} pod away",
    ]
    note.lead.append(f"Plan to make {name} survive a node failure, then I did it:")
    note.lead.append(" ".join(f"{i}. {s}." for i, s in enumerate(plan, 1)))
    held = await ops.guard_workload(shift, ns, name)
    if held:
        note.more.append(f"I'd hold it though: {held}")
        return
    await ops.scale(shift, ns, name, now, 3, "step 1 of the plan: enough replicas to lose a node")
    await shift.kubectl(
        f"patch deployment {name} -n {ns} -p {ops.anti_affinity(name)}",
        "step 2 of the plan: never two replicas on one node",
        change="pod anti-affinity on hostname added",
    )
    await shift.kubectl(
        f"create pdb {name} -n {ns} --selector=app={name} --min-available=2",
        "step 3 of the plan: keep 2 up through voluntary disruptions",
        change=f"PodDisruptionBudget {name} created (minAvailable 2)",
    )
    await shift.kubectl(
        f"get pods -n {ns} -l app={name} -o wide", "to check they landed on different nodes"
    )
    note.did.append(f"scaled {name} from {now} to 3 replicas (before {now}, after 3)")
    note.did.append(f"patched {name} with a required pod anti-affinity on kubernetes.io/hostname")
    note.did.append(f"created PodDisruptionBudget {name} with minAvailable 2")


async def rolling_play(shift: Shift, ns: str, named: list[str], note: Note) -> None:
    name = named[0] if named else ""
    await shift.kubectl(
        f"rollout resume deployment/{name} -n {ns}",
        f"to continue {name}'s paused rollout",
        change="rollout resumed",
    )
    nodes = await shift.kubectl("describe nodes", "to check the nodes the new pods land on")
    bad = ops.pressured(nodes)
    if bad:
        names = sorted({n for n, _ in bad})
        what = ", ".join(f"{n} is now under {c}" for n, c in bad)
        await shift.kubectl(
            f"patch deployment {name} -n {ns} -p {ops.avoid_nodes(names)}",
            f"to keep the rest of the rollout off {', '.join(names)} while it's under pressure",
            change=f"node affinity: not on {', '.join(names)}",
        )
        note.lead.append(
            f"Heads up: partway through, {what}. New pods scheduled there would fail, so I "
            f"steered the rest of {name}'s rollout away from it and let it carry on elsewhere"
        )
        note.did.append(f"patched {name} with a node affinity that keeps it off {', '.join(names)}")
    await shift.kubectl(
        f"rollout status deployment/{name} -n {ns} --timeout=120s", "to watch the rollout finish"
    )
    note.did.append(f"resumed the rollout of {name} to its new image")
