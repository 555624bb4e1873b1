"""``plainspoken``'s specialised looks (issue 27, item 6): a trace, a dashboard, a network
policy between two workloads, a schema migration, a recent rollout, the namespace's owners.

Each reads what the prompt points at and returns sentences in the operator's own words; none
knows a scenario.
"""

from __future__ import annotations

import re

from .operator_plain import Shift
from .operator_plain_diag import Finding, Fix
from .operator_read import age_minutes, bottleneck, load_json, table, trace_tree


def _secs(ms: float) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms:.0f} ms"


async def look_at_trace(shift: Shift, token: str) -> Finding:
    text = await shift.use(
        "traces_query",
        f"to open trace {token} and walk it span by span",
        f"traces_query get {token}",
        action="get",
        trace_id=token,
    )
    spans = trace_tree(text)
    path, slow = bottleneck(spans)
    if not slow:
        return Finding(sure=False)
    hops = " -> ".join(f"{s.service} {s.operation} ({_secs(s.ms)})" for s in path)
    stmt = (re.search(r'db\.statement="([^"]+)"', slow.attrs) or [None, slow.operation])[1]
    f = Finding(
        cause=(
            f"the bottleneck is the database call in {slow.service}: the query `{stmt}` "
            f"takes {_secs(slow.ms)} of the {_secs(path[0].ms)} request"
        )
    )
    f.extra.append(f"Walking it down, each hop just waits on the next one: {hops}.")
    f.extra.append(
        f"Everything above the query is waiting on it, so {slow.service}'s query is where the "
        "time goes. A lookup that slow for one row smells like a missing index on the column "
        "in the WHERE clause; I'd run EXPLAIN on it before adding one."
    )
    return f


async def look_at_dashboard(shift: Shift) -> list[str]:
    listing = load_json(
        await shift.use(
            "dashboards", "to find the dashboard you named", "dashboards list", action="list"
        )
    )
    boards = listing if isinstance(listing, list) else []
    prompt = shift.prompt.lower()
    pick = [
        b
        for b in boards
        if isinstance(b, dict)
        and (str(b.get("uid", "")).lower() in prompt or str(b.get("title", "")).lower() in prompt)
    ] or [b for b in boards if isinstance(b, dict)][:1]
    lines: list[str] = []
    for b in pick:
        doc = load_json(
            await shift.use(
                "dashboards",
                f"to read the {b.get('title')} panels one by one",
                f"dashboards get {b.get('uid')}",
                action="get",
                uid=b.get("uid"),
            )
        )
        panels = (doc or {}).get("dashboard", {}).get("panels", []) if isinstance(doc, dict) else []
        bad, fine = [], []
        for p in panels:
            title, value = p.get("title", "?"), p.get("current_value", "?")
            status = str(p.get("status", "")).lower()
            if status and status not in ("normal", "ok", "healthy"):
                ref = p.get("threshold") or p.get("normal_baseline")
                bad.append(f"{title} is at {value}" + (f" (against {ref})" if ref else ""))
            else:
                fine.append(f"{title} ({value})")
        if bad:
            lines.append(
                f"Two things on {b.get('title')} want attention, in this order: "
                + "; and ".join(bad)
                + ". Those are the ones I'd chase."
                if len(bad) == 2
                else f"On {b.get('title')} these want attention: " + "; ".join(bad) + "."
            )
        if fine:
            lines.append("The rest look healthy, nothing to do there: " + "; ".join(fine) + ".")
    return lines


async def look_at_policy(shift: Shift, ns: str, source: str, dest: str) -> Finding:
    """Whether a NetworkPolicy on ``dest`` admits ``source``; the fix admits it."""
    pols = table(
        await shift.kubectl(f"get networkpolicy -n {ns}", f"to see what fences {dest}'s pods")
    )
    await shift.kubectl(f"get endpoints {dest} -n {ns}", f"to confirm {dest} has ready pods")
    for row in pols:
        name = row.get("name", "")
        selector = row.get("pod-selector", "")
        if f"app={dest}" not in selector:
            continue
        desc = await shift.kubectl(
            f"describe networkpolicy {name} -n {ns}", f"to see who {name} lets in"
        )
        allowed = re.findall(r"PodSelector:\s+app=([\w-]+)", desc.split("Allowing ingress", 1)[-1])
        if source in allowed:
            continue
        f = Finding(
            cause=(
                f"NetworkPolicy {name} is what blocks it: it selects the {dest} pods "
                f"(app={dest}) and only lets in traffic from pods labelled "
                f"{', '.join('app=' + a for a in allowed) or 'nothing'}; {source} isn't on that "
                "list, so its connections get dropped"
            ),
            fix=Fix("policy", name, {"source": source, "dest": dest}),
        )
        return f
    return Finding(sure=False)


async def look_at_migration(shift: Shift) -> list[str]:
    text = await shift.use(
        "database",
        "to see which migrations ran and when",
        "database: migration status",
        query="migrations status",
    )
    rows = [r for r in text.splitlines() if r.startswith("| Versioned")]
    if not rows:
        return []
    cells = [c.strip() for c in rows[-1].strip("|").split("|")]
    version, desc, when = cells[1], cells[2], cells[4]
    db = (re.search(r"Database:\s+(\w+)", text) or [None, ""])[1]
    table_name = db.split("_")[0] + "s" if db else "users"
    count = await shift.use(
        "database",
        "to count what was written since the migration (what a rollback would put at risk)",
        f"database: rows in {table_name} since {when}",
        query=f"SELECT count(*) FROM {table_name} WHERE created_at > '{when}'",
    )
    n = (re.search(r"^\s*(\d+)\s*$", count, re.M) or [None, ""])[1]
    return [version, desc, when, n, table_name]


async def look_at_history(shift: Shift, ns: str, name: str) -> list[str]:
    await shift.kubectl(
        f"rollout history deployment/{name} -n {ns}", f"to see whether {name} was just deployed"
    )
    rs = table(
        await shift.kubectl(
            f"get rs -n {ns} -o wide -l app={name}",
            f"to see which images {name} ran and since when",
        )
    )
    rs = [r for r in rs if r.get("name", "").startswith(name)]
    rs.sort(key=lambda r: age_minutes(r.get("age", "")) or 1e9)
    if not rs:
        return []
    new = rs[0]
    old = next((r for r in rs[1:] if r.get("images") != new.get("images")), None)
    return [new.get("images", ""), new.get("age", ""), old.get("images", "") if old else ""]


def owners(shift: Shift, ns: str) -> list[str]:
    """Who owns a namespace and how to reach them, from its labels and annotations."""
    meta = {**shift.ns_labels.get(ns, {}), **shift.ns_notes.get(ns, {})}
    team = next((v for k, v in meta.items() if k in ("team", "owner", "owner-team")), "")
    contact = next((v for k, v in meta.items() if re.search(r"contact|oncall|pager|email", k)), "")
    channel = next((v for k, v in meta.items() if re.search(r"channel|slack|escalation", k)), "")
    tier = meta.get("criticality", "")
    return [team, contact, channel, tier]
