"""``heldout17``'s diagnosis: follow the symptom of the workload the message names.

Reads ``describe`` (last terminations, init containers, ConfigMap refs, limits), events, logs
(current and previous run, noise filtered out), the service's metrics, traces, and the request
path in front of it (ingress -> service -> endpoints -> pods). Every conclusion is a
``Finding`` with the facts read; nothing is keyed by a scenario.
"""

from __future__ import annotations

import itertools
import re

from .operator_heldout17 import Finding, Shift, pods_of
from .operator_read import (
    bottleneck,
    describe_pods,
    load_json,
    log_lines,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    table,
    trace_tree,
)

#: what a log line means when it says this (generic failure modes, most specific first)
MEANINGS: tuple[tuple[str, str, str], ...] = (
    ("pool", "connection pool exhausted", "DB connection pool exhaustion"),
    ("tls", "certificate", "an expired TLS certificate on the upstream"),
    ("schema", "does not exist", "a schema mismatch after the DB migration"),
    ("oom", "out of memory", "memory exhaustion (OOM)"),
    ("transient", "transient", "a transient dependency failure"),
)


def focus(shift: Shift) -> list[str]:
    """The workloads the message is about: the deployments it names, else the unhappy ones."""
    names = shift.all_names()
    hit = shift.named(names)
    if hit:
        return hit
    pods = [p.get("name", "") for p in shift.pods.get(shift.ns, [])]
    hit = shift.named(pods)
    if hit:
        return hit
    words = set(re.findall(r"[a-z0-9][a-z0-9-]+", shift.prompt.lower()))
    return sorted({p for p in pods for w in words if len(w) > 3 and p.startswith(w + "-")})


async def describe(shift: Shift, ns: str, name: str) -> list:
    text = await shift.k(
        f"describe pods -n {ns} -l app={name}", f"container states and last exits of `{name}`"
    )
    views = describe_pods(text)
    if not views and name in [p.get("name") for p in shift.pods.get(ns, [])]:
        text = await shift.k(f"describe pod {name} -n {ns}", f"state of pod `{name}`")
        views = describe_pods(text)
    return views


async def logs(shift: Shift, ns: str, name: str, previous: bool = False, **extra: str) -> str:
    why = f"`{name}` logs" + (" of the crashed run" if previous else "")
    shown = f"logs_query {name} -n {ns}" + (" --previous" if previous else "")
    if extra.get("container"):
        shown += f" -c {extra['container']}"
    bare = name in [p.get("name") for p in shift.pods.get(ns, [])]
    which = {"pod": name} if bare else {"deployment": name}
    return await shift.t(
        "logs_query",
        shown,
        why,
        namespace=ns,
        **which,
        previous=previous,
        tail=200,
        **extra,
    )


def signal(text: str) -> list[tuple[str, str, int]]:
    """Warnings and errors of a log, grouped, noise (DEBUG/INFO/TRACE) left out."""
    return signal_patterns(log_lines(text))


async def series(shift: Shift, query: str, why: str) -> list[tuple[dict[str, str], list[float]]]:
    if not shift.has("metrics_query"):
        return []
    text = await shift.t(
        "metrics_query",
        f"metrics_query {query} [6h]",
        why,
        action="query_range",
        query=query,
        start="-6h",
    )
    shift.raw_metrics = text
    return prom_series(text)


def stamped(text: str, metric: str) -> list[tuple[float, float]]:
    """(unix time, value) points of one metric of a query_range answer."""
    doc = load_json(text)
    results = doc.get("data", {}).get("result", []) if isinstance(doc, dict) else []
    for r in results if isinstance(results, list) else []:
        if isinstance(r, dict) and r.get("metric", {}).get("__name__") == metric:
            try:
                return [(float(t), float(v)) for t, v in r.get("values", [])]
            except (TypeError, ValueError):
                return []
    return []


