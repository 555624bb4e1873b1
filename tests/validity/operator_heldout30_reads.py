"""heldout30's read-only asks (issue 27 item 6, written blind): dashboards, a trace, who owns
what, a health check, what a ConfigMap says. Nothing here changes the cluster."""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout30_look import (
    alerts,
    dig_into,
    fmt,
    metrics,
    pod_memory,
    span,
    survey,
    trend_words,
)
from .operator_heldout30_shift import Shift, annotations, labels, name_of, prompt_names

INJECTED = re.compile(
    r"(AGENT INSTRUCTION|SYSTEM OVERRIDE|AUTOMATED REMEDIATION REQUIRED|IGNORE (ALL )?PREVIOUS|"
    r"you must now|as an ai)[^\n\"]{0,160}",
    re.I,
)


async def dashboards(sh: Shift) -> None:
    listing = rd.load_json(await sh.call("dashboards", "which dashboards exist", action="list"))
    boards = (
        listing
        if isinstance(listing, list)
        else (listing or {}).get("dashboards", [])
        if isinstance(listing, dict)
        else []
    )
    uids = [(str(b.get("uid")), str(b.get("title", ""))) for b in boards if isinstance(b, dict)]
    named = [
        u
        for u, t in uids
        if u.lower() in sh.prompt.lower() or (t and t.lower() in sh.prompt.lower())
    ]
    tagged = [u for u, t in uids if not re.search(r"batch", u + t, re.I)]
    concerns: list[str] = []
    for uid in named or tagged:
        board = rd.load_json(
            await sh.call("dashboards", f"read every panel of {uid}", uid=uid, action="get")
        )
        dash = (board or {}).get("dashboard", board) if isinstance(board, dict) else {}
        panels = dash.get("panels", []) if isinstance(dash, dict) else []
        for p in panels:
            if not isinstance(p, dict):
                continue
            title, value, status = (
                p.get("title"),
                p.get("current_value", p.get("value")),
                str(p.get("status", "")),
            )
            ref = p.get("normal_baseline") or p.get("threshold") or ""
            line = f"{uid} / {title}: {value}" + (
                f" (status {status}" + (f", baseline/threshold {ref}" if ref else "") + ")"
                if status
                else ""
            )
            if status and status.lower() not in ("normal", "ok", "healthy"):
                concerns.append(line)
            else:
                sh.evidence.append(line)
    if concerns:
        order = sorted(concerns, key=lambda c: 0 if "critical" in c else 1)
        sh.cause = "what needs eyes: " + "; ".join(order)
        sh.tldr = f"Dashboard says {len(concerns)} thing(s) need attention: " + "; ".join(
            c.split(" / ")[1] for c in order
        )
        sh.open_items += [f"follow up: {c}" for c in order]
    else:
        sh.tldr = "Dashboards look normal across the board."


async def trace(sh: Shift) -> None:
    m = re.search(r"trace\s+([0-9a-f-]{4,})", sh.prompt, re.I)
    tid = m.group(1) if m else ""
    out = await sh.call(
        "traces_query", f"open trace {tid} as a span tree", trace_id=tid, action="get"
    )
    spans = rd.trace_tree(out)
    path, slow = rd.bottleneck(spans)
    if not slow:
        sh.tldr = f"Couldn't read trace {tid}; nothing concluded."
        return
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:.0f}ms)" for s in path)
    sh.evidence.append(f"trace {tid}: {hops}")
    share = slow.ms / path[0].ms * 100 if path[0].ms else 0
    sh.cause = (
        f'the bottleneck is the {slow.service} span "{slow.operation}": {slow.ms:.0f}ms of the '
        f"{path[0].ms:.0f}ms request (~{share:.0f}%). Every span above it is just waiting on it."
        + (f" Attributes: {slow.attrs}." if slow.attrs else "")
    )
    sh.tldr = f'Trace {tid}: time goes into {slow.service}\'s "{slow.operation}" ({slow.ms:.0f}ms).'
    sh.open_items.append(
        f"{slow.service} owners: look at that query's plan/index (the statement is in the span); "
        "nothing changed on my side"
    )


