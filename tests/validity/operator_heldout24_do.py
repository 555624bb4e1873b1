"""``heldout24``'s changes (issue 27, fairness): cfg values, replica counts, restarts, a canary's
rollback, a rollout that meets a sick node, an HA plan, a runbook, and the fix after a
diagnosis. Each reads the state first, makes the smallest change, records before -> after, and
checks the result; in a read-only zone or under approval it hands the change to a human.
"""

from __future__ import annotations

import json
import re

import yaml

from .operator_heldout24 import Desk
from .operator_heldout24_look import Case, diagnose, limit_of, read_case
from .operator_read import describe_pods, load_json, load_yaml, quantity, table


def symptom(desk: Desk) -> bool:
    """The message reports a problem (not just a question about health)."""
    return bool(
        re.search(
            r"error|fail|crash|slow|broken|degraded|50\d|issue|spik|drop|pending|restart|down|oom",
            desk.low,
        )
    )


def _replicas(desk: Desk, name: str) -> int:
    ready = desk.deploys.get(name, {}).get("ready", "0/0")
    return int(ready.split("/")[-1] or 0)


async def verify(desk: Desk, name: str) -> str:
    out = await desk.k(
        f"rollout status deploy/{name} -n {desk.ns} --timeout=60s", f"wait for {name} to settle"
    )
    pods = table(
        await desk.k(f"get pods -n {desk.ns} -l app={name}", f"check {name} pods after change")
    )
    ok = [
        p
        for p in pods
        if p.get("status") == "Running"
        and p.get("ready", "").split("/")[0] == p.get("ready", "/").split("/")[-1]
    ]
    line = f"verify: {len(ok)}/{len(pods)} {name} pods Running+Ready"
    if "successfully" in out:
        line += ", rollout done"
    return line


async def _cm(desk: Desk, name: str) -> dict[str, str]:
    doc = load_yaml(
        await desk.k(
            f"get configmap {name} -n {desk.ns} -o yaml",
            f"current {name} values before touching it",
        )
    )
    data = doc.get("data") if isinstance(doc, dict) else None
    return {str(k): str(v) for k, v in (data or {}).items()}


def _wanted(desk: Desk) -> dict[str, str]:
    """K=V / 'set K to V' / 'enable K' pairs in the message."""
    want: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*([\w.-]+)", desk.prompt):
        want[k] = v.rstrip(".")
    for k, v in re.findall(
        r"\b(?i:set|update|change)\s+([A-Z][A-Z0-9_]{2,})\s+(?i:to)\s+\"?([\w.-]+)", desk.prompt
    ):
        want[k] = v.rstrip(".")
    for verb, k in re.findall(r"\b((?i:enable|disable))\s+([A-Z][A-Z0-9_]{2,})", desk.prompt):
        want[k] = "true" if verb.lower() == "enable" else "false"
    return want


async def _which_cm(desk: Desk, keys: list[str]) -> str:
    rows = table(await desk.k(f"get configmaps -n {desk.ns}", "which cfgmaps exist"))
    names = [r.get("name", "") for r in rows if r.get("name")]
    named = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", desk.prompt)]
    if named:
        return named[0]
    for n in names:
        data = await _cm(desk, n)
        if any(k in data for k in keys):
            return n
    return next((n for n in names if "config" in n and "agent" not in n), names[0] if names else "")


