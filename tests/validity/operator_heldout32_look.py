"""heldout32's reads: the scope, the workload the operator names, and what it shows (written blind).

Generic reads only: what is in the namespaces of the task's scope, which workload the request
names, and that workload's pods, events, logs, config, metrics and traces. Parsing goes through
``operator_read``'s generic parsers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout32_chat import Thread


@dataclass
class Scene:
    """What the first sweep of the scope showed."""

    namespaces: list[str]
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)
    deployments: dict[str, list[str]] = field(default_factory=dict)
    pods: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    events: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    configmaps: dict[str, list[str]] = field(default_factory=dict)
    subject: tuple[str, str] | None = None

    def labels(self, ns: str) -> dict[str, str]:
        return dict((self.meta.get(ns) or {}).get("labels") or {})

    def notes(self, ns: str) -> dict[str, str]:
        return dict((self.meta.get(ns) or {}).get("annotations") or {})

    def production(self, ns: str) -> bool:
        values = " ".join(f"{k}={v}" for k, v in self.labels(ns).items()).lower()
        return bool(re.search(r"\bprod(uction)?\b", values) or re.search(r"\bprod", ns))


@dataclass
class Dig:
    """What one workload's reads showed."""

    ns: str
    name: str
    spec: dict[str, Any] = field(default_factory=dict)
    pods: list[rd.PodView] = field(default_factory=list)
    rows: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    logs: list[tuple[str, str, int]] = field(default_factory=list)
    prev_logs: list[tuple[str, str, int]] = field(default_factory=list)
    init_logs: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    history: str = ""
    series: dict[str, list[float]] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def containers(self) -> list[dict[str, Any]]:
        tpl = ((self.spec.get("spec") or {}).get("template") or {}).get("spec") or {}
        return list(tpl.get("containers") or [])

    @property
    def init_containers(self) -> list[dict[str, Any]]:
        tpl = ((self.spec.get("spec") or {}).get("template") or {}).get("spec") or {}
        return list(tpl.get("initContainers") or [])

    @property
    def replicas(self) -> int:
        return int((self.spec.get("spec") or {}).get("replicas") or 0)

    @property
    def selector(self) -> dict[str, str]:
        sel = ((self.spec.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        return {str(k): str(v) for k, v in sel.items()}

    @property
    def annotations(self) -> dict[str, str]:
        return dict((self.spec.get("metadata") or {}).get("annotations") or {})

    @property
    def labels(self) -> dict[str, str]:
        return dict((self.spec.get("metadata") or {}).get("labels") or {})


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9-]*[a-z0-9]", text.lower())


def named(prompt: str, names: list[str]) -> list[str]:
    """The names the request spells out, longest first; else those sharing a word with it."""
    low = prompt.lower()
    exact = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)]
    if exact:
        return sorted(exact, key=len, reverse=True)
    words = set(_words(prompt)) - {"the", "pods", "pod", "service", "deployment", "app"}
    loose = [
        n
        for n in names
        if set(n.lower().split("-")) & words
        or any("-" in w and n.lower().startswith(w + "-") for w in words)
    ]
    return sorted(loose, key=lambda n: (len(set(n.split("-")) - words), n))


async def sweep(t: Thread) -> Scene:
    """The scope at a glance: namespace labels, workloads, pods, events, config maps."""
    scope = list(t.task.scope.get("namespaces") or ["default"])
    scene = Scene(scope)
    for ns in scope:
        doc = rd.load_yaml(await t.kubectl(f"get namespace {ns} -o yaml"))
        scene.meta[ns] = (doc or {}).get("metadata") or {} if isinstance(doc, dict) else {}
        scene.deployments[ns] = [
            r.get("name", "") for r in rd.table(await t.kubectl(f"get deployments -n {ns}"))
        ]
        scene.pods[ns] = rd.table(await t.kubectl(f"get pods -n {ns} -o wide"))
        scene.events[ns] = rd.table(await t.kubectl(f"get events -n {ns}"))
        scene.configmaps[ns] = [
            r.get("name", "") for r in rd.table(await t.kubectl(f"get configmaps -n {ns}"))
        ]
    for ns in scope:
        hit = named(t.task.prompt, [d for d in scene.deployments[ns] if d])
        if hit:
            scene.subject = (ns, hit[0])
            break
    if scene.subject is None and re.search(
        r"\b5\d\d|ingress|public|external|site\b", t.task.prompt, re.I
    ):
        scene.subject = await _behind_ingress(t, scene)
    return scene


async def _behind_ingress(t: Thread, scene: Scene) -> tuple[str, str] | None:
    """No workload named: the ingress the request names (or the only one) and the Deployment
    its backend Service selects."""
    for ns in scene.namespaces:
        ings = [r.get("name", "") for r in rd.table(await t.kubectl(f"get ingress -n {ns}"))]
        pick = named(t.task.prompt, ings) or (ings if len(ings) == 1 else [])
        for ing in pick[:1]:
            doc = rd.load_yaml(await t.kubectl(f"get ingress {ing} -n {ns} -o yaml"))
            text = str(doc)
            svcs = re.findall(r"'service': \{'name': '([^']+)'", text)
            for svc in svcs:
                sdoc = rd.load_yaml(await t.kubectl(f"get service {svc} -n {ns} -o yaml"))
                sel = (
                    ((sdoc or {}).get("spec") or {}).get("selector") or {}
                    if isinstance(sdoc, dict)
                    else {}
                )
                deps = rd.items(await t.kubectl(f"get deployments -n {ns} -o yaml"))
                for dep in deps:
                    tpl = (
                        ((dep.get("spec") or {}).get("template") or {}).get("metadata") or {}
                    ).get("labels") or {}
                    if sel and all(tpl.get(k) == v for k, v in sel.items()):
                        name = str((dep.get("metadata") or {}).get("name"))
                        t.say(
                            f"the ask names no workload; ingress {ing} sends traffic to svc {svc}, "
                            f"which selects {name}. following that"
                        )
                        return ns, name
    return None


