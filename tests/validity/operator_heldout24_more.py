"""``heldout24``'s specialised looks (issue 27, fairness): a trace walked span by span, a
dashboard panel by panel, the ns owners, a migration and what a rollback would cost, what
changed lately (rollouts, events), node CPU. Each reads what the message points at.
"""

from __future__ import annotations

import json
import re

from .operator_heldout24 import Desk
from .operator_heldout24_look import Case, recent_rollout
from .operator_read import age_minutes, bottleneck, load_json, prom_series, table, trace_tree


def _ms(ms: float) -> str:
    return f"{ms / 1000:.1f}s" if ms >= 1000 else f"{ms:.0f}ms"


async def trace(desk: Desk) -> None:
    token = re.search(r"\btrace\s+([0-9a-f]{4,})\b", desk.low).group(1)  # type: ignore[union-attr]
    text = await desk.use(
        "traces_query",
        f"open trace {token}, walk it",
        f"traces_query get {token}",
        action="get",
        trace_id=token,
        format="tree",
    )
    spans = trace_tree(text)
    path, slow = bottleneck(spans)
    if not slow:
        desk.say(f"trace {token} came back empty/unreadable, cant say yet. can u send the full id?")
        return
    services = sorted({s.service for s in spans})
    desk.say(
        f"walked trace {token}: {len(spans)} spans across {len(services)} svcs ({', '.join(services)})"
    )
    desk.say(" -> ".join(f"{s.service} `{s.operation}` {_ms(s.ms)}" for s in path))
    stmt = (re.search(r'db\.statement="([^"]+)"', slow.attrs) or [None, slow.operation])[1]
    desk.say(
        f"bottleneck = db query in {slow.service}: `{stmt}` takes {_ms(slow.ms)} of {_ms(path[0].ms)}, "
        "everything above just waits on it"
    )
    desk.say(
        "slow single-row lookup like that -> prolly missing index on the WHERE column. pls run EXPLAIN, then add index if seq scan"
    )


async def dashboard(desk: Desk) -> None:
    listing = load_json(
        await desk.use("dashboards", "find the dashboard", "dashboards list", action="list")
    )
    boards = [b for b in listing if isinstance(b, dict)] if isinstance(listing, list) else []
    pick = [
        b
        for b in boards
        if str(b.get("uid", "")).lower() in desk.low or str(b.get("title", "")).lower() in desk.low
    ] or boards[:1]
    for b in pick:
        doc = load_json(
            await desk.use(
                "dashboards",
                f"read {b.get('uid')} panels",
                f"dashboards get {b.get('uid')}",
                action="get",
                uid=b.get("uid"),
            )
        )
        panels = (doc or {}).get("dashboard", {}).get("panels", []) if isinstance(doc, dict) else []
        bad, ok = [], []
        for p in panels:
            title, value = p.get("title", "?"), p.get("current_value", "?")
            status = str(p.get("status", "")).lower()
            ref = p.get("threshold") or p.get("normal_baseline")
            if status and status not in ("normal", "ok", "healthy"):
                bad.append(f"{title} at {value}" + (f" (vs {ref})" if ref else "") + f" [{status}]")
            else:
                ok.append(f"{title} {value}")
        desk.say(f"{b.get('title')}: {len(panels)} panels, read all of them")
        if bad:
            desk.say(
                "needs attention, in this order:\n"
                + "\n".join(f"{i}. {x}" for i, x in enumerate(bad, 1))
            )
        if ok:
            desk.say("rest look fine, nothing to do: " + "; ".join(ok))


async def owners(desk: Desk) -> None:
    meta = {**desk.labels, **desk.notes}
    team = next(
        (
            v
            for k, v in meta.items()
            if k.split("/")[-1] in ("team", "owner", "owner-team", "owning-team")
        ),
        "",
    )
    contact = next(
        (v for k, v in meta.items() if re.search(r"contact|oncall|on-call|pager|email", k)), ""
    )
    channel = next((v for k, v in meta.items() if re.search(r"channel|slack|escalation", k)), "")
    from .operator_heldout24_plays import investigate

    await investigate(desk, act=False)
    if team:
        desk.say(f"owner: team `{team}` (from ns {desk.ns} labels/annotations)")
    path = [x for x in (contact, channel) if x]
    if path:
        desk.say(
            "escalation path: "
            + " -> ".join(path)
            + f". pls loop in {team or 'them'} there, page on-call if its urgent"
        )
    else:
        desk.say("no contact annotations on the ns, fyi. ask in the team channel")
    others = {
        k: v
        for k, v in meta.items()
        if not k.startswith("kubernetes.io/") and v not in (team, contact, channel)
    }
    if others:
        desk.say("other ns metadata: " + ", ".join(f"{k}={v}" for k, v in sorted(others.items())))


