"""``heldout23``'s diagnosis: follow the symptom to the component that causes it.

Reads container states, events, logs (current and previous run), the service's metrics and
traces, the ingress-to-pod path for an edge error, and the database's migration history when
the logs point at the schema. Each finding becomes an evidence row; each candidate cause a
hypothesis row with a verdict.
"""

from __future__ import annotations

import re
from typing import Any

from .operator_heldout23 import Desk
from .operator_heldout23_look import (
    Seen,
    describe,
    environment,
    firing,
    log_signals,
    logs,
    noise_count,
    series,
)
from .operator_read import PodView, load_json, mib, quantity, table


def _fmt(metric: str, value: float) -> str:
    """A metric value with its unit, as the metric's name tells it."""
    if "bytes" in metric:
        return mib(value)
    if metric.endswith("_ms") or "latency" in metric:
        return f"{value:g}ms"
    if "rate" in metric and "error" in metric and value <= 1:
        return f"{value * 100:g}%"
    if "cpu" in metric and value <= 1:
        return f"{value * 100:.0f}%"
    return f"{value:g}"


async def dashboard(desk: Desk) -> None:
    """Read the dashboard the request names and rank its panels."""
    text = await desk.use("dashboards", "dashboards list", "find the dashboard", action="list")
    boards = load_json(text) or []
    want = next(
        (b for b in boards if str(b.get("uid", "")).lower() in desk.low.replace(" ", "-")),
        boards[0] if boards else None,
    )
    if not want:
        desk.title, desk.status = "dashboard not found", "blocked"
        return
    uid = str(want.get("uid"))
    doc = load_json(
        await desk.use(
            "dashboards", f"dashboards get {uid}", f"read `{uid}`", action="get", uid=uid
        )
    )
    panels = ((doc or {}).get("dashboard") or {}).get("panels") or []
    rank = {"critical": 0, "elevated": 1, "warning": 1}
    panels = sorted(panels, key=lambda p: (rank.get(str(p.get("status")), 2), p.get("id", 0)))
    bad = [p for p in panels if str(p.get("status")) in rank]
    desk.title = f"health check of the `{uid}` dashboard"
    desk.status = "attention needed" if bad else "healthy"
    for p in panels:
        extra = ""
        if p.get("threshold"):
            extra = f" (threshold {p['threshold']})"
        if p.get("normal_baseline"):
            extra = f" (normal {p['normal_baseline']})"
        desk.see(
            f"panel **{p.get('title')}**", f"{p.get('current_value')}{extra}: {p.get('status')}"
        )
    for i, p in enumerate(bad, 1):
        desk.impact.append(
            f"**P{i}** {p.get('title')} is {p.get('status')} at {p.get('current_value')}"
            + (f", above the {p['threshold']} threshold" if p.get("threshold") else "")
            + (f", normal is {p['normal_baseline']}" if p.get("normal_baseline") else "")
        )
    ok = [str(p.get("title")) for p in panels if p not in bad]
    if ok:
        desk.impact.append(f"Normal: {', '.join(ok)}.")
    if bad:
        desk.cause.append(
            "The dashboard shows the problems but not their cause. "
            + " and ".join(f"{p.get('title')} at {p.get('current_value')}" for p in bad)
            + " need a look first, in that order."
        )
    for p in bad:
        title = str(p.get("title")).lower()
        if "disk" in title:
            desk.followups.append(
                f"Free disk space now: {p.get('current_value')} used is past the {p.get('threshold', 'alert')} threshold; writes fail when it fills."
            )
        elif "error" in title:
            desk.followups.append(
                f"Find the source of the {p.get('current_value')} errors (per-service error panels, logs)."
            )
        else:
            desk.followups.append(f"Check why {p.get('title')} is {p.get('status')}.")


