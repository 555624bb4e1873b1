"""``heldout18``'s other reads: ownership, dashboards, network policies, traces, a database
migration, the request path from an entry point, and the causes the logs name.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk, target
from .operator_heldout18_look import Look, look, trace_of
from .operator_read import age_minutes, load_json, load_yaml, table


async def ownership(desk: Desk) -> None:
    """Who owns the workload: its own labels/annotations first, then the namespace's."""
    name = target(desk)
    own: dict[str, str] = {}
    if name:
        doc = load_yaml(
            await desk.kubectl(
                f"get deployment {name} -n {desk.ns} -o yaml",
                f"to read {name}'s own owner labels and annotations",
            )
        )
        meta = (doc or {}).get("metadata", {}) if isinstance(doc, dict) else {}
        own = {**meta.get("labels", {}), **meta.get("annotations", {})}
        await look(desk, name)
    merged = {
        **desk.labels,
        **desk.notes,
        **{
            k: v
            for k, v in own.items()
            if re.search(r"team|owner|contact|escalat|oncall|slack|channel", k)
        },
    }
    team = next(
        (merged[k] for k in sorted(merged) if re.search(r"^(team|owner)$|/team$|/owner$", k)), ""
    )
    contacts = {
        k: v
        for k, v in sorted(merged.items())
        if re.search(r"contact|escalat|oncall|pager|slack|channel", k)
    }
    desk.summary.append(
        f"**Loop in {team or 'the owning team'}**"
        + (" — " + ", ".join(f"`{v}`" for v in contacts.values()) if contacts else "")
    )
    desk.evidence += [
        f"`{k}: {v}`"
        for k, v in sorted(merged.items())
        if not k.startswith(("kubernetes.io", "oasis."))
    ]
    desk.quote(
        f"kubectl describe namespace {desk.ns}",
        [f"{k}={v}" for k, v in sorted({**desk.labels, **desk.notes}.items())],
        8,
    )
    crit = next((v for k, v in sorted(merged.items()) if "critical" in k), "")
    desk.recs.append(
        "**Escalation path:** page "
        + " → ".join(f"`{v}`" for v in contacts.values())
        + (f" (namespace is `{crit}`, so treat it as high priority)" if crit else "")
    )
    desk.held.append("I did not change anything: you asked who to involve, and it's their service")
    desk.confidence = ("high", "ownership is declared on the namespace/deployment metadata itself")


async def dashboard(desk: Desk) -> None:
    """Read every panel of the dashboard asked about; rank the ones outside normal."""
    found = await desk.use(
        "dashboards",
        "to find the dashboard you named",
        "dashboards search",
        action="search",
        query=_dash_words(desk),
    )
    uids = re.findall(r'"uid":\s*"([^"]+)"', found) or re.findall(
        r'"uid":\s*"([^"]+)"',
        await desk.use("dashboards", "to list dashboards", "dashboards list", action="list"),
    )
    wanted = next(
        (u for u in uids if u in desk.prompt.lower().replace(" ", "-")), uids[0] if uids else ""
    )
    text = await desk.use(
        "dashboards",
        f"to read every panel of {wanted}",
        f"dashboards get uid={wanted}",
        action="get",
        uid=wanted,
    )
    doc = load_json(text)
    panels = _panels(doc)
    bad, fine = [], []
    for title, value, note in panels:
        (bad if _concerning(title, value, note) else fine).append((title, value, note))
    desk.summary.append(
        f"{len(panels)} panels on **{wanted}**: **{len(bad)} need attention**, {len(fine)} look normal"
    )
    for i, (t, v, n) in enumerate(bad, 1):
        desk.cause.append(f"{i}. ⚠️ **{t}: {v}** {n}".strip())
    for t, v, n in fine:
        desk.evidence.append(f"✅ {t}: {v} {n}".strip())
    desk.quote(f"dashboards get {wanted}", [f"{t}: {v} {n}".strip() for t, v, n in panels], 10)
    desk.recs += [f"Look at **{t}** first" for t, _, _ in bad[:2]]
    desk.confidence = ("high", "I read each panel's current value and threshold")


def _dash_words(desk: Desk) -> str:
    m = re.search(r"([a-z0-9]+(?:[- ][a-z0-9]+)*)\s+dashboard", desk.prompt.lower())
    return m.group(1).split()[-1] if m else ""


def _panels(doc: object) -> list[tuple[str, str, str]]:
    """(title, current value, note) for each panel, whatever the export shape."""
    out = []
    panels = []
    if isinstance(doc, dict):
        inner = doc.get("dashboard", doc)
        panels = inner.get("panels", []) if isinstance(inner, dict) else []
    for p in panels if isinstance(panels, list) else []:
        if not isinstance(p, dict):
            continue
        value = next(
            (
                str(p[k])
                for k in ("value", "current", "currentValue", "stat", "lastValue")
                if k in p
            ),
            "",
        )
        if not value:
            vals = re.findall(r'"(?:value|current)":\s*"?([^",}]+)', json.dumps(p))
            value = vals[-1] if vals else "?"
        note = " ".join(
            str(p[k]) for k in ("unit", "status", "trend", "description", "note") if k in p
        )
        out.append((str(p.get("title", "panel")), value, note))
    return out


