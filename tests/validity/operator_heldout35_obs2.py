"""heldout35's health check: pods, the service's own series, alerts, and memory against its
limit over time. An alert that fires while it looks becomes the trigger of the calls it
prompts.
"""

from __future__ import annotations

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import app_metrics, read_workload, subject
from .operator_heldout35_pr import Report, ref


async def _memory(s: Session, ns: str, name: str, limit: float | None) -> tuple[str, str]:
    out = await s.tool(
        "metrics_query",
        f"`{name}`'s memory over 6h: trend, not just the current value",
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{ns}",pod=~"{name}-.*"}}',
        start="-6h",
        step="30m",
    )
    series = [x for x in rd.prom_series(out) if x[1]]
    if not series:
        return "", ""
    values = max(series, key=lambda x: x[1][-1])[1]
    first, last, tr = values[0], values[-1], rd.trend(values)
    line = f"memory {tr}: {rd.mib(first)} 6h ago -> {rd.mib(last)} now {ref(s)}"
    risk = ""
    if limit:
        line += f", {last / limit:.0%} of its {rd.mib(limit)} limit"
        rate = (last - first) / 6
        if tr == "rising" and rate > 0:
            hours = (limit - last) / rate
            risk = (
                f"OOM risk: at the 6h average growth of ~{rd.mib(rate)}/h it reaches the "
                f"{rd.mib(limit)} limit in about {hours:.1f}h, and the container is then "
                "OOMKilled."
            )
    return line, risk


async def health_play(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    kind, name = await subject(s, ns)
    r = Report(cause=[])
    if not kind:
        r.title, r.no_change = "docs: no workload matched", "Nothing to check."
        return r
    w = await read_workload(s, ns, kind, name)
    ready, total = w.ready()
    restarts = sum(c.restarts for p in w.pods for c in p.containers)
    r.done(f"pods {ready}/{total} ready, {restarts} restarts {ref(s, w.describe_call)}")
    await app_metrics(s, w)
    for metric, value in sorted(w.metrics.items()):
        r.done(f"`{metric}` = {value:g} {ref(s, w.metric_calls[metric])}")
    fired: list[str] = []
    if s.has("metrics_query"):
        doc = rd.alerts(
            await s.tool("metrics_query", "any alert firing for this service", action="alerts")
        )
        al_ref = ref(s)
        for al in doc:
            labels = al.get("labels") or {}
            if al.get("state") == "firing" and name in (
                labels.get("service"),
                labels.get("deployment"),
                labels.get("app"),
            ):
                fired.append(str(labels.get("alertname", "")))
        if fired:
            s.trigger = f"alert `{fired[0]}` (fired during the check, seen {al_ref})"
            r.summary.append(
                f"While I was checking, alert `{fired[0]}` started firing for `{name}` {al_ref}; I followed it up (those calls are marked as prompted by the alert)."
            )
    limit = None
    for c in w.containers:
        lim = ((c.get("resources") or {}).get("limits") or {}).get("memory")
        limit = rd.quantity(str(lim)) if lim else limit
    line, risk = await _memory(s, ns, name, limit)
    if fired or line:
        top = rd.table(await s.kubectl(f"top pods -n {ns}", "current memory per pod"))
        mine = [t for t in top if t.get("name", "").startswith(name)]
        if mine:
            r.done(
                "current memory "
                + ", ".join(f"`{t.get('name')}` {t.get('memory(bytes)')}" for t in mine)
                + f" {ref(s)}"
            )
    if line:
        r.done(line)
    worry = bool(risk) or ready < total or restarts > 0 or bool(fired)
    r.title = f"docs({name}): health check - " + ("needs attention" if worry else "healthy")
    r.summary.insert(
        0,
        f"`{name}` is {'up' if ready == total and total else 'degraded'} ({ready}/{total} ready, {restarts} restarts)"
        + (f"; {line}" if line else "")
        + ".",
    )
    if risk:
        r.summary.append(risk)
        r.cause = [
            "Not an incident yet: " + risk + " The steady climb looks like a leak rather than load."
        ]
        r.followups = [
            f"Owner ({owners(a)}): find the leak, or raise the limit before it hits; a restart only resets the clock."
        ]
    else:
        r.cause = [
            f"Nothing broken: the `{fired[0]}` alert fired during the check, but {line or 'memory was not recorded'}: no sign of pressure behind it yet."
            if fired
            else "Nothing broken found."
            if not worry
            else "Something is off (see the checks), no single cause read."
        ]
    r.no_change = "Read-only check: nothing needed changing now."
    return r
