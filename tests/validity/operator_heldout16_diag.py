"""``heldout16``'s investigation of one workload (issue 27, fairness): pod states, events,
logs, metrics, traces, rollout history, migrations, network policies; then the finding with
the most specific evidence, in a causal chain, and the minimal fix it implies.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout16 import Shift, mib, to_bytes, to_millicores

#: what a recurring log line means (generic knowledge of application errors)
LOG_MEANING: tuple[tuple[str, str], ...] = (
    ("pool exhausted", "database connection pool exhaustion"),
    ("cannot get a connection", "database connection pool exhaustion"),
    ("certificate expired", "an expired TLS certificate on the upstream"),
    ("tls handshake", "a TLS handshake failure to the upstream"),
    ("does not exist", "a schema mismatch between the code and the database migration"),
    ("relation already exists", "a failed database migration"),
    ("exception", "an application exception"),
    ("connection refused", "a dependency refusing connections"),
    ("reset by peer", "upstream connections being reset"),
)


@dataclass
class Diagnosis:
    kind: str = "uncertain"
    summary: list[str] = field(default_factory=list)
    fix: list[tuple[str, str, str]] = field(default_factory=list)
    fix_text: str = ""
    risky: str = ""


def subject_pods(subject: str, pods: dict[str, Any]) -> dict[str, Any]:
    """Pods of a deployment (app label or name prefix), or the pod itself."""
    if subject in pods:
        return {subject: pods[subject]}
    return {
        n: p
        for n, p in sorted(pods.items())
        if (p.get("metadata", {}).get("labels") or {}).get("app") == subject
        or re.fullmatch(rf"{re.escape(subject)}-[a-z0-9]+-[a-z0-9]+", n)
    }


def _container_facts(pod: dict[str, Any]) -> list[str]:
    """Each container's waiting reason, last termination and restarts, in words."""
    facts = []
    status = pod.get("status", {})
    for kind in ("initContainerStatuses", "containerStatuses"):
        for c in status.get(kind) or []:
            waiting = (c.get("state") or {}).get("waiting") or {}
            last = (c.get("lastState") or {}).get("terminated") or {}
            bits = []
            if waiting.get("reason"):
                bits.append(f"waiting in {waiting['reason']}")
            if last.get("reason"):
                bits.append(f"last terminated {last['reason']} (exit code {last.get('exitCode')})")
            if c.get("restartCount"):
                bits.append(f"{c['restartCount']} restarts")
            if bits:
                label = "init container" if kind.startswith("init") else "container"
                facts.append(f"{label} {c.get('name')}: {', '.join(bits)}")
    return facts


def _errors(text: str) -> Counter[str]:
    """ERROR / WARN / FATAL messages of a log read, counted (timestamps and labels dropped)."""
    found: Counter[str] = Counter()
    for line in text.splitlines():
        m = re.search(r"\b(ERROR|WARN|WARNING|FATAL|CRITICAL)\b:?\s*(.*)", line)
        if m:
            found[f"{m.group(1)}: {m.group(2).strip()}"] += 1
    return found


def _meaning(line: str) -> str:
    low = line.lower()
    return next((m for key, m in LOG_MEANING if key in low), "")


async def _metrics(shift: Shift, subject: str) -> dict[str, list[float]]:
    """Every service-level metric of the subject over the last 6 h (oldest first)."""
    if not shift.has("metrics_query") or not subject:
        return {}
    names = json.loads(
        await shift.use("metrics_query", "list the metrics exposed", action="metric_names") or "{}"
    )
    series: dict[str, list[float]] = {}
    for name in sorted(names.get("data") or []):
        if name.startswith(("kube_", "instance:")):
            continue
        out = await shift.use(
            "metrics_query",
            f"read {name} of {subject} over time",
            action="query_range",
            query=f'{name}{{service="{subject}"}}',
            start="-6h",
            step="10m",
        )
        try:
            result = json.loads(out)["data"]["result"]
        except (ValueError, KeyError, TypeError):
            continue
        if result:
            series[name] = [float(v) for _, v in result[0].get("values", [])]
    return series


