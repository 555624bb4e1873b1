"""``plainspoken`` on one named workload (issue 27, item 6): diagnose it from its pods, logs,
numbers and traces, then fix it when asked and allowed, or hold the fix and hand it off with
what it found. Nothing here knows a scenario.
"""

from __future__ import annotations

import re

from . import operator_plain_ops as ops
from .operator_plain import Shift, Workloads, env_class, firing_alerts, logs, service_metrics
from .operator_plain_diag import Finding, look_at_workload, memory_story
from .operator_plain_look import look_at_history, look_at_migration
from .operator_plain_note import Note
from .operator_read import bottleneck, load_json, log_lines, signal_patterns, table, trace_tree

FIX_WORDS = r"\b(fix|handle|resolve|sort (it|this) out)\b"


async def diagnose_and_fix(shift: Shift, ns: str, here: Workloads, name: str, note: Note) -> None:
    low = shift.cues([*here.deployments, *[p.get("name", "") for p in here.pods], name])
    if "health" in low:
        return await _health(shift, ns, name, note)
    if re.search(r"\blogs?\b", low):
        return await _logs(shift, ns, name, note)
    f = await look_at_workload(shift, ns, name, here)
    series = await service_metrics(shift, ns, name)
    if "migration" in low and shift.has("database"):
        return await _migration(shift, ns, name, f, note)
    if re.search(r"slow|latency", low):
        await _slow(shift, ns, name, series, f, note)
    if re.search(r"error rate|spik", low):
        await _deploy(shift, ns, name, series, f, note)
    mem = memory_story(name, series, f.limit)
    if f.cause:
        note.lead.append(f.cause)
    if mem and not f.cause:
        note.lead.append(mem)
        note.after.append(
            f"Worth acting on today rather than at 3am: raise {name}'s memory limit or find "
            "what keeps growing (a heap dump now, while it's still up, would show it)"
        )
    elif mem:
        note.more.append(
            mem + (" — a leak, not a spike" if f.fix and f.fix.kind == "limit" else "")
        )
    if re.search(r"\bcpu\b", low):
        await _cpu(shift, ns, name, note)
    note.saw.extend(f.evidence)
    if not f.cause and not note.lead:
        return await _unsure(shift, ns, name, series, f, note)
    if re.search(FIX_WORDS, low) or re.search(r"\binvestigate and fix|fix,|fix it", low):
        await _fix(shift, ns, here, name, f, note)
    elif f.fix and f.fix.kind == "key":
        note.after.append(
            f"Fix: add {f.fix.detail['key']} to ConfigMap {f.fix.target} with the value your "
            "SMTP relay expects, and the pods will start on their next restart. I haven't "
            "changed anything since you only asked what's wrong"
            if "SMTP" in f.fix.detail["key"]
            else f"Fix: add {f.fix.detail['key']} to ConfigMap {f.fix.target}; I haven't changed "
            "anything since you only asked what's wrong"
        )
    elif "worry" in low or "doing" in low:
        pass
    return None


async def _fix(shift: Shift, ns: str, here: Workloads, name: str, f: Finding, note: Note) -> None:
    fix = f.fix
    env = env_class(shift, ns)
    if fix and fix.kind == "limit":
        limit = fix.detail.get("limit", "")
        m = re.fullmatch(r"(\d+)(Mi|Gi)", limit)
        bigger = f"{int(m.group(1)) * 2}{m.group(2)}" if m else "a higher value"
        if not shift.writes_allowed or env == "production":
            why = (
                f"{ns} is production and I'm in {shift.task.mode} mode, where writes need approval"
            )
            note.after.append(
                f"Fix I'd make: raise the memory limit of {name} from {limit} to {bigger} "
                f"(kubectl set resources deployment/{name} --limits=memory={bigger}). I'd hold "
                f"this until someone with prod rights signs off, since {why}. Nothing changed yet"
            )
            note.after.append(
                f"Handing this to whoever owns {name} in {ns}: the numbers above are what they "
                "need, and if the usage keeps creeping after the bump, it's a leak to chase in code"
            )
            return None
    if fix and fix.kind == "delete-pod":
        pod = next((p["name"] for p in here.pods if p.get("name", "").startswith(name)), name)
        await shift.kubectl(
            f"delete pod {pod} -n {ns}",
            f"to give {pod} a clean start; its error is transient and it's stuck in back-off",
            change=f"pod {pod} deleted, its controller or you recreate it",
        )
        await shift.kubectl(f"get pods -n {ns}", "to check the pod came back")
        note.did.append(
            f"deleted pod {pod} in {ns} to clear the CrashLoopBackOff back-off (before: "
            f"{pod} in CrashLoopBackOff; after: replaced)"
        )
        note.after.append(
            "This is staging and the error is a transient connection refusal, so I just did it; "
            "no need to page anyone. If it keeps happening, look at Redis itself"
        )
        return None
    if fix and fix.kind == "request":
        to = fix.detail["to"]
        container = {"name": name, "resources": {"requests": {"cpu": to}}}
        patch = ops.compact({"spec": {"template": {"spec": {"containers": [container]}}}})
        await shift.kubectl(
            f"patch deployment {name} -n {ns} -p '{patch}'",
            f"because a {fix.detail['from']} CPU request can't fit on any node; {to} fits",
            change=f"CPU request {fix.detail['from']} -> {to}",
        )
        await shift.kubectl(f"get pods -n {ns} -l app={name}", "to check the pods got scheduled")
        note.did.append(
            f"lowered {name}'s CPU request from {fix.detail['from']} to {to} (before "
            f"{fix.detail['from']}, after {to}) so it fits on a node"
        )
        return None
    if fix and fix.kind == "restart":
        held = await ops.guard_workload(shift, ns, name)
        if held:
            note.after.append(f"I'd hold a restart of {name}: {held}")
            return None
        ok = await ops.restart(
            shift, ns, name, f"{name} has a pod that isn't ready and nothing points elsewhere"
        )
        note.did.append(
            f"restarted deployment {name} (rolling restart; before: a pod not ready; after: "
            "every pod ready)"
        )
        note.more.append(
            f"Checked after: {name}'s rollout finished and every replica is ready again"
            if ok
            else f"{name} is still unhealthy after a restart, so this needs a deeper look"
        )
    return None