async def diagnose(shift: Shift, ns: str, name: str) -> None:
    """Everything the symptom leads to for one workload, into ``shift.findings``."""
    views = await describe(shift, ns, name)
    await config_keys(shift, ns, name)
    crashed = any(c.last_reason or c.restarts for v in views for c in v.containers)
    current = await logs(shift, ns, name)
    previous = await logs(shift, ns, name, previous=True) if crashed else ""
    await init_failures(shift, ns, name, views)
    await oom(shift, ns, name, views)
    await from_logs(shift, ns, name, current + "\n" + previous)
    probes(shift, ns, name)


def probes(shift: Shift, ns: str, name: str) -> None:
    """Readiness probes failing on some of the workload's pods while the rest serve."""
    bad = sorted(
        {
            e.get("object", "").split("/")[-1]
            for e in shift.events.get(ns, [])
            if e.get("reason") == "Unhealthy" and f"/{name}-" in e.get("object", "")
        }
    )
    if not bad or any(f.kind in ("oom", "config", "init") for f in shift.findings):
        return
    total = len(pods_of(shift, ns, name))
    msg = next(
        e.get("message", "")
        for e in shift.events.get(ns, [])
        if e.get("reason") == "Unhealthy" and f"/{name}-" in e.get("object", "")
    )
    shift.numbers.append((f"`{name}` pods failing readiness", f"`{len(bad)}/{total}`"))
    shift.findings.append(
        Finding(
            cause=f"pod `{bad[0]}` of `{name}` is wedged: its readiness probe fails (`{msg[:70]}`) while the others answer `/healthz` 200, so it gets no traffic and the deploy is short of capacity",
            chain=[
                f"`{bad[0]}` stops answering its probe",
                "pulled from the Service endpoints",
                f"`{name}` Available=False / fewer backends",
            ],
            facts=[
                f"`{len(bad)}/{total}` pods unready",
                f"event `{msg[:80]}`",
                "no OOM, no config error, no crash in its log",
            ],
            fix=f"a rolling restart of `{name}` to replace the wedged pod, then check all pods go Ready",
            kind="probe",
        )
    )


async def config_keys(shift: Shift, ns: str, name: str) -> None:
    """A ``couldn't find key K in ConfigMap ns/cm`` event, confirmed on the ConfigMap."""
    for ev in shift.events.get(ns, []):
        msg = ev.get("message", "")
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)/(\S+)", msg)
        if not m or name not in ev.get("object", ""):
            continue
        key, cm = m.group(1), m.group(3)
        if any(f.kind == "config" for f in shift.findings):
            return
        data = await shift.k(f"get configmap {cm} -n {ns} -o yaml", f"is `{key}` really absent")
        has = re.search(rf"^\s+{re.escape(key)}:", data, re.M) is not None
        keys = re.findall(r"^  (\w[\w.-]*):", data.split("data:", 1)[-1], re.M)
        shift.numbers.append((f"`{cm}` keys", ", ".join(f"`{k}`" for k in keys[:6]) or "-"))
        shift.findings.append(
            Finding(
                cause=f"the CM `{cm}` has no `{key}` key, which `{name}` reads at start-up",
                chain=[f"CM `{cm}` missing `{key}`", "container can't start", "CrashLoopBackOff"],
                facts=[
                    f"event: `{msg[:120]}`",
                    f"`{cm}` holds only {len(keys)} key(s), no `{key}`",
                ],
                fix=f"add `{key}` to `{cm}` with the right value (whoever owns SMTP/app config knows it), then the pods restart clean",
                sure=not has,
                kind="config",
            )
        )


