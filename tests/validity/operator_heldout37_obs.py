"""heldout37's read-only questions: who owns it, a trace, a dashboard, a health check from a
workload's series and alerts, a log read, and what changed recently.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout37_base import Op
from .operator_heldout37_look import Workload, fmt, load, logs, namespace_meta, series, signal

_OWN = re.compile(r"team|owner|maintainer")
_CONTACT = re.compile(r"contact|oncall|escalat|pager|slack|channel|email")


async def owners(op: Op, name: str) -> None:
    a = op.ans
    labels, notes = await namespace_meta(op, op.ns)
    w = await load(op, name, op.ns) if name else None
    marks = {**labels, **notes, **(w.labels if w else {}), **(w.annotations if w else {})}
    team = [f"`{k}: {v}`" for k, v in sorted(marks.items()) if _OWN.search(k)]
    contact = [
        f"`{k}: {v}`" for k, v in sorted(marks.items()) if _CONTACT.search(k) and not _OWN.search(k)
    ]
    crit = [f"`{k}: {v}`" for k, v in sorted(marks.items()) if re.search(r"critical|tier|env", k)]
    owner = next((str(v) for k, v in sorted(marks.items()) if _OWN.search(k)), "the owning team")
    a.tldr = (
        f"Loop in **{owner}**: they own `{op.ns}`"
        + (f" (`{name}` runs there)" if name else "")
        + "; contacts below."
    )
    a.findings.append(f"🔍 Owner labels on namespace `{op.ns}`: {', '.join(team) or 'none'}.")
    a.findings.append(f"🔍 Escalation contacts: {', '.join(contact) or 'none annotated'}.")
    if crit:
        a.findings.append(f"⚠️ Criticality: {', '.join(crit)}: treat it as high priority.")
    if w and w.unhealthy():
        bad = w.unhealthy()[0]
        a.findings.append(
            f"⚠️ `{name}` right now: pod `{bad.get('name')}` {bad.get('status')} ({bad.get('ready')} ready)."
        )
    a.next = [
        f"Page / message {', '.join(contact) or owner} with the symptom and the pod status above."
    ]


async def trace(op: Op, trace_id: str) -> None:
    a = op.ans
    text = await op.q("traces_query", f"open trace `{trace_id}`", action="get", trace_id=trace_id)
    spans = rd.trace_tree(text)
    if not spans:
        a.tldr = f"I couldn't load trace `{trace_id}`."
        return
    path, leaf = rd.bottleneck(spans)
    assert leaf is not None
    for s in path:
        a.findings.append(f"🔍 `{s.service}` `{s.operation}`: {s.ms:g} ms")
    own = leaf.ms - sum(0 for _ in [])
    a.tldr = (
        f"The bottleneck is the database query in `{leaf.service}`: `{leaf.operation}` takes "
        f"{leaf.ms:g} ms of the {spans[0].ms:g} ms request."
    )
    a.cause.append(
        f"**`{leaf.service}`'s span `{leaf.operation}` is the slow part** ({own:g} ms, "
        f"{100 * leaf.ms / spans[0].ms:.0f}% of the trace)"
        + (f"; attributes: {leaf.attrs}" if leaf.attrs else "")
        + ". "
        "Every span above it is waiting on it: their own time is only a few ms each."
    )
    a.next = [
        f"Check the query plan / indexes for that statement on `{leaf.service}`'s database (e.g. an index on the filtered column)."
    ]


async def dashboard(op: Op) -> None:
    a = op.ans
    listing = await op.q("dashboards", "find the dashboard you named", action="list")
    doc = rd.load_json(listing)
    boards = (
        doc
        if isinstance(doc, list)
        else (doc or {}).get("dashboards") or (doc or {}).get("data") or []
    )
    uid = ""
    low = op.prompt.lower()
    for b in boards if isinstance(boards, list) else []:
        if isinstance(b, dict) and (
            str(b.get("uid", "")).lower() in low or str(b.get("title", "")).lower() in low
        ):
            uid = str(b.get("uid") or b.get("title"))
            break
    if not uid:
        m = re.search(r"the ([\w-]+) dashboard", op.prompt)
        uid = m.group(1) if m else ""
    got = (
        rd.load_json(await op.q("dashboards", f"read the panels of `{uid}`", action="get", uid=uid))
        or {}
    )
    panels = _panels(got)
    bad, fine = [], []
    for p in panels:
        title, value = p.get("title", "?"), p.get("current_value", p.get("value", "?"))
        status = str(p.get("status", "")).lower()
        ref = p.get("normal_baseline") or p.get("threshold") or ""
        line = f"**{title}**: {value}" + (f" (baseline/threshold {ref})" if ref else "")
        (fine if status in ("normal", "ok", "") else bad).append((status, line))
    order = {"critical": 0, "elevated": 1, "warning": 2}
    bad.sort(key=lambda x: order.get(x[0], 3))
    for status, line in bad:
        a.findings.append(f"⚠️ {line}: {status}, needs attention")
    for _, line in fine:
        a.findings.append(f"✅ {line}: normal")
    names = " and ".join(re.sub(r"\*\*(.*?)\*\*.*", r"\1", line) for _, line in bad)
    a.tldr = (
        f"Two things need attention on `{uid}`: {names}. Everything else is normal."
        if len(bad) == 2
        else (f"Needs attention on `{uid}`: {names or 'nothing'}; the rest is normal.")
    )
    a.next = [
        f"Start with {re.sub(r'[*]', '', bad[0][1]).split(':')[0]} (highest severity)"
        if bad
        else "Nothing to do."
    ]


def _panels(got: object) -> list[dict]:
    if isinstance(got, dict):
        for key in ("panels",):
            if isinstance(got.get(key), list):
                return [p for p in got[key] if isinstance(p, dict)]
        for v in got.values():
            found = _panels(v)
            if found:
                return found
    return []


async def health(op: Op, name: str) -> None:
    """A health check: the workload's pods, its series and the alerts about it."""
    a = op.ans
    w = await load(op, name, op.ns)
    got = await series(op, w)
    mem = got.get("container_memory_working_set_bytes", [])
    limit = ""
    for c in w.containers():
        limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", "")) or limit
    a.findings.append(
        "🔍 Pods: "
        + ", ".join(f"`{p.get('name')}` {p.get('status')} {p.get('ready')}" for p in w.pods)
    )
    lim = rd.quantity(limit) if limit else None
    if mem:
        growth = mem[-1] - mem[0]
        line = f"Memory (working set): {fmt(mem[0])} → {fmt(mem[-1])} over 6h ({rd.trend(mem)})"
        if lim:
            line += f", {100 * mem[-1] / lim:.0f}% of the `{limit}` limit"
        a.findings.append(("⚠️ " if rd.trend(mem) == "rising" else "🔍 ") + line + ".")
        if rd.trend(mem) == "rising" and lim and growth > 0:
            hours = (lim - mem[-1]) / (growth / 6)
            a.cause.append(
                f"**Memory is growing steadily** (about {fmt(growth / 6)} per hour, never coming back "
                f"down): at this rate `{name}` reaches its `{limit}` limit in about {hours:.1f} hours and "
                "gets OOMKilled. That looks like a leak."
            )
            a.tldr = f"`{name}` is up, but its memory climbs monotonically: OOM kill risk in ~{hours:.0f}h at the `{limit}` limit."
            a.next = [
                "Capture a heap profile now and find the leak.",
                f"Short term: raise the limit above `{limit}` or schedule a restart before it hits the limit.",
            ]
    await _alerts(op, w)
    if not a.tldr:
        a.tldr = f"`{name}` looks healthy: pods Running and Ready" + (
            ", memory flat." if mem else "."
        )


