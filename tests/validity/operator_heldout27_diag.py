"""heldout27's diagnosis: from the named workload's events, container states, logs and
metrics to a root cause, each conclusion quoted with the command that showed it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .operator_heldout27 import Ticket
from .operator_heldout27_look import (
    View,
    describe,
    events_of,
    logs,
    pods_of,
    series_of,
    table,
)
from .operator_read import describe_pods, mib, quantity, trend


@dataclass
class Fix:
    kind: str = ""
    target: str = ""
    detail: str = ""
    value: str = ""


async def crash(t: Ticket, v: View, name: str) -> Fix:
    """Events, container states and logs of one workload."""
    for e in events_of(v, name):
        msg = e.get("message", "")
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", msg)
        if m:
            key, cm = m.group(1), m.group(2)
            t.quote(f"kubectl get events -n {t.ns}", f"{e.get('object')}: {msg}")
            cmname = cm.split("/")[-1]
            got = await t.k(
                f"get configmap {cmname} -n {t.ns} -o yaml", f"check which keys {cmname} really has"
            )
            keys = re.findall(r"^  (\w+):", got.split("data:", 1)[-1].split("kind:", 1)[0], re.M)
            t.quote(
                f"kubectl get configmap {cmname} -n {t.ns} -o yaml",
                f"data keys: {', '.join(keys) or 'none'} ({key} absent)",
            )
            t.cause(
                f"{name} cannot start: its env references key {key} in ConfigMap {cm} "
                f"(configMapKeyRef), and {cmname} has no {key} key, so the container fails at creation "
                "and goes into CrashLoopBackOff."
            )
            return Fix("configmap_key", cmname, key)
        if e.get("reason") == "FailedScheduling":
            t.quote(f"kubectl get events -n {t.ns}", f"{e.get('object')}: {msg[:160]}")
            return await _pending(t, v, name, msg)
    pods = await describe(t, v, name)
    if not pods and name in v.bare:
        pods = describe_pods(
            await t.k(
                f"describe pod {name} -n {t.ns}",
                f"read {name}'s container state and last termination",
            )
        )
    for pod in pods:
        for c in pod.containers:
            if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                t.quote(
                    f"kubectl describe pods -l app={name}",
                    f"{pod.name} {c.name}: Last State Terminated, Reason OOMKilled, Exit Code {c.exit_code or '137'}; limit memory {c.limits.get('memory', '?')}",
                )
                return await _oom(t, v, name, c.limits.get("memory", ""))
            if c.init and (c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error"):
                return await _init(t, v, name, pod.name, c.name)
    found = await logs(t, name, bare=name in v.bare)
    for lvl, msg, n in found[:3]:
        t.quote(
            f"logs_query {'pod' if name in v.bare else 'deployment'}={name}", f"{lvl}: {msg} (x{n})"
        )
    fix = _from_logs(t, name, found)
    if fix.kind in ("", "logs"):
        fix = _state(t, v, name, pods, found) or fix
    return fix


def _state(t: Ticket, v: View, name: str, pods: list, found: list) -> Fix | None:
    """No named fault in events or logs: what the pods' own state says (crash loop, probe)."""
    for pod in pods:
        for c in pod.containers:
            if c.reason == "CrashLoopBackOff" or c.last_reason == "Error":
                t.quote(
                    f"kubectl describe pod {pod.name}",
                    f"{c.name}: State Waiting CrashLoopBackOff, Last State Terminated Reason {c.last_reason or 'Error'}, Exit Code {c.exit_code or '?'}, restarts {c.restarts}",
                )
                why = (
                    f" Its last log line at error level: {found[0][1]}."
                    if found
                    else " Its logs show no error line before the exit."
                )
                t.cause(
                    f"{pod.name} is in CrashLoopBackOff: the container exits with code {c.exit_code or 'non-zero'} shortly after start and the kubelet keeps restarting it.{why}"
                )
                return Fix("restart", name)
    probes = [e for e in events_of(v, name) if "probe failed" in e.get("message", "").lower()]
    if probes:
        e = probes[0]
        pod = e.get("object", "").split("/")[-1]
        ready = [p for p in pods_of(v, name) if p.get("ready", "").startswith("0/")]
        t.quote(f"kubectl get events -n {t.ns}", f"{e.get('object')}: {e.get('message')}")
        t.quote(
            f"kubectl get pods -n {t.ns}",
            f"{len(ready)} of {len(pods_of(v, name))} {name} pods not Ready"
            + (f" ({ready[0].get('name')} {ready[0].get('ready')})" if ready else ""),
        )
        t.cause(
            f"{pod} fails its readiness probe (HTTP 503), so it is taken out of the Service's endpoints: capacity is reduced and connections to it are dropped; the other pods are healthy and the logs show no application error, so the pod itself is wedged."
        )
        return Fix("restart", name)
    return None