async def init_failures(shift: Shift, ns: str, name: str, views: list) -> None:
    """An init container that exited non-zero: its logs name the failure."""
    for v in views:
        for c in v.containers:
            if not c.init or not (
                c.exit_code not in ("", "0") or "Error" in c.reason + c.last_reason or c.restarts
            ):
                continue
            text = await shift.k(
                f"logs {v.name} -n {ns} -c {c.name} --previous",
                f"why init container `{c.name}` fails",
            )
            if not text.strip() or "error" not in text.lower():
                text = await shift.k(f"logs {v.name} -n {ns} -c {c.name}", f"init `{c.name}` log")
            line = next((ln for ln in text.splitlines() if "error" in ln.lower()), "").strip()
            shift.findings.append(
                Finding(
                    cause=f"init container `{c.name}` of `{name}` fails" + _meaning(line),
                    chain=[
                        f"init `{c.name}` exits {c.exit_code or 'non-zero'}",
                        f"`{name}` never starts",
                    ],
                    facts=[f"`{c.name}` restarts `{c.restarts}`, exit `{c.exit_code or '?'}`"]
                    + ([f"log: `{line[:140]}`"] if line else []),
                    fix="fix the migration itself (make it idempotent / mark it applied) with the owner of the schema; restarting won't help",
                    kind="init",
                )
            )
            return


def _meaning(line: str) -> str:
    """An init container's error line said in words: which step failed and why."""
    if not line:
        return ""
    mig = re.search(r"migration\s+(\S+?)\s+failed:?\s*(.*)", line, re.I)
    if mig:
        why = mig.group(2).strip() or "an error"
        return (
            f": its DB schema migration `{mig.group(1)}` fails because {why} "
            "(the change was already applied, at least partly), so the migration step "
            f"exits non-zero every time (log: `{line[:120]}`)"
        )
    return f": it exits on `{line[:140]}`"


async def oom(shift: Shift, ns: str, name: str, views: list) -> None:
    """OOMKilled last terminations against the memory limit and its trend."""
    killed = [c for v in views for c in v.containers if "OOM" in c.last_reason + c.reason]
    if not killed:
        return
    c = killed[0]
    limit = c.limits.get("memory", "")
    found = await series(
        shift,
        f'container_memory_working_set_bytes{{namespace="{ns}", pod=~"{name}-.*"}}',
        f"memory of `{name}` over time vs its limit",
    )
    values = next((v for _, v in found if v), [])
    facts = [f"last state `OOMKilled`, restarts `{c.restarts}`", f"mem limit `{limit or 'none'}`"]
    if values:
        rising = all(b >= a for a, b in itertools.pairwise(values)) and values[-1] > values[0]
        facts.append(
            f"working set `{mib(values[0])}` -> `{mib(values[-1])}` over 6h"
            + (" (only goes up)" if rising else "")
        )
        shift.numbers.append((f"`{name}` mem (6h)", f"`{mib(values[0])}` -> `{mib(values[-1])}`"))
    if limit:
        shift.numbers.append((f"`{name}` mem limit", f"`{limit}`"))
    cap = quantity(limit) if limit else None
    bigger = f"{int(cap * 2 / 2**20)}Mi" if cap else "2x the current value"
    shift.findings.append(
        Finding(
            cause=f"`{name}` is OOMKilled: it runs out of memory against its `{limit or '?'}` limit",
            chain=["memory grows to the limit", "kernel OOM kill", "restart loop"],
            facts=facts,
            fix=f"raise `{name}`'s memory limit to `{bigger}` (and request to match), then look for the leak",
            kind="oom",
        )
    )


async def from_logs(shift: Shift, ns: str, name: str, text: str) -> None:
    """The recurring warnings/errors of the workload's own log and what they mean."""
    patterns = signal(text)
    if not patterns:
        return
    for level, msg, count in patterns[:3]:
        shift.numbers.append((f"`{level}` x{count}", f"`{msg[:90]}`"))
    blob = " ".join(m.lower() for _, m, _ in patterns)
    for kind, needle, meaning in MEANINGS:
        if needle in blob and not any(f.kind == kind for f in shift.findings):
            top = next(m for _, m, _ in patterns if needle in m.lower())
            count = sum(n for _, m, n in patterns if needle in m.lower())
            shift.findings.append(
                Finding(
                    cause=f"{meaning} in `{name}`",
                    chain=[f"log `{top[:80]}` x{count}"],
                    facts=[f"`{top[:140]}` seen `{count}`x in `{name}`'s log"],
                    kind=kind,
                )
            )
    shift.headline = shift.headline or patterns[0][1]


