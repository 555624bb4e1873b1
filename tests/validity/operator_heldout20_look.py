"""``heldout20``'s reads: the workload in focus, its configuration, logs, metrics, traces,
dashboards, database, network policies and nodes, each told as a step of the story."""

from __future__ import annotations

import re
from typing import Any

from .operator_heldout20 import Desk, named, words
from .operator_read import (
    alerts,
    bottleneck,
    describe_pods,
    items,
    load_json,
    log_lines,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    table,
    trace_tree,
)

_REF = re.compile(r"key '([^']+)' of config map '([^']+)'")


async def investigate(desk: Desk, deps: dict[str, Any], pods: list[dict[str, str]]) -> list[str]:
    """Follow what the request names; the workloads looked at, most relevant first."""
    focus = named(desk.prompt, list(deps))
    if "canary" in desk.prompt.lower():
        focus += [d for d in deps if d.endswith("-canary") and d not in focus]
    if not focus:
        stems = sorted(
            {re.sub(rf"(-[a-z0-9]{{4,10}}){{{n}}}$", "", p["name"]) for p in pods for n in (1, 2)}
        )
        focus = named(desk.prompt, stems)
    if not focus:
        focus = await request_path(desk)
    await alerts_now(desk)
    for name in focus[:2]:
        await workload(desk, name)
    if desk.has("dashboards"):
        await dashboards(desk)
    if re.search(r"\btrace\b", desk.prompt.lower()) or (focus and desk.has("traces_query")):
        await traces(desk, focus)
    if desk.has("database"):
        await database(desk, focus)
    if re.search(r"reach|network|connect", desk.prompt.lower()) and focus:
        await policies(desk, focus)
    return focus


async def request_path(desk: Desk) -> list[str]:
    """No workload named: follow the ingress to its backend service and the pods behind it."""
    ings = table(await desk.k(f"get ingress -n {desk.ns}"))
    out: list[str] = []
    for ing in ings[:2]:
        text = await desk.k(f"describe ingress {ing['name']} -n {desk.ns}")
        backends = sorted(set(re.findall(r"^\s+\S*\s+\S+\s+(\S+):\d+", text, re.M)))
        out += [b for b in backends if b not in out]
        logs = await desk.use("logs_query", namespace=desk.ns, source="ingress-nginx-controller")
        sig = signal_patterns(log_lines(logs))
        said = f", whose controller logged '{sig[0][1]}'" if sig else ""
        desk.say(
            f"Nothing in the request named a workload, so I followed the traffic: the {ing['name']} "
            f"ingress routes to the {', '.join(backends) or 'unknown'} service{said}."
        )
    for svc in out:
        eps = table(await desk.k(f"get endpoints {svc} -n {desk.ns}"))
        if eps and eps[0].get("endpoints") in ("<none>", ""):
            desk.say(
                f"The {svc} service had no endpoints at all, which meant no pod behind it was ready "
                f"and the ingress had nowhere to send requests, which is why it answered 503."
            )
            mesh = await desk.use("logs_query", namespace=desk.ns, filter="upstream connect")
            if mesh.strip():
                desk.say(
                    "The mesh sidecar logs agreed: they showed 'upstream connect error' with a "
                    "connection failure as the reset reason, because nothing was listening upstream."
                )
    return out


async def alerts_now(desk: Desk) -> None:
    if not desk.has("metrics_query"):
        return
    found = alerts(await desk.use("metrics_query", action="alerts"))
    if not found:
        desk.say("I queried the active alerts, and none was firing.")
    for a in found[:3]:
        labels = a.get("labels", {})
        desk.facts.setdefault("alert", labels.get("alertname", ""))
        desk.say(
            f"An alert named {labels.get('alertname', 'unnamed')} was {a.get('state', 'active')} "
            f"for {labels.get('service', 'the namespace')}, so I kept it in mind as I went."
        )