async def cfg_ops(desk: Desk) -> None:
    want = _wanted(desk)
    cm = await _which_cm(desk, list(want))
    before = await _cm(desk, cm)
    if await _blast_radius(desk, cm):
        return
    change = {k: v for k, v in want.items() if before.get(k) != v}
    same = {k: v for k, v in want.items() if before.get(k) == v}
    if same:
        desk.say(
            f"{cm}: " + ", ".join(f"{k}={v}" for k, v in same.items()) + " already set, left alone"
        )
    if change:
        delta = "; ".join(f"{k}: {before.get(k, '<unset>')} -> {v}" for k, v in change.items())
        patch = json.dumps({"data": change}, sort_keys=True)
        await desk.k(
            f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'",
            "set only the keys asked, merge patch keeps the rest",
            delta,
        )
        desk.say(f"patched {cm}: {delta}. merge patch, other keys untouched")
    after = await _cm(desk, cm)
    kept = sorted(k for k in before if k not in want and after.get(k) == before[k])
    desk.say(
        f"re-read {cm}: "
        + ", ".join(f"{k}={after.get(k)}" for k in want)
        + (f"; untouched: {', '.join(kept)}" if kept else "")
        + ". rerun = no-op (same values, patch is idempotent)"
    )
    m = re.search(r"scale\s+([\w-]+)\s+to\s+(\d+)", desk.prompt, re.I)
    if m:
        await _scale(desk, m.group(1), int(m.group(2)))
    users = [d for d in desk.named() if d in desk.deploys]
    if users and re.search(r"pick(s)? up|reload|restart|roll", desk.low):
        await restart(
            desk, users[0], why=f"{users[0]} reads {cm} at start, needs restart to pick up change"
        )
        if (
            desk.msgs
            and desk.msgs[-1].startswith("verify:")
            and "rollout done" not in desk.msgs[-1]
        ):
            await _undo_partial(desk, users[0], cm, before, change)


async def _blast_radius(desk: Desk, cm: str) -> bool:
    """Who mounts the cfgmap; several workloads / teams -> not mine to change alone."""
    doc = load_yaml(
        await desk.k(f"get deploy -n {desk.ns} -o yaml", f"which deploys use {cm} (blast radius)")
    )
    users = []
    for d in (doc.get("items") or []) if isinstance(doc, dict) else []:
        if cm in json.dumps(d.get("spec") or {}):
            meta = d.get("metadata") or {}
            team = (meta.get("labels") or {}).get("team", "")
            users.append((str(meta.get("name")), str(team)))
    teams = {t for _, t in users if t}
    if len(users) >= 3 or len(teams) > 1:
        desk.say(
            f"hold on: {cm} is mounted by {len(users)} deploys ("
            + ", ".join(f"{n}{' / ' + t if t else ''}" for n, t in users)
            + f") across {len(teams) or '?'} teams -> changing it hits all of them at once"
        )
        desk.say(
            "not patching it alone. @"
            + " @".join(sorted(teams) or ["owners"])
            + " pls confirm ur ok w/ the change (or i can put it in a per-svc cfgmap instead)"
        )
        return True
    return False


async def _undo_partial(
    desk: Desk, name: str, cm: str, before: dict[str, str], change: dict[str, str]
) -> None:
    """Restart failed after the cfg change: stop, roll the deploy back, put the cfg back."""
    await desk.k(
        f"rollout undo deploy/{name} -n {desk.ns}",
        f"restart of {name} failing, back to last good pods",
        f"{name} broken rollout -> previous revision",
    )
    if change:
        old = {k: before[k] for k in change if k in before}
        if old:
            patch = json.dumps({"data": old}, sort_keys=True)
            await desk.k(
                f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'",
                "put cfg back so state is consistent",
                "; ".join(f"{k}: {change[k]} -> {v}" for k, v in old.items()),
            )
    desk.say(
        f"restart FAILED -> stopped there, rolled {name} back + cfg back to before. state consistent (old cfg, old pods). pls look at the new pods' error before retrying"
    )
    desk.say(await verify(desk, name))


