"""heldout35's second look: the signals beside the workload's own state.

The request path (ingress -> Service -> endpoints -> Deployment), the memory series against
the limit, the node CPU a request blames, a trace's slowest span, the rollout history, and
database migrations. Each adds evidence to a finding or, where it shows the cause, sets it.
"""

from __future__ import annotations

import re
from datetime import datetime

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_diag import Finding
from .operator_heldout35_look import Workload
from .operator_heldout35_pr import Report, ref, thousands


async def ingress_path(s: Session, ns: str, r: Report) -> tuple[str, str]:
    """Follow an ingress to the Deployment behind it (the request names no workload)."""
    ings = rd.items(
        await s.kubectl(
            f"get ingress -n {ns} -o yaml", "the request names no workload: start from the ingress"
        )
    )
    ing_ref = ref(s)
    services: list[tuple[str, str]] = []
    for ing in ings:
        ing_name = (ing.get("metadata") or {}).get("name", "")
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for path in ((rule or {}).get("http") or {}).get("paths") or []:
                svc = (((path or {}).get("backend") or {}).get("service") or {}).get("name")
                if svc:
                    services.append((ing_name, svc))
        default = ((ing.get("spec") or {}).get("defaultBackend") or {}).get("service") or {}
        if default.get("name"):
            services.append((ing_name, default["name"]))
    if services:
        await _proxy_errors(s, ns, r)
    for ing_name, svc in services:
        doc = rd.load_yaml(
            await s.kubectl(
                f"get service {svc} -n {ns} -o yaml",
                f"the ingress routes to Service `{svc}`: its selector",
            )
        )
        selector = (
            ((doc or {}).get("spec") or {}).get("selector") or {} if isinstance(doc, dict) else {}
        )
        eps = await s.kubectl(f"get endpoints {svc} -n {ns}", f"does `{svc}` have ready endpoints")
        row = (rd.table(eps) or [{}])[0]
        r.cause.insert(0, f"Ingress `{ing_name}` routes to Service `{svc}` {ing_ref}")
        r.cause.append(
            f"Service `{svc}` has endpoints `{row.get('endpoints', '?')}` {ref(s)}: "
            + (
                "no ready pod behind it, so the proxy has nothing to send to (503)"
                if row.get("endpoints") in ("<none>", "", None)
                else "pods are behind it"
            )
        )
        sel = ",".join(f"{k}={v}" for k, v in sorted(selector.items()))
        if not sel:
            continue
        deps = rd.items(
            await s.kubectl(
                f"get deployments -n {ns} -l {sel} -o yaml",
                f"the Deployment whose pods `{svc}` selects",
            )
        )
        for d in deps:
            name = (d.get("metadata") or {}).get("name", "")
            if name:
                return "deployment", name
    return "", ""


async def _proxy_errors(s: Session, ns: str, r: Report) -> None:
    """What the proxies in front (ingress controller, mesh sidecar) log about the upstream."""
    if not s.has("logs_query"):
        return
    out = await s.tool(
        "logs_query",
        "what the proxies in the request path say about the upstream (ingress, mesh sidecar)",
        namespace=ns,
        filter="upstream",
        tail=50,
    )
    found = rd.signal_patterns(rd.log_lines(out))
    if found:
        r.cause.append(f'proxy log: "{found[0][1]}" ({found[0][2]}x) {ref(s)}')


async def memory_trend(s: Session, w: Workload, f: Finding) -> None:
    if not s.has("metrics_query"):
        return
    out = await s.tool(
        "metrics_query",
        f"`{w.name}`'s memory over the last 6h, to compare with its limit",
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{w.ns}",pod=~"{w.name}.*"}}',
        start="-6h",
        step="30m",
    )
    series = [x for x in rd.prom_series(out) if x[1]]
    if not series:
        return
    values = max(series, key=lambda x: x[1][-1])[1]
    limit = ""
    for c in w.containers:
        limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", "")) or limit
    lim = rd.quantity(limit) if limit else None
    first, last = values[0], values[-1]
    tr = rd.trend(values)
    line = f"memory {rd.mib(first)} -> {rd.mib(last)} over 6h ({tr}) {ref(s)}"
    if lim:
        line += f", limit `{limit}` ({last / lim:.0%} used)"
    f.evidence.append(line)
    if f.kind == "oom":
        f.cause += (
            f" Memory is {tr}: {rd.mib(first)} -> {rd.mib(last)} in 6h {ref(s)}, a leak-like climb."
        )


async def misleading_cpu(s: Session, w: Workload, f: Finding, r: Report) -> None:
    """The request blames node CPU: check it, and say whether it explains the symptom."""
    nodes = rd.table(await s.kubectl("top nodes", "the request says node CPU is pegged: check it"))
    hot = [n for n in nodes if int((n.get("cpu%") or "0").rstrip("%") or 0) >= 85]
    node_ref = ref(s)
    pods = rd.table(await s.kubectl(f"top pods -n {w.ns}", "which pod uses that CPU"))
    top = max(pods, key=lambda p: rd.quantity(p.get("cpu(cores)", "0")) or 0, default={})
    if not hot:
        return
    n = hot[0]
    mine = top.get("name", "").startswith(w.name)
    if f.kind == "oom" and not mine:
        f.evidence.append(
            f"node `{n.get('name')}` CPU {n.get('cpu%')} {node_ref}; the top CPU user is "
            f"`{top.get('name')}` ({top.get('cpu(cores)')}) {ref(s)}, not `{w.name}`"
        )
        r.summary.append(
            f"The pegged node CPU ({n.get('cpu%')} on `{n.get('name')}`) is real but is a red "
            f"herring: `{w.name}` is not restarting for lack of CPU, its containers are "
            "OOMKilled (exit code 137). CPU starvation slows a container, it does not kill it."
        )