def _from_logs(t: Ticket, name: str, found: list[tuple[str, str, int]]) -> Fix:
    text = " ".join(m.lower() for _, m, _ in found)
    if re.search(
        r"pool (exhausted|timeout)|connection pool|too many connections|acquire connection", text
    ):
        t.cause(
            f"{name}'s database connection pool is exhausted: requests queue waiting for a connection and time out."
        )
        return Fix("pool", name)
    if re.search(r"x509|certificate|tls handshake", text):
        t.cause(
            f"TLS handshakes from {name} to its upstream fail because the upstream's certificate has expired (x509)."
        )
        return Fix("cert", name)
    if re.search(r"column .* does not exist|relation .* does not exist|schema", text):
        return Fix("schema", name, text)
    if found:
        return Fix("logs", name, found[0][1])
    return Fix()


async def _pending(t: Ticket, v: View, name: str, msg: str) -> Fix:
    resource = "cpu" if "cpu" in msg.lower() else "memory"
    pods = await describe(t, v, name)
    req = next(
        (
            c.requests.get(resource, "")
            for p in pods
            for c in p.containers
            if c.requests.get(resource)
        ),
        "",
    )
    nodes = await t.k(
        "describe nodes", f"compare {name}'s {resource} request with what a node can allocate"
    )
    alloc = re.findall(rf"Allocatable:(?:(?!\n\S).)*?\n\s+{resource}:\s+(\S+)", nodes, re.S)
    biggest = max((quantity(a) or 0 for a in alloc), default=0)
    t.quote("kubectl describe nodes", f"allocatable {resource} per node: {', '.join(alloc)}")
    t.quote(f"kubectl describe pods -l app={name}", f"requests {resource}: {req}")
    t.cause(
        f"{name}'s pods are Pending: each requests {resource} {req}, more than any node can allocate "
        f"({', '.join(alloc)}), so the scheduler finds no node (FailedScheduling: Insufficient {resource})."
    )
    fit = biggest * 0.5 if biggest else 0
    value = f"{int(fit * 1000)}m" if resource == "cpu" else mib(fit)
    return Fix("request", name, resource, value)


async def _oom(t: Ticket, v: View, name: str, limit: str) -> Fix:
    usage = ""
    vals = await series_of(
        t, name, ("memory", "working"), f"read {name}'s memory against its limit"
    )
    if vals:
        usage = mib(max(vals))
        t.quote(
            f"metrics_query container_memory_working_set_bytes {name}",
            f"{mib(vals[0])} -> peak {usage} vs limit {limit} ({trend(vals)})",
        )
    t.cause(
        f"{name}'s container is OOMKilled (exit 137): its memory reaches the {limit} limit"
        + (f" (peak working set {usage})" if usage else "")
        + " and the kernel kills it, so the pod restarts."
    )
    lim = quantity(limit) or 0
    return Fix("memory", name, limit, mib(lim * 2) if lim else "")


async def _init(t: Ticket, v: View, name: str, pod: str, init: str) -> Fix:
    found = []
    if t.has("logs_query"):
        out = await t.use(
            "logs_query",
            f"pod={pod} container={init} previous=true",
            f"read the failing init container {init}",
            namespace=t.ns,
            pod=pod,
            container=init,
            previous=True,
            tail=50,
        )
        from .operator_read import log_lines, signal_patterns

        found = signal_patterns(log_lines(out))
    msg = found[0][1] if found else "exits non-zero"
    t.quote(f"logs_query pod={pod} container={init}", msg)
    t.cause(
        f"{name}'s init container {init} fails ({msg}), so the main container never starts and no {name} pod becomes Ready."
    )
    return Fix("init", name, init, msg)


