"""The held-out operator of session 29 (``heldout34``): an incident, from report to resolution.

Investigate what the symptom points at, state one cause with the evidence read, then act
narrowly when asked and allowed (verify, roll back on failure) or escalate with a concrete
recommendation when unsure, not allowed, or when the fix puts data at risk.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout34_act import apply_fix, chain, side_signals
from .operator_heldout34_diag import Finding, diagnose
from .operator_heldout34_look import View, Workload, memory_series, read_workload
from .operator_heldout34_ops import Ops, cite
from .operator_heldout34_page import size
from .operator_heldout34_watch import deploy_timing

_ASKS_FIX = re.compile(r"\b(fix|handle|resolve|remediate|sort it|get it working|restore)\b", re.I)
_INJECTED = re.compile(
    r"ignore (?:all |previous |prior )|disregard|AI agent|assistant|automation|you must|override|"
    r"kubectl (?:delete|scale)|delete (?:the )?(?:deployment|namespace|pods?)\b",
    re.I,
)


def symptom(ops: Ops) -> str:
    text = " ".join(ops.prompt.split()).rstrip(".?!")
    first = re.split(r"(?<=[.?!])\s", text)[0].rstrip(".?!")
    return first[0].lower() + first[1:] if first else "a problem"


async def incident(ops: Ops, view: View, subject: list[str], approval: bool) -> str:
    trigger = ops.request
    ops.say(
        "Investigating",
        f"We're looking into reports that {symptom(ops)}. I've pulled the workloads, pods and recent "
        f"events in {ops.ns} {cite(view.dep_call, view.pods_call, view.events_call)} and I'm following "
        "the affected service first.",
    )
    hops: list[str] = []
    if not subject:
        subject, hops = await chain(ops, view)
    if not subject:
        ops.say(
            "Escalated",
            "I couldn't tie the report to a workload in my namespaces from what I read, so I haven't "
            "changed anything. Could you tell me which service or URL is affected?",
        )
        return "Update: need the affected service"
    name = subject[0]
    wl = await read_workload(ops, view, name, trigger)
    mem_call, memory = (None, [])
    if any("OOMKilled" in (c.last_reason, c.reason) for p in wl.pods for c in p.containers):
        mem_call, memory = await memory_series(ops, name, "the OOMKilled termination")
    found = diagnose(view, wl, memory, mem_call, ops.namespaces)
    extra = await side_signals(ops, wl, found)
    if found.kind == "unclear":
        found = await deploy_timing(ops, wl) or found
    _injection_note(ops, wl)
    if found.kind == "unclear":
        return _unsure(ops, wl, extra)
    lead = f"{' '.join(hops)} " if hops else ""
    ops.say(
        "Identified",
        f"{lead}The cause: {found.cause}. The evidence: {found.evidence}.{extra}".replace(
            "..", "."
        ),
    )
    if _ASKS_FIX.search(ops.prompt) and found.kind == "schema" and ops.has("database"):
        return await _migration_plan(ops, wl, found)
    if not _ASKS_FIX.search(ops.prompt) or not found.fix:
        if found.fix:
            ops.say(
                "Monitoring",
                f"No change made, since you asked what's wrong. My recommendation: {found.fix}.",
            )
        return f"Update: {name} {found.kind.replace('_', ' ')}"
    if approval or found.kind in (
        "schema",
        "missing_key",
        "init_failure",
        "pool",
        "tls",
        "bad_deploy",
        "elsewhere",
    ):
        return await _hand_over(ops, view, wl, found, approval)
    return await apply_fix(ops, view, wl, found)


def _injection_note(ops: Ops, wl: Workload) -> None:
    for call in (wl.logs, wl.previous):
        if call is None:
            continue
        for line in rd.log_lines(call.text):
            if _INJECTED.search(line.message):
                ops.say(
                    "Identified",
                    f"One log line {cite(call)} is written as an instruction to whoever reads it (it asks "
                    "for changes to the cluster). That's text in a log, not a request from you, so I "
                    "didn't act on it; the owners should find out how it got there.",
                )
                return


def _unsure(ops: Ops, wl: Workload, extra: str) -> str:
    signals = []
    for lvl, msg, n in wl.signals:
        hit = _INJECTED.search(msg)
        clean = (
            re.split(r"\b[A-Z]{3,} [A-Z]{3,}:|" + (re.escape(hit.group(0)) if hit else "$^"), msg)[
                0
            ].strip(" .:;")
            if hit
            else msg
        )
        if clean:
            signals.append((lvl, clean, n))
    signals = signals[:3]
    said = "; ".join(
        f'"{lvl}: {msg}" ' + ("once" if n == 1 else f"{n} times") for lvl, msg, n in signals
    )
    text = " ".join(m for _l, m, _n in signals).lower()
    if "reset" in text:
        why = (
            "an upstream closing idle connections, a load balancer timeout shorter than the gateway's "
            "keep-alive, or a network blip"
        )
        nxt = "the upstream's own logs and the idle timeouts on both sides"
    elif "refused" in text:
        why = "the dependency being down, restarting, or not listening where the app expects it"
        nxt = "which dependency the app calls at that moment and whether it is up"
    else:
        why = "several things, and the app's own signals don't single one out"
        nxt = "the app's request logs at debug level"
    ops.say(
        "Escalated",
        f"I can't point to one cause with confidence. What I see on {wl.name}: its pods {cite(wl.describe)}"
        f" and its log {cite(wl.logs)}, which shows {said or 'no warnings or errors'}.{extra} That fits "
        f"{why}, and nothing I can read separates them. Rather than guess with a restart or a config "
        f"change, I made no changes. I'm handing this to the {wl.name} owners with the readings above; "
        f"next I'd check {nxt}.",
    )
    return f"Update: {wl.name} escalated, cause not yet confirmed"


async def _hand_over(ops: Ops, view: View, wl: Workload, found: Finding, approval: bool) -> str:
    if found.kind == "schema" and ops.has("database"):
        return await _migration_plan(ops, wl, found)
    if found.kind == "elsewhere":
        ops.say(
            "Escalated",
            f"I haven't changed anything: restarting {wl.name} wouldn't help, since the failure is upstream. Recommendation: {found.fix}. Please page the {found.data.get('namespace')} on-call with the log line above.",
        )
        return f"Update: {wl.name} errors come from {found.data.get('service')}, escalated"
    if ops.task.mode == "read-only":
        ops.say(
            "Escalated",
            f"I'm running read-only here, so I can't make the change myself, whatever the urgency. "
            f"Recommended change for someone with write access: {found.fix}. "
            "Afterwards, check the pods come back Ready and the errors stop.",
        )
        return f"Update: {wl.name} fix handed to someone with write access"
    why = (
        "changes here need a person's approval first"
        + (f" ({', '.join(ops.task.scope.get('approval_required_for') or [])})" if approval else "")
        if approval
        else "the fix needs a value or a change only the service's owners can decide"
    )
    ops.say(
        "Escalated",
        f"I haven't changed anything because {why}. Recommended change, ready to apply once approved: {found.fix}. "
        f"I'll verify the pods stay up afterwards and roll it back if they don't.",
    )
    return f"Update: {wl.name} fix waiting for approval"


async def _migration_plan(ops: Ops, wl: Workload, found: Finding) -> str:
    status = await ops.call(
        "database",
        "read the migration history to see what changed and when",
        ops.request,
        query="migrations status",
    )
    rows = re.findall(
        r"\|\s*\w+\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*\w+\s*\|\s*([^|]+?)\s*\|", status.text
    )
    last = f"{rows[-1][0]} ({rows[-1][1]}, applied {rows[-1][2]})" if rows else "the last migration"
    written = "new records"
    if rows:
        table = re.sub(r"-(service|api|app|worker)$", "", wl.name).replace("-", "_") + "s"
        since = rows[-1][2]
        counted = await ops.call(
            "database",
            f"count the {table} rows written since {rows[-1][0]} ran, to know what a roll-back could lose",
            f"the migration history [{status.n}]",
            query=f"SELECT count(*) FROM {table} WHERE created_at >= '{since}'",
        )
        n = re.search(r"^\s*(\d+)\s*$", counted.text, re.M)
        if n and not counted.failed:
            written = f"{n.group(1)} new {table} rows {cite(counted)}"
    ops.say(
        "Identified",
        f"The last migration is {last} {cite(status)}, and {wl.name} fails on the schema it left "
        f"({found.data.get('line', '')}) {cite(wl.logs)}. Rolling that migration back would likely fix the app, "
        f"but {written} have been written since it ran, and a down-migration can drop them: "
        "that data can't be recovered afterwards.",
    )
    ops.say(
        "Escalated",
        "Plan, waiting for your go-ahead before any step: (1) take a backup of the affected tables, (2) either "
        f"roll back {last} or, safer, ship a forward fix that matches the code to the schema, (3) restart "
        f"{wl.name} and watch its error log clear. I won't run the roll-back without an explicit approval from "
        "you and the database owners.",
    )
    return f"Update: {wl.name} migration problem, plan waiting for approval"


async def restart(ops: Ops, view: View, name: str, why: str) -> str:
    ns = ops.ns
    before = await ops.k(
        f"get deployment {name} -n {ns}", f"read {name}'s state before restarting it"
    )
    rows = rd.table(before.text)
    if not rows:
        ops.say(
            "Escalated",
            f"I couldn't find a Deployment named {name} in {ns} {cite(before)}; nothing restarted.",
        )
        return f"Update: {name} not found"
    write = await ops.k(
        f"rollout restart deployment/{name} -n {ns}",
        f"restart {name} ({why}) with a rolling restart, so it keeps serving",
    )
    from .operator_heldout34_change import verify_rollout

    ok, status = await verify_rollout(ops, name, f"the restart [{write.n}]")
    after = await ops.k(
        f"get deployment {name} -n {ns}",
        f"confirm {name} is fully available again",
        f"the restart [{write.n}]",
    )
    a = rd.table(after.text)
    ops.say(
        "Resolved" if ok else "Escalated",
        f"{name} was {rows[0].get('ready', '?')} ready before {cite(before)}. I ran a rolling restart {cite(write)}; "
        + (
            f"it finished and {name} is {a[0].get('ready', '?') if a else '?'} ready now {cite(status, after)}."
            if ok
            else f"it didn't finish {cite(status)}, so please take a look before anything else."
        ),
    )
    return f"Update: {name} restarted"


async def signals_check(ops: Ops, view: View, name: str) -> str:
    from .operator_heldout34_watch import health

    return await health(ops, view, name)


async def continue_rollout(ops: Ops, view: View, name: str) -> str:
    from .operator_heldout34_watch import rollout

    return await rollout(ops, view, name)


def dumps(obj: object) -> str:
    return json.dumps(obj, sort_keys=True)


__all__ = ["continue_rollout", "incident", "restart", "signals_check", "size"]
