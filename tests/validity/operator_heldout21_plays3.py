"""``heldout21``'s read-mostly plays (issue 27): a trace, a dashboard, ownership, a network
path between two workloads, a migration that broke a service. Read first, change only the
least and only when it is safe; otherwise present the plan and ask."""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout21 import Desk
from .operator_heldout21_diag import Signals, walk_trace
from .operator_heldout21_look import Scene, all_of, log_signal, logs, subject
from .operator_read import load_json


async def trace_bottleneck(desk: Desk, scene: Scene, token: str) -> None:
    r = desk.report
    s = Signals(subject(desk, scene))
    await walk_trace(desk, s, token)
    if not s.slow_span:
        r.summary = f"trace {token} could not be read"
        return
    stmt = (re.search(r'db\.statement="?([^"\]]+)', s.slow_span) or [None, ""])[1]
    svc_op = s.slow_span.split(" [")[0]
    r.statement = (
        f"the bottleneck is the database query span {svc_op}"
        + (f" (`{stmt}`)" if stmt else "")
        + ": it holds almost all of the request's time"
    )
    r.confidence = 0.85
    r.cite(f"trace path: {s.trace}")
    r.cite(f"slowest span: {s.slow_span}")
    r.extra["trace_path"] = s.trace.split(" -> ")
    r.summary = f"Trace {token}: every hop waits on the next; the time goes into {svc_op}."
    r.next_steps.append(
        "run EXPLAIN on that query; a full scan on the WHERE column points at a missing index, add it"
    )
    r.open_questions.append("is there an index on the column the slow query filters on?")


async def dashboard(desk: Desk) -> None:
    r = desk.report
    listing = load_json(
        await desk.use(
            "dashboards", "to find the dashboard you named", "dashboards list", action="list"
        )
    )
    boards = [b for b in listing if isinstance(b, dict)] if isinstance(listing, list) else []
    prompt = desk.prompt.lower()
    pick = [
        b
        for b in boards
        if str(b.get("uid", "")).lower() in prompt or str(b.get("title", "")).lower() in prompt
    ] or boards[:1]
    panels_out: list[dict[str, Any]] = []
    concerns: list[str] = []
    for b in pick:
        doc = load_json(
            await desk.use(
                "dashboards",
                f"to read every panel of {b.get('title')}",
                f"dashboards get {b.get('uid')}",
                action="get",
                uid=b.get("uid"),
            )
        )
        panels = (doc or {}).get("dashboard", {}).get("panels", []) if isinstance(doc, dict) else []
        for p in panels:
            status = str(p.get("status", "")).lower()
            bad = bool(status) and status not in ("normal", "ok", "healthy")
            item = {
                "panel": p.get("title"),
                "value": p.get("current_value"),
                "status": p.get("status") or "n/a",
                "assessment": "needs attention" if bad else "normal",
            }
            for k in ("threshold", "unit", "trend"):
                if p.get(k) is not None:
                    item[k] = p.get(k)
            panels_out.append(item)
            if bad:
                concerns.append(f"{p.get('title')} at {p.get('current_value')} ({p.get('status')})")
    r.extra["panels"] = panels_out
    r.extra["priorities"] = concerns
    if concerns:
        r.statement = "; ".join(concerns) + " need attention; the other panels are normal"
        r.confidence = 0.85
        for c in concerns:
            r.cite(f"panel {c}")
        r.summary = f"{len(concerns)} of {len(panels_out)} panels are concerning: {', '.join(concerns)}. The rest are within normal range."
        r.next_steps += [f"look first at {c}" for c in concerns]
    else:
        r.summary = f"All {len(panels_out)} panels are normal."


async def ownership(desk: Desk, scene: Scene) -> None:
    r = desk.report
    meta = {**scene.labels, **scene.notes}
    name = subject(desk, scene)
    dep = load_json(
        await desk.kubectl(
            f"get deployment {name} -n {desk.ns} -o json",
            f"to read {name}'s own owner labels and annotations",
        )
    )
    if isinstance(dep, dict):
        m = dep.get("metadata", {})
        meta.update(m.get("labels") or {})
        meta.update(m.get("annotations") or {})
    owners = {
        k: v
        for k, v in sorted(meta.items())
        if re.search(r"team|owner|oncall|on-call|slack|pager|escalat|contact|email", k, re.I)
    }
    r.extra["ownership"] = owners
    team = next((v for k, v in owners.items() if re.search(r"team|owner", k)), "")
    path = [
        f"{k.split('/')[-1]}: {v}"
        for k, v in owners.items()
        if not re.search(r"^(team|owner)$", k.split("/")[-1])
    ]
    r.extra["escalation_path"] = path
    for k, v in owners.items():
        r.cite(f"{k}={v}")
    r.summary = f"{name} in {desk.ns} is owned by {team or 'no labelled team'}" + (
        f"; escalation path: {'; '.join(path)}" if path else ""
    )
    r.escalate_to = team or "the namespace owner"
    r.escalate_why = f"loop in the owning team of {name}, through the contacts above"