async def traces(shift: Shift, name: str, trace_id: str = "") -> None:
    """The slowest trace of the service (or the one named) and its bottleneck span."""
    if not shift.has("traces_query"):
        return
    if not trace_id:
        found = await shift.t(
            "traces_query",
            f"traces_query search service={name} min_duration=1s",
            f"slow requests of `{name}`",
            action="search",
            service=name,
            min_duration="1s",
        )
        ids = re.findall(r"\b[0-9a-f]{6,32}\b", found)
        trace_id = ids[0] if ids else ""
    if not trace_id:
        return
    tree = await shift.t(
        "traces_query", f"traces_query get {trace_id}", "span tree", action="get", trace_id=trace_id
    )
    spans = trace_tree(tree)
    path, worst = bottleneck(spans)
    if worst is None:
        return
    hops = [f"`{s.service}` {s.operation} ({s.ms:.0f} ms)" for s in path]
    shift.numbers.append(
        ("slowest span", f"`{worst.service}` `{worst.operation[:60]}` `{worst.ms:.0f} ms`")
    )
    if spans:
        shift.numbers.append(("whole trace", f"`{spans[0].ms:.0f} ms`"))
    attrs = f" ({worst.attrs[:120]})" if worst.attrs else ""
    shift.findings.append(
        Finding(
            cause=f"the `{worst.operation[:80]}` span in `{worst.service}` takes `{worst.ms:.0f} ms` of the request{attrs}",
            chain=hops,
            facts=[f"trace `{trace_id}`: " + " -> ".join(hops)],
            kind="trace",
        )
    )


async def service_numbers(shift: Shift, ns: str, name: str) -> dict[str, list[float]]:
    """Every series the metrics backend keeps for the service over 6h, by metric name."""
    out: dict[str, list[float]] = {}
    for labels, values in await series(
        shift, f'{{namespace="{ns}", service="{name}"}}', f"`{name}`'s own numbers over 6h"
    ):
        metric = labels.get("__name__", "")
        if metric and values and metric not in out:
            out[metric] = values
    return out


async def request_path(shift: Shift, ns: str) -> tuple[list[str], list[str]]:
    """Ingress -> service -> endpoints: (the hops read, the apps behind empty services)."""
    ing = table(await shift.k(f"get ingress -n {ns}", "what fronts the public traffic"))
    if not ing:
        return [], []
    desc = await shift.k(f"describe ingress -n {ns}", "which services the ingress routes to")
    backends = sorted(set(re.findall(r"^\s+\S*\s+(\S+):\d+\s", desc, re.M)))
    hops = [f"ingress `{ing[0].get('name', '?')}` answers 503"]
    apps: list[str] = []
    for svc in backends:
        ep = await shift.k(f"get endpoints {svc} -n {ns}", f"does `{svc}` have ready backends")
        rows = table(ep)
        if rows and rows[0].get("endpoints", "") in ("", "<none>"):
            sel = await shift.k(f"get svc {svc} -n {ns} -o wide", f"which pods `{svc}` selects")
            app = re.search(r"app=([\w.-]+)", sel)
            apps.append(app.group(1) if app else svc)
            hops.append(f"svc `{svc}` has no ready endpoints")
    if shift.has("logs_query"):
        text = await shift.t(
            "logs_query",
            f'logs_query {{namespace="{ns}"}} |= "upstream"',
            "what the proxies in front of it log about the upstream",
            query=f'{{namespace="{ns}"}} |= "upstream"',
            tail=50,
        )
        for _level, msg, count in signal(text)[:1]:
            shift.numbers.append((f"proxy log x{count}", f"`{msg[:90]}`"))
            hops.insert(1, f"the mesh proxy gets `{msg[:60]}` from the backend")
    return hops, apps


def load_doc(text: str) -> dict:
    doc = load_json(text)
    return doc if isinstance(doc, dict) else {}


