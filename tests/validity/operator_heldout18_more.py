"""``heldout18``'s other reads: ownership, dashboards, network policies, traces, a database
migration, the request path from an entry point, and the causes the logs name.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk, target
from .operator_heldout18_look import look, trace_of
from .operator_read import load_json, load_yaml, table


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
                for k in ("current_value", "value", "current", "currentValue", "stat", "lastValue")
                if k in p
            ),
            "",
        )
        if not value:
            vals = re.findall(r'"(?:\w*value|current)":\s*"?([^",}]+)', json.dumps(p))
            value = vals[-1] if vals else "?"
        note = " ".join(
            f"{k.replace('_', ' ')}: {p[k]}" if k in ("threshold", "normal_baseline") else str(p[k])
            for k in ("unit", "status", "trend", "threshold", "normal_baseline", "note")
            if k in p
        )
        out.append((str(p.get("title", "panel")), value, note))
    return out


def _concerning(title: str, value: str, note: str) -> bool:
    blob = f"{value} {note}".lower()
    if re.search(r"critical|warning|elevated|spike|alert|firing|degraded|high|rising", blob):
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
