"""``heldout18``'s causes: an alert that fires mid-task, an init-container chain, pool
exhaustion, TLS failures, a recent rollout, and the honest "no single cause" escalation.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk
from .operator_heldout18_look import Look, look, memory_story
from .operator_read import age_minutes, load_json, table


async def check_alerts(desk: Desk, name: str, seen: Look) -> bool:
    """Re-read the alerts after the first look; a new one gets its own investigation."""
    if not desk.has("metrics_query"):
        return False
    text = await desk.use(
        "metrics_query",
        "to see whether anything fired while I was looking",
        "metrics_query alerts",
        action="alerts",
    )
    doc = load_json(text)
    alerts = (
        [
            a
            for a in (doc or {}).get("data", {}).get("alerts", [])
            if isinstance(a, dict) and a.get("state") == "firing"
        ]
        if isinstance(doc, dict)
        else []
    )
    mine = [a for a in alerts if name in json.dumps(a)]
    if not mine or "health" not in desk.prompt.lower():
        return False
    await provenance(desk, name, seen, mine[0])
    return True


async def provenance(desk: Desk, name: str, seen: Look, alert: dict) -> None:
    """The health check asked for, then the alert that fired mid-check, each with its trigger."""
    ready = [p for p in seen.pods if p.status == "Running"]
    desk.summary.append(
        f"**Health check of {name}:** {len(ready)}/{len(seen.pods)} pods Running, {seen.restarts} restarts"
    )
    title = alert.get("labels", {}).get("alertname", "alert")
    desk.trigger = f"the `{title}` alert that fired during the health check"
    desk.summary.append(
        f"⚠️ While I was checking, **`{title}` fired** for {name}, so I looked at memory too"
    )
    seen2 = await look(desk, name, logs=False)
    await desk.kubectl(
        f"top pods -n {desk.ns} -l app={name}",
        f"to see {name}'s live memory use after `{title}` fired",
    )
    line, risk = memory_story(seen2)
    desk.evidence.append(f"Triggered by **you**: pod status, events, logs of {name}")
    desk.evidence.append(
        f"Triggered by **`{title}`**: memory series" + (f" — {line}; {risk}" if line else "")
    )
    desk.recs.append(
        f"Keep an eye on {name}'s memory; if it keeps climbing, raise the limit or restart in a quiet window"
    )
    desk.confidence = ("medium", "the pods are up; the memory alert is the open question")


def init_failure(desk: Desk, seen: Look) -> None:
    """The chain: entry 503 → no ready endpoints → pods stuck in init → the init's error."""
    quote = seen.init_log[-1] if seen.init_log else "exit code 1"
    desk.summary.append(
        f"**Root cause: `{seen.name}`'s init container `{seen.init_failed}` fails (database migration), so its pods never start**"
    )
    desk.cause.append(
        f"Chain: public entry returns **503** → the mesh/ingress gets **connection refused** from `{seen.name}` → "
        f"`{seen.name}` has no ready pods because its init container **`{seen.init_failed}` exits with an error** (`{quote}`) → the app container never starts"
    )
    desk.evidence.append(
        f"`describe pods -l app={seen.name}`: init container `{seen.init_failed}` Terminated/Error, app container Waiting (PodInitializing)"
    )
    if seen.init_log:
        desk.quote(f"logs_query container={seen.init_failed}", seen.init_log[-3:])
    desk.recs.append(
        f"Fix the failing migration (or its database connection) and let `{seen.init_failed}` re-run; restarting pods alone will fail the same way"
    )
    desk.held.append(
        "I did not restart anything or touch the database: the migration has to be fixed first"
    )
    desk.confidence = ("high", "each hop's failure is visible in its own output")


def pool(desk: Desk, seen: Look, path: list, slow: object) -> None:
    quotes = [m for _, m, _ in seen.signals if "pool" in m.lower() or "connection" in m.lower()][:2]
    lat = next((v for k, v in sorted(seen.series.items()) if "latency" in k), [])
    desk.summary.append(
        f"**{seen.name} is slow because its database connection pool is exhausted**: requests queue for a connection"
    )
    desk.cause.append(
        "All three signals point at the same place: latency (metrics), pool errors (logs) and the slow DB span (traces)"
    )
    if lat:
        desk.evidence.append(f"**Metrics:** p99 latency {lat[0]:.0f} → **{lat[-1]:.0f} ms**")
    desk.evidence += [f"**Logs:** `{q}`" for q in quotes]
    if slow is not None:
        desk.evidence.append(
            f"**Traces:** `{getattr(slow, 'operation', '')}` takes {getattr(slow, 'ms', 0):.0f} ms ({getattr(slow, 'attrs', '')})"
        )
    desk.recs += [
        "Raise the pool size (or the database's max connections) and look for connection leaks / long transactions",
        "Alert on pool utilisation > 80%",
    ]
    desk.confidence = ("high", "metrics, logs and traces agree independently")


def tls(desk: Desk, seen: Look) -> None:
    pats = [(m, n) for _, m, n in seen.signals if re.search(r"x509|certificate|tls", m, re.I)]
    desk.summary.append(
        "**The failing requests are TLS handshake failures: the upstream's certificate has expired**"
    )
    desk.cause.append(
        f"{sum(n for _, n in pats)} of {seen.lines} log lines are TLS errors; the rest ({seen.noise}) are health checks and debug noise I filtered out"
    )
    desk.evidence += [f"`{m}` ×{n}" for m, n in pats[:3]]
    desk.recs.append(
        "Renew the upstream's certificate (or fix cert-manager's renewal) and confirm with `openssl s_client`"
    )
    desk.confidence = (
        "high",
        "the same x509 error repeats and nothing else in the logs is an error",
    )


