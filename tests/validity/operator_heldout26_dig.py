"""``heldout26``'s diagnosis of one workload: its spec, pods, events, logs (current and the
crashed instance), metrics, traces and rollout history; each finding becomes a why with the
evidence quoted ("we saw ...", "the logs show ...")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout26 import Postmortem
from .operator_read import (
    PodView,
    describe_pods,
    load_yaml,
    log_lines,
    metric_names,
    mib,
    prom_series,
    quantity,
    signal_patterns,
    trend,
)

_MISSING_KEY = re.compile(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", re.I)
_SCHED = re.compile(r"Insufficient (\w+)", re.I)


@dataclass
class Finding:
    """What we concluded about one workload: the cause, how sure, the fix we would make."""

    name: str
    symptom: str = ""
    cause: str = ""
    kind: str = ""
    sure: bool = False
    fix: str = ""
    evidence: list[str] = field(default_factory=list)
    pods: list[PodView] = field(default_factory=list)
    logs: str = ""
    spec: dict[str, Any] = field(default_factory=dict)
    detail: dict[str, str] = field(default_factory=dict)

    def saw(self, text: str) -> None:
        if text and text not in self.evidence:
            self.evidence.append(text)


async def spec_of(pm: Postmortem, name: str) -> dict[str, Any]:
    out = await pm.k(
        f"get deployment {name} -n {pm.ns} -o yaml", f"to read the spec of {name} before judging it"
    )
    doc = load_yaml(out)
    return doc if isinstance(doc, dict) else {}


def selector(spec: dict[str, Any], name: str) -> str:
    labels = ((spec.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or f"app={name}"


def _pod_events(pm: Postmortem, name: str) -> list[str]:
    out = []
    for e in pm.events:
        obj = e.get("object", "")
        if obj.startswith(f"pod/{name}-") or obj in (f"deployment/{name}", f"pod/{name}"):
            out.append(f"{e.get('reason', '')}: {e.get('message', '')}".strip())
    return out


async def dig(pm: Postmortem, name: str) -> Finding:
    """Everything we read about one workload (or bare pod), and the cause it points to."""
    from .operator_heldout26_guard import injected

    f = Finding(name)
    if name in pm.deploys:
        f.spec = await spec_of(pm, name)
        sel = selector(f.spec, name)
        f.pods = describe_pods(
            await pm.k(f"describe pods -l {sel} -n {pm.ns}", f"to see the state of {name}'s pods")
        )
    else:
        f.pods = describe_pods(
            await pm.k(f"describe pod {name} -n {pm.ns}", f"to see the state of the pod {name}")
        )
    which: dict[str, Any] = {"deployment": name} if name in pm.deploys else {"pod": name}
    restarts = max((c.restarts for p in f.pods for c in p.containers), default=0)
    if pm.has("logs_query"):
        f.logs = await pm.use(
            "logs_query",
            f"logs_query {'deployment' if 'deployment' in which else 'pod'}={name} tail=100",
            f"to read what {name} itself reports",
            namespace=pm.ns,
            tail=100,
            **which,
        )
        if restarts:
            f.logs += "\n" + await pm.use(
                "logs_query",
                f"logs_query {name} previous=true",
                "to read the crashed instance's last words",
                namespace=pm.ns,
                previous=True,
                tail=100,
                **which,
            )
    injected(pm, f.logs, f"the {name} logs")
    await _judge(pm, f)
    return f


async def _judge(pm: Postmortem, f: Finding) -> None:
    """The cause, most specific evidence first."""
    events = _pod_events(pm, f.name)
    for p in f.pods:
        events += [e for e in p.events if e not in events]
    for ev in events:
        m = _MISSING_KEY.search(ev)
        if m:
            await _missing_key(pm, f, m.group(1), m.group(3), ev)
            return
    for judge in (_oom, _init_failed, _unschedulable, _wedged):
        if await judge(pm, f, events):
            return
    await _from_logs(pm, f)


async def _missing_key(pm: Postmortem, f: Finding, key: str, cm: str, ev: str) -> None:
    out = await pm.k(
        f"get configmap {cm} -n {pm.ns} -o yaml", f"to check which keys {cm} really holds"
    )
    doc = load_yaml(out)
    data = ((doc or {}).get("data") or {}) if isinstance(doc, dict) else {}
    keys = ", ".join(sorted(data)) or "none"
    f.kind, f.sure = "missing-key", True
    f.symptom = f"the {f.name} pods crash on start (CrashLoopBackOff)"
    f.cause = f"the key {key} is missing from the ConfigMap {cm}, which the container requires"
    f.detail = {"key": key, "configmap": cm}
    f.saw(f'the events show "{ev}"')
    f.saw(f"we read {cm} and it holds only: {keys}; {key} is not there")
    f.fix = f"add the key {key} (with the correct value from the service owners) to {cm}"
    pm.why(f"did the {f.name} pods keep crashing", f'{f.cause} (the events show "{ev}")')
    pm.why(
        "did a missing key crash the container",
        f"the container's environment takes {key} from {cm} via configMapKeyRef, so the kubelet "
        f"cannot start it; we read {cm} and saw only the keys {keys}",
    )


async def _oom(pm: Postmortem, f: Finding, events: list[str]) -> bool:
    hit = [
        (p, c)
        for p in f.pods
        for c in p.containers
        if "OOMKilled" in (c.last_reason, c.reason) or c.exit_code == "137"
    ]
    if not hit:
        return False
    p, c = hit[0]
    limit = c.limits.get("memory", "no limit")
    f.kind, f.sure = "oom", True
    f.symptom = f"{f.name} keeps restarting ({c.restarts} restarts)"
    f.cause = (
        f"the {c.name} container is OOMKilled (exit code 137): it runs out of memory against "
        f"its {limit} memory limit"
    )
    f.detail = {"container": c.name, "limit": limit}
    f.saw(f"we saw Last State: Terminated, Reason: OOMKilled, exit code 137 on {p.name}")
    pm.why(
        f"did {f.name} keep restarting",
        f"{f.cause}; we saw Last State: Terminated, Reason: OOMKilled, exit code 137 and "
        f"{c.restarts} restarts on pod {p.name}",
    )
    used = await memory_series(pm, f.name)
    if used:
        rising = trend(used) == "rising"
        f.detail["trend"] = "rising" if rising else "flat"
        shape = "climbs steadily" if rising else "sits"
        pm.why(
            "did it run out of memory",
            f"the container_memory_working_set_bytes series over the last 6h {shape} from "
            f"{mib(used[0])} to {mib(used[-1])} against the {limit} limit"
            + (", a monotonic growth that looks like a memory leak" if rising else ""),
        )
        f.saw(f"memory went from {mib(used[0])} to {mib(used[-1])} over 6h")
    f.fix = (
        f"raise the memory limit of {c.name} from {limit} to {_double(limit)} as a stop-gap, "
        "and have the owners find the leak"
    )
    return True


def _double(limit: str) -> str:
    q = quantity(limit)
    return mib(q * 2) if q else "a higher value"


async def memory_series(pm: Postmortem, name: str) -> list[float]:
    if not pm.has("metrics_query"):
        return []
    out = await pm.use(
        "metrics_query",
        f'metrics_query query_range max(container_memory_working_set_bytes{{pod=~"{name}-.*"}}) 6h',
        "to see the memory trend over time, not a single point",
        action="query_range",
        query=f'max(container_memory_working_set_bytes{{namespace="{pm.ns}",pod=~"{name}-.*"}})',
        start="-6h",
        step="30m",
    )
    series = prom_series(out)
    return series[0][1] if series and series[0][1] else []


async def _init_failed(pm: Postmortem, f: Finding, events: list[str]) -> bool:
    bad = [
        (p, c)
        for p in f.pods
        for c in p.containers
        if c.init and (c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error")
    ]
    if not bad:
        return False
    p, c = bad[0]
    logs = await pm.use(
        "logs_query",
        f"logs_query pod={p.name} container={c.name}",
        f"to read why the init container {c.name} fails",
        namespace=pm.ns,
        pod=p.name,
        container=c.name,
        tail=50,
    )
    lines = [ln.raw for ln in log_lines(logs) if ln.signal]
    quote = lines[-1] if lines else f"{c.name} exits with an error"
    f.kind, f.sure = "init", True
    f.symptom = f"{f.name} never becomes ready (CrashLoopBackOff in its init container)"
    f.cause = f'the init container {c.name} fails: "{quote}"'
    f.detail = {"container": c.name, "line": quote}
    f.saw(f'the init container logs show "{quote}"')
    f.fix = (
        f"fix the failing step of {c.name} (make it idempotent or repair the schema state it "
        "trips on), then let the pods restart"
    )
    pm.why(
        f"is {f.name} down",
        f"its pods never get past Init: the init container {c.name} keeps failing "
        f"(we saw {c.name} in state {c.reason or c.last_reason} on {p.name})",
    )
    pm.why(f"does {c.name} fail", f'the logs show "{quote}"')
    return True


async def _unschedulable(pm: Postmortem, f: Finding, events: list[str]) -> bool:
    ev = next((e for e in events if "FailedScheduling" in e or "Insufficient" in e), "")
    if not ev:
        return False
    m = _SCHED.search(ev)
    res = m.group(1).lower() if m else "resources"
    containers = [c for p in f.pods for c in p.containers if not c.init]
    asked = containers[0].requests.get(res, "?") if containers else "?"
    nodes = await pm.k("describe nodes", f"to compare the {res} request with node capacity")
    alloc = re.findall(rf"Allocatable:[\s\S]*?{res}:\s+(\S+)", nodes)
    f.kind, f.sure = "unschedulable", True
    f.symptom = f"the {f.name} pods are stuck Pending"
    f.cause = f"each pod requests {res} {asked}, more than any node can allocate"
    f.detail = {"resource": res, "asked": asked, "alloc": ", ".join(alloc[:3])}
    f.saw(f'the events show "{ev[:200]}"')
    pm.why(f"are the {f.name} pods Pending", f'the scheduler says "{ev[:200]}"')
    pm.why(
        "can no node take them",
        f"{f.cause}; the nodes' allocatable {res} is {', '.join(alloc[:3]) or 'lower'}",
    )
    f.fix = f"lower the {res} request of {f.name} to fit a node"
    return True


async def _wedged(pm: Postmortem, f: Finding, events: list[str]) -> bool:
    """Pods that run without restarting but fail readiness: the process is hung."""
    stuck = [
        p
        for p in f.pods
        if p.status == "Running"
        and any(
            not c.init and c.state.startswith("Running") and not c.restarts for c in p.containers
        )
        and any("Readiness probe failed" in e for e in p.events)
    ]
    if not stuck or signal_patterns(log_lines(f.logs)):
        return False
    names = ", ".join(p.name for p in stuck)
    ev = next(e for p in stuck for e in p.events if "Readiness probe failed" in e)
    quote = ev[ev.index("Readiness") :][:160]
    f.kind, f.sure = "wedged", True
    f.symptom = f"{f.name} is degraded ({len(stuck)} of {len(f.pods)} pods not ready)"
    f.cause = (
        f"the pod(s) {names} are hung: the container is Running with 0 restarts but fails its "
        "readiness probe (HTTP 503), so the Service sends them no traffic"
    )
    f.saw(f'the pod events show "{quote}"')
    f.fix = f"restart {f.name} (rollout restart) so the hung pods are replaced"
    pm.why(
        f"is {f.name} degraded", f"{len(stuck)} of its {len(f.pods)} pods are not Ready ({names})"
    )
    pm.why(
        "are those pods not Ready",
        f'they are hung: Running, 0 restarts, yet the events show "{quote}" and their logs '
        "stopped after start-up while the healthy pods keep answering /healthz; nothing points "
        "at config, memory or a dependency, so a fresh start is the targeted fix",
    )
    return True


_KNOWN = (
    ("pool", re.compile(r"connection pool|pool exhausted|cannot get a connection", re.I)),
    ("tls", re.compile(r"certificate|x509|tls handshake", re.I)),
    ("refused", re.compile(r"connection refused|upstream connect|no healthy upstream", re.I)),
)


async def _from_logs(pm: Postmortem, f: Finding) -> None:
    from .operator_heldout26_guard import INJECTED

    patterns = [
        (lvl, INJECTED.sub("", msg).strip(" .") or msg, n)
        for lvl, msg, n in signal_patterns(log_lines(f.logs))
    ]
    for kind, pat in _KNOWN:
        hits = [(lvl, msg, n) for lvl, msg, n in patterns if pat.search(msg)]
        if hits:
            lvl, msg, n = hits[0]
            f.kind, f.sure = kind, True
            f.cause = msg
            f.saw(f'the logs show "{lvl}: {msg}" ({n}x)')
            return
    if patterns:
        lvl, msg, n = patterns[0]
        f.kind, f.cause = "logs", msg
        f.saw(f'the logs show "{lvl}: {msg}" ({n}x)')


async def app_metrics(pm: Postmortem, name: str) -> list[tuple[str, list[float]]]:
    """The service-level series the metrics store has (latency, error rate ...), by name."""
    if not pm.has("metrics_query"):
        return []
    names = metric_names(
        await pm.use(
            "metrics_query",
            "metrics_query metric_names",
            "to learn which metrics exist",
            action="metric_names",
        )
    )
    out = []
    for n in names:
        if n.startswith(("kube_", "container_", "instance:", "node_")):
            continue
        res = await pm.use(
            "metrics_query",
            f"metrics_query query_range {n} 1h",
            f"to read {n} over the last hour",
            action="query_range",
            query=n,
            start="-1h",
            step="10m",
        )
        for labels, vals in prom_series(res):
            if vals and (not labels.get("service") or labels.get("service") == name):
                out.append((n, vals))
                break
    return out
