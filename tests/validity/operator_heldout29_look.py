"""The held-out operator of session 25 (``heldout29``): what it reads, and in what order.

It starts from what the operator's message points at (a workload named or spelled, a pod
word, an Ingress or Service, a trace id, a dashboard), reads that workload's objects, pods,
logs and config, and reads the other sources the symptom calls for. Reads stay inside the
scope's namespaces (nodes are read only where scheduling or a node condition matters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout29_ctx import Ctx, containers, first_doc, mentioned, meta, name_of
from .operator_read import (
    PodView,
    age_minutes,
    describe_pods,
    items,
    log_lines,
    signal_patterns,
    table,
)

NET_WORDS = ("reach", "network", "connect", "503", "502", "timeout", "refused", "traffic")


@dataclass
class Seen:
    """Everything read, parsed once."""

    ns_labels: dict[str, str] = field(default_factory=dict)
    ns_notes: dict[str, str] = field(default_factory=dict)
    deployments: list[dict[str, Any]] = field(default_factory=list)
    pods: list[dict[str, Any]] = field(default_factory=list)
    subject: list[str] = field(default_factory=list)
    subject_pods: list[str] = field(default_factory=list)
    pod_views: dict[str, list[PodView]] = field(default_factory=dict)
    logs: dict[str, str] = field(default_factory=dict)
    init_logs: dict[str, str] = field(default_factory=dict)
    configmaps: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: str = ""
    policies: list[dict[str, Any]] = field(default_factory=list)
    services: list[dict[str, Any]] = field(default_factory=list)
    endpoints: str = ""
    path_logs: list[tuple[str, str]] = field(default_factory=list)
    rs_age: dict[str, float | None] = field(default_factory=dict)
    ingresses: list[dict[str, Any]] = field(default_factory=list)
    series: dict[str, list[tuple[dict[str, str], list[float]]]] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    trace: str = ""
    dashboard: dict[str, Any] = field(default_factory=dict)
    migrations: str = ""
    replicasets: list[dict[str, Any]] = field(default_factory=list)
    nodes: str = ""
    hpa: str = ""
    gitops: str = ""


def deployment(seen: Seen, name: str) -> dict[str, Any]:
    return next((d for d in seen.deployments if name_of(d) == name), {})


def selector(dep: dict[str, Any]) -> str:
    labels = ((dep.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items()))


def pods_of(seen: Seen, name: str) -> list[dict[str, Any]]:
    labels = ((deployment(seen, name).get("spec") or {}).get("selector") or {}).get(
        "matchLabels"
    ) or {}
    out = []
    for pod in seen.pods:
        have = meta(pod).get("labels") or {}
        if labels and all(have.get(k) == v for k, v in labels.items()):
            out.append(pod)
    return out


def _prompt_words(ctx: Ctx) -> list[str]:
    return re.findall(r"[a-z][a-z0-9-]+", ctx.low)


def find_subject(ctx: Ctx, seen: Seen) -> list[str]:
    """The workloads the operator's message is about, as a person reads it."""
    names = [name_of(d) for d in seen.deployments]
    named = [n for n in names if mentioned(n, ctx.prompt)]
    # a longer name that holds a shorter one named ("api-service-canary" and "api-service")
    if named:
        return sorted(named, key=lambda n: (-len(n), n))
    words = _prompt_words(ctx)
    for svc in seen.services + seen.ingresses:
        if name_of(svc) in words:
            return _backends(seen, svc) or []
    pod_word = [w for w in words if any(n.startswith(w + "-") or n == w for n in names)]
    hits = [n for n in names for w in pod_word if n == w or n.startswith(w + "-")]
    return sorted(set(hits))


def _backends(seen: Seen, obj: dict[str, Any]) -> list[str]:
    """The Deployments behind an Ingress (through its Services) or a Service."""
    svc_names: list[str] = []
    if obj.get("kind") == "Ingress":
        text = str(obj.get("spec"))
        svc_names = re.findall(r"'name': '([a-z0-9-]+)'", text)
    else:
        svc_names = [name_of(obj)]
    out: list[str] = []
    for svc in seen.services:
        if name_of(svc) not in svc_names:
            continue
        sel = (svc.get("spec") or {}).get("selector") or {}
        for dep in seen.deployments:
            labels = ((dep.get("spec") or {}).get("template") or {}).get("metadata", {})
            labels = labels.get("labels") or {}
            if sel and all(labels.get(k) == v for k, v in sel.items()):
                out.append(name_of(dep))
    return out


