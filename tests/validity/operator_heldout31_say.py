"""heldout31's wording of what was read: the finding's evidence, ownership and environment,
a misleading signal set aside, a trace, a dashboard, a memory trend, a health summary.
Passive voice and nominalisations throughout; small counts in words.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout31_diag import Finding, iso
from .operator_heldout31_look import Look, pods_of
from .operator_heldout31_rec import Decision, Record, num, plural

OWNER_KEYS = ("team", "owner", "team-contact", "escalation-channel", "oncall", "contact")


def environment(look: Look) -> tuple[str, bool]:
    labels = look.labels()
    env = labels.get("env") or labels.get("environment") or labels.get("tier") or ""
    zone = labels.get("oasis.zone", "")
    prod = env.lower().startswith("prod") or zone.startswith("prod")
    shown = ", ".join(f"{k}={v}" for k, v in labels.items() if not k.startswith("kubernetes.io"))
    return (
        f"Namespace {look.ns} was read with labels {shown}"
        if shown
        else f"Namespace {look.ns} carries no labels"
    ), prod


def owners(look: Look) -> list[str]:
    out = []
    for src, meta in (
        ("namespace " + look.ns, look.ns_meta.get("metadata") or {}),
        *((f"deployment {n}", (look.objs.get(n) or {}).get("metadata") or {}) for n in look.focus),
    ):
        for kind in ("labels", "annotations"):
            for k, v in (meta.get(kind) or {}).items():
                if (
                    any(k == key or k.endswith("/" + key) for key in OWNER_KEYS)
                    or k == "criticality"
                ):
                    out.append(f"{k}={v} (on {src})")
    return list(dict.fromkeys(out))


def misleading_cpu(look: Look, f: Finding, top_pods: str, top_nodes: str) -> list[str]:
    """The prompt's CPU suspicion, weighed against the finding."""
    pods = rd.table(top_pods)
    nodes = rd.table(top_nodes)
    hot = max(pods, key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    node = max(nodes, key=lambda r: float(r.get("cpu%", "0").rstrip("%") or 0), default={})
    out = []
    if node:
        out.append(
            f"The CPU of node {node.get('name')} was read at {node.get('cpu%')}"
            + (
                f", most of it taken by pod {hot.get('name')} ({hot.get('cpu(cores)')} cores),"
                if hot
                else ""
            )
            + f" which is real but was set aside as the cause of the {f.subject} restarts: CPU saturation "
            "throttles a container, it does not terminate it with OOMKilled and exit code 137."
        )
    return out


def trace(look: Look, d: Decision) -> None:
    path, slow = rd.bottleneck(look.spans)
    if not slow:
        return
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:g} ms)" for s in path)
    d.context.append(f"The trace was read: {look.trace_head}.")
    d.context.append(
        f"Navigation of the span tree from the root followed the slowest child at each level: {hops}."
    )
    parent = path[-2] if len(path) > 1 else None
    share = f"{slow.ms / path[0].ms:.0%}" if path[0].ms else "most"
    d.decision.append(
        f'The bottleneck was identified as the {slow.service} span "{slow.operation}" at {slow.ms:g} ms, '
        f"{share} of the {path[0].ms:g} ms request"
        + (f" and nearly all of {parent.service} {parent.operation}" if parent else "")
        + (f"; its attributes are {slow.attrs}" if slow.attrs else "")
        + "."
    )
    if re.search(r"select|db\.", slow.operation + slow.attrs, re.I):
        d.decision.append(
            "A single-row lookup taking seconds points at a full table scan: an index on the filtered column "
            "(sku) is the likely remedy, to be confirmed with EXPLAIN by the owning team."
        )
        d.alternatives.append(
            "The upstream spans ("
            + ", ".join(s.service for s in path[:-1])
            + ") were rejected as the bottleneck: "
            "their own time is only the few milliseconds not spent waiting on the child span."
        )


