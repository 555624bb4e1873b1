"""heldout41's read plays (session 34, written blind): a dashboard read panel by panel, a
trace followed span by span across services, a workload's owners, a health check's trend.
Each returns its Final Answer; the trace of calls is the scratchpad's.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout41_diag import diagnose
from .operator_heldout41_look import Ctx, named
from .operator_heldout41_react import React


async def dashboard(r: React, ctx: Ctx) -> str:
    found = rd.load_json(
        await r.act("The request names a dashboard; find it by name.", "dashboards", action="list")
    )
    hits = (
        found
        if isinstance(found, list)
        else (found or {}).get("dashboards", [])
        if isinstance(found, dict)
        else []
    )
    words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", ctx.prompt.lower()))
    uid = ""
    for h in hits if isinstance(hits, list) else []:
        if not isinstance(h, dict):
            continue
        title = str(h.get("title", "")).lower()
        hid = str(h.get("uid", ""))
        if (
            hid in words
            or title.replace(" ", "-") in words
            or any(w in (hid, title) for w in words)
        ):
            uid = hid
            break
    if not uid:
        return "I could not find the dashboard the request names; I list what exists above."
    doc = rd.load_json(
        await r.act(
            f"Dashboard {uid}: every panel, not only the red ones.",
            "dashboards",
            action="get",
            uid=uid,
        )
    )
    dash = (doc or {}).get("dashboard", doc) if isinstance(doc, dict) else {}
    panels = [p for p in (dash or {}).get("panels", []) if isinstance(p, dict)]
    read = [_panel(p) for p in panels]
    r.show([f"{t}: {v} ({s})" for t, v, s in read])
    bad = [x for x in read if x[2].lower() not in ("ok", "normal", "green", "")]
    fine = [x for x in read if x not in bad]
    lines = [f"{len(read)} panels read on {uid}."]
    if bad:
        lines.append("Needs attention, most urgent first:")
        lines += [f"- {t}: {v} ({s})" for t, v, s in sorted(bad, key=lambda x: x[2] != "critical")]
    lines.append("Normal: " + "; ".join(f"{t} {v}" for t, v, _ in fine) + ".")
    return "\n".join(lines)


def _panel(p: dict[str, object]) -> tuple[str, str, str]:
    title = str(p.get("title", "?"))
    value = p.get("current_value", p.get("value", p.get("current", "")))
    unit = str(p.get("unit", ""))
    status = str(p.get("status", p.get("state", "")))
    desc = str(p.get("description", ""))
    shown = f"{value}{unit}" if value != "" else desc
    base = p.get("normal_baseline")
    if base:
        shown += f", normal {base}"
    return title, shown.strip(), status


async def trace(r: React, ctx: Ctx, tid: str) -> str:
    tree = await r.act(
        f"The request names trace {tid}; read it whole, span by span.",
        "traces_query",
        action="get",
        trace_id=tid,
    )
    spans = rd.trace_tree(tree)
    path, slow = rd.bottleneck(spans)
    if slow is None:
        return f"Trace {tid} could not be read (see the observation above)."
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:.0f}ms)" for s in path)
    r.thought(f"Slowest path: {hops}.")
    services = []
    for s in spans:
        if s.service not in services:
            services.append(s.service)
    attrs = f" [{slow.attrs}]" if slow.attrs else ""
    total = spans[0].ms
    others = [s for s in spans if s not in path]
    quick = ", ".join(f"{s.service} {s.operation} {s.ms:.0f}ms" for s in others[:4])
    idx = re.search(r"index|scan", slow.attrs + slow.operation, re.I)
    why = " The span's attributes point at a missing index / full scan." if idx else ""
    return (
        f"Trace {tid} ({total:.0f}ms) crosses {', '.join(services)}. The time goes down "
        f"{hops}. The bottleneck is the database query span of {slow.service}: "
        f'"{slow.operation}" at {slow.ms:.0f}ms of {total:.0f}ms{attrs}.{why}'
        + (f" The other spans are quick ({quick})." if quick else "")
        + f" Next: EXPLAIN that query and add the index it needs; {slow.service}'s owners decide."
    )


async def owners(r: React, ctx: Ctx) -> str:
    who = named(ctx)
    marks = dict(ctx.owners())
    for w in who[:1]:
        doc = rd.load_yaml(
            await r.kubectl(
                f"{w}'s own labels and annotations may name its team and channel.",
                f"get deployment {w} -n {ctx.ns} -o yaml",
            )
        )
        meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
        for src in (meta.get("labels") or {}, meta.get("annotations") or {}):
            for k, v in src.items():
                if any(
                    x in k.lower()
                    for x in ("team", "owner", "contact", "escalation", "oncall", "slack", "pager")
                ):
                    marks[str(k)] = str(v)
    r.show([f"{k}: {v}" for k, v in marks.items()] or ["(no owner marks)"])
    state = ""
    if who:
        f = await diagnose(r, ctx, who[0])
        state = f" What I see on {who[0]}: " + (
            f.cause + "." if f.cause else "; ".join(f.evidence[:2]) or "its pods' status above."
        )
    if not marks:
        return f"No owner label or annotation on namespace {ctx.ns} or {', '.join(who)}; ask the platform team who runs it.{state}"
    team = next((v for k, v in marks.items() if "team" in k.lower() or "owner" in k.lower()), "")
    contact = [f"{k}: {v}" for k, v in marks.items() if v != team]
    return (
        f"Loop in {team or 'the owners below'}, the team that owns {', '.join(who) or ctx.ns} "
        f"(read from the labels/annotations of namespace {ctx.ns} and the deployment). "
        f"Escalation path: {'; '.join(contact) or 'the team directly'}.{state}"
    )


async def health(r: React, ctx: Ctx, workload: str) -> str:
    text = await r.act("Anything firing right now?", "metrics_query", action="alerts")
    fired = [str((a.get("labels") or {}).get("alertname", "alert")) for a in rd.alerts(text)]
    r.show(fired or ["(none firing)"])
    if fired:
        r.trigger = f"alert {fired[0]}"
    f = await diagnose(r, ctx, workload)
    text = await r.act(
        f"Memory of {workload} against its limit over six hours, per pod.",
        "metrics_query",
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{ctx.ns}",pod=~"{workload}-.*"}}',
        start="-6h",
        step="30m",
    )
    limit = 0.0
    if f.view:
        for c in f.view.containers:
            limit = limit or (rd.quantity(c.limits.get("memory", "")) or 0.0)
    lines = []
    for labels, vals in rd.prom_series(text):
        if len(vals) < 2:
            continue
        pod = labels.get("pod", workload)
        per_h = (vals[-1] - vals[0]) / 6
        line = f"{pod}: memory {rd.mib(vals[0])} -> {rd.mib(vals[-1])} over 6h ({rd.trend(vals)})"
        if limit:
            pct = vals[-1] / limit * 100
            line += f", {pct:.0f}% of its {rd.mib(limit)} limit"
            if per_h > 0:
                hours = (limit - vals[-1]) / per_h
                line += f"; at {rd.mib(per_h)}/h it reaches the limit in about {hours:.1f}h and will be OOMKilled"
        lines.append(line)
    r.show(lines or ["(no memory series)"])
    r.trigger = "the operator's request"
    pods = [p for p in ctx.pods if p.get("name", "").startswith(workload + "-")]
    ready = sum(
        1 for p in pods if p.get("ready", "").split("/")[0] == p.get("ready", "").split("/")[-1]
    )
    head = f"{workload}: {ready}/{len(pods)} pods Ready. "
    if fired:
        head += f"Alert {fired[0]} fired after I started; the memory reads that follow were made for that alert. "
    if not lines:
        return head + (f.cause or "Nothing abnormal in pods, logs or series.")
    lines[0] = head + lines[0]
    urgent = any("OOMKilled" in ln for ln in lines)
    rising = any("(rising)" in ln for ln in lines)
    return (
        (
            f"{workload} is up now, but memory grows steadily, not a spike:\n- "
            if rising
            else f"{workload} looks healthy: memory is flat, well inside its limit:\n- "
        )
        + "\n- ".join(lines)
        + (
            "\nUrgent: an OOM kill is hours away, not days. A likely leak: have the owners look "
            "(heap profile), and raise the limit or restart only as a stop-gap."
            if urgent
            else ""
        )
    )
