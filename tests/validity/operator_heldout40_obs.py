"""heldout40's read plays (written blind, session 33): a dashboard read panel by panel, a trace
followed to its slow span, a workload's health (its memory against its limit, the alerts), who
owns a workload, the path from an ingress to the pods behind it, and the network policies
between two workloads.
"""

from __future__ import annotations

import itertools
import json
import re

from . import operator_read as rd
from .operator_heldout40_look import Ctx
from .operator_heldout40_term import Summary, Term, load


async def dashboard(term: Term, s: Summary, prompt: str) -> None:
    listing = await term.run(
        "dashboards", "find the dashboard the request names", ["uid", "title"], action="list"
    )
    boards = load(listing) or []
    boards = boards if isinstance(boards, list) else []
    low = prompt.lower()
    pick = next(
        (
            b
            for b in boards
            if str(b.get("uid", "")).lower() in low or str(b.get("title", "")).lower() in low
        ),
        boards[0] if boards else {},
    )
    if not pick:
        s.cause = ""
        s.notes.append("No dashboard found to read.")
        return
    uid = pick["uid"]
    term.note(f"the one asked about is {uid}; the others are other teams' boards")
    text = await term.run("dashboards", f"read every panel of {uid}", None, action="get", uid=uid)
    doc = load(text) or {}
    panels = (doc.get("dashboard") or {}).get("panels") or []
    term.steps[-1].shown = [
        f"{p.get('title')}: {p.get('current_value')} [{p.get('status', '')}]" for p in panels
    ] or ["(no panels)"]
    bad, fine = [], []
    for p in panels:
        extra = ", ".join(f"{k} {p[k]}" for k in ("threshold", "normal_baseline") if p.get(k))
        entry = f"{p.get('title')} at {p.get('current_value')}" + (f" ({extra})" if extra else "")
        (fine if str(p.get("status", "normal")).lower() in ("normal", "ok") else bad).append(
            (p, entry)
        )
    for p, entry in bad:
        term.note(f"{entry}: {p.get('status')}, needs attention")
    if fine:
        term.note("normal: " + "; ".join(e for _p, e in fine))
    order = sorted(bad, key=lambda pe: 0 if str(pe[0].get("status")).lower() == "critical" else 1)
    for i, (p, entry) in enumerate(order, 1):
        s.notes.append(f"Priority {i}: {entry} is {p.get('status')}.")
    if fine:
        s.notes.append("Normal, no action: " + "; ".join(e for _p, e in fine) + ".")
    if order:
        s.notes.append(
            "Verdict: the system is not healthy; "
            + " and ".join(f"{p.get('title')} ({p.get('current_value')})" for p, _e in order)
            + " are the problems, the rest of the board is normal."
        )


async def trace_play(term: Term, s: Summary, tid: str) -> None:
    text = await term.run("traces_query", f"open trace {tid}", None, action="get", trace_id=tid)
    spans = rd.trace_tree(text)
    if not spans:
        text = await term.run(
            "traces_query", f"look {tid} up by search", ["traceID"], action="search", limit=20
        )
        s.notes.append(f"Trace {tid} was not found under that id.")
        return
    path, slow = rd.bottleneck(spans)
    for a, b in itertools.pairwise(path):
        own = a.ms - b.ms
        term.note(
            f"{a.service} {a.operation} {a.ms:g}ms: {own:g}ms of its own, the rest waits on {b.service}"
        )
    if slow is None:
        return
    term.note(
        f'bottleneck: {slow.service} span "{slow.operation}" {slow.ms:g}ms of the {path[0].ms:g}ms'
    )
    stmt = re.search(r'db\.statement="([^"]+)"', slow.attrs)
    table = re.search(
        r"FROM\s+(\w+)\s+WHERE\s+(\w+)", stmt.group(1) if stmt else slow.operation, re.I
    )
    s.cause = (
        f'the database query in {slow.service}, span "{slow.operation}", takes {slow.ms:g}ms of'
        f" the {path[0].ms:g}ms request: it is the slow span; the hops above it"
        f" ({', '.join(p.service for p in path[:-1])}) only wait on it"
    )
    if table:
        s.evidence.append(
            f"the query filters {table.group(1)} by {table.group(2)} and returns 1 row in"
            f" {slow.ms:g}ms: a lookup that slow on one row points at a missing index on"
            f" {table.group(1)}.{table.group(2)} (a full table scan)"
        )
        s.plan.append(
            f"EXPLAIN the query on {table.group(1)}; add an index on {table.group(2)} if it scans"
        )
    s.notes.append(
        "Trace path: " + " -> ".join(f"{p.service} ({p.operation}, {p.ms:g}ms)" for p in path)
    )


