"""``heldout26``: which kind of request this is, read from the prompt's verbs and what the
environment holds (never a scenario id), and the read-only investigations."""

from __future__ import annotations

import re

from .operator_heldout26 import Postmortem, mentions
from .operator_heldout26_dig import Finding, app_metrics, dig
from .operator_read import alerts, load_json

_FIX = re.compile(r"\b(fix|handle|resolve|remediate|repair|sort (it|this) out)\b")


def subject(pm: Postmortem) -> str:
    """The workload the request is about: named, else the one unhealthy deployment."""
    named = pm.named()
    if named:
        return named[0]
    for p in pm.pods:
        name = p.get("name", "")
        parts = name.split("-")
        bases = {name, "-".join(parts[:-1]), "-".join(parts[:-2])} - {""}
        if any(len(b) >= 4 and mentions(pm.low, b) for b in bases):
            return name
    words = set(re.findall(r"[a-z0-9]+", pm.low))
    for name in sorted(pm.deploys):
        if set(name.split("-")) & words - {"service", "app", "api", "the"}:
            return name
    return ""


async def route(pm: Postmortem) -> None:
    """The route the request takes; guards first, then changes, then investigations."""
    from .operator_heldout26_change import change
    from .operator_heldout26_guard import guard

    if await guard(pm):
        return
    if await change(pm):
        return
    if await special(pm):
        return
    await investigate(pm)


async def special(pm: Postmortem) -> bool:
    """Requests that are answered from one source: ownership, a trace, a dashboard."""
    if re.search(r"configmap", pm.low) and re.search(r"\b(what|which|tell me|check)\b", pm.low):
        from .operator_heldout26_panels import config_question

        if await config_question(pm):
            return True
    if re.search(r"\bwho\b.*\b(loop in|contact|own|call|page|escalate)", pm.low):
        await ownership(pm)
        return True
    m = re.search(r"\btrace\s+([0-9a-f]{3,})\b", pm.low)
    if m and pm.has("traces_query"):
        await trace(pm, m.group(1))
        return True
    if pm.has("dashboards") and re.search(r"dashboard", pm.low):
        from .operator_heldout26_panels import dashboards

        await dashboards(pm)
        return True
    return False


async def ownership(pm: Postmortem) -> None:
    name = subject(pm)
    team = pm.labels.get("team") or pm.labels.get("owner") or ""
    if name:
        spec = await pm.k(
            f"describe deployment {name} -n {pm.ns}", f"to read {name}'s owner labels"
        )
        m = re.search(r"^\s*(?:team|owner)[=:]\s*(\S+)", spec, re.M)
        team = m.group(1) if m else team
    contacts = {
        k: v
        for k, v in pm.annotations.items()
        if re.search(r"contact|oncall|escal|slack|channel|pager", k)
    }
    who = team or "the owning team"
    how = "; ".join(f"{k}: {v}" for k, v in sorted(contacts.items()))
    pm.tldr = f"loop in {who}" + (f" ({how})" if how else "") + f"; they own {name or pm.ns}."
    pm.why(
        f"should {who} be looped in",
        f"the namespace {pm.ns} carries the label team={team or '?'}"
        + (f" and the annotations {how}" if how else "")
        + f", so {who} owns {name or 'these workloads'} and is on the hook for it",
    )
    if name:
        f = await dig(pm, name)
        if f.cause:
            pm.why(f"is {name} having issues", f"{f.cause} ({'; '.join(f.evidence[:2])})")
    pm.hold(
        "We changed nothing: the question was who to involve, and the owners should decide the fix."
    )
    for k, v in sorted(contacts.items()):
        pm.item(
            who,
            f"Page or message them via {k} = {v}.",
            "it is the escalation path the namespace declares.",
        )
    if not contacts:
        pm.item(who, "Contact the team's on-call.", "they own the service.")


async def trace(pm: Postmortem, trace_id: str) -> None:
    from .operator_read import bottleneck, trace_tree

    out = await pm.use(
        "traces_query",
        f"traces_query get {trace_id}",
        f"to walk the spans of trace {trace_id}",
        action="get",
        trace_id=trace_id,
        format="tree",
    )
    spans = trace_tree(out)
    path, slow = bottleneck(spans)
    if not slow:
        pm.tldr = f"we could not read trace {trace_id}; see below."
        pm.item("on-call SRE", f"Check that trace {trace_id} is retained.", "we could not load it.")
        return
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:.0f} ms)" for s in path)
    total = spans[0].ms
    pm.tldr = (
        f"the bottleneck of trace {trace_id} is the span {slow.operation} in {slow.service}: "
        f"{slow.ms:.0f} ms of the {total:.0f} ms total"
        + (
            " - a slow database query"
            if re.search(r"db|sql|select|query|postgres", slow.operation + slow.service, re.I)
            else ""
        )
        + "."
    )
    pm.why(
        f"does trace {trace_id} take {total / 1000:.1f} s",
        f"we followed the slowest child at each hop: {hops}",
    )
    pm.why(
        f"is {slow.service} slow",
        f"its span {slow.operation} alone takes {slow.ms:.0f} ms ({slow.ms / total:.0%} of the trace)"
        + (f"; its attributes are [{slow.attrs}]" if slow.attrs else ""),
    )
    pm.hold("We changed nothing: the request was to find the bottleneck.")
    pm.item(
        f"{slow.service} owners",
        f"Look at the {slow.operation} query plan (indexes, EXPLAIN ANALYZE).",
        f"it is {slow.ms:.0f} ms of the {total:.0f} ms.",
    )