async def _logs(shift: Shift, subject: str, pods: dict[str, Any]) -> tuple[Counter[str], int]:
    """Error lines of the subject's containers (current, previous, failing init containers)."""
    if not shift.has("logs_query") or not subject:
        return Counter(), 0
    key = {"pod": subject} if subject in shift.pods else {"deployment": subject}
    text = await shift.use(
        "logs_query", f"read {subject}'s logs", namespace=shift.ns, tail=300, **key
    )
    total = len([x for x in text.splitlines() if x.strip()])
    if any("restarts" in f for p in pods.values() for f in _container_facts(p)):
        text += "\n" + await shift.use(
            "logs_query",
            "logs of the crashed instance",
            namespace=shift.ns,
            previous=True,
            tail=100,
            **key,
        )
    for p in pods.values():
        for c in p.get("status", {}).get("initContainerStatuses") or []:
            if not c.get("ready"):
                text += "\n" + await shift.use(
                    "logs_query",
                    f"logs of the failing init container {c['name']}",
                    namespace=shift.ns,
                    container=c["name"],
                    tail=100,
                    **key,
                )
    return _errors(text), total


async def diagnose(shift: Shift, subject: str) -> Diagnosis:
    """Read everything about the subject, then state the best-supported cause."""
    r = shift.report
    pods = subject_pods(subject, shift.pods)
    if subject in shift.deployments:
        await shift.kubectl(
            f"describe deployment {subject} -n {shift.ns}",
            "read the workload's spec and conditions",
        )
    for name in sorted(pods)[:2]:
        await shift.kubectl(f"describe pod {name} -n {shift.ns}", "read the pod's state and events")
    facts = {n: _container_facts(p) for n, p in pods.items()}
    for name, fs in sorted(facts.items()):
        if fs:
            r.evidence.append(f"Pod {name}: {'; '.join(fs)}.")
    events = [
        e
        for e in shift.events.splitlines()
        if any(p in e for p in pods) or (subject and f"/{subject}" in e)
    ]
    errors, total = await _logs(shift, subject, pods)
    series = await _metrics(shift, subject)
    diag = Diagnosis()
    for finder in (
        _network,
        _missing_key,
        _oom,
        _unschedulable,
        _init_failed,
        _migration,
        _recent_deploy,
        _log_pattern,
        _memory_risk,
        _not_ready,
    ):
        found = await finder(shift, subject, pods, events, errors, series)
        if found:
            diag = found
            break
    if not errors and total:
        r.evidence.append(
            f"Logs of {subject}: {total} line(s) read, no ERROR or WARN line: nothing in them explains it."
        )
    if errors:
        kept = ", ".join(f'"{e}" x{n}' for e, n in errors.most_common(3))
        r.evidence.append(f"Logs of {subject}: {total} line(s) read, signal kept: {kept}.")
    if diag.kind == "uncertain":
        diag.summary = [
            f"{subject}: {'; '.join(functools.reduce(operator.iadd, facts.values(), [])) or 'pods Running'}"
        ]
        diag.summary += [f"logs: {e} (x{n})" for e, n in errors.most_common(2)]
        diag.summary += _series_lines(series)
        r.cause.append(
            "Not confirmed. The signals read do not single out one cause: "
            + "; ".join(diag.summary)
        )
    return diag


def with_unit(name: str, value: float) -> str:
    """A metric value in the unit its name implies: a ratio as %, a latency in ms, bytes."""
    if "bytes" in name:
        return mib(value)
    if "latency" in name or name.endswith("_ms"):
        return f"{value:g} ms"
    if "rate" in name and value <= 1:
        return f"{value * 100:g}%"
    return f"{value:g}"


def _series_lines(series: dict[str, list[float]]) -> list[str]:
    out = []
    for name, vals in sorted(series.items()):
        if vals and "memory" not in name:
            out.append(
                f"{name} {with_unit(name, vals[0])} six hours ago, {with_unit(name, vals[-1])} now"
            )
    return out