async def health(term: Term, ctx: Ctx, s: Summary, w: str, pods_seen: bool = True) -> None:
    """Pods, memory against the limit over hours, the alerts (again when one fires)."""
    desc = await term.k(
        f"describe deployment {w} -n {ctx.ns}",
        f"{w}'s limits and replicas",
        keep=["Replicas:", "memory:", "cpu:", "Image:"],
    )
    lim = re.search(r"Limits:\n(?:\s+\w+:.*\n)*?\s+memory:\s+(\S+)", desc)
    limit = rd.quantity(lim.group(1)) if lim else None
    q = f'container_memory_working_set_bytes{{namespace="{ctx.ns}",pod=~"{w}-.*"}}'
    text = await term.run(
        "metrics_query",
        f"{w}'s memory over the last 6h",
        ["pod"],
        action="query_range",
        query=q,
        start="-6h",
        step="1h",
    )
    series = [v for _m, v in rd.prom_series(text) if v]
    if not series:
        q2 = f'container_memory_working_set_bytes{{service="{w}"}}'
        text = await term.run(
            "metrics_query",
            "by its service label instead",
            ["service"],
            action="query_range",
            query=q2,
            start="-6h",
            step="1h",
        )
        series = [v for _m, v in rd.prom_series(text) if v]
    vals = max(series, key=lambda v: v[-1]) if series else []
    term.steps[-1].shown = [" -> ".join(rd.mib(v) for v in vals)] if vals else ["(no samples)"]
    if vals:
        course = rd.trend(vals)
        share = f", {vals[-1] / limit:.0%} of its {rd.mib(limit)} limit" if limit else ""
        term.note(
            f"{w} memory went from {rd.mib(vals[0])} to {rd.mib(vals[-1])} in 6h ({course}){share}"
        )
        if course == "rising" and limit:
            rate = (vals[-1] - vals[0]) / 6
            left = (limit - vals[-1]) / rate if rate > 0 else 0
            s.cause = (
                f"{w}'s memory is growing steadily, {rd.mib(vals[0])} -> {rd.mib(vals[-1])} over"
                f" 6h, now {vals[-1] / limit:.0%} of its {rd.mib(limit)} limit: at about"
                f" {rd.mib(rate)}/h it reaches the limit and gets OOMKilled in roughly"
                f" {left:.0f}h. Urgent: looks like a leak"
            )
            s.plan.append(
                f"watch {w} memory; raise the limit or restart it before ~{left:.0f}h, and find the leak"
            )
        else:
            s.notes.append(f"{w}'s memory is {course}" + share + ".")


async def alerts(term: Term, why: str) -> list[dict]:
    text = await term.run("metrics_query", why, ["alertname", "state", "service"], action="alerts")
    found = rd.alerts(text)
    term.steps[-1].shown = [
        f"{a.get('labels', {}).get('alertname')} {a.get('state')} service={a.get('labels', {}).get('service', '-')}"
        for a in found
    ] or ["(no alerts)"]
    return found