def readiness(w: Workload, f: Finding) -> None:
    for e in w.events:
        if e.get("reason") == "Unhealthy":
            pod = e.get("object", "").split("/")[-1]
            f.kind, f.confident = "readiness", True
            f.cause = (
                f'pod `{pod}` fails its readiness probe ("{e.get("message")}"), so it is taken '
                f"out of the Service; its container is running, not crashing, and its logs show "
                "no error."
            )
            f.evidence.append(f"event on `{pod}`: {e.get('message')}")
            f.fix = f"restart `{w.name}` (rolling) so the stuck pod is replaced, then confirm all pods are Ready"
            return


async def trace_bottleneck(s: Session, w: Workload, f: Finding) -> None:
    if not s.has("traces_query"):
        return
    doc = rd.load_json(
        await s.tool(
            "traces_query", f"slow traces through `{w.name}`", action="search", service=w.name
        )
    )
    hits = (doc or {}).get("data") or [] if isinstance(doc, dict) else []
    if not hits:
        return
    tid = str(hits[0].get("traceID", ""))
    tree = await s.tool(
        "traces_query",
        "open the slowest trace span by span",
        action="get",
        trace_id=tid,
        format="tree",
    )
    path, slow = rd.bottleneck(rd.trace_tree(tree))
    if slow is None:
        return
    line = f"trace `{tid[:12]}`: `{slow.service}` span `{slow.operation}` takes {thousands(slow.ms)} ms of the {thousands(path[0].ms)} ms request {ref(s)}"
    if slow.attrs:
        line += f" [{slow.attrs}]"
    f.evidence.append(line)
    if f.kind == "pool":
        f.cause += f" The trace agrees: {line}."


async def history(s: Session, w: Workload, f: Finding) -> None:
    if w.kind != "deployment":
        return
    rows = rd.table(
        await s.kubectl(
            f"get replicasets -n {w.ns} -l {w.selector} -o wide",
            f"`{w.name}`'s rollout history: when did its pods change",
        )
    )
    rs_ref = ref(s)
    aged = sorted(((rd.age_minutes(r.get("age", "")) or 1e9, r) for r in rows), key=lambda x: x[0])
    if len(aged) < 2 or aged[0][0] > 120:
        return
    new_age, new = aged[0]
    old = aged[1][1]
    f.evidence.append(
        f"rollout {new_age:.0f}m ago: `{old.get('images')}` -> `{new.get('images')}` {rs_ref}"
    )
    onset = await _error_onset(s, w)
    if onset is None:
        return
    if onset <= new_age and f.kind in ("", "unknown", "crash"):
        f.kind, f.confident = "deploy", True
        f.cause = (
            f"the `{w.name}` rollout to `{new.get('images')}` ~{new_age:.0f}m ago: errors "
            f"started ~{onset:.0f}m ago, after the new pods came up, and the previous image "
            f"`{old.get('images')}` ran clean before it."
        )
        f.fix = f"roll back to `{old.get('images')}` (`kubectl rollout undo deployment/{w.name}`) and watch the error rate"


async def _error_onset(s: Session, w: Workload) -> float | None:
    """Minutes ago the service's error series first rose well above its start."""
    name = next((m for m in w.metrics if "error" in m and not m.startswith("normal")), "")
    if not name:
        return None
    out = await s.tool(
        "metrics_query",
        f"when did `{name}` start rising (compare with the rollout)",
        action="query_range",
        query=f'{name}{{namespace="{w.ns}"}}',
        start="-1h",
        step="1m",
    )
    doc = rd.load_json(out)
    result = ((doc or {}).get("data") or {}).get("result") or [] if isinstance(doc, dict) else []
    for series in result:
        values = series.get("values") or []
        if len(values) < 2:
            continue
        base, end = float(values[0][1]), float(values[-1][0])
        for t, v in values:
            if float(v) > max(base * 3, base + 1e-9):
                return (end - float(t)) / 60
    return None


async def migrations(s: Session, w: Workload, f: Finding) -> None:
    out = await s.tool(
        "database",
        "schema migrations applied to the service's database",
        query="migrations status",
        database=w.name,
    )
    rows = [ln for ln in out.splitlines() if re.match(r"\|\s*Versioned", ln)]
    if not rows:
        return
    last = [c.strip() for c in rows[-1].strip("|").split("|")]
    version, desc, when = last[1], last[2], last[4]
    mig_ref = ref(s)
    f.evidence.append(f"last migration `{version}` ({desc}) applied {when} {mig_ref}")
    if f.kind in ("schema", "migration"):
        f.kind = "migration-risk"
        f.confident = True
        f.cause += f" It started with migration `{version}` ({desc}), applied {when} {mig_ref}."
        since = await _rows_since(s, w, when)
        f.fix = f"roll back migration `{version}` (or roll forward with a fix) after a backup"
        f.doubts = [
            f"Rolling back `{version}` drops what it added; rows written since {when}"
            + (f" ({since})" if since else "")
            + " may lose data or fail the rollback. That is not reversible from here."
        ]


async def _rows_since(s: Session, w: Workload, when: str) -> str:
    try:
        stamp = datetime.fromisoformat(when.replace("+00", "+00:00")).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return ""
    out = await s.tool(
        "database",
        "how much data was written since the migration (what a rollback would put at risk)",
        query=f"SELECT count(*) FROM users WHERE created_at >= '{stamp}'",
        database=w.name,
    )
    m = re.search(r"\b(\d+)\b", out.split("\n", 2)[-1]) if out else None
    return (
        f"{thousands(int(m.group(1)))} rows per {ref(s)}"
        if m and "error" not in out.lower()
        else ""
    )
