"""heldout45's fixes and rollouts (session 37, written blind): a limit raise (or its proposal),
a stuck Pending pod, an unready pod, an unexplained crash, a canary, a runbook, a paused
rollout, an image change, a highly-available layout. Each write is read back.
"""

from __future__ import annotations

import json
import re

from .operator_heldout45 import Change, Desk
from .operator_heldout45_do import _replicas, _verify, restart
from .operator_heldout45_judge import may_write, wants_fix
from .operator_heldout45_look import Facts, containers
from .operator_read import items, load_json, mib, prom_series, quantity, table


async def raise_limit(desk: Desk, f: Facts, name: str, limit: str) -> None:
    L = desk.lesson
    cur = quantity(limit) or 0
    peak = max(f.memory) if f.memory else cur
    new = mib(max(cur * 2, peak * 1.5)) if cur else "512Mi"
    cmd = f"kubectl set resources deployment/{f.name} -n {f.ns} -c {name} --limits=memory={new}"
    if not may_write(desk):
        L.not_done.append(
            f"I did not change the limit: this is {', '.join(desk.zones) or 'a protected zone'} and writes here need approval ({', '.join(desk.approval) or 'read-only zone'}). "
            f"What I recommend, for whoever approves: raise {name}'s memory limit from {limit} to {new}, with `{cmd}`, then watch restarts stay at zero."
        )
        L.told.append(
            f"the approver / on-call owner of {f.ns}, with the recommendation: {limit} -> {new}, and the evidence above (OOMKilled, exit 137)"
        )
        return
    if not wants_fix(desk):
        L.not_done.append(
            f"You asked what's wrong, not to change it, so I left it. The fix I'd make: `{cmd}`."
        )
        return
    ok, out = await desk.write(cmd[len("kubectl ") :])
    healthy, after = await _verify(desk, f.name) if ok else (False, out[:120])
    L.done.append(
        Change(
            f"raised {name}'s memory limit on {f.name}",
            "it was OOMKilled at its limit",
            f"limit {limit}",
            f"limit {new} ({after})",
            "verified" if healthy else "not healthy yet",
        )
    )
    L.remember.append(
        "A bigger limit buys time; if memory keeps climbing it's a leak, and the owners need to know."
    )


async def unpend(desk: Desk, f: Facts) -> None:
    """Pending pods: the scheduler's own message says why."""
    L = desk.lesson
    why = next((e for e in f.events if "FailedScheduling" in e), "")
    why = why or next((e for p in f.described for e in p.events if "FailedScheduling" in e), "")
    req = {
        k: v
        for c in containers(f.spec)
        for k, v in (((c.get("resources") or {}).get("requests")) or {}).items()
    }
    nodes = items(
        await desk.read(
            "the nodes' allocatable: what the scheduler compares the requests with",
            command="get nodes -o yaml",
        )
    )
    alloc = [((n.get("status") or {}).get("allocatable") or {}) for n in nodes]
    desk.shows(
        "; ".join(
            f"{(n.get('metadata') or {}).get('name')}: cpu {a.get('cpu')}, memory {a.get('memory')}"
            for n, a in zip(nodes, alloc)
        )
        + "."
    )
    L.cause = f"the pods can't be scheduled: {why or 'no node fits their requests'}"
    L.evidence.append(
        f"the pod is Pending with no node; it requests {', '.join(f'{k} {v}' for k, v in req.items()) or 'nothing stated'}"
    )
    too_big = []
    for k, v in req.items():
        q = quantity(str(v)) or 0
        best = max((quantity(str(a.get(k, "0"))) or 0 for a in alloc), default=0)
        if best and q > best:
            too_big.append((k, v, best))
    L.tempting.append(
        (
            "the cluster is out of nodes, so add one",
            "the scheduler's message names the resource, and the request is bigger than any one node has; another node of the same size wouldn't fit it either."
            if too_big
            else "the message says which resource is short; read it before buying hardware.",
        )
    )
    if not too_big or not wants_fix(desk) or not may_write(desk):
        if too_big:
            L.not_done.append("I did not change the requests: you asked me to look, not fix.")
        return
    k, v, best = too_big[0]
    new = mib(best * 0.25) if k == "memory" else f"{max(round(best * 0.25, 1), 0.1) * 1000:.0f}m"
    ok, out = await desk.write(f"set resources deployment/{f.name} -n {f.ns} --requests={k}={new}")
    healthy, after = await _verify(desk, f.name) if ok else (False, out[:120])
    L.done.append(
        Change(
            f"lowered {f.name}'s {k} request",
            f"{v} is more than the largest node's {mib(best) if k == 'memory' else best} allocatable, so no node could ever take it",
            f"requests {k}={v}",
            f"requests {k}={new} ({after})",
            "verified: scheduled and ready" if healthy else "still not ready",
        )
    )
    L.told.append(
        f"{f.name}'s owners: the request was {v}, which no node can hold; I set {new} to get it running, they should confirm the real need"
    )


