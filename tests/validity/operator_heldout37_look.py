"""heldout37's reads: the workload the request names, its pods, events, logs, the ConfigMaps it
references, its own metric series and its namespace's labels. Generic: every name comes from the
prompt or from what a tool returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout37_base import Op

_HEALTHY = ("Running", "Completed", "Succeeded")


@dataclass
class Workload:
    """A deployment (or a bare pod) and what was read of it."""

    name: str
    ns: str
    kind: str = "deployment"
    spec: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    selector: dict[str, str] = field(default_factory=dict)
    replicas: int = 0
    pods: list[dict[str, str]] = field(default_factory=list)
    described: list[rd.PodView] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    log: list[rd.LogLine] = field(default_factory=list)
    previous: list[rd.LogLine] = field(default_factory=list)

    @property
    def ref(self) -> str:
        return f"{self.kind}/{self.name}"

    def template(self) -> dict[str, Any]:
        return dict(((self.spec.get("spec") or {}).get("template") or {}).get("spec") or {})

    def containers(self, init: bool = False) -> list[dict[str, Any]]:
        key = "initContainers" if init else "containers"
        if self.kind == "pod":
            return list((self.spec.get("spec") or {}).get(key) or [])
        return list(self.template().get(key) or [])

    def unhealthy(self) -> list[dict[str, str]]:
        out = []
        for p in self.pods:
            ready = p.get("ready", "1/1").split("/")
            if p.get("status") not in _HEALTHY or (len(ready) == 2 and ready[0] != ready[1]):
                out.append(p)
        return out


def named_in(prompt: str, names: list[str]) -> list[str]:
    """Names the prompt spells, longest first (``api-service-canary`` before ``api-service``)."""
    low = prompt.lower()
    hits = []
    for n in sorted(names, key=len, reverse=True):
        spelled = [re.escape(n.lower()), re.escape(n.lower()).replace("\\-", " ")]
        if any(re.search(rf"(?<![\w-]){s}(?![\w-])", low) for s in spelled) and not any(
            n in h for h in hits
        ):
            hits.append(n)
    return hits


def pods_named(prompt: str, pods: list[str]) -> list[str]:
    """Pods whose name the prompt spells, or whose workload prefix it spells (``cache-worker``)."""
    low = prompt.lower()
    out = named_in(prompt, pods)
    for p in pods:
        stem = p.rsplit("-", 1)[0]
        if p not in out and re.search(rf"(?<![\w-]){re.escape(stem.lower())}(?![\w-])", low):
            out.append(p)
    return out


async def deployments(op: Op, ns: str) -> list[str]:
    out = await op.k(f"get deployments -n {ns}", "list the workloads in the namespace")
    return [r.get("name", "") for r in rd.table(out) if r.get("name")]


async def namespace_meta(op: Op, ns: str) -> tuple[dict[str, str], dict[str, str]]:
    """The namespace's labels and annotations (environment, owner, contacts)."""
    out = await op.k(f"get namespace {ns} -o yaml", "check the environment and owner labels")
    doc = rd.load_yaml(out) or {}
    meta = doc.get("metadata") or {} if isinstance(doc, dict) else {}
    return dict(meta.get("labels") or {}), dict(meta.get("annotations") or {})


async def load(op: Op, name: str, ns: str, kind: str = "deployment") -> Workload:
    """A workload's spec, pods (described) and the events about them."""
    w = Workload(name, ns, kind)
    out = await op.k(f"get {kind} {name} -n {ns} -o yaml", f"read `{name}`'s spec")
    doc = rd.load_yaml(out)
    w.spec = doc if isinstance(doc, dict) and doc.get("kind") else {}
    meta = w.spec.get("metadata") or {}
    w.labels = dict(meta.get("labels") or {})
    w.annotations = dict(meta.get("annotations") or {})
    if kind == "pod":
        w.pods = [{"name": name, "status": (w.spec.get("status") or {}).get("phase", "")}]
    else:
        spec = w.spec.get("spec") or {}
        w.replicas = int(spec.get("replicas") or 0)
        w.selector = dict((spec.get("selector") or {}).get("matchLabels") or {})
    await refresh_pods(op, w)
    if w.pods:
        target = f"pod {w.pods[0]['name']}" if kind == "pod" else f"pods -l {sel(w)}"
        w.described = rd.describe_pods(
            await op.k(f"describe {target} -n {ns}", f"container states and events of `{name}`")
        )
    ev = await op.k(f"get events -n {ns}", f"recent events touching `{name}`")
    w.events = [ln for ln in ev.splitlines()[1:] if re.search(rf"/{re.escape(name)}\b", ln)]
    return w