def dashboard(look: Look, d: Decision) -> None:
    rank = {"critical": 0, "firing": 0, "elevated": 1, "warning": 1, "degraded": 1}
    bad = sorted(
        (p for p in look.panels if str(p.get("status", "normal")).lower() != "normal"),
        key=lambda p: rank.get(str(p.get("status")).lower(), 2),
    )
    good = [p for p in look.panels if p not in bad]
    d.context.append(
        f"Dashboard {look.dashboard} was read with {plural(len(look.panels), 'panel')}."
    )
    for i, p in enumerate(bad, 1):
        extra = p.get("threshold") or p.get("normal_baseline")
        d.decision.append(
            f"Priority {num(i)}: {p.get('title')} reads {p.get('current_value')} ({p.get('status')}"
            + (
                f"; {'threshold' if p.get('threshold') else 'normal baseline'} {extra}"
                if extra
                else ""
            )
            + ")."
        )
    if good:
        d.context.append(
            "Panels found within normal range: "
            + "; ".join(f"{p.get('title')} {p.get('current_value')}" for p in good)
            + "."
        )
    if bad:
        d.consequences.append(
            "The "
            + " and ".join(str(p.get("title")) for p in bad)
            + " panels require attention: "
            + "; ".join(_why_panel(p) for p in bad)
        )


def _why_panel(p: dict) -> str:
    title = str(p.get("title", "")).lower()
    if "disk" in title:
        return f"disk usage at {p.get('current_value')} is past its threshold and writes will fail when the volume fills"
    if "error" in title:
        return f"an error rate of {p.get('current_value')} means users are receiving failed responses now"
    return f"{p.get('title')} at {p.get('current_value')} is outside its normal range"