async def not_ready(desk: Desk, f: Facts, fix: bool) -> None:
    L = desk.lesson
    bad = [
        p
        for p in f.pods
        if p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
    ]
    probe = next((e for e in f.events if "probe" in e.lower()), "")
    L.cause = f"{len(bad)} of {len(f.pods)} {f.name} pods fail their readiness probe ({probe or 'not ready'}), so the service sends traffic to fewer pods"
    L.evidence.append(
        f"{', '.join(p['name'] for p in bad)} {bad[0].get('ready') if bad else ''} Running with 0 restarts: alive, but not taking traffic"
    )
    L.tempting.append(
        (
            "the whole deployment is down",
            f"{len(f.pods) - len(bad)} pods are ready and serving; this is one stuck pod, not an outage.",
        )
    )
    if f.logs:
        L.evidence.append(f'its log lines: {f.logs[0][2]}x "{f.logs[0][1][:140]}"')
    if not fix:
        L.not_done.append("You didn't ask for a change, so I left the pod as it is.")
        return
    await restart(
        desk,
        f.name,
        f"one pod is stuck unready and the others are fine; a rolling restart replaces it without dropping below {len(f.pods) - len(bad)} serving pods",
    )


async def crash_unknown(desk: Desk, f: Facts, fix: bool) -> None:
    L = desk.lesson
    top = f.logs[0] if f.logs else None
    exit_code = next((c.exit_code for p in f.described for c in p.containers if c.exit_code), "")
    L.cause = (
        f"{f.name}'s container exits and is restarted (CrashLoopBackOff)"
        + (f'; its last words: "{top[1][:160]}"' if top else "")
        + (f", exit code {exit_code}" if exit_code else "")
    )
    L.evidence.append(
        "restarts in the pod table, Last State Terminated in describe"
        + (f", and {top[2]}x that line in the previous container's log" if top else "")
    )
    if not fix:
        return
    owner = next((p.owner for p in f.described if p.owner), "")
    if owner or f.spec:
        await restart(
            desk,
            f.name,
            "staging, my own scope, and the crash is clear: a fresh start is the agreed first step, and I verify it stays up",
        )
        return
    await _recreate(desk, f)