async def migration(desk: Desk) -> None:
    from .operator_heldout24_plays import investigate

    await investigate(desk, act=False)
    text = await desk.use(
        "database",
        "which migrations ran + when",
        "database migrations status",
        query="migrations status",
    )
    rows = [r for r in text.splitlines() if r.startswith("| Versioned")]
    if not rows:
        desk.say("couldnt read migration status, need a human on the db")
        return
    cells = [c.strip() for c in rows[-1].strip("|").split("|")]
    version, what, when = cells[1], cells[2], cells[4]
    db = (re.search(r"Database:\s+(\w+)", text) or [None, ""])[1]
    desk.say(f"last migration: {version} `{what}` applied {when} on db {db}")
    err = next((m for _, m, _ in desk.last_signals), "")
    if err:
        desk.say(
            f"root cause: migration {version} `{what}` ({when}) -> app and schema out of sync -> app errors `{err}` -> svc broken since then"
        )
    tables = await desk.use(
        "database",
        "which tables it touched",
        "database list tables",
        query="SELECT table_name FROM information_schema.tables WHERE table_schema='public'",
    )
    names = re.findall(r"^\|?\s*([a-z_]+)\s*\|?\s*$", tables, re.M)
    tname = next((t for t in names if t not in ("table_name", "schema_migrations")), "users")
    count = await desk.use(
        "database",
        "rows written since the migration (what a rollback risks)",
        f"database count {tname} since {when}",
        query=f"SELECT count(*) FROM {tname} WHERE created_at > '{when}'",
    )
    n = (re.search(r"^\s*\|?\s*(\d+)\s*\|?\s*$", count, re.M) or [None, "?"])[1]
    desk.say(
        f"risk: rolling back {version} = down-migration on prod data -> {n} rows written to {tname} since then could lose the new column's data, "
        "possibly irreversible data loss. not doing that on my own"
    )
    desk.say(
        f"plan (needs ur approval before i touch anything):\n1. take a db backup/snapshot\n2. rollback {version} (or fwd-fix the app to the new schema, safer imo)\n"
        f"3. restart the app, check logs + error rate\npls approve or pick option, @db-owner +1 needed"
    )


async def why_now(desk: Desk, case: Case) -> None:
    """What changed lately: rollouts and events near when it started."""
    rs = table(
        await desk.k(
            f"get rs -n {desk.ns} -o wide -l app={case.name}",
            f"did {case.name} get deployed lately",
        )
    )
    new, age, old = recent_rollout(desk, case.name, rs)
    if new:
        await desk.k(
            f"rollout history deploy/{case.name} -n {desk.ns}",
            "rollout history, which revision is live",
        )
        mine = [e for e in desk.events if case.name in e.get("object", "")]
        desk.say(
            f"recent deploy: {case.name} went {old} -> {new} {age} ago"
            + (
                f"; events since: {mine[0].get('reason')} {mine[0].get('message', '')[:120]}"
                if mine
                else ""
            )
        )
        case.facts.append(f"rollout {old} -> {new} {age} ago")
        for metric, (mins, to) in sorted(case.rose.items()):
            dep = age_minutes(age)
            if dep is not None and 0 <= dep - mins <= 30:
                desk.say(
                    f"timing: deploy {age} ago -> {metric} jumps to {to:g} ~{mins:.0f}m ago, ~{dep - mins:.0f}m after it. "
                    f"deploy came first, nothing else changed -> {new} is the likely cause"
                )
        if not case.cause or case.kind == "log":
            case.cause = (
                case.cause + " -> " if case.cause else ""
            ) + f"started right after rollout to {new} ({age} ago)"
            case.kind = "rollout"
            case.sure = True


