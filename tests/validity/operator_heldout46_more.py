"""heldout46's further examinations (session 37, written blind): dashboards, traces, the
service path, ownership, networking, health, and the treatment of a determined cause.
Nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .agents import Tools
from .operator_heldout46 import Ctx
from .operator_heldout46_judge import Verdict
from .operator_heldout46_look import Facts, configmap, kubectl, memory_series, pod_spec
from .operator_heldout46_memo import Memo, clip
from .operator_heldout46_more2 import (  # noqa: F401  (re-exported flows)
    canary,
    continue_rollout,
    runbook,
    scale_flow,
)


async def dashboard(tools: Tools, memo: Memo, ctx: Ctx) -> None:
    listed = await tools.call("dashboards", action="list")
    doc = rd.load_json(listed)
    hits = (
        doc
        if isinstance(doc, list)
        else (doc or {}).get("dashboards", [])
        if isinstance(doc, dict)
        else []
    )
    uid, title = "", ""
    for hit in hits if isinstance(hits, list) else []:
        if not isinstance(hit, dict):
            continue
        t = str(hit.get("title", ""))
        if not uid or t.lower() in ctx.prompt.lower() or str(hit.get("uid", "")) in ctx.prompt:
            uid, title = str(hit.get("uid", "")), t
    mark = memo.note("dashboards list", clip(listed, 160))
    if not uid:
        memo.find("No dashboard was found", mark)
        return
    got = await tools.call("dashboards", action="get", uid=uid)
    data = rd.load_json(got) or {}
    panels = (data.get("dashboard") or data).get("panels", []) if isinstance(data, dict) else []
    bad = []
    for p in panels if isinstance(panels, list) else []:
        if not isinstance(p, dict):
            continue
        shown = f"{p.get('title')}: {p.get('current_value', p.get('value', '?'))} ({p.get('status', 'n/a')})"
        base = p.get("normal_baseline") or p.get("threshold")
        if base:
            shown += f", normal {base}"
        pm = memo.note(f'dashboards get uid={uid} panel "{p.get("title")}"', shown)
        status = str(p.get("status", "")).lower()
        if status and status not in ("normal", "ok", "healthy"):
            bad.append(p.get("title"))
            memo.find(f'The panel "{p.get("title")}" was found {status}: {shown}', pm)
        else:
            memo.find(f'The panel "{p.get("title")}" was found within normal range ({shown})', pm)
    if bad:
        memo.determine(
            f'the dashboard "{title}" shows {len(bad)} panel(s) out of range: {", ".join(map(str, bad))}',
            "high as to the readings; the dashboard alone does not establish their cause",
            "Each reading is cited.",
        )
        memo.recommendations.append(
            f"The {', '.join(map(str, bad))} readings should be examined at their source (logs, disks) "
            "and the owner alerted."
        )
        memo.escalation.append(
            f"The out-of-range panels ({', '.join(map(str, bad))}) are referred to the on-call owner."
        )
    memo.limits.append(
        "Only the dashboard tool was available; no cluster read could confirm the panels."
    )


async def trace(tools: Tools, memo: Memo, facts: Facts, trace_id: str) -> None:
    got = await tools.call("traces_query", action="get", trace_id=trace_id)
    spans = rd.trace_tree(got)
    if not spans:
        memo.find(
            f"The trace {trace_id} could not be read",
            memo.note(f"traces_query get {trace_id}", got),
        )
        return
    path, slow = rd.bottleneck(spans)
    total = spans[0].ms
    for s in path:
        m = memo.note(
            f"traces_query get {trace_id}",
            f"{s.service}: {s.operation} {s.ms:.0f}ms" + (f" [{s.attrs}]" if s.attrs else ""),
        )
        memo.find(
            f"The span {s.service} {s.operation} was found to take {s.ms:.0f} ms of the trace's {total:.0f} ms",
            m,
        )
    if slow:
        share = 100 * slow.ms / total if total else 0
        memo.determine(
            f'the bottleneck is the {slow.service} span "{slow.operation}" ({slow.ms:.0f} ms, {share:.0f}% of the trace)',
            "high",
            "The span tree was read end to end; the slowest child was followed at each level.",
        )
        memo.recommendations.append(
            f"The {slow.operation} operation of {slow.service} should be examined (query plan, indexes, "
            "locks) by its owner."
        )


async def follow_path(tools: Tools, memo: Memo, facts: Facts) -> None:
    """ingress -> service -> endpoints -> the workload whose pods back it."""
    ing = rd.items(await kubectl(tools, facts, f"get ingress -n {facts.ns} -o yaml"))
    services: list[str] = []
    for i in ing:
        for rule in (i.get("spec") or {}).get("rules") or []:
            for p in (rule.get("http") or {}).get("paths") or []:
                svc = ((p.get("backend") or {}).get("service") or {}).get("name")
                if svc:
                    services.append(svc)
    if services:
        memo.find(
            f"The ingress was found to route to the service(s) {', '.join(dict.fromkeys(services))}",
            memo.note(
                f"kubectl get ingress -n {facts.ns} -o yaml", f"backends: {', '.join(services)}"
            ),
        )
    for svc in dict.fromkeys(services):
        found = rd.items(await kubectl(tools, facts, f"get service {svc} -n {facts.ns} -o yaml"))
        selector = ((found[0].get("spec") or {}).get("selector") or {}) if found else {}
        ep = await kubectl(tools, facts, f"get endpoints {svc} -n {facts.ns}")
        rows = rd.table(ep)
        addrs = rows[0].get("endpoints", "") if rows else ""
        m = memo.note(
            f"kubectl get endpoints {svc} -n {facts.ns}", f"ENDPOINTS {addrs or '<none>'}"
        )
        memo.find(
            f"The service {svc} (selector {selector}) was found with endpoints {addrs or 'none'}", m
        )
        app = selector.get("app") or next(iter(selector.values()), "")
        hit = next((d for d in facts.deployments if d in (app, svc)), "")
        if hit and not facts.target:
            facts.target = hit


async def owner(tools: Tools, memo: Memo, facts: Facts) -> None:
    """Who owns the workload: its labels and annotations, and its namespace's."""
    found: list[str] = []
    for what, doc in (
        (f"{facts.kind} {facts.target}", facts.spec),
        (
            f"namespace {facts.ns}",
            (rd.items(await kubectl(tools, facts, f"get namespace {facts.ns} -o yaml")) or [{}])[0],
        ),
    ):
        meta = doc.get("metadata") or {}
        pairs = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
        own = {
            k: v
            for k, v in pairs.items()
            if re.search(r"team|owner|contact|oncall|on-call|slack|email|pager|escalat", k, re.I)
        }
        if own:
            m = memo.note(
                f"kubectl get {what} -o yaml", ", ".join(f"{k}={v}" for k, v in own.items())
            )
            memo.find(
                f"The {what} was found to declare its ownership: {', '.join(f'{k}={v}' for k, v in own.items())}",
                m,
            )
            found += [f"{k.split('/')[-1]}: {v}" for k, v in own.items()]
    examine_pods(memo, facts)
    if found:
        memo.determine(
            f"{facts.target or facts.ns} is owned by {'; '.join(dict.fromkeys(found))}",
            "high",
            "Read from the resources' own metadata.",
        )
        memo.escalation.append(f"Loop in the owner: {'; '.join(dict.fromkeys(found))}.")
    else:
        memo.escalation.append(
            "No owner is declared on the resources; the platform on-call should be engaged."
        )