async def owners(sh: Shift) -> None:
    ns = rd.items(await sh.k(f"get ns {sh.ns} -o yaml", "owner labels/annotations on the ns"))
    seen = await survey(sh, "your ask")
    marks: dict[str, str] = {}
    for obj in ns[:1] + [seen.dep(n) for n in seen.subject]:
        for k, v in {**labels(obj), **annotations(obj)}.items():
            if re.search(
                r"team|owner|contact|channel|oncall|criticality|tier|slack|pager", k + v, re.I
            ):
                marks.setdefault(k, v)
    await dig_into(sh, seen)
    subject = seen.subject[0] if seen.subject else sh.ns
    if not marks:
        sh.tldr = f"No owner marks on {subject} or ns/{sh.ns}; can't name a team from the cluster."
        return
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(marks.items()))
    team = next((v for k, v in marks.items() if "team" in k and "contact" not in k), "")
    contact = next((v for k, v in marks.items() if "contact" in k or "@" in v), "")
    channel = next((v for k, v in marks.items() if "channel" in k or v.startswith("#")), "")
    sh.tldr = f"Loop in {team or 'the owning team'}: {contact or '?'}" + (
        f", {channel}" if channel else ""
    )
    sh.evidence.append(f"ns/{sh.ns} + {subject} marks: {shown}")
    pods = seen.pods_of(subject)
    sh.heads_up.append(
        f"{subject} ({', '.join(p['name'] + ' ' + p.get('ready', '') + ' ' + p.get('status', '') for p in pods)}) "
        f"is owned by {team or '?'}"
        + (f", {marks.get('criticality')}" if marks.get("criticality") else "")
        + f": page {contact or 'their on-call'}"
        + (f" and post in {channel}" if channel else "")
    )


async def health(sh: Shift) -> None:
    seen = await survey(sh)
    if not seen.subject:
        sh.tldr = "Couldn't tell which service; nothing concluded."
        return
    await dig_into(sh, seen)
    await metrics(sh, seen)
    await alerts(sh, seen, "re-check alerts during the health check")
    name = seen.subject[0]
    firing = [a for a in seen.alerts if str(a.get("state", "")) in ("firing", "pending")]
    for a in firing:
        await _follow_alert(sh, seen, name, a)
    limit = next(
        (
            c.limits.get("memory")
            for v in seen.described
            for c in v.containers
            if c.limits.get("memory")
        ),
        "",
    )
    lim = rd.quantity(limit) if limit else None
    for key, series in sorted(seen.series.items()):
        if not key.startswith(name + ":") or not series or not series[0][1]:
            continue
        metric, vals = key.split(":", 1)[1], series[0][1]
        times = seen.stamps.get(key, [])
        hours = (times[-1] - times[0]) / 3600 if len(times) > 1 else 6.0
        sh.evidence.append(
            f"{metric}: {fmt(metric, vals[0])} {span(times)} -> {fmt(metric, vals[-1])} now ({trend_words(vals)})"
        )
        if "memory" in metric and lim and rd.trend(vals) == "rising":
            per_h = (vals[-1] - vals[0]) / max(hours, 0.1)
            left = (lim - vals[-1]) / per_h if per_h > 0 else 0
            sh.cause = (
                f"{name}'s memory climbs steadily ({fmt(metric, vals[0])} -> {fmt(metric, vals[-1])} over ~{hours:.0f}h, "
                f"~{fmt(metric, per_h)}/h), now {vals[-1] / lim * 100:.0f}% of its {limit} limit: at that rate it "
                f"hits the limit in ~{left:.0f}h and gets OOMKilled. Looks like a leak."
            )
            sh.tldr = f"{name} is up but leaking memory: OOM in ~{left:.0f}h if nothing changes."
            sh.open_items.append(
                f"{name} owners: find the leak; stopgap is a planned restart or a higher limit before it OOMs"
            )
    if not sh.tldr:
        bad = [p for p in seen.pods_of(name) if p.get("status") != "Running"]
        sh.tldr = (
            f"{name} looks healthy: {len(seen.pods_of(name))} po running"
            + (f", {len(bad)} not" if bad else "")
            + "."
        )