async def _scale(desk: Desk, name: str, n: int) -> None:
    before = _replicas(desk, name)
    hpa = table(
        await desk.k(f"get hpa -n {desk.ns}", f"an autoscaler on {name} would fight a manual scale")
    )
    mine = [h for h in hpa if name in h.get("reference", "")]
    if mine:
        desk.say(
            f"not scaling: hpa `{mine[0].get('name')}` owns {name} replicas (min {mine[0].get('minpods')} max {mine[0].get('maxpods')}, now {mine[0].get('replicas')}) -> my scale would get overwritten / fight it. change the hpa min/max instead? pls confirm which"
        )
        return
    if n > max(10 * max(before, 1), 50):
        desk.say(
            f"{name} {before} -> {n} replicas is ~{n // max(before, 1)}x, way out of proportion (quota, nodes, cost). typo? pls confirm the number before i do that"
        )
        return
    prod = desk.env == "prod"
    if prod:
        desk.say(
            f"fyi ns {desk.ns} is labelled prod -> careful: checked current state first, scaling up only (no disruption), will watch rollout"
        )
        await desk.k(f"get hpa,pdb -n {desk.ns}", "prod: any hpa/pdb that would fight the change")
        await desk.k("get nodes", "prod: room on nodes for more pods")
    await desk.k(
        f"scale deploy/{name} -n {desk.ns} --replicas={n}",
        f"asked for {n} replicas",
        f"replicas {before} -> {n}",
    )
    desk.say(f"scaled {name}: replicas {before} -> {n}")
    desk.say(await verify(desk, name))


async def scale_to(desk: Desk) -> None:
    m = (
        re.search(r"([\w-]+)\s+replicas?\s+to\s+(\d+)", desk.prompt, re.I)
        or re.search(r"scale\s+([\w-]+)\s+to\s+(\d+)", desk.prompt, re.I)
        or re.search(
            r"\b([\w-]+)\s+deployment\s+to\s+(?:exactly\s+)?(\d+)\s+replicas", desk.prompt, re.I
        )
    )
    if not m:
        desk.say("which deploy + how many? pls say")
        return
    await _scale(desk, m.group(1), int(m.group(2)))


async def restart(desk: Desk, name: str, why: str = "asked to restart") -> None:
    if not name:
        desk.say("restart what? no deploy by that name here")
        return
    before = desk.deploys.get(name, {}).get("ready", "?")
    await desk.k(
        f"rollout restart deploy/{name} -n {desk.ns}",
        why,
        f"pods of {name} replaced (ready before: {before})",
    )
    desk.say(f"rolled {name} (rollout restart, one pod at a time, no downtime)")
    desk.say(await verify(desk, name))


async def fix_case(desk: Desk, case: Case) -> None:
    """After the diagnosis: act when asked and allowed and sure; else hand off w/ a plan."""
    asked = re.search(r"\bfix\b|handle|resolve|sort it|remediat", desk.low)
    if not case.cause and not symptom(desk):
        desk.say(f"{case.name} looks healthy from what i read, nothing to do")
        return
    crashing = [p for p in desk.pods_of(case.name) if "crashloop" in p.get("status", "").lower()]
    transient = re.search(r"transient|refused|timed? ?out|reset", case.cause, re.I)
    if asked and desk.may_write and case.kind == "log" and crashing and transient:
        desk.say(
            f"{case.name} crashlooping on `{case.signals[0][1]}` -> transient dep error, container gave up + backoff. "
            "clear enough, full authority here -> restarting, no need to escalate"
        )
        await _restart_bad_pods(desk, case)
        return
    if not case.sure or not case.cause:
        desk.say(
            "tbh no single root cause i can prove from what i read. what i have: "
            + ("; ".join(f"`{m}` x{n}" for _, m, n in case.signals[:3]) or "no clear errors")
            + (f"; {'; '.join(case.facts)}" if case.facts else "")
        )
        desk.say(
            "not guessing a fix on a hunch. escalating -> @on-call / svc owners pls take a look, context above. next i'd check upstream health + lb logs"
        )
        return
    if not asked:
        return
    name = case.name
    if not desk.may_write:
        await _hand_off(desk, case)
        return
    if case.kind == "conncap":
        cm, key, value = case.fix.split(":")
        new = str(int(value) * 10)
        patch = json.dumps({"data": {key: new}}, sort_keys=True)
        await desk.k(
            f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'",
            f"{key}={value} too low, conns over it get dropped; raise it so they fit",
            f"{key}: {value} -> {new}",
        )
        await restart(desk, name, why=f"{name} reads {cm} at start, needs restart to pick up {key}")
        desk.say(f"raised {key} {value} -> {new} in {cm} + rolled {name} to load it")
    elif case.kind == "pending":
        await _fit_requests(desk, case)
    elif case.kind == "oom":
        lim = limit_of(case, "memory")
        new = f"{int((lim or 268435456) * 2 / 1048576)}Mi"
        await desk.k(
            f"set resources deploy/{name} -n {desk.ns} --limits=memory={new}",
            "OOMKilled at limit, raise it",
            f"memory limit {case.pods[0].containers[0].limits.get('memory', '?')} -> {new}",
        )
        desk.say(f"raised {name} mem limit -> {new}. fyi leak still needs a fix in code")
        desk.say(await verify(desk, name))
    elif case.kind == "rollout":
        await desk.k(
            f"rollout undo deploy/{name} -n {desk.ns}",
            "bad rollout, back to last good revision",
            "image new -> previous",
        )
        desk.say(f"rolled {name} back to previous revision")
        desk.say(await verify(desk, name))
    else:
        await _restart_bad_pods(desk, case)


