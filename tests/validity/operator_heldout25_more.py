"""``heldout25``'s other reads: a trace followed span by span, a dashboard panel by panel, the
owners of a namespace, network policies between two workloads, a health check, the way in from
an ingress, what changed before a symptom began, and a misleading node signal set aside.
"""

from __future__ import annotations

import re

from .operator_heldout25 import Shift
from .operator_heldout25_look import Case, limit_of
from .operator_read import (
    age_minutes,
    bottleneck,
    load_json,
    load_yaml,
    mib,
    prom_series,
    quantity,
    table,
    trace_tree,
)


async def trace(shift: Shift) -> None:
    tid = re.search(r"\btrace\s+([0-9a-f]{4,})\b", shift.low)
    assert tid
    out = await shift.use(
        "traces_query",
        f"traces_query get trace_id={tid.group(1)}",
        "so that the trace was read span by span",
        action="get",
        trace_id=tid.group(1),
    )
    spans = trace_tree(out)
    path, slow = bottleneck(spans)
    if not slow:
        shift.log(f"The trace {tid.group(1)} could not be read; the trace id should be checked.")
        shift.hand("The trace id should be confirmed so that the trace can be followed.")
        return
    shift.log(
        "The trace was followed across the services, each hop into its slowest child: "
        + " -> ".join(f"{s.service} `{s.operation}` ({s.ms:.0f}ms)" for s in path)
        + "."
    )
    own = slow.ms - sum(s.ms for s in spans if s.depth == slow.depth + 1)
    shift.log(
        f"The bottleneck was identified as the span `{slow.operation}` in {slow.service}: "
        f"{slow.ms:.0f}ms of the {path[0].ms:.0f}ms total ({slow.ms / path[0].ms * 100:.0f}%)"
        + (f", {slow.attrs}" if slow.attrs else "")
        + (f"; {own:.0f}ms of it is spent in the span itself" if own > 0 else "")
        + "."
    )
    if "db" in slow.operation.lower() or "select" in slow.operation.lower():
        shift.log(
            f"The slow span was determined to be a database query issued by {slow.service}; the "
            "upstream services were found to be waiting on it, not slow themselves."
        )
        shift.hand(
            f"The query in {slow.service} should be examined by its owners (query plan, an index "
            "on the filtered column); the trace should be re-checked after the change."
        )


async def dashboard(shift: Shift) -> None:
    listing = load_json(
        await shift.use(
            "dashboards", "dashboards list", "so that the dashboards were found", action="list"
        )
    )
    boards = [b for b in listing if isinstance(b, dict)] if isinstance(listing, list) else []
    words = set(re.findall(r"[a-z0-9-]+", shift.low))
    pick = [b for b in boards if str(b.get("uid")) in words or str(b.get("uid")) in shift.low]
    from .operator_heldout25_answer import embedded

    for b in boards:
        embedded(shift, str(b.get("title", "")), f"the title of the dashboard {b.get('uid')}")
    for b in pick or boards[:1]:
        uid = str(b.get("uid"))
        doc = load_json(
            await shift.use(
                "dashboards",
                f"dashboards get uid={uid}",
                "so that every panel was read",
                action="get",
                uid=uid,
            )
        )
        panels = (
            ((doc or {}).get("dashboard") or {}).get("panels") or []
            if isinstance(doc, dict)
            else []
        )
        _panels(shift, uid, [p for p in panels if isinstance(p, dict)])


def _panels(shift: Shift, uid: str, panels: list[dict]) -> None:
    read = [f"{p.get('title')} {p.get('current_value')} ({p.get('status', '?')})" for p in panels]
    shift.log(
        f"All {len(panels)} panels of the {uid} dashboard were read: " + "; ".join(read) + "."
    )
    bad = [p for p in panels if str(p.get("status", "normal")).lower() not in ("normal", "ok", "")]
    order = {"critical": 0, "elevated": 1, "warning": 1}
    bad.sort(key=lambda p: order.get(str(p.get("status")).lower(), 2))
    for p in bad:
        ref = p.get("threshold") or p.get("normal_baseline") or ""
        shift.log(
            f"The {p.get('title')} panel was flagged as concerning: {p.get('current_value')} "
            f"({p.get('status')}" + (f"; threshold/baseline {ref}" if ref else "") + ")."
        )
    if bad:
        shift.log(
            "The panels were prioritised: "
            + ", then ".join(str(p.get("title")) for p in bad)
            + " need attention; the other panels were found within normal ranges."
        )
        shift.hand(
            "The concerning panels above should be followed up: "
            + "; ".join(f"{p.get('title')} ({p.get('current_value')})" for p in bad)
            + "."
        )
    else:
        shift.log("Every panel was found within its normal range.")