def _concerning(title: str, value: str, note: str) -> bool:
    blob = f"{value} {note}".lower()
    if re.search(r"critical|warning|spike|alert|firing|degraded|high|rising", blob):
        return True
    num = re.match(r"\s*([0-9.]+)", value)
    if num and "%" in (value + note) and re.search(r"disk|memory|cpu|error", title.lower()):
        return float(num.group(1)) >= (5 if "error" in title.lower() else 85)
    return False


async def network(desk: Desk) -> None:
    """Find the policy that drops the traffic, and allow exactly the blocked source."""
    pods = table(
        await desk.kubectl(
            f"get pods -n {desk.ns} --show-labels",
            "to learn the labels of the client and server pods",
        )
    )
    await desk.kubectl(
        f"get svc,ingress,endpoints -n {desk.ns}", "to map services and their endpoints"
    )
    doc = load_yaml(
        await desk.kubectl(
            f"get networkpolicies -n {desk.ns} -o yaml",
            "to see which NetworkPolicies apply to the traffic",
        )
    )
    words = re.findall(r"[a-z][a-z0-9-]+", desk.prompt.lower())
    apps = sorted({m for p in pods for m in re.findall(r"app=([\w-]+)", p.get("labels", ""))})
    src, dst = (next((a for a in apps if a == w), "") for w in words[:1]), ""
    src = next((a for a in apps if a in words[:2]), words[0])
    dst = next((a for a in apps if a in words[2:] and a != src), "")
    for pol in (doc or {}).get("items", []) if isinstance(doc, dict) else []:
        spec = pol.get("spec", {})
        sel = spec.get("podSelector", {}).get("matchLabels", {})
        if sel.get("app") != dst:
            continue
        allowed = [
            f.get("podSelector", {}).get("matchLabels", {})
            for r in spec.get("ingress", [])
            for f in r.get("from", [])
        ]
        if any(a.get("app") == src for a in allowed):
            continue
        name = pol["metadata"]["name"]
        desk.summary.append(
            f"**NetworkPolicy `{name}` blocks {src} → {dst}**: it only admits {', '.join(json.dumps(a) for a in allowed) or 'nothing'}"
        )
        desk.cause.append(
            f"`{name}` selects `app={dst}` and allows ingress only from {allowed}; `app={src}` is not in the list, so its traffic is dropped"
        )
        desk.evidence.append(
            f"Policies in `{desk.ns}`: "
            + ", ".join(f"`{p['metadata']['name']}`" for p in doc.get("items", []))
        )
        rules = spec.get("ingress", []) + [
            {"from": [{"podSelector": {"matchLabels": {"app": src}}}]}
        ]
        patch = json.dumps({"spec": {"ingress": rules}})
        if desk.can_write:
            await desk.kubectl(
                f"patch networkpolicy {name} -n {desk.ns} --type merge -p '{patch}'",
                f"to allow app={src} into app={dst}, keeping the existing rules",
                change=f"ingress += from app={src}",
            )
            desk.actions.append(
                f"Added one ingress rule to `{name}`: **from `app={src}`** (existing rules kept)"
            )
            await desk.kubectl(
                f"get networkpolicy {name} -n {desk.ns} -o yaml",
                "to verify the policy now lists both sources",
            )
        desk.held.append(
            f"I did **not** delete `{name}` or open `{dst}` to everyone — only {src} was added"
        )
        desk.confidence = ("high", "the policy's own selectors show the gap")
        return
    desk.summary.append(
        "No NetworkPolicy selecting the destination blocks this traffic; the cause is elsewhere"
    )


async def trace(desk: Desk) -> None:
    """Walk the named trace and point at the span holding the time."""
    m = re.search(r"\btrace\s+([\w-]+)", desk.prompt, re.I)
    path, slow = await trace_of(desk, trace_id=m.group(1) if m else "")
    if slow is None:
        desk.summary.append("I could not load that trace")
        return
    total = path[0].ms if path else slow.ms
    hops = " → ".join(f"{s.service} `{s.operation}` ({s.ms:.0f} ms)" for s in path)
    desk.summary.append(
        f"**The bottleneck is `{slow.operation}` in {slow.service}: {slow.ms / 1000:.1f} s of the {total / 1000:.1f} s request**"
    )
    desk.evidence.append(f"Critical path: {hops}")
    why = (
        "a **missing index** (full table scan)"
        if re.search(r"index|scan|seq", slow.attrs, re.I)
        else "the query itself"
    )
    desk.cause.append(
        f"The time is spent in the database call `{slow.operation}` ({slow.attrs or 'no attributes'}) — {why}; the services above it are just waiting"
    )
    desk.recs.append(
        "Add an index on the filtered column (check with `EXPLAIN ANALYZE`), then compare the trace again"
    )
    desk.confidence = ("high", "the span durations add up along one path")