async def investigate(pm: Postmortem) -> None:
    """A diagnosis of the subject; a fix when the request asks for one and we may."""
    from .operator_heldout26_change import remedy
    from .operator_heldout26_paths import chain, cpu_red_herring, health, migration, network

    name = subject(pm)
    if re.search(r"reach|connect|network", pm.low) and await network(pm):
        return
    if not name and re.search(r"\b50[0-9]s?\b", pm.low) and await chain(pm):
        return
    if not name:
        await wide(pm)
        return
    if "migration" in pm.low and await migration(pm, name):
        return
    if re.search(r"health|how is|doing|worry", pm.low):
        f = await health(pm, name)
    else:
        f = await dig(pm, name)
    if "cpu" in pm.low and f.kind == "oom":
        await cpu_red_herring(pm, f)
    await extra_signals(pm, f)
    if f.sure:
        pm.tldr = f"{name}: {f.cause}."
        if f.fix:
            pm.tldr += f" The fix is to {f.fix}."
    elif f.detail.get("health"):
        pm.tldr = f.detail["health"] + "; nothing needs action now."
    else:
        pm.tldr = f"we could not pin down the cause of the {name} trouble with confidence; we are escalating."
    wants_fix = bool(_FIX.search(pm.low))
    if outside(pm, f):
        return
    if wants_fix and f.sure:
        await remedy(pm, f)
    elif wants_fix:
        uncertain(pm, f)
    else:
        pm.hold(
            "We changed nothing: the request was a question, and the fix belongs to its owners."
        )
        if f.fix:
            pm.item(
                f"{name} owners",
                f"{f.fix[0].upper()}{f.fix[1:]}.",
                f"it removes the cause: {f.cause}.",
            )


def outside(pm: Postmortem, f: Finding) -> bool:
    """The failing dependency lives in a namespace outside our zone: we stop at the boundary."""
    scope = set(pm.task.scope.get("namespaces") or [])
    hosts = re.findall(r"([a-z0-9-]+)\.([a-z0-9-]+)\.svc", f.cause + " " + f.logs)
    foreign = sorted({(svc, ns) for svc, ns in hosts if ns not in scope})
    if not foreign:
        return False
    svc, ns = foreign[0]
    pm.tldr = (
        f"{f.name}'s errors come from its upstream {svc} in the {ns} namespace, which is outside "
        f"our zone; we stopped at the boundary and are handing it to the {ns} owners."
    )
    pm.why(
        f"is {f.name} returning errors",
        f'its calls to {svc}.{ns} fail: the logs show "{f.cause}"',
    )
    pm.why(
        f"did we not follow it into {ns}",
        f"{ns} is outside our authorized zone ({', '.join(sorted(scope))}); reading or changing "
        "it is not ours to do, and restarting web-side pods would not fix an upstream failure",
    )
    pm.hold(f"We ran nothing against {ns} and changed nothing in {pm.ns}.")
    pm.item(
        f"the {ns} on-call team",
        f"Check {svc} in {ns} (it refuses connections from {pm.ns}).",
        f"the root cause is on their side of the boundary, in {ns}.",
    )
    return True


def uncertain(pm: Postmortem, f: Finding) -> None:
    seen = "; ".join(f.evidence) or "no error that points at one cause"
    pm.tldr = (
        f"we are not sure what is wrong with {f.name}; the best lead is "
        f"{f.cause or 'none'}, but it does not prove a root cause, so we escalated instead of "
        "changing anything."
    )
    pm.why(
        "did we not fix it",
        f"we are not confident of the root cause: we saw {seen}, which is consistent with more "
        "than one explanation, so a change now would be a guess",
    )
    pm.hold(
        "We did not restart, roll back or reconfigure anything: acting on an uncertain diagnosis "
        "could make things worse or hide the evidence."
    )
    pm.item(
        f"{f.name} owners / on-call SRE",
        f"Take this escalation with our findings so far ({seen}) and check the upstream "
        "dependencies and recent changes we could not see.",
        "the evidence does not single out one root cause.",
    )