async def owners(shift: Shift) -> None:
    from .operator_heldout25_plays import subject

    name = subject(shift)
    meta: dict[str, str] = {**shift.labels, **shift.notes}
    if name:
        out = await shift.k(
            f"get deployment {name} -n {shift.ns} -o yaml",
            f"so that the ownership labels and annotations of {name} were read",
        )
        doc = load_yaml(out) or {}
        md = doc.get("metadata") or {} if isinstance(doc, dict) else {}
        meta.update({str(k): str(v) for k, v in (md.get("labels") or {}).items()})
        meta.update({str(k): str(v) for k, v in (md.get("annotations") or {}).items()})
    own = {
        k: v
        for k, v in meta.items()
        if re.search(r"team|owner|contact|escalat|oncall|on-call|slack|channel|pager", k)
    }
    if not own:
        shift.log("No ownership metadata was found on the namespace or the workload.")
        shift.hand("The service catalogue should be consulted for the owning team.")
        return
    shift.log(
        f"The ownership metadata of {name or shift.ns} was read: "
        + ", ".join(f"{k}={v}" for k, v in sorted(own.items()))
        + "."
    )
    team = next((v for k, v in sorted(own.items()) if re.search(r"^team$|owner|team$", k)), "")
    route = [
        v
        for k, v in sorted(own.items())
        if re.search(r"contact|escalat|oncall|channel|pager|slack", k)
    ]
    shift.log(
        f"The owning team was identified as {team or 'the team named above'}"
        + (f"; the escalation path was found to be {' and '.join(route)}" if route else "")
        + "."
    )
    if name:
        pods = shift.pods_of(name)
        shown = ", ".join(f"{p.get('name')} {p.get('status')} {p.get('ready')}" for p in pods[:4])
        if shown:
            shift.log(f"The current state of {name} was noted for the hand-off: {shown}.")
    shift.hand(
        f"{team or 'The owning team'} should be looped in"
        + (f" via {' / '.join(route)}" if route else "")
        + f", with the current state of {name or 'the service'}."
    )


async def network(shift: Shift, src: str, dst: str) -> None:
    from .operator_heldout25_change import fix_policy

    out = await shift.k(
        f"get networkpolicy -n {shift.ns} -o yaml",
        f"so that the policies between {src} and {dst} were read",
    )
    doc = load_yaml(out) or {}
    policies = [p for p in doc.get("items") or [] if isinstance(p, dict)]
    names = [str((p.get("metadata") or {}).get("name")) for p in policies]
    shift.log(f"The network policies of {shift.ns} were listed: {', '.join(names) or 'none'}.")
    for p in policies:
        spec = p.get("spec") or {}
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if sel.get("app") != dst or "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        allowed = [
            (f.get("podSelector") or {}).get("matchLabels", {}).get("app")
            for rule in spec.get("ingress") or []
            for f in rule.get("from") or []
        ]
        if src in allowed:
            continue
        pname = str((p.get("metadata") or {}).get("name"))
        shift.log(
            f"The policy {pname} was identified as the restrictive one: it selects the {dst} pods "
            f"and admits ingress only from {', '.join(str(a) for a in allowed if a) or 'nothing'}, "
            f"so traffic from {src} is dropped."
        )
        await fix_policy(shift, pname, p, src, dst)
        return
    shift.log(f"No policy was found blocking {src} -> {dst}; the services were checked next.")
    await shift.k(f"get endpoints {dst} -n {shift.ns}", f"so that the endpoints of {dst} were seen")
    shift.hand(f"Connectivity from {src} to {dst} should be re-tested by the owners.")


async def health(shift: Shift, name: str) -> None:
    from .operator_heldout25_look import diagnose, findings, read_case

    case = await read_case(shift, name)
    diagnose(case)
    findings(shift, case)
    if shift.has("metrics_query"):
        await error_rate(shift, name)
    ready = shift.deploys.get(name, {}).get("ready", "?")
    if case.sure:
        shift.log(f"{name} was assessed as unhealthy ({ready} ready): {case.cause}.")
    else:
        shift.log(f"{name} was assessed as healthy: {ready} replicas ready, no error signal found.")
    await shift.k(f"get hpa -n {shift.ns}", "so that autoscaling limits were known")
    if shift.has("metrics_query"):
        await follow_alerts(shift)


