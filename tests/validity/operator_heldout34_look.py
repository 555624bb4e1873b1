"""The held-out operator of session 29 (``heldout34``): what it reads about the workload.

It starts from what the requester names (a Deployment, a trace id, an ingress or "the
public API"), reads that workload's pods, events, logs and signals, and keeps the facts it
will cite. Nothing here knows a scenario; every fact comes from a tool's answer.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout34_ops import Call, Ops


@dataclass
class View:
    """What the survey of the namespace showed."""

    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    subject: list[str] = field(default_factory=list)
    dep_call: Call | None = None
    pods_call: Call | None = None
    events_call: Call | None = None
    ns_labels: dict[str, str] = field(default_factory=dict)
    ns_annotations: dict[str, str] = field(default_factory=dict)
    ns_call: Call | None = None
    prompt: str = ""

    def pods_of(self, name: str) -> list[dict[str, str]]:
        pat = re.compile(rf"^{re.escape(name)}-[a-z0-9]+(-[a-z0-9]+)?$")
        return [p for p in self.pods if pat.match(p.get("name", ""))]

    def events_of(self, name: str) -> list[dict[str, Any]]:
        out = []
        for ev in self.events:
            obj = str((ev.get("involvedObject") or {}).get("name", ""))
            if obj == name or obj.startswith(f"{name}-"):
                out.append(ev)
        return out


def spelled(prompt: str) -> set[str]:
    """The name shapes a prompt may spell a workload in ("API gateway" is api-gateway)."""
    text = prompt.lower()
    words = re.findall(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", text)
    out = set(words)
    for a, b in itertools.pairwise(words):
        out.add(f"{a}-{b}")
    return out


def pick_subject(prompt: str, names: list[str]) -> list[str]:
    """The Deployments the request names, longest name first (``api-service-canary`` before
    ``api-service`` where both are spelled)."""
    said = spelled(prompt)
    named = [n for n in names if n.lower() in said]
    named.sort(key=len, reverse=True)
    keep: list[str] = []
    for n in named:
        if not any(k.startswith(f"{n}-") and n not in said - {k} for k in keep):
            keep.append(n)
    return keep


async def survey(ops: Ops, trigger: str) -> View:
    view = View()
    ns = ops.ns
    view.dep_call = await ops.k(
        f"get deployments -n {ns}", "list the workloads in the namespace I may work in", trigger
    )
    view.deployments = rd.table(view.dep_call.text)
    view.pods_call = await ops.k(
        f"get pods -n {ns}", "see which pods are up, restarting or stuck", trigger
    )
    view.pods = rd.table(view.pods_call.text)
    view.events_call = await ops.k(
        f"get events -n {ns} -o yaml",
        "read recent events with their exact timestamps for the timeline",
        trigger,
    )
    view.events = rd.items(view.events_call.text)
    view.subject = pick_subject(ops.prompt, [d.get("name", "") for d in view.deployments])
    return view


async def namespace_marks(ops: Ops, view: View, trigger: str) -> None:
    """The namespace's labels and annotations (environment, owning team, contacts)."""
    call = await ops.k(
        f"get namespace {ops.ns} -o yaml",
        "check how the namespace is classified (environment) and who owns it",
        trigger,
    )
    view.ns_call = call
    doc = rd.load_yaml(call.text)
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    view.ns_labels = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    view.ns_annotations = {str(k): str(v) for k, v in (meta.get("annotations") or {}).items()}


@dataclass
class Workload:
    """What was read about one Deployment."""

    name: str
    pods: list[rd.PodView] = field(default_factory=list)
    describe: Call | None = None
    spec: dict[str, Any] = field(default_factory=dict)
    spec_call: Call | None = None
    logs: Call | None = None
    previous: Call | None = None
    init_logs: dict[str, Call] = field(default_factory=dict)
    signals: list[tuple[str, str, int]] = field(default_factory=list)
    prev_signals: list[tuple[str, str, int]] = field(default_factory=list)

    def containers(self) -> list[dict[str, Any]]:
        tmpl = self.spec.get("spec", {}).get("template", {}).get("spec", {})
        return list(tmpl.get("containers") or [])

    def replicas(self) -> int:
        return int(self.spec.get("spec", {}).get("replicas") or 0)