async def network(desk: Desk, scene: Scene) -> None:
    """Services, endpoints, policies; a narrowly scoped allow for the blocked pair."""
    r = desk.report
    await desk.kubectl(
        f"get services,endpoints -n {desk.ns} -o wide",
        "to see the services and whether they have endpoints",
    )
    await desk.kubectl(f"get ingress -n {desk.ns}", "to see what ingress routes exist")
    pols = await all_of(desk, "networkpolicies", "to see which network policies select the pods")
    names = desk.named(list(scene.deployments)) or sorted(scene.deployments)
    low = desk.prompt.lower()
    order = sorted(names, key=lambda n: low.find(n.lower()) if n.lower() in low else 999)
    src, dst = (order + ["", ""])[:2]
    blocking = []
    admits: dict[str, str] = {}
    for p in pols:
        spec = p.get("spec", {})
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if "Ingress" in (spec.get("policyTypes") or ["Ingress"]) and (
            not sel or sel.get("app") == dst
        ):
            allowed = json.dumps(spec.get("ingress") or [])
            if f'"{src}"' not in allowed:
                blocking.append(p.get("metadata", {}).get("name", "?"))
                admits[blocking[-1]] = _peers(spec)
    r.extra["discovered"] = {
        "network_policies": [p.get("metadata", {}).get("name") for p in pols],
        "from": src,
        "to": dst,
    }
    if not blocking:
        r.summary = f"No policy blocks {src} -> {dst}; I changed nothing."
        r.escalate_to, r.escalate_why = (
            "the service owner",
            "the cause is not in the namespace's policies",
        )
        return
    pol = blocking[0]
    r.statement = (
        f"NetworkPolicy {pol} selects {dst}'s pods for ingress and admits only {admits[pol]}, "
        f"not {src}, so {src}'s traffic to {dst} is dropped"
    )
    r.confidence = 0.9
    r.cite(f"networkpolicy {pol}: ingress from {admits[pol]} only; app={src} is not among them")
    allow = {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": f"allow-{src}-to-{dst}", "namespace": desk.ns},
        "spec": {
            "podSelector": {"matchLabels": {"app": dst}},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": src}}}]}],
        },
    }
    await desk.kubectl(
        f"apply -n {desk.ns} -f - <<EOF\n{json.dumps(allow, indent=2)}\nEOF",
        f"a targeted allow for {src} -> {dst} only; {pol} stays in place for everything else",
        before=f"{pol} blocks {src} -> {dst}",
        change=True,
    )
    desk.acts[-1].after = f"allow-{src}-to-{dst} admits {src} to {dst}"
    await desk.kubectl(f"get networkpolicies -n {desk.ns}", "to confirm both policies are in place")
    r.summary = f"{pol} was blocking {src} -> {dst}; I added a narrow allow policy for just that path and left {pol} intact."


def _peers(spec: dict[str, Any]) -> str:
    """Who a policy's ingress rules admit, in words ("app=monitoring pods", "no one")."""
    said = []
    for rule in spec.get("ingress") or []:
        for peer in rule.get("from") or []:
            for kind in ("podSelector", "namespaceSelector"):
                labels = (peer.get(kind) or {}).get("matchLabels") or {}
                if labels:
                    what = "pods" if kind == "podSelector" else "namespaces"
                    said.append(
                        ", ".join(f"{k}={v}" for k, v in sorted(labels.items())) + f" {what}"
                    )
    return " and ".join(said) or "no one"


async def migration(desk: Desk, scene: Scene) -> None:
    """Read the migration state and the service's errors; a down-migration that drops data
    is presented for approval, not run."""
    r = desk.report
    name = subject(desk, scene)
    pats, _, _ = log_signal(await logs(desk, name))
    status = await desk.use(
        "database",
        "to see which migrations ran last",
        "database: migrations status",
        query="migrations status",
    )
    await desk.use(
        "database",
        "to see the schema the service now runs against",
        "database: describe schema",
        query="\\d",
    )
    latest = [ln.strip() for ln in status.splitlines() if ln.strip().startswith("|")][-2:]
    r.extra["migration_state"] = latest
    for lvl, m, n in pats[:3]:
        r.cite(f"log: {lvl}: {m} (x{n})")
    for ln in latest:
        r.cite(f"migrations: {ln}")
    rows = [
        [c.strip() for c in ln.strip("|").split("|")]
        for ln in status.splitlines()
        if ln.startswith("|")
    ]
    done = [c for c in rows if len(c) >= 3 and re.fullmatch(r"\d+", c[1] or "")]
    last = f"migration {done[-1][1]} ({done[-1][2]})" if done else "the last migration"
    error = pats[0][1] if pats else "its requests fail"
    r.statement = f"{name} broke after {last}: {error}; the code and the migrated schema disagree"
    r.confidence = 0.8
    column = (re.search(r"column '?\"?(\w+)", error) or [None, ""])[1]
    r.extra["risk"] = (
        f"rolling back {last} runs its down step"
        + (
            f", which drops what it added ({column}) and every value written to it since"
            if column
            else ""
        )
        + f": data written since {last} ran would be lost, and {name} stays down while it runs"
    )
    r.extra["plan_for_approval"] = [
        "1. take a backup / snapshot of the database",
        "2. run the migration's down step (rollback) in a maintenance window",
        f"3. restart {name} and verify its errors stop",
        "alternative: roll forward with a fix so no data is lost",
    ]
    r.escalate_to = "the service owner / DBA"
    r.escalate_why = "a migration rollback risks data loss; I need your approval before running it"
    r.summary = f"{name} fails since the last migration. Rolling it back would fix it but risks data loss, so I have not run it: approve the plan below or pick roll-forward."