async def chain(t: Ticket, v: View) -> list[str]:
    """From the ingress to the pods: which hop breaks (ingress -> service -> endpoints -> pods)."""
    ing = await t.k(
        f"describe ingress -n {t.ns}", "find the public entry point and its backend service"
    )
    services = sorted(set(re.findall(r"^\s+\S*\s+\S*\s+(\S+):\d+", ing, re.M)))
    services = [s for s in services if not s.startswith("(")] or re.findall(
        r"service:\s*(\S+)", ing
    )
    out: list[str] = []
    for svc in services[:2]:
        eps = await t.k(
            f"get endpoints {svc} -n {t.ns}", f"check whether {svc} has ready endpoints"
        )
        row = table(eps)
        empty = not row or row[0].get("endpoints", "<none>") in ("<none>", "")
        t.quote(
            f"kubectl get endpoints {svc} -n {t.ns}",
            f"{svc} endpoints: {row[0].get('endpoints') if row else 'none'}",
        )
        if empty:
            out.append(svc)
    if t.has("logs_query"):
        # the namespace's own streams, the non-pod ones (ingress controller, mesh proxies) included
        got = await t.use(
            "logs_query",
            f"namespace={t.ns} (all streams)",
            "see what the proxies between the ingress and the backend report",
            namespace=t.ns,
            tail=300,
        )
        for line in got.splitlines():
            m = re.match(r'^\S+\s+\{[^}]*source="([^"]+)"[^}]*\}\s*(.*)', line)
            if m and re.search(r"upstream|refused|reset|connect|50[234]", m.group(2), re.I):
                t.quote(f"logs_query source={m.group(1)}", m.group(2)[:160])
                out.append(f"{m.group(1)}: {m.group(2)[:120]}")
                break
    return out


async def memory_trend(t: Ticket, v: View, name: str) -> None:
    vals = await series_of(t, name, ("memory", "working"), f"read {name}'s memory over 6h")
    lim = await series_of(
        t, name, ("limits",), f"read {name}'s memory limit", start="-5m", resource="memory"
    )
    limit = max(lim, default=0.0)
    if len(vals) >= 2:
        shape = trend(vals)
        rate = (vals[-1] - vals[0]) / max(len(vals) - 1, 1) * 2  # per hour, 30-minute steps
        t.quote(
            f"metrics_query container_memory_working_set_bytes {name}",
            f"{mib(vals[0])} -> {mib(vals[-1])} over 6h ({shape})"
            + (f"; limit {mib(limit)}" if limit else ""),
        )
        if shape == "rising" and limit:
            left = (limit - vals[-1]) / rate if rate > 0 else 0
            t.cause(
                f"{name}'s memory is growing steadily ({mib(vals[0])} -> {mib(vals[-1])} in 6h, about {mib(rate)}/h), the pattern of a leak."
            )
            t.summary = f"{name} is up but its memory climbs steadily towards its {mib(limit)} limit: OOM kill likely in ~{left:.1f}h."
            t.impact = f"At this rate {name} hits {mib(limit)} and is OOMKilled in about {left:.1f} hours (ETA), restarting and dropping in-flight work."
            t.priority = "P2" if left < 4 else "P3"
            t.step(
                f"Owners of {name}: investigate the leak (heap profile); as mitigation raise the limit or schedule a restart before the ETA."
            )
        elif shape == "rising":
            t.cause(
                f"{name}'s memory is rising ({mib(vals[0])} -> {mib(vals[-1])}); no limit found to size the risk."
            )
        else:
            use = f"{vals[-1] / limit:.0%} of its {mib(limit)} limit" if limit else "no limit set"
            t.notes.append(
                f"{name}'s memory is {shape} at {mib(vals[-1])} ({use}): no OOM risk now."
            )