async def _recreate(desk: Desk, f: Facts) -> None:
    """A bare pod (no controller): keep its spec, delete it, create it again from that spec."""
    L = desk.lesson
    pod = f.pods[0]["name"] if f.pods else f.name
    found = items(
        await desk.read(
            f"{pod} has no controller, so nothing will recreate it for me: I save its exact spec first",
            command=f"get pod {pod} -n {desk.ns} -o yaml",
        )
    )
    if not found:
        L.not_done.append(
            f"I could not read {pod}'s spec, so I did not delete it: without the spec it would be gone for good."
        )
        return
    spec = found[0]
    meta = spec.get("metadata") or {}
    body = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": meta.get("name"),
            "namespace": desk.ns,
            "labels": meta.get("labels") or {},
        },
        "spec": {k: v for k, v in (spec.get("spec") or {}).items() if k != "nodeName"},
    }
    ok, out = await desk.write(f"delete pod {pod} -n {desk.ns} --wait=true")
    _ok2, out2 = await desk.write("apply -f -", stdin=json.dumps(body)) if ok else (False, out)
    rows = table(
        await desk.read(
            f"is the new {pod} up and staying up?", command=f"get pod {pod} -n {desk.ns}"
        )
    )
    row = rows[0] if rows else {}
    desk.shows(
        f"{pod} {row.get('ready', '?')} {row.get('status', '?')} restarts {row.get('restarts', '?')}."
    )
    healthy = (
        row.get("status") == "Running"
        and row.get("ready", "0/1").split("/")[0] == row.get("ready", "0/1").split("/")[-1]
    )
    L.done.append(
        Change(
            f"restarted the bare pod {pod} (saved its spec, deleted it, created it again from that spec)",
            "the error is a transient dependency failure and it is staging, in my scope: a clean start is the proportionate fix, no approval needed",
            f"CrashLoopBackOff, {f.pods[0].get('restarts') if f.pods else '?'} restarts",
            f"{row.get('status', out2[:80])} {row.get('ready', '')}",
            "verified Running and ready"
            if healthy
            else "not healthy yet: I'd look again at its logs",
        )
    )
    L.remember.append(
        "A bare pod has no controller: a delete is final unless you saved its spec first. Better still, tell its owner to run it under a Deployment."
    )


async def migration(desk: Desk, f: Facts) -> None:
    """A broken schema change: find it, weigh the rollback's risk, and ask before touching data."""
    L = desk.lesson
    rows = re.findall(
        r"\|\s*\w+\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*\w+\s*\|\s*([^|]+?)\s*\|\s*(\w+)\s*\|",
        f.migrations,
    )
    last = rows[-1] if rows else None
    err = next(
        (m for _, m, _ in f.logs if re.search(r"column|relation|schema|table", m, re.I)),
        f.logs[0][1] if f.logs else "",
    )
    L.cause = (
        f'the app and the schema disagree after migration {last[0]} ("{last[1]}", applied {last[2]}): the app fails with "{err[:140]}"'
        if last
        else f'the app fails against the schema: "{err[:140]}"'
    )
    L.evidence.append(
        "migration history: " + "; ".join(f"{v} {d} ({st}, {at})" for v, d, at, st in rows)
    )
    if err:
        L.evidence.append(f'the container\'s previous log: "{err[:160]}", every start')
    count = ""
    if last and desk.has("database"):
        tables = await desk.read(
            "what lives in this database, so the risk of a rollback is a number and not a feeling",
            tool="database",
            query="SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
            database=f.name,
        )
        bad = "error" in tables.lower() or "denied" in tables.lower()
        desk.shows(
            "not allowed to list tables; I'll try the table the service is named after."
            if bad
            else " ".join(tables.split())[:200]
        )
        names = (
            []
            if bad
            else [x for x in re.findall(r"^\s*([a-z_]+)\s*$", tables, re.M) if x != "tablename"]
        )
        names = names or [f.name.split("-")[0] + "s"]
        for t in names[:2]:
            out = await desk.read(
                f"rows written to {t} since the migration: those are what a rollback could lose",
                tool="database",
                query=f"SELECT count(*) FROM {t} WHERE created_at > '{last[2]}'",
                database=f.name,
            )
            m = (
                re.search(r"\b(\d+)\b", out.split("count", 1)[-1])
                if "error" not in out.lower()
                else None
            )
            desk.shows(f"{m.group(1)} rows." if m else "no count.")
            if m:
                count = f"{m.group(1)} rows written to {t} since {last[2]}"
                break
    risk = (
        f"rolling back {last[0]} reverses the schema change; anything written under the new schema since {last[2]}"
        + (f" ({count})" if count else "")
        + " can be lost, and other services reading this database would see the schema change under them"
        if last
        else "a schema rollback can lose data"
    )
    L.tempting.append(
        (
            "just roll the migration back, it's what broke it",
            f"the migration itself reports Success; the rollback is the one move here you can't undo: {risk}.",
        )
    )
    L.tempting.append(
        (
            "restart the pod",
            "it fails the same way on every start; the schema won't change by restarting.",
        )
    )
    L.not_done.append(f"I did not roll back the migration or restart anything. The risk: {risk}.")
    L.says.append("The plan I'm proposing, for approval before anything runs:")
    L.says += [
        f"  1. back up the database (snapshot) and record the row counts{' (' + count + ')' if count else ''};",
        f"  2. preferred: roll the app forward to code that matches schema {last[0] if last else 'now applied'}, which touches no data;",
        f"  3. only if that's not possible: roll back migration {last[0] if last else ''} with its down script, in a window, after the backup, with the owner watching;",
        "  4. verify: user-service pods Running and ready, the error gone from the logs.",
    ]
    L.told.append(
        f"{f.name}'s owners and the DBA: this plan, the risk ({count or 'data written since the migration'}), and a request for approval before step 2 or 3"
    )


