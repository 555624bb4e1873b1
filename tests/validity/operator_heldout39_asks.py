"""heldout39's questions: a dashboard read panel by panel, a trace followed to its slowest
span, who owns a service, and a health check of one workload (series against limits, alerts
as they fire).
"""

from __future__ import annotations

import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import start, subject
from .operator_heldout39_sheet import OPERATOR, Sheet

_BAD = ("critical", "elevated", "warning", "error", "firing", "high")


async def dashboard(sheet: Sheet, prompt: str) -> None:
    out = await sheet.read("find the dashboard", tool="dashboards", action="list")
    doc = rd.load_json(out) or []
    boards = [d for d in doc if isinstance(d, dict)] if isinstance(doc, list) else []
    sheet.saw(", ".join(str(d.get("uid")) for d in boards) or "none")
    uids = [str(d.get("uid")) for d in boards]
    hit = look.named(prompt, uids) or [
        u
        for u in uids
        if not any(
            "batch" in str(t) for d in boards if d.get("uid") == u for t in d.get("tags", [])
        )
    ]
    for uid in hit[:2]:
        out = await sheet.read(
            f"read every panel of {uid}", tool="dashboards", action="get", uid=uid
        )
        d = rd.load_json(out) or {}
        panels = [
            p for p in (d.get("dashboard", {}) or {}).get("panels", []) if isinstance(p, dict)
        ]
        sheet.saw(f"{len(panels)} panels")
        bad = [p for p in panels if str(p.get("status", "")).lower() in _BAD]
        good = [p for p in panels if p not in bad]
        for p in sorted(bad, key=lambda p: 0 if str(p.get("status")) == "critical" else 1):
            ref = p.get("threshold") or p.get("normal_baseline")
            sheet.found.append(
                f"**{p.get('title')}**: {p.get('current_value')} ({p.get('status')}"
                + (f"; {'threshold' if p.get('threshold') else 'normal'} {ref}" if ref else "")
                + ") -> needs attention"
            )
        for p in good:
            sheet.ruled_out.append(
                f"{p.get('title')}: {p.get('current_value')} ({p.get('status')})"
            )
        if bad:
            for p in bad:
                sheet.todo.append(_action(p))
    sheet.status = "escalated" if sheet.todo else "no action needed"


def _action(p: dict) -> str:
    t = str(p.get("title", "")).lower()
    if "disk" in t:
        return f"owner of the volumes: disk at {p.get('current_value')} is past its {p.get('threshold') or 'threshold'}; free space or grow the volume before it fills"
    if "error" in t:
        return f"service owners: error rate {p.get('current_value')} vs normal {p.get('normal_baseline') or '?'}; find which service returns the 5xx"
    return f"follow-up: {p.get('title')} at {p.get('current_value')}"


async def trace(sheet: Sheet, prompt: str) -> None:
    m = re.search(r"\btrace\s+(?:id\s+)?([a-z0-9-]*\d[a-z0-9-]*)", prompt, re.I)
    tid = m.group(1) if m else ""
    w = look.Work((sheet.task.scope.get("namespaces") or ["default"])[0], "trace")
    await look.trace(sheet, w, tid)
    path, leaf = rd.bottleneck(w.spans)
    if not leaf:
        sheet.found.append(f"trace {tid} not found")
        sheet.status = "escalated"
        return
    total = w.spans[0].ms
    for s in path:
        own = s.ms - max((c.ms for c in w.spans if c.depth == s.depth + 1 and c in path), default=0)
        sheet.found.append(f"{s.service}: {s.operation} {s.ms:.0f}ms (self {own:.0f}ms)")
    sheet.found.append(
        f"bottleneck: {leaf.service} span `{leaf.operation}` takes {leaf.ms:.0f}ms of {total:.0f}ms "
        f"({leaf.ms / total:.0%})" + (f" [{leaf.attrs}]" if leaf.attrs else "")
    )
    if "db." in leaf.operation or "select" in leaf.operation.lower():
        stmt = re.search(r'db.statement="([^"]+)"', leaf.attrs)
        sheet.found.append(
            "a single-row lookup (db.rows_affected=1) taking seconds points at a missing index on the WHERE column"
            if "rows_affected=1" in leaf.attrs
            else "the query itself is slow"
        )
        sheet.todo.append(
            f"{leaf.service} owner: run EXPLAIN on `{stmt.group(1) if stmt else leaf.operation}` and add an index on the filtered column"
        )
    sheet.ruled_out += [
        f"{s.service}: its own time is small; it waits on its child" for s in path[:-1]
    ]
    sheet.status = "escalated"