async def _missing_key(
    shift: Shift, subject: str, pods: Any, events: list[str], *_: Any
) -> Diagnosis | None:
    for e in events:
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", e)
        if m:
            key, cm = m.group(1), m.group(3)
            data = (
                await shift.json(
                    f"get configmap {cm} -n {shift.ns}", "confirm which keys the ConfigMap has"
                )
            ).get("data") or {}
            shift.report.cause.append(
                f"ConfigMap {cm} has no key {key} (its keys: {', '.join(sorted(data)) or 'none'}), which "
                f"the {subject} container references through configMapKeyRef, so the container cannot "
                f"start and the pods are left in CrashLoopBackOff."
            )
            shift.report.evidence.append(f'Event: "{e.split("Warning", 1)[-1].strip()}".')
            shift.report.impact.append(
                f"All {len(pods)} {subject} pod(s) are down; nothing it serves is being delivered."
            )
            shift.report.next_steps.append(
                f"Add {key} with the correct value to ConfigMap {cm} (value to be confirmed by the service owner), then restart {subject}."
            )
            return Diagnosis("missing_key", [f"missing key {key} in {cm}"])
    return None


async def _oom(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Any, series: dict[str, list[float]]
) -> Diagnosis | None:
    if not any("OOMKilled" in f for p in pods.values() for f in _container_facts(p)):
        return None
    r = shift.report
    dep = shift.deployments.get(subject, {})
    containers = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    limit = (containers[0].get("resources") or {}).get("limits", {}).get("memory", "")
    mem = series.get("container_memory_working_set_bytes") or []
    trend = ""
    if len(mem) >= 2:
        trend = f"working set rose from {mib(mem[0])} to {mib(mem[-1])} over the window read"
        r.evidence.append(
            f"Memory metrics of {subject}: {trend}"
            + (f", against a limit of {limit}." if limit else ".")
        )
    await _misleading(shift, subject, pods)
    r.cause.append(
        f"{subject}'s container is OOMKilled (exit code 137): its memory use reaches the "
        f"{limit or 'configured'} limit, the kernel kills it, which causes the restarts."
    )
    r.impact.append(f"{subject} restarts repeatedly; requests in flight are dropped at each kill.")
    diag = Diagnosis("oom", [f"OOMKilled at limit {limit}"])
    if limit and subject in shift.deployments:
        new = f"{int(to_bytes(limit) * 2 / 2**20)}Mi"
        patch = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {
                                    "name": containers[0].get("name", subject),
                                    "resources": {"limits": {"memory": new}},
                                }
                            ]
                        }
                    }
                }
            }
        )
        diag.fix = [
            (
                f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{patch}'",
                "raise the memory limit that the container hits",
                f"memory limit {limit} -> {new}",
            )
        ]
        diag.fix_text = f"raise {subject}'s memory limit from {limit} to {new} (requests unchanged), then watch for OOMKilled"
    return diag


async def _misleading(shift: Shift, subject: str, pods: Any) -> None:
    """When the prompt points at CPU or the node, check it and say why it is not the cause."""
    if not re.search(r"\bcpu\b|\bnode\b", shift.low):
        return
    nodes = {p.get("spec", {}).get("nodeName") for p in pods.values()} - {None}
    busy = [
        (n, p)
        for n, p in sorted(shift.pods.items())
        if n not in pods
        and p.get("spec", {}).get("nodeName") in nodes | {"node-1"}
        and p.get("status", {}).get("phase") == "Running"
    ]
    cpu = ""
    if shift.has("metrics_query"):
        out = await shift.use(
            "metrics_query",
            "check the node CPU the operator mentioned",
            action="query",
            query="instance:node_cpu_utilisation:rate5m",
        )
        vals = re.findall(r'"instance":\s*"([^"]+)".*?"value":\s*\[[^,]+,\s*"([\d.]+)"', out, re.S)
        cpu = ", ".join(f"{i} at {float(v) * 100:.0f}%" for i, v in vals)
    neighbour = next((n for n, p in busy if not n.startswith(subject)), "")
    shift.report.ruled_out.append(
        f"Node CPU ({cpu or 'reported pegged'}) was considered and discarded as the cause: it comes "
        f"from another workload{f' ({neighbour})' if neighbour else ''}, and CPU pressure throttles a "
        f"container but does not kill it; {subject}'s restarts are OOM kills, which only memory explains."
    )