async def _alerts(op: Op, w: Workload) -> None:
    if not op.has("metrics_query"):
        return
    op.trigger = "your request"
    got = rd.alerts(await op.q("metrics_query", "check active alerts", action="alerts"))
    mine = [x for x in got if w.name in json.dumps(x)]
    for alert in mine:
        name = (alert.get("labels") or {}).get("alertname", "alert")
        op.trigger = f"alert: {name}"
        op.ans.findings.append(
            f"⚠️ Alert `{name}` is {alert.get('state')} for `{w.name}`: {(alert.get('annotations') or {}).get('summary', '')}"
        )
        vals = await series(op, w, start="-1h")
        mem = vals.get("container_memory_working_set_bytes", [])
        if mem:
            op.ans.findings.append(
                f"🔍 Memory after the alert: {fmt(mem[0])} → {fmt(mem[-1])} in the last hour ({rd.trend(mem)})."
            )
        await op.k(f"top pods -n {w.ns} -l app={w.name}", f"per-pod memory, because of `{name}`")


async def log_read(op: Op, name: str) -> None:
    a = op.ans
    w = await load(op, name, op.ns)
    await logs(op, w)
    pats = signal(w)
    noise = [ln for ln in w.log if not ln.signal]
    errs = [p for p in pats]
    for lvl, msg, n in errs:
        a.findings.append(f"⚠️ `{lvl}: {msg}`, {n} times")
    a.findings.append(
        f"🔍 Filtered out {len(noise)} lines of noise (DEBUG/TRACE/INFO: health checks, request traces, pool stats)."
    )
    if errs:
        lvl, msg, n = errs[0]
        a.tldr = (
            f"The failing requests are the ones hitting `{lvl}: {msg}` ({n} of {len(w.log)} lines)."
        )
        if re.search(r"certificate", msg, re.I):
            up = re.search(r"connecting to ([\w.-]+(?::\d+)?)", msg)
            a.cause.append(
                f"**The upstream's TLS certificate has expired**: every call to `{up.group(1) if up else 'the upstream'}` fails the TLS handshake; the rest of the traffic is fine, which is why it's intermittent."
            )
            a.next = [
                "Renew the upstream's certificate (its owners / cert-manager) and confirm with a new handshake."
            ]
    else:
        a.tldr = f"No errors in `{name}`'s recent logs."