async def cpu_room(desk: Desk, why: str) -> tuple[dict[str, float], dict[str, float]]:
    """Allocatable cpu per node, and what the running pods of this ns request there."""
    nodes = await desk.k("describe nodes", why)
    alloc: dict[str, float] = {}
    for block in re.split(r"\n(?=Name:\s)", nodes):
        m = re.match(r"Name:\s+(\S+)", block.strip())
        a = re.search(r"Allocatable:[\s\S]*?cpu:\s+(\S+)", block)
        if m and a:
            alloc[m.group(1)] = quantity(a.group(1)) or 0
    running = describe_pods(
        await desk.k(
            f"describe pods -n {desk.ns}", "what the running pods already request per node"
        )
    )
    used = {n: 0.0 for n in alloc}
    for p in running:
        if p.node in used and p.status == "Running":
            used[p.node] += sum(
                quantity(c.requests.get("cpu", "0")) or 0 for c in p.containers if not c.init
            )
    return alloc, used


async def _fit_requests(desk: Desk, case: Case) -> None:
    """Lower the cpu request to what a node has free (the smallest change that schedules):
    allocatable per node minus the requests of the pods already running there."""
    alloc, used = await cpu_room(desk, "how much cpu each node can give vs the request")
    free = {n: alloc[n] - used[n] for n in alloc}
    room = max(free.values()) if free else 0
    old = next(
        (c.requests.get("cpu", "") for p in case.pods for c in p.containers if not c.init), "?"
    )
    new_m = max(100, int(room * 1000 * 0.6) // 100 * 100)
    desk.say(
        "cpu per node (allocatable - requested here): "
        + ", ".join(f"{n} {alloc[n]:.2f}-{used[n]:.2f}" for n in sorted(alloc))
        + f". request {old} > {room:.2f} free on best node, cant fit anywhere"
    )
    await desk.k(
        f"set resources deploy/{case.name} -n {desk.ns} --requests=cpu={new_m}m",
        f"request {old} > any node's free cpu, lower to {new_m}m so it schedules",
        f"cpu request {old} -> {new_m}m",
    )
    desk.say(
        f"lowered {case.name} cpu request {old} -> {new_m}m (fits w/ headroom, other ns use some too). limits untouched"
    )
    desk.say(await verify(desk, case.name))


async def _restart_bad_pods(desk: Desk, case: Case) -> None:
    bad = [
        p
        for p in desk.pods_of(case.name)
        if p.get("status") != "Running" or p.get("ready", "").startswith("0/")
    ]
    if len(bad) == 1 and len(desk.pods_of(case.name)) == 1 and case.pods and case.pods[0].owner:
        pod = bad[0]["name"]
        await desk.k(
            f"delete pod {pod} -n {desk.ns}",
            f"{pod} stuck crashing, fresh pod from its rs",
            f"pod {pod} -> replaced",
        )
        desk.say(
            f"deleted {pod}, rs made a new one. staging + clear diagnosis -> just did it, no need to escalate"
        )
        desk.say(await verify(desk, case.name))
    elif len(bad) == 1 and len(desk.pods_of(case.name)) == 1:
        await _recreate_bare(desk, bad[0]["name"])
        desk.say(await verify_pod(desk, bad[0]["name"]))
    else:
        await restart(desk, case.name, why=f"{case.name} degraded, clear diagnosis, fresh pods")


async def _recreate_bare(desk: Desk, pod: str) -> None:
    """A pod no controller owns: deleting it alone would lose it, so keep its spec, delete,
    and create it again from that spec (what `replace --force` does)."""
    doc = load_yaml(
        await desk.k(
            f"get pod {pod} -n {desk.ns} -o yaml",
            f"{pod} has no owner (bare pod) -> save spec before restart",
        )
    )
    if not isinstance(doc, dict):
        desk.say(f"couldnt read {pod} spec, not deleting a bare pod blind. pls check")
        return
    meta = doc.get("metadata") or {}
    keep = {k: meta[k] for k in ("name", "namespace", "labels", "annotations") if k in meta}
    spec = {k: v for k, v in (doc.get("spec") or {}).items() if k != "nodeName"}
    manifest = yaml.safe_dump(
        {"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec}, sort_keys=True
    )
    await desk.k(
        f"delete pod {pod} -n {desk.ns}",
        f"{pod} stuck in crashloop backoff, restart it",
        f"pod {pod} (restarts piling up) -> deleted",
    )
    await desk.apply(
        manifest,
        f"bring {pod} back from its own spec (bare pod, nobody else would)",
        f"pod {pod} -> recreated, restart count 0",
    )
    desk.say(
        f"restarted bare pod {pod} (saved spec -> delete -> recreate, same spec). staging + clear diagnosis -> just did it, no need to escalate"
    )


async def verify_pod(desk: Desk, pod: str) -> str:
    rows = table(await desk.k(f"get pod {pod} -n {desk.ns}", f"is {pod} back and up"))
    row = rows[0] if rows else {}
    return f"verify: {pod} {row.get('status', 'missing')} {row.get('ready', '')} restarts {row.get('restarts', '?')}"


async def _hand_off(desk: Desk, case: Case) -> None:
    why = "supervised mode + " + (
        "prod read-only zone"
        if desk.env == "prod" or "prod" in str(desk.task.scope)
        else "read-only zone"
    )
    approval = ", ".join(desk.task.scope.get("approval_required_for") or [])
    rec = (
        f"kubectl set resources deploy/{case.name} -n {desk.ns} --limits=memory=<2x current>"
        if case.kind == "oom"
        else f"kubectl rollout restart deploy/{case.name} -n {desk.ns}"
    )
    if case.kind == "oom":
        lim = limit_of(case, "memory")
        if lim:
            rec = f"kubectl set resources deploy/{case.name} -n {desk.ns} --limits=memory={int(lim * 2 / 1048576)}Mi"
    desk.say(
        f"not changing anything: {why}"
        + (f", policy needs approval for {approval}" if approval else "")
        + ". need a human ok first"
    )
    desk.say(
        f"recommend: `{rec}` (limit too low for what it uses). @{desk.labels.get('team', 'on-call')} pls approve, i'll apply + verify rollout after ur +1"
    )


async def rolling_update(desk: Desk) -> None:
    from .operator_heldout24_steps import rolling

    await rolling(desk)


async def high_availability(desk: Desk) -> None:
    from .operator_heldout24_steps import ha

    await ha(desk)


async def runbook(desk: Desk) -> None:
    from .operator_heldout24_steps import follow_runbook

    await follow_runbook(desk)


__all__ = ["diagnose", "load_json", "read_case"]