async def _unsure(
    shift: Shift, ns: str, name: str, series: dict[str, list[float]], f: Finding, note: Note
) -> None:
    p99 = (series.get("latency_p99") or series.get("p99_latency_ms") or [None])[-1]
    base = (series.get("normal_latency_p99") or series.get("normal_p99_latency_ms") or [None])[-1]
    err = (series.get("error_rate") or [None])[-1]
    bits = []
    if p99 and base:
        bits.append(f"p99 is {p99 / 1000:.1f}s against its usual {base / 1000:.1f}s")
    if err is not None:
        bits.append(f"about {err:.0%} of requests fail")
    seen = "; ".join(f.evidence)
    upstream = bool(re.search(r"reset|refused|upstream|timed? ?out", seen, re.I))
    said = (
        f"its log keeps saying the upstream reset the connection ({seen})"
        if upstream
        else f"the only warnings in its log are {seen or 'none at all'}"
    )
    note.lead.append(
        f"I'm not sure what's behind this yet. What {name} shows: {said}"
        + (", and " + ", ".join(bits) if bits else "")
    )
    note.more.append(
        (
            f"That points at something upstream of {name} dropping connections, but nothing I "
            "can see says which upstream or why"
            if upstream
            else "Nothing I read singles out a cause"
        )
        + ", so any change I made now would be a guess. I haven't changed anything"
    )
    note.after.append(
        f"I'd hand this to the owners of {name}'s upstreams with those numbers: the resets in "
        f"{name}'s log, the p99 and the error rate. Their side (connection limits, idle "
        "timeouts, a deploy) is where I'd look next"
        if upstream
        else f"I'd hand this to whoever owns {name} with what's above, and keep watching it"
    )


async def _health(shift: Shift, ns: str, name: str, note: Note) -> None:
    await shift.kubectl(f"get deployment {name} -n {ns}", f"to see {name}'s replicas")
    alerts = await firing_alerts(shift, f"to see whether anything is alerting on {name}")
    mine = [
        a
        for a in alerts
        if name in str(a.get("labels", {})) or name in str(a.get("annotations", {}))
    ]
    if not mine:
        note.lead.append(f"{name} looks healthy: all replicas ready and nothing alerting")
        return
    alert = mine[0].get("labels", {}).get("alertname", "an alert")
    shift.prompted_by = f"the {alert} alert"
    q = f'container_memory_working_set_bytes{{namespace="{ns}", service="{name}"}}'
    text = await shift.use(
        "metrics_query",
        f"to see how much memory {name} is using",
        f"metrics_query {q}",
        action="query_range",
        query=q,
        start="-6h",
    )
    await shift.kubectl(f"describe pods -n {ns} -l app={name}", f"to check {name}'s memory limit")
    shift.prompted_by = "your message"
    note.lead.append(
        f"{name}'s replicas are all up, but while I was checking, the {alert} alert started "
        f"firing for {name}, so I looked at its memory too"
    )
    doc = load_json(text) or {}
    note.more.append(
        "Nothing is crashing yet. I'd keep an eye on it and look at what's holding memory "
        "if the alert stays on"
        if doc
        else ""
    )