async def canary(desk: Desk, targets: list[str], deps: list[str]) -> None:
    L = desk.lesson
    can = next((d for d in deps if "canary" in d and any(t in d for t in targets)), "") or next(
        (d for d in deps if "canary" in d), ""
    )
    if not can:
        L.unknown.append("I found no canary deployment to judge.")
        return
    base = can.replace("-canary", "")
    spec = await _replicas(desk, can)
    image = ",".join(str(c.get("image")) for c in containers(spec))
    names = await desk.read(
        "what metrics exist, so I query the error rate by its real name",
        tool="metrics_query",
        action="metric_names",
    )
    known = (load_json(names) or {}).get("data", [])
    rates: dict[str, float | None] = {}
    if "error_rate" in known:
        found = prom_series(
            await desk.read(
                "the error rate, per deployment: the canary's own number, next to the stable one",
                tool="metrics_query",
                action="query",
                query=f'error_rate{{namespace="{desk.ns}"}}',
            )
        )
        for dep in (can, base):
            hit = [v for labels, v in found if dep in labels.values() and v]
            rates[dep] = hit[0][-1] if hit else None
        desk.shows(
            "; ".join(
                f"{d}: {r:.1%}" if r is not None else f"{d}: no series" for d, r in rates.items()
            )
            + "."
        )
    r = rates.get(can)
    if r is None:
        L.unknown.append(
            "I could not read the canary's error rate, so I did not take either branch."
        )
        return
    L.evidence.append(
        f"canary {can} ({image}) error rate {r:.1%} against the 2% threshold"
        + (f"; the stable {base} is at {rates[base]:.1%}" if rates.get(base) is not None else "")
    )
    if r < 0.02:
        L.cause = f"the canary is healthy ({r:.1%} < 2%), so the next step is 50%"
        L.not_done.append(
            "I did not shift traffic: I found no traffic-split object to edit, so the 50% step is yours to take on your rollout tool."
        )
        return
    L.cause = (
        f"the canary is not healthy: {r:.1%} errors is above the 2% bar, so the branch is roll back"
    )
    L.tempting.append(
        (
            "5% is only a bit over, give it time",
            "the condition you set is the contract; a canary exists so that a bad version fails small. Above the bar means back.",
        )
    )
    have = int((spec.get("spec") or {}).get("replicas") or 0)
    _ok, out = await desk.write(f"scale deployment/{can} -n {desk.ns} --replicas=0")
    pods = table(
        await desk.read(
            "check the canary's pods are gone and the stable version is intact",
            command=f"get deployments -n {desk.ns}",
        )
    )
    row = next((p for p in pods if p.get("name") == can), {})
    desk.shows(
        f"{can} {row.get('ready', '?')}; {base} "
        + next((p.get("ready", "?") for p in pods if p.get("name") == base), "?")
        + "."
    )
    L.done.append(
        Change(
            f"rolled back the canary: scaled {can} to 0",
            f"its error rate {r:.1%} is over the 2% you set",
            f"{have} replica(s) on {image}",
            f"0 replicas ({row.get('ready', out[:60])})",
            "verified: stable deployment untouched",
        )
    )
    L.not_done.append(f"I did not bump to 50%, and I left the stable {base} alone.")
    L.told.append(f"the owners of {base}: canary {image} failed at {r:.1%} errors, rolled back")