async def follow_alerts(shift: Shift) -> None:
    """A firing alert seen during the work is a new trigger: it is followed and logged as such."""
    from .operator_read import alerts

    out = await shift.use(
        "metrics_query",
        "metrics_query alerts",
        "so that firing alerts were checked",
        action="alerts",
    )
    for a in alerts(out):
        if a.get("state") != "firing":
            continue
        labels = a.get("labels") or {}
        alert = str(labels.get("alertname", "?"))
        about = str(labels.get("service") or labels.get("deployment") or labels.get("pod") or "")
        summary = str((a.get("annotations") or {}).get("summary", ""))
        shift.log(f"The alert {alert} was found firing ({summary or about}); it was followed up.")
        shift.trigger = f"the alert {alert}"
        if about:
            shift.pods = (
                table(
                    await shift.k(
                        f"get pods -n {shift.ns} -o wide",
                        f"so that the alert {alert} was checked against pod state",
                    )
                )
                or shift.pods
            )
            top = table(
                await shift.k(
                    f"top pods -n {shift.ns} -l app={about}",
                    f"so that the live usage behind {alert} was read",
                )
            )
            if top:
                shift.log(
                    f"The live usage behind {alert} was read: "
                    + "; ".join(
                        f"{r.get('name')} memory {r.get('memory(bytes)')}, cpu {r.get('cpu(cores)')}"
                        for r in top
                    )
                    + "."
                )
        shift.hand(
            f"The alert {alert} ({summary or about}) should be watched by the owners of {about or shift.ns}."
        )
        shift.trigger = "the operator's request"


async def error_rate(shift: Shift, name: str) -> list[float]:
    q = f'error_rate{{service="{name}"}}'
    out = await shift.use(
        "metrics_query",
        f"metrics_query query_range {q} over 2h",
        f"so that the error rate of {name} was seen over time",
        action="query_range",
        query=q,
        start="-2h",
    )
    vals = next((v for _, v in prom_series(out) if v), [])
    if vals:
        shift.log(
            f"The error rate of {name} was read: {vals[0] * 100:.1f}% two hours ago, {vals[-1] * 100:.1f}% now."
        )
    return vals


async def front_door(shift: Shift) -> str:
    """The ingress -> service -> endpoints path; the backend with no endpoints is returned."""
    ing = await shift.k(
        f"describe ingress -n {shift.ns}", "so that the public entry point was found"
    )
    backs = re.findall(r"\s/\S*\s+([a-z0-9-]+):\d+", ing)
    if not backs:
        return ""
    eps = table(
        await shift.k(f"get endpoints -n {shift.ns}", "so that the backends' endpoints were seen")
    )
    empty = {e.get("name") for e in eps if e.get("endpoints") in ("<none>", "")}
    await _proxies(shift)
    for b in backs:
        if b in empty:
            shift.log(
                f"The ingress was found routing to the service {b}, which has no ready endpoints; "
                f"the 5xx were traced from the ingress to {b}, whose pods are not ready."
            )
            return b
    return backs[0]


async def _proxies(shift: Shift) -> None:
    """What the proxies between the ingress and the pods (a mesh sidecar, a gateway) logged:
    the log streams that belong to no pod."""
    if not shift.has("logs_query"):
        return
    out = await shift.use(
        "logs_query",
        f"logs_query namespace={shift.ns} tail=300",
        "so that the proxies on the request path (mesh sidecars, gateways) were read",
        namespace=shift.ns,
        tail=300,
    )
    seen: dict[str, str] = {}
    for line in out.splitlines():
        m = re.search(r'source="([^"]+)"\}\s*(.*)$', line)
        if m and re.search(r"error|fail|reset|refused|timeout", m.group(2), re.I):
            seen.setdefault(m.group(1), m.group(2).strip())
    for source, msg in sorted(seen.items()):
        shift.log(
            f'The {source} on the request path was found reporting "{msg[:150]}": the proxy '
            "could not connect to the backend, so it answered the client with the 5xx itself."
        )