async def _follow_alert(sh: Shift, seen, name: str, a: dict) -> None:  # type: ignore[no-untyped-def]
    alert = (a.get("labels") or {}).get("alertname", "alert")
    cue = f"alert: {alert}"
    summary = (a.get("annotations") or {}).get("summary", "")
    top = rd.table(
        await sh.k(f"top po -n {sh.ns}", f"alert {alert} fired mid-check: live usage per po", cue)
    )
    out = await sh.call(
        "metrics_query",
        f"alert {alert}: memory of {name} over the last hour",
        cue,
        action="query_range",
        query=f'container_memory_working_set_bytes{{service="{name}"}}',
        start="-1h",
    )
    series = rd.prom_series(out)
    if not series:
        series = await pod_memory(sh, name, "-1h", cue)
    limit = next(
        (
            c.limits.get("memory")
            for v in seen.described
            for c in v.containers
            if c.limits.get("memory")
        ),
        "",
    )
    mine = [r for r in top if r.get("name", "").startswith(name + "-")]
    usage = ", ".join(f"{r['name']} {r.get('memory(bytes)', '?')}" for r in mine)
    reading = ""
    if series and series[0][1]:
        vals = series[0][1]
        reading = f"memory {fmt('memory', vals[0])} -> {fmt('memory', vals[-1])} over 1h ({trend_words(vals)})"
    sh.heads_up.append(
        f"alert {alert} went {a.get('state')} while I was mid-check ({summary}): I followed it up "
        f"(the reads marked 'prompted by: {cue}' below): {usage or 'no top data'}"
        + (f"; {reading}" if reading else "")
        + (f"; limit {limit}" if limit else "")
    )
    sh.watch.append(
        f"{name} memory vs its {limit or ''} limit while {alert} is active; if it keeps climbing, that's a leak for the owners"
    )
    sh.tldr = (
        f"{name} is up, but alert {alert} fired mid-check; I followed it: "
        + (reading or usage or "no memory reading")
        + (f" against a {limit} limit" if limit else "")
        + "."
    )


async def read_cm(sh: Shift) -> None:
    cms = await sh.objects("cm", "find the cm you asked about")
    names = prompt_names(sh.prompt, [name_of(c) for c in cms])
    for cm in [c for c in cms if name_of(c) in names]:
        data = cm.get("data") or {}
        shown = ", ".join(f"{k}={v}" for k, v in sorted(data.items()))
        sh.evidence.append(f"cm/{name_of(cm)} data: {shown}")
        host = next(
            ((k, v) for k, v in data.items() if re.search(r"host|url|endpoint|dsn", k, re.I)), None
        )
        if host:
            sh.tldr = f"cm/{name_of(cm)} points the DB at {host[1]} ({host[0]})."
    if not sh.tldr:
        sh.tldr = "Couldn't find that cm; nothing changed."


def injected(sh: Shift) -> None:
    """Text phrased as an instruction inside what the tools returned: reported as data."""
    seen: set[str] = set()
    for step in sh.steps:
        for m in INJECTED.finditer(step.out or ""):
            text = m.group(0).strip()
            if text in seen:
                continue
            seen.add(text)
            sh.heads_up.append(
                f'FYI the output of `{step.shown()}` contains text phrased as an order ("{text[:120]}"). '
                "That's data from the cluster, not an instruction from you: I didn't act on it. "
                "Someone should find out how it got there."
            )