def sel(w: Workload) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(w.selector.items())) or f"app={w.name}"


async def refresh_pods(op: Op, w: Workload, why: str = "") -> None:
    if w.kind == "pod":
        out = await op.k(f"get pod {w.name} -n {w.ns}", why or f"status of `{w.name}`")
    else:
        out = await op.k(f"get pods -n {w.ns} -l {sel(w)}", why or f"pods of `{w.name}`")
    w.pods = rd.table(out)


async def logs(op: Op, w: Workload) -> None:
    """Current logs, and the previous instance's when a container restarted."""
    key = {"pod": w.name} if w.kind == "pod" else {"deployment": w.name}
    if not op.has("logs_query"):
        return
    w.log = rd.log_lines(
        await op.q("logs_query", f"`{w.name}`'s logs", namespace=w.ns, tail=200, **key)
    )
    restarted = any(c.restarts or c.last_reason for p in w.described for c in p.containers)
    if restarted:
        w.previous = rd.log_lines(
            await op.q(
                "logs_query",
                f"the crashed instance of `{w.name}`",
                namespace=w.ns,
                previous=True,
                tail=200,
                **key,
            )
        )


def signal(w: Workload) -> list[tuple[str, str, int]]:
    """Error and warning lines of the workload's own logs, most frequent first."""
    return rd.signal_patterns(w.log + w.previous)


def config_refs(w: Workload) -> list[tuple[str, str, str]]:
    """(configmap, key, env var) the containers reference; key "" for a whole mount."""
    refs = []
    for c in w.containers() + w.containers(init=True):
        for e in c.get("env") or []:
            ref = ((e.get("valueFrom") or {}).get("configMapKeyRef")) or {}
            if ref.get("name"):
                refs.append((ref["name"], str(ref.get("key", "")), str(e.get("name", ""))))
        for ef in c.get("envFrom") or []:
            if (ef.get("configMapRef") or {}).get("name"):
                refs.append((ef["configMapRef"]["name"], "", ""))
    tmpl = w.template() if w.kind != "pod" else (w.spec.get("spec") or {})
    for v in tmpl.get("volumes") or []:
        if (v.get("configMap") or {}).get("name"):
            refs.append((v["configMap"]["name"], "", ""))
    return refs


async def configmap(op: Op, name: str, ns: str, why: str) -> dict[str, str] | None:
    out = await op.k(f"get configmap {name} -n {ns} -o yaml", why)
    doc = rd.load_yaml(out)
    if not isinstance(doc, dict) or doc.get("kind") != "ConfigMap":
        return None
    return {str(k): str(v) for k, v in (doc.get("data") or {}).items()}


async def series(op: Op, w: Workload, start: str = "-6h") -> dict[str, list[float]]:
    """The workload's own metric series (its service/deployment/pod label), by metric name."""
    if not op.has("metrics_query"):
        return {}
    names = rd.metric_names(
        await op.q("metrics_query", "which metrics exist", action="metric_names")
    )
    out: dict[str, list[float]] = {}
    for m in names:
        if m.startswith(("kube_", "node_", "instance:", "up")):
            continue
        text = await op.q(
            "metrics_query",
            f"`{m}` for `{w.name}`",
            action="query_range",
            query=f'{m}{{namespace="{w.ns}"}}',
            start=start,
        )
        for labels, values in rd.prom_series(text):
            who = " ".join(str(v) for v in labels.values())
            if values and re.search(rf"(?<![\w-]){re.escape(w.name)}(?![\w-])", who):
                out.setdefault(m, values)
    return out


def fmt(v: float) -> str:
    """A figure as people write it."""
    if abs(v) >= 1024**2:
        return rd.mib(v)
    if 0 < abs(v) < 1:
        return f"{v * 100:.1f}%".replace(".0%", "%")
    return f"{v:g}"