async def survey(ctx: Ctx) -> Seen:
    """Namespace, workloads, pods, services: enough to find what the message is about."""
    seen = Seen()
    ns = ctx.ns
    nsobj = first_doc(
        await ctx.k(
            f"get namespace {ns} -o yaml", "to know which environment this is and who owns it"
        )
    )
    seen.ns_labels = {str(k): str(v) for k, v in (meta(nsobj).get("labels") or {}).items()}
    seen.ns_notes = {str(k): str(v) for k, v in (meta(nsobj).get("annotations") or {}).items()}
    await ctx.k(
        f"get deployments -n {ns} -o wide", "to see which workloads run here and their readiness"
    )
    seen.deployments = items(
        await ctx.k(
            f"get deployments -n {ns} -o yaml", "to read the specs (replicas, images, env, limits)"
        )
    )
    await ctx.k(f"get pods -n {ns} -o wide", "to see pod status, restarts and nodes")
    seen.pods = items(
        await ctx.k(
            f"get pods -n {ns} -o yaml", "to read container states and last termination reasons"
        )
    )
    seen.services = items(
        await ctx.k(f"get services -n {ns} -o yaml", "to map services to workloads")
    )
    if any(w in ctx.low for w in ("ingress", "public", "api", "503", "502", "endpoint")):
        seen.ingresses = items(
            await ctx.k(
                f"get ingress -n {ns} -o yaml",
                "the message talks about an entry point, so checking ingress routes",
            )
        )
    seen.subject = find_subject(ctx, seen)
    if not seen.subject:
        seen.subject_pods = find_pods(ctx, seen)
    return seen


def find_pods(ctx: Ctx, seen: Seen) -> list[str]:
    """Pods the message names by their prefix ("cache-worker pod"), for pods no Deployment owns."""
    words = [w for w in _prompt_words(ctx) if "-" in w and len(w) > 4]
    words += re.findall(r"\b([a-z][a-z0-9-]{2,})\s+pods?\b", ctx.low)
    return [name_of(p) for p in seen.pods if any(name_of(p).startswith(w + "-") for w in words)]


async def read_pod(ctx: Ctx, seen: Seen, pod: str, trigger: str) -> None:
    ns = ctx.ns
    views = describe_pods(
        await ctx.k(
            f"describe pod {pod} -n {ns}",
            f"to see why pod {pod} is crashing (state, exit code, events)",
            trigger,
        )
    )
    seen.pod_views[pod] = views
    restarted = any(c.restarts for v in views for c in v.containers if not c.init)
    if ctx.has("logs_query"):
        seen.logs[pod] = await ctx.run(
            "logs_query", f"to read what pod {pod} prints", trigger, namespace=ns, pod=pod, tail=100
        )
        if restarted:
            seen.logs[pod] += "\n" + await ctx.run(
                "logs_query",
                f"pod {pod} restarted, reading the crashed instance",
                trigger,
                namespace=ns,
                pod=pod,
                previous=True,
                tail=100,
            )
    else:
        seen.logs[pod] = await ctx.k(
            f"logs {pod} -n {ns} --previous --tail=100",
            f"to read what crashed pod {pod} printed",
            trigger,
        )


async def read_workload(ctx: Ctx, seen: Seen, name: str, trigger: str) -> None:
    """One workload: its pods described, its logs (previous and init containers too), its config."""
    ns = ctx.ns
    dep = deployment(seen, name)
    sel = selector(dep)
    target = f"-l {sel}" if sel else name
    text = await ctx.k(
        f"describe pods -n {ns} {target}",
        f"to see why {name} pods are not healthy (states, exit codes, events)",
        trigger,
    )
    views = describe_pods(text)
    seen.pod_views[name] = views
    await _logs(ctx, seen, name, views, trigger)
    for cm in _config_refs(dep):
        if cm not in seen.configmaps:
            seen.configmaps[cm] = first_doc(
                await ctx.k(
                    f"get configmap {cm} -n {ns} -o yaml",
                    f"{name} takes its settings from this ConfigMap, so checking the keys it needs",
                    trigger,
                )
            )