async def workload(desk: Desk, name: str) -> None:
    """One workload end to end: pods, events, configuration, logs, metrics."""
    text = await desk.k(f"describe pods -n {desk.ns} -l app={name}")
    views = describe_pods(text)
    if not views:
        bare = [p["name"] for p in desk.facts.get("pods", []) if p["name"].startswith(name)]
        for pod in bare[:2]:
            views += describe_pods(await desk.k(f"describe pod {pod} -n {desk.ns}"))
    events = [e for v in views for e in v.events]
    desk.say(
        f"I then described the pods of {name} ({words(len(views))} of them) to see their state, "
        f"last terminations, limits and environment."
    )
    for c in {c.name: c for v in views for c in v.containers}.values():
        await container(desk, name, c)
    probe = sorted({e for e in events if "Readiness probe failed" in e})
    if probe:
        failing = [v.name for v in views if any("Readiness probe failed" in e for e in v.events)]
        desk.say(
            f"{words(len(failing)).capitalize()} of the {words(len(views))} pods, "
            f"{', '.join(failing)}, had been failing its readiness probe "
            f"('{probe[0].split('kubelet')[-1].strip()}'), which meant the service had "
            f"stopped sending it traffic and the remaining pods carried the load."
        )
        desk.causes.append(
            f"{', '.join(failing)} was failing its readiness probe, which meant {name} was "
            f"running with {words(len(views) - len(failing))} of its {words(len(views))} pods "
            f"serving"
        )
    for ev in sorted(set(events))[:3]:
        if "Insufficient cpu" in ev or "FailedScheduling" in ev:
            await scheduling(desk, name, ev)
            break
    await config_refs(desk, name, views)
    await history(desk, name)
    await logs(desk, name)
    await metrics(desk, name)


async def container(desk: Desk, name: str, c: Any) -> None:
    if c.limits.get("memory") and not c.init:
        desk.facts.setdefault("mem_limit", c.limits["memory"])
    if c.init and ("Error" in (c.reason, c.last_reason) or c.reason == "CrashLoopBackOff"):
        out = await desk.use(
            "logs_query", namespace=desk.ns, deployment=name, container=c.name, previous=True
        )
        sig = signal_patterns(log_lines(out))
        line = f" Its log said '{sig[0][1]}'." if sig else ""
        desk.say(
            f"The init container {c.name} had failed with exit code {c.exit_code or 'one'} and "
            f"restarted {words(c.restarts)} times.{line}"
        )
        desk.causes.append(
            f"the {c.name} init container of {name} failed"
            + (f" ({sig[0][1]})" if sig else "")
            + f", which meant the {name} pods never started and never became ready"
        )
    if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
        limit = c.limits.get("memory", "")
        desk.say(
            f"The {c.name} container's last termination was OOMKilled, after {words(c.restarts)} "
            f"restarts, against a memory limit of {limit or 'unset'}."
        )
        desk.causes.append(
            f"{name} was OOMKilled because its memory use reached its {limit or ''} memory limit"
        )
        desk.facts["oom_limit"] = limit
        desk.facts["oom_target"] = name
        desk.facts["oom_container"] = c.name


async def scheduling(desk: Desk, name: str, event: str) -> None:
    nodes = await desk.k("describe nodes")
    alloc = re.findall(r"Allocatable:\s*\n\s+cpu:\s+(\S+)", nodes)
    desk.say(
        f"The scheduler's events said '{event.split('  ')[-1][:90]}', so I described the nodes; "
        f"their allocatable CPU was {', '.join(alloc) or 'not shown'}."
    )
    desk.causes.append(
        f"the {name} pods stayed Pending because they request more CPU than any node has free"
    )
    desk.facts["pending"] = name


async def config_refs(desk: Desk, name: str, views: list[Any]) -> None:
    refs = sorted(
        {m.groups() for v in views for c in v.containers for m in _REF.finditer(str(c.env))}
    )
    for cm in sorted({r[1] for r in refs}):
        doc = items(await desk.k(f"get configmap {cm} -n {desk.ns} -o yaml"))
        data = (doc[0].get("data") or {}) if doc else {}
        missing = [k for k, m in refs if m == cm and k not in data]
        present = ", ".join(sorted(data)) or "nothing"
        desk.say(f"The pods read their environment from the {cm} ConfigMap, which held {present}.")
        for key in missing:
            desk.causes.append(
                f"the {key} key is missing from the {cm} ConfigMap, and {name} references it, "
                f"which meant its container could not start and crashed in a loop"
            )