async def owners(sheet: Sheet, prompt: str) -> None:
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    who = {
        k: v
        for k, v in {**ctx.labels, **ctx.annotations}.items()
        if re.search(r"team|owner|contact|escalation|oncall|slack|channel|criticality", k)
    }
    if names:
        w = await look.workload(sheet, ctx.ns, names[0])
        meta = w.spec.get("metadata", {})
        mine = {
            k: v
            for k, v in {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.items()
            if re.search(r"team|owner|contact|escalation|channel", k)
        }
        who = {**who, **mine}
        sheet.found.append(
            f"{w.name}: {w.ready}/{w.replicas} ready; {look.describe_summary(w.pods)}"
        )
    if not who:
        sheet.found.append("no owner labels or annotations on the namespace or the workload")
        sheet.todo.append("follow-up: ask the platform team who owns it")
        sheet.status = "escalated"
        return
    sheet.found.append("owner: " + ", ".join(f"{k}={v}" for k, v in who.items()))
    contact = next((v for k, v in who.items() if "contact" in k or "@" in str(v)), "")
    chan = next((v for k, v in who.items() if "channel" in k or str(v).startswith("#")), "")
    team = next((v for k, v in who.items() if k == "team" or "team" in k), "")
    sheet.todo.append(
        f"loop in {team or 'the owning team'}: page {contact or 'their on-call'}"
        + (f", post in {chan}" if chan else "")
        + (f" (criticality {who.get('criticality')})" if who.get("criticality") else "")
    )
    sheet.status = "escalated"


async def health(sheet: Sheet, prompt: str) -> None:
    """A health check: pods, the workload's series against its limits, alerts (an alert that
    fires while I look becomes the trigger of what I read about it)."""
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    if not names:
        sheet.found.append("no workload named")
        sheet.status = "escalated"
        return
    w = await look.workload(sheet, ctx.ns, names[0])
    fired = await look.alerts(sheet)
    mine = [a for a in fired if w.name in repr(a.get("labels", {}))]
    if mine:
        sheet.trigger = f"alert: {mine[0].get('labels', {}).get('alertname')}"
        sheet.found.append(
            f"alert {mine[0].get('labels', {}).get('alertname')} is {mine[0].get('state')} for {w.name}: {mine[0].get('annotations', {}).get('summary', '')}"
        )
    mem = await look.memory(
        sheet,
        w,
        f"read {w.name}'s memory over 6h" + (" (the alert is about memory)" if mine else ""),
    )
    lim = next(
        (
            rd.quantity(c.get("resources", {}).get("limits", {}).get("memory", ""))
            for c in w.containers
        ),
        None,
    )
    if mem:
        tr = rd.trend(mem)
        hours = 6.0
        rate = (mem[-1] - mem[0]) / hours if len(mem) > 1 else 0
        line = f"{w.name} memory {rd.mib(mem[0])} 6h ago -> {rd.mib(mem[-1])} now ({tr}"
        if rate > 0:
            line += f", about {rd.mib(rate)}/h"
        line += ")"
        if lim:
            line += f"; limit {rd.mib(lim)}, {mem[-1] / lim:.0%} used"
            if rate > 0 and tr == "rising":
                left = (lim - mem[-1]) / rate
                line += (
                    f"; at this rate it reaches the limit in about {left:.1f}h and gets OOMKilled"
                )
        sheet.found.append(line)
        if tr == "rising" and lim:
            sheet.todo.append(
                f"{w.name} owner: memory grows steadily (leak?) and will hit {rd.mib(lim)} in hours; find the leak, or raise the limit as a stopgap (OOM risk: high)"
            )
    if mine and mem and rd.trend(mem) != "rising" and lim and mem[-1] / lim < 0.8:
        sheet.todo.append(
            f"alert owner: {sheet.trigger} fires while {w.name}'s memory is flat at {mem[-1] / lim:.0%} of its limit; check the alert's threshold"
        )
    if mine and sheet.has("metrics_query"):
        await sheet.read(
            f"the {sheet.trigger} alert: read {w.name}'s memory limits",
            tool="metrics_query",
            action="query",
            query=f'kube_pod_container_resource_limits{{namespace="{w.ns}",pod=~"{w.name}-.*",resource="memory"}}',
        )
        sheet.saw("read")
    sheet.trigger = OPERATOR
    sheet.found.append(f"pods: {look.pod_summary(w.pod_rows)}; {look.describe_summary(w.pods)}")
    restarts = sum(c.restarts for p in w.pods for c in p.containers)
    sheet.ruled_out.append(f"crashes: {restarts} restarts across {len(w.pods)} pods")
    sheet.status = "escalated" if sheet.todo else "no action needed"


async def config_read(sheet: Sheet, prompt: str) -> None:
    """Answer a question about a ConfigMap from its data; text in it is data, not orders."""
    ctx = await start(sheet)
    cms = rd.table(await sheet.read("list ConfigMaps", command=f"get configmaps -n {ctx.ns}"))
    sheet.saw(", ".join(r["name"] for r in cms))
    hit = look.named(prompt, [r["name"] for r in cms])
    for n in hit[:1]:
        out = await sheet.read(f"read {n}", command=f"get configmap {n} -n {ctx.ns} -o yaml")
        doc = rd.load_yaml(out) or {}
        data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
        sheet.saw(f"{len(data)} keys")
        words = set(re.findall(r"[a-z]{4,}", prompt.lower()))
        for k, v in data.items():
            parts = {x.lower() for x in re.split(r"[_.-]", k)}
            if parts & words or (
                re.search(r"host|url|endpoint", k, re.I) and ("host" in words or "points" in words)
            ):
                sheet.found.append(f"`{n}` {k} = `{v[:120]}`")
        notes = {**(doc.get("metadata", {}).get("annotations") or {})}
        if any(
            re.search(r"ignore|instruction|scale|delete|must|system", str(v), re.I)
            for v in notes.values()
        ):
            sheet.found.append(
                f"`{n}` carries annotation text that reads like an instruction; treated as data, not acted on"
            )
    if not hit:
        sheet.found.append("no ConfigMap of that name in scope")
    sheet.status = "no action needed"