async def memory_view(shift: Shift, ns: str, name: str) -> None:
    """Working set over 6h against the container's memory limit: trend, headroom, ETA."""
    views = (
        describe_pods(
            await shift.k(f"describe pods -n {ns} -l app={name}", f"`{name}`'s memory limit")
        )
        if not any(k == f"`{name}` mem limit" for k, _ in shift.numbers)
        else []
    )
    limit = next(
        (c.limits.get("memory", "") for v in views for c in v.containers if not c.init), ""
    )
    found = await series(
        shift,
        f'container_memory_working_set_bytes{{namespace="{ns}", pod=~"{name}-.*"}}',
        f"`{name}` memory over 6h, not just now",
    )
    values = next((v for _, v in found if v), [])
    if not values:
        return
    first, last = values[0], values[-1]
    cap = quantity(limit) if limit else None
    rising = all(b >= a * 0.98 for a, b in itertools.pairwise(values)) and last > first * 1.2
    shift.numbers += [(f"`{name}` working set", f"`{mib(first)}` (6h ago) -> `{mib(last)}` (now)")]
    if cap:
        shift.numbers.append((f"`{name}` mem limit", f"`{limit}` ({last / cap:.0%} used)"))
    if not rising:
        shift.dismissed.append(f"`{name}` memory is flat around `{mib(last)}`")
        return
    per_h = (last - first) / 6
    eta = f"~`{(cap - last) / per_h:.1f}h`" if cap and per_h > 0 and cap > last else "soon"
    shift.findings.append(
        Finding(
            cause=f"`{name}`'s memory only goes up: `{mib(first)}` -> `{mib(last)}` in 6h (~`{mib(per_h)}`/h)"
            + (
                f", that's {last / cap:.0%} of its `{limit}` limit; at this rate it hits the limit and gets OOMKilled in {eta}"
                if cap
                else ""
            ),
            chain=[
                "steady growth (leak?)",
                f"reaches the `{limit or '?'}` limit",
                "OOMKill + restart",
            ],
            facts=[
                f"working set `{mib(first)}` -> `{mib(last)}` over 6h",
                f"limit `{limit or 'none'}`",
            ],
            fix=f"not urgent this minute, but before ~{eta}: take a heap profile / find the leak; as a stopgap raise the limit or schedule a restart",
            kind="memtrend",
        )
    )


def correlate(shift: Shift, name: str) -> None:
    """Metrics, logs and traces saying the same thing, told as one story (the log's cause
    first, then what the trace and the latency series show of it)."""
    cause = next((f for f in shift.findings if f.kind in ("pool", "tls", "schema")), None)
    trace = next((f for f in shift.findings if f.kind == "trace"), None)
    lat = next(
        ((m, v) for m, v in sorted(shift.series.items()) if "latency" in m and "normal" not in m),
        None,
    )
    base = next(
        (v for m, v in sorted(shift.series.items()) if "normal" in m and "latency" in m), None
    )
    if cause is None or (trace is None and lat is None):
        return
    parts = [f"logs: {cause.facts[0]}" if cause.facts else f"logs: {cause.cause}"]
    if trace is not None:
        parts.append(f"traces: {trace.cause}")
    if lat is not None:
        metric, v = lat
        normal = f" against a normal `{base[-1]:.0f} ms`" if base else ""
        parts.append(
            f"metrics: `{metric}` is `{v[-1]:.0f} ms`{normal}, up from `{v[0]:.0f} ms` 6h ago"
        )
    shift.findings.insert(
        0,
        Finding(
            cause=f"{cause.cause}: logs, traces and metrics all point at it",
            chain=[
                "pool maxed out" if cause.kind == "pool" else cause.cause,
                "requests wait for a connection" if cause.kind == "pool" else "requests fail",
                "the DB span eats the request time" if trace else "latency up",
                f"`{name}` p99 up",
            ],
            facts=parts,
            fix=cause.fix,
            kind=cause.kind + "+",
        ),
    )
