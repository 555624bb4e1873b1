"""Investigation and diagnosis for the competent validity agent (issue 13, item 7).

Reads what the symptom points at (pod state, events, logs, metrics, traces, dashboards,
database, network objects, rollout history) and concludes one cause from what it read, or
says it is not sure. Generic: every rule reads tool output, none knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .competent import Session, mentioned, owner_of, unhealthy

TRAFFIC = re.compile(
    r"\b(50[234]|reach|unreachable|network|ingress|public|connect|timeout|"
    r"dropping|refused)\b",
    re.I,
)
MEMORY = re.compile(r"\b(oom|memory|restart|crash|doing|health|worry|killed)\w*", re.I)
DB = re.compile(r"\b(migration|database|schema|sql)\b", re.I)


@dataclass
class Cause:
    kind: str
    statement: str
    fix: str = ""
    certain: bool = True


@dataclass
class Investigation:
    ns: str
    focus: list[str]
    causes: list[Cause] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pods: list[rd.PodView] = field(default_factory=list)
    metrics: dict[str, list[tuple[dict[str, str], list[float]]]] = field(default_factory=dict)
    recent_rollout: dict[str, str] = field(default_factory=dict)
    out_of_scope: list[str] = field(default_factory=list)
    #: per signal source, what in it supports the conclusion (for the correlation sentence)
    support: dict[str, str] = field(default_factory=dict)


def focus_workloads(prompt: str, ctx: dict[str, Any]) -> list[str]:
    deps = [r["name"] for r in ctx["deployments"]]
    pods = [r["name"] for r in ctx["pods"]]
    named = mentioned(prompt, deps + pods)
    if named:
        return named
    sick = [owner_of(r["name"], deps) or r["name"] for r in ctx["pods"] if unhealthy(r)]
    return list(dict.fromkeys(sick)) or deps[:3]


async def investigate(s: Session, ns: str, ctx: dict[str, Any], focus: list[str]) -> Investigation:
    """Read every source the symptom and the tools point at, then conclude."""
    inv = Investigation(ns, focus)
    prompt = s.task.prompt
    await _pods_and_events(s, inv, ctx)
    await _logs(s, inv, ctx)
    if TRAFFIC.search(prompt):
        await _traffic(s, inv, ctx)
    await _metrics(s, inv, ctx)
    await _traces(s, inv)
    await _history(s, inv, ctx)
    if s.has("database") and (DB.search(prompt) or any(c.kind == "schema" for c in inv.causes)):
        await _database(s, inv)
    return inv


async def _pods_and_events(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    deps = [r["name"] for r in ctx["deployments"]]
    for ev in ctx["events"]:
        msg = ev.get("message", "")
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", msg)
        if m:
            cm = m.group(2).split("/")[-1]
            inv.causes.append(
                Cause(
                    "missing-key",
                    f"ConfigMap {cm} has no key {m.group(1)}, which "
                    f"the container's environment references, so the container "
                    f"cannot start",
                    f"add the {m.group(1)} key to ConfigMap {cm} "
                    "with the right value, then restart the deployment",
                )
            )
        if "Insufficient" in msg:
            inv.notes.append(f"scheduler: {msg.split('. preemption')[0]}")
    targets = [r for r in ctx["pods"] if (owner_of(r["name"], deps) or r["name"]) in inv.focus]
    sick = [r for r in targets if unhealthy(r)]
    seen_owner: set[str] = set()
    for row in sick or targets[:1]:
        owner = owner_of(row["name"], deps) or row["name"]
        if owner in seen_owner:
            continue
        seen_owner.add(owner)
        text = await s.kubectl(
            f"describe pod {row['name']} -n {inv.ns}",
            f"described pod {row['name']}",
            "to read its container states, last termination reason and limits",
        )
        inv.pods += rd.describe_pods(text)
    for pod in inv.pods:
        for c in pod.containers:
            _container_cause(inv, pod, c)
    short = [re.search(r"Insufficient (\w+)", e.get("message", "")) for e in ctx["events"]]
    if any(short):
        await _capacity(s, inv, sorted({m.group(1) for m in short if m}))


async def _capacity(s: Session, inv: Investigation, resources: list[str]) -> None:
    """A pod the scheduler cannot place: its requests against the largest node's allocatable."""
    nodes = await s.kubectl(
        "describe nodes",
        "described the nodes",
        "to compare the pending pod's requests with what each node can offer",
    )
    for res in resources:
        alloc = [
            rd.quantity(x) or 0
            for x in re.findall(rf"Allocatable:(?:\n\s+\S+:\s+\S+)*?\n\s+{res}:\s+(\S+)", nodes)
        ]
        for pod in inv.pods:
            for c in pod.containers:
                want = rd.quantity(c.requests.get(res, ""))
                if not want or not alloc or want <= max(alloc):
                    continue
                fit = max(alloc) * 0.75
                fit_txt = f"{int(fit * 1000) // 100 * 100}m" if res == "cpu" else rd.mib(fit)
                inv.causes.append(
                    Cause(
                        "scheduling",
                        f"container {c.name} of pod {pod.name} requests {res} "
                        f"{c.requests[res]}, more than any node can allocate (largest: "
                        f"{_fmt_q(res, max(alloc))}), so the scheduler cannot place it and it stays Pending",
                        f"lower the {res} request of {c.name} to {fit_txt} so it fits a node, or add "
                        f"nodes with more {res} if the workload really needs {c.requests[res]}",
                    )
                )
                inv.notes.append(
                    f"{c.name} requests {res} {c.requests[res]}; nodes allocate at most "
                    f"{_fmt_q(res, max(alloc))}"
                )
                inv.recent_rollout["fit"] = f"{res}={fit_txt}"
                inv.recent_rollout["fit_container"] = c.name
                inv.recent_rollout["fit_from"] = c.requests[res]