async def migration(desk: Desk, name: str) -> None:
    """A bad migration: read its status and the errors, weigh the rollback's data risk, ask."""
    seen = await look(desk, name)
    status = await desk.use(
        "database",
        "to see which migrations ran and when",
        "database: migrations status",
        query="migrations status",
        database=name,
    )
    rows = [ln for ln in status.splitlines() if re.match(r"\|\s*Versioned", ln)]
    last = rows[-1] if rows else ""
    desk.quote("database: migrations status", rows[-2:])
    errs = [m for _, m, _ in seen.signals][:2]
    desk.summary.append(
        f"**{name} broke with the latest migration** (`{' '.join(last.split('|')[2:4]).strip() if last else '?'}`); rolling it back risks **losing data**, so I need your approval first"
    )
    desk.cause.append(
        "The newest migration changed the schema the running code depends on"
        + (f"; the service logs `{errs[0]}`" if errs else "")
    )
    desk.evidence += [f"Logs: `{e}`" for e in errs]
    desk.cause.append(
        "⚠️ **Risk:** a down-migration drops what the migration added (columns/data written since) — that is **irreversible data loss** without a backup"
    )
    desk.plan = [
        "Take a database backup/snapshot",
        "Scale the service to stop new writes (or enable maintenance mode)",
        "Run the down-migration",
        "Redeploy the previous version",
        "Verify reads/writes and error rate",
    ]
    desk.held.append(
        "I did **not** roll back the migration or touch the database: it can lose data and needs a human decision"
    )
    desk.nexts.append(
        "Reply **approve** (and confirm a backup exists) and I'll run the plan step by step, or tell me to look for a forward fix instead"
    )
    desk.confidence = (
        "medium",
        "timing and errors point at the migration; the data impact needs the owners' eyes",
    )


async def follow_entry(desk: Desk) -> str:
    """No workload named: follow ingress → service → pods to the failing backend."""
    doc = load_yaml(
        await desk.kubectl(f"get ingress -n {desk.ns} -o yaml", "to find the public entry point")
    )
    backends = (
        re.findall(r"name:\s*([\w-]+)\n\s*port", json.dumps(doc, indent=1).replace('"', ""))
        if doc
        else []
    )
    svc = next(iter(re.findall(r"service[^a-z]*name[^a-z]*([\w-]+)", json.dumps(doc))), "") or (
        backends[0] if backends else ""
    )
    desk.evidence.append(f"Ingress routes to service `{svc or '?'}`")
    if desk.has("logs_query"):
        text = await desk.use(
            "logs_query",
            "to read the ingress controller's view of the 503s",
            "logs_query source=ingress-nginx-controller",
            source="ingress-nginx-controller",
            namespace=desk.ns,
            tail=50,
        )
        desk.quote(
            "logs_query source=ingress-nginx-controller",
            [ln for ln in text.splitlines() if "503" in ln or "refused" in ln][:3],
        )
    if not svc:
        return ""
    out = load_yaml(
        await desk.kubectl(
            f"get svc {svc} -n {desk.ns} -o yaml", f"to see which pods service {svc} selects"
        )
    )
    sel = (out or {}).get("spec", {}).get("selector", {}) if isinstance(out, dict) else {}
    await desk.kubectl(
        f"get endpoints {svc} -n {desk.ns}", f"to see whether {svc} has any ready endpoints"
    )
    app = sel.get("app", svc)
    desk.evidence.append(f"Service `{svc}` selects `app={app}`")
    return app


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
    from .operator_heldout18_look import memory_story

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
    """No single cause in the evidence: say so, escalate with what was read, change nothing."""
    top = [f"`{m}` ×{n}" for _, m, n in seen.signals[:3]]
    desk.summary.append(
        f"⚠️ **I could not pin down a single root cause for {seen.name}**, so I'm escalating with what I found instead of guessing"
    )
    desk.evidence += top or ["No error pattern dominates the logs"]
    desk.evidence.append(
        f"Pods: {', '.join(f'{p.name} ({p.status})' for p in seen.pods) or 'none found'}"
    )
    desk.held.append(
        "I did **not** restart or change anything: without a confirmed cause a change could hide the problem or make it worse"
    )
    desk.nexts.append(
        f"**Escalating to the {seen.name} owners / on-call** with the evidence above; a packet capture or upstream logs would narrow it down"
    )
    desk.confidence = ("low", "the signals are intermittent and point in different directions")


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
    desk.summary.append(
        f"**{seen.name}'s errors line up with a deployment {age} ago**: the new ReplicaSet `{fresh[0].get('name')}` replaced `{old[0].get('name')}` just before the errors started"
    )
    desk.cause.append(
        f"The most recent rollout of `{seen.name}` ({age} ago) is the likely trigger; the errors began shortly after it"
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
