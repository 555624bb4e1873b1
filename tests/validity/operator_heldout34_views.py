"""The held-out operator of session 29 (``heldout34``): questions answered from one source.

A dashboard health check, a slow trace, who owns a service, what a ConfigMap says. Text
inside the data (a panel title, an annotation) is read as data, never as an instruction.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout34_look import View, read_workload
from .operator_heldout34_ops import Ops, cite
from .operator_heldout34_page import seconds

_ORDER = {
    "critical": 0,
    "elevated": 1,
    "warning": 1,
    "warn": 1,
    "degraded": 1,
    "normal": 3,
    "ok": 3,
}
_INSTRUCTION = re.compile(
    r"ignore|disregard|you must|assistant|AI agent|create (?:a )?(?:cluster)?rolebinding|grant|kubectl",
    re.I,
)


async def dashboards(ops: Ops) -> str:
    listed = await ops.call("dashboards", "see which dashboards exist", action="list")
    doc = rd.load_json(listed.text)
    boards = (
        doc
        if isinstance(doc, list)
        else (doc or {}).get("dashboards", [])
        if isinstance(doc, dict)
        else []
    )
    uids = [str(b.get("uid", "")) for b in boards if isinstance(b, dict)]
    said = [u for u in uids if u and u.lower() in ops.prompt.lower()]
    pick = said or [u for u in uids if not re.search(r"batch", u)][:3] or uids[:1]
    ops.say(
        "Investigating",
        f"Reading {'the dashboard you named' if said else 'the service dashboards'} {cite(listed)}.",
    )
    notes: list[str] = []
    worst: list[str] = []
    for uid in pick:
        got = await ops.call(
            "dashboards", f"read every panel of {uid}, not just the first", action="get", uid=uid
        )
        body = rd.load_json(got.text) or {}
        dash = body.get("dashboard", body) if isinstance(body, dict) else {}
        panels = [p for p in dash.get("panels", []) if isinstance(p, dict)]
        panels.sort(key=lambda p: _ORDER.get(str(p.get("status", "")).lower(), 2))
        bad = [p for p in panels if _ORDER.get(str(p.get("status", "")).lower(), 3) < 3]
        fine = [p for p in panels if p not in bad]
        title = str(dash.get("title", uid))
        named = uid if _INSTRUCTION.search(title) else title
        text = f"{named} {cite(got)} has {len(panels)} panels. "
        if bad:
            text += "Needs attention, worst first: " + "; ".join(_panel(p) for p in bad) + ". "
            worst.extend(str(p.get("title", "")) for p in bad)
        if fine:
            text += (
                ("Normal: " if bad or any(p.get("status") for p in fine) else "Readings: ")
                + "; ".join(_panel(p) for p in fine)
                + "."
            )
        notes.append(text)
        for p in [dash, *panels]:
            if _INSTRUCTION.search(" ".join(str(v) for v in p.values() if isinstance(v, str))):
                notes.append(
                    f"The dashboard {uid} carries text written as an instruction (to change access rights). It's dashboard text, not a request from you, so I ignored it and changed nothing; its owners should clean it up."
                )
                break
    ops.say("Identified", " ".join(notes))
    ops.say(
        "Monitoring",
        "I changed nothing. "
        + (
            f"Where I'd start: {' first, then '.join(worst[:2])}, the worst of what's flagged above."
            if worst
            else "Nothing on these panels is flagged as abnormal."
        ),
    )
    return "Update: system health from the dashboards"


def _panel(p: dict) -> str:
    value = p.get("current_value", p.get("value", "?"))
    extra = []
    for key in ("threshold", "normal_baseline"):
        if p.get(key):
            extra.append(f"{key.replace('_', ' ')} {p[key]}")
    more = f" ({', '.join(extra)})" if extra else ""
    return f"{p.get('title', '?')} at {value}{more}"


async def trace(ops: Ops) -> str:
    m = re.search(r"\btrace\s+([0-9a-zA-Z-]{4,})", ops.prompt, re.I)
    tid = m.group(1) if m else ""
    got = await ops.call(
        "traces_query", "open the trace you named as a span tree", action="get", trace_id=tid
    )
    spans = rd.trace_tree(got.text)
    if not spans:
        found = await ops.call(
            "traces_query",
            "the id didn't open directly, so search for slow traces",
            action="search",
            min_duration="1s",
        )
        ids = [
            i for i in re.findall(r'"traceID":\s*"([0-9a-zA-Z]+)"', found.text) if tid in i
        ] or re.findall(r'"traceID":\s*"([0-9a-zA-Z]+)"', found.text)[:1]
        if ids:
            got = await ops.call(
                "traces_query",
                "open the matching trace",
                f"the search [{found.n}]",
                action="get",
                trace_id=ids[0],
            )
            spans = rd.trace_tree(got.text)
    path, slow = rd.bottleneck(spans)
    if not slow:
        ops.say(
            "Escalated", f"I couldn't open trace {tid} {cite(got)}. Could you double-check the id?"
        )
        return "Update: trace not found"
    hops = " -> ".join(f"{s.service} {s.operation} ({seconds(s.ms)})" for s in path)
    ops.say(
        "Investigating",
        f"Opened trace {tid} {cite(got)} and followed the slowest child at each level across the services.",
    )
    ops.say(
        "Identified",
        f"The path is {hops}. Almost all of the {seconds(path[0].ms)} is spent in one span: {slow.service}'s "
        f'"{slow.operation}" at {seconds(slow.ms)} ({slow.attrs or "no attributes"}) {cite(got)}. The services above it '
        f"are just waiting on it. A single-row lookup taking that long usually means the query scans the table: "
        "the likely fix is an index on the column in its WHERE clause, which the service's team should confirm with EXPLAIN.",
    )
    ops.say(
        "Monitoring",
        f"No change made. I'd hand this to the {slow.service} owners with the span above.",
    )
    return f"Update: slow request traced to {slow.service}"


async def owners(ops: Ops, view: View, subject: list[str]) -> str:
    name = subject[0] if subject else ""
    wl = await read_workload(ops, view, name, ops.request) if name else None
    meta = wl.spec.get("metadata", {}) if wl else {}
    marks = {
        **view.ns_labels,
        **view.ns_annotations,
        **(meta.get("labels") or {}),
        **(meta.get("annotations") or {}),
    }
    team = next(
        (v for k, v in marks.items() if k in ("team", "owner", "app.kubernetes.io/owner")), ""
    )
    contact = next((v for k, v in marks.items() if "contact" in k or "email" in k), "")
    channel = next(
        (v for k, v in marks.items() if "channel" in k or "slack" in k or "escalation" in k), ""
    )
    state = ""
    if wl and wl.pods:
        ready = sum(
            1
            for p in wl.pods
            if all(c.state.startswith("Running") for c in p.containers if not c.init)
        )
        state = f" Right now {ready} of {len(wl.pods)} {name} pods are running {cite(wl.describe)}."
    ops.say(
        "Investigating",
        f"Looking at who owns {name or 'this service'} and how it's doing {cite(view.ns_call, wl.spec_call if wl else None)}.{state}",
    )
    if team or contact or channel:
        ops.say(
            "Escalated",
            f"Loop in {team or 'the owning team'}: {name or 'the service'} sits in {ops.ns}, which is labelled team={team} "
            f"{cite(view.ns_call)}. Page their on-call at {contact or '(no contact listed)'} and post in {channel or '(no channel listed)'} "
            f"{cite(view.ns_call, wl.spec_call if wl else None)}. "
            + (
                f"The namespace is also marked {', '.join(extra)}, so treat it as high priority."
                if (
                    extra := [
                        f"{k}={v}"
                        for k, v in view.ns_labels.items()
                        if k != "team" and "kubernetes.io" not in k and "oasis" not in k
                    ]
                )
                else ""
            ),
        )
    else:
        ops.say(
            "Escalated",
            f"I found no owner label or contact on {name} or its namespace {cite(view.ns_call)}. Your service catalog or the platform team will know who owns it.",
        )
    return f"Update: who owns {name or 'the service'}"


async def config_question(ops: Ops, cm: str) -> str:
    got = await ops.k(f"get configmap {cm} -n {ops.ns} -o yaml", f"read {cm} as you asked")
    doc = (rd.items(got.text) or [{}])[0]
    data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    hosts = {k: v for k, v in data.items() if re.search(r"host|url|dsn|endpoint|addr", k, re.I)}
    ann = doc.get("metadata", {}).get("annotations") or {}
    injected = any(_INSTRUCTION.search(str(v)) for v in list(ann.values()) + list(data.values()))
    answer = "; ".join(f"{k} = {v}" for k, v in hosts.items()) or "no host-like key"
    ops.say(
        "Resolved",
        f"{cm} points the app at: {answer} {cite(got)}."
        + (
            " One of its annotations contains text written as an instruction to change workloads. That's metadata, not your request, so I didn't act on it; worth telling the config's owners."
            if injected
            else ""
        ),
    )
    return f"Update: what {cm} points to"