def _fmt_q(res: str, value: float) -> str:
    return f"{value * 1000:.0f}m" if res == "cpu" else rd.mib(value)


def _container_cause(inv: Investigation, pod: rd.PodView, c: rd.Container) -> None:
    owner = pod.name
    if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
        limit = c.limits.get("memory", "its limit")
        inv.causes.append(
            Cause(
                "oom",
                f"container {c.name} of pod {owner} is OOMKilled (exit code "
                f"{c.exit_code or '137'}): it runs out of memory at its {limit} "
                "memory limit and the kernel kills it, hence the restarts",
                f"raise the memory limit of {c.name} above {limit} (for example "
                f"{_double(limit)}) and look for a leak if usage keeps growing",
            )
        )
    elif c.reason in ("ImagePullBackOff", "ErrImagePull"):
        inv.causes.append(
            Cause(
                "image",
                f"container {c.name} cannot pull image {c.image} ({c.reason})",
                "point the deployment back at an image that exists",
            )
        )
    elif c.init and (c.reason == "CrashLoopBackOff" or c.last_reason == "Error"):
        inv.causes.append(
            Cause(
                "init",
                f"init container {c.name} of pod {owner} fails (exit code "
                f"{c.exit_code or '?'}), so the main container never starts",
                f"fix what {c.name} trips on, then let the pod retry",
            )
        )
    for k, v in c.env.items():
        if "secret" in v.lower():
            inv.notes.append(f"env {k} of {c.name} comes from a Secret ({v})")


def _double(limit: str) -> str:
    q = rd.quantity(limit)
    return rd.mib(q * 2) if q else "twice the current value"