async def _unschedulable(
    shift: Shift, subject: str, pods: Any, events: list[str], *_: Any
) -> Diagnosis | None:
    e = next((x for x in events if "FailedScheduling" in x and "Insufficient cpu" in x), "")
    if not e or subject not in shift.deployments:
        return None
    from .operator_heldout16_work import cpu_fit

    r = shift.report
    c = shift.deployments[subject]["spec"]["template"]["spec"]["containers"][0]
    request = (c.get("resources") or {}).get("requests", {}).get("cpu", "0")
    nodes = await shift.json("get nodes", "read node allocatable CPU")
    alloc = [
        to_millicores(n.get("status", {}).get("allocatable", {}).get("cpu", "0"))
        for n in nodes.get("items", [])
    ]
    new = cpu_fit(alloc, to_millicores(request))
    r.cause.append(
        f"{subject} requests {request} CPU per pod, more than any node can offer (allocatable "
        f"{', '.join(f'{a}m' for a in alloc)}), so the scheduler cannot place the pods and they stay Pending."
    )
    r.evidence.append(f'Event: "{e.split("Warning", 1)[-1].strip()}".')
    r.impact.append(f"No {subject} pod runs; its work is not being processed.")
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": c["name"], "resources": {"requests": {"cpu": f"{new}m"}}}
                        ]
                    }
                }
            }
        }
    )
    return Diagnosis(
        "unschedulable",
        [e],
        [
            (
                f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{patch}'",
                f"the CPU request of {request} exceeds node allocatable; {new}m fits with headroom",
                f"cpu request {request} -> {new}m",
            )
        ],
        f"lower {subject}'s CPU request from {request} to {new}m so it fits a node",
    )


async def _init_failed(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Counter[str], *_: Any
) -> Diagnosis | None:
    failing = [
        c["name"]
        for p in pods.values()
        for c in p.get("status", {}).get("initContainerStatuses") or []
        if not c.get("ready")
    ]
    if not failing:
        return None
    r = shift.report
    err = next(
        (e for e in errors if "migration" in e.lower() or "error" in e.lower()),
        "its logs show no error line",
    )
    chain = await _path_to(shift, subject)
    r.cause.append(
        f'The init container {failing[0]} of {subject} fails ("{err}"), which keeps every {subject} '
        f"pod from starting, which leaves its Service without endpoints"
        + (f", which makes {chain}" if chain else "")
        + "."
    )
    r.impact.append(f"{subject} serves nothing; every request routed to it fails.")
    r.next_steps.append(
        f"Fix the failing step of {failing[0]} (make the migration idempotent or mark it applied), then let the pods start; no change was made."
    )
    return Diagnosis("init", [err])


async def _path_to(shift: Shift, subject: str) -> str:
    """Ingress -> Service -> endpoints for the subject, as read; '' when nothing routes to it."""
    ing = await shift.json(f"get ingress -n {shift.ns}", "find what routes traffic to the workload")
    hops = []
    for item in ing.get("items", []):
        for rule in item.get("spec", {}).get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                svc = path.get("backend", {}).get("service", {}).get("name")
                if svc:
                    hops.append((item["metadata"]["name"], rule.get("host", ""), svc))
    if not hops:
        return ""
    ingress, host, svc = hops[0]
    eps = await shift.kubectl(
        f"get endpoints {svc} -n {shift.ns}", "check whether the Service has ready endpoints"
    )
    mesh = ""
    if shift.has("logs_query"):
        out = await shift.use(
            "logs_query",
            "what the proxy in front saw",
            query=f'{{namespace="{shift.ns}"}} |= "upstream"',
            tail=20,
        )
        mesh = next(
            (ln.split("}", 1)[-1].strip() for ln in out.splitlines() if "upstream" in ln), ""
        )
    shift.report.evidence.append(
        f"Ingress {ingress} ({host}) routes to Service {svc}; endpoints: {eps.strip().splitlines()[-1] if eps.strip() else 'unknown'}."
    )
    if mesh:
        shift.report.evidence.append(f'Proxy / sidecar log: "{mesh}".')
    return f"the proxy's upstream connections to {svc} fail (connection refused), which makes ingress {ingress} return 503"


