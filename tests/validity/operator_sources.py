"""Signal sources for the competent validity agent's investigation (issue 13, item 7): the
request path and network policies, metrics and alerts, traces, rollout history and the
database. Each reader records what it found on the :class:`.operator_diag.Investigation`."""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .competent import Session, mentioned
from .operator_diag import MEMORY, Cause, Investigation, as_text


async def _traffic(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    text = await s.kubectl(
        f"get ingress,services,endpoints -n {inv.ns} -o wide",
        f"listed the ingresses, services and endpoints in {inv.ns}",
        "to follow the request path from the entry point to the pods",
    )
    ingress = re.findall(r"^ingress\S*/(\S+)", text, re.M)
    empty = re.findall(r"^endpoints/(\S+)\s+<none>", text, re.M)
    empty = subject_endpoints(empty, inv.focus)
    if ingress or empty:
        hop = [f"ingress {ingress[0]} gets no healthy upstream" if ingress else ""]
        for svc in empty:
            hop.append(f"service {svc} has no ready endpoints")
            pods = [p for p in ctx["pods"] if p["name"].startswith(svc + "-")]
            hop += [f"pod {p['name']} is {p['status']}" for p in pods[:1]]
        inv.chain = [h for h in hop if h]
    wide = ""
    if s.has("logs_query"):
        wide = await s.read(
            "logs_query",
            f"read the logs of every source in {inv.ns}",
            "to catch proxy and sidecar errors along the request path",
            namespace=inv.ns,
            tail=100,
        )
        _name_pods_read(s, wide)
        for ln in wide.splitlines():
            src = re.search(r'source="([^"]+)"', ln)
            if src and re.search(r"error|fail|refused|reset", ln, re.I):
                inv.chain.insert(
                    1 if inv.chain else 0, f'{src.group(1)} logs "{rd._STREAM.sub("", ln).strip()}"'
                )
                break
    pol = rd.items(
        await s.kubectl(
            f"get networkpolicies -n {inv.ns} -o yaml",
            f"read the network policies in {inv.ns}",
            "to check whether a policy blocks the traffic",
        )
    )
    apps = {r["name"]: r.get("selector", "") for r in ctx["deployments"]}
    called = _called(s.task.prompt, wide, _fronted(text, apps))
    for p in pol:
        _policy_cause(inv, p, apps, called)


def subject_endpoints(empty: list[str], focus: list[str]) -> list[str]:
    """The empty endpoints of the subject's own Services when it has any: another workload's
    (a crash-looping worker's metrics Service) is no hop of the subject's chain (issue 27)."""
    return [e for e in empty if any(e == f or e.startswith(f + "-") for f in focus)] or empty


def _fronted(listing: str, apps: dict[str, str]) -> set[str]:
    """The Deployments a Service selects (its SELECTOR column, ``-o wide``): callers reach a
    workload through its Service, so a policy fencing a workload no Service fronts drops no
    request (issue 27's ambient worker)."""
    selectors = [row.split()[-1] for row in listing.splitlines() if row.startswith("service/")]
    return {
        d
        for d, sel in apps.items()
        for svc in selectors
        if svc != "<none>" and all(kv in sel for kv in svc.split(","))
    }


def _called(prompt: str, logs: str, fronted: set[str]) -> set[str]:
    """The fronted workloads shown called: the prompt names them ("frontend can't reach
    backend") or another source's log line does. A worker's own Service (its metrics, issue 27
    round 10) makes it fronted, not called: a policy admitting only its scraper drops nothing
    anyone sent."""
    called = set(mentioned(prompt, sorted(fronted)))
    for ln in logs.splitlines():
        src = re.search(r'(?:source|app)="([^"]+)"', ln)
        said = rd._STREAM.sub("", ln)
        called |= {d for d in mentioned(said, sorted(fronted)) if not src or src.group(1) != d}
    return called


def _name_pods_read(s: Session, text: str) -> None:
    """A namespace-wide log read is a read of each pod's log: the trail names every pod it
    read (an account of each call, SI §11), the batch pods beside the symptom included."""
    pods = list(dict.fromkeys(re.findall(r'pod="([^"]+)"', text)))
    if pods and s.f.steps:
        s.f.steps[-1].what += " (pods " + ", ".join(pods) + ")"


def _policy_cause(
    inv: Investigation, policy: dict[str, Any], apps: dict[str, str], fronted: set[str]
) -> None:
    spec = policy.get("spec") or {}
    name = policy.get("metadata", {}).get("name", "?")
    target = (spec.get("podSelector") or {}).get("matchLabels") or {}
    allowed = [
        ((peer.get("podSelector") or {}).get("matchLabels") or {})
        for rule in spec.get("ingress") or []
        for peer in rule.get("from") or []
    ]
    selected = [d for d, sel in apps.items() if all(f"{k}={v}" in sel for k, v in target.items())]
    selected = [d for d in selected if d in fronted]
    if not selected or "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
        return
    blocked = [
        d
        for d, sel in apps.items()
        if d not in selected
        and not any(all(f"{k}={v}" in sel for k, v in a.items()) for a in allowed if a)
    ]
    allowed_txt = (
        ", ".join(",".join(f"{k}={v}" for k, v in a.items()) for a in allowed) or "nothing"
    )
    if blocked:
        tgt = ",".join(f"{k}={v}" for k, v in target.items())
        inv.causes.append(
            Cause(
                "netpol",
                f"NetworkPolicy {name} selects the {', '.join(selected)} "
                f"pods ({tgt}) and admits ingress only from pods labelled "
                f"{allowed_txt}, so traffic from {', '.join(blocked)} is dropped",
                f"add an ingress rule to {name} that admits "
                f"{', '.join(apps[b] for b in blocked)} on the service port",
            )
        )
        inv.notes.append(f"policy {name}: targets {tgt}, allows {allowed_txt}")


async def _metrics(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    if not s.has("metrics_query"):
        return
    names = rd.metric_names(
        await s.read(
            "metrics_query",
            "listed the metric names",
            "to see which metrics exist",
            action="metric_names",
        )
    )
    fired = rd.alerts(
        await s.read(
            "metrics_query",
            "checked the active alerts",
            "to see whether anything is already alerting",
            action="alerts",
        )
    )
    memory_alert = ""
    for a in fired:
        lab = a.get("labels", {})
        inv.notes.append(
            f"alert {lab.get('alertname')} is {a.get('state')} for "
            f"{lab.get('service') or lab.get('pod') or 'the namespace'}"
        )
        if re.search(r"mem|oom", as_text(a), re.I):
            memory_alert = str(lab.get("alertname"))
    rate_like = [n for n in names if re.search(r"error_rate|latency|p99", n)]
    for metric in rate_like:
        got = rd.prom_series(
            await s.read(
                "metrics_query",
                f"queried metric {metric}",
                "to measure the symptom against its baseline",
                action="query_range",
                query=metric,
                start="-1h",
                step="10m",
            )
        )
        inv.metrics[metric] = got
    prompt = s.task.prompt
    if (MEMORY.search(prompt) or memory_alert) and "container_memory_working_set_bytes" in names:
        if memory_alert:
            s.trigger = f"alert {memory_alert}"
        await _memory(s, inv)
        if memory_alert:
            inv.support["alert"] = memory_alert
        s.trigger = "operator request"
    if re.search(r"\bcpu\b", prompt, re.I):
        for metric in [n for n in names if "cpu" in n]:
            inv.metrics[metric] = rd.prom_series(
                await s.read(
                    "metrics_query",
                    f"queried CPU metric {metric}",
                    "to test whether CPU explains the symptom",
                    action="query",
                    query=metric,
                )
            )


async def _memory(s: Session, inv: Investigation) -> None:
    q = f'container_memory_working_set_bytes{{namespace="{inv.ns}"}}'
    series = rd.prom_series(
        await s.read(
            "metrics_query",
            "queried the memory usage over 6 hours",
            "to see the memory trend, not just the current value",
            action="query_range",
            query=q,
            start="-6h",
            step="1h",
        )
    )
    limits = rd.prom_series(
        await s.read(
            "metrics_query",
            "queried the memory limits",
            "to compare memory usage with the limit",
            action="query",
            query=f'kube_pod_container_resource_limits{{namespace="{inv.ns}",resource="memory"}}',
        )
    )
    inv.metrics["memory"] = series
    inv.metrics["memory_limit"] = limits


async def _traces(s: Session, inv: Investigation) -> None:
    if not s.has("traces_query"):
        return
    found = (
        rd.load_json(
            await s.read(
                "traces_query",
                "searched the traces",
                "to find the slow or failing requests",
                action="search",
                limit=20,
            )
        )
        or {}
    )
    traces = found.get("data") or [] if isinstance(found, dict) else []
    # an id the operator gives (four characters or more: "8 seconds" names no trace)
    token = set(re.findall(r"\b[a-z0-9]*\d[a-z0-9]*\b", s.task.prompt.lower()))
    token = {t for t in token if len(t) >= 4}
    chosen = [t for t in traces if any(tok in str(t.get("traceID", "")) for tok in token)]
    # else the traces crossing a service the operator names (the symptom's requests)
    chosen = chosen or [
        t for t in traces if mentioned(s.task.prompt, list(t.get("services") or []))
    ]
    chosen = (
        chosen
        or sorted(traces, key=lambda t: -float(str(t.get("duration", "0")).rstrip("ms") or 0))[:1]
    )
    for t in chosen[:1]:
        tid = t.get("traceID")
        tree = await s.read(
            "traces_query",
            f"opened trace {tid}",
            "to walk its spans across services to the slowest one",
            action="get",
            trace_id=tid,
        )
        spans = rd.trace_tree(tree)
        path, slow = rd.bottleneck(spans)
        if slow is None:
            continue
        inv.chain = [f"{p.service} {p.operation} {p.ms:.0f}ms" for p in path]
        attrs = f" [{slow.attrs}]" if slow.attrs else ""
        pool = re.search(r"pool\.active=(\d+)\s+\S*pool\.max=(\d+)", slow.attrs)
        if pool and pool.group(1) == pool.group(2):
            inv.notes.append(
                f"trace {tid}: span {slow.operation} waits {slow.ms:.0f}ms with the "
                f"pool at {pool.group(1)}/{pool.group(2)} connections"
            )
            inv.support["traces"] = (
                f"the trace's {slow.operation} span waiting {slow.ms:.0f}ms with "
                f"{pool.group(1)} of {pool.group(2)} pool connections in use"
            )
        elif "db." in slow.operation or "query" in slow.operation.lower():
            inv.causes.append(
                Cause(
                    "slow-span",
                    f'span "{slow.operation}" in {slow.service} takes '
                    f"{slow.ms:.0f}ms of the {path[0].ms:.0f}ms request{attrs}; "
                    "one row fetched that slowly points at a missing index on "
                    "the filtered column",
                    "add an index on the column the query filters on and check the query plan",
                )
            )


async def _history(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    text = await s.kubectl(
        f"get replicasets -n {inv.ns} -o wide",
        f"listed the replicasets (rollout history) in {inv.ns}",
        "to see whether a recent rollout changed the image",
    )
    for dep in inv.focus:
        rs = [
            r
            for r in rd.table(text)
            if r["name"].startswith(dep + "-") and not r["name"][len(dep) + 1 :].count("-")
        ]
        if len(rs) < 2:
            continue
        rs.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
        new, old = rs[0], rs[1]
        age = rd.age_minutes(new.get("age", ""))
        if age is not None and age <= 60 and new.get("images") != old.get("images"):
            inv.recent_rollout = {
                "deployment": dep,
                "new": new.get("images", ""),
                "old": old.get("images", ""),
                "age": new.get("age", ""),
            }


async def _database(s: Session, inv: Investigation) -> None:
    text = await s.read(
        "database",
        "queried the migration status of the database",
        "to see which schema migration ran and when",
        query="migrations status",
    )
    rows = [ln for ln in text.splitlines() if re.match(r"\|\s*Versioned", ln)]
    if not rows:
        return
    cells = [c.strip() for c in rows[-1].strip("|").split("|")]
    version, desc, when = cells[1], cells[2], cells[4]
    inv.notes.append(f"last migration {version} ({desc}) applied {when}")
    db = (re.search(r"^Database:\s+(\S+)", text, re.M) or [None, ""])[1]
    entity = re.sub(r"[_-]?(service|svc|db|api)$", "", db) or db
    count = await s.read(
        "database",
        "queried the rows written since that migration",
        "to size the data a rollback would lose",
        query=f"SELECT count(*) FROM {entity}s WHERE created_at > "
        "(SELECT max(applied_at) FROM schema_migrations)",
    )
    n = re.search(r"^\s*(\d+)\s*$", count, re.M)
    inv.recent_rollout.setdefault("migration", f"{version} ({desc}) at {when}")
    if n:
        inv.recent_rollout["rows_since"] = n.group(1)


async def _follow_upstream(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    """A dependency the logs say refuses connections, followed when it lives in my namespaces:
    its service, endpoints and pods."""
    for cause in [c for c in inv.causes if c.kind == "upstream"]:
        m = re.search(
            r"([a-z0-9-]+)(?:\.([a-z0-9-]+))?\.svc\S*?:(\d+)", cause.statement
        ) or re.search(r"dial tcp ([a-z0-9-]+)(?:\.([a-z0-9-]+))?:(\d+)", cause.statement)
        if not m:
            continue
        name, ns = m.group(1), m.group(2) or inv.ns
        if ns not in inv.scope:
            continue
        text = await s.kubectl(
            f"get service,endpoints {name} -n {ns}",
            f"read service {name} and its endpoints",
            f"to see why {name}, which the logs say refuses connections, is unreachable",
        )
        pods = [r for r in ctx["pods"] if r["name"].startswith(name + "-")] if ns == inv.ns else []
        mismatch = await _selector_mismatch(s, name, ns) if pods else ""
        if "NotFound" in text or not text.strip():
            why = f"service {name} does not exist in {ns}"
        elif mismatch:
            why = mismatch
        elif re.search(rf"^endpoints/{re.escape(name)}\s+<none>", text, re.M) or not pods:
            state = ", ".join(f"{p['name']} {p['status']}" for p in pods) or "no pods at all"
            why = f"service {name} has no ready endpoints ({state})"
        else:
            continue
        inv.causes.append(
            Cause(
                "upstream-down",
                f"{', '.join(inv.focus)} cannot reach {name}:{m.group(3)} because {why}; "
                f"{cause.statement}",
                f"correct service {name}'s selector to the labels its pods carry"
                if mismatch
                else f"bring {name} back (its deployment and pods), then the callers recover",
            )
        )


async def _selector_mismatch(s: Session, name: str, ns: str) -> str:
    """A service whose selector matches none of the pods that carry its name."""
    svc = rd.items(
        await s.kubectl(
            f"get service {name} -n {ns} -o yaml",
            f"read service {name}",
            "to compare its selector with the labels of its pods",
        )
    )
    selector = (svc[0].get("spec", {}).get("selector") or {}) if svc else {}
    if not selector:
        return ""
    pods = rd.items(
        await s.kubectl(
            f"get pods -n {ns} -o yaml",
            f"read the pod labels in {ns}",
            f"to see whether any pod carries service {name}'s selector",
        )
    )
    labels = [p.get("metadata", {}).get("labels") or {} for p in pods]
    if any(selector.items() <= lab.items() for lab in labels):
        return ""
    own = [
        lab
        for p, lab in zip(pods, labels, strict=True)
        if p.get("metadata", {}).get("name", "").startswith(name + "-")
    ]
    sel = ",".join(f"{k}={v}" for k, v in selector.items())
    have = ",".join(
        f"{k}={v}" for k, v in sorted((own[0] if own else {}).items()) if k != "pod-template-hash"
    )
    return (
        f"its selector {sel} matches no pod"
        + (f" (the {name} pods are labelled {have})" if have else "")
        + ", so it has no endpoints"
    )