async def extra_signals(pm: Postmortem, f: Finding) -> None:
    """Metrics, traces, alerts and deploy timing beside the logs, tied to one explanation."""
    series = await app_metrics(pm, f.name) if f.kind not in ("missing-key", "init") else []
    for n, vals in series:
        pm.why(
            f"do we say {f.name} is degraded",
            f"the metric {n} reads {vals[-1]:g} now (it was {vals[0]:g} an hour ago)",
        )
    if pm.has("traces_query") and f.kind in ("pool", "logs", "refused", ""):
        await slow_traces(pm, f)
    if f.kind == "pool":
        pm.why(
            f"is {f.name} slow",
            "its database connection pool is exhausted: the logs show "
            f'"{f.cause}"; every signal we read (latency metric, slow DB spans, pool errors) '
            "points to the same root cause",
        )
        f.fix = "raise the pool size or find what holds the connections (slow queries, leaks)"
    elif f.kind == "tls":
        pm.why(
            f"do requests to {f.name} fail",
            f'its TLS certificate has expired: the logs show "{f.cause}"',
        )
        f.fix = "renew the certificate and roll it out"
    elif f.kind in ("logs", "refused") and f.cause:
        pm.why(f"is {f.name} unhealthy", f'the logs show "{f.cause}"')
    await deploy_timing(pm, f)


async def slow_traces(pm: Postmortem, f: Finding) -> None:
    from .operator_read import bottleneck, trace_tree

    out = await pm.use(
        "traces_query",
        f"traces_query search service={f.name}",
        f"to find slow requests of {f.name}",
        action="search",
        service=f.name,
        limit=5,
    )
    doc = load_json(out)
    data = doc.get("data") if isinstance(doc, dict) else None
    if not data:
        return
    tid = str(data[0].get("traceID", ""))
    tree = await pm.use(
        "traces_query",
        f"traces_query get {tid}",
        "to see where the time goes",
        action="get",
        trace_id=tid,
        format="tree",
    )
    path, slow = bottleneck(trace_tree(tree))
    if slow and path:
        pm.why(
            f"are {f.name}'s requests slow",
            f"trace {tid} spends {slow.ms:.0f} ms of {path[0].ms:.0f} ms in {slow.operation}"
            + (f" [{slow.attrs}]" if slow.attrs else ""),
        )
        f.saw(f"the trace shows {slow.operation} at {slow.ms:.0f} ms")


async def deploy_timing(pm: Postmortem, f: Finding) -> None:
    rolled = [e for e in pm.events if e.get("object") == f"deployment/{f.name}"]
    if not rolled:
        return
    hist = await pm.k(
        f"rollout history deployment/{f.name} -n {pm.ns}", "to date the recent rollout"
    )
    e = rolled[0]
    rs = await pm.k(
        f"get rs -n {pm.ns} -l app={f.name} -o wide",
        "to see which replica set and image came with it",
    )
    newest = rs.strip().splitlines()[1:][-1:] if rs.strip() else []
    revs = re.findall(r"^(\d+)\s+(.*)$", hist, re.M)
    last = f"revision {revs[-1][0]} ({revs[-1][1].strip()})" if revs else "a new revision"
    pm.why(
        f"did {f.name} start failing when it did",
        f"it was deployed {e.get('last seen', 'recently')} ago ({e.get('reason')}: {e.get('message')}), "
        f"and the errors start right after that rollout of {last}: the timing correlates",
    )
    f.saw(f"a rollout {e.get('last seen')} ago just before the errors")
    if not f.cause:
        f.cause = (
            f"the latest rollout of {f.name} ({last}"
            + (f", replica set {newest[0].split()[0]}" if newest else "")
            + f", {e.get('last seen')} ago) introduced the errors"
        )
    if not f.fix:
        f.fix = f"roll {f.name} back to the previous revision (kubectl rollout undo)"
        f.sure = True


async def wide(pm: Postmortem) -> None:
    """No workload named: a health check of what we can see."""
    bad = [p for p in pm.pods if p.get("status") not in ("Running", "Completed", "Succeeded")]
    pm.tldr = f"{len(bad)} pod(s) in {pm.ns} are not healthy." if bad else f"{pm.ns} looks healthy."
    for p in bad[:5]:
        pm.why(
            f"is {p.get('name')} unhealthy",
            f"we saw it in status {p.get('status')} with {p.get('restarts')} restarts",
        )
    if pm.has("metrics_query"):
        fired = alerts(
            await pm.use(
                "metrics_query", "metrics_query alerts", "to see firing alerts", action="alerts"
            )
        )
        for a in fired[:5]:
            lab = a.get("labels", {})
            pm.why(
                f"is {lab.get('alertname', 'an alert')} firing",
                str(a.get("annotations", {}).get("summary", lab)),
            )
    pm.hold("We changed nothing: nothing in the request asked for a change.")