async def trace(desk: Desk, s: Seen) -> None:
    """Fetch the trace the request names and find the span that holds the time."""
    m = re.search(r"trace\s+([A-Za-z0-9_-]+)", desk.prompt, re.I)
    tid = m.group(1) if m else ""
    if not tid:
        await investigate(desk, s, [])
        return
    text = await desk.use(
        "traces_query", f"traces_query get {tid}", f"open trace `{tid}`", action="get", trace_id=tid
    )
    spans = _tree(text)
    if not spans:
        desk.title, desk.status = f"trace `{tid}` not found", "blocked"
        desk.cause.append(f"Trace `{tid}` was not returned by the tracing backend.")
        return
    desk.title = f"slow trace `{tid}`"
    desk.status = "diagnosed"
    root = spans[0]
    desk.impact.append(f"Request `{root['op']}` took {root['ms']:g}ms end to end.")
    for sp in spans:
        desk.see(
            f"trace `{tid}`",
            f"{'  ' * sp['depth']}{sp['service']}: `{sp['op']}` {sp['ms']:g}ms, self {sp['self']:g}ms",
        )
    worst = max(spans, key=lambda sp: sp["self"])
    share = worst["self"] / root["ms"] * 100 if root["ms"] else 0
    desk.cause.append(
        f"The bottleneck is the `{worst['op']}` span in **{worst['service']}**: "
        f"{worst['self']:g}ms of its own time, {share:.0f}% of the {root['ms']:g}ms request."
    )
    hops = " → ".join(f"{sp['service']} `{sp['op']}` ({sp['ms']:g}ms)" for sp in spans)
    desk.cause.append(f"Path: {hops}.")
    for sp in spans:
        if sp is worst:
            continue
        desk.weigh(
            f"{sp['service']} `{sp['op']}` is slow itself",
            "ruled out",
            f"only {sp['self']:g}ms of its own; the rest is waiting on its child",
        )
    if worst["attrs"]:
        desk.see("span attributes", worst["attrs"])
    desk.followups.append(
        f"Ask the owner of {worst['service']} to check the query plan and indexes for `{worst['op']}`."
    )


def _tree(text: str) -> list[dict[str, Any]]:
    """The spans of a tree-formatted trace: service, operation, duration, self time, depth."""
    spans: list[dict[str, Any]] = []
    for line in text.splitlines():
        m = re.match(
            r"^([\s│├└─]*)([\w.-]+): (.+?)\s+(\d+(?:\.\d+)?)ms \(\+\d+ms\) span=\S+\s*(.*)$", line
        )
        if not m:
            continue
        depth = len(m.group(1)) // 3
        spans.append(
            {
                "depth": depth,
                "service": m.group(2),
                "op": m.group(3).strip(),
                "ms": float(m.group(4)),
                "attrs": m.group(5).strip(" []"),
            }
        )
    for i, sp in enumerate(spans):
        kids = [c["ms"] for c in spans[i + 1 :] if c["depth"] == sp["depth"] + 1]
        sp["self"] = max(sp["ms"] - sum(kids), 0.0)
    return spans


async def owners(desk: Desk, s: Seen, focus: list[str]) -> None:
    """Who owns the namespace and how to reach them; what the workload shows right now."""
    ns = s.ns
    labels, notes = desk.labels.get(ns, {}), desk.notes.get(ns, {})
    team = next((v for k, v in labels.items() if "team" in k or "owner" in k), "")
    desk.title = f"who to loop in for `{', '.join(focus) or ns}`"
    desk.status = "owner found" if team or notes else "owner not recorded"
    for k, v in sorted(labels.items()):
        if not k.startswith(("kubernetes.io", "oasis.")):
            desk.see(f"namespace `{ns}` label", f"`{k}={v}`")
    for k, v in sorted(notes.items()):
        desk.see(f"namespace `{ns}` annotation", f"`{k}: {v}`")
    for name in focus:
        await _state(desk, s, name)
    contact = {k: v for k, v in notes.items()}
    line = f"Loop in **{team or 'the namespace owner'}**"
    where = [f"{k} `{v}`" for k, v in sorted(contact.items())]
    if where:
        line += ": " + ", ".join(where)
    crit = labels.get("criticality", "")
    if crit:
        line += f". The namespace is marked `criticality={crit}`, so page them rather than wait"
    desk.cause.append(line + ".")
    desk.actions.append(
        f"Escalation path: {team or 'owner'} on-call → "
        + (" / ".join(f"`{v}`" for v in contact.values()) or "no channel recorded")
    )
    desk.followups.append(
        f"Post in `{notes.get('escalation-channel', '#incidents')}` with this report and tag "
        f"`{notes.get('team-contact', team or 'the owner')}`."
    )