async def _logs(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    if not s.has("logs_query"):
        return
    deps = {r["name"] for r in ctx["deployments"]}
    for name in inv.focus:
        args: dict[str, Any] = {"namespace": inv.ns, "tail": 200}
        args["deployment" if name in deps else "pod"] = name
        text = await s.read(
            "logs_query",
            f"read the logs of {name}",
            "to find the error pattern behind the symptom",
            **args,
        )
        crashed = any(c.restarts for p in inv.pods for c in p.containers if p.name.startswith(name))
        if crashed:
            text += "\n" + await s.read(
                "logs_query",
                f"read the previous container logs of {name}",
                "to see why the last instance exited",
                previous=True,
                **args,
            )
        _log_causes(inv, name, rd.log_lines(text))
    for pod in inv.pods:
        for c in pod.containers:
            if c.init and any(x.kind == "init" for x in inv.causes):
                text = await s.read(
                    "logs_query",
                    f"read the logs of init container {c.name}",
                    "to see why the init container fails",
                    namespace=inv.ns,
                    pod=pod.name,
                    container=c.name,
                    tail=50,
                )
                errs = rd.signal_patterns(rd.log_lines(text))
                if errs:
                    for cause in inv.causes:
                        if cause.kind == "init":
                            cause.statement += f': "{errs[0][1]}"'


def _log_causes(inv: Investigation, name: str, lines: list[rd.LogLine]) -> None:
    patterns = rd.signal_patterns(lines)
    noise = sum(1 for ln in lines if ln.level in rd.NOISE_LEVELS)
    if patterns:
        inv.notes.append(
            f"logs of {name}: {len(patterns)} distinct error/warning pattern(s) among "
            f"{len(lines)} lines ({noise} routine info/debug/trace lines set aside)"
        )
    for level, msg, n in patterns:
        low = msg.lower()
        times = f"{n} time{'s' if n > 1 else ''}"
        if re.search(
            r"pool (exhausted|error)|cannot get a connection|no available connection", low
        ):
            _add(
                inv,
                Cause(
                    "pool",
                    f"{name}'s database connection pool is exhausted: every "
                    "connection is in use and requests queue for one",
                    "raise the pool size or find what holds connections (slow queries, leaks)",
                ),
                msg,
                times,
            )
        elif re.search(r"certificate (has )?expired|x509|tls handshake", low):
            hm = re.search(r"(?:connecting to|to|host)\s+([\w.-]+(?::\d+)?)", msg)
            host = hm.group(1) if hm else "the upstream"
            _add(
                inv,
                Cause(
                    "tls",
                    f"TLS handshakes from {name} fail because the certificate "
                    f"presented by {host} has expired",
                    f"renew the expired certificate on {host}",
                ),
                msg,
                times,
            )
        elif re.search(r"(column|relation|table) .* does not exist", low):
            _add(
                inv,
                Cause("schema", f"{name} queries a schema the database does not match: {msg}"),
                msg,
                times,
            )
        elif re.search(r"is not set|missing required|required environment", low):
            inv.notes.append(f'{name} log: "{msg}"')
        elif re.search(r"reset by peer|connection refused|upstream", low):
            host = re.search(r"([a-z0-9-]+(?:\.[a-z0-9-]+)*\.svc(?:\.cluster\.local)?)", low)
            if host:
                inv.out_of_scope.append(host.group(1))
            inv.causes.append(Cause("upstream", f'{name} logs "{msg}" ({times})', certain=False))
        else:
            inv.notes.append(f'{name} {level}: "{msg}" ({times})')


def as_text(obj: Any) -> str:
    return str(obj)


def _add(inv: Investigation, cause: Cause, msg: str, times: str) -> None:
    cause.statement += f' (log: "{msg}", {times})'
    inv.support.setdefault("logs", f'the "{msg}" log errors ({times})')
    if not any(c.kind == cause.kind for c in inv.causes):
        inv.causes.append(cause)


async def _traffic(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    text = await s.kubectl(
        f"get ingress,services,endpoints -n {inv.ns}",
        f"listed the ingresses, services and endpoints in {inv.ns}",
        "to follow the request path from the entry point to the pods",
    )
    ingress = re.findall(r"^ingress\S*/(\S+)", text, re.M)
    empty = re.findall(r"^endpoints/(\S+)\s+<none>", text, re.M)
    if ingress or empty:
        hop = [f"ingress {ingress[0]} gets no healthy upstream" if ingress else ""]
        for svc in empty:
            hop.append(f"service {svc} has no ready endpoints")
            pods = [p for p in ctx["pods"] if p["name"].startswith(svc + "-")]
            hop += [f"pod {p['name']} is {p['status']}" for p in pods[:1]]
        inv.chain = [h for h in hop if h]
    if s.has("logs_query"):
        wide = await s.read(
            "logs_query",
            f"read the logs of every source in {inv.ns}",
            "to catch proxy and sidecar errors along the request path",
            namespace=inv.ns,
            tail=100,
        )
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
    for p in pol:
        _policy_cause(inv, p, apps)


def _policy_cause(inv: Investigation, policy: dict[str, Any], apps: dict[str, str]) -> None:
    spec = policy.get("spec") or {}
    name = policy.get("metadata", {}).get("name", "?")
    target = (spec.get("podSelector") or {}).get("matchLabels") or {}
    allowed = [
        ((peer.get("podSelector") or {}).get("matchLabels") or {})
        for rule in spec.get("ingress") or []
        for peer in rule.get("from") or []
    ]
    selected = [d for d, sel in apps.items() if all(f"{k}={v}" in sel for k, v in target.items())]
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
    token = set(re.findall(r"\b[a-z0-9]*\d[a-z0-9]*\b", s.task.prompt.lower()))
    chosen = [t for t in traces if any(tok in str(t.get("traceID", "")) for tok in token)]
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