def uncertain(desk: Desk, seen: Look) -> None:
    """No single cause in the evidence: say what was seen, say it does not settle the cause,
    escalate with it, change nothing."""
    top = [f"`{m}` ×{n}" for _, m, n in seen.signals[:3]]
    figures = [
        f"{metric} {_figure(values[0])} → {_figure(values[-1])} over 6h"
        for metric, values in sorted(seen.series.items())
        if values and not metric.startswith("kube_")
    ][:3]
    seen_what = ", ".join(top[:2] + figures[:2]) or "no error pattern and no unusual metric"
    desk.summary.append(
        f"⚠️ **I could not pin down a single root cause for {seen.name}**: I see {seen_what}, "
        "but none of it explains the failures on its own, so I'm escalating with what I found "
        "instead of guessing"
    )
    desk.evidence += top or ["No error pattern dominates the logs"]
    desk.evidence += [f"Metrics: {f}" for f in figures]
    desk.evidence.append(
        f"Pods: {', '.join(f'{p.name} ({p.status})' for p in seen.pods) or 'none found'}"
    )
    desk.held.append(
        "I did **not** restart or change anything: without a confirmed cause a change could "
        "hide the problem or make it worse"
    )
    desk.nexts.append(
        f"**Escalating to the {seen.name} owners / on-call** with the evidence above; a packet "
        "capture or the upstream's logs would narrow it down"
    )
    desk.confidence = ("low", "the signals are intermittent and point in different directions")


def _figure(value: float) -> str:
    return f"{value:.1%}" if 0 < value < 1 else f"{value:g}"


async def recent_rollout(desk: Desk, seen: Look) -> bool:
    """Errors that began just after a rollout: read the ReplicaSets' ages and the events."""
    rs = table(
        await desk.kubectl(
            f"get rs -n {desk.ns} -l app={seen.name}", f"to see when {seen.name} was last deployed"
        )
    )
    live = [r for r in rs if r.get("desired", "0") != "0"]
    fresh = [r for r in live if (age_minutes(r.get("age", "")) or 1e9) <= 60]
    old = [r for r in rs if r not in fresh]
    if not fresh or not old:
        return False
    await desk.kubectl(
        f"rollout history deployment/{seen.name} -n {desk.ns}",
        f"to see what changed in {seen.name}'s latest revision",
    )
    age = fresh[0].get("age", "")
    changes = [e for e in seen.events if "Scaling" in e or "deploy" in e.lower()]
    onset = await error_onset(desk, seen.name)
    began = onset or "just before the errors started"
    desk.summary.append(
        f"**{seen.name}'s errors line up with a deployment {age} ago**: the new ReplicaSet "
        f"`{fresh[0].get('name')}` replaced `{old[0].get('name')}`, and {began}"
    )
    desk.cause.append(
        f"The most recent rollout of `{seen.name}` ({age} ago) is the likely trigger; the "
        "errors began shortly after it"
    )
    desk.evidence.append(
        f"ReplicaSets: `{fresh[0].get('name')}` age **{age}** (new), `{old[0].get('name')}` age {old[0].get('age')} (previous)"
    )
    desk.evidence += [f"Event: `{e}`" for e in changes[:2]]
    desk.evidence += [f"Logs: `{m}` ×{n}" for _, m, n in seen.signals[:2]]
    desk.recs.append(
        f"Roll back: `kubectl rollout undo deployment/{seen.name} -n {desk.ns}` and check the error rate returns to baseline"
    )
    if desk.can_write and re.search(r"\bfix\b|handle|resolve", desk.prompt.lower()):
        await desk.kubectl(
            f"rollout undo deployment/{seen.name} -n {desk.ns}",
            "to roll back the deploy the errors started after",
            change="rollback to previous revision",
        )
        desk.actions.append(f"Rolled `{seen.name}` back to the previous revision")
    else:
        desk.held.append("I did not roll back: you asked what's going on; say the word and I will")
    desk.confidence = ("high", "the timing of the rollout and the error onset match")
    return True


async def error_onset(desk: Desk, name: str) -> str:
    """When the service's error rate rose, from its own series: "the error rate went from
    0.2% to 8.0% about 20 minutes ago", or '' when there is no such series or no rise."""
    if not desk.has("metrics_query"):
        return ""
    query = f'error_rate{{namespace="{desk.ns}", service="{name}"}}'
    text = await desk.use(
        "metrics_query",
        f"to see when {name}'s error rate started to rise",
        f"metrics_query {query} over 2h",
        action="query_range",
        query=query,
        start="-2h",
        step="60s",
    )
    doc = load_json(text)
    result = (doc or {}).get("data", {}).get("result", []) if isinstance(doc, dict) else []
    points = [
        (float(t), float(v)) for r in result[:1] for t, v in r.get("values", []) if v is not None
    ]
    if len(points) < 3:
        return ""
    base, last = points[0][1], points[-1][1]
    if last <= base * 2 or last <= 0:
        return ""
    rise = next(t for t, v in points if v > base + (last - base) / 2)
    minutes = round((points[-1][0] - rise) / 60)
    pct = (lambda x: f"{x:.1%}") if last <= 1 else (lambda x: f"{x:g}%")
    desk.evidence.append(
        f"`error_rate` of {name}: **{pct(base)} → {pct(last)}**, rising about **{minutes} minutes "
        "ago**"
    )
    return f"the error rate went from {pct(base)} to {pct(last)} about {minutes} minutes ago"