async def _migration(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Counter[str], *_: Any
) -> Diagnosis | None:
    if not shift.has("database") or not any("does not exist" in e for e in errors):
        return None
    r = shift.report
    status = await shift.use(
        "database", "read the schema migration history", query="migrations status"
    )
    rows = [ln for ln in status.splitlines() if re.match(r"\|\s*\w+\s*\|\s*\d+", ln)]
    last = [c.strip() for c in rows[-1].split("|")[1:-1]] if rows else []
    err = next(e for e in errors if "does not exist" in e)
    named = re.search(r"(column|relation|table)\s+'?\"?([\w.]+)", err)
    column = f"{named.group(1)} {named.group(2)}" if named else "the objects it created"
    desc = (
        f"migration {last[1]} ({last[2]}, applied {last[4]})"
        if len(last) >= 5
        else "the last migration"
    )
    r.cause.append(
        f'{subject}\'s code and the database schema disagree after {desc}: "{err}", which makes its queries fail and the pod crash.'
    )
    r.evidence.append(f"Migration history: {len(rows)} migration(s), latest {desc}.")
    r.impact.append(
        f"{subject} is down; rows written since {desc} exist only under the new schema."
    )
    r.ruled_out.append(
        f"A rollback of {desc} was not run: it would drop {column} from {subject}'s database and "
        f"with it every value written to it since it was applied, a data loss that cannot be undone."
    )
    d = Diagnosis("migration", [err])
    d.fix = [("", "", "")]
    d.fix_text = (
        f"either roll {subject} forward to a build that matches the new schema, or roll back {desc} "
        "after a backup of the affected tables (data written since then would be lost)"
    )
    d.risky = (
        f"rolling back {desc} would drop {column} and the {subject} data written to it since then "
        "(irreversible data loss)"
    )
    return d


async def _recent_deploy(
    shift: Shift,
    subject: str,
    pods: Any,
    events: list[str],
    errors: Any,
    series: dict[str, list[float]],
) -> Diagnosis | None:
    rate = series.get("error_rate") or []
    if subject not in shift.deployments or len(rate) < 2 or rate[-1] <= 2 * max(rate[0], 1e-6):
        return None
    rs = await shift.json(
        f"get replicasets -n {shift.ns} -l app={subject}",
        "read the rollout history (images, times)",
    )
    sets = sorted(rs.get("items", []), key=lambda x: x["metadata"].get("creationTimestamp", ""))
    images = [
        (
            s["metadata"].get("creationTimestamp", ""),
            s["spec"]["template"]["spec"]["containers"][0]["image"],
        )
        for s in sets
    ]
    await shift.kubectl(
        f"rollout history deployment/{subject} -n {shift.ns}", "check for a recent deployment"
    )
    onset = next((i for i, v in enumerate(rate) if v > 2 * max(rate[0], 1e-6)), len(rate) - 1)
    minutes = (len(rate) - 1 - onset) * 10
    scaled = next((e for e in events if "ScalingReplicaSet" in e), "")
    r = shift.report
    cur = images[-1][1] if images else "the current image"
    prev = images[-2][1] if len(images) > 1 else "the previous image"
    r.cause.append(
        f"The rollout of {cur} (previously {prev}) introduced the errors: the error rate rose from "
        f"{rate[0] * 100:.1f}% to {rate[-1] * 100:.1f}% starting about {minutes} min ago, just after the deployment."
    )
    r.evidence.append(
        f"error_rate of {subject}: {rate[0] * 100:.1f}% before, {rate[onset] * 100:.1f}% at onset, {rate[-1] * 100:.1f}% now."
    )
    if scaled:
        r.evidence.append(f'Event: "{" ".join(scaled.split()[1:])}".')
    r.impact.append(f"About {rate[-1] * 100:.0f}% of {subject}'s requests fail.")
    return Diagnosis(
        "deploy",
        [cur],
        [
            (
                f"rollout undo deployment/{subject} -n {shift.ns}",
                "roll back the release that introduced the errors",
                f"image {cur} -> {prev}",
            )
        ],
        f"roll {subject} back from {cur} to {prev} (kubectl rollout undo)",
    )