def pods_of(scene: Scene, ns: str, name: str) -> list[dict[str, str]]:
    pat = re.compile(rf"^{re.escape(name)}-([a-z0-9]+-)?[a-z0-9]+$")
    return [r for r in scene.pods.get(ns, []) if pat.match(r.get("name", ""))]


def _about(row: dict[str, str], pods: list[str], name: str) -> bool:
    obj = row.get("object", "")
    return (
        obj.split("/")[-1] in pods
        or obj.split("/")[-1].startswith(f"{name}-")
        or obj.endswith(f"/{name}")
    )


async def dig(t: Thread, scene: Scene, ns: str, name: str) -> Dig:
    """Everything about one workload: spec, pods, its events, logs, history, metrics."""
    d = Dig(ns, name)
    doc = rd.load_yaml(await t.kubectl(f"get deployment {name} -n {ns} -o yaml"))
    d.spec = doc if isinstance(doc, dict) else {}
    d.rows = pods_of(scene, ns, name)
    names = [r.get("name", "") for r in d.rows]
    for pod in names[:3]:
        d.pods.extend(rd.describe_pods(await t.kubectl(f"describe pod {pod} -n {ns}")))
    d.events = [e for e in scene.events.get(ns, []) if _about(e, names, name)]
    if t.has("logs_query"):
        d.logs = rd.signal_patterns(
            rd.log_lines(await t.run("logs_query", namespace=ns, deployment=name, tail=200))
        )
        if any(c.restarts or c.last_reason for p in d.pods for c in p.containers):
            d.prev_logs = rd.signal_patterns(
                rd.log_lines(
                    await t.run(
                        "logs_query", namespace=ns, deployment=name, previous=True, tail=100
                    )
                )
            )
        for init in d.init_containers:
            bad = [c for p in d.pods for c in p.containers if c.init and c.name == init.get("name")]
            if bad and any(c.reason or c.last_reason or c.restarts for c in bad):
                lines = await t.run(
                    "logs_query", namespace=ns, pod=names[0], container=init["name"], tail=50
                )
                d.init_logs[init["name"]] = rd.signal_patterns(rd.log_lines(lines))
    d.history = await t.kubectl(f"rollout history deployment/{name} -n {ns}")
    if t.has("metrics_query"):
        await _metrics(t, d)
    return d


_METRIC = re.compile(r"memory_working|cpu_usage|error|latency|duration|request|5xx|restart", re.I)


async def _metrics(t: Thread, d: Dig) -> None:
    names = rd.load_json(await t.run("metrics_query", action="metric_names")) or {}
    listed = names.get("data") if isinstance(names, dict) else None
    wanted = [str(n) for n in listed or [] if _METRIC.search(str(n))][:12]
    for metric in wanted:
        text = await t.run(
            "metrics_query", action="query_range", query=metric, start="-6h", step="30m"
        )
        for labels, values in rd.prom_series(text):
            tag = " ".join(str(v) for v in labels.values())
            if values and re.search(rf"(?<![\w-]){re.escape(d.name)}(?![\w-])", tag):
                who = labels.get("pod") or labels.get("container") or d.name
                d.series[f"{metric}|{who}"] = values
    d.alerts = rd.alerts(await t.run("metrics_query", action="alerts"))


async def configmap(t: Thread, ns: str, name: str) -> dict[str, str]:
    doc = rd.load_yaml(await t.kubectl(f"get configmap {name} -n {ns} -o yaml"))
    data = (doc or {}).get("data") if isinstance(doc, dict) else None
    return {str(k): str(v) for k, v in (data or {}).items()}


def config_refs(d: Dig) -> list[tuple[str, str | None]]:
    """(config map, key or None) pairs the pod template reads: env keys, envFrom, volumes."""
    out: list[tuple[str, str | None]] = []
    for c in d.containers:
        for env in c.get("env") or []:
            ref = (env.get("valueFrom") or {}).get("configMapKeyRef") or {}
            if ref.get("name"):
                out.append((str(ref["name"]), str(ref.get("key"))))
        for src in c.get("envFrom") or []:
            ref = src.get("configMapRef") or {}
            if ref.get("name"):
                out.append((str(ref["name"]), None))
    tpl = ((d.spec.get("spec") or {}).get("template") or {}).get("spec") or {}
    for vol in tpl.get("volumes") or []:
        ref = vol.get("configMap") or {}
        if ref.get("name"):
            out.append((str(ref["name"]), None))
    return out


def fmt(value: float, metric: str) -> str:
    if "bytes" in metric or "memory" in metric:
        return rd.mib(value)
    if "ratio" in metric or "error_rate" in metric:
        return f"{value * 100:.1f}%" if value <= 1 else f"{value:.1f}%"
    if "seconds" in metric and "cpu" not in metric:
        return f"{value * 1000:.0f}ms"
    return f"{value:g}" if value >= 0.01 else f"{value:.4f}"