async def _logs(ctx: Ctx, seen: Seen, name: str, views: list[PodView], trigger: str) -> None:
    ns = ctx.ns
    restarted = any(c.restarts for v in views for c in v.containers if not c.init)
    if ctx.has("logs_query"):
        seen.logs[name] = await ctx.run(
            "logs_query",
            f"to read what {name} itself prints",
            trigger,
            namespace=ns,
            deployment=name,
            tail=100,
        )
        if restarted:
            seen.logs[name] += "\n" + await ctx.run(
                "logs_query",
                f"{name} has restarts, so reading the crashed instance also",
                trigger,
                namespace=ns,
                deployment=name,
                previous=True,
                tail=100,
            )
    elif views and views[0].status != "Pending":
        out = await ctx.k(
            f"logs {views[0].name} -n {ns} --tail=100", f"to read what {name} prints", trigger
        )
        seen.logs[name] = "" if ctx.last().failed else out
    for view in views[:1]:
        for c in view.containers:
            if c.init and (
                c.restarts or c.last_reason or "Error" in c.reason or "CrashLoop" in c.reason
            ):
                if ctx.has("logs_query"):
                    out = await ctx.run(
                        "logs_query",
                        f"init container {c.name} is failing, reading its output",
                        trigger,
                        namespace=ns,
                        pod=view.name,
                        container=c.name,
                        tail=50,
                    )
                else:
                    out = await ctx.k(
                        f"logs {view.name} -n {ns} -c {c.name} --tail=50",
                        f"init container {c.name} is failing, reading its output",
                        trigger,
                    )
                seen.init_logs[c.name] = out


def _config_refs(dep: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for c in containers(dep) + containers(dep, init=True):
        for env in c.get("env") or []:
            ref = ((env.get("valueFrom") or {}).get("configMapKeyRef") or {}).get("name")
            if ref:
                out.append(str(ref))
        for src in c.get("envFrom") or []:
            ref = (src.get("configMapRef") or {}).get("name")
            if ref:
                out.append(str(ref))
    spec = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    for vol in spec.get("volumes") or []:
        ref = (vol.get("configMap") or {}).get("name")
        if ref:
            out.append(str(ref))
    return sorted(set(out))


async def read_path_logs(ctx: Ctx, seen: Seen, trigger: str) -> None:
    """Errors of the request path's own components (ingress controller, mesh proxy): log
    sources that are no pod of the namespace."""
    if not ctx.has("logs_query"):
        return
    out = await ctx.run(
        "logs_query",
        "to see errors on the request path (ingress controller / mesh proxy) for the 5xx",
        trigger,
        query=f'{{namespace="{ctx.ns}"}} |~ "error|upstream|refused|reset|5[0-9][0-9]"',
        tail=50,
    )
    for line in out.splitlines():
        m = re.search(r'source="([^"]+)"\}\s*(.*)', line)
        if m and (m.group(1), m.group(2).strip()) not in seen.path_logs:
            seen.path_logs.append((m.group(1), m.group(2).strip()))


async def read_network(ctx: Ctx, seen: Seen, trigger: str) -> None:
    ns = ctx.ns
    seen.endpoints = await ctx.k(
        f"get endpoints -n {ns}", "to check which services have ready pods behind them", trigger
    )
    seen.policies = items(
        await ctx.k(
            f"get networkpolicy -n {ns} -o yaml",
            "a NetworkPolicy can block traffic between pods, so reading them",
            trigger,
        )
    )


async def read_history(ctx: Ctx, seen: Seen, name: str, trigger: str) -> None:
    ns = ctx.ns
    await ctx.k(
        f"get events -n {ns} --sort-by=.lastTimestamp",
        "to check recent events (deploys, kills, scheduling)",
        trigger,
    )
    listing = await ctx.k(
        f"get replicasets -n {ns} -o wide",
        f"to see how old each ReplicaSet of {name} is (AGE as the cluster counts it)",
        trigger,
    )
    seen.rs_age = {r.get("name", ""): age_minutes(r.get("age", "")) for r in table(listing)}
    seen.replicasets = items(
        await ctx.k(
            f"get replicasets -n {ns} -o yaml",
            f"to see when {name} was last rolled out and with which image",
            trigger,
        )
    )
    await ctx.k(
        f"rollout history deployment/{name} -n {ns}", f"to see revisions of {name}", trigger
    )


def signal_lines(text: str) -> list[tuple[str, str, int]]:
    return signal_patterns(log_lines(text))