async def _log_pattern(
    shift: Shift,
    subject: str,
    pods: Any,
    events: Any,
    errors: Counter[str],
    series: dict[str, list[float]],
) -> Diagnosis | None:
    meant = [(e, n, _meaning(e)) for e, n in errors.most_common() if _meaning(e)]
    if not meant or meant[0][2] == "upstream connections being reset" or "transient" in meant[0][0]:
        return None
    r = shift.report
    line, count, meaning = meant[0]
    chain = f'{meaning} ("{line}", seen {count}x), which'
    now = {
        k: v
        for k, v in sorted(series.items())
        if "latency" in k and not k.startswith("normal") and v
    }
    normal = {
        k: v for k, v in sorted(series.items()) if "latency" in k and k.startswith("normal") and v
    }
    risen = [
        (k, v) for k, v in sorted(series.items()) if len(v) > 1 and v[-1] > 2 * max(v[0], 1e-9)
    ]
    if now:
        name, vals = next(iter(now.items()))
        base = next(iter(normal.values()))[-1] if normal else vals[0]
        chain += (
            f" holds requests until a connection frees up, which drove {name} to "
            f"{with_unit(name, vals[-1])} against a normal {with_unit(name, base)}"
        )
    elif risen:
        name, vals = risen[0]
        chain += (
            f" slows the service, which shows in its metrics: {name} rose from "
            f"{with_unit(name, vals[0])} to {with_unit(name, vals[-1])}"
        )
    else:
        chain += " fails the affected requests"
    r.cause.append(f"{subject}: {chain}.")
    span = await _trace_support(shift, subject)
    if span:
        r.cause.append(f"The trace confirms the same cause: {span}.")
    return Diagnosis("logs", [line])


async def _trace_support(shift: Shift, subject: str) -> str:
    """The slowest trace of the subject: its spans as evidence; its deepest span, in words."""
    if not shift.has("traces_query"):
        return ""
    found = json.loads(
        await shift.use(
            "traces_query",
            "find slow traces of the service",
            action="search",
            service=subject,
            min_duration="1s",
        )
        or "{}"
    )
    ids = [t["traceID"] for t in found.get("data") or []]
    if not ids:
        return ""
    tree = await shift.use(
        "traces_query", "read the slowest trace's spans", action="get", trace_id=ids[0]
    )
    spans = [ln.strip(" └─│") for ln in tree.splitlines()[1:] if "ms" in ln]
    if not spans:
        return ""
    shift.report.evidence.append(f"Trace {ids[0][:12]}: " + " -> ".join(spans))
    m = re.match(r"([\w.-]+): (.+?)\s+(\d+)ms.*?(?:\[(.*)\])?$", spans[-1])
    top = re.search(r"(\d+)ms", spans[0])
    if not m or not top:
        return ""
    attrs = f" with {m.group(4)}" if m.group(4) else ""
    return (
        f"in trace {ids[0][:12]} the {m.group(2)} span of {m.group(1)} took {m.group(3)} ms of the "
        f"request's {top.group(1)} ms{attrs}, which matches requests waiting on the pool"
        if "pool" in (m.group(4) or "")
        else f"in trace {ids[0][:12]} the {m.group(2)} span of {m.group(1)} took {m.group(3)} ms "
        f"of the request's {top.group(1)} ms{attrs}"
    )


async def _not_ready(shift: Shift, subject: str, pods: Any, *_: Any) -> Diagnosis | None:
    bad = [
        n
        for n, p in pods.items()
        if not all(s.get("ready") for s in p.get("status", {}).get("containerStatuses") or [{}])
    ]
    if not bad:
        return None
    r = shift.report
    bare = subject in shift.pods
    msg = ""
    r.cause.append(
        f"{len(bad)} of {len(pods)} {subject} pod(s) ({', '.join(bad)}) are not Ready{msg}, which takes them out "
        f"of the Service, which degrades {subject}; no config, scheduling or memory fault was found."
    )
    r.impact.append(f"{subject} runs with {len(pods) - len(bad)}/{len(pods)} pods serving.")
    if bare:
        return Diagnosis(
            "bad_pod",
            bad,
            [
                (
                    f"delete pod {subject} -n {shift.ns}",
                    "replace the crash-looping pod; its error is transient",
                    "pod deleted and recreated",
                )
            ],
            f"delete pod {subject} so a fresh one is started",
        )
    return Diagnosis(
        "not_ready",
        bad,
        [
            (
                f"rollout restart deployment/{subject} -n {shift.ns}",
                "replace the unhealthy pods with fresh ones",
                "pods replaced by a rolling restart",
            )
        ],
        f"rolling restart of deployment {subject}",
    )