async def history(desk: Desk, name: str) -> None:
    """Recent events and rollouts of the workload: what changed, and when."""
    rows = table(await desk.k(f"get events -n {desk.ns} --sort-by=.lastTimestamp"))
    mine = [r for r in rows if name in r.get("object", "") and r.get("type") == "Normal"]
    warn = [r for r in rows if name in r.get("object", "") and r.get("type") == "Warning"]
    desk.say(
        f"I read the namespace's recent events: {words(len(warn))} warnings and "
        f"{words(len(mine))} routine entries concerned {name}."
    )
    dep = table(await desk.k(f"get deployment {name} -n {desk.ns} -o wide"))
    image = dep[0].get("images", "") if dep else ""
    if not mine:
        return
    await desk.k(f"rollout history deployment/{name} -n {desk.ns}")
    ev = mine[-1]
    desk.facts["rollout"] = (ev.get("message", ""), ev.get("last seen", ""), image)
    desk.say(
        f"The recent events for {name} showed '{ev.get('message', '')}', which meant it had been rolled out recently, and it now runs {image or 'a new image'}."
    )


async def logs(desk: Desk, name: str) -> None:
    if not desk.has("logs_query"):
        return
    now = await desk.use("logs_query", namespace=desk.ns, deployment=name, tail=200)
    before = await desk.use(
        "logs_query", namespace=desk.ns, deployment=name, previous=True, tail=200
    )
    lines = log_lines(now + "\n" + before)
    sig = signal_patterns(lines)
    if not lines:
        return
    noise = len(lines) - sum(n for _, _, n in sig)
    if not sig:
        desk.say(f"{name}'s logs were quiet: {words(len(lines))} lines, none of them errors.")
        return
    top = "; ".join(f"'{m}' ({'once' if n == 1 else words(n) + ' times'})" for _, m, n in sig[:2])
    desk.say(
        f"Reading {name}'s logs, I set aside {words(noise)} lines of routine health checks and "
        f"debug chatter, which left the lines that mattered: {top}."
    )
    desk.facts.setdefault("log", sig[0][1])
    desk.facts.setdefault("logs", " ".join(m for _, m, _ in sig))


async def metrics(desk: Desk, name: str) -> None:
    if not desk.has("metrics_query"):
        return
    q = f'{{namespace="{desk.ns}", service="{name}"}}'
    series = prom_series(
        await desk.use("metrics_query", action="query_range", query=q, start="-6h")
    )
    mem_q = f'container_memory_working_set_bytes{{namespace="{desk.ns}", pod=~"{name}-.*"}}'
    series += prom_series(
        await desk.use("metrics_query", action="query_range", query=mem_q, start="-6h")
    )
    seen: set[str] = set()
    if series:
        desk.say(f"I queried the metrics backend for {name}'s series over the last six hours.")
    for labels, values in series:
        metric = labels.get("__name__", "")
        if not metric or metric in seen or not values:
            continue
        seen.add(metric)
        desk.facts.setdefault("series", {})[metric] = values
        if "memory" in metric and "memory" in str(desk.facts.get("alert", "")):
            desk.say(
                f"Prompted by the {desk.facts['alert']} alert rather than by your request, I then "
                f"queried {name}'s memory: its working set went from {mib(values[0])} to "
                f"{mib(values[-1])} over the last six hours, well inside its limit."
            )
        elif "memory" in metric:
            desk.say(
                f"Its memory working set went from {mib(values[0])} to {mib(values[-1])} over the "
                f"last six hours."
            )
        else:
            desk.say(
                f"Its {metric.replace('_', ' ')} went from {values[0]:g} to {values[-1]:g} over "
                f"the window I looked at."
            )