async def read_workload(ops: Ops, view: View, name: str, trigger: str) -> Workload:
    ns = ops.ns
    wl = Workload(name)
    wl.spec_call = await ops.k(
        f"get deployment {name} -n {ns} -o yaml",
        f"read {name}'s spec (image, limits, config references, replicas)",
        trigger,
    )
    found = rd.items(wl.spec_call.text)
    wl.spec = found[0] if found else {}
    pods = [p["name"] for p in view.pods_of(name)]
    if pods:
        wl.describe = await ops.k(
            f"describe pods {' '.join(pods)} -n {ns}",
            f"see container states, last termination and events of {name}'s pods",
            trigger,
        )
        wl.pods = rd.describe_pods(wl.describe.text)
    if ops.has("logs_query"):
        wl.logs = await ops.call(
            "logs_query",
            f"read what {name} itself is logging",
            trigger,
            namespace=ns,
            deployment=name,
            tail=200,
        )
        wl.signals = rd.signal_patterns(rd.log_lines(wl.logs.text))
        if any(c.restarts for p in wl.pods for c in p.containers if not c.init):
            wl.previous = await ops.call(
                "logs_query",
                f"read the last words of {name}'s crashed container",
                trigger,
                namespace=ns,
                deployment=name,
                previous=True,
                tail=100,
            )
            wl.prev_signals = rd.signal_patterns(rd.log_lines(wl.previous.text))
    for pod in wl.pods:
        for c in pod.containers:
            failing = c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"
            if c.init and failing and c.name not in wl.init_logs:
                wl.init_logs[c.name] = await ops.k(
                    f"logs {pod.name} -c {c.name} -n {ns}",
                    f"the init container {c.name} is failing, so read its own log",
                    trigger,
                )
    return wl


def served_series(call: Call) -> list[tuple[dict[str, str], list[float]]]:
    return rd.prom_series(call.text) if call.n else []


async def metric_names(ops: Ops, trigger: str) -> tuple[Call | None, list[str]]:
    if not ops.has("metrics_query"):
        return None, []
    call = await ops.call(
        "metrics_query",
        "see which metrics this environment records",
        trigger,
        action="metric_names",
    )
    return call, rd.metric_names(call.text)


#: metric names every cluster has; the others are the application's own
GENERIC = ("kube_", "container_", "instance:", "node_", "up")


async def app_metrics(
    ops: Ops, names: list[str], who: str, trigger: str
) -> list[tuple[str, dict[str, str], list[float], Call]]:
    """The application's own series (error rate, latency) that are about ``who``."""
    out = []
    for metric in names:
        if metric.startswith(GENERIC):
            continue
        call = await ops.call(
            "metrics_query",
            f"read {metric} for {who} over the last hour",
            trigger,
            action="query_range",
            query=metric,
            start="-1h",
        )
        for labels, values in served_series(call):
            if any(v == who or v.startswith(f"{who}") for v in labels.values()) and values:
                out.append((metric, labels, values, call))
    return out


async def memory_series(
    ops: Ops, who: str, trigger: str, span: str = "-6h"
) -> tuple[Call | None, list[float]]:
    if not ops.has("metrics_query"):
        return None, []
    call = await ops.call(
        "metrics_query",
        f"read {who}'s memory over time, not just right now",
        trigger,
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{ops.ns}"}}',
        start=span,
    )
    best: list[float] = []
    for labels, values in served_series(call):
        if not any(
            v == who or v.startswith(f"{who}-") for k, v in labels.items() if k != "namespace"
        ):
            continue
        if len(values) > len(best) or (values and best and max(values) > max(best)):
            best = values
    return call, best


def limit_bytes(wl: Workload) -> float | None:
    for c in wl.containers():
        mem = ((c.get("resources") or {}).get("limits") or {}).get("memory")
        if mem:
            return rd.quantity(str(mem))
    return None


def request_of(wl: Workload, key: str) -> str:
    for c in wl.containers():
        val = ((c.get("resources") or {}).get("requests") or {}).get(key)
        if val:
            return str(val)
    return ""


def config_refs(wl: Workload) -> list[tuple[str, str]]:
    """(configmap, key) pairs the pod template reads; key "" for a whole-map reference."""
    out: list[tuple[str, str]] = []
    tmpl = wl.spec.get("spec", {}).get("template", {}).get("spec", {})
    for c in list(tmpl.get("containers") or []) + list(tmpl.get("initContainers") or []):
        for env in c.get("env") or []:
            ref = ((env.get("valueFrom") or {}).get("configMapKeyRef")) or {}
            if ref.get("name"):
                out.append((str(ref["name"]), str(ref.get("key", ""))))
        for src in c.get("envFrom") or []:
            ref = src.get("configMapRef") or {}
            if ref.get("name"):
                out.append((str(ref["name"]), ""))
    for vol in tmpl.get("volumes") or []:
        ref = vol.get("configMap") or {}
        if ref.get("name"):
            out.append((str(ref["name"]), ""))
    return out