async def _memory_risk(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Any, series: dict[str, list[float]]
) -> Diagnosis | None:
    """A working set that keeps growing toward the memory limit: OOM risk, with a time estimate."""
    mem = [v for v in series.get("container_memory_working_set_bytes") or [] if v > 0]
    dep = shift.deployments.get(subject, {})
    containers = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    limit = to_bytes((containers[0].get("resources") or {}).get("limits", {}).get("memory", ""))
    if len(mem) < 3 or mem[-1] <= mem[0] * 1.2 or not limit:
        return None
    r = shift.report
    hours = len(mem) / 6
    rate = (mem[-1] - mem[0]) / hours
    left = (limit - mem[-1]) / rate if rate > 0 else 0
    r.cause.append(
        f"{subject}'s memory working set is growing steadily, from {mib(mem[0])} to {mib(mem[-1])} over the last "
        f"{hours:.0f} h (about {mib(rate)}/h), now {mem[-1] / limit * 100:.0f}% of its {mib(limit)} limit, which at this "
        f"rate reaches the limit in about {left:.1f} h and gets the container OOMKilled: likely a memory leak."
    )
    r.evidence.append(
        f"container_memory_working_set_bytes of {subject}: "
        + ", ".join(mib(v) for v in mem[:: max(1, len(mem) // 6)])
        + f" (limit {mib(limit)})."
    )
    r.impact.append(
        f"No user impact yet (pods Ready); OOM risk is high within ~{left:.0f} h. Urgency: act today."
    )
    r.next_steps.append(
        f"Capture a heap profile of {subject} and fix the leak; as a stopgap, raise the limit or schedule a restart before it reaches {mib(limit)}."
    )
    return Diagnosis("memory_trend", ["memory growth"])


async def _network(shift: Shift, subject: str, *_: Any) -> Diagnosis | None:
    """ "X can't reach Y": the NetworkPolicy selecting Y that admits no traffic from X."""
    if not re.search(r"reach|network|connect", shift.low):
        return None
    named = sorted((shift.low.find(d), d) for d in shift.deployments if d in shift.low)
    if len(named) < 2:
        return None
    source, target = named[0][1], named[1][1]
    pols = await shift.json(
        f"get networkpolicies -n {shift.ns}", "discover the network policies in scope"
    )
    for pol in pols.get("items", []):
        spec = pol.get("spec", {})
        if (spec.get("podSelector", {}).get("matchLabels") or {}).get("app") != target:
            continue
        rules = spec.get("ingress") or []
        allowed = [
            (f.get("podSelector", {}).get("matchLabels") or {})
            for rule in rules
            for f in rule.get("from") or []
        ]
        if any(a.get("app") == source for a in allowed):
            continue
        name = pol["metadata"]["name"]
        sources = ", ".join("app=" + str(a.get("app")) for a in allowed)
        r = shift.report
        r.cause.append(
            f"NetworkPolicy {name} selects the {target} pods and admits ingress only from "
            f"{sources or 'nothing'}, which blocks "
            f"traffic from {source} (app={source}), which is why {source} cannot reach {target}."
        )
        r.evidence.append(
            f"Policy {name} ingress from: {json.dumps(allowed)}; {source} pods carry app={source}."
        )
        r.impact.append(f"Every request from {source} to {target} is dropped.")
        rules = rules or [{"from": []}]
        patch = [
            {
                "op": "add",
                "path": "/spec/ingress/0/from/-",
                "value": {"podSelector": {"matchLabels": {"app": source}}},
            }
        ]
        return Diagnosis(
            "network",
            [name],
            [
                (
                    f"patch networkpolicy {name} -n {shift.ns} --type=json -p '{json.dumps(patch)}'",
                    f"admit {source} to {target} without opening the policy to anything else",
                    f"ingress from {json.dumps(allowed)} -> plus app={source}",
                )
            ],
            f"add app={source} to the ingress sources of NetworkPolicy {name} (other rules kept)",
        )
    return None