async def traces(desk: Desk, focus: list[str]) -> None:
    ids = re.findall(r"\btrace\s+([0-9a-f]{4,})\b", desk.prompt.lower())
    if not ids:
        args: dict[str, Any] = {"service": focus[0]} if focus else {}
        found = load_json(
            await desk.use("traces_query", action="search", min_duration="1s", limit=5, **args)
        )
        rows = found if isinstance(found, list) else (found or {}).get("data", [])
        ids = [str(r.get("traceID") or r.get("trace_id")) for r in rows if isinstance(r, dict)][:1]
    for tid in ids[:1]:
        spans = trace_tree(await desk.use("traces_query", action="get", trace_id=tid))
        path, slow = bottleneck(spans)
        if not slow:
            continue
        hops = ", then ".join(f"{s.service} {s.operation} ({s.ms:g} ms)" for s in path)
        desk.say(f"I opened trace {tid} and walked its spans from the root down: {hops}.")
        desk.facts["slow_span"] = slow
        desk.facts["trace_root"] = path[0]


async def dashboards(desk: Desk) -> None:
    found = load_json(await desk.use("dashboards", action="list")) or []
    found = found if isinstance(found, list) else []
    asked = [d for d in found if str(d.get("uid", "")).lower() in desk.prompt.lower()]
    for d in (asked or found)[:2]:
        doc = load_json(await desk.use("dashboards", action="get", uid=str(d.get("uid", ""))))
        panels = (doc or {}).get("dashboard", doc or {}).get("panels", [])
        desk.facts["panels"] = [p for p in panels if isinstance(p, dict)]
        desk.say(
            f"I opened the {d.get('title', 'dashboard')} dashboard and read all "
            f"{words(len(panels))} of its panels."
        )


async def database(desk: Desk, focus: list[str]) -> None:
    text = await desk.use("database", query="migrations status")
    desk.facts["migrations"] = text
    if not text.strip():
        return
    rows = [r for r in re.findall(r"\|\s*Versioned\s*\|\s*(\w+)\s*\|\s*([^|]+?)\s*\|", text)]
    last = f" The latest migration was {rows[-1][0]}, '{rows[-1][1]}'." if rows else ""
    desk.say(f"I checked the database's migration history to see what had changed recently.{last}")
    for name in focus[:1]:
        stem = re.sub(r"[-_](service|svc|api)$", "", name).replace("-", "_")
        for tbl in (f"{stem}s", stem):
            q = (
                f"SELECT count(*) FROM {tbl} WHERE created_at >= "
                f"(SELECT max(applied_at) FROM schema_migrations)"
            )
            out = await desk.use("database", query=q)
            n = re.search(r"^\s*(\d+)\s*$", out, re.M)
            if n and not desk.failed():
                desk.facts["rows_since"] = (tbl, int(n.group(1)))
                desk.say(
                    f"To size what a roll-back would put at risk, I counted the rows written to "
                    f"{tbl} since that migration was applied: {n.group(1)}."
                )
                break


async def policies(desk: Desk, focus: list[str]) -> None:
    pols = items(await desk.k(f"get networkpolicies -n {desk.ns} -o yaml"))
    desk.say(
        f"Because the complaint was about reachability, I listed the namespace's network "
        f"policies ({words(len(pols))} of them) and services before touching anything."
    )
    await desk.k(f"get svc -n {desk.ns}")
    for p in pols:
        spec = p.get("spec") or {}
        target = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if target.get("app") not in focus:
            continue
        allowed = [
            (f.get("podSelector") or {}).get("matchLabels", {}).get("app", "")
            for rule in spec.get("ingress") or []
            for f in rule.get("from") or []
        ]
        blocked = [f for f in focus if f != target.get("app") and f not in allowed]
        if blocked:
            desk.facts["policy"] = (p["metadata"]["name"], target.get("app"), blocked, allowed)
            desk.causes.append(
                f"the {p['metadata']['name']} NetworkPolicy only admits traffic to "
                f"{target.get('app')} from {', '.join(allowed) or 'nothing'}, which meant "
                f"{', '.join(blocked)} was silently dropped"
            )


def memory_limit_bytes(limit: str) -> float | None:
    return quantity(limit) if limit else None
