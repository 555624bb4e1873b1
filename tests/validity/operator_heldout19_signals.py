"""``heldout19``'s second-hand sources: config, metrics, network, nodes, traces, dashboards and
the migration history (written blind). Each reader only runs when the tool is offered and the
ask or an earlier read points at it."""

from __future__ import annotations

import json
import re

from .operator_heldout19 import Shift
from .operator_read import (
    alerts,
    bottleneck,
    load_json,
    load_yaml,
    prom_series,
    table,
    trace_tree,
    trend,
)

_NET = ("reach", "network", "connect", "traffic", "503", "502", "ingress", "timeout")


async def read_config_refs(shift: Shift, ns: str) -> None:
    """ConfigMaps the prompt names or the focus pods reference: their keys."""
    cms = {cm for _, cm in shift.data.get("missing_keys", set())}
    for views in shift.data.get("views", {}).values():
        for v in views[:1]:
            for c in v.containers:
                for ref in c.env.values():
                    m = re.search(r"config map '([^']+)'", ref)
                    if m:
                        cms.add(m.group(1))
    listed = table(await shift.k(f"get cm -n {ns}", "which configmaps exist"))
    names = [r.get("name", "") for r in listed]
    cms.update(shift.named(names))
    stems = {f.split("-")[0] for f in shift.data.get("focus", [])}
    cms.update(n for n in names if n.split("-")[0] in stems and "runbook" not in n)
    keys = set(re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", shift.prompt))
    if keys and not shift.named(names):
        doc = load_yaml(
            await shift.k(f"get cm -n {ns} -o yaml", f"which cm holds {','.join(sorted(keys))}")
        )
        for item in doc.get("items", []) if isinstance(doc, dict) else []:
            data = (item or {}).get("data") or {}
            if keys & set(data):
                name = ((item or {}).get("metadata") or {}).get("name", "")
                shift.data.setdefault("cms", {})[name] = dict(data)
                cms.discard(name)
    for cm in sorted(cms):
        doc = load_yaml(await shift.k(f"get cm {cm} -n {ns} -o yaml", f"current keys of {cm}"))
        data = doc.get("data") if isinstance(doc, dict) else None
        shift.data.setdefault("cms", {})[cm] = dict(data or {})


async def read_metrics(shift: Shift, ns: str, focus: list[str], first: bool = False) -> None:
    """Firing alerts, then each focus service's own series over 6h."""
    text = await shift.q("metrics_query", "alerts", "anything firing", action="alerts")
    firing = [a for a in alerts(text) if a.get("state") in ("firing", "pending")]
    seen = shift.data.setdefault("alerts", {})
    for a in firing:
        name = a.get("labels", {}).get("alertname", "?")
        if name not in seen:
            seen[name] = a
            svc = a.get("labels", {}).get("service") or a.get("labels", {}).get("deployment", "")
            summary = (a.get("annotations") or {}).get("summary", "")
            shift.facts.append(f"alert {name} {a.get('state')} svc={svc} {summary}".strip())
    names = list(focus)
    for a in firing:
        svc = a.get("labels", {}).get("service") or ""
        if svc and svc not in names:
            names.append(svc)
    for name in names:
        await service_series(shift, ns, name)


async def service_series(shift: Shift, ns: str, name: str) -> dict[str, list[float]]:
    query = f'{{namespace="{ns}", service="{name}"}}'
    text = await shift.q(
        "metrics_query",
        f"metrics {query} 6h",
        f"{name} numbers over 6h",
        action="query_range",
        query=query,
        start="-6h",
    )
    series: dict[str, list[float]] = {}
    for labels, values in prom_series(text):
        metric = labels.get("__name__", "")
        if metric and values and metric not in series:
            series[metric] = values
    shift.data.setdefault("series", {})[name] = series
    shift.data.setdefault("onset", {})[name] = _onsets(text)
    for metric, values in sorted(series.items()):
        shift.facts.append(
            f"{name}: {metric}={_fmt(values[-1])} ({trend(values)}, 6h ago {_fmt(values[0])})"
        )
    return series


def _onsets(text: str) -> dict[str, float]:
    """Per metric: minutes before the last sample when it first went 3x over its start."""
    doc = load_json(text)
    result = (doc or {}).get("data", {}).get("result", []) if isinstance(doc, dict) else []
    out: dict[str, float] = {}
    for r in result if isinstance(result, list) else []:
        try:
            pts = [(float(t), float(v)) for t, v in r.get("values") or []]
        except (TypeError, ValueError):
            continue
        name = (r.get("metric") or {}).get("__name__", "")
        if len(pts) < 3 or not name:
            continue
        base = pts[0][1]
        hit = next((t for t, v in pts if v > max(base * 3, base + 1e-9)), None)
        if hit is not None:
            out[name] = round((pts[-1][0] - hit) / 60)
    return out


def _fmt(v: float) -> str:
    if v >= 1024**3:
        return f"{v / 1024**3:.2f}Gi"
    if v >= 1024**2:
        return f"{v / 1024**2:.0f}Mi"
    return f"{v:g}"


async def read_network(shift: Shift, ns: str) -> None:
    """Services, endpoints, ingresses and NetworkPolicies when the ask is about traffic."""
    if not any(w in shift.low for w in _NET):
        return
    if "ingress_read" not in shift.data:
        await read_ingress(shift, ns)
    doc = load_yaml(await shift.k(f"get networkpolicy -n {ns} -o yaml", "any NP in the way"))
    items = doc.get("items", []) if isinstance(doc, dict) else []
    shift.data["nps"] = [i for i in items if isinstance(i, dict)]
    focus = set(shift.data.get("focus", [])) | set(
        shift.named(sorted(shift.data.get("deploys", {})))
    )
    other = 0
    for np in shift.data["nps"]:
        spec = np.get("spec") or {}
        target = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if target and target.get("app") not in focus:
            other += 1
            continue
        allowed = []
        for rule in spec.get("ingress") or []:
            for src in (rule or {}).get("from") or []:
                allowed.append((src.get("podSelector") or {}).get("matchLabels") or {})
        name = (np.get("metadata") or {}).get("name", "?")
        shown = ", ".join(_kv(a) for a in allowed) or "nothing"
        shift.facts.append(f"np/{name}: selects {_kv(target)}, ingress only from {shown}")
    if other:
        shift.facts.append(f"{other} other NP(s) select unrelated apps")


async def read_ingress(shift: Shift, ns: str) -> None:
    """Ingress -> backend svc -> endpoints, and what the proxies in between log."""
    shift.data["ingress_read"] = True
    desc = await shift.k(f"describe ingress -n {ns}", "which svc the ingress sends to")
    eps = table(await shift.k(f"get endpoints -n {ns}", "svc -> endpoints"))
    ready = {r.get("name", ""): r.get("endpoints", "") for r in eps}
    ing = ""
    for line in desc.splitlines():
        m = re.match(r"Name:\s+(\S+)", line)
        if m:
            ing = m.group(1)
        for svc, port in re.findall(r"\s([a-z0-9][a-z0-9-]*):(\d+)\s+\(", line):
            ep = ready.get(svc, "?")
            shift.data.setdefault("backends", []).append((ing, svc, port, ep))
            shift.facts.append(f"ingress/{ing} -> svc/{svc}:{port} endpoints={ep}")
    if shift.has("logs_query"):
        text = await shift.q(
            "logs_query",
            f"logs ns={ns} |= upstream",
            "what the proxies (ingress, mesh sidecar) say about upstreams",
            namespace=ns,
            filter="upstream",
            tail=20,
        )
        seen = set()
        for line in text.splitlines():
            src = re.search(r'source="([^"]+)"', line)
            body = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", line.strip())
            if body and body not in seen:
                seen.add(body)
                who = src.group(1) if src else "proxy"
                shift.data.setdefault("proxy_logs", []).append((who, body))
                shift.facts.append(f"{who}: '{body[:140]}'")


def _kv(labels: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "all pods"


async def read_nodes(shift: Shift) -> None:
    """Node conditions and capacity when the ask is about scale, scheduling, HA or rollouts."""
    cues = ("scale", "replica", "pending", "highly available", "node", "rolling", "load", "cpu")
    if not any(c in shift.low for c in cues) and "unschedulable" not in shift.data:
        return
    rows = table(await shift.k("get nodes", "node status"))
    shift.data["nodes"] = [r.get("name", "") for r in rows]
    desc = await shift.k("describe nodes", "allocatable, requests, conditions")
    shift.data["nodes_desc"] = desc
    top = table(await shift.k("top nodes", "node usage"))
    for r in top:
        shift.facts.append(f"node {r.get('name')}: cpu={r.get('cpu%', r.get('cpu(%)', '?'))}")
    if "cpu" in shift.low:
        pods = table(await shift.k(f"top pods -n {shift.ns} --sort-by=cpu", "who eats the cpu"))
        if pods:
            hog = pods[0]
            node = next(
                (
                    p.get("node", "")
                    for p in shift.data.get("pods", [])
                    if p.get("name") == hog.get("name")
                ),
                "",
            )
            shift.data["cpu_hog"] = (hog.get("name", "?"), hog.get("cpu(cores)", "?"), node)
            shift.facts.append(
                f"top cpu pod: {hog.get('name')} cpu={hog.get('cpu(cores)')} node={node or '?'}"
            )


async def read_traces(shift: Shift) -> None:
    """The trace the prompt names, else the slowest trace of the focus service."""
    if not shift.has("traces_query"):
        return
    m = re.search(r"\btrace\s+([0-9a-zA-Z-]{4,})", shift.prompt, re.I)
    trace_id = m.group(1) if m else ""
    if not trace_id:
        for svc in shift.data.get("focus", [])[:1]:
            doc = load_json(
                await shift.q(
                    "traces_query",
                    f"traces search svc={svc} >1s",
                    "slow requests",
                    action="search",
                    service=svc,
                    min_duration="1s",
                    limit=5,
                )
            )
            found = doc.get("data") if isinstance(doc, dict) else None
            if found:
                trace_id = max(
                    found, key=lambda t: float(str(t.get("duration", "0")).rstrip("ms") or 0)
                ).get("traceID", "")
    if not trace_id:
        return
    text = await shift.q(
        "traces_query",
        f"trace get {trace_id}",
        "where the time goes",
        action="get",
        trace_id=trace_id,
    )
    spans = trace_tree(text)
    path, slow = bottleneck(spans)
    if slow is None:
        return
    shift.data["trace"] = (trace_id, path, slow)


async def read_dashboards(shift: Shift) -> None:
    if not shift.has("dashboards"):
        return
    doc = load_json(await shift.q("dashboards", "dashboards list", "which boards", action="list"))
    boards = (
        doc
        if isinstance(doc, list)
        else (doc or {}).get("dashboards", [])
        if isinstance(doc, dict)
        else []
    )
    uids = []
    for b in boards if isinstance(boards, list) else []:
        if isinstance(b, dict):
            title = str(b.get("title", ""))
            uid = str(b.get("uid", title))
            if title.lower() in shift.low or uid.lower() in shift.low or len(boards) == 1:
                uids.append(uid)
    for uid in uids[:2]:
        raw = await shift.q(
            "dashboards", f"dashboard get {uid}", "panel values", action="get", uid=uid
        )
        shift.data.setdefault("boards", {})[uid] = load_json(raw) or raw


async def read_db(shift: Shift) -> None:
    if not shift.has("database"):
        return
    text = await shift.q(
        "database", "db migrations status", "what changed in the schema", query="migrations status"
    )
    shift.data["migrations"] = text
    last = [ln for ln in text.splitlines() if ln.strip()][-3:]
    for ln in last:
        shift.facts.append(f"db: {ln.strip()[:150]}")


def dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, default=str)
