"""heldout35's reads: which workload the request is about, and what it shows.

It follows the symptom: the workload the request names (else a pod it spells, else the
Service behind an ingress the request points at), then that workload's spec, pods, events,
logs, the ConfigMaps it reads, and the application's own series. Nothing here knows a
scenario; every choice is made from the task text and what the cluster answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout35_calls import Session

#: metric-name prefixes of the platform's own exporters (not an application's series)
PLATFORM_METRICS = ("kube_", "container_", "instance:", "node_", "apiserver_", "up")


@dataclass
class Workload:
    """What was read about the workload in focus."""

    ns: str
    name: str
    kind: str = "deployment"
    obj: dict[str, Any] = field(default_factory=dict)
    pods: list[rd.PodView] = field(default_factory=list)
    pod_rows: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    logs: list[rd.LogLine] = field(default_factory=list)
    previous: list[rd.LogLine] = field(default_factory=list)
    init_logs: dict[str, list[rd.LogLine]] = field(default_factory=dict)
    configmaps: dict[str, dict[str, str]] = field(default_factory=dict)
    refs: list[tuple[str, str, bool]] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    metric_calls: dict[str, int] = field(default_factory=dict)
    log_call: int = 0
    previous_call: int = 0
    describe_call: int = 0
    calls: dict[str, int] = field(default_factory=dict)

    @property
    def replicas(self) -> int:
        return int((self.obj.get("spec") or {}).get("replicas") or 0)

    @property
    def labels(self) -> dict[str, str]:
        return dict(((self.obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {})

    @property
    def selector(self) -> str:
        labels = self.labels or {"app": self.name}
        return ",".join(f"{k}={v}" for k, v in sorted(labels.items()))

    @property
    def containers(self) -> list[dict[str, Any]]:
        spec = ((self.obj.get("spec") or {}).get("template") or {}).get("spec") or {}
        if self.kind == "pod":
            spec = self.obj.get("spec") or {}
        return [c for c in spec.get("containers") or [] if isinstance(c, dict)]

    @property
    def annotations(self) -> dict[str, str]:
        return dict((self.obj.get("metadata") or {}).get("annotations") or {})

    def ready(self) -> tuple[int, int]:
        ready = sum(1 for r in self.pod_rows if _ready(r.get("ready", "")))
        return ready, len(self.pod_rows)


def _ready(cell: str) -> bool:
    a, _, b = cell.partition("/")
    return bool(a and a == b and a != "0")


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9.-]*[a-z0-9]", text.lower()))


def named_in(prompt: str, names: list[str]) -> list[str]:
    """Names the prompt spells (whole words, longest first)."""
    low = prompt.lower()
    hits = [
        n
        for n in names
        if n
        and any(
            re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", low)
            for form in {n.lower(), n.lower().replace("-", " ")}
        )
    ]
    return sorted(hits, key=len, reverse=True)


async def list_deployments(s: Session, ns: str) -> list[dict[str, str]]:
    out = await s.kubectl(
        f"get deployments -n {ns} -o wide", "list the workloads in the namespace in scope"
    )
    return rd.table(out)


async def list_pods(s: Session, ns: str, why: str = "") -> list[dict[str, str]]:
    out = await s.kubectl(
        f"get pods -n {ns} -o wide", why or "see every pod's status, restarts and node"
    )
    return rd.table(out)


async def subject(s: Session, ns: str) -> tuple[str, str]:
    """(kind, name) of the workload the request is about; ("", "") when it names none."""
    deps = [r.get("name", "") for r in await list_deployments(s, ns)]
    hit = named_in(s.prompt, deps)
    if hit:
        return "deployment", hit[0]
    pods = [r.get("name", "") for r in await list_pods(s, ns, "find the pod the request names")]
    hit = named_in(s.prompt, pods)
    if hit:
        return "pod", hit[0]
    for pod in pods:  # "cache-worker pod" -> cache-worker-x7k9
        base = pod.rsplit("-", 1)[0]
        if base and named_in(s.prompt, [base]):
            return "pod", pod
    # "the api pods": the one Deployment whose name starts with that word
    for word in re.findall(
        r"\b([a-z0-9-]+)\s+(?:pods?|deployment|service|workload)\b", s.prompt.lower()
    ):
        hits = [d for d in deps if d.startswith(word + "-") or d == word]
        if len(hits) == 1:
            return "deployment", hits[0]
    return "", ""


async def read_workload(s: Session, ns: str, kind: str, name: str) -> Workload:
    w = Workload(ns, name, kind)
    w.obj = (
        rd.load_yaml(
            await s.kubectl(
                f"get {kind} {name} -n {ns} -o yaml",
                f"read `{name}`'s spec: replicas, image, env references, resources",
            )
        )
        or {}
    )
    if not isinstance(w.obj, dict):
        w.obj = {}
    target = f"-l {w.selector}" if kind == "deployment" else name
    w.pod_rows = rd.table(
        await s.kubectl(f"get pods -n {ns} {target} -o wide", f"status of `{name}`'s pods")
    )
    if kind == "pod":
        w.pod_rows = [r for r in w.pod_rows if r.get("name") == name] or w.pod_rows
    w.pods = rd.describe_pods(
        await s.kubectl(
            f"describe pods -n {ns} {target}",
            f"container states, last termination and events of `{name}`'s pods",
        )
    )
    w.describe_call = len(s.calls)
    await _events(s, w)
    await _logs(s, w)
    await _configmaps(s, w)
    return w


async def _events(s: Session, w: Workload) -> None:
    out = await s.kubectl(
        f"get events -n {w.ns} --sort-by=.lastTimestamp",
        "recent events in the namespace (restarts, scheduling, rollouts)",
    )
    rows = rd.table(out)
    prefix = w.name if w.kind == "pod" else w.name + "-"
    w.events = [
        r
        for r in rows
        if r.get("object", "").split("/")[-1].startswith(prefix)
        or r.get("object", "").split("/")[-1] == w.name
    ]


async def _logs(s: Session, w: Workload) -> None:
    args: dict[str, Any] = {"namespace": w.ns, "tail": 200}
    args["pod" if w.kind == "pod" else "deployment"] = w.name
    if s.has("logs_query"):
        w.logs = rd.log_lines(
            await s.tool("logs_query", f"current log lines of `{w.name}`", **args)
        )
        w.log_call = len(s.calls)
    else:
        target = f"deployment/{w.name}" if w.kind == "deployment" else w.name
        w.logs = rd.log_lines(
            await s.kubectl(f"logs {target} -n {w.ns} --tail=200", f"log lines of `{w.name}`")
        )
        w.log_call = len(s.calls)
    restarted = any(c.restarts or c.last_reason for p in w.pods for c in p.containers)
    if restarted and s.has("logs_query"):
        w.previous = rd.log_lines(
            await s.tool(
                "logs_query",
                f"the crashed instance's last lines (`{w.name}` restarted)",
                previous=True,
                **args,
            )
        )
        w.previous_call = len(s.calls)
    for pod in w.pods[:1]:
        for c in pod.containers:
            if c.init and (c.restarts or "Error" in (c.reason + c.last_reason + c.state)):
                text = await s.kubectl(
                    f"logs {pod.name} -n {w.ns} -c {c.name} --previous",
                    f"init container `{c.name}` is failing: read its output",
                )
                if not rd.log_lines(text) or text.lower().startswith("error"):
                    text = await s.kubectl(
                        f"logs {pod.name} -n {w.ns} -c {c.name}",
                        f"init container `{c.name}`: current attempt's output",
                    )
                w.init_logs[c.name] = rd.log_lines(text)
                w.calls["init:" + c.name] = len(s.calls)


async def _configmaps(s: Session, w: Workload) -> None:
    names: set[str] = set()
    for c in w.containers:
        for env in c.get("env") or []:
            ref = ((env or {}).get("valueFrom") or {}).get("configMapKeyRef") or {}
            if ref.get("name"):
                names.add(ref["name"])
                w.refs.append((ref["name"], str(ref.get("key", "")), bool(ref.get("optional"))))
        for src in c.get("envFrom") or []:
            ref = (src or {}).get("configMapRef") or {}
            if ref.get("name"):
                names.add(ref["name"])
    spec = ((w.obj.get("spec") or {}).get("template") or {}).get("spec") or {}
    for vol in spec.get("volumes") or []:
        ref = (vol or {}).get("configMap") or {}
        if ref.get("name"):
            names.add(ref["name"])
    for name in sorted(names):
        doc = rd.load_yaml(
            await s.kubectl(
                f"get configmap {name} -n {w.ns} -o yaml",
                f"`{w.name}` reads ConfigMap `{name}`: check the keys it references exist",
            )
        )
        data = (doc or {}).get("data") if isinstance(doc, dict) else None
        w.calls["cm:" + name] = len(s.calls)
        w.configmaps[name] = {str(k): str(v) for k, v in (data or {}).items()}


async def app_metrics(s: Session, w: Workload, names: list[str] | None = None) -> None:
    """The application's own series for this workload (current value of each)."""
    if not s.has("metrics_query"):
        return
    if names is None:
        doc = rd.load_json(
            await s.tool(
                "metrics_query", "which series exist for this service", action="metric_names"
            )
        )
        names = [str(n) for n in (doc or {}).get("data", [])] if isinstance(doc, dict) else []
    for metric in names:
        if metric.startswith(PLATFORM_METRICS):
            continue
        out = await s.tool(
            "metrics_query",
            f"the service's own `{metric}` series",
            action="query",
            query=f'{metric}{{namespace="{w.ns}"}}',
        )
        for labels, values in rd.prom_series(out):
            who = labels.get("service") or labels.get("job") or labels.get("deployment") or ""
            if who == w.name and values:
                w.metrics[metric] = values[-1]
                w.metric_calls[metric] = len(s.calls)


def signal(lines: list[rd.LogLine]) -> list[tuple[str, str, int]]:
    return rd.signal_patterns(lines)


def missing_keys(w: Workload) -> list[tuple[str, str]]:
    """(configmap, key) a container references that the ConfigMap does not hold."""
    out = []
    for cm, key, optional in w.refs:
        if optional or cm not in w.configmaps:
            continue
        if key and key not in w.configmaps[cm]:
            out.append((cm, key))
    return out