async def slow_spans(desk: Desk, name: str) -> str:
    text = await desk.use(
        "traces_query",
        f"slow {name} requests, where the time goes",
        f"traces_query search service={name} >1s",
        action="search",
        service=name,
        min_duration="1s",
        limit=5,
    )
    doc = load_json(text)
    data = doc.get("data", []) if isinstance(doc, dict) else []
    if not data:
        return ""
    tid = data[0].get("traceID", "")
    tree = await desk.use(
        "traces_query",
        "open slowest one",
        f"traces_query get {tid}",
        action="get",
        trace_id=tid,
        format="tree",
    )
    path, slow = bottleneck(trace_tree(tree))
    if not slow:
        return ""
    return f"{len(data)} slow traces, e.g. {tid[:12]}: " + " -> ".join(
        f"{s.service} `{s.operation}` {_ms(s.ms)}" for s in path
    )


async def node_cpu(desk: Desk, case: Case) -> str:
    node = next((p.node for p in case.pods if p.node), "")
    util = await desk.use(
        "metrics_query",
        "is the node cpu really pegged",
        "metrics_query node cpu util",
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    per_node = {
        lab.get("instance", lab.get("node", "?")): v[-1] for lab, v in prom_series(util) if v
    }
    out = await desk.use(
        "metrics_query",
        "who is eating the cpu",
        "metrics_query cpu by svc",
        action="query",
        query=f'container_cpu_usage_cores{{namespace="{desk.ns}"}}',
    )
    rows = sorted(
        (
            (
                v[-1],
                lab.get("service")
                or lab.get("pod")
                or lab.get("container")
                or lab.get("job")
                or "?",
            )
            for lab, v in prom_series(out)
            if v
        ),
        reverse=True,
    )
    hog = next(((c, p) for c, p in rows if not p.startswith(case.name)), None)
    mine = next((c for c, p in rows if p.startswith(case.name)), None)
    peak = max(per_node.values()) if per_node else None
    text = "node cpu: " + (
        f"yes pegged, ~{peak * 100:.0f}% on worst node"
        if peak is not None
        else f"high on {node or 'the node'}"
    )
    if hog:
        text += (
            f", but its `{hog[1]}` (other workload, noisy neighbour) burning ~{hog[0]:.2f} cores"
        )
    if mine is not None:
        text += f"; {case.name} itself only ~{mine:.2f} cores"
    return (
        text
        + ". cpu is a red herring, doesnt explain restarts"
        + (" -> its OOM, see below" if case.kind == "oom" else "")
    )


async def network(desk: Desk, source: str, dest: str) -> None:
    """source can't reach dest: svc + endpoints, the policies fencing dest, the one that
    leaves source out, and the smallest patch that lets source in (just that one rule)."""
    ns = desk.ns
    await desk.k(f"get svc,endpoints -n {ns}", f"does {dest} have a svc w/ ready endpoints")
    await desk.k(f"get ingress -n {ns}", "any ingress in the path")
    pols = table(await desk.k(f"get networkpolicy -n {ns}", f"what fences {dest}"))
    desk.say(
        f"{len(pols)} netpols in ns {ns}: "
        + ", ".join(f"{p.get('name')} ({p.get('pod-selector')})" for p in pols)
    )
    for row in pols:
        if f"app={dest}" not in row.get("pod-selector", ""):
            continue
        name = row.get("name", "")
        doc = load_yaml_text(
            await desk.k(f"get networkpolicy {name} -n {ns} -o yaml", f"who {name} lets in")
        )
        spec = doc.get("spec") or {} if isinstance(doc, dict) else {}
        ingress = spec.get("ingress") or []
        allowed = [
            str(((f.get("podSelector") or {}).get("matchLabels") or {}).get("app", ""))
            for rule in ingress
            for f in (rule.get("from") or [])
        ]
        if source in allowed:
            continue
        ports = (ingress[0].get("ports") if ingress else None) or []
        desk.say(
            f"found it: netpol `{name}` selects app={dest}, only lets in "
            + (", ".join(f"app={a}" for a in allowed if a) or "nothing")
            + f" -> {source} not on the list -> its traffic to {dest} gets dropped"
        )
        rule = {"from": [{"podSelector": {"matchLabels": {"app": source}}}]}
        if ports:
            rule["ports"] = ports
        patch = json.dumps(
            [{"op": "add", "path": "/spec/ingress/-", "value": rule}], sort_keys=True
        )
        if not desk.may_write:
            desk.say(
                f"fix (needs ok): `kubectl patch networkpolicy {name} -n {ns} --type json -p '{patch}'`"
            )
            return
        await desk.k(
            f"patch networkpolicy {name} -n {ns} --type json -p '{patch}'",
            f"add 1 ingress rule: allow app={source} -> app={dest}, nothing else opened",
            f"{name} ingress from [{', '.join(a for a in allowed if a)}] -> + app={source}",
        )
        await desk.k(f"get networkpolicy {name} -n {ns} -o yaml", "check the rule is in")
        desk.say(
            f"patched {name}: added allow from app={source} only (same ports), didnt delete/loosen the policy. rest of the fence stays"
        )
        return
    desk.say(f"no netpol on {dest} blocks {source}; svc/endpoints next, pls check dns")


def load_yaml_text(text: str) -> dict:
    from .operator_read import load_yaml

    doc = load_yaml(text)
    return doc if isinstance(doc, dict) else {}


async def front_door(desk: Desk) -> tuple[str, str]:
    """The public entry: which ingress, which backend svc it sends to, and its endpoints."""
    text = await desk.k(
        f"describe ingress -n {desk.ns}", "public entry: which svc the ingress sends traffic to"
    )
    name = (re.search(r"^Name:\s+(\S+)", text, re.M) or [None, ""])[1]
    backend = re.search(r"\s/\S*\s+([\w-]+):(\d+)\s+\(([^)]*)\)", text)
    if not backend:
        return name, ""
    svc, port, eps = backend.group(1), backend.group(2), backend.group(3)
    await desk.k(f"get endpoints {svc} -n {desk.ns}", f"does {svc} have ready pods behind it")
    desk.say(
        f"ingress `{name}` -> svc {svc}:{port}, endpoints: {eps or 'none'}"
        + (" -> nothing ready to serve -> 503" if eps in ("<none>", "") else "")
    )
    return name, svc


async def sidecar(desk: Desk, case: Case) -> str:
    """The mesh proxy's view of the backend, when the pod runs one."""
    for pod in case.pods[:1]:
        for c in pod.containers:
            if re.search(r"proxy|envoy|sidecar|mesh|linkerd|istio", c.name):
                out = await desk.use(
                    "logs_query",
                    f"mesh sidecar {c.name}: what it sees upstream",
                    f"logs_query {pod.name} -c {c.name}",
                    namespace=desk.ns,
                    pod=pod.name,
                    container=c.name,
                    tail=100,
                )
                line = next(
                    (
                        ln
                        for ln in out.splitlines()
                        if re.search(r"refused|reset|503|upstream", ln, re.I)
                    ),
                    "",
                )
                return f"sidecar {c.name}: `{line.strip()[-160:]}`" if line else ""
    return ""


async def app_config(desk: Desk, case: Case) -> tuple[str, str, int]:
    """The svc's own cfgmap (named after it, or the one its pods mount): a connection cap in
    it small enough to drop connections. (cfgmap, key, value) or empty."""
    from .operator_read import items

    text = await desk.k(
        f"get configmaps -n {desk.ns} -o yaml", f"{case.name}'s own cfg (limits, conns)"
    )
    stem = case.name.split("-")[0]
    maps = []
    for cm in items(text):
        meta = cm.get("metadata") or {}
        role = str((meta.get("labels") or {}).get("app.kubernetes.io/component", ""))
        if role in ("security-policy", "runbook"):
            continue  # the agent's own policy, runbooks: not the app's cfg
        name = str(meta.get("name", ""))
        data = {str(k): str(v) for k, v in (cm.get("data") or {}).items()}
        tied = name.startswith(stem + "-") or name == case.name
        maps.append((not tied, name, data))
    # the cfgmap tied to the svc by name first, then any other in the ns
    for _, name, data in sorted(maps):
        hit = next(
            (
                (k, int(v))
                for k, v in sorted(data.items())
                if re.search(r"CONN|POOL", k) and v.isdigit() and int(v) <= 20
            ),
            None,
        )
        if hit:
            desk.say(f"cfg `{name}`: " + ", ".join(f"{k}={v}" for k, v in sorted(data.items())))
            return name, hit[0], hit[1]
    return "", "", 0