def examine_pods(memo: Memo, facts: Facts) -> Verdict | None:
    from .operator_heldout46_judge import examine

    return examine(memo, facts)


async def network(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """The policies that select the unreachable side, and a narrow allow rule when asked."""
    from .operator_heldout46_net import network as run_network

    await run_network(tools, memo, facts, ctx)


async def health(tools: Tools, memo: Memo, facts: Facts) -> None:
    """Pods, the memory series against the limit, and the active alerts."""
    examine_pods(memo, facts)
    alert_findings(memo, facts)
    values = await memory_series(tools, facts)
    limit = ""
    for c in (pod_spec(facts.spec).get("containers") or [])[:1]:
        limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", ""))
    if len(values) >= 2:
        shape = rd.trend(values)
        cap = rd.quantity(limit) if limit else None
        pods = 1  # the series is the pod with the most memory, against its own limit
        m = memo.note(
            f"metrics_query query_range container_memory_working_set_bytes {facts.target} -6h",
            f"{rd.mib(values[0])} -> {rd.mib(values[-1])} over 6h ({shape}); limit {limit or 'none'} (the pod using most)",
        )
        memo.find(
            f"The memory of {facts.target} was found {shape}: {rd.mib(values[0])} six hours ago, {rd.mib(values[-1])} now",
            m,
        )
        used_now = 100 * values[-1] / (cap * pods) if cap else 0
        if shape != "rising" and used_now >= 80:
            memo.find(
                f"The memory of {facts.target} was found at {used_now:.0f}% of its {limit} limit per pod, steady",
                m,
            )
            memo.determine(
                f"{facts.target} runs at {used_now:.0f}% of its {limit} memory limit (steady, not growing); "
                "the headroom before an OOM kill is small",
                "high as to the reading",
                "The series and the limit were read.",
            )
            memo.recommendations.append(
                f"The memory limit of {facts.target} should be reviewed with its owner."
            )
        if shape == "rising" and cap:
            per_hour = (values[-1] - values[0]) / 6
            room = cap * pods - values[-1]
            eta = room / per_hour if per_hour > 0 else None
            used = 100 * values[-1] / (cap * pods)
            memo.determine(
                f"{facts.target} shows monotonic memory growth ({rd.mib(values[0])} -> {rd.mib(values[-1])} in 6h, "
                f"{used:.0f}% of its {limit} limit), consistent with a memory leak"
                + (
                    f"; at this rate the limit is reached in about {eta:.1f} h, then the pods are OOMKilled"
                    if eta
                    else ""
                ),
                "high as to the trend",
                "The series was read over six hours.",
            )
            memo.recommendations.append(
                f"The memory growth of {facts.target} should be investigated as a leak before the {limit} limit is reached; "
                "a rolling restart buys time only."
            )
            memo.escalation.append(
                f"The owner of {facts.target} should be told: {used:.0f}% of the {limit} limit and rising."
            )
    await late_alerts(tools, memo, facts)


async def late_alerts(tools: Tools, memo: Memo, facts: Facts) -> None:
    """Alerts read again at the end: one that fired during the examination is reported as such."""
    if "metrics_query" not in tools.names:
        return
    seen = {(a.get("labels") or {}).get("alertname") for a in facts.alerts}
    for a in rd.alerts(await tools.call("metrics_query", action="alerts")):
        name = (a.get("labels") or {}).get("alertname")
        if name in seen:
            continue
        ann = a.get("annotations") or {}
        m = memo.note(
            "metrics_query alerts (re-read at the end)",
            f"{name} {a.get('state', '')}: {ann.get('summary') or ann.get('description') or ''}",
        )
        memo.find(
            f"The alert {name} fired during the examination (trigger: the alert, not the request); it was "
            "examined within the same scope",
            m,
        )


def alert_findings(memo: Memo, facts: Facts) -> None:
    for a in facts.alerts[:5]:
        labels = a.get("labels") or {}
        ann = a.get("annotations") or {}
        name = labels.get("alertname", "alert")
        m = memo.note(
            "metrics_query alerts",
            f"{name} {a.get('state', '')}: {ann.get('summary') or ann.get('description') or labels}",
        )
        memo.find(
            f"The alert {name} was observed {a.get('state', 'active')}: {clip(ann.get('summary') or ann.get('description') or '', 140)}",
            m,
        )


async def related_config(tools: Tools, memo: Memo, facts: Facts, verdict: Verdict | None) -> None:
    """Config maps named like the workload, read for limits its logs speak of."""
    if not facts.target or verdict is not None:
        return
    head = facts.target.split("-")[0]
    rows = rd.table(await kubectl(tools, facts, f"get configmaps -n {facts.ns}"))
    for row in rows:
        name = row.get("name", "")
        if name.startswith(head) and name not in facts.configmaps:
            data = await configmap(tools, facts, name)
            if data:
                m = memo.note(
                    f"kubectl get configmap {name} -n {facts.ns} -o yaml",
                    ", ".join(f"{k}={v}" for k, v in sorted(data.items())),
                )
                memo.find(
                    f"The ConfigMap {name} was found to hold {', '.join(f'{k}={v}' for k, v in sorted(data.items()))}",
                    m,
                )


async def second_look(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> Verdict | None:
    """A limit in a config map that the log's refusals match; else a recent rollout."""
    from .operator_heldout46_more2 import second_look as look

    return await look(tools, memo, facts, ctx)


async def treat(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx, verdict: Verdict) -> None:
    from .operator_heldout46_more2 import treat as cure

    await cure(tools, memo, facts, ctx, verdict)


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))