async def _logs(shift: Shift, ns: str, name: str, note: Note) -> None:
    text = await logs(shift, ns, name)
    lines = log_lines(text)
    noise = sum(1 for ln in lines if not ln.signal)
    pats = signal_patterns(lines)
    if not pats:
        note.lead.append(f"{name}'s logs are clean")
        return
    _, msg, n = pats[0]
    m = re.search(r"connecting to ([\w.-]+:\d+)", msg)
    where = m.group(1) if m else "its upstream"
    note.lead.append(
        f"The failures are TLS: {name}'s handshakes with {where} fail because that upstream's "
        f"certificate has expired ({n} times in the last {len(lines)} lines)"
        if re.search(r"certificate|tls|x509", msg, re.I)
        else f"The one real error in {name}'s logs: {msg} ({n} times)"
    )
    note.more.append(
        f"Everything else ({noise} of {len(lines)} lines) is health checks and debug/trace chatter, "
        "which I ignored"
    )
    note.after.append(
        f"Whoever owns {where.split(':')[0]} needs to renew its certificate; nothing to change on {name}"
    )


async def _slow(
    shift: Shift, ns: str, name: str, series: dict[str, list[float]], f: Finding, note: Note
) -> None:
    p99 = (series.get("p99_latency_ms") or [None])[-1]
    base = (series.get("normal_p99_latency_ms") or [None])[-1]
    out = await logs(shift, ns, name)
    pats = signal_patterns(log_lines(out))
    found = await shift.use(
        "traces_query",
        f"to find {name}'s slow requests",
        f"traces_query search {name}",
        action="search",
        service=name,
    )
    doc = load_json(found) or {}
    ids = (
        [t.get("traceID") for t in doc.get("data", []) if isinstance(t, dict)]
        if isinstance(doc, dict)
        else []
    )
    span = None
    if ids:
        tree = await shift.use(
            "traces_query",
            "to open the slowest one",
            f"traces_query get {ids[0]}",
            action="get",
            trace_id=ids[0],
        )
        _, span = bottleneck(trace_tree(tree))
    pool = re.findall(r"db\.pool\.(active|max)=(\d+)", span.attrs if span else "")
    pools = dict(pool)
    if pools or any("pool" in m.lower() for _, m, _ in pats):
        f.cause = (
            f"{name} is slow because its database connection pool is exhausted: all "
            f"{pools.get('active', '?')} of {pools.get('max', '?')} connections are in use, so "
            "requests wait for a free one"
        )
        note.more.append(
            "Three signals, one story: "
            + (f"p99 is {p99 / 1000:.1f}s against a normal {base:.0f}ms; " if p99 and base else "")
            + "the logs keep complaining there's no free connection in the pool and Postgres "
            "can't hand one out; "
            + (
                f"and the trace spends {span.ms / 1000:.2f}s of the request in {span.operation}, "
                f"with db.pool.active={pools.get('active')} and db.pool.max={pools.get('max')}"
                if span
                else ""
            )
        )


async def _deploy(
    shift: Shift, ns: str, name: str, series: dict[str, list[float]], f: Finding, note: Note
) -> None:
    new, age, old = await look_at_history(shift, ns, name)
    rate = series.get("error_rate") or []
    if not new:
        return
    f.cause = f"it started with the {new} rollout {age} ago: the errors climbed right after it" + (
        f" (from {rate[0]:.1%} before to {rate[-1]:.0%} now)" if len(rate) > 1 else ""
    )
    note.more.append(
        f"The timing lines up: the ScalingReplicaSet event for {name} and the new ReplicaSet "
        f"are both {age} old, and {old or 'the previous version'} was running fine before. I'd "
        f"roll back to {old or 'the previous version'} and look at what changed in {new}"
    )


async def _migration(shift: Shift, ns: str, name: str, f: Finding, note: Note) -> None:
    version, desc, when, n, tbl = ((await look_at_migration(shift)) + [""] * 5)[:5]
    out = await logs(shift, ns, name)
    pats = signal_patterns(log_lines(out))
    err = pats[0][1] if pats else ""
    note.lead.append(
        f"{name} broke with migration {version} ({desc}), applied at {when}: the app now fails "
        f"on the schema ({err.lower() or 'errors since then'})"
    )
    rows = f"{n} rows" if n else "the rows"
    note.more.append(
        f"The obvious fix is rolling {version} back, but that's risky: {rows} have been written "
        f"to {tbl} since it ran, and a rollback would drop or rewrite that data. I won't do that "
        "on my own"
    )
    note.after.append(
        "Plan, for your approval:\n"
        f"1. Back up {tbl} first, so nothing written since {version} can be lost.\n"
        f"2. Deploy a {name} version that matches the {version} schema (or a hotfix that "
        "reads it) instead of rolling the migration back.\n"
        f"3. Only if that's not possible, roll back {version} with the backup in hand and "
        f"replay the {rows}.\n"
        "Say go and I'll start with step 1"
    )


async def _cpu(shift: Shift, ns: str, name: str, note: Note) -> None:
    top = table(await shift.kubectl("top nodes", "to check the CPU claim in your message"))
    hot = [t for t in top if int(t.get("cpu%", "0%").rstrip("%") or 0) >= 80]
    if hot:
        node = hot[0]
        note.more.append(
            f"The pegged CPU is a red herring: it's {node['name']} at {node.get('cpu%')}, busy "
            f"with a batch job, and it isn't what restarts {name}. Even if CPU were tight it "
            "would throttle the pod, not kill it"
        )