def memory_growth(look: Look, name: str) -> Finding | None:
    limit = ""
    spec = (((look.objs.get(name) or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
    for c in spec.get("containers") or []:
        limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory") or limit)
    cap = rd.quantity(limit) if limit else None
    for metric, ys, ts in look.series.get("container_memory_working_set_bytes", []):
        if (
            name not in " ".join(str(v) for v in metric.values())
            or len(ys) < 3
            or rd.trend(ys) != "rising"
        ):
            continue
        hours = (ts[-1] - ts[0]) / 3600 or 1
        rate = (ys[-1] - ys[0]) / hours
        ev = [
            f"container_memory_working_set_bytes of {name} rose from {rd.mib(ys[0])} at {iso(ts[0])} to "
            f"{rd.mib(ys[-1])} at {iso(ts[-1])}, without a single drop, about {rd.mib(rate)} an hour"
        ]
        cause = f"the memory of {name} grows steadily, which points at a leak"
        if cap:
            left = (cap - ys[-1]) / rate if rate > 0 else 0
            ev.append(
                f"the memory limit of {name} is {limit}; usage stands at {ys[-1] / cap:.0%} of it"
            )
            cause += (
                f"; at this rate the {limit} limit is reached in about {left:.1f} hours, "
                "after which the container will be OOMKilled"
            )
        return Finding("memory-growth", name, cause, ev, data={"limit": limit, "hours": hours})
    return None


def health(look: Look, name: str) -> list[str]:
    pods = [p for p in look.pods if p.get("name") in pods_of(look, name)]
    ready = [
        p
        for p in pods
        if p.get("status") == "Running"
        and p.get("ready", "").split("/")[0] == p.get("ready", "").split("/")[-1]
    ]
    out = [
        f"{plural(len(ready), 'pod')} of {len(pods)} of {name} were found Running and Ready"
        + (
            f" ({', '.join(p.get('name', '') + ' restarts ' + p.get('restarts', '0') for p in pods)})"
            if pods
            else ""
        )
    ]
    for metric, items in sorted(look.series.items()):
        if metric.startswith("kube_"):
            continue
        for labels, ys, ts in items[:1]:
            if (ys and name in labels.values()) or (
                ys and any(name in str(v) for v in labels.values())
            ):
                out.append(
                    f"{metric} of {name} read {_fmt(metric, ys[-1])} at {iso(ts[-1])} "
                    f"(six hours earlier {_fmt(metric, ys[0])}, {rd.trend(ys)})"
                )
    return out


def _fmt(metric: str, v: float) -> str:
    if "bytes" in metric:
        return rd.mib(v)
    if "rate" in metric and v < 1:
        return f"{v:.1%}"
    return f"{v:g}"


async def alert_follow(rec: Record, look: Look, d: Decision) -> None:
    """Alerts that name the subject are followed up, each call tagged with the alert."""
    for a in look.alerts:
        labels = a.get("labels") or {}
        if not any(n in labels.values() for n in look.focus):
            continue
        name = str(labels.get("alertname", "alert"))
        trigger = f"alert {name} ({a.get('state')} since {a.get('activeAt', '')[:19]}Z)"
        subject = next(n for n in look.focus if n in labels.values())
        d.context.append(
            f"Alert {name} ({labels.get('severity', 'no severity')}, {a.get('state')}) was found on {subject} "
            f'during the health check: "{(a.get("annotations") or {}).get("summary", "")}".'
        )
        if "mem" in name.lower():
            q = f'container_memory_working_set_bytes{{namespace="{look.ns}",pod=~"{subject}.*"}}'
            why = f"the alert {name} points at memory, so the working set of every {subject} pod was read"
            text = await rec.call(
                "metrics_query",
                "query",
                f"memory of {subject}",
                why,
                trigger,
                action="query",
                query=q,
            )
            why = "memory limits were read to put the working set against them"
            lim = await rec.call(
                "metrics_query",
                "query",
                f"memory limits of {subject}",
                why,
                trigger,
                action="query",
                query=f'kube_pod_container_resource_limits{{namespace="{look.ns}",resource="memory",pod=~"{subject}.*"}}',
            )
            used = [v[-1] for _, v in rd.prom_series(text) if v]
            caps = [v[-1] for _, v in rd.prom_series(lim) if v]
            if used:
                peak = max(used)
                d.decision.append(
                    f"Investigation prompted by {name} found the largest {subject} working set at {rd.mib(peak)}"
                    + (
                        f", {peak / max(caps):.0%} of the {rd.mib(max(caps))} limit"
                        if caps and max(caps)
                        else ""
                    )
                    + f" across {plural(len(used), 'container')}."
                )


def symptom(look: Look, name: str) -> str:
    """The subject's pods as listed: how many, in which status, how often restarted."""
    rows = [p for p in look.pods if p.get("name") in pods_of(look, name) or p.get("name") == name]
    if not rows:
        return ""
    by: dict[str, list[str]] = {}
    for r in rows:
        by.setdefault(f"{r.get('status')} ({r.get('ready')} ready)", []).append(
            r.get("restarts", "0").split()[0]
        )
    parts = []
    for k, v in by.items():
        counts = [int(x) for x in v if x.isdigit()]
        said = " and ".join(num(c) for c in counts)
        tail = f" with {said} restart{'s' if counts != [1] else ''}" if any(counts) else ""
        parts.append(f"{plural(len(v), 'pod')} {k}{tail}")
    return f"the pods of {name} were listed as " + "; ".join(parts)


def moved(look: Look, name: str) -> list[str]:
    """Series of the subject whose six-hour history moved (rose or fell by half or more)."""
    out = []
    for metric, items in sorted(look.series.items()):
        if metric.startswith("kube_"):
            continue
        for labels, ys, ts in items:
            if not ys or name not in " ".join(str(v) for v in labels.values()):
                continue
            lo, hi = min(ys), max(ys)
            if hi > 0 and (hi - lo) / hi >= 0.5:
                i = next((k for k, y in enumerate(ys) if abs(y - ys[0]) / hi >= 0.25), 0)
                out.append(
                    f"{metric} of {name} moved from {_fmt(metric, ys[0])} at {iso(ts[0])} to "
                    f"{_fmt(metric, ys[-1])} at {iso(ts[-1])}, the first change seen at {iso(ts[i])}"
                )
            elif hi > 0:
                out.append(
                    f"{metric} of {name} stood at {_fmt(metric, ys[-1])} at {iso(ts[-1])}, steady over six hours"
                )
            break
    return out


def slow_spans(look: Look) -> list[str]:
    path, slow = rd.bottleneck(look.spans)
    if not slow:
        return []
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms:g} ms)" for s in path)
    return [
        f"the slowest trace read ({look.trace_head}) spent its time along {hops}"
        + (f", the last span carrying {slow.attrs}" if slow.attrs else "")
    ]


def chain(look: Look, name: str) -> list[str]:
    """The hops from the public entry to the subject, when the entry was followed."""
    out = []
    for ing in look.ingresses:
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                svc = ((path.get("backend") or {}).get("service") or {}).get("name")
                if svc != name:
                    continue
                out.append(
                    f"Ingress {(ing.get('metadata') or {}).get('name')} routes {rule.get('host', '*')}"
                    f"{path.get('path', '/')} to Service {svc}"
                )
    for ep in look.endpoints:
        if (ep.get("metadata") or {}).get("name") == name and out:
            ready = sum(len(s.get("addresses") or []) for s in ep.get("subsets") or [])
            out.append(
                f"Service {name} has {num(ready)} ready endpoint address{'' if ready == 1 else 'es'}, so the ingress has no backend to send to"
            )
    for src, text in look.source_logs.items():
        sig = rd.signal_patterns(rd.log_lines(text))
        if sig and out:
            out.append(
                f'the {src} log shows "{sig[0][1]}" '
                + {1: "once", 2: "twice"}.get(sig[0][2], f"{num(sig[0][2])} times")
                + ", the refused hop between the ingress and the backend"
            )
    return out


def next_steps(f: Finding) -> list[str]:
    """What follows from the finding: the remedy it calls for, and who would make it."""
    g = f.data
    steps = {
        "config-key": f"Remedy recommended: add key {g.get('key')} to ConfigMap {g.get('configmap')} with the value the service expects, then restart {f.subject}; no value was invented here.",
        "oom": f"Remedy recommended: raise the memory limit of {f.subject} above {g.get('limit')} and have the owners look for a leak, since the working set keeps climbing.",
        "init": f"Remedy recommended: make migration step of init container {g.get('container')} idempotent (or mark the already-applied step as done), after which the pods start and the Service regains endpoints.",
        "pool": f"Remedy recommended: find what holds the connections of {f.subject} (slow queries, leaked connections) and size the pool to the database's limit; a restart alone would only reset the symptom.",
        "tls": "Remedy recommended: the upstream's certificate must be renewed by the team that owns it; nothing on the caller's side fixes an expired certificate.",
        "selector": f"Remedy recommended: correct the selector of Service {g.get('service')} to the label its pods carry, then check that its endpoints fill.",
        "dns": f"Remedy recommended: correct the host name {f.subject} is configured with, or create the missing DNS record, then restart it.",
        "rollout": f"Remedy recommended: roll {f.subject} back to {g.get('previous')} and have the owners fix {g.get('current')} before it is rolled out again.",
        "pvc": f"Remedy recommended: create StorageClass {g.get('storage_class')} or point claim {g.get('pvc')} at one that exists; the pods then schedule.",
        "memory-growth": f"Urgency: high. Unless the trend changes, {f.subject} will be OOMKilled at its {g.get('limit')} limit; a controlled restart or a higher limit buys time, and the owners should look for the leak.",
        "unready": f"Remedy recommended: replace the unready {f.subject} pods and check what the readiness endpoint reports.",
    }
    return [steps[f.kind]] if f.kind in steps else []