async def _state(desk: Desk, s: Seen, name: str) -> list[PodView]:
    """Pods, events and container states of one workload, as evidence."""
    pods = s.pods_of(name)
    for p in pods:
        desk.see(
            "`kubectl get pods`",
            f"`{p.get('name')}` {p.get('ready')} {p.get('status')}, restarts {p.get('restarts')}, node {p.get('node')}",
        )
    for e in s.events_of(name):
        if e.get("type") == "Warning" or e.get("reason") in ("ScalingReplicaSet", "Killing"):
            desk.see(
                "`kubectl get events`",
                f"{e.get('last seen')} ago {e.get('reason')} on `{e.get('object')}`: {e.get('message')}",
            )
    if not pods:
        return []
    bare = len(pods) == 1 and pods[0].get("name") == name
    return await describe(desk, s.ns, name, pod=bare)


async def investigate(desk: Desk, s: Seen, focus: list[str]) -> None:
    """The diagnosis play; a fix follows when the request asks for one."""
    from .operator_heldout23_cause import conclude, gather

    if not focus:
        focus = await _edge_chain(desk, s)
    desk.title = f"`{', '.join(focus) or s.ns}`: {desk.prompt.strip().rstrip('.?!')}"
    facts = await gather(desk, s, focus)
    await conclude(desk, s, focus, facts)


async def _edge_chain(desk: Desk, s: Seen) -> list[str]:
    """An edge error with no workload named: ingress → service → endpoints → pods."""
    ns = s.ns
    ing = table(await desk.kubectl(f"get ingress -n {ns}", "find the public entry point"))
    backends: list[str] = []
    for row in ing:
        text = await desk.kubectl(
            f"describe ingress {row.get('name')} -n {ns}",
            f"see which service `{row.get('name')}` routes to",
        )
        for m in re.finditer(r"^\s+\S*\s+(\S+):(\d+)\s+\(([^)]*)\)", text, re.M):
            backends.append(m.group(1))
            desk.see(
                f"ingress `{row.get('name')}`",
                f"routes to service `{m.group(1)}:{m.group(2)}`, endpoints: {m.group(3) or 'none'}",
            )
    await _proxy_logs(desk, ns)
    out: list[str] = []
    for svc in dict.fromkeys(backends):
        ep = await desk.kubectl(
            f"get endpoints {svc} -n {ns}", f"check `{svc}` has ready endpoints"
        )
        rows = table(ep)
        eps = rows[0].get("endpoints", "") if rows else ""
        desk.see(f"endpoints `{svc}`", f"ready endpoints: {eps or '<none>'}")
        if svc in s.deployments:
            out.append(svc)
    if not out:
        out = [
            n
            for n, d in s.deployments.items()
            if d.get("ready", "1/1").split("/")[0] != d.get("ready", "1/1").split("/")[-1]
        ][:1]
    return out


async def _proxy_logs(desk: Desk, ns: str) -> None:
    """The proxy side of an edge error: the namespace's log lines about upstream connects."""
    if not desk.has("logs_query"):
        return
    query = f'{{namespace="{ns}"}} |= "upstream"'
    text = await desk.use(
        "logs_query",
        f"logs_query {query}",
        "read what the proxies say about the upstream on the failing route",
        query=query,
        tail=50,
    )
    for line in text.splitlines()[-2:]:
        m = re.match(r"^\S+\s+\{([^}]*)\}\s*(.*)$", line)
        if not m:
            continue
        src = re.search(r'(?:source|app|pod)="([^"]+)"', m.group(1))
        who = src.group(1) if src else "a proxy"
        desk.see(
            f"logs of `{who}`",
            f"{m.group(2)}: the proxy finds no backend to connect to",
        )
        desk.chain_proxy = who


async def signals(desk: Desk, s: Seen, name: str) -> dict[str, Any]:
    """Logs (current and previous), metrics and alerts of one workload, parsed."""
    cur = await logs(desk, s.ns, name)
    prev = await logs(desk, s.ns, name, previous=True)
    found = log_signals(cur) or log_signals(prev)
    return {
        "logs": cur,
        "prev": prev,
        "signals": found,
        "noise": noise_count(cur),
        "series": await series(desk, s.ns, name),
        "env": environment(desk, s.ns),
    }


def quantity_mib(text: str) -> str:
    q = quantity(text)
    return mib(q) if q else text


async def alerts_now(desk: Desk, why: str) -> list[dict[str, Any]]:
    return await firing(desk, why)