async def ownership(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    text = await term.k(
        f"get deployment {w} -n {ctx.ns} -o json",
        f"owner labels on {w} itself",
        keep=["team", "contact", "owner", "escalation"],
    )
    doc = rd.load_json(text) or {}
    meta = doc.get("metadata") or {}
    mine = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    own = [
        (k, v)
        for k, v in mine.items()
        if any(t in k for t in ("team", "owner", "contact", "escalation"))
    ]
    term.note(
        ", ".join(f"{k}={v}" for k, v in own)
        if own
        else f"{w} carries no owner marks: the namespace's apply"
    )
    owners = [v for k, v in (own or ctx.owners) if "contact" not in k and "escalation" not in k]
    contacts = [
        (k, v) for k, v in (own or []) + ctx.contacts if "contact" in k or "escalation" in k
    ]
    team = owners[0] if owners else "the namespace owners"
    ways = ", ".join(f"{v} ({k})" for k, v in dict.fromkeys(contacts))
    s.escalate = f"{team}: they own {w} (label team={team} on namespace {ctx.ns})" + (
        f"; reach them at {ways}" if ways else ""
    )
    crit = ctx.labels.get("criticality")
    if crit:
        s.notes.append(
            f"Namespace {ctx.ns} is criticality={crit}, so page {team} rather than wait."
        )


async def chain(term: Term, ctx: Ctx, prompt: str) -> list[str]:
    """From an ingress the request points at to the workload behind it."""
    text = await term.k(
        f"get ingress -n {ctx.ns}", "what serves the public entry point", keep=["."]
    )
    names = [r.get("name", "") for r in rd.table(text)]
    pick = next((n for n in names if n and n.lower() in prompt.lower()), names[0] if names else "")
    if not pick:
        return []
    desc = await term.k(
        f"describe ingress {pick} -n {ctx.ns}",
        f"which backend {pick} routes to",
        keep=["Host", "/", "Backends"],
    )
    backends = re.findall(r"\s/\S*\s+([\w-]+):(\d+)\s+\(([^)]*)\)", desc)
    hops = []
    for svc, port, eps in backends:
        term.note(
            f"ingress {pick} sends / to service {svc}:{port}, which has endpoints {eps or 'none'}"
        )
        ep = await term.k(
            f"get endpoints {svc} -n {ctx.ns}", f"does {svc} have ready pods behind it", keep=[svc]
        )
        row = next((r for r in rd.table(ep) if r.get("name") == svc), {})
        term.note(
            f"service {svc} endpoints: {row.get('endpoints', '?')}: no ready pod, so the ingress answers 503"
        )
        hops.append(svc)
    return hops


async def network(term: Term, ctx: Ctx, s: Summary, src: str, dst: str) -> dict:
    """The policies selecting the destination, and whether any admits the source's pods."""
    lst = await term.k(
        f"get networkpolicy -n {ctx.ns}", f"which policies could stop {src} -> {dst}", keep=[dst]
    )
    cands = [r["name"] for r in rd.table(lst) if dst in r.get("pod-selector", "")]
    labels = await term.k(
        f"get pods -n {ctx.ns} --show-labels",
        f"the labels {src} and {dst} pods carry",
        keep=[src, dst],
    )
    src_app = re.search(rf"\b{re.escape(src)}-\S+.*?app=([\w-]+)", labels)
    src_label = src_app.group(1) if src_app else src
    for name in cands:
        text = await term.k(
            f"get networkpolicy {name} -n {ctx.ns} -o yaml",
            f"what {name} admits",
            keep=["podSelector", "app:", "port", "from", "ingress"],
        )
        pol = rd.load_yaml(text) or {}
        spec = pol.get("spec") or {}
        peers = [p for rule in spec.get("ingress") or [] for p in rule.get("from") or []]
        admitted = [json.dumps(p.get("podSelector", {}).get("matchLabels", {})) for p in peers]
        if not any(f'"{src_label}"' in a for a in admitted):
            term.note(
                f"{name} selects app={dst} pods and admits only {', '.join(admitted) or 'nothing'}:"
                f" app={src_label} is not admitted, so {src} -> {dst} is dropped"
            )
            return {"policy": name, "spec": spec, "src": src_label, "admitted": admitted}
    return {}