async def slow_spans(shift: Shift, case: Case) -> None:
    out = await shift.use(
        "traces_query",
        f"traces_query search service={case.name}",
        f"so that slow requests of {case.name} were found",
        action="search",
        service=case.name,
    )
    doc = load_json(out)
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, list) or not data:
        return
    tid = str(data[0].get("traceID"))
    tree = trace_tree(
        await shift.use(
            "traces_query",
            f"traces_query get trace_id={tid}",
            "so that the slowest trace was read span by span",
            action="get",
            trace_id=tid,
        )
    )
    path, slow = bottleneck(tree)
    if slow:
        case.sources.append("traces")
        shift.log(
            f"A slow trace of {case.name} was read: {path[0].ms:.0f}ms in total, "
            f"{slow.ms:.0f}ms of it in `{slow.operation}` ({slow.service})"
            + (f" [{slow.attrs}]" if slow.attrs else "")
            + "; it was matched against the log signal and the latency metric."
        )
    if shift.has("metrics_query"):
        q = f'latency_p99{{service="{case.name}"}}'
        vals = next(
            (
                v
                for _, v in prom_series(
                    await shift.use(
                        "metrics_query",
                        f"metrics_query query_range {q}",
                        "so that the latency was seen over time",
                        action="query_range",
                        query=q,
                        start="-2h",
                    )
                )
            ),
            [],
        )
        if vals:
            case.sources.append("metrics")
            shift.log(
                f"The p99 latency of {case.name} was read: {vals[0]:.0f}ms earlier, {vals[-1]:.0f}ms now."
            )


async def history(shift: Shift, case: Case) -> None:
    """What changed before the symptom began: the rollout history and recent replica sets."""
    await shift.k(
        f"rollout history deployment/{case.name} -n {shift.ns}",
        "so that recent rollouts were seen",
    )
    rs = table(
        await shift.k(
            f"get rs -n {shift.ns} -l app={case.name}", "so that the age of each revision was seen"
        )
    )
    live = [r for r in rs if r.get("desired", "0") != "0"]
    newest = min(live or rs, key=lambda r: age_minutes(r.get("age", "")) or 1e9) if rs else None
    age = age_minutes(newest.get("age", "")) if newest else None
    vals = await error_rate(shift, case.name) if shift.has("metrics_query") else []
    onset = _onset(vals)
    if age is not None and age < 24 * 60:
        shift.log(
            f"A rollout of {case.name} was found {newest.get('age')} ago (replica set "
            f"{newest.get('name')})"
            + (
                f"; the error rate was seen to rise about {onset:.0f} minutes ago"
                if onset is not None
                else ""
            )
            + ", so the symptom's onset was correlated with that deployment."
        )
        case.kind, case.sure = case.kind or "deploy", True
        case.cause = (
            case.cause
            if case.kind != "deploy"
            else (
                f"the recent rollout of {case.name} ({newest.get('name')}, {newest.get('age')} ago): "
                "the errors began right after it"
            )
        )
        case.detail.setdefault("rs", str(newest.get("name")))


def _onset(vals: list[float]) -> float | None:
    if len(vals) < 3 or vals[-1] <= vals[0] * 3:
        return None
    for i, v in enumerate(vals):
        if v > vals[0] * 3:
            return float(len(vals) - i)
    return None


async def misleading(shift: Shift, case: Case) -> None:
    """The node CPU is read and compared with the workload's own failure."""
    nodes = table(
        await shift.k("top nodes", "so that the node CPU named in the request was checked")
    )
    pods = table(
        await shift.k(f"top pods -n {shift.ns}", "so that the pod using the CPU was found")
    )
    hot = max(pods, key=lambda r: quantity(r.get("cpu(cores)", "0")) or 0, default=None)
    busy = ", ".join(f"{n.get('name')} {n.get('cpu%')}" for n in nodes)
    lim = limit_of(case, "memory")
    shift.log(
        f"The node CPU was confirmed high ({busy})"
        + (f", driven by {hot.get('name')} ({hot.get('cpu(cores)')})" if hot else "")
        + f"; it was judged a misleading signal, not the cause: high CPU slows a pod but does "
        f"not restart it, and the restarts of {case.name} were found to be "
        + (
            f"OOM kills at its {mib(lim)} memory limit."
            if case.kind == "oom" and lim
            else f"{case.kind or 'unexplained by CPU'}."
        )
    )
